/**
 * CSV exports written by DuckDB itself (`COPY … TO … (FORMAT CSV)`): each column's export text is
 * built by a DuckDB expression with the same bytes as the JavaScript writer's `exportText`
 * (export-writers.ts, BigQuery "Export table data to Cloud Storage" / "Exported data formats"), and
 * DuckDB's CSV writer quotes exactly as `csvText` does (a field holding the delimiter, a quote, CR
 * or LF is quoted with doubled quotes, RFC 4180). The rows never reach JavaScript: a 1M-row CSV
 * extract read 1M rows into domain values and turned them into text on the main thread (~2.5 s of
 * the event loop's time, bench/server-stalls.ts); DuckDB writes the file on its own threads.
 *
 * Only column types whose text is built here (INT64, FLOAT64, BOOL, STRING, BYTES, DATE,
 * TIMESTAMP) and single-character ASCII delimiters take this path; any other table is written by
 * export-writers.ts as before.
 */
import type { BqType } from '../types/types.js';
import { quoteIdent } from './duckdb/types.js';
import { sqlString } from '../functions/registry.js';

/**
 * The pieces of ECMAScript's Number::toString (`String(v)`, the FLOAT64 export text) of a DOUBLE,
 * computed one projection level after another so that DuckDB casts each value to text once (one
 * expression repeating the cast cost ~3× the whole extract's CPU). From DuckDB's shortest
 * round-trip text `s` of |x| (`1.5e+20`, `1e-05`, `123.25`, `0.001`): the digits `d` without
 * leading or trailing zeros and the point position `n` (|x| = 0.d × 10^n); the text is then laid
 * out as the specification says — plain when -6 < n ≤ 21, else `d[.ddd]e±(n-1)` — with `NaN`,
 * `Infinity`, `-Infinity`, and `0` for both zeros
 * (https://tc39.es/ecma262/#sec-numeric-types-number-tostring).
 */
const numberText = {
  /** Level 1: DuckDB's text of |x|. */
  s: (x: string) => `CAST(abs(${x}) AS VARCHAR)`,
  /** Level 2: the digits, from level 1's `s`. */
  d: (s: string) =>
    `CASE WHEN contains(${s}, 'e') THEN rtrim(replace(split_part(${s}, 'e', 1), '.', ''), '0') ` +
    `WHEN split_part(${s}, '.', 1) <> '0' THEN rtrim(replace(${s}, '.', ''), '0') ELSE trim(split_part(${s}, '.', 2), '0') END`,
  /** Level 2: the point position, from level 1's `s`. */
  n: (s: string) =>
    `CASE WHEN contains(${s}, 'e') THEN CAST(split_part(${s}, 'e', 2) AS INTEGER) + length(split_part(split_part(${s}, 'e', 1), '.', 1)) ` +
    `WHEN split_part(${s}, '.', 1) <> '0' THEN length(split_part(${s}, '.', 1)) ELSE length(ltrim(split_part(${s}, '.', 2), '0')) - length(split_part(${s}, '.', 2)) END`,
  /** Level 3: the text of `x` from level 2's digits `d` and point position `n`. */
  text: (x: string, d: string, n: string) => {
    const k = `length(${d})`;
    const layout =
      `CASE WHEN ${k} <= ${n} AND ${n} <= 21 THEN ${d} || repeat('0', ${n} - ${k}) ` +
      `WHEN 0 < ${n} AND ${n} <= 21 THEN left(${d}, ${n}) || '.' || substr(${d}, ${n} + 1) ` +
      `WHEN -6 < ${n} AND ${n} <= 0 THEN '0.' || repeat('0', -${n}) || ${d} ` +
      `ELSE left(${d}, 1) || CASE WHEN ${k} > 1 THEN '.' || substr(${d}, 2) ELSE '' END || 'e' || CASE WHEN ${n} >= 1 THEN '+' ELSE '-' END || CAST(abs(${n} - 1) AS VARCHAR) END`;
    return (
      `CASE WHEN isnan(${x}) THEN 'NaN' WHEN isinf(${x}) THEN CASE WHEN ${x} > 0 THEN 'Infinity' ELSE '-Infinity' END WHEN ${x} = 0 THEN '0' ` +
      `ELSE CASE WHEN ${x} < 0 THEN '-' ELSE '' END || ${layout} END`
    );
  },
};

