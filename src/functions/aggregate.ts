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

/**
 * APPROX_QUANTILES(x, n): the exact 0/n, 1/n, …, n/n quantiles (discrete, BigQuery's ranks), an
 * ARRAY of n + 1 values of x's type. IGNORE NULLS (the default) drops NULL rows; RESPECT NULLS
 * ranks them below every value ([NULL, NULL, 1, 1, 1, 4, …, 10] gives [NULL, 4, 10], with
 * DISTINCT [NULL, 6, 10]): the quantiles are taken of `{nonNull, x}` pairs, which DuckDB orders
 * with false first. NULL for zero rows or when every x is NULL, with either null handling.
 * Source: https://cloud.google.com/bigquery/docs/reference/standard-sql/approximate_aggregate_functions#approx_quantiles
 */
function approxQuantiles(c: FnCall): string {
  const n = checkApproxNumber(c, c.args[1]);
  if (n === undefined || n <= 0n) throw BigQueryError.approxQuantilesNumber();
  // The positions 0/n … n/n built by DuckDB (a constant list), not spelled out in the SQL text.
  const qs = `list_transform(range(0, ${n + 1n}), i -> i / ${n})`;
  const big = c.argTypes[0]?.kind === 'BIGNUMERIC';
  const x = c.args[0];
  const key = big ? bigNumericSortKey(x) : x;
  const value = (k: string) => (big ? bigNumericFromKey(k) : k);
  if (c.nullHandling !== 'RESPECT') {
    const qd = aggregate('quantile_disc', c, [key, qs], `${x} IS NOT NULL`);
    return big ? `list_transform(${qd}, k -> ${value('k')})` : qd;
  }
  const qd = aggregate('quantile_disc', c, [`struct_pack(n := ${x} IS NOT NULL, k := ${key})`, qs]);
  return `CASE WHEN ${aggregate('count', c, [x])} = 0 THEN NULL ELSE list_transform(${qd}, e -> ${value('e.k')}) END`;
}

/** Names of the fields of the STRUCT elements of an ARRAY<STRUCT<…>> return type. */
function elementFields(c: FnCall): string[] {
  const t = c.returnType;
  if (t.kind !== 'ARRAY' || t.element.kind !== 'STRUCT') throw BigQueryError.unexpectedReturnType(c.name, 'ARRAY<STRUCT>');
  const el = t.element;
  return el.fields.map((_f, i) => `"${duckFieldName(el, i).replace(/"/g, '""')}"`);
}

/**
 * APPROX_TOP_COUNT(x, n): exact counts, highest first, an ARRAY<STRUCT<value, count INT64>> of at
 * most n elements. NULL is a value like any other (`[NULL, "pear", "pear", "pear", "apple", NULL]`
 * gives `[{pear, 3}, {NULL, 2}]`): DuckDB's histogram skips it, so its rows are counted apart.
 * NULL for zero rows. Ties are not ordered by the page; here the larger value (NULL largest) comes
 * first. Source: https://cloud.google.com/bigquery/docs/reference/standard-sql/approximate_aggregate_functions#approx_top_count
 */
function approxTopCount(c: FnCall): string {
  const [x, n] = c.args;
  checkApproxNumber(c, n);
  const [fv, fc] = elementFields(c);
  const hist = aggregate('histogram', c, [x]);
  const nulls = aggregate('count', c, ['1'], `${x} IS NULL`);
  const values = `coalesce(list_transform(map_entries(${hist}), e -> struct_pack(c := CAST(e.value AS BIGINT), v := e.key)), [])`;
  const counted = `list_concat(${values}, CASE WHEN ${nulls} > 0 THEN [struct_pack(c := ${nulls}, v := NULL)] ELSE [] END)`;
  const top = `list_transform(list_slice(list_reverse_sort(${counted}), 1, ${n}), s -> struct_pack(${fv} := s.v, ${fc} := s.c))`;
  return `CASE WHEN ${hist} IS NULL AND ${nulls} = 0 THEN NULL ELSE ${top} END`;
}

/**
 * APPROX_TOP_SUM(x, weight, n): exact sums of weight per value, highest first, an
 * ARRAY<STRUCT<value, sum>> of at most n elements. NULL is a value like any other
 * (`[("apple", 0), (NULL, 2)]` gives `[{NULL, 2}, {apple, 0}]`); a NULL weight adds nothing, and a
 * value whose weights are all NULL has sum NULL and ranks after every non-NULL sum
 * (`[("apple", NULL), ("pear", 0), ("pear", NULL)]` gives `[{pear, 0}, {apple, NULL}]`). NULL for
 * zero rows. Ties are not ordered by the page; here the larger value (NULL largest) comes first.
 * Source: https://cloud.google.com/bigquery/docs/reference/standard-sql/approximate_aggregate_functions#approx_top_sum
 */
function approxTopSum(c: FnCall): string {
  const [x, w, n] = c.args;
  checkApproxNumber(c, n);
  const [fv, fs] = elementFields(c);
  const pairs = aggregate('list', c, [`struct_pack(v := ${x}, w := ${w})`]);
  // The distinct values are wrapped in a STRUCT so that list_distinct keeps NULL; list_sum skips
  // NULL weights and is NULL when all are. The aggregate must not sit inside a lambda body: bind
  // it through a one-element list.
  const keys = `list_distinct(list_transform(z.p, e -> struct_pack(k := e.v)))`;
  const sum = `list_sum(list_transform(list_filter(z.p, e -> e.v IS NOT DISTINCT FROM d.k), e -> e.w))`;
  const sums = `list_transform(${keys}, d -> struct_pack(s := ${sum}, v := d.k))`;
  const ranked = `list_transform(${sums}, e -> struct_pack(n := e.s IS NOT NULL, s := e.s, v := e.v))`;
  const top = `list_transform(list_slice(list_reverse_sort(${ranked}), 1, ${n}), e -> struct_pack(${fv} := e.v, ${fs} := e.s))`;
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
