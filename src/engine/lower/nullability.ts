/**
 * Which columns of a scan's output can never be NULL, so that ORDER BY keys on them need no NULLS
 * clause of BigQuery's own (docs/ARCHITECTURE.md §4).
 *
 * BigQuery sorts NULLs first on ASC and last on DESC
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/query-syntax#order_by_clause).
 * Written out as `x ASC NULLS FIRST`, that order turns off DuckDB's fast plans: the grouped top-N
 * rewrite of `ROW_NUMBER() OVER (PARTITION BY p ORDER BY x) <= n` (DuckDB's TopNWindowElimination
 * accepts NULLS LAST keys only) and sorts get slower. For a key that cannot be NULL both orders are
 * the same, so the lowering writes NULLS LAST there. What is known not to be NULL, per scan:
 * - REQUIRED columns of a stored table (the catalog's field mode), and columns DuckDB's statistics
 *   show hold no NULL at the time of the query (src/engine/column-stats.ts, bound per statement);
 * - non-NULL literals; COUNT, COUNT(*), ROW_NUMBER, RANK… outputs; arithmetic and a few scalar
 *   functions of non-NULL arguments (they raise errors rather than return NULL);
 * - elements of GENERATE_ARRAY / GENERATE_DATE_ARRAY / GENERATE_TIMESTAMP_ARRAY and UNNEST offsets
 *   (not under an outer UNNEST);
 * - columns a filter or an inner join condition compares (`x IS NOT NULL`, `x = …`, `x < …`: a
 *   TRUE comparison has non-NULL operands), above that filter or join only;
 * - group keys of a GROUP BY without GROUPING SETS / ROLLUP / CUBE that are non-NULL in its input.
 * Anything else is assumed nullable. Facts are per scan (a column id is shared by the scans above
 * the one that defines it), computed once per scan and lowering context.
 */
import type { Node } from '../../analyzer/ast.js';
import type { LowerContext } from './context.js';

const fname = (n: Node): string => String(n.function?.name ?? '').replace(/^[A-Za-z]+:/, '');

/** Scalar functions whose result is non-NULL when every argument is (they raise errors instead). */
const STRICT_SCALARS = new Set([
  '$add', '$subtract', '$multiply', '$unary_minus', 'mod', 'abs', 'sign', 'upper', 'lower', 'concat', 'length',
  '$equal', '$not_equal', '$less', '$less_or_equal', '$greater', '$greater_or_equal', '$not', '$and', '$or',
  'date_add', 'date_sub', 'timestamp_add', 'timestamp_sub', 'date_trunc', 'timestamp_trunc', '$extract',
]);
/** Aggregate and analytic functions that never return NULL. */
const NEVER_NULL_CALLS = new Set(['$count_star', 'count', 'countif', 'row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile']);
/** Array generators whose elements are never NULL (NULL bounds give a NULL array, hence no rows). */
const GENERATORS = new Set(['generate_array', 'generate_date_array', 'generate_timestamp_array']);
/** Comparisons that are TRUE only for non-NULL operands. */
const COMPARISONS = new Set(['$equal', '$not_equal', '$less', '$less_or_equal', '$greater', '$greater_or_equal', '$like', '$between', '$in']);

/** True when expression `e`, over input columns `known`, is never NULL. */
export function exprNeverNull(e: Node | undefined, known: ReadonlySet<string>): boolean {
  if (!e) return false;
  switch (e.kind) {
    case 'Literal':
      // `value.value` is the ValueProto; its `value` names the oneof member set (none for NULL).
      return !!e.value?.value?.value;
    case 'ColumnRef':
      return known.has(String(e.column?.columnId));
    case 'Cast':
      return !e.returnNullOnError && exprNeverNull(e.expr, known);
    case 'FunctionCall':
      return STRICT_SCALARS.has(fname(e)) && (e.argumentList ?? []).every((a: Node) => exprNeverNull(a, known));
    case 'AggregateFunctionCall':
    case 'AnalyticFunctionCall':
      return NEVER_NULL_CALLS.has(fname(e));
    default:
      return false;
  }
}

/** Adds the columns a TRUE condition proves non-NULL (conjuncts that are comparisons or IS NOT NULL). */
function provenByCondition(cond: Node | undefined, out: Set<string>): void {
  if (!cond || cond.kind !== 'FunctionCall') return;
  const name = fname(cond);
  const args: Node[] = cond.argumentList ?? [];
  if (name === '$and') for (const a of args) provenByCondition(a, out);
  else if (name === '$not' && args[0]?.kind === 'FunctionCall' && fname(args[0]) === '$is_null' && args[0].argumentList?.[0]?.kind === 'ColumnRef')
    out.add(String(args[0].argumentList[0].column.columnId));
  else if (COMPARISONS.has(name)) for (const a of args) if (a.kind === 'ColumnRef') out.add(String(a.column.columnId));
}

