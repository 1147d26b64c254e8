/**
 * Differential families at value edges where bqemu used to give wrong answers or DuckDB's words:
 * BIGNUMERIC ordered and aggregated (stored as text, once ordered as text: −1 before −10, 10 before
 * 9.5), INTERVAL values at and past BigQuery's ranges (±10,000 years, ±3,660,000 days, ±87,840,000
 * hours), and DATE / DATETIME / TIMESTAMP arithmetic at and past 0001-01-01 … 9999-12-31.
 *
 * Left out here: ARRAY_AGG / window frames ordered by a BIGNUMERIC with ties (their order is
 * unspecified; ties are broken by the offset), POW / SQRT / LN of BIGNUMERIC (bqemu computes them
 * in FLOAT64, 17 significant digits of the reference's 38), INTERVAL MILLISECOND / MICROSECOND
 * literals (the reference evaluator refuses them, see families-text.ts).
 */
import fc from 'fast-check';
import { civilTime, tmpl, type Sql } from './arbitraries.js';
import { bignumericLit } from './families-numbers.js';

const p2 = (n: number) => String(n).padStart(2, '0');
const paren = (n: bigint | number) => (BigInt(n) < 0n ? `(${n})` : String(n));

// ---------------------------------------------------------------- BIGNUMERIC order and aggregates

/** A generated BIGNUMERIC column of 0–5 rows (NULLs included). */
const bnRows: fc.Arbitrary<string[]> = fc.array(bignumericLit, { maxLength: 5 });
const bnTable = (xs: string[]) => `UNNEST(ARRAY<BIGNUMERIC>[${xs.join(', ')}]) x WITH OFFSET o`;

/** GREATEST/LEAST, MIN/MAX/SUM/AVG (DISTINCT too, and as windows), ROUND/TRUNC/CEIL/FLOOR, ORDER BY of BIGNUMERIC. */
export const bignumericOrder: Sql = fc.oneof(
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('GREATEST', 'LEAST'), fc.array(bignumericLit, { minLength: 1, maxLength: 4 })).map(([f, xs]) => `${f}(${xs.join(', ')})`) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('MIN', 'MAX', 'SUM', 'AVG', 'MIN(DISTINCT', 'SUM(DISTINCT', 'AVG(DISTINCT', 'COUNT(DISTINCT'), bnRows).map(([f, xs]) => `(SELECT ${f.includes('(') ? `${f} x)` : `${f}(x)`} FROM ${bnTable(xs)})`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('SUM', 'MIN', 'MAX', 'AVG'), bnRows).map(([f, xs]) => `(SELECT ARRAY_AGG(IFNULL(CAST(w AS STRING), 'null') ORDER BY o) FROM (SELECT o, ${f}(x) OVER (ORDER BY x, o ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS w FROM ${bnTable(xs)}))`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('ASC', 'DESC'), bnRows).map(([d, xs]) => `(SELECT STRING_AGG(IFNULL(CAST(x AS STRING), 'null'), ',' ORDER BY x ${d}, o) FROM ${bnTable(xs)})`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('ASC', 'DESC'), bnRows).map(([d, xs]) => `ARRAY(SELECT o FROM ${bnTable(xs)} ORDER BY x ${d}, o)`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('ROUND', 'TRUNC'), bignumericLit, fc.integer({ min: -42, max: 42 })).map(([f, x, n]) => `${f}(${x}, ${paren(n)})`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('ROUND', 'TRUNC', 'CEIL', 'FLOOR'), bignumericLit).map(([f, x]) => `${f}(${x})`) },
  { weight: 1, arbitrary: fc.tuple(bignumericLit, fc.integer({ min: -3, max: 3 })).map(([x, n]) => `ROUND(${x}, ${paren(n)}, 'ROUND_HALF_EVEN')`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('SAFE.ROUND', 'SAFE.CEIL', 'SAFE.FLOOR'), bignumericLit).map(([f, x]) => `${f}(${x})`) },
);

// ---------------------------------------------------------------- INTERVAL ranges

