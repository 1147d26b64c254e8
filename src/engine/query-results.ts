/**
 * A query job's result rows, read the cheapest way for their size (the rows a job keeps and
 * `jobs.getQueryResults` pages, https://cloud.google.com/bigquery/docs/reference/rest/v2/jobs/getQueryResults):
 * domain values encoded in JavaScript for a small result, REST row texts built inside DuckDB
 * (src/engine/result-json.ts) for a large one — from the chunks of the query's one run when it
 * kept them, else from a second run.
 */
import { BigQueryError } from '../errors/errors.js';
import type { Value } from '../types/types.js';
import type { EncodedRows } from '../wire/encoded-rows.js';
import type { Engine, ResultField } from './engine-types.js';
import { releaseChunk } from './duckdb/native-memory.js';
import { bulkEncodable, bulkKinds, readEncodedChunks, readEncodedRows } from './result-json.js';
import { DUCKDB_CHUNK_ROWS, decodeChunks, readRows, readRowsIfSmall } from './statement-context.js';

/**
 * Decoded size (readRows' measure, src/engine/result-size.ts) up to which a result is read as
 * domain values; past it its text is built in DuckDB, from its chunks (kept undecoded by
 * readRowsIfSmall) or from a second run. CPU per result of 4 columns (STRING, STRING, INT64,
 * FLOAT64; ~130 bytes a row here, so ~1,000 rows), domain values with the JavaScript encoders
 * against the bulk text: 500 rows 2.9–4.6 against 3.8–4.9 ms, 2,000 rows 7.8–12.0 against
 * 6.1–9.3, 10,000 rows 31–45 against 17–23; the server's choice with this size against 256 KB and
 * 64 KB: 1,000 rows 6.1 / 6.8 / 10.9 ms, 2,000 rows 8.4 / 12.8 / 12.6, 5,000 rows 15.3 / 19.1 / 19.5
 * (bench/results/2026-11-27-bulk-threshold.md).
 */
const SMALL_RESULT_BYTES = 128 * 1024;

/**
 * The rows of `sql` (a SELECT whose columns are `fields`) for a job's result: as domain values when
 * the result is small or a column is not {@link bulkEncodable}; otherwise — the first
 * {@link SMALL_RESULT_BYTES} read showed a large result, and DuckDB's column types — with its REST
 * text built inside DuckDB: from the result's chunks when the first run kept them all
 * (readRowsIfSmall: a query whose first row came late, as a sort's or an aggregate's), else from
 * the query run again ({@link readEncodedRows}). A kept result that cannot be put in a table
 * (DuckDB's error) is run again.
 * `rowsAtMost`: the most rows the query can return, when the resolved AST says.
 * @throws BigQueryError `responseTooLarge` past the engine's response limit; the query's errors.
 */
export async function readResultRows(e: Engine, sql: string, fields: readonly ResultField[], rowsAtMost?: number): Promise<{ rows: Value[][] } | { encodedRows: EncodedRows }> {
  // One chunk's rows at most (src/engine/lower/row-bound.ts): read once, as domain values.
  if (rowsAtMost !== undefined && rowsAtMost <= DUCKDB_CHUNK_ROWS) return { rows: await readRows(e, sql, [...fields], e.maxResponseBytes, undefined, rowsAtMost) };
  const small = Math.min(SMALL_RESULT_BYTES, e.maxResponseBytes);
  if (!bulkKinds(fields) || small >= e.maxResponseBytes) return { rows: await readRows(e, sql, [...fields]) };
  const duckTypes: string[] = [];
  const first = await readRowsIfSmall(e, sql, [...fields], small, duckTypes);
  if ('rows' in first) return first;
  const encodable = bulkEncodable(fields, duckTypes);
  if ('chunks' in first) {
    if (!encodable) return { rows: decodeChunks(first.chunks, [...fields], e.maxResponseBytes) };
    try {
      const encodedRows = await readEncodedChunks(e, first.chunks, duckTypes, fields);
      if (encodedRows) return { encodedRows };
    } catch (err) {
      if (err instanceof BigQueryError && err.reason === 'responseTooLarge') throw err;
      e.log.debug({ err }, 'a kept result could not be read from a table: the query runs again');
    } finally {
      // Appended to the table (copied) or not needed: their memory goes back to DuckDB now.
      first.chunks.forEach(releaseChunk);
    }
  }
  const encodedRows = encodable ? await readEncodedRows(e, sql, fields) : undefined;
  return encodedRows ? { encodedRows } : { rows: await readRows(e, sql, [...fields]) };
}