function addComputed(list: Node[] | undefined, known: Set<string>): void {
  for (const cc of list ?? []) if (exprNeverNull(cc.expr, known)) known.add(String(cc.column.columnId));
}

const cache = new WeakMap<LowerContext, WeakMap<Node, Set<string>>>();

/**
 * The ids of the output columns of scan `n` that are never NULL (see the file comment).
 * @param n a resolved scan node
 * @param ctx the lowering context (its bound tables give the REQUIRED columns)
 */
export function neverNullColumns(n: Node | undefined, ctx: LowerContext): ReadonlySet<string> {
  if (!n) return new Set();
  let memo = cache.get(ctx);
  if (!memo) cache.set(ctx, (memo = new WeakMap()));
  const hit = memo.get(n);
  if (hit) return hit;
  const out = compute(n, ctx);
  memo.set(n, out);
  return out;
}

function compute(n: Node, ctx: LowerContext): Set<string> {
  const input = () => new Set(neverNullColumns(n.inputScan, ctx));
  switch (n.kind) {
    case 'TableScan': {
      const out = new Set<string>();
      const b = ctx.tables.get(String(n.table?.serializationId ?? '0'));
      const idx: string[] = n.columnIndexList ?? [];
      (n.columnList ?? []).forEach((c: Node, i: number) => {
        const col = b?.schema?.[Number(idx[i] ?? i)];
        if (col?.required || (col && b?.nonNull?.has(col.name))) out.add(String(c.columnId));
      });
      return out;
    }
    case 'ProjectScan': {
      const out = input();
      addComputed(n.exprList, out);
      return out;
    }
    case 'FilterScan': {
      const out = input();
      provenByCondition(n.filterExpr, out);
      return out;
    }
    case 'OrderByScan':
    case 'LimitOffsetScan':
      return input();
    case 'AnalyticScan': {
      const out = input();
      for (const g of n.functionGroupList ?? []) addComputed(g.analyticFunctionList, out);
      return out;
    }
    case 'AggregateScan': {
      const inner = input();
      const out = new Set<string>();
      if (!n.groupingSetList?.length && !n.rollupColumnList?.length) for (const k of n.groupByList ?? []) if (exprNeverNull(k.expr, inner)) out.add(String(k.column.columnId));
      addComputed(n.aggregateList, out);
      return out;
    }
    case 'JoinScan': {
      const type = n.joinType ?? 'INNER';
      const l = neverNullColumns(n.leftScan, ctx);
      const r = neverNullColumns(n.rightScan, ctx);
      if (type === 'LEFT') return new Set(l);
      if (type === 'RIGHT') return new Set(r);
      if (type !== 'INNER') return new Set();
      const out = new Set([...l, ...r]);
      provenByCondition(n.joinExpr, out);
      return out;
    }
    case 'ArrayScan': {
      const out = n.inputScan ? input() : new Set<string>();
      if (n.isOuter) return out;
      const arr: Node | undefined = n.arrayExpr;
      if (arr?.kind === 'FunctionCall' && GENERATORS.has(fname(arr)) && n.elementColumn) out.add(String(n.elementColumn.columnId));
      if (n.arrayOffsetColumn?.column) out.add(String(n.arrayOffsetColumn.column.columnId));
      return out;
    }
    default:
      return new Set();
  }
}

/**
 * True when `filter` is a FilterScan keeping the first rows of a ROW_NUMBER window
 * (`rn <= n`, `rn < n`, `rn = n` on a literal, as WHERE or QUALIFY): the shape DuckDB turns into a
 * grouped top-N when the window's ORDER BY key is NULLS LAST. Returns the AnalyticScan, found through
 * ProjectScans that pass the row number through.
 */
export function topNWindowOf(filter: Node): Node | undefined {
  const cond: Node | undefined = filter.filterExpr;
  if (cond?.kind !== 'FunctionCall' || !['$less_or_equal', '$less', '$equal'].includes(fname(cond))) return undefined;
  const [rn, lim]: Node[] = cond.argumentList ?? [];
  if (rn?.kind !== 'ColumnRef' || lim?.kind !== 'Literal') return undefined;
  const id = String(rn.column?.columnId);
  let s: Node | undefined = filter.inputScan;
  while (s?.kind === 'ProjectScan' && !(s.exprList ?? []).some((cc: Node) => String(cc.column?.columnId) === id)) s = s.inputScan;
  if (s?.kind !== 'AnalyticScan') return undefined;
  const groups: Node[] = s.functionGroupList ?? [];
  const fn = groups.length === 1 && groups[0].analyticFunctionList?.length === 1 ? groups[0].analyticFunctionList[0] : undefined;
  return fn && String(fn.column?.columnId) === id && fname(fn.expr) === 'row_number' ? s : undefined;
}
