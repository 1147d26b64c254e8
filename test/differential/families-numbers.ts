/**
 * Differential families whose errors DuckDB would word itself unless mapped, numbers: mixed-type
 * arithmetic and comparison over INT64 / NUMERIC / BIGNUMERIC / FLOAT64 with their overflow edges,
 * BIGNUMERIC's own arithmetic, and the statistical aggregates at the limits (0, 1, 2 rows, huge
 * values, ±inf and NaN). See families.ts for what every family leaves out.
 *
 * Left out here: GREATEST/LEAST/ROUND/TRUNC/CEIL/FLOOR of BIGNUMERIC and BIGNUMERIC aggregates
 * (their own family, families-edges.ts), COVAR_* over
 * values whose products overflow (both sides answer NULL, not interesting), and NUMERIC/BIGNUMERIC
 * POW (its overflow text is not produced yet).
 */
import fc from 'fast-check';
import { binop, floatText, int64Lit, niceDouble, nullOf, numericLit, tmpl, type Sql } from './arbitraries.js';
import { float64, int64, numeric } from './expressions.js';

const cmp = ['=', '!=', '<', '<=', '>', '>='];

const BIGNUMERIC_EDGES = [
  "BIGNUMERIC '578960446186580977117854925043439539266.34992332820282019728792003956564819967'",
  "BIGNUMERIC '-578960446186580977117854925043439539266.34992332820282019728792003956564819968'",
  "BIGNUMERIC '1e38'",
  "BIGNUMERIC '-1e38'",
  "BIGNUMERIC '0.00000000000000000000000000000000000001'",
  "BIGNUMERIC '-0.00000000000000000000000000000000000001'",
  "BIGNUMERIC '2.5'",
  "BIGNUMERIC '-2.5'",
  "BIGNUMERIC '0'",
  "BIGNUMERIC '99999999999999999999999999999.999999999'",
];

/** BIGNUMERIC literals: short decimals, 38-digit fractions, values past NUMERIC, the edges, NULL. */
export const bignumericLit: Sql = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom('', '-'), fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 999 })).map(([s, i, f]) => `BIGNUMERIC '${s}${i}.${String(f).padStart(3, '0')}'`) },
  { weight: 2, arbitrary: fc.tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 0n, max: 10n ** 38n - 1n })).map(([i, f]) => `BIGNUMERIC '${i}.${String(f).padStart(38, '0')}'`) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 38n), max: 10n ** 38n }).map((i) => `BIGNUMERIC '${i}'`) },
  { weight: 2, arbitrary: fc.constantFrom(...BIGNUMERIC_EDGES) },
  { weight: 1, arbitrary: nullOf('BIGNUMERIC') },
);

/** BIGNUMERIC-valued expressions: exact arithmetic, DIV/MOD, SAFE_ forms, ABS/SIGN, mixing with INT64 and NUMERIC. */
export function bignumeric(depth: number): Sql {
  if (depth <= 0) return bignumericLit;
  const s = bignumeric(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: bignumericLit },
    { weight: 4, arbitrary: binop(['+', '-', '*', '/'], s, s) },
    { weight: 1, arbitrary: binop(['+', '-', '*', '/'], s, fc.oneof(int64(0), numericLit)) },
    { weight: 1, arbitrary: binop(['+', '-', '*'], fc.oneof(int64(0), numericLit), s) },
    { weight: 1, arbitrary: s.map((x) => `(-${x})`) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('DIV', 'MOD', 'SAFE_ADD', 'SAFE_SUBTRACT', 'SAFE_MULTIPLY', 'SAFE_DIVIDE', 'SAFE.DIV', 'SAFE.MOD'), s, s).map(([f, a, b]) => `${f}(${a}, ${b})`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('ABS', 'SIGN', 'SAFE_NEGATE', 'SAFE.ABS'), s).map(([f, a]) => `${f}(${a})`) },
    { weight: 1, arbitrary: tmpl(['IF(', ' > 0, ', ', ', ')'], int64Lit, s, s) },
  );
}

/** A number of any of the four types, at most `depth` operators deep. */
const anyNumber = (depth: number): Sql => fc.oneof(int64(depth), numeric(depth), bignumeric(depth), float64(depth));

