/**
 * Aggregate functions (GoogleSQL "Aggregate functions", "Statistical aggregate functions",
 * "Approximate aggregate functions"), GROUPING, and the rejected
 * D3A_COUNT sketch functions. Every aggregate call is built with `aggregate()` so that
 * DISTINCT/ORDER BY and, for analytic use, the window (`c.over`) are applied to each call even
 * when the lowering wraps it.
 *
 * - SUM(INT64) raises `int64 overflow` (DuckDB widens to HUGEINT);
 * - AVG(NUMERIC) is exact: the scaled sum divided by the count, rounded half away from zero;
 * - ARRAY_AGG / STRING_AGG / ARRAY_CONCAT_AGG honour IGNORE NULLS, ORDER BY and LIMIT;
 * - APPROX_* are computed exactly (COUNT(DISTINCT), exact quantiles, exact top counts);
 * - MIN_BY/MAX_BY ignore rows whose key is NULL;
 * HLL_COUNT.* (the "HyperLogLog++ functions" page) live in hll.ts.
 */
import { bivariate, variance } from './statistical-aggregates.js';
import { BigQueryError } from '../errors/errors.js';
import { duckFieldName } from '../types/duckdb-types.js';
import { aggregate, type FnCall, type FnTable } from './registry.js';
import { fail, intLiteral, q } from './util.js';
import { MAX_APPROX_NUMBER, MAX_RESULT_VALUE_BYTES } from '../config/limits.js';
import { bigNumericSumAvg } from './bignumeric-aggregates.js';
import { bigNumericExtremeAgg, bigNumericFromKey, bigNumericSortKey } from './bignumeric-exact.js';
import { markedF64Tree, recheckMarked } from './operators.js';

/**
 * The constant `number` argument of APPROX_QUANTILES / APPROX_TOP_COUNT / APPROX_TOP_SUM, refused
 * above BigQuery's 100,000 before any work (an unchecked 10^9 built a 10^9-element list).
 */
function checkApproxNumber(c: FnCall, sql: string | undefined): bigint | undefined {
  const n = intLiteral(sql);
  if (n !== undefined && n > BigInt(MAX_APPROX_NUMBER)) throw BigQueryError.approxNumberTooLarge(c.name.toUpperCase(), MAX_APPROX_NUMBER);
  return n;
}

const INT64_MIN = '-9223372036854775808';
const INT64_MAX = '9223372036854775807';

/**
 * SUM or AVG (`duck`) of a FLOAT64 `+ - *` tree checked with a recheck mark (src/functions/operators.ts
 * doubleOverflow): the mark moves from every row to the aggregate's result. A row whose value
 * overflowed to ±inf, or was already ±inf or NaN, makes the sum and the average ±inf or NaN
 * (+ never turns them back into a finite number), so the statement still runs again with the exact
 * per-row checks; a finite result had none. Not for analytic calls (a row outside every frame is
 * still evaluated) or a FILTER (rows it drops are evaluated too). TPC-H q01 at SF 1: 224 → 180 ms,
 * raw DuckDB ~175 ms.
 */
function markedFloatAggregate(c: FnCall, duck: 'sum' | 'avg'): string | undefined {
  if (!c.recheck || c.safe || c.over !== undefined || c.filter || c.returnType.kind !== 'FLOAT64') return undefined;
  const unchecked = markedF64Tree(c.args[0]!);
  return unchecked === undefined ? undefined : `CAST(${recheckMarked(aggregate(duck, c, [unchecked]))} AS DOUBLE)`;
}

function sum(c: FnCall): string {
  if (c.returnType.kind === 'BIGNUMERIC') return bigNumericSumAvg(c, false);
  const marked = markedFloatAggregate(c, 'sum');
  if (marked) return marked;
  const s = aggregate('sum', c);
  if (c.returnType.kind === 'INT64')
    return `CASE WHEN ${s} < ${INT64_MIN} OR ${s} > ${INT64_MAX} THEN ${fail(c, `'int64 overflow'`)} ELSE CAST(${s} AS BIGINT) END`;
  return `CAST(${s} AS ${c.duckType(c.returnType)})`;
}

