/**
 * Differential families for DATE/DATETIME/TIMESTAMP arithmetic, arrays, and small aggregates over
 * generated tables (UNNEST of typed STRUCT arrays). See families.ts for the exclusions.
 */
import fc from 'fast-check';
import {
  DATE_ADD_PARTS,
  DATE_PARTS,
  TIME_PARTS,
  binop,
  call,
  civilDate,
  dateLit,
  datetimeLit,
  floatText,
  int64Lit,
  niceDouble,
  quote,
  smallInt,
  stringLit,
  timestampLit,
  tmpl,
  type Sql,
} from './arbitraries.js';
import { int64, string } from './expressions.js';

const cmp = ['=', '!=', '<', '<=', '>', '>='];
const amount: Sql = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: -400, max: 400 }).map((n) => `(${n})`) }, { weight: 1, arbitrary: fc.constantFrom('100000', '(-100000)', '3000000', 'CAST(NULL AS INT64)') });
const ZONES = ["'UTC'", "'America/Los_Angeles'", "'Asia/Kolkata'", "'Europe/Berlin'", "'Australia/Lord_Howe'", "'+05:30'", "'-08'"];
const zone = fc.constantFrom(...ZONES);
/**
 * TIMESTAMPs from 1970 on, for the operations that take a time zone: before the zones' standard
 * offsets (local mean time, e.g. Asia/Kolkata +05:21:10 in 1904) the reference's FORMAT_TIMESTAMP
 * uses the offset cut to whole minutes while its EXTRACT uses the full one; left out (see report).
 */
const modernTs: Sql = fc
  .tuple(fc.integer({ min: 1970, max: 2100 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.integer({ min: 0, max: 86399 }), fc.integer({ min: 0, max: 999999 }))
  .map(([y, m, d, s, us]) => `TIMESTAMP '${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')} ${new Date(s * 1000).toISOString().slice(11, 19)}.${String(us).padStart(6, '0')}+00'`);
const EXTRACT_DATE = ['DAYOFWEEK', 'DAY', 'DAYOFYEAR', 'WEEK', 'WEEK(MONDAY)', 'WEEK(SUNDAY)', 'ISOWEEK', 'MONTH', 'QUARTER', 'YEAR', 'ISOYEAR'];
// %C is left out: for years before 1000 the reference prints `2`, BigQuery's docs say "00-99".
const FORMATS = ["'%Y-%m-%d'", "'%d/%m/%y'", "'%A %B %e'", "'%a %b %j'", "'%U %W %V %G %u %w'", "'%g %y'", "'%x'", "'%F %Q'"];

/** DATE-valued expressions (depth-bounded) and, at the top, DATE→INT64/STRING/BOOL functions. */
export function datePart(depth: number): Sql {
  if (depth <= 0) return dateLit;
  const d = datePart(depth - 1);
  const value = fc.oneof(
    { weight: 3, arbitrary: dateLit },
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom('DATE_ADD', 'DATE_SUB'), d, amount, fc.constantFrom(...DATE_ADD_PARTS)).map(([f, x, n, p]) => `${f}(${x}, INTERVAL ${n} ${p})`) },
    { weight: 2, arbitrary: tmpl(['DATE_TRUNC(', ', ', ')'], d, fc.constantFrom(...DATE_PARTS)) },
    { weight: 1, arbitrary: fc.oneof(call('LAST_DAY', d), tmpl(['LAST_DAY(', ', ', ')'], d, fc.constantFrom('MONTH', 'QUARTER', 'YEAR', 'WEEK', 'ISOWEEK', 'ISOYEAR'))) },
    { weight: 1, arbitrary: tmpl(['DATE(', ', ', ', ', ')'], fc.integer({ min: 1, max: 9999 }).map(String), fc.integer({ min: 0, max: 13 }).map(String), fc.integer({ min: 0, max: 32 }).map(String)) },
    { weight: 1, arbitrary: call('DATE_FROM_UNIX_DATE', fc.oneof(int64Lit, fc.integer({ min: -800000, max: 3000000 }).map((n) => `(${n})`))) },
    { weight: 1, arbitrary: tmpl(["PARSE_DATE('%Y-%m-%d', ", ')'], fc.oneof(civilDate.map(quote), stringLit)) },
    { weight: 1, arbitrary: fc.oneof(call('DATE', timestampLit), tmpl(['DATE(', ', ', ')'], modernTs, zone), call('DATE', datetimeLit)) },
  );
  if (depth < 2) return value;
  return fc.oneof(
    { weight: 4, arbitrary: value },
    { weight: 3, arbitrary: tmpl(['DATE_DIFF(', ', ', ', ', ')'], d, d, fc.constantFrom(...DATE_PARTS)) },
    { weight: 3, arbitrary: tmpl(['EXTRACT(', ' FROM ', ')'], fc.constantFrom(...EXTRACT_DATE), d) },
    { weight: 1, arbitrary: call('UNIX_DATE', d) },
    { weight: 1, arbitrary: binop(cmp, d, d) },
    { weight: 1, arbitrary: tmpl(['FORMAT_DATE(', ', ', ')'], fc.constantFrom(...FORMATS), d) },
  );
}

