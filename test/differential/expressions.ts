/**
 * Typed, depth-bounded GoogleSQL expression generators (INT64, FLOAT64, NUMERIC, STRING, BOOL) that
 * the differential families combine. Depth 0 is a literal; each level adds one operator or function.
 */
import fc from 'fast-check';
import { binop, boolLit, call, float64Lit, int64Lit, numericLit, smallInt, stringLit, tmpl, type Sql } from './arbitraries.js';

/** INT64-valued expressions: arithmetic, DIV/MOD, ABS/SIGN, SAFE_ functions, GREATEST/LEAST, conditionals. */
export function int64(depth: number): Sql {
  if (depth <= 0) return int64Lit;
  const s = int64(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: int64Lit },
    { weight: 4, arbitrary: binop(['+', '-', '*'], s, s) },
    { weight: 1, arbitrary: s.map((x) => `(-${x})`) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('DIV', 'MOD'), s, s).map(([f, a, b]) => `${f}(${a}, ${b})`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('ABS', 'SIGN'), s).map(([f, a]) => `${f}(${a})`) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('SAFE_ADD', 'SAFE_SUBTRACT', 'SAFE_MULTIPLY'), s, s).map(([f, a, b]) => `${f}(${a}, ${b})`) },
    { weight: 1, arbitrary: call('SAFE_NEGATE', s) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('GREATEST', 'LEAST'), fc.array(s, { minLength: 1, maxLength: 3 })).map(([f, xs]) => `${f}(${xs.join(', ')})`) },
    { weight: 1, arbitrary: binop(['&', '|', '^'], s, s) },
    { weight: 1, arbitrary: tmpl(['(', ' ', ' ', ')'], s, fc.constantFrom('<<', '>>'), fc.integer({ min: 0, max: 65 }).map(String)) },
    { weight: 1, arbitrary: tmpl(['IF(', ', ', ', ', ')'], bool(depth - 1), s, s) },
    { weight: 1, arbitrary: tmpl(['COALESCE(', ', ', ')'], s, s) },
  );
}

/** FLOAT64-valued expressions: arithmetic, IEEE_DIVIDE, math functions, rounding, int/float mixing. */
export function float64(depth: number): Sql {
  if (depth <= 0) return float64Lit;
  const s = float64(depth - 1);
  const i = int64(0);
  return fc.oneof(
    { weight: 3, arbitrary: float64Lit },
    { weight: 4, arbitrary: binop(['+', '-', '*', '/'], s, s) },
    { weight: 1, arbitrary: binop(['+', '*', '/'], s, i) },
    { weight: 1, arbitrary: binop(['/'], i, i) },
    { weight: 1, arbitrary: call('IEEE_DIVIDE', s, s) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('ABS', 'SIGN', 'ROUND', 'TRUNC', 'CEIL', 'FLOOR', 'SQRT', 'EXP', 'LN', 'LOG10'), s).map(([f, a]) => `${f}(${a})`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('ROUND', 'TRUNC'), s, fc.integer({ min: -2, max: 4 })).map(([f, a, n]) => `${f}(${a}, ${n})`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('POW', 'LOG'), s, s).map(([f, a, b]) => `${f}(${a}, ${b})`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('GREATEST', 'LEAST'), s, s).map(([f, a, b]) => `${f}(${a}, ${b})`) },
    { weight: 1, arbitrary: call('SAFE_DIVIDE', s, s) },
  );
}

/** NUMERIC-valued expressions: exact arithmetic, DIV/MOD, rounding with digits, NUMERIC/INT64 mixing. */
export function numeric(depth: number): Sql {
  if (depth <= 0) return numericLit;
  const s = numeric(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: numericLit },
    { weight: 4, arbitrary: binop(['+', '-', '*', '/'], s, s) },
    { weight: 1, arbitrary: binop(['+', '*', '-'], s, int64(0)) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('DIV', 'MOD', 'SAFE_DIVIDE', 'SAFE_MULTIPLY', 'SAFE_ADD'), s, s).map(([f, a, b]) => `${f}(${a}, ${b})`) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('ABS', 'SIGN', 'ROUND', 'TRUNC', 'CEIL', 'FLOOR'), s).map(([f, a]) => `${f}(${a})`) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('ROUND', 'TRUNC'), s, fc.integer({ min: -3, max: 10 })).map(([f, a, n]) => `${f}(${a}, ${n})`) },
    { weight: 1, arbitrary: fc.tuple(s, fc.integer({ min: -1, max: 3 }), fc.constantFrom('ROUND_HALF_EVEN', 'ROUND_HALF_AWAY_FROM_ZERO')).map(([a, n, m]) => `ROUND(${a}, ${n}, '${m}')`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('GREATEST', 'LEAST'), s, s).map(([f, a, b]) => `${f}(${a}, ${b})`) },
  );
}

