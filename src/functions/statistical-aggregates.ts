/**
 * The statistical aggregates VAR_POP / VAR_SAMP / VARIANCE, STDDEV_POP / STDDEV_SAMP / STDDEV,
 * CORR and COVAR_POP / COVAR_SAMP
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/statistical_aggregate_functions)
 * at the limits of FLOAT64.
 *
 * DuckDB raises `VARPOP is out of range!` (`STDDEV_POP for X is out of range!` in CORR) when its
 * result or an intermediate is not finite, and its COVAR_* turn an overflowing intermediate into
 * NaN. ZetaSQL, which BigQuery runs, computes in a wider type: `STDDEV_POP` of {1e308, -1e308} is
 * 1e308, `CORR` of huge values is ±1, a result past FLOAT64 is ±inf, and an input holding ±inf or
 * NaN gives NaN (the reference evaluator's answers, checked by the differential suite,
 * test/differential/families-numbers.ts). Too few rows still give NULL.
 *
 * The lowering keeps DuckDB's aggregates but never lets them overflow: when some |x| of a column
 * exceeds 2^500 that column is scaled by 2^-600 (exact: a power of two) and the result scaled
 * back; otherwise its values are clipped at 2^500, which changes none of them. CORR, which is
 * scale-free, also scales a column whose every |x| is below 2^-500 up by 2^600: its products would
 * underflow to 0 (CORR of {3e-308, 1e-200} with itself is 1, not NaN, in the reference evaluator).
 */
import { aggregate, type FnCall } from './registry.js';

const LIMIT = String(2 ** 500);
const TINY = `${String(2 ** -500)}::DOUBLE`;
const DOWN = `${String(2 ** -600)}::DOUBLE`;
const UP = `${String(2 ** 600)}::DOUBLE`;
const NAN = `'NaN'::DOUBLE`;

const dbl = (x: string) => `CAST(${x} AS DOUBLE)`;
/** `x` when finite, else NULL: DuckDB's aggregates raise on ±inf and NaN (the result is NaN then anyway). */
const finite = (x: string) => `(CASE WHEN isfinite(${x}) THEN ${x} END)`;
/** `x` when |x| ≤ 2^500, else 0 (only used where no |x| exceeds 2^500). */
const clip = (x: string) => `(CASE WHEN abs(${x}) > ${LIMIT} THEN 0::DOUBLE ELSE ${x} END)`;

/** VAR_* / STDDEV_*: `duck` is DuckDB's var_pop / var_samp / stddev_pop / stddev_samp. */
export function variance(duck: 'var_pop' | 'var_samp' | 'stddev_pop' | 'stddev_samp') {
  return (c: FnCall): string => {
    const x = dbl(c.args[0]!);
    const agg = (fn: string, arg: string) => aggregate(fn, c, [arg]);
    const fx = finite(x);
    const few = `${agg('count', x)} < ${duck.endsWith('pop') ? 1 : 2}`;
    const nonFinite = agg('bool_or', `NOT isfinite(${x})`);
    const huge = `${agg('max', `abs(${fx})`)} > ${LIMIT}`;
    const back = duck.startsWith('var') ? `${UP} * ${UP}` : UP;
    const scaled = `(${agg(duck, `${fx} * ${DOWN}`)} * ${back})`;
    return `CASE WHEN ${few} THEN NULL WHEN ${nonFinite} THEN ${NAN} WHEN ${huge} THEN ${scaled} ELSE ${agg(duck, clip(fx))} END`;
  };
}

/**
 * CORR / COVAR_POP / COVAR_SAMP over the pairs where both values are non-NULL: NULL below
 * `minPairs` pairs, NaN for a non-finite value; each column scaled on its own (CORR is scale-free,
 * COVAR_* scale back by 2^600 per scaled column).
 */
export function bivariate(duck: 'corr' | 'covar_pop' | 'covar_samp', minPairs: number) {
  return (c: FnCall): string => {
    const [x, y] = [dbl(c.args[0]!), dbl(c.args[1]!)];
    const pair = `${x} IS NOT NULL AND ${y} IS NOT NULL`;
    const agg = (fn: string, args: string[]) => aggregate(fn, c, args);
    const pairs = agg('count', [`CASE WHEN ${pair} THEN 1 END`]);
    const nonFinite = agg('bool_or', [`${pair} AND NOT (isfinite(${x}) AND isfinite(${y}))`]);
    const [fx, fy] = [finite(x), finite(y)];
    const hx = `${agg('max', [`CASE WHEN ${pair} THEN abs(${fx}) END`])} > ${LIMIT}`;
    const hy = `${agg('max', [`CASE WHEN ${pair} THEN abs(${fy}) END`])} > ${LIMIT}`;
    const [sx, sy] = [`${fx} * ${DOWN}`, `${fy} * ${DOWN}`];
    const r = (a: string, b: string, scaled: number) => (duck === 'corr' || scaled === 0 ? agg(duck, [a, b]) : `(${agg(duck, [a, b])}${` * ${UP}`.repeat(scaled)})`);
    if (duck === 'corr') {
      // Each column: scaled down when huge, up when tiny (all |v| in (0, 2^-500)), else as is.
      const tiny = (f: string) => `${agg('max', [`CASE WHEN ${pair} THEN abs(${f}) END`])} < ${TINY} AND ${agg('max', [`CASE WHEN ${pair} THEN abs(${f}) END`])} > 0`;
      // Every branch's aggregate is computed: the scaled-up form is clipped to the tiny values (all of them in its branch).
      const forms = (f: string, huge: string) => [[huge, `${f} * ${DOWN}`], [tiny(f), `(CASE WHEN abs(${f}) < ${TINY} THEN ${f} * ${UP} ELSE 0::DOUBLE END)`], ['', clip(f)]] as const;
      const pick = (branches: readonly (readonly [string, string])[], body: (e: string) => string) =>
        `CASE ${branches.slice(0, -1).map(([w, e]) => `WHEN ${w} THEN ${body(e)}`).join(' ')} ELSE ${body(branches[branches.length - 1]![1])} END`;
      const corr = pick(forms(fx, hx), (ex) => pick(forms(fy, hy), (ey) => agg('corr', [ex, ey])));
      return `CASE WHEN ${pairs} < ${minPairs} THEN NULL WHEN ${nonFinite} THEN ${NAN} ELSE ${corr} END`;
    }
    return `CASE WHEN ${pairs} < ${minPairs} THEN NULL WHEN ${nonFinite} THEN ${NAN} WHEN ${hx} AND ${hy} THEN ${r(sx, sy, 2)} WHEN ${hx} THEN ${r(sx, clip(fy), 1)} WHEN ${hy} THEN ${r(clip(fx), sy, 1)} ELSE ${r(clip(fx), clip(fy), 0)} END`;
  };
}
