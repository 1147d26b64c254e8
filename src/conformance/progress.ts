/**
 * The runner's progress bar: one line on stderr, redrawn in place on a terminal,
 * `[#########...........]  412/912  45%  3 failing`.
 */

/** Formats the bar for `done` of `total` fixtures, `width` characters wide. */
export function progressLine(done: number, total: number, failing: number, width = 30): string {
  const frac = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(frac * width);
  const count = `${String(done).padStart(String(total).length)}/${total}`;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${count} ${String(Math.floor(frac * 100)).padStart(3)}%${failing ? `  ${failing} failing` : ''}`;
}
