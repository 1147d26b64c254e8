/**
 * Refusals of statements that would change rows still in a table's streaming buffer (rows written
 * by tabledata.insertAll within the buffer window, src/engine/streaming-buffer.ts). BigQuery "DML
 * limitations" (https://cloud.google.com/bigquery/docs/data-manipulation-language#limitations):
 * "Rows that were recently written using the tabledata.insertall streaming method can't be
 * modified with data manipulation language (DML), such as UPDATE, DELETE, MERGE, or TRUNCATE
 * statements."
 */
import { BigQueryError } from './bigquery-error.js';

/**
 * 400 badRequest `UPDATE or DELETE statement over table p.d.t would affect rows in the streaming
 * buffer, which is not supported` — an UPDATE, DELETE or MERGE that would change or remove a
 * buffered row. Text, reason and status from BigQuery's "Error messages" table
 * (https://cloud.google.com/bigquery/docs/error-messages, row `badRequest`, 400).
 * `table` is `project.dataset.table`.
 */
export function dmlOverStreamingBuffer(table: string): BigQueryError {
  return new BigQueryError('badRequest', `UPDATE or DELETE statement over table ${table} would affect rows in the streaming buffer, which is not supported`);
}

/**
 * 400 badRequest `TRUNCATE DML statement over table p.d.t would affect rows in the streaming
 * buffer, which is not supported` — TRUNCATE TABLE of a table whose streaming buffer holds rows
 * (TRUNCATE is among the statements the DML limitations name; the text as public reports quote
 * BigQuery's answer, e.g. the BigQuery destination of supabase/etl). `table` is `project.dataset.table`.
 */
export function truncateOverStreamingBuffer(table: string): BigQueryError {
  return new BigQueryError('badRequest', `TRUNCATE DML statement over table ${table} would affect rows in the streaming buffer, which is not supported`);
}