const dtLeaf: Sql = datetimeLit;
const tsLeaf: Sql = timestampLit;
const DT_TRUNC = [...TIME_PARTS, 'DAY', 'WEEK', 'WEEK(TUESDAY)', 'ISOWEEK', 'MONTH', 'QUARTER', 'YEAR', 'ISOYEAR'];
const TS_TRUNC = [...TIME_PARTS, 'DAY', 'WEEK', 'ISOWEEK', 'MONTH', 'QUARTER', 'YEAR', 'ISOYEAR'];

const datetimeValue: Sql = fc.oneof(
  { weight: 2, arbitrary: dtLeaf },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('DATETIME_ADD', 'DATETIME_SUB'), dtLeaf, amount, fc.constantFrom(...TIME_PARTS, ...DATE_ADD_PARTS)).map(([f, x, n, p]) => `${f}(${x}, INTERVAL ${n} ${p})`) },
  { weight: 2, arbitrary: tmpl(['DATETIME_TRUNC(', ', ', ')'], dtLeaf, fc.constantFrom(...DT_TRUNC)) },
  { weight: 1, arbitrary: fc.oneof(call('DATETIME', tsLeaf), tmpl(['DATETIME(', ', ', ')'], modernTs, zone), call('DATETIME', dateLit)) },
  { weight: 1, arbitrary: tmpl(['DATETIME(', ', ', ', ', ', ', ', ', ', ', ')'], ...[9999, 12, 31, 23, 59, 59].map((m) => fc.integer({ min: 0, max: m }).map(String))) },
);

const timestampValue: Sql = fc.oneof(
  { weight: 2, arbitrary: tsLeaf },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('TIMESTAMP_ADD', 'TIMESTAMP_SUB'), tsLeaf, amount, fc.constantFrom(...TIME_PARTS, 'DAY')).map(([f, x, n, p]) => `${f}(${x}, INTERVAL ${n} ${p})`) },
  { weight: 2, arbitrary: tmpl(['TIMESTAMP_TRUNC(', ', ', ')'], tsLeaf, fc.constantFrom(...TS_TRUNC)) },
  { weight: 1, arbitrary: tmpl(['TIMESTAMP_TRUNC(', ', ', ', ', ')'], modernTs, fc.constantFrom('DAY', 'WEEK', 'MONTH', 'YEAR', 'HOUR'), zone) },
  { weight: 1, arbitrary: fc.oneof(call('TIMESTAMP', dtLeaf), tmpl(['TIMESTAMP(', ', ', ')'], dtLeaf, zone), call('TIMESTAMP', dateLit)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('TIMESTAMP_SECONDS', 'TIMESTAMP_MILLIS', 'TIMESTAMP_MICROS'), fc.oneof(int64Lit, fc.integer({ min: -2e9, max: 4e9 }).map((n) => `(${n})`))).map(([f, n]) => `${f}(${n})`) },
);

