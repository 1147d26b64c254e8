/**
 * Storage of TIMESTAMP columns with picosecond precision (REST `timestampPrecision: '12'`,
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/tables#TableFieldSchema.FIELDS.timestamp_precision).
 *
 * DuckDB's TIMESTAMPTZ holds microseconds, which is what every query computes with. A top-level
 * TIMESTAMP(12) column keeps that column as it is and gets a hidden companion column
 * `__bqemu_picos_<name>` (HUGEINT): the value's picoseconds since the epoch, written by insertAll.
 * Queries never see it (scans name their columns, src/engine/lower/scans.ts); tabledata.list
 * reads it and writes all twelve digits under `timestampOutputFormat: ISO8601_STRING`.
 *
 * The companion only counts while it agrees with the column: a row whose TIMESTAMP was written by
 * a statement (INSERT, UPDATE, MERGE…; the engine computes in microseconds) has a companion that
 * is NULL or of another microsecond, and reads as the column's microseconds. Table copies and
 * clones (`SELECT *` into a table created from the same columns) carry it along.
 */
import type { Column } from '../types/schema.js';
import type { Value } from '../types/types.js';
import { microsOfPicos, PICOS_PER_MICRO } from '../types/temporal.js';
import { ident } from './lower/context.js';

/** Whether a column is a top-level TIMESTAMP(12) (REPEATED and nested ones keep microseconds). */
export function isPicosColumn(c: Column): boolean {
  return c.type.kind === 'TIMESTAMP' && c.timestampPrecision === 12;
}

/** The DuckDB name of a TIMESTAMP(12) column's companion. */
export function picosColumnName(column: string): string {
  return `__bqemu_picos_${column}`;
}

/** DuckDB column definitions of the companions of `columns` (after the table's own columns). */
export function picosColumnsDdl(columns: Column[]): string[] {
  return columns.filter(isPicosColumn).map((c) => `${ident(picosColumnName(c.name))} HUGEINT`);
}

/** `ALTER TABLE … ADD COLUMN IF NOT EXISTS` of the companion of a column that became TIMESTAMP(12). */
export function addPicosColumnSql(duckName: string, c: Column): string {
  return `ALTER TABLE ${ident(duckName)} ADD COLUMN IF NOT EXISTS ${ident(picosColumnName(c.name))} HUGEINT`;
}

/** The select item reading a companion as decimal text (read back with {@link picosOf}). */
export function picosSelectItem(c: Column): string {
  return `CAST(${ident(picosColumnName(c.name))} AS VARCHAR)`;
}

/**
 * The picoseconds of a stored TIMESTAMP(12) cell: the companion's when it holds the same
 * microsecond as the column, else the column's microseconds × 10^6; null for NULL.
 * @param micros the column's domain value (µs since the epoch, bigint) or null.
 * @param stored the companion as read by {@link picosSelectItem} (decimal text) or null.
 */
export function picosOf(micros: Value, stored: Value): bigint | null {
  if (typeof micros !== 'bigint') return null;
  if (typeof stored === 'string' && /^-?\d+$/.test(stored)) {
    const p = BigInt(stored);
    if (microsOfPicos(p) === micros) return p;
  }
  return micros * PICOS_PER_MICRO;
}

/**
 * Literal of a companion value for `INSERT … VALUES` (an integer literal DuckDB reads as
 * HUGEINT), or NULL.
 */
export function picosLiteral(picos: bigint | null | undefined): string {
  return typeof picos === 'bigint' ? `CAST('${picos}' AS HUGEINT)` : 'NULL';
}