function avg(c: FnCall): string {
  if (c.returnType.kind === 'BIGNUMERIC') return bigNumericSumAvg(c, true);
  const marked = markedFloatAggregate(c, 'avg');
  if (marked) return marked;
  if (c.returnType.kind !== 'NUMERIC') return `CAST(${aggregate('avg', c)} AS ${c.duckType(c.returnType)})`;
  const x = `CAST(${c.args[0]} AS DECIMAL(38,9))`;
  const s = `CAST(${aggregate('sum', c, [x])} * 1000000000 AS HUGEINT)`;
  const n = aggregate('count', c, [x]);
  const q = `((2 * ${s} + sign(${s}) * ${n}) // (2 * ${n}))`;
  return `CASE WHEN ${n} = 0 THEN NULL ELSE CAST(CAST(${q} AS DECIMAL(38,0)) * CAST(0.000000001 AS DECIMAL(10,9)) AS DECIMAL(38,9)) END`;
}

/** `list(x ORDER BY …)` with IGNORE NULLS as a FILTER and LIMIT as a slice. */
function collect(c: FnCall, x: string, ignoreNulls: boolean): string {
  const l = aggregate('list', c, [x], ignoreNulls ? `${x} IS NOT NULL` : undefined);
  return c.limit !== undefined ? `list_slice(${l}, 1, ${c.limit})` : l;
}

function arrayAgg(c: FnCall): string {
  return collect(c, c.args[0], c.nullHandling === 'IGNORE');
}

function arrayConcatAgg(c: FnCall): string {
  return `flatten(${collect(c, c.args[0], true)})`;
}

function stringAgg(c: FnCall): string {
  const [x, d] = c.args;
  const bytes = c.argTypes[0]?.kind === 'BYTES';
  const delim = d ?? (bytes ? `'\\x2C'::BLOB` : `','`);
  let agg: string;
  if (bytes) agg = `unhex(array_to_string(${collect(c, `hex(${x})`, true)}, hex(${delim})))`;
  else if (c.limit !== undefined) agg = `array_to_string(${collect(c, x, true)}, ${delim})`;
  else agg = aggregate('string_agg', c, [x, delim]);
  // A value past BigQuery's 100 MB row size fails here, before anything (a JS function, the
  // result reader) could decode it (src/config/limits.ts).
  const size = bytes ? `octet_length(${agg})` : `strlen(${agg})`;
  return `CASE WHEN ${size} > ${MAX_RESULT_VALUE_BYTES} THEN ${fail(c, q(BigQueryError.resourcesExceeded().message))} ELSE ${agg} END`;
}

/** APPROX_QUANTILES(x, n): the exact 0/n, 1/n, …, n/n quantiles (discrete, BigQuery's ranks). */
function approxQuantiles(c: FnCall): string {
  const n = checkApproxNumber(c, c.args[1]);
  if (n === undefined || n <= 0n) throw BigQueryError.approxQuantilesNumber();
  // The positions 0/n … n/n built by DuckDB (a constant list), not spelled out in the SQL text.
  const qs = `list_transform(range(0, ${n + 1n}), i -> i / ${n})`;
  const x = c.args[0];
  const filter = c.nullHandling === 'RESPECT' ? undefined : `${x} IS NOT NULL`;
  if (c.argTypes[0]?.kind === 'BIGNUMERIC') return `list_transform(${aggregate('quantile_disc', c, [bigNumericSortKey(x), qs], filter)}, k -> ${bigNumericFromKey('k')})`;
  return aggregate('quantile_disc', { ...c, distinct: c.distinct }, [x, qs], filter);
}

/** Names of the fields of the STRUCT elements of an ARRAY<STRUCT<…>> return type. */
function elementFields(c: FnCall): string[] {
  const t = c.returnType;
  if (t.kind !== 'ARRAY' || t.element.kind !== 'STRUCT') throw BigQueryError.unexpectedReturnType(c.name, 'ARRAY<STRUCT>');
  const el = t.element;
  return el.fields.map((_f, i) => `"${duckFieldName(el, i).replace(/"/g, '""')}"`);
}

/** APPROX_TOP_COUNT(x, n): exact counts, highest first. */
function approxTopCount(c: FnCall): string {
  const [x, n] = c.args;
  checkApproxNumber(c, n);
  const [fv, fc] = elementFields(c);
  const counted = `list_transform(map_entries(${aggregate('histogram', c, [x])}), e -> struct_pack(c := e.value, v := e.key))`;
  return `list_transform(list_slice(list_reverse_sort(${counted}), 1, ${n}), s -> struct_pack(${fv} := s.v, ${fc} := s.c))`;
}