/** DATETIME/TIMESTAMP generators: leaves for the CAST family, and the family expression. */
export const timestampDatetime = {
  datetimeLeaf: dtLeaf,
  timestampLeaf: tsLeaf,
  expr: fc.oneof(
    { weight: 3, arbitrary: datetimeValue },
    { weight: 3, arbitrary: timestampValue },
    { weight: 2, arbitrary: tmpl(['DATETIME_DIFF(', ', ', ', ', ')'], datetimeValue, datetimeValue, fc.constantFrom(...TIME_PARTS, 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR', 'ISOYEAR', 'ISOWEEK')) },
    { weight: 2, arbitrary: tmpl(['TIMESTAMP_DIFF(', ', ', ', ', ')'], timestampValue, timestampValue, fc.constantFrom(...TIME_PARTS, 'DAY')) },
    { weight: 2, arbitrary: tmpl(['EXTRACT(', ' FROM ', ')'], fc.constantFrom(...TIME_PARTS, ...EXTRACT_DATE, 'DATE', 'TIME'), datetimeValue) },
    { weight: 2, arbitrary: tmpl(['EXTRACT(', ' FROM ', ' AT TIME ZONE ', ')'], fc.constantFrom(...TIME_PARTS, ...EXTRACT_DATE, 'DATE', 'DATETIME'), fc.oneof(timestampValue, modernTs), zone) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('UNIX_SECONDS', 'UNIX_MILLIS', 'UNIX_MICROS'), timestampValue).map(([f, t]) => `${f}(${t})`) },
    { weight: 1, arbitrary: binop(cmp, timestampValue, timestampValue) },
    { weight: 1, arbitrary: binop(cmp, datetimeValue, datetimeValue) },
    // %Z of a zone at a non-whole-hour offset: the reference prints `UTC+0530`, bqemu `UTC+5:30`, and
    // no recorded BigQuery answer settles it; such zones are left out of %Z (see the report).
    { weight: 1, arbitrary: tmpl(["FORMAT_TIMESTAMP('%Y-%m-%d %H:%M:%E6S %Z', ", ', ', ')'], modernTs, fc.constantFrom("'UTC'", "'America/Los_Angeles'", "'Europe/Berlin'", "'-08'")) },
    { weight: 1, arbitrary: tmpl(["FORMAT_TIMESTAMP('%F %T %z', ", ', ', ')'], modernTs, zone) },
    { weight: 1, arbitrary: tmpl(["FORMAT_DATETIME('%F %T %p %I', ", ')'], datetimeValue) },
  ),
};

// ---------------------------------------------------------------- arrays

const arrayOf = (el: Sql, type: string, nullWeight = 1): Sql =>
  fc.oneof(
    { weight: 8, arbitrary: fc.array(el, { maxLength: 5 }).map((xs) => (xs.length ? `[${xs.join(', ')}]` : `ARRAY<${type}>[]`)) },
    { weight: nullWeight, arbitrary: fc.constant(`CAST(NULL AS ARRAY<${type}>)`) },
  );
const intEl: Sql = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: -5, max: 9 }).map((n) => `(${n})`) }, { weight: 1, arbitrary: fc.constant('CAST(NULL AS INT64)') });
const strEl: Sql = fc.oneof({ weight: 6, arbitrary: fc.constantFrom("'a'", "'b'", "'B'", "'é'", "''", "'x y'", "'日本'") }, { weight: 1, arbitrary: fc.constant('CAST(NULL AS STRING)') });
const intArr = arrayOf(intEl, 'INT64');
const strArr = arrayOf(strEl, 'STRING');
const pos = fc.integer({ min: -1, max: 5 }).map((n) => `(${n})`);