/**
 * The export text of column `c` (a DuckDB column of BigQuery type `t`) as a DuckDB VARCHAR
 * expression, NULL for a NULL value; undefined when its type is not built here. An empty text is
 * NULL too: the JavaScript writer leaves both an empty field, while DuckDB's writer would quote an
 * empty string (`""`) to tell it from NULL.
 */
function exportTextSql(c: string, t: BqType): string | undefined {
  switch (t.kind) {
    case 'INT64':
      return `CAST(CAST(${c} AS BIGINT) AS VARCHAR)`;
    case 'BOOL':
      return `CASE WHEN ${c} IS NULL THEN NULL WHEN CAST(${c} AS BOOLEAN) THEN 'true' ELSE 'false' END`;
    case 'STRING':
      return `nullif(CAST(${c} AS VARCHAR), '')`;
    case 'BYTES':
      return `nullif(to_base64(CAST(${c} AS BLOB)), '')`;
    case 'DATE':
      return `strftime(CAST(${c} AS DATE), '%Y-%m-%d')`;
    case 'TIMESTAMP': {
      // `YYYY-MM-DD HH:MM:SS[.fff[fff]] UTC` (formatTimestampUtc without its `+00`): milliseconds
      // when the microseconds are whole milliseconds, else six digits (temporal.ts formatFraction).
      const ts = `CAST(${c} AS TIMESTAMP)`;
      const us = `microsecond(${ts}) % 1000000`;
      const frac = `CASE WHEN ${us} = 0 THEN '' WHEN ${us} % 1000 = 0 THEN '.' || lpad(CAST(${us} // 1000 AS VARCHAR), 3, '0') ELSE '.' || lpad(CAST(${us} AS VARCHAR), 6, '0') END`;
      return `strftime(${ts}, '%Y-%m-%d %H:%M:%S') || ${frac} || ' UTC'`;
    }
    default:
      return undefined;
  }
}

/** A column of a CSV export: its name (the header's text) and BigQuery type. */
export interface CsvColumn {
  name: string;
  type: BqType;
}

/**
 * The query of a CSV export built in DuckDB: per row of `relation` (a SELECT whose columns are
 * `columns`, in order; its order is kept) each column's export text, named as the column; or
 * undefined when a column's type or the delimiter is not handled here (the caller writes the file
 * in JavaScript).
 */
export function csvExportQuery(columns: readonly CsvColumn[], delimiter: string, relation: string): string | undefined {
  // One ASCII character that DuckDB's writer and csvText treat alike (not a quote, CR or LF).
  if (!/^[\x01-\x7f]$/.test(delimiter) || /["\r\n]/.test(delimiter) || !columns.length) return undefined;
  const c = (i: number) => `"c${i}"`;
  const floats = columns.map((col, i) => (col.type.kind === 'FLOAT64' ? i : -1)).filter((i) => i >= 0);
  const texts = columns.map((col, i) => (col.type.kind === 'FLOAT64' ? numberText.text(`CAST(${c(i)} AS DOUBLE)`, `"d${i}"`, `"n${i}"`) : exportTextSql(c(i), col.type)));
  if (texts.some((t) => t === undefined)) return undefined;
  let from = `(${relation}) AS __r(${columns.map((_col, i) => c(i)).join(', ')})`;
  if (floats.length) {
    const l1 = floats.map((i) => `${numberText.s(`CAST(${c(i)} AS DOUBLE)`)} AS "s${i}"`);
    const l2 = floats.map((i) => `${numberText.d(`"s${i}"`)} AS "d${i}", ${numberText.n(`"s${i}"`)} AS "n${i}"`);
    from = `(SELECT *, ${l2.join(', ')} FROM (SELECT *, ${l1.join(', ')} FROM ${from}))`;
  }
  return `SELECT ${texts.map((t, i) => `${t} AS ${quoteIdent(columns[i]!.name)}`).join(', ')} FROM ${from}`;
}

/**
 * `COPY (query) TO file` as CSV: `query` selects the export texts ({@link csvExportQuery}); a
 * header row of the column names unless `printHeader` is false; gzip when asked; LF line ends (DuckDB's default).
 */
export function copyCsvSql(query: string, file: string, opts: { delimiter: string; printHeader: boolean; gzip: boolean }): string {
  return `COPY (${query}) TO ${sqlString(file)} (FORMAT CSV, DELIMITER ${sqlString(opts.delimiter)}, QUOTE '"', ESCAPE '"', HEADER ${opts.printHeader}, NULLSTR '', COMPRESSION ${opts.gzip ? "'gzip'" : "'none'"})`;
}