/** APPROX_TOP_SUM(x, weight, n): exact sums of weight per value, highest first. */
function approxTopSum(c: FnCall): string {
  const [x, w, n] = c.args;
  checkApproxNumber(c, n);
  const [fv, fs] = elementFields(c);
  const pairs = aggregate('list', c, [`struct_pack(v := ${x}, w := ${w})`]);
  // The aggregate must not sit inside a lambda body: bind it through a one-element list.
  const sums = `list_transform(list_distinct(list_transform(z.p, e -> e.v)), k -> struct_pack(s := list_sum(list_transform(list_filter(z.p, e -> e.v = k), e -> e.w)), v := k))`;
  const top = `list_transform(list_slice(list_reverse_sort(${sums}), 1, ${n}), e -> struct_pack(${fv} := e.v, ${fs} := e.s))`;
  return `list_extract(list_transform([struct_pack(p := ${pairs})], z -> ${top}), 1)`;
}

const simple = (duck: string) => (c: FnCall) => aggregate(duck, c);
/** MIN_BY / MAX_BY: a BIGNUMERIC key compared by value (its order-preserving key, bignumeric-exact.ts). */
const byKey = (duck: string) => (c: FnCall) => (c.argTypes[1]?.kind === 'BIGNUMERIC' ? aggregate(duck, c, [c.args[0], bigNumericSortKey(c.args[1])]) : aggregate(duck, c));
const typed = (duck: string) => (c: FnCall) => `CAST(${aggregate(duck, c)} AS ${c.duckType(c.returnType)})`;

/** MIN: NaN when a FLOAT64 input is NaN (BigQuery docs, MIN); DuckDB's MIN skips NaN. */
function min(c: FnCall): string {
  if (c.argTypes[0]?.kind === 'BIGNUMERIC') return bigNumericExtremeAgg(c.args[0], (k) => aggregate('min', c, [k]));
  if (c.argTypes[0]?.kind !== 'FLOAT64' || c.nanFree?.[0]) return aggregate('min', c);
  return `CASE WHEN ${aggregate('bool_or', c, [`isnan(${c.args[0]})`])} THEN 'NaN'::DOUBLE ELSE ${aggregate('min', c)} END`;
}


/**
 * D3A_COUNT.* build and read BigQuery's D3A count sketches, a sketch format and estimator BigQuery
 * does not publish: sketches made here could neither be read by BigQuery nor give its estimates.
 */
const D3A = { unsupported: "D3A_COUNT sketches use a format and estimator BigQuery does not publish, so the emulator cannot build or read them compatibly" };

/** The aggregate, approximate aggregate and statistical aggregate functions pages. */
export const AGGREGATE_FUNCTIONS: FnTable = {
  sum,
  avg,
  array_agg: arrayAgg,
  array_concat_agg: arrayConcatAgg,
  string_agg: stringAgg,
  countif: (c) => aggregate('count', c, [`CASE WHEN ${c.args[0]} THEN 1 END`]),
  logical_and: simple('bool_and'),
  logical_or: simple('bool_or'),
  bit_and: simple('bit_and'),
  bit_or: simple('bit_or'),
  bit_xor: simple('bit_xor'),
  any_value: simple('any_value'),
  min_by: byKey('arg_min'),
  max_by: byKey('arg_max'),
  approx_count_distinct: (c) => aggregate('count', { ...c, distinct: true }),
  approx_quantiles: approxQuantiles,
  approx_top_count: approxTopCount,
  approx_top_sum: approxTopSum,
  stddev: variance('stddev_samp'),
  stddev_samp: variance('stddev_samp'),
  stddev_pop: variance('stddev_pop'),
  variance: variance('var_samp'),
  var_samp: variance('var_samp'),
  var_pop: variance('var_pop'),
  corr: bivariate('corr', 2),
  covar_pop: bivariate('covar_pop', 1),
  covar_samp: bivariate('covar_samp', 2),
  $count_star: () => 'count(*)',
  count: (c) => aggregate('count', c),
  min,
  max: (c) => (c.argTypes[0]?.kind === 'BIGNUMERIC' ? bigNumericExtremeAgg(c.args[0], (k) => aggregate('max', c, [k])) : aggregate('max', c)),
  grouping: (c) => aggregate('grouping', c),
  'd3a_count.init': D3A,
  'd3a_count.merge': D3A,
  'd3a_count.merge_partial': D3A,
  'd3a_count.extract': D3A,
  'd3a_count.to_hll': D3A,
};