/** Each INTERVAL part with the largest amount BigQuery's ranges allow. */
const PART_LIMITS: [string, bigint][] = [
  ['YEAR', 10000n], ['QUARTER', 40000n], ['MONTH', 120000n], ['WEEK', 522857n], ['DAY', 3660000n],
  ['HOUR', 87840000n], ['MINUTE', 5270400000n], ['SECOND', 316224000000n],
];
const INT64_EDGES = [9223372036854775807n, -9223372036854775808n];

/** An amount at, just past, or well past a part's limit (either sign), or an INT64 edge. */
const edgeAmount = (limit: bigint): fc.Arbitrary<bigint> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(-1n, 1n), fc.bigInt({ min: -2n, max: 2n })).map(([s, d]) => s * (limit + d)) },
    { weight: 2, arbitrary: fc.bigInt({ min: -limit, max: limit }) },
    { weight: 1, arbitrary: fc.constantFrom(...INT64_EDGES) },
    { weight: 1, arbitrary: fc.bigInt({ min: -limit * 3n, max: limit * 3n }) },
  );
const edgeInterval: Sql = fc.constantFrom(...PART_LIMITS).chain(([part, limit]) => edgeAmount(limit).map((n) => `INTERVAL ${paren(n)} ${part}`));
const smallInterval: Sql = fc.tuple(fc.integer({ min: -3000, max: 3000 }), fc.constantFrom('YEAR', 'MONTH', 'DAY', 'HOUR')).map(([n, p]) => `INTERVAL ${paren(n)} ${p}`);
const anyInterval: Sql = fc.oneof(edgeInterval, smallInterval);

/** Interval texts with parts near the limits (CAST(STRING AS INTERVAL)). */
const intervalText: Sql = fc
  .tuple(fc.bigInt({ min: 9998n, max: 10001n }), fc.integer({ min: 0, max: 11 }), fc.bigInt({ min: 3659998n, max: 3660002n }), fc.bigInt({ min: 87839999n, max: 87840001n }), fc.constantFrom('', '-'), fc.constantFrom(0, 1, 2))
  .map(([y, m, d, h, s, which]) => `'${which === 0 ? `${s}${y}-${m} 0 0:0:0` : which === 1 ? `0-0 ${s}${d} 0:0:0` : `0-0 0 ${s}${h}:0:0`}'`);

/** INTERVAL constructors, MAKE_INTERVAL, arithmetic and JUSTIFY_* at and past the ranges, shown as text. */
export const intervalRanges: Sql = fc.oneof(
  { weight: 3, arbitrary: edgeInterval.map((i) => `CAST(${i} AS STRING)`) },
  { weight: 2, arbitrary: fc.tuple(anyInterval, fc.constantFrom('+', '-'), anyInterval).map(([a, op, b]) => `CAST((${a} ${op} ${b}) AS STRING)`) },
  { weight: 2, arbitrary: fc.tuple(anyInterval, fc.oneof(fc.integer({ min: -4, max: 4 }).map(BigInt), fc.constantFrom(...INT64_EDGES))).map(([i, k]) => `CAST((${i} * ${paren(k)}) AS STRING)`) },
  { weight: 1, arbitrary: anyInterval.map((i) => `CAST((-${i}) AS STRING)`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('year', 'month', 'day', 'hour', 'minute', 'second'), fc.constantFrom(...PART_LIMITS)).chain(([arg, [, limit]]) => edgeAmount(limit).map((n) => `CAST(MAKE_INTERVAL(${arg} => ${paren(n)}) AS STRING)`)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('JUSTIFY_DAYS', 'JUSTIFY_HOURS', 'JUSTIFY_INTERVAL'), fc.bigInt({ min: 9990n, max: 10000n }), fc.bigInt({ min: 3659000n, max: 3660000n }), fc.bigInt({ min: 0n, max: 87840000n })).map(([f, y, d, h]) => `CAST(${f}(MAKE_INTERVAL(year => ${y}, day => ${d}, hour => ${h})) AS STRING)`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('CAST', 'SAFE_CAST'), intervalText).map(([c, s]) => `CAST(${c}(${s} AS INTERVAL) AS STRING)`) },
);