/** Array functions, subscripts, UNNEST subqueries and array constructors. */
export const arrays: Sql = fc.oneof(
  fc.tuple(fc.constantFrom('ARRAY_LENGTH', 'ARRAY_REVERSE'), fc.oneof(intArr, strArr)).map(([f, a]) => `${f}(${a})`),
  fc.tuple(fc.oneof(intArr, strArr), fc.constantFrom('OFFSET', 'SAFE_OFFSET', 'ORDINAL', 'SAFE_ORDINAL'), pos).map(([a, k, i]) => `${a}[${k}(${i})]`),
  fc.oneof(call('ARRAY_CONCAT', intArr, intArr), call('ARRAY_CONCAT', strArr, strArr)),
  fc.oneof(call('ARRAY_TO_STRING', strArr, fc.constantFrom("','", "''", "' - '")), call('ARRAY_TO_STRING', strArr, fc.constantFrom("','", "''"), fc.constantFrom("'NULL'", "''", "'?'"))),
  fc.oneof(call('GENERATE_ARRAY', smallInt, smallInt), call('GENERATE_ARRAY', smallInt, smallInt, fc.integer({ min: -3, max: 3 }).map((n) => `(${n})`))),
  fc
    .tuple(civilDate.map(quote), fc.integer({ min: -10, max: 40 }), fc.integer({ min: -2, max: 7 }), fc.constantFrom('DAY', 'WEEK', 'MONTH'))
    .map(([d, k, step, unit]) => `GENERATE_DATE_ARRAY(DATE ${d}, DATE_ADD(DATE ${d}, INTERVAL (${k}) DAY), INTERVAL (${step}) ${unit})`),
  fc.tuple(fc.constantFrom('ARRAY_FIRST', 'ARRAY_LAST'), fc.oneof(intArr, strArr)).map(([f, a]) => `${f}(${a})`),
  tmpl(['(', ' IN UNNEST(', '))'], intEl, intArr),
  tmpl(['ARRAY(SELECT x * 2 FROM UNNEST(', ') AS x WITH OFFSET o ORDER BY o)'], intArr),
  tmpl(['ARRAY(SELECT DISTINCT x FROM UNNEST(', ') AS x WHERE x IS NOT NULL ORDER BY x DESC)'], intArr),
  tmpl(['ARRAY(SELECT AS STRUCT x, o FROM UNNEST(', ') AS x WITH OFFSET o ORDER BY x, o)'], strArr),
  fc.array(int64(1), { minLength: 1, maxLength: 3 }).map((xs) => `[${xs.join(', ')}]`),
  fc.array(string(1), { minLength: 1, maxLength: 3 }).map((xs) => `ARRAY_LENGTH([${xs.join(', ')}])`),
);

// ---------------------------------------------------------------- aggregates

const row = fc
  .tuple(
    fc.oneof({ weight: 4, arbitrary: fc.integer({ min: -3, max: 5 }).map(String) }, { weight: 1, arbitrary: fc.constant('NULL') }),
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom("'a'", "'b'", "'B'", "'é'", "''") }, { weight: 1, arbitrary: fc.constant('NULL') }),
    fc.oneof({ weight: 6, arbitrary: niceDouble.map(floatText) }, { weight: 1, arbitrary: fc.constantFrom('NULL', "CAST('NaN' AS FLOAT64)", "CAST('inf' AS FLOAT64)") }),
    fc.oneof({ weight: 4, arbitrary: fc.integer({ min: -999, max: 999 }).map((n) => `NUMERIC '${n / 100}'`) }, { weight: 1, arbitrary: fc.constant('NULL') }),
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom('2020-01-01', '2020-02-29', '1999-12-31', '2024-06-15').map((d) => `DATE '${d}'`) }, { weight: 1, arbitrary: fc.constant('NULL') }),
    fc.constantFrom('TRUE', 'FALSE', 'NULL'),
  )
  .map((cells) => `(${cells.join(', ')})`);