/** STRING-valued expressions: the string function library over short mixed-script strings. */
export function string(depth: number): Sql {
  if (depth <= 0) return stringLit;
  const s = string(depth - 1);
  const n = smallInt;
  return fc.oneof(
    { weight: 3, arbitrary: stringLit },
    { weight: 2, arbitrary: fc.array(s, { minLength: 1, maxLength: 3 }).map((xs) => `CONCAT(${xs.join(', ')})`) },
    { weight: 1, arbitrary: binop(['||'], s, s) },
    { weight: 2, arbitrary: fc.oneof(call('SUBSTR', s, n), call('SUBSTR', s, n, n)) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('UPPER', 'LOWER', 'TRIM', 'LTRIM', 'RTRIM', 'REVERSE', 'INITCAP'), s).map(([f, a]) => `${f}(${a})`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('TRIM', 'LTRIM', 'RTRIM'), s, s).map(([f, a, b]) => `${f}(${a}, ${b})`) },
    { weight: 2, arbitrary: call('REPLACE', s, s, s) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('LPAD', 'RPAD'), s, n, fc.option(s, { nil: undefined })).map(([f, a, l, p]) => (p === undefined ? `${f}(${a}, ${l})` : `${f}(${a}, ${l}, ${p})`)) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('LEFT', 'RIGHT', 'REPEAT'), s, n).map(([f, a, b]) => `${f}(${a}, ${b})`) },
    { weight: 1, arbitrary: tmpl(['CAST(', ' AS STRING)'], int64(0)) },
    { weight: 1, arbitrary: tmpl(['IFNULL(', ', ', ')'], s, s) },
    // IFNULL and offset 0: a constant out-of-range SAFE_OFFSET lets DuckDB fold the access (and
    // `||` over it) to NULL, dropping a runtime error of the array or a sibling (known bqemu bug,
    // see the report and harness.ts nullArgumentOnly); offsets are covered by the arrays family.
    { weight: 1, arbitrary: tmpl(['IFNULL(SPLIT(', ', ', ")[SAFE_OFFSET(0)], '?')"], s, fc.constantFrom("','", "' '", "'a'", "''")) },
  );
}

/** BOOL-valued expressions: comparisons of every scalar family, logic with NULLs, IS/IN/BETWEEN/LIKE. */
export function bool(depth: number): Sql {
  if (depth <= 0) return boolLit;
  const cmp = ['=', '!=', '<', '<=', '>', '>='];
  const b = bool(depth - 1);
  const i = int64(Math.min(1, depth - 1));
  return fc.oneof(
    { weight: 2, arbitrary: boolLit },
    { weight: 2, arbitrary: binop(cmp, i, i) },
    { weight: 1, arbitrary: binop(cmp, float64(0), float64(0)) },
    { weight: 1, arbitrary: binop(cmp, numeric(0), int64(0)) },
    { weight: 1, arbitrary: binop(cmp, string(0), string(0)) },
    { weight: 2, arbitrary: binop(['AND', 'OR'], b, b) },
    { weight: 1, arbitrary: b.map((x) => `(NOT ${x})`) },
    { weight: 1, arbitrary: fc.tuple(i, fc.constantFrom('IS NULL', 'IS NOT NULL')).map(([x, p]) => `(${x} ${p})`) },
    { weight: 1, arbitrary: fc.tuple(b, fc.constantFrom('IS TRUE', 'IS NOT TRUE', 'IS FALSE', 'IS NOT FALSE')).map(([x, p]) => `(${x} ${p})`) },
    { weight: 1, arbitrary: tmpl(['(', ' BETWEEN ', ' AND ', ')'], i, i, i) },
    { weight: 1, arbitrary: fc.tuple(i, fc.constantFrom('IN', 'NOT IN'), fc.array(int64(0), { minLength: 1, maxLength: 4 })).map(([x, op, xs]) => `(${x} ${op} (${xs.join(', ')}))`) },
    { weight: 1, arbitrary: fc.tuple(i, fc.constantFrom('IS DISTINCT FROM', 'IS NOT DISTINCT FROM'), i).map(([x, op, y]) => `(${x} ${op} ${y})`) },
  );
}
