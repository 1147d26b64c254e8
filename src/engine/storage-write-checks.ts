/**
 * The checks of a Storage Write API append (src/engine/storage-write.ts), each request on its own:
 * table guards as insertAll applies them (snapshots are read-only: src/engine/table-guards.ts),
 * the stream's state and offset (https://cloud.google.com/bigquery/docs/write-api#exactly-once),
 * and the columns' type parameters (src/engine/type-params.ts) as row errors.
 */
import { BigQueryError } from '../errors/errors.js';
import type { Column } from '../types/schema.js';
import type { Value } from '../types/types.js';
import type { WriteRowError } from '../wire/write-rows.js';
import type { TableMeta } from '../catalog/store.js';
import { checkSnapshotWrite } from './table-guards.js';
import { enforceRows } from './type-params.js';

/**
 * Why an append at `offset` to `w` whose end is `end` is refused, if it is: a snapshot, an offset
 * on `_default`, a finalized stream, an offset below the end (ALREADY_EXISTS) or beyond it.
 */
export function refusalOf(
  w: { name: string; table: TableMeta; stream?: { name: string; type: string; finalizeMs?: number; commitMs?: number } },
  offset: number | undefined,
  end: number,
): BigQueryError | undefined {
  try {
    guardSnapshot(w.table);
  } catch (e) {
    if (e instanceof BigQueryError) return e;
    throw e;
  }
  const s = w.stream;
  if (!s) return offset !== undefined ? BigQueryError.defaultStreamOffset(w.name) : undefined;
  if (s.finalizeMs !== undefined || (s.type === 'PENDING' && s.commitMs !== undefined)) return BigQueryError.writeStreamFinalized(s.name);
  if (offset !== undefined && offset < end) return BigQueryError.appendOffsetAlreadyExists(end, offset, s.name);
  if (offset !== undefined && offset > end) return BigQueryError.appendOffsetBeyondEnd(end, offset, s.name);
  return undefined;
}

/**
 * Table snapshots are read-only: the insertAll guard's text, as reason invalid.
 * @throws BigQueryError invalid for a snapshot.
 */
export function guardSnapshot(t: TableMeta): void {
  try {
    checkSnapshotWrite(t);
  } catch (e) {
    throw e instanceof BigQueryError ? BigQueryError.invalid(e.message) : e;
  }
}

/**
 * Applies the columns' type parameters (STRING(L), NUMERIC(P, S)…) as insertAll does; a row that
 * breaks one becomes a row error (FIELDS_ERROR with the parameter's text) and the request appends nothing.
 */
export function checkRows(columns: Column[], rows: (Value | undefined)[][]): { rows: (Value | undefined)[][] } | { rowErrors: WriteRowError[] } {
  try {
    return { rows: enforceRows(columns, rows) };
  } catch (err) {
    if (!(err instanceof BigQueryError)) throw err;
    const rowErrors: WriteRowError[] = [];
    rows.forEach((r, index) => {
      try {
        enforceRows(columns, [r]);
      } catch (e) {
        rowErrors.push({ index, code: 'FIELDS_ERROR', message: (e as Error).message });
      }
    });
    return { rowErrors };
  }
}
