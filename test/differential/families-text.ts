/**
 * Differential families whose errors DuckDB would word itself unless mapped, beyond numbers:
 * CAST … FORMAT of every type, the BYTES and STRING functions on both types, collation arguments,
 * INTERVAL arithmetic and RANGE functions. INTERVAL and RANGE results are compared through
 * CAST(… AS STRING), RANGE_START/RANGE_END and comparisons (the evaluator decodes neither type).
 *
 * Left out here: CAST(number AS STRING FORMAT …), STRPOS / STARTS_WITH / ENDS_WITH / REPLACE /
 * SPLIT / INSTR / MIN / MAX under a collation and SPLIT of BYTES, which bqemu refuses by name ("… is not
 * supported by bqemu"); TO_BASE32 / FROM_BASE32, CAST(RANGE AS STRING) and RANGE_CONTAINS, which
 * the reference evaluator does not implement.
 */
import fc from 'fast-check';
import { binop, civilDate, civilTime, dateLit, datetimeLit, quote, smallInt, stringLit, timestampLit, tmpl, type Sql } from './arbitraries.js';
import { int64, string } from './expressions.js';

const cmp = ['=', '!=', '<', '<=', '>', '>='];

// ---------------------------------------------------------------- CAST … FORMAT

const DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MON DD, YYYY', 'Month DD YYYY', 'DAY', 'Dy', 'YY-MM', 'YYYY', 'Q', 'DDD', 'J', 'RRRR', 'MM', 'D'];
const TIME_FORMATS = ['HH24:MI:SS', 'HH12 AM', 'HH:MI P.M.', 'SSSSS', 'FF3', 'FF6', 'HH24MISS'];
const ZONE_FORMATS = ['TZH:TZM', 'TZH'];
const BYTES_FORMATS = ['BASE64', 'BASE64M', 'HEX', 'BASE2', 'BASE8', 'ASCII', 'UTF-8', 'UTF8', 'base64', 'BASE32'];

const fmt = (fs: string[]) => fc.constantFrom(...fs).map(quote);
/** BYTES literals over printable ASCII, high bytes and invalid UTF-8, NULL. */
const bytesLit: Sql = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.constantFrom('a', 'b', 'Z', '0', ' ', '+', '/', '=', '\\x00', '\\xff', '\\x80', '\\xc3\\xa9', '\\x7f'), { maxLength: 6 }).map((cs) => `b'${cs.join('')}'`) },
  { weight: 1, arbitrary: fc.constant('CAST(NULL AS BYTES)') },
);
/** STRING texts that are (or nearly are) encodings of bytes in the BYTES formats. */
const encodedText: Sql = fc.oneof(
  fc.constantFrom('YWJj', 'YWI=', 'YW', '616263', '6162f', 'zz', '01100001', '141', 'abc', 'é', '', ' YWJj ', 'MFRGG===', 'a+/=').map(quote),
  stringLit,
);

