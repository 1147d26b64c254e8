/**
 * Byte sizes of kept query results, so neither the retained job history nor one REST page grows
 * without a bound: results are measured once when a job finishes (the REST text of encoded rows,
 * else an estimate of the decoded values, src/engine/result-size.ts), and a page stops at
 * {@link MAX_PAGE_BYTES} even when `maxResults` allows more rows (BigQuery pages results the same
 * way: "the response is limited to 10 MB", https://cloud.google.com/bigquery/docs/paging-results).
 */
import { approxValueBytes } from '../engine/result-size.js';
import type { Value } from '../types/types.js';
import { EncodedRows } from '../wire/encoded-rows.js';
import { DEFAULT_MAX_RETAINED_BYTES } from '../config/limits.js';

/** Largest REST page of rows, in bytes of row text (at least one row is always returned). */
export const MAX_PAGE_BYTES = 10 * 1024 * 1024;

/** Bytes of finished results kept in memory over all jobs by default (src/config/limits.ts). */
export { DEFAULT_MAX_RETAINED_BYTES };

/** Size of one kept row: the length of its REST text, or an estimate of its decoded values. */
function rowBytes(row: string | Value[]): number {
  return typeof row === 'string' ? row.length : approxValueBytes(row);
}

/** Size of a result kept as REST row texts or as decoded rows, in bytes. */
export function keptBytes(rows: readonly (string | Value[])[] | EncodedRows | undefined): number {
  if (rows instanceof EncodedRows) return rows.bytes;
  let n = 0;
  for (const r of rows ?? []) n += rowBytes(r);
  return n;
}

/**
 * The end (exclusive) of a page starting at `start` that holds at most `end - start` rows and,
 * after the first row, no more than {@link MAX_PAGE_BYTES}.
 */
export function pageEnd(rows: readonly (string | Value[])[] | EncodedRows, start: number, end: number): number {
  // Kept encoded: measured a block at a time where a whole block fits.
  if (rows instanceof EncodedRows) return rows.pageEnd(start, end, MAX_PAGE_BYTES);
  let bytes = 0;
  for (let i = start; i < end; i++) {
    bytes += rowBytes(rows[i]!);
    if (bytes > MAX_PAGE_BYTES && i > start) return i;
  }
  return end;
}

/** Bytes of each kept result by job key, and their total (the retained job history's byte bound). */
export class ByteLedger {
  private readonly byKey = new Map<string, number>();
  total = 0;

  add(key: string, bytes: number): void {
    this.remove(key);
    this.byKey.set(key, bytes);
    this.total += bytes;
  }

  remove(key: string): void {
    this.total -= this.byKey.get(key) ?? 0;
    this.byKey.delete(key);
  }
}
