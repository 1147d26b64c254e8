/**
 * The expression families of the differential suite: each is a fast-check generator of
 * one GoogleSQL expression. Families that the ZetaSQL reference evaluator is known to answer
 * differently from BigQuery are left out here, each with the reason beside it.
 *
 * Left out on purpose:
 * - CAST(FLOAT64 AS STRING) (and so FORMAT/CONCAT of floats): the reference prints 17 significant
 *   digits (`0.33333333333333331`), BigQuery the shortest round-trip text (`0.3333333333333333`).
 * - ARRAY_AGG/STRING_AGG without ORDER BY, ANY_VALUE: the order/choice is unspecified in BigQuery.
 * - Floating-point SUM/AVG over arbitrary doubles: summation order is unspecified; aggregated
 *   doubles are multiples of 0.25 so every order gives the same exact sum.
 * - CURRENT_*, RAND, GENERATE_UUID: not deterministic.
 */
import fc from 'fast-check';
import { binop, boolLit, call, civilDate, float64Lit, int64Lit, numericLit, quote, smallInt, stringLit, tmpl, type Sql } from './arbitraries.js';
import { bool, float64, int64, numeric, string } from './expressions.js';
import { aggregates, arrays, datePart, timestampDatetime } from './families-temporal.js';

/** A named family of generated expressions. */
export interface Family {
  name: string;
  expr: Sql;
}

const cmp = ['=', '!=', '<', '<=', '>', '>='];

const intArith: Sql = fc.oneof(
  { weight: 6, arbitrary: int64(2) },
  { weight: 2, arbitrary: binop(cmp, int64(1), int64(1)) },
  { weight: 1, arbitrary: binop(['/'], int64(1), int64(1)) },
  { weight: 1, arbitrary: bool(2) },
);

const floatArith: Sql = fc.oneof(
  { weight: 6, arbitrary: float64(2) },
  { weight: 2, arbitrary: binop(cmp, float64(1), float64(1)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('IS_NAN', 'IS_INF'), float64(1)).map(([f, a]) => `${f}(${a})`) },
  { weight: 1, arbitrary: binop(['=', '<', '>'], float64(0), int64(0)) },
);

const numericArith: Sql = fc.oneof(
  { weight: 6, arbitrary: numeric(2) },
  { weight: 2, arbitrary: binop(cmp, numeric(1), numeric(1)) },
  { weight: 1, arbitrary: binop(['+', '*', '/'], numeric(1), float64(0)) },
  { weight: 1, arbitrary: binop(cmp, numeric(0), float64(0)) },
);

/** DIV/MOD, rounding (ROUND/TRUNC/CEIL/FLOOR with and without digits) on INT64, FLOAT64, NUMERIC. */
const divModRound: Sql = fc.oneof(
  tmpl(['DIV(', ', ', ')'], int64Lit, fc.oneof(int64Lit, smallInt)),
  tmpl(['MOD(', ', ', ')'], int64Lit, fc.oneof(int64Lit, smallInt)),
  tmpl(['DIV(', ', ', ')'], numericLit, numericLit),
  tmpl(['MOD(', ', ', ')'], numericLit, numericLit),
  fc.tuple(fc.constantFrom('ROUND', 'TRUNC', 'CEIL', 'FLOOR'), fc.oneof(float64Lit, numericLit)).map(([f, a]) => `${f}(${a})`),
  fc.tuple(fc.constantFrom('ROUND', 'TRUNC'), fc.oneof(float64Lit, numericLit), fc.integer({ min: -3, max: 6 })).map(([f, a, n]) => `${f}(${a}, ${n})`),
  fc.tuple(fc.constantFrom('ROUND', 'TRUNC', 'CEIL', 'FLOOR'), float64(1)).map(([f, a]) => `${f}(${a})`),
  fc.tuple(fc.constantFrom('ROUND', 'TRUNC', 'CEIL', 'FLOOR'), int64Lit).map(([f, a]) => `${f}(${a})`),
);