/** CAST … FORMAT from and to STRING for numbers, dates and times, BYTES. */
export const castFormat: Sql = fc.oneof(
  tmpl(['CAST(', ' AS STRING FORMAT ', ')'], dateLit, fmt(DATE_FORMATS)),
  tmpl(['CAST(', ' AS STRING FORMAT ', ')'], datetimeLit, fmt([...DATE_FORMATS, ...TIME_FORMATS])),
  tmpl(['CAST(', ' AS STRING FORMAT ', ')'], timestampLit, fmt([...DATE_FORMATS, ...TIME_FORMATS, ...ZONE_FORMATS])),
  tmpl(['CAST(', ' AS STRING FORMAT ', ')'], civilTime.map((t) => `TIME '${t}'`), fmt(TIME_FORMATS)),
  // From 1970 on: before the zones' standard offsets the reference and bqemu round local mean time differently.
  tmpl(["CAST(", " AS STRING FORMAT ", " AT TIME ZONE 'Asia/Kolkata')"], fc.tuple(fc.integer({ min: 1970, max: 2100 }), civilTime).map(([y, t]) => `TIMESTAMP '${y}-03-04 ${t}+00'`), fmt(['YYYY-MM-DD HH24:MI TZH:TZM', 'HH12 AM'])),
  tmpl(['CAST(', ' AS DATE FORMAT ', ')'], fc.oneof(civilDate.map(quote), stringLit), fmt(['YYYY-MM-DD', 'YYYY-MM', 'DD/MM/YYYY', 'YYYYMMDD'])),
  // No MON when parsing: the reference evaluator fails every MON text (`Failed to parse input
  // timestamp string at 0 with format element ' '`, even for the page's own example), while
  // BigQuery reads `CAST('DEC 03, 2018' AS DATE FORMAT 'MON DD, YYYY')` as 2018-12-03 (the docs
  // example format-elements/format-string-as-month-part-1, run by the docs-examples suite).
  tmpl(['CAST(', ' AS DATE FORMAT ', ')'], fc.constantFrom("'03/02/2020'", "'2020-13-01'", "'Feb 02, 2020'", "'20200202'", "'2020'").map(String), fmt(['DD/MM/YYYY', 'YYYYMMDD', 'YYYY', 'YYYY-MM-DD'])),
  tmpl(['CAST(', ' AS DATETIME FORMAT ', ')'], fc.tuple(civilDate, fc.integer({ min: 0, max: 23 })).map(([d, h]) => quote(`${d} ${String(h).padStart(2, '0')}:07`)), fmt(['YYYY-MM-DD HH24:MI', 'YYYY-MM-DD HH12:MI'])),
  tmpl(['CAST(', ' AS TIMESTAMP FORMAT ', ')'], fc.tuple(civilDate, fc.constantFrom('+00', '-08', '+05:30')).map(([d, z]) => quote(`${d} 10:20:30${z}`)), fmt(['YYYY-MM-DD HH24:MI:SSTZH', 'YYYY-MM-DD HH24:MI:SSTZH:TZM'])),
  tmpl(['CAST(', ' AS TIME FORMAT ', ')'], fc.constantFrom("'10:20'", "'23:59:59'", "'1:2:3'", "'25:00'").map(String), fmt(['HH24:MI', 'HH24:MI:SS', 'HH:MI'])),
  tmpl(['CAST(', ' AS STRING FORMAT ', ')'], bytesLit, fmt(BYTES_FORMATS)),
  tmpl(['CAST(', ' AS BYTES FORMAT ', ')'], encodedText, fmt(BYTES_FORMATS)),
  tmpl(['SAFE_CAST(', ' AS BYTES FORMAT ', ')'], encodedText, fmt(BYTES_FORMATS)),
  tmpl(['SAFE_CAST(', ' AS STRING FORMAT ', ')'], bytesLit, fmt(BYTES_FORMATS)),
);

// ---------------------------------------------------------------- BYTES and STRING functions

/** BYTES-valued expressions: the BYTES forms of the string function library. */
function bytes(depth: number): Sql {
  if (depth <= 0) return bytesLit;
  const b = bytes(depth - 1);
  const n = smallInt;
  return fc.oneof(
    { weight: 3, arbitrary: bytesLit },
    { weight: 2, arbitrary: fc.array(b, { minLength: 1, maxLength: 3 }).map((xs) => `CONCAT(${xs.join(', ')})`) },
    { weight: 1, arbitrary: binop(['||'], b, b) },
    { weight: 2, arbitrary: fc.oneof(tmpl(['SUBSTR(', ', ', ')'], b, n), tmpl(['SUBSTR(', ', ', ', ', ')'], b, n, n)) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('REVERSE', 'UPPER', 'LOWER'), b).map(([f, a]) => `${f}(${a})`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('TRIM', 'LTRIM', 'RTRIM'), b, b).map(([f, a, c]) => `${f}(${a}, ${c})`) },
    { weight: 1, arbitrary: tmpl(['REPLACE(', ', ', ', ', ')'], b, b, b) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('LPAD', 'RPAD'), b, n, fc.option(b, { nil: undefined })).map(([f, a, l, p]) => (p === undefined ? `${f}(${a}, ${l})` : `${f}(${a}, ${l}, ${p})`)) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('LEFT', 'RIGHT', 'REPEAT'), b, n).map(([f, a, k]) => `${f}(${a}, ${k})`) },
    { weight: 1, arbitrary: tmpl(['CAST(', ' AS BYTES)'], string(0)) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('FROM_HEX', 'FROM_BASE64'), encodedText).map(([f, a]) => `${f}(${a})`) },
    { weight: 1, arbitrary: tmpl(['CODE_POINTS_TO_BYTES([', '])'], fc.array(fc.oneof(fc.integer({ min: 0, max: 255 }).map(String), fc.constantFrom('256', '(-1)')), { maxLength: 3 }).map((xs) => xs.join(', '))) },
    { weight: 1, arbitrary: tmpl(['IFNULL(', ', ', ')'], b, b) },
  );
}