/** A generated table: UNNEST of a typed STRUCT array with columns k, s, f, n, d, b (0–6 rows). */
const table: Sql = fc.array(row, { maxLength: 6 }).map((rows) => `UNNEST(ARRAY<STRUCT<k INT64, s STRING, f FLOAT64, n NUMERIC, d DATE, b BOOL>>[${rows.join(', ')}])`);

const AGGS = [
  'SUM(k)', 'SUM(f)', 'SUM(n)', 'COUNT(*)', 'COUNT(k)', 'COUNT(s)', 'COUNT(DISTINCT k)', 'COUNT(DISTINCT s)',
  'MIN(k)', 'MAX(k)', 'MIN(s)', 'MAX(s)', 'MIN(f)', 'MAX(f)', 'MIN(n)', 'MAX(n)', 'MIN(d)', 'MAX(d)',
  // AVG over ±inf is left out: the reference's running mean gives NaN for {inf, 1}, not inf.
  'AVG(k)', 'AVG(IF(IS_INF(f), NULL, f))', 'AVG(n)', 'SUM(DISTINCT k)', 'AVG(DISTINCT k)',
  "STRING_AGG(s, ',' ORDER BY s)", 'STRING_AGG(s ORDER BY s DESC)', "STRING_AGG(DISTINCT s, '|' ORDER BY s)", "STRING_AGG(s, '' ORDER BY s LIMIT 2)",
  'ARRAY_AGG(k IGNORE NULLS ORDER BY k)', 'ARRAY_AGG(k ORDER BY k DESC)', 'ARRAY_AGG(s IGNORE NULLS ORDER BY s LIMIT 3)', 'ARRAY_AGG(DISTINCT k IGNORE NULLS ORDER BY k)',
  'COUNTIF(k > 1)', 'COUNTIF(b)', 'LOGICAL_AND(b)', 'LOGICAL_OR(b)', 'LOGICAL_AND(k > 0)', 'BIT_AND(k)', 'BIT_OR(k)', 'BIT_XOR(k)',
  'MAX(k) - MIN(k)', 'SUM(k * 2 + 1)', 'COUNT(*) + COUNT(k)',
];
const WHERES = ['', ' WHERE k IS NOT NULL', ' WHERE k > 0', ' WHERE s IS NULL', " WHERE s >= 'b'", ' WHERE b'];

/** Aggregates in scalar subqueries over generated tables, GROUP BY as ARRAY of STRUCT, UNNEST of INT64 arrays. */
export const aggregates: Sql = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...AGGS), table, fc.constantFrom(...WHERES)).map(([a, t, w]) => `(SELECT ${a} FROM ${t}${w})`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('s', 'k', 'b'), fc.array(fc.constantFrom(...AGGS.slice(0, 27)), { minLength: 1, maxLength: 3 }), table, fc.constantFrom('', ' HAVING COUNT(*) > 1'))
      .map(([g, as, t, h]) => `ARRAY(SELECT AS STRUCT ${g}, ${as.map((a, i) => `${a} AS a${i}`).join(', ')} FROM ${t} GROUP BY ${g}${h} ORDER BY ${g})`),
  },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('SUM(x)', 'COUNT(x)', 'MAX(x)', 'AVG(x)', "STRING_AGG(CAST(x AS STRING), ',' ORDER BY x)", 'ARRAY_AGG(x IGNORE NULLS ORDER BY x DESC LIMIT 2)', 'COUNTIF(x < 3)'), intArr).map(([a, arr]) => `(SELECT ${a} FROM UNNEST(${arr}) AS x)`) },
  { weight: 1, arbitrary: tmpl(['(SELECT SUM(x) FROM UNNEST([', ', ', ']) AS x)'], int64Lit, int64Lit) },
);