/** SAFE_ functions and the SAFE. prefix: NULL instead of the runtime error. */
const safe: Sql = fc.oneof(
  fc.tuple(fc.constantFrom('SAFE_ADD', 'SAFE_SUBTRACT', 'SAFE_MULTIPLY', 'SAFE_DIVIDE'), int64(1), int64(1)).map(([f, a, b]) => `${f}(${a}, ${b})`),
  fc.tuple(fc.constantFrom('SAFE_ADD', 'SAFE_SUBTRACT', 'SAFE_MULTIPLY', 'SAFE_DIVIDE'), numeric(1), numeric(1)).map(([f, a, b]) => `${f}(${a}, ${b})`),
  fc.tuple(fc.constantFrom('SAFE_ADD', 'SAFE_MULTIPLY', 'SAFE_DIVIDE'), float64(1), float64(1)).map(([f, a, b]) => `${f}(${a}, ${b})`),
  call('SAFE_NEGATE', int64(1)),
  fc.tuple(fc.constantFrom('SAFE.DIV', 'SAFE.MOD'), int64(1), int64(0)).map(([f, a, b]) => `${f}(${a}, ${b})`),
  fc.tuple(fc.constantFrom('SAFE.SQRT', 'SAFE.LN', 'SAFE.LOG10', 'SAFE.EXP', 'SAFE.ABS'), float64(1)).map(([f, a]) => `${f}(${a})`),
  call('SAFE.ABS', int64(0)),
  fc.tuple(fc.constantFrom('SAFE.POW', 'SAFE.LOG'), float64(0), float64(0)).map(([f, a, b]) => `${f}(${a}, ${b})`),
  fc.tuple(fc.constantFrom('SAFE.REPEAT', 'SAFE.LEFT', 'SAFE.RIGHT'), string(1), smallInt).map(([f, a, n]) => `${f}(${a}, ${n})`),
  fc.tuple(fc.constantFrom('SAFE.LPAD', 'SAFE.RPAD'), string(1), smallInt, string(0)).map(([f, a, n, p]) => `${f}(${a}, ${n}, ${p})`),
  tmpl(['SAFE.SUBSTR(', ', ', ', ', ')'], string(1), smallInt, smallInt),
  tmpl(["SAFE.PARSE_DATE('%Y-%m-%d', ", ')'], fc.oneof(civilDate.map(quote), stringLit)),
  tmpl(['SAFE.DATE_FROM_UNIX_DATE(', ')'], int64Lit),
  tmpl(['SAFE.GENERATE_ARRAY(', ', ', ', ', ')'], smallInt, smallInt, smallInt),
);

const stringFns: Sql = fc.oneof({ weight: 3, arbitrary: string(2) }, { weight: 1, arbitrary: string(1) });

/** STRING predicates and STRING→INT64/BOOL functions. */
const stringPreds: Sql = fc.oneof(
  fc.tuple(fc.constantFrom('LENGTH', 'CHAR_LENGTH', 'BYTE_LENGTH', 'ASCII', 'UNICODE'), string(1)).map(([f, a]) => `${f}(${a})`),
  fc.tuple(fc.constantFrom('STRPOS', 'INSTR', 'STARTS_WITH', 'ENDS_WITH'), string(1), string(0)).map(([f, a, b]) => `${f}(${a}, ${b})`),
  tmpl(['INSTR(', ', ', ', ', ', ', ')'], string(1), string(0), fc.integer({ min: -3, max: 4 }).map((n) => `(${n})`), fc.integer({ min: 1, max: 2 }).map(String)),
  binop(cmp, string(1), string(1)),
  tmpl(['(', ' LIKE ', ')'], string(1), fc.array(fc.constantFrom('a', 'b', '%', '_', 'é', ' ', 'A'), { maxLength: 4 }).map((cs) => quote(cs.join('')))),
  tmpl(['SPLIT(', ', ', ')'], string(1), fc.constantFrom("','", "' '", "'a'", "'é'")),
  tmpl(['ARRAY_LENGTH(SPLIT(', ', ', '))'], string(1), fc.constantFrom("','", "' '", "'a'")),
);

/** A STRING that may parse as a number, bool, date or timestamp (CAST sources). */
const castText: Sql = fc.oneof(
  stringLit,
  fc.constantFrom(' 12 ', '0x1F', '-0x10', '1e3', '1.5', '-2.5', '+7', '007', 'abc', '', 'true', 'FALSE', 'yes', '9223372036854775808', '-9223372036854775808', 'inf', '-Infinity', 'NaN', '1e400', '.5', '5.', '1,000', '2020-01-02', '2020-1-2', '2020-02-30', '2020-01-02 03:04:05', '2020-01-02T03:04:05Z', '2020-01-02 03:04:05.123456+05:30', ' 2020-01-02', '123456789012345678901234567890').map(quote),
  civilDate.map(quote),
  fc.integer({ min: -100000, max: 100000 }).map((n) => quote(String(n))),
);

const target = (...ts: string[]) => fc.constantFrom(...ts);
const castTo = (src: Sql, ...ts: string[]): Sql => fc.tuple(fc.constantFrom('CAST', 'SAFE_CAST'), src, target(...ts)).map(([c, x, t]) => `${c}(${x} AS ${t})`);

