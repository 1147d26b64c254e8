/**
 * Best-effort de-duplication of streamed rows by `insertId` (tabledata.insertAll rows): a row whose
 * insertId the table saw within INSERT_ID_WINDOW_MS (src/config/timeouts.ts) is acknowledged but
 * not added again, so a client's retry after a lost answer does not double the data
 * (https://cloud.google.com/bigquery/docs/streaming-data-into-bigquery, "Best effort
 * de-duplication"). The memory lives with the table's catalog entry: a table dropped and created
 * again starts with none.
 */
import type { TableMeta } from '../catalog/store.js';
import { INSERT_ID_WINDOW_MS } from '../config/timeouts.js';

/** Most insertIds kept per table; the oldest are forgotten first (best effort, as in BigQuery). */
const MAX_IDS_PER_TABLE = 1_000_000;

/** Per table: insertId → when it was accepted (ms since the epoch), oldest first. */
const seen = new WeakMap<TableMeta, Map<string, number>>();

function idsOf(t: TableMeta, now: number): Map<string, number> {
  let ids = seen.get(t);
  if (!ids) seen.set(t, (ids = new Map()));
  // Forget what left the window (insertion order is time order).
  for (const [id, at] of ids) {
    if (now - at < INSERT_ID_WINDOW_MS && ids.size <= MAX_IDS_PER_TABLE) break;
    ids.delete(id);
  }
  return ids;
}

/**
 * Which of `insertIds` (one per row; undefined/empty = none given) are duplicates: seen by the
 * table within the window, or repeated earlier in the same request.
 * @returns a flag per row, true = drop the row.
 */
export function duplicateInsertIds(t: TableMeta, insertIds: (string | undefined)[], now = Date.now()): boolean[] {
  const ids = idsOf(t, now);
  const inRequest = new Set<string>();
  return insertIds.map((id) => {
    if (!id) return false;
    const dup = ids.has(id) || inRequest.has(id);
    inRequest.add(id);
    return dup;
  });
}

/** Remembers the insertIds of rows just added to `t`. */
export function rememberInsertIds(t: TableMeta, insertIds: (string | undefined)[], now = Date.now()): void {
  const ids = idsOf(t, now);
  for (const id of insertIds) {
    if (!id) continue;
    ids.delete(id);
    ids.set(id, now);
  }
}
