/**
 * BigQuery's range of the civil and absolute types (Data types,
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#date_type): DATE and
 * DATETIME 0001-01-01 … 9999-12-31 (23:59:59.999999), TIMESTAMP 0001-01-01 00:00:00 …
 * 9999-12-31 23:59:59.999999 UTC. DuckDB's own types reach far past both ends (year 0, 10000…),
 * so every function that can step outside tests its result against these bounds in SQL.
 */

/** The bounds of each type as DuckDB literals (DATE, civil TIMESTAMP, TIMESTAMPTZ). */
export const RANGE: Record<'date' | 'datetime' | 'timestamp', [string, string]> = {
  date: [`DATE '0001-01-01'`, `DATE '9999-12-31'`],
  datetime: [`TIMESTAMP '0001-01-01 00:00:00'`, `TIMESTAMP '9999-12-31 23:59:59.999999'`],
  timestamp: [`TIMESTAMPTZ '0001-01-01 00:00:00+00'`, `TIMESTAMPTZ '9999-12-31 23:59:59.999999+00'`],
};

/** SQL: DuckDB value `v` (of `kind`'s DuckDB type) lies outside BigQuery's range (NULL for NULL). */
export const outOfRange = (v: string, kind: keyof typeof RANGE): string => `(${v} < ${RANGE[kind][0]} OR ${v} > ${RANGE[kind][1]})`;

/** SQL: `v`, or `err` (an `error(…)` or NULL under SAFE) when it lies outside `kind`'s range. */
export const rangeOr = (v: string, kind: keyof typeof RANGE, err: string): string => `CASE WHEN ${outOfRange(v, kind)} THEN ${err} ELSE ${v} END`;