// ---------------------------------------------------------------- DATE, DATETIME, TIMESTAMP at the range ends

/** A date within a month of either end of 0001-01-01 … 9999-12-31. */
const edgeDate: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1, max: 31 }).map((d) => `0001-01-${p2(d)}`),
  fc.tuple(fc.constantFrom(11, 12), fc.integer({ min: 1, max: 30 })).map(([m, d]) => `9999-${p2(m)}-${p2(d)}`),
  fc.constantFrom('2000-02-29', '1970-01-01'),
);
const edgeTime: fc.Arbitrary<string> = fc.oneof(fc.constantFrom('00:00:00', '23:59:59', '23:59:59.999999', '00:00:00.000001', '23:59:59.5', '12:00:00.250'), civilTime);
const civilLit: Sql = fc.oneof(
  edgeDate.map((d) => `DATE '${d}'`),
  fc.tuple(edgeDate, edgeTime).map(([d, t]) => `DATETIME '${d} ${t}'`),
);
const tsLit: Sql = fc.tuple(edgeDate, edgeTime).map(([d, t]) => `TIMESTAMP '${d} ${t}+00'`);
/** Intervals of a few units (or a mixed literal), so that both sides of the range ends are reached. */
const stepInterval = (parts: string[]): Sql =>
  fc.oneof(
    fc.tuple(fc.integer({ min: -40, max: 40 }), fc.constantFrom(...parts)).map(([n, p]) => `INTERVAL ${paren(n)} ${p}`),
    fc.tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -40, max: 40 }), fc.integer({ min: -30, max: 30 })).map(([m, d, h]) => `INTERVAL '${parts.includes('MONTH') ? `0-${Math.abs(m)}` : '0-0'} ${d} ${h}:0:0.5' YEAR TO SECOND`),
  );
const ADD_PARTS = ['YEAR', 'QUARTER', 'MONTH', 'WEEK', 'DAY'];
const TIME_PARTS = ['HOUR', 'MINUTE', 'SECOND', 'MILLISECOND', 'MICROSECOND'];
const addAmount: fc.Arbitrary<bigint> = fc.oneof(fc.bigInt({ min: -40n, max: 40n }), fc.constantFrom(...INT64_EDGES, 3660000n, -3660000n, 2147483648n));

/** DATE/DATETIME/TIMESTAMP ± INTERVAL, DATE ± INT64 and the *_ADD / *_SUB functions at the range ends. */
export const civilOverflow: Sql = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(civilLit, fc.constantFrom('+', '-'), stepInterval(['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND'])).map(([x, op, i]) => `(${x} ${op} ${i})`) },
  { weight: 2, arbitrary: fc.tuple(tsLit, fc.constantFrom('+', '-'), stepInterval(['DAY', 'HOUR', 'MINUTE', 'SECOND'])).map(([x, op, i]) => `(${x} ${op} ${i})`) },
  { weight: 1, arbitrary: fc.tuple(edgeDate, fc.constantFrom('+', '-'), addAmount).map(([d, op, n]) => `(DATE '${d}' ${op} ${paren(n)})`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('DATE_ADD', 'DATE_SUB'), edgeDate, addAmount, fc.constantFrom(...ADD_PARTS)).map(([f, d, n, p]) => `${f}(DATE '${d}', INTERVAL ${paren(n)} ${p})`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('DATETIME_ADD', 'DATETIME_SUB'), edgeDate, edgeTime, addAmount, fc.constantFrom(...ADD_PARTS, ...TIME_PARTS)).map(([f, d, t, n, p]) => `${f}(DATETIME '${d} ${t}', INTERVAL ${paren(n)} ${p})`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('TIMESTAMP_ADD', 'TIMESTAMP_SUB'), tsLit, addAmount, fc.constantFrom('DAY', ...TIME_PARTS)).map(([f, x, n, p]) => `${f}(${x}, INTERVAL ${paren(n)} ${p})`) },
  { weight: 1, arbitrary: tmpl(['SAFE.DATE_ADD(', ', INTERVAL 1 DAY)'], civilLit.filter((x) => x.startsWith('DATE '))) },
);
