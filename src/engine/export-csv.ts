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

/**
 * The text ECMAScript's Number::toString gives the DOUBLE `x` (what `String(v)` writes, the
 * FLOAT64 export text): the shortest round-trip digits DuckDB's cast writes (`1.5e+20`, `1e-05`,
 * `123.25`, `0.001`), re-laid as `123.25`, `100000000000000000000`, `1e+21`, `0.000001`, `1e-7`;
 * `NaN`, `Infinity`, `-Infinity`, and `0` for both zeros.
 * (https://tc39.es/ecma262/#sec-numeric-types-number-tostring: digits d of length k and point
 * position n — plain when -6 < n ≤ 21, else `d[.ddd]e±(n-1)`.)
 */
export function jsNumberTextSql(x: string): string {
  const s = `CAST(abs(${x}) AS VARCHAR)`;
  // Digits (no leading or trailing zeros) and the point position n of the value 0.d × 10^n.
  const mant = `split_part(${s}, 'e', 1)`;
  const expForm = { d: `rtrim(replace(${mant}, '.', ''), '0')`, n: `(CAST(split_part(${s}, 'e', 2) AS INTEGER) + length(split_part(${mant}, '.', 1)))` };
  const ip = `split_part(${s}, '.', 1)`;
  const fp = `split_part(${s}, '.', 2)`;
  const big = { d: `rtrim(${ip} || ${fp}, '0')`, n: `length(${ip})` };
  const small = { d: `rtrim(ltrim(${fp}, '0'), '0')`, n: `(length(ltrim(${fp}, '0')) - length(${fp}))` };
  const layout = (p: { d: string; n: string }) => {
    const k = `length(${p.d})`;
    return (
      `CASE WHEN ${k} <= ${p.n} AND ${p.n} <= 21 THEN ${p.d} || repeat('0', ${p.n} - ${k}) ` +
      `WHEN 0 < ${p.n} AND ${p.n} <= 21 THEN left(${p.d}, ${p.n}) || '.' || substr(${p.d}, ${p.n} + 1) ` +
      `WHEN -6 < ${p.n} AND ${p.n} <= 0 THEN '0.' || repeat('0', -${p.n}) || ${p.d} ` +
      `ELSE left(${p.d}, 1) || CASE WHEN ${k} > 1 THEN '.' || substr(${p.d}, 2) ELSE '' END || 'e' || CASE WHEN ${p.n} >= 1 THEN '+' ELSE '-' END || CAST(abs(${p.n} - 1) AS VARCHAR) END`
    );
  };
  return (
    `CASE WHEN isnan(${x}) THEN 'NaN' WHEN isinf(${x}) THEN CASE WHEN ${x} > 0 THEN 'Infinity' ELSE '-Infinity' END WHEN ${x} = 0 THEN '0' ` +
    `ELSE CASE WHEN ${x} < 0 THEN '-' ELSE '' END || CASE WHEN contains(${s}, 'e') THEN ${layout(expForm)} WHEN ${ip} <> '0' THEN ${layout(big)} ELSE ${layout(small)} END END`
  );
}

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
    case 'FLOAT64':
      return jsNumberTextSql(`CAST(${c} AS DOUBLE)`);
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
 * The SELECT list of a CSV export built in DuckDB (each column's export text, named as the
 * column), or undefined when a column's type or the delimiter is not handled here (the caller
 * writes the file in JavaScript). `source(i)`: the DuckDB expression of column i.
 */
export function csvSelectList(columns: readonly CsvColumn[], delimiter: string, source: (i: number) => string): string | undefined {
  // One ASCII character that DuckDB's writer and csvText treat alike (not a quote, CR or LF).
  if (!/^[\x01-\x7f]$/.test(delimiter) || /["\r\n]/.test(delimiter) || !columns.length) return undefined;
  const texts = columns.map((c, i) => exportTextSql(source(i), c.type));
  if (texts.some((t) => t === undefined)) return undefined;
  return texts.map((t, i) => `${t} AS ${quoteIdent(columns[i]!.name)}`).join(', ');
}

/** SQL string literal of `s`. */
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * `COPY (query) TO file` as CSV: `query` selects the export texts ({@link csvSelectList}); a
 * header row of the column names unless `printHeader` is false; gzip when asked; LF line ends (DuckDB's default).
 */
export function copyCsvSql(query: string, file: string, opts: { delimiter: string; printHeader: boolean; gzip: boolean }): string {
  return `COPY (${query}) TO ${literal(file)} (FORMAT CSV, DELIMITER ${literal(opts.delimiter)}, QUOTE '"', ESCAPE '"', HEADER ${opts.printHeader}, NULLSTR '', COMPRESSION ${opts.gzip ? "'gzip'" : "'none'"})`;
}
