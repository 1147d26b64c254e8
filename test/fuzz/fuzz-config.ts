/**
 * Fuzz knobs for the bounded runs in `npm test`: a fixed seed by default (reproducible), and a run
 * count scale. Override with `BQEMU_FUZZ_SEED=<int>` and `BQEMU_FUZZ_SCALE=<factor>` (e.g. 10 for
 * a deeper local run); the seed in use is printed with every summary.
 */
export const FUZZ_SEED = Number(process.env.BQEMU_FUZZ_SEED ?? 20261126);

/** `n` scaled by BQEMU_FUZZ_SCALE (default 1), at least 1. */
export function runs(n: number): number {
  const scale = Number(process.env.BQEMU_FUZZ_SCALE ?? 1);
  return Math.max(1, Math.round(n * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}
