/**
 * BigQuery's text forms of values, as SQL over DuckDB values:
 * - `castToString`: CAST(x AS STRING) (FLOAT64 shortest round trip: `%.15g`, else `%.17g`, like
 *   ZetaSQL's RoundTripDoubleToString; `inf`, `-inf`, `nan`; NUMERIC without trailing zeros;
 *   INTERVAL `Y-M D H:M:S[.F]`; TIMESTAMP in UTC with `+00`);
 * - `formatT`: FORMAT's `%t` (FLOAT64 always shows a fraction or exponent; ARRAY `[a, b]`;
 *   STRUCT `(a, b)`) and `%T` (a GoogleSQL literal: quoted strings, `b"…"` bytes, `DATE "…"`…).
 */
import { bindOnce } from './interval.js';
import type { BqType } from '../types/types.js';
import { duckFieldName } from '../types/duckdb-types.js';
import { defineUdf } from './builtin-udfs.js';

/** C `%.<p>g` of a finite double. */
function fmtG(x: number, p: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const exp = Math.floor(Math.log10(Math.abs(x)));
  let e = Number(x.toExponential(p - 1).split('e')[1]);
  if (!Number.isFinite(e)) e = exp;
  if (e < -4 || e >= p) {
    const [m, ex] = x.toExponential(p - 1).split('e');
    const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
    const n = Number(ex);
    return `${mant}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  }
  const f = x.toFixed(Math.max(0, p - 1 - e));
  return f.includes('.') ? f.replace(/0+$/, '').replace(/\.$/, '') : f;
}

/** ZetaSQL's round-trip text of a double. */
export function doubleText(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  const s15 = fmtG(x, 15);
  return Number(s15) === x ? s15 : fmtG(x, 17);
}

defineUdf('bq_float_text', ['DOUBLE'], 'VARCHAR', (x) => doubleText(x));

const isSimple = (t: BqType) => t.kind !== 'ARRAY' && t.kind !== 'STRUCT' && t.kind !== 'RANGE';

/** NUMERIC text without trailing fractional zeros. */
export const numericText = (x: string) => `regexp_replace(regexp_replace(CAST(${x} AS VARCHAR), '(\\.[0-9]*?)0+$', '\\1'), '\\.$', '')`;

/** INTERVAL in BigQuery's canonical `Y-M D H:M:S[.F]` form (its argument's SQL evaluated once). */
export function intervalText(x: string): string {
  return bindOnce(x, intervalTextOf);
}

function intervalTextOf(i: string): string {
  const months = `(datepart('year', ${i}) * 12 + datepart('month', ${i}))`;
  const micros = `(datepart('hour', ${i}) * 3600000000 + datepart('minute', ${i}) * 60000000 + datepart('microseconds', ${i}))`;
  // The fraction in groups of three digits, as ZetaSQL prints it (`0:0:7.500`, not `7.5`).
  const frac = `regexp_replace(lpad(CAST(abs(${micros}) % 1000000 AS VARCHAR), 6, '0'), '000$', '')`;
  return (
    `(CASE WHEN ${months} < 0 THEN '-' ELSE '' END || CAST(abs(${months}) // 12 AS VARCHAR) || '-' || CAST(abs(${months}) % 12 AS VARCHAR) || ' ' || ` +
    `CAST(datepart('day', ${i}) AS VARCHAR) || ' ' || CASE WHEN ${micros} < 0 THEN '-' ELSE '' END || ` +
    `CAST(abs(${micros}) // 3600000000 AS VARCHAR) || ':' || CAST(abs(${micros}) // 60000000 % 60 AS VARCHAR) || ':' || ` +
    `CAST(abs(${micros}) // 1000000 % 60 AS VARCHAR) || CASE WHEN abs(${micros}) % 1000000 = 0 THEN '' ELSE '.' || ${frac} END)`
  );
}

/** CAST(x AS STRING) for a scalar type. */
/**
 * DuckDB TIMESTAMP / TIME `x` as GoogleSQL prints it: DuckDB's text with the fraction of a second
 * in groups of three digits — none, milliseconds or microseconds (`01:02:03`, `01:02:03.500`,
 * `01:02:03.123400`), as ZetaSQL's CAST folds literals; DuckDB trims every trailing zero.
 */
function civilText(x: string): string {
  const us = `(microsecond(${x}) % 1000000)`;
  const frac = `CASE WHEN ${us} = 0 THEN '' WHEN ${us} % 1000 = 0 THEN '.' || lpad(CAST(${us} // 1000 AS VARCHAR), 3, '0') ELSE '.' || lpad(CAST(${us} AS VARCHAR), 6, '0') END`;
  return `(regexp_replace(CAST(${x} AS VARCHAR), '\\.[0-9]+$', '') || ${frac})`;
}

export function castToString(x: string, t: BqType): string {
  switch (t.kind) {
    case 'FLOAT64':
      return `bq_float_text(${x})`;
    case 'NUMERIC':
      return numericText(x);
    case 'BYTES':
      return `decode(${x})`;
    case 'TIMESTAMP':
      return `${civilText(`timezone('UTC', ${x})`)} || '+00'`;
    case 'DATETIME':
    case 'TIME':
      return civilText(x);
    case 'INTERVAL':
      return intervalText(x);
    case 'BOOL':
      return `CASE WHEN ${x} THEN 'true' WHEN NOT ${x} THEN 'false' END`;
    default:
      return `CAST(${x} AS VARCHAR)`;
  }
}

/** A GoogleSQL string literal of text `s` (SQL): double-quoted with escapes. */
const quoted = (s: string) =>
  `'"' || replace(replace(replace(replace(replace(${s}, '\\', '\\\\'), '"', '\\"'), chr(10), '\\n'), chr(13), '\\r'), chr(9), '\\t') || '"'`;

/** BYTES as escaped text: printable ASCII kept (quotes and backslash escaped), others `\xNN`. */
defineUdf('bq_bytes_escape', ['BLOB'], 'VARCHAR', (b) => {
  let out = '';
  for (const v of b) {
    if (v === 34) out += '\\"';
    else if (v === 39) out += "\\'";
    else if (v === 92) out += '\\\\';
    else if (v >= 32 && v <= 126) out += String.fromCharCode(v);
    else out += '\\x' + v.toString(16).padStart(2, '0');
  }
  return out;
});
const escapedBytes = (b: string) => `bq_bytes_escape(${b})`;

/** FORMAT `%t` (upper = false) or `%T` (upper = true) of a value of type t. */
export function formatT(x: string, t: BqType, upper: boolean): string {
  const nul = (body: string) => `CASE WHEN ${x} IS NULL THEN 'NULL' ELSE ${body} END`;
  switch (t.kind) {
    case 'ARRAY':
      return nul(`'[' || array_to_string(list_transform(${x}, e -> ${formatT('e', t.element, upper)}), ', ') || ']'`);
    case 'STRUCT': {
      const parts = t.fields.map((f, i) => formatT(`struct_extract(${x}, '${duckFieldName(t, i).replace(/'/g, "''")}')`, f.type, upper));
      if (upper && parts.length <= 1) return nul(`'STRUCT(' || ${parts[0] ?? `''`} || ')'`);
      return nul(`'(' || ${parts.join(` || ', ' || `)} || ')'`);
    }
    case 'FLOAT64': {
      const s = `bq_float_text(${x})`;
      const plain = `CASE WHEN regexp_full_match(${s}, '-?[0-9]+') THEN ${s} || '.0' ELSE ${s} END`;
      if (!upper) return nul(plain);
      return nul(`CASE WHEN isnan(${x}) OR isinf(${x}) THEN 'CAST("' || ${s} || '" AS FLOAT64)' ELSE ${plain} END`);
    }
    case 'STRING':
      return nul(upper ? quoted(x) : x);
    case 'BYTES':
      return nul(upper ? `'b"' || ${escapedBytes(x)} || '"'` : escapedBytes(x));
    case 'NUMERIC':
    case 'BIGNUMERIC':
    case 'DATE':
    case 'DATETIME':
    case 'TIME':
    case 'TIMESTAMP':
    case 'JSON': {
      const s = castToString(x, t);
      if (!upper) return nul(s);
      if (t.kind === 'JSON') return nul(`'JSON ' || '''' || replace(${s}, '''', '\\''') || ''''`);
      return nul(`'${t.kind} "' || ${s} || '"'`);
    }
    case 'INTERVAL':
      return nul(upper ? `'INTERVAL "' || ${intervalText(x)} || '" YEAR TO SECOND'` : intervalText(x));
    default:
      return nul(isSimple(t) ? castToString(x, t) : `CAST(${x} AS VARCHAR)`);
  }
}