/** CASTs between scalar types (FLOAT64→STRING excluded, see the module comment). */
const casts: Sql = fc.oneof(
  castTo(int64(1), 'FLOAT64', 'NUMERIC', 'BIGNUMERIC', 'STRING', 'BOOL', 'INT64'),
  castTo(float64(1), 'INT64', 'NUMERIC', 'BIGNUMERIC'),
  castTo(numeric(1), 'INT64', 'FLOAT64', 'STRING'),
  castTo(boolLit, 'INT64', 'STRING'),
  castTo(castText, 'INT64', 'FLOAT64', 'NUMERIC', 'BIGNUMERIC', 'BOOL', 'DATE', 'DATETIME', 'TIMESTAMP', 'BYTES'),
  castTo(datePart(0), 'STRING', 'DATETIME', 'TIMESTAMP'),
  castTo(timestampDatetime.datetimeLeaf, 'STRING', 'DATE', 'TIMESTAMP', 'TIME'),
  castTo(timestampDatetime.timestampLeaf, 'STRING', 'DATE', 'DATETIME', 'TIME'),
  castTo(fc.constantFrom("b'abc'", "b'\\xff'", "b''", "b'\\xc3\\xa9'"), 'STRING'),
);

/** A value that raises a runtime error when evaluated (for the lazy evaluation of IF/CASE/COALESCE). */
const failing: Sql = fc.constantFrom('DIV(1, 0)', "CAST('x' AS INT64)", '(9223372036854775807 + 1)');
const intOrFail: Sql = fc.oneof({ weight: 6, arbitrary: int64(1) }, { weight: 1, arbitrary: failing });

/** IF, CASE (searched and simple), COALESCE, IFNULL, NULLIF, with lazily evaluated branches. */
const conditional: Sql = fc.oneof(
  tmpl(['IF(', ', ', ', ', ')'], bool(2), intOrFail, intOrFail),
  tmpl(['IF(', ', ', ', ', ')'], bool(1), string(1), string(1)),
  fc.tuple(fc.array(fc.tuple(bool(1), intOrFail), { minLength: 1, maxLength: 3 }), fc.option(intOrFail, { nil: undefined })).map(
    ([ws, e]) => `CASE ${ws.map(([c, v]) => `WHEN ${c} THEN ${v}`).join(' ')}${e === undefined ? '' : ` ELSE ${e}`} END`,
  ),
  fc.tuple(int64(0), fc.array(fc.tuple(int64(0), string(1)), { minLength: 1, maxLength: 3 }), string(0)).map(
    ([x, ws, e]) => `CASE ${x} ${ws.map(([w, v]) => `WHEN ${w} THEN ${v}`).join(' ')} ELSE ${e} END`,
  ),
  fc.array(intOrFail, { minLength: 1, maxLength: 4 }).map((xs) => `COALESCE(${xs.join(', ')})`),
  fc.array(string(1), { minLength: 1, maxLength: 3 }).map((xs) => `COALESCE(${xs.join(', ')})`),
  tmpl(['IFNULL(', ', ', ')'], int64(1), intOrFail),
  tmpl(['IFNULL(', ', ', ')'], float64(0), float64(0)),
  tmpl(['NULLIF(', ', ', ')'], int64(1), int64(0)),
  tmpl(['NULLIF(', ', ', ')'], string(1), string(0)),
  tmpl(['IF(', ', ', ', ', ')'], bool(1), numeric(1), int64(0)),
  tmpl(['IF(', ', ', ', ', ')'], boolLit, float64(0), int64(0)),
);

/** All families, in run order. Names are the labels printed on failure. */
export const FAMILIES: Family[] = [
  { name: 'int64 arithmetic and comparisons', expr: intArith },
  { name: 'float64 arithmetic and math', expr: floatArith },
  { name: 'numeric arithmetic', expr: numericArith },
  { name: 'DIV/MOD and rounding', expr: divModRound },
  { name: 'SAFE functions', expr: safe },
  { name: 'string functions', expr: stringFns },
  { name: 'string predicates and positions', expr: stringPreds },
  { name: 'casts', expr: casts },
  { name: 'conditional expressions', expr: conditional },
  { name: 'DATE functions', expr: datePart(2) },
  { name: 'DATETIME and TIMESTAMP functions', expr: timestampDatetime.expr },
  { name: 'arrays', expr: arrays },
  { name: 'aggregates over generated tables', expr: aggregates },
];
