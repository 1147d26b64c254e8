/**
 * Conversion functions (GoogleSQL "Conversion functions"): CAST / SAFE_CAST (`$cast`, with
 * `safe` for SAFE_CAST), PARSE_NUMERIC, PARSE_BIGNUMERIC (grouping commas, trailing sign).
 *
 * BigQuery rules that differ from DuckDB's casts:
 * - FLOAT64 → STRING is the shortest round-trip text (`1`, `0.1`, `1e+20`, `inf`, `nan`);
 *   NUMERIC → STRING has no trailing zeros; BOOL → 'true'/'false'; TIMESTAMP → `… +00`;
 *   INTERVAL → `Y-M D H:M:S`; BYTES ⇄ STRING are UTF-8 (not DuckDB's escaped text);
 * - STRING → INT64 accepts decimal or 0x hex (with sign and surrounding spaces) only, else
 *   `Bad int64 value: …`; → FLOAT64 `Bad double value: …`; → BOOL only true/false (any case),
 *   else `Bad bool value: …`; → NUMERIC `Invalid NUMERIC value: …`; → DATE `Invalid date: '…'`;
 *   → DATETIME `Invalid datetime string "…"`; → TIME `Invalid time string "…"`; → TIMESTAMP
 *   honours zone names and offsets, else `Invalid timestamp: '…'` (outside the range `Invalid
 *   timestamp string "…" (scale TIMESTAMP_NANOSECOND)`, timestamp-functions.ts);
 * - FLOAT64/NUMERIC → INT64 round half away from zero (DuckDB rounds half to even for DOUBLE);
 *   non-finite → `Illegal conversion of non-finite floating point number to an integer: inf`;
 *   out of range → `int64 out of range: 1e+20`.
 * ARRAY and STRUCT casts convert element by element.
 */
import { intervalFromString } from './interval-parse.js';
import { BigQueryError } from '../errors/errors.js';
import { duckFieldName } from '../types/duckdb-types.js';
import type { BqType } from '../types/types.js';
import { toLocal } from './date-time.js';
import { parseTimestampText } from './timestamp-functions.js';
import { defineUdf } from './builtin-udfs.js';
import type { FnCall, FnTable } from './registry.js';
import { castToString } from './text.js';
import { fail } from './util.js';

