/**
 * Result-size guards: nothing a query returns may grow the emulator's memory without a bound.
 * - one STRING/BYTES/JSON value above BigQuery's maximum row size (100 MB) fails inside DuckDB,
 *   before it is decoded into a JavaScript string (V8 aborts the whole process on a string of more
 *   than 512 MB: `Check failed: i::kMaxInt >= len` in TextDecoder.decode);
 * - the decoded rows of one result are counted as they are read, chunk by chunk, and past the
 *   response limit the query stops with BigQuery's "Response too large to return." (reason
 *   responseTooLarge, https://cloud.google.com/bigquery/docs/error-messages#errortable).
 * Limits: src/config/limits.ts.
 */
import { MAX_RESULT_VALUE_BYTES } from '../config/limits.js';
import { BigQueryError } from '../errors/errors.js';
import type { BqType, Value } from '../types/types.js';

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The SQL literal of BigQuery's "Response too large" text, built once (an error object per query cost ~20 µs). */
let tooLargeLiteral: string | undefined;
const tooLarge = () => (tooLargeLiteral ??= sqlString(BigQueryError.responseTooLarge().message));

/**
 * `col` (DuckDB SQL of a top-level result column of GoogleSQL type `t`) with a size check when the
 * type is a STRING, BYTES or JSON value: larger than {@link MAX_RESULT_VALUE_BYTES} raises
 * BigQuery's "Response too large to return." in DuckDB (mapped back by mapDuckDBError).
 */
function guardValueSize(col: string, t: BqType): string {
  const size = t.kind === 'STRING' ? `strlen(${col})` : t.kind === 'BYTES' ? `octet_length(${col})` : t.kind === 'JSON' ? `strlen(CAST(${col} AS VARCHAR))` : undefined;
  if (!size) return col;
  return `CASE WHEN ${size} > ${MAX_RESULT_VALUE_BYTES} THEN error(${tooLarge()}) ELSE ${col} END`;
}

/**
 * `sql` (a SELECT whose columns are `fields`, in order) with {@link guardValueSize} applied to its
 * STRING/BYTES/JSON columns through DuckDB's positional references (`#1`); unchanged when it has
 * none. The outer projection keeps the rows' order.
 */
export function guardValueSizes(sql: string, fields: readonly { type: BqType }[]): string {
  if (!fields.some((f) => f.type.kind === 'STRING' || f.type.kind === 'BYTES' || f.type.kind === 'JSON')) return sql;
  return `SELECT ${fields.map((f, i) => guardValueSize(`#${i + 1}`, f.type)).join(', ')} FROM (${sql})`;
}

/** Kinds whose decoded values have a size that depends on the data. */
const VARIABLE = new Set(['STRING', 'BYTES', 'JSON', 'GEOGRAPHY', 'ARRAY', 'STRUCT', 'NUMERIC', 'BIGNUMERIC', 'RANGE']);

/** True when values of `t` must be measured one by one (else a fixed size per cell is counted). */
export function isVariableSize(t: BqType): boolean {
  return VARIABLE.has(t.kind);
}

/** Bytes counted for one cell of a fixed-size type (number, bigint, boolean, Date …). */
export const FIXED_CELL_BYTES = 16;

/**
 * An estimate of the memory a decoded domain value holds, in bytes (strings at 2 bytes per UTF-16
 * unit, buffers by length, containers by their members plus a small overhead). Linear in the value.
 */
export function approxValueBytes(v: Value | unknown): number {
  if (v === null || v === undefined) return 8;
  switch (typeof v) {
    case 'string':
      return 16 + 2 * v.length;
    case 'object': {
      if (v instanceof Uint8Array) return 16 + v.byteLength;
      if (Array.isArray(v)) {
        let n = 16;
        for (const x of v) n += approxValueBytes(x);
        return n;
      }
      let n = 16;
      for (const x of Object.values(v as Record<string, unknown>)) n += approxValueBytes(x);
      return n;
    }
    default:
      return FIXED_CELL_BYTES;
  }
}