/** Functions that take BYTES or STRING, on both; BYTES ↔ STRING conversions. */
export const bytesAndStrings: Sql = fc.oneof(
  { weight: 4, arbitrary: bytes(2) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('LENGTH', 'BYTE_LENGTH', 'ASCII', 'BIT_COUNT', 'TO_HEX', 'TO_BASE64', 'TO_CODE_POINTS', 'SAFE_CONVERT_BYTES_TO_STRING'), bytes(1)).map(([f, a]) => `${f}(${a})`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('STRPOS', 'INSTR', 'STARTS_WITH', 'ENDS_WITH'), bytes(1), bytes(0)).map(([f, a, c]) => `${f}(${a}, ${c})`) },
  { weight: 1, arbitrary: tmpl(['INSTR(', ', ', ', ', ', ', ')'], bytes(1), bytes(0), fc.integer({ min: -3, max: 4 }).map((k) => `(${k})`), fc.integer({ min: 1, max: 2 }).map(String)) },
  { weight: 1, arbitrary: binop(cmp, bytes(1), bytes(1)) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('CAST', 'SAFE_CAST'), bytes(1)).map(([c, a]) => `${c}(${a} AS STRING)`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('TO_CODE_POINTS', 'BYTE_LENGTH', 'LENGTH', 'TO_HEX'), string(1)).map(([f, a]) => (f === 'TO_HEX' ? `TO_HEX(CAST(${a} AS BYTES))` : `${f}(${a})`)) },
  { weight: 1, arbitrary: tmpl(['CODE_POINTS_TO_STRING([', '])'], fc.array(fc.oneof(fc.integer({ min: 0, max: 0x10ffff }).map(String), fc.constantFrom('55296', '(-1)', '1114112')), { maxLength: 3 }).map((xs) => xs.join(', '))) },
  { weight: 1, arbitrary: binop(['||'], string(1), string(1)) },
);

// ---------------------------------------------------------------- collation

const COLLATIONS = ["'und:ci'", "''", "'binary'"];
const collated: Sql = fc.tuple(string(1), fc.constantFrom(...COLLATIONS)).map(([s, c]) => `COLLATE(${s}, ${c})`);
const plainOrCollated: Sql = fc.oneof(collated, string(1));

/** Comparisons, IN, BETWEEN, CASE, NULLIF and aggregates whose arguments carry a collation. */
export const collation: Sql = fc.oneof(
  { weight: 4, arbitrary: binop(cmp, collated, plainOrCollated) },
  { weight: 1, arbitrary: fc.tuple(collated, fc.constantFrom('IN', 'NOT IN'), fc.array(string(0), { minLength: 1, maxLength: 3 })).map(([x, op, xs]) => `(${x} ${op} (${xs.join(', ')}))`) },
  { weight: 1, arbitrary: tmpl(['(', ' BETWEEN ', ' AND ', ')'], collated, string(0), string(0)) },
  { weight: 1, arbitrary: tmpl(['CASE ', ' WHEN ', " THEN 'w' ELSE 'e' END"], collated, string(0)) },
  { weight: 1, arbitrary: tmpl(['NULLIF(', ', ', ')'], collated, string(0)) },
  { weight: 1, arbitrary: fc.array(stringLit, { minLength: 1, maxLength: 4 }).map((xs) => `(SELECT COUNT(COLLATE(s, 'und:ci')) FROM UNNEST([${xs.join(', ')}]) s)`) },
  { weight: 1, arbitrary: fc.array(stringLit, { minLength: 1, maxLength: 4 }).map((xs) => `(SELECT COUNT(DISTINCT COLLATE(s, 'und:ci')) FROM UNNEST([${xs.join(', ')}]) s)`) },
  { weight: 1, arbitrary: fc.tuple(string(0), fc.constantFrom("'und:ci'", "'und:cs'", "'en:ci'", "'x:y'", "'und:ai'")).map(([s, c]) => `(COLLATE(${s}, ${c}) = 'A')`) },
);

// ---------------------------------------------------------------- INTERVAL and RANGE