/** Mixed-type arithmetic (the result type is the supertype) and comparisons across the four number types. */
export const mixedArithmetic: Sql = fc.oneof(
  { weight: 4, arbitrary: binop(['+', '-', '*', '/'], anyNumber(1), anyNumber(1)) },
  { weight: 3, arbitrary: binop(cmp, anyNumber(1), anyNumber(1)) },
  { weight: 1, arbitrary: tmpl(['(', ' BETWEEN ', ' AND ', ')'], anyNumber(0), anyNumber(0), anyNumber(0)) },
  { weight: 1, arbitrary: fc.tuple(anyNumber(0), fc.constantFrom('IN', 'NOT IN'), fc.array(anyNumber(0), { minLength: 1, maxLength: 3 })).map(([x, op, xs]) => `(${x} ${op} (${xs.join(', ')}))`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('DIV', 'MOD'), fc.oneof(int64(0), numeric(0), bignumeric(0)), fc.oneof(int64(0), numeric(0), bignumeric(0))).map(([f, a, b]) => `${f}(${a}, ${b})`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('SAFE_ADD', 'SAFE_SUBTRACT', 'SAFE_MULTIPLY', 'SAFE_DIVIDE'), anyNumber(0), anyNumber(0)).map(([f, a, b]) => `${f}(${a}, ${b})`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('INT64', 'NUMERIC', 'BIGNUMERIC', 'FLOAT64'), anyNumber(1)).map(([t, x]) => `CAST(${x} AS ${t})`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('INT64', 'NUMERIC', 'BIGNUMERIC'), anyNumber(1)).map(([t, x]) => `SAFE_CAST(${x} AS ${t})`) },
);

/** BIGNUMERIC expressions and comparisons on their own. */
export const bignumericArithmetic: Sql = fc.oneof(
  { weight: 5, arbitrary: bignumeric(2) },
  { weight: 2, arbitrary: binop(cmp, bignumeric(1), bignumeric(1)) },
  { weight: 1, arbitrary: tmpl(['(', ' BETWEEN ', ' AND ', ')'], bignumeric(0), bignumeric(0), bignumeric(0)) },
);

// ---------------------------------------------------------------- statistical aggregates

const HUGE = ['1e308', '-1e308', '1.7976931348623157e308', '-1.7976931348623157e308', '1e200', '-1e200', '1e154', '3e-308', '1e-200'];
/** A FLOAT64 cell of a statistics table: exact small values, huge and tiny magnitudes, ±inf, NaN, NULL. */
const statCell: Sql = fc.oneof(
  { weight: 6, arbitrary: niceDouble.map(floatText) },
  { weight: 3, arbitrary: fc.constantFrom(...HUGE).map((x) => (x.startsWith('-') ? `(${x})` : x)) },
  { weight: 1, arbitrary: fc.constantFrom("CAST('inf' AS FLOAT64)", "CAST('-inf' AS FLOAT64)", "CAST('NaN' AS FLOAT64)") },
  { weight: 2, arbitrary: fc.constant('NULL') },
);

/** A generated table of 0–3 rows with FLOAT64 columns x, y, an INT64 column k and a NUMERIC column n. */
const statTable: Sql = fc
  .array(fc.tuple(statCell, statCell, int64Lit, numericLit).map((cells) => `(${cells.join(', ')})`), { maxLength: 3 })
  .map((rows) => `UNNEST(ARRAY<STRUCT<x FLOAT64, y FLOAT64, k INT64, n NUMERIC>>[${rows.join(', ')}])`);

const ONE_ARG = ['VAR_POP', 'VAR_SAMP', 'VARIANCE', 'STDDEV', 'STDDEV_POP', 'STDDEV_SAMP'];
const TWO_ARGS = ['CORR', 'COVAR_POP', 'COVAR_SAMP'];

/** VAR_*, STDDEV_*, CORR, COVAR_* over generated tables, over FLOAT64, INT64 and NUMERIC columns, DISTINCT included. */
export const statisticalAggregates: Sql = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...ONE_ARG), fc.constantFrom('x', 'y', 'k', 'n', 'DISTINCT x'), statTable).map(([f, a, t]) => `(SELECT ${f}(${a}) FROM ${t})`) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...TWO_ARGS), fc.constantFrom('x, y', 'y, x', 'x, x', 'k, x', 'n, y'), statTable).map(([f, a, t]) => `(SELECT ${f}(${a}) FROM ${t})`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...ONE_ARG), statTable).map(([f, t]) => `(SELECT ${f}(x * 2) FROM ${t})`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...ONE_ARG, ...TWO_ARGS.map((f) => f + '_2')), fc.integer({ min: 0, max: 2 })).map(([f, n]) => {
    const rows = Array.from({ length: n }, (_, i) => `(${i}.5)`).join(', ');
    return f.endsWith('_2') ? `(SELECT ${f.slice(0, -2)}(x, x + 1) FROM UNNEST(ARRAY<FLOAT64>[${rows}]) x)` : `(SELECT ${f}(x) FROM UNNEST(ARRAY<FLOAT64>[${rows}]) x)`;
  }) },
);