/** BIGNUMERIC text (76 digits, 38 after the point) normalised, or null when invalid. */
export function normalizeBigNumeric(s: string): string | null {
  const m = /^\s*([+-])?\s*(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(s);
  if (!m || (!m[2] && !m[3])) return null;
  let digits = (m[2] || '') + (m[3] || '');
  let point = (m[2] || '').length + Number(m[4] ?? 0);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  digits = digits.padEnd(point, '0');
  let int = digits.slice(0, point).replace(/^0+/, '') || '0';
  let frac = digits.slice(point);
  if (frac.length > 38) {
    const up = Number(frac[38]) >= 5;
    let v = BigInt(int + frac.slice(0, 38));
    if (up) v += 1n;
    const t = v.toString().padStart(39, '0');
    int = t.slice(0, -38).replace(/^0+/, '') || '0';
    frac = t.slice(-38);
  }
  frac = frac.replace(/0+$/, '');
  if (int.length > 39) return null;
  const neg = m[1] === '-' && (int !== '0' || frac !== '');
  return `${neg ? '-' : ''}${int}${frac ? '.' + frac : ''}`;
}

defineUdf('bq_parse_bignumeric', ['VARCHAR'], 'VARCHAR', (s) => normalizeBigNumeric(s));

const BIGNUMERIC_MAX_SCALED = 57896044618658097711785492504343953926634992332820282019728792003956564819967n;
const NUMERIC_MAX_SCALED = 10n ** 38n - 1n;

/**
 * FLOAT64 → decimal text with `scale` fraction digits: the double's exact binary value rounded half
 * away from zero (conversion_rules: "The floating point number will round half away from zero");
 * null for NaN, ±inf and values whose scaled magnitude passes `maxScaled`. Exact where DuckDB's
 * DOUBLE → DECIMAL cast multiplies in double precision (CAST(12345678.123456789 AS NUMERIC) gave
 * 12345678.12345679; the ZetaSQL reference evaluator 12345678.123456789).
 */
function doubleToDecimalText(x: number, scale: number, maxScaled: bigint): string | null {
  if (!Number.isFinite(x)) return null;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const expBits = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  if (expBits) mant |= 1n << 52n;
  const e = (expBits || 1) - 1075; // x = ±mant × 2^e
  let num = mant * 10n ** BigInt(scale);
  let den = 1n;
  if (e >= 0) num <<= BigInt(e);
  else den <<= BigInt(-e);
  const q = num / den;
  const v = 2n * (num - q * den) >= den ? q + 1n : q;
  if (v > maxScaled) return null;
  const t = v.toString().padStart(scale + 1, '0');
  const frac = t.slice(-scale).replace(/0+$/, '');
  const neg = bits >> 63n === 1n && v !== 0n;
  return `${neg ? '-' : ''}${t.slice(0, -scale)}${frac ? '.' + frac : ''}`;
}

/** FLOAT64 → BIGNUMERIC text (38 fraction digits; see doubleToDecimalText); null outside BIGNUMERIC's range. */
export const doubleToBigNumeric = (x: number): string | null => doubleToDecimalText(x, 38, BIGNUMERIC_MAX_SCALED);

/**
 * FLOAT64 → NUMERIC (SQL; NULL past NUMERIC's range) without per-row JavaScript where DuckDB's own
 * cast is exact: an integer below 2^53, or a value below 4.5e6 whose product x·10^9 — computed
 * in double precision, as DuckDB's cast does — lies further from a rounding boundary (k + ½) than
 * its own rounding error (|x·10^9| · 2^-52, with margin), so the exact value rounds the same way.
 * Every other value takes {@link doubleToNumeric} (bq_double_to_numeric): CAST(x/7 AS NUMERIC)
 * over 100,000 rows took 2.3 s through it alone.
 */
function doubleToNumericSql(x: string): string {
  const p = `(${x} * 1e9)`;
  const integral = `${x} = trunc(${x}) AND abs(${x}) < 9.0e15`;
  const clear = `abs(${x}) < 4.5e6 AND abs(${p} - floor(${p}) - 0.5) > abs(${p}) * 4.5e-16`;
  return `(CASE WHEN ${integral} THEN CAST(CAST(${x} AS BIGINT) AS DECIMAL(38,9)) WHEN ${clear} THEN CAST(${x} AS DECIMAL(38,9)) ELSE CAST(bq_double_to_numeric(${x}) AS DECIMAL(38,9)) END)`;
}

/** FLOAT64 → NUMERIC text (9 fraction digits; see doubleToDecimalText); null outside NUMERIC's range. */
export const doubleToNumeric = (x: number): string | null => doubleToDecimalText(x, 9, NUMERIC_MAX_SCALED);

defineUdf('bq_double_to_numeric', ['DOUBLE'], 'VARCHAR', doubleToNumeric);
defineUdf('bq_double_to_bignumeric', ['DOUBLE'], 'VARCHAR', doubleToBigNumeric);

/**
 * PARSE_NUMERIC / PARSE_BIGNUMERIC input (conversion_functions#parse_numeric): spaces around the
 * sign and the number, one sign either leading or trailing (`12.34e-1-`), grouping commas in the
 * integer part (`1,2,,3,.45` is 123.45), an optional exponent. The plain decimal text
 * (`-1.234e-1` style), or null when the text is not a number.
 */
export function parseNumberText(s: string): string | null {
  const m = /^\s*([+-]?)\s*([0-9][0-9,]*)?(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?\s*([+-]?)\s*$/.exec(s);
  if (!m) return null;
  const [, lead, int = '', frac = '', exp, trail] = m;
  if ((lead && trail) || (!int && !frac)) return null;
  const sign = (lead || trail) === '-' ? '-' : '';
  return `${sign}${int.replace(/,/g, '') || '0'}${frac ? `.${frac}` : ''}${exp !== undefined ? `e${exp}` : ''}`;
}

defineUdf('bq_parse_number_text', ['VARCHAR'], 'VARCHAR', (s) => parseNumberText(s));

const quoteMsg = (prefix: string, x: string, open: string, close = open) => `'${prefix}${open.replace(/'/g, "''")}' || ${x} || '${close.replace(/'/g, "''")}'`;

/** STRING → scalar type (SQL), with BigQuery's validation and error text. */
function fromString(c: FnCall, x: string, to: BqType): string {
  const check = (ok: string, value: string, msg: string) => `CASE WHEN ${x} IS NULL THEN NULL WHEN ${ok} THEN ${value} ELSE ${fail(c, msg)} END`;
  const t = `trim(${x})`;
  switch (to.kind) {
    case 'INT64': {
      const hexv = `(CASE WHEN starts_with(${t}, '-') THEN -1 ELSE 1 END) * TRY_CAST(regexp_replace(${t}, '^[+-]', '') AS BIGINT)`;
      const v = `(CASE WHEN regexp_full_match(${t}, '[+-]?0[xX][0-9a-fA-F]+') THEN ${hexv} ELSE TRY_CAST(${t} AS BIGINT) END)`;
      return check(`regexp_full_match(${t}, '[+-]?([0-9]+|0[xX][0-9a-fA-F]+)') AND ${v} IS NOT NULL`, v, `'Bad int64 value: ' || ${x}`);
    }
    case 'FLOAT64': {
      const v = `TRY_CAST(${t} AS DOUBLE)`;
      return check(`${v} IS NOT NULL AND regexp_full_match(lower(${t}), '[+-]?(inf|infinity|nan|([0-9]+[.]?[0-9]*|[.][0-9]+)(e[+-]?[0-9]+)?)')`, v, `'Bad double value: ' || ${x}`);
    }
    case 'NUMERIC': {
      const v = `TRY_CAST(${t} AS DECIMAL(38,9))`;
      return check(`${v} IS NOT NULL`, v, `'Invalid NUMERIC value: ' || ${x}`);
    }
    case 'BIGNUMERIC':
      return check(`bq_parse_bignumeric(${x}) IS NOT NULL`, `bq_parse_bignumeric(${x})`, `'Invalid BIGNUMERIC value: ' || ${x}`);
    // BOOL and the civil types take no surrounding whitespace (ZetaSQL reference: ' true' and
    // ' 2020-01-02' are invalid), numbers do.
    case 'BOOL':
      return check(`lower(${x}) IN ('true', 'false')`, `lower(${x}) = 'true'`, `'Bad bool value: ' || ${x}`);
    case 'BYTES':
      return `encode(${x})`;
    case 'DATE': {
      const v = `TRY_CAST(${x} AS DATE)`;
      return check(`regexp_full_match(${x}, '[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}') AND ${v} IS NOT NULL`, v, quoteMsg('Invalid date: ', x, "'"));
    }
    case 'DATETIME': {
      const s = `regexp_replace(${x}, '^([0-9]+-[0-9]+-[0-9]+)[Tt]', '\\1 ')`;
      const v = `TRY_CAST(${s} AS TIMESTAMP)`;
      return check(`regexp_full_match(${s}, '[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}( [0-9]{1,2}:[0-9]{1,2}(:[0-9]{1,2}([.][0-9]{1,9})?)?)?') AND ${v} IS NOT NULL`, v, quoteMsg('Invalid datetime string ', x, '"'));
    }
    case 'TIME': {
      const v = `TRY_CAST(${x} AS TIME)`;
      return check(`regexp_full_match(${x}, '[0-9]{1,2}:[0-9]{1,2}(:[0-9]{1,2}([.][0-9]{1,9})?)?') AND ${v} IS NOT NULL`, v, quoteMsg('Invalid time string ', x, '"'));
    }
    case 'TIMESTAMP':
      return parseTimestampText(c, x, undefined, ' (scale TIMESTAMP_NANOSECOND)');
    case 'INTERVAL':
      return intervalFromString(c, x);
    case 'JSON':
    default:
      throw BigQueryError.notSupported(`CAST from STRING to ${to.kind}`);
  }
}

/**
 * FLOAT64/NUMERIC/BIGNUMERIC → INT64: round half away from zero, with BigQuery's range errors
 * (`int64 out of range: <value>`, as the ZetaSQL reference evaluator). A BIGNUMERIC (text) is
 * rounded exactly (`bq_bignumeric_round`) and read as a HUGEINT, which every value past the INT64
 * range may miss (a 39-digit one): NULL there is out of range too.
 */
function toInt64(c: FnCall, x: string, from: BqType): string {
  const outOfRange = () => fail(c, `'int64 out of range: ' || ${castToString(x, from)}`);
  if (from.kind === 'BIGNUMERIC') {
    const r = `TRY_CAST(bq_bignumeric_round(${x}, 0, 'ROUND') AS HUGEINT)`;
    return `CASE WHEN ${x} IS NULL THEN NULL WHEN ${r} IS NULL OR ${r} NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN ${outOfRange()} ELSE CAST(${r} AS BIGINT) END`;
  }
  if (from.kind === 'NUMERIC') return `CASE WHEN round(${x}) NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN ${outOfRange()} ELSE CAST(round(${x}) AS BIGINT) END`;
  const nonFinite = fail(c, `'Illegal conversion of non-finite floating point number to an integer: ' || bq_float_text(${x})`);
  const range = fail(c, `'int64 out of range: ' || bq_float_text(${x})`);
  return `CASE WHEN NOT isfinite(${x}) THEN ${nonFinite} WHEN round(${x}) >= 9.223372036854775807e18 OR round(${x}) < -9.223372036854775808e18 THEN ${range} ELSE CAST(round(${x}) AS BIGINT) END`;
}

/** The SQL of CAST(x AS to) for a value of type `from`. */
export function castSql(c: FnCall, x: string, from: BqType, to: BqType): string {
  if (from.kind === to.kind && from.kind !== 'ARRAY' && from.kind !== 'STRUCT') return x;
  if (to.kind === 'STRING') {
    // SAFE: a UDF, not TRY(), which DuckDB refuses around an argument holding error() (volatile).
    if (from.kind === 'BYTES') return c.safe ? `bq_cast_format_bytes_safe('UTF-8', ${x})` : `decode(${x})`;
    return castToString(x, from);
  }
  if (from.kind === 'STRING') return fromString(c, x, to);
  if (to.kind === 'INT64' && (from.kind === 'FLOAT64' || from.kind === 'NUMERIC' || from.kind === 'BIGNUMERIC')) return toInt64(c, x, from);
  if (from.kind === 'BYTES' || to.kind === 'BYTES') throw BigQueryError.notSupported(`CAST from ${from.kind} to ${to.kind}`);
  if (to.kind === 'BIGNUMERIC' && from.kind === 'FLOAT64') {
    const err = fail(c, `'BIGNUMERIC out of range: ' || printf('%.6g', ${x})`);
    return `CASE WHEN ${x} IS NULL THEN NULL WHEN bq_double_to_bignumeric(${x}) IS NULL THEN ${err} ELSE bq_double_to_bignumeric(${x}) END`;
  }
  if (to.kind === 'BIGNUMERIC') return from.kind === 'NUMERIC' ? castToString(x, from) : `CAST(${x} AS VARCHAR)`;
  if (to.kind === 'NUMERIC' && from.kind === 'FLOAT64') {
    // ZetaSQL's `numeric out of range: -6.15656e+113` (the double as `%.6g`), not DuckDB's failed cast.
    const v = doubleToNumericSql(x);
    const nonFinite = fail(c, `'Illegal conversion of non-finite floating point number to numeric: ' || lower(CAST(${x} AS VARCHAR))`);
    return `CASE WHEN ${x} IS NULL THEN NULL WHEN NOT isfinite(${x}) THEN ${nonFinite} WHEN ${v} IS NULL THEN ${fail(c, `'numeric out of range: ' || printf('%.6g', ${x})`)} ELSE ${v} END`;
  }
  if (to.kind === 'NUMERIC' && from.kind === 'BIGNUMERIC') {
    // ZetaSQL's `numeric out of range: <value>` (DuckDB would say `Could not convert string …`).
    const v = `TRY_CAST(${x} AS DECIMAL(38,9))`;
    return `CASE WHEN ${x} IS NULL THEN NULL WHEN ${v} IS NULL THEN ${fail(c, `'numeric out of range: ' || ${x}`)} ELSE ${v} END`;
  }
  if (to.kind === 'TIMESTAMP' && (from.kind === 'DATE' || from.kind === 'DATETIME')) return `timezone('UTC', CAST(${x} AS TIMESTAMP))`;
  if (from.kind === 'TIMESTAMP' && (to.kind === 'DATE' || to.kind === 'DATETIME' || to.kind === 'TIME'))
    return `CAST(${toLocal(x)} AS ${c.duckType(to)})`;
  if (from.kind === 'ARRAY' && to.kind === 'ARRAY') return `list_transform(${x}, e -> ${castSql(c, 'e', from.element, to.element)})`;
  if (from.kind === 'STRUCT' && to.kind === 'STRUCT' && from.fields.length === to.fields.length) {
    if (!to.fields.length) return x;
    const parts = to.fields.map((f, i) => `"${duckFieldName(to, i).replace(/"/g, '""')}" := ${castSql(c, `struct_extract(${x}, '${duckFieldName(from, i).replace(/'/g, "''")}')`, from.fields[i].type, f.type)}`);
    return `CASE WHEN ${x} IS NULL THEN NULL ELSE struct_pack(${parts.join(', ')}) END`;
  }
  const dt = c.duckType(to);
  return c.safe ? `TRY_CAST(${x} AS ${dt})` : `CAST(${x} AS ${dt})`;
}

/**
 * PARSE_NUMERIC / PARSE_BIGNUMERIC: the text (parseNumberText), rounded and range-checked. A text
 * that is not a number, or is past the range, fails with ZetaSQL's `Invalid input to
 * PARSE_NUMERIC: "<text>"` (the reference evaluator; not CAST's `Invalid NUMERIC value: …`).
 */
function parseNumber(c: FnCall, kind: 'NUMERIC' | 'BIGNUMERIC'): string {
  const x = c.args[0];
  const text = `bq_parse_number_text(${x})`;
  const v = kind === 'NUMERIC' ? `TRY_CAST(${text} AS DECIMAL(38,9))` : `bq_parse_bignumeric(${text})`;
  return `CASE WHEN ${x} IS NULL THEN NULL WHEN ${v} IS NOT NULL THEN ${v} ELSE ${fail(c, `'Invalid input to PARSE_${kind}: "' || ${x} || '"'`)} END`;
}

/** The conversion_functions page: CAST and PARSE_NUMERIC / PARSE_BIGNUMERIC. */
export const CONVERSION_FUNCTIONS: FnTable = {
  $cast: (c) => castSql(c, c.args[0], c.argTypes[0], c.returnType),
  parse_numeric: (c) => parseNumber(c, 'NUMERIC'),
  parse_bignumeric: (c) => parseNumber(c, 'BIGNUMERIC'),
};