// MILLISECOND / MICROSECOND literals are left out: BigQuery documents them, the reference
// evaluator refuses them (`Invalid interval datetime field MILLISECOND`).
const PARTS = ['YEAR', 'QUARTER', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND'];
// Amounts stay within the INTERVAL fields' ranges (±10,000 years, ±3,660,000 days); the ranges
// themselves are exercised by families-edges.ts.
const amount: Sql = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: -400, max: 400 }).map((n) => `(${n})`) }, { weight: 1, arbitrary: fc.constantFrom('1000', '(-1000)', 'CAST(NULL AS INT64)') });
const intervalLit: Sql = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(amount, fc.constantFrom(...PARTS)).map(([n, p]) => `INTERVAL ${n} ${p}`) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: 0, max: 11 }), fc.integer({ min: -40, max: 40 }), civilTime).map(([y, m, d, t]) => `INTERVAL '${y}-${m} ${d} ${t}' YEAR TO SECOND`) },
  { weight: 1, arbitrary: fc.constantFrom("INTERVAL '10:20:30' HOUR TO SECOND", "INTERVAL '1-2' YEAR TO MONTH", "INTERVAL '-3 4' DAY TO HOUR", 'MAKE_INTERVAL(1, 2, 3, 4, 5, 6)', 'MAKE_INTERVAL(day => 40, hour => 30)') },
);
function interval(depth: number): Sql {
  if (depth <= 0) return intervalLit;
  const i = interval(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: intervalLit },
    { weight: 2, arbitrary: binop(['+', '-'], i, i) },
    { weight: 1, arbitrary: binop(['*'], i, fc.integer({ min: -5, max: 5 }).map((n) => `(${n})`)) },
    // Division is left out: the reference keeps nanoseconds (`1 SECOND / 7` is `0.142857142`).
    { weight: 1, arbitrary: i.map((x) => `(-${x})`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('JUSTIFY_DAYS', 'JUSTIFY_HOURS', 'JUSTIFY_INTERVAL'), i).map(([f, x]) => `${f}(${x})`) },
  );
}

const rangeOf = (lit: Sql): Sql => fc.tuple(lit, lit).map(([a, b]) => `RANGE(${a}, ${b})`);
const dateRange = rangeOf(dateLit);
const tsRange = rangeOf(timestampLit);

/** INTERVAL arithmetic shown as text, EXTRACT, dates ± intervals; RANGE constructors and functions. */
export const intervalsAndRanges: Sql = fc.oneof(
  { weight: 4, arbitrary: interval(2).map((x) => `CAST(${x} AS STRING)`) },
  { weight: 1, arbitrary: binop(cmp, interval(1), interval(1)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND', 'MILLISECOND', 'MICROSECOND'), interval(1)).map(([p, x]) => `EXTRACT(${p} FROM ${x})`) },
  { weight: 1, arbitrary: tmpl(['(', ' + ', ')'], fc.oneof(dateLit, datetimeLit, timestampLit), interval(1)) },
  { weight: 1, arbitrary: tmpl(['CAST((', ' - ', ') AS STRING)'], timestampLit, timestampLit) },
  { weight: 1, arbitrary: tmpl(['CAST((', ' - ', ') AS STRING)'], dateLit, dateLit) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('RANGE_START', 'RANGE_END'), fc.oneof(dateRange, tsRange)).map(([f, r]) => `${f}(${r})`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('RANGE_START', 'RANGE_END'), dateRange, dateRange).map(([f, a, b]) => `${f}(RANGE_INTERSECT(${a}, ${b}))`) },
  { weight: 1, arbitrary: fc.tuple(dateRange, dateRange).map(([a, b]) => `RANGE_OVERLAPS(${a}, ${b})`) },
  { weight: 1, arbitrary: binop(['=', '!='], dateRange, dateRange) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('RANGE_IS_START_UNBOUNDED', 'RANGE_IS_END_UNBOUNDED'), fc.oneof(dateRange, fc.constant("RANGE(DATE '2020-01-01', NULL)"), fc.constant("RANGE<DATE> '[UNBOUNDED, 2020-01-01)'"))).map(([f, r]) => `${f}(${r})`) },
  // Short ranges: the reference limits arrays to 1 MB (about 10,000 ranges).
  { weight: 1, arbitrary: fc.tuple(civilDate, fc.integer({ min: -3, max: 300 }), fc.integer({ min: -1, max: 40 })).map(([d, n, k]) => `ARRAY_LENGTH(GENERATE_RANGE_ARRAY(RANGE(DATE '${d}', DATE_ADD(DATE '${d}', INTERVAL ${n} DAY)), INTERVAL ${k} DAY))`) },
  { weight: 1, arbitrary: int64(0).map((n) => `CAST(MAKE_INTERVAL(day => ${n}) AS STRING)`) },
);
