/**
 * Lowers resolved-AST scans to DuckDB `SELECT`s (docs/ARCHITECTURE.md §1). Each scan's output columns are
 * named `c<columnId>`; ORDER BY and LIMIT stay in the same SELECT so the order survives; UNNEST
 * becomes a lateral join with ordinality; WITH scans become CTEs with positional column names.
 */
import { icuLocale, sortKey } from '../../functions/collation.js';
import {
  walk,
  type Node,
  type ResolvedAggregateScan,
  type ResolvedAggregationThresholdAggregateScan,
  type ResolvedAnalyticScan,
  type ResolvedArrayScan,
  type ResolvedComputedColumn,
  type ResolvedFilterScan,
  type ResolvedJoinScan,
  type ResolvedLimitOffsetScan,
  type ResolvedNodeOf,
  type ResolvedOrderByScan,
  type ResolvedProjectScan,
  type ResolvedRecursiveRefScan,
  type ResolvedRecursiveScan,
  type ResolvedSampleScan,
  type ResolvedScanKind,
  type ResolvedSetOperationItem,
  type ResolvedSetOperationScan,
  type ResolvedWithRefScan,
  type ResolvedWithScan,
  type Unkinded,
} from '../../analyzer/ast.js';
import { BigQueryError } from '../../errors/errors.js';
import { MAX_RECURSIVE_CTE_ITERATIONS } from '../../config/limits.js';
import { colName, ident, selectList, type LowerContext } from './context.js';
import { lowerExpr, lowerOrderBy, lowerWindowCall } from './exprs.js';
import { topNWindowOf } from './nullability.js';
import { tableReference, tableScan } from './table-scans.js';

/** How each scan kind lowers; `null` marks a kind that is not lowered (lowerScan refuses it). */
type ScanLowerings = { [K in ResolvedScanKind]: ((n: ResolvedNodeOf<K>, ctx: LowerContext) => string) | null };

const cols = (n: Node): { columnId: string }[] => n.columnList ?? [];

function computed(list: readonly Unkinded<ResolvedComputedColumn>[] | undefined, ctx: LowerContext): string[] {
  return (list ?? []).map((cc) => `${lowerExpr(cc.expr!, ctx)} AS ${colName(cc.column!)}`);
}

function from(n: Node, ctx: LowerContext, a = ctx.alias()): string {
  return `(${lowerScan(n, ctx)}) AS ${a}`;
}

function projectScan(n: ResolvedProjectScan, ctx: LowerContext): string {
  const exprs = new Map<string, string>();
  for (const cc of n.exprList ?? []) exprs.set(String(cc.column!.columnId), `${lowerExpr(cc.expr!, ctx)} AS ${colName(cc.column!)}`);
  const items = cols(n).map((c) => exprs.get(String(c.columnId)) ?? colName(c));
  const input = n.inputScan;
  // Keep an ORDER BY of the input in the same SELECT so the order survives the projection.
  // (`limit` is not a field of ResolvedOrderByScan in resolved_ast.proto: `!limit` always holds.)
  if (input?.kind === 'OrderByScan' && !(input as Node).limit) {
    return `SELECT ${items.length ? items.join(', ') : 'NULL AS "__none"'} FROM ${from(input.inputScan!, ctx)} ORDER BY ${lowerOrderBy(input.orderByItemList!, ctx, input.inputScan)}`;
  }
  return `SELECT ${items.length ? items.join(', ') : 'NULL AS "__none"'} FROM ${from(input!, ctx)}`;
}

function filterScan(n: ResolvedFilterScan, ctx: LowerContext): string {
  const window = topNWindowOf(n);
  if (window) (ctx.topNWindows ??= new Set()).add(window);
  const conditions = (ctx.conditions ??= new Set());
  for (const c of conjuncts(n.filterExpr!)) conditions.add(c);
  const input = n.inputScan!;
  // WHERE over a join goes in the join's own SELECT (column names are unique): DuckDB places an
  // IN/EXISTS subquery's semi join where the WHERE is, and above a projection it stayed on top of
  // the whole join tree (TPC-H q18: the 600,000-row join first; flat, orders filtered first).
  const source = input.kind === 'JoinScan' ? joinClause(input as ResolvedJoinScan, ctx) : (tableReference(input, ctx) ?? from(input, ctx));
  return `SELECT ${selectList(cols(n))} FROM ${source} WHERE ${lowerExpr(n.filterExpr!, ctx)}`;
}

/** The whole conjuncts of a condition: the arguments of its (nested) `$and`, else itself. */
function conjuncts(e: Node): Node[] {
  if (e.kind === 'FunctionCall' && String(e.function?.name ?? '').replace(/^[A-Za-z]+:/, '') === '$and') return (e.argumentList ?? []).flatMap(conjuncts);
  return [e];
}

function orderByScan(n: ResolvedOrderByScan, ctx: LowerContext): string {
  return `SELECT ${selectList(cols(n))} FROM ${from(n.inputScan!, ctx)} ORDER BY ${lowerOrderBy(n.orderByItemList!, ctx, n.inputScan)}`;
}

function limitOffsetScan(n: ResolvedLimitOffsetScan, ctx: LowerContext): string {
  const lim = n.limit ? ` LIMIT ${lowerExpr(n.limit, ctx)}` : '';
  const off = n.offset ? ` OFFSET ${lowerExpr(n.offset, ctx)}` : '';
  const input = n.inputScan!;
  if (input.kind === 'OrderByScan')
    return `SELECT ${selectList(cols(n))} FROM ${from(input.inputScan!, ctx)} ORDER BY ${lowerOrderBy(input.orderByItemList!, ctx, input.inputScan)}${lim}${off}`;
  if (input.kind === 'ProjectScan' && input.inputScan?.kind === 'OrderByScan')
    return `SELECT ${selectList(cols(n))} FROM (${projectScan(input, ctx)})${lim}${off}`;
  return `SELECT ${selectList(cols(n))} FROM ${from(input, ctx)}${lim}${off}`;
}

/**
 * TABLESAMPLE (https://cloud.google.com/bigquery/docs/reference/standard-sql/query-syntax#tablesample_operator):
 * a random sample of the input's rows, `n PERCENT` or `n ROWS`. BigQuery samples storage blocks, so
 * which rows come back is not specified; DuckDB's row-level BERNOULLI sampling keeps the same
 * contract (0 PERCENT is no row, 100 PERCENT every row), seeded by REPEATABLE(seed) when given.
 */
function sampleScan(n: ResolvedSampleScan, ctx: LowerContext): string {
  // DuckDB takes only number literals there; the analyzer's are typed casts (`CAST(10 AS BIGINT)`).
  const num = (e: string) => {
    const m = /^(?:CAST\()?\(?(-?[0-9.]+(?:[eE][+-]?[0-9]+)?)\)?(?: AS \w+\))?$/.exec(e.trim());
    if (!m) throw BigQueryError.notSupported('TABLESAMPLE with a size or seed that is not a literal');
    return m[1];
  };
  const size = num(lowerExpr(n.size!, ctx));
  const seed = n.repeatableArgument ? `, ${num(lowerExpr(n.repeatableArgument, ctx))}` : '';
  const spec = String(n.unit ?? 'PERCENT') === 'ROWS' ? `${size} ROWS (reservoir${seed})` : `${size} PERCENT (bernoulli${seed})`;
  return `SELECT ${selectList(cols(n))} FROM ${from(n.inputScan!, ctx)} USING SAMPLE ${spec}`;
}

function singleRowScan(): string {
  return 'SELECT NULL AS "__none"';
}

const JOIN: Record<string, string> = { INNER: 'JOIN', LEFT: 'LEFT JOIN', RIGHT: 'RIGHT JOIN', FULL: 'FULL JOIN' };

function joinScan(n: ResolvedJoinScan, ctx: LowerContext): string {
  return `SELECT ${selectList(cols(n))} FROM ${joinClause(n, ctx)}`;
}

/**
 * The FROM clause of a join, its left-deep chain of joins flattened into one clause
 * (`a CROSS JOIN b JOIN c ON …`; joins associate to the left, so this is the same nesting). Each
 * join wrapped in its own projection subquery hid the chain from DuckDB's join-order optimizer:
 * the 8-table comma join of TPC-H q08 kept its written order (a cross product of part and
 * supplier first) and ran 6× slower than the same query written flat. Column names are unique
 * (`c<columnId>`), so no projection is needed between the joins.
 */
function joinClause(n: ResolvedJoinScan, ctx: LowerContext): string {
  const left = n.leftScan!;
  const l = left.kind === 'JoinScan' ? joinClause(left as ResolvedJoinScan, ctx) : (tableReference(left, ctx) ?? from(left, ctx));
  const r = tableReference(n.rightScan!, ctx) ?? from(n.rightScan!, ctx);
  const type = n.joinType ?? 'INNER';
  // ON conjuncts, like WHERE ones, treat FALSE and NULL alike (no match): see filterScan.
  if (n.joinExpr) for (const c of conjuncts(n.joinExpr)) (ctx.conditions ??= new Set()).add(c);
  const cond = n.joinExpr ? lowerExpr(n.joinExpr, ctx) : null;
  if (!cond && type === 'INNER') return `${l} CROSS JOIN ${r}`;
  return `${l} ${JOIN[type]} ${r} ON ${cond ?? 'TRUE'}`;
}

function arrayScan(n: ResolvedArrayScan, ctx: LowerContext): string {
  // `arrayExprList` / `elementColumnList` (multi-array UNNEST) are not in the resolved_ast.proto
  // of the analyzer in use (src/analyzer/generated/resolved-ast.ts); read loosely in case it sends them.
  const loose = n as Node;
  const arrays: Node[] = loose.arrayExprList ?? (n.arrayExpr ? [n.arrayExpr] : []);
  const elems: { columnId?: string }[] = loose.elementColumnList ?? (n.elementColumn ? [n.elementColumn] : []);
  if (arrays.length !== 1) throw BigQueryError.notSupported('UNNEST of several arrays');
  const u = ctx.alias('u');
  const arr = lowerExpr(arrays[0], ctx);
  const off = n.arrayOffsetColumn?.column;
  const unnest =
    `(SELECT ${u}_t.${ident('e')} AS ${colName(elems[0])}` +
    (off ? `, ${u}_t.${ident('o')} - 1 AS ${colName(off)}` : '') +
    ` FROM unnest(${arr}) WITH ORDINALITY AS ${u}_t(${ident('e')}, ${ident('o')}))`;
  const offOrder = off ? ` ORDER BY ${colName(off)}` : '';
  if (!n.inputScan) return `SELECT ${selectList(cols(n))} FROM ${unnest} AS ${u}${offOrder}`;
  const input = from(n.inputScan, ctx);
  const cond = n.joinExpr ? lowerExpr(n.joinExpr, ctx) : 'TRUE';
  return `SELECT ${selectList(cols(n))} FROM ${input} ${n.isOuter ? 'LEFT JOIN' : 'JOIN'} LATERAL ${unnest} AS ${u} ON ${cond}`;
}

function aggregateScan(n: ResolvedAggregateScan | ResolvedAggregationThresholdAggregateScan, ctx: LowerContext): string {
  const keys = n.groupByList ?? [];
  const aggs = n.aggregateList ?? [];
  const a = ctx.alias();
  // Group keys are computed first in an inner projection; the aggregate groups by their names.
  let inner = keys.length
    ? `(SELECT *, ${computed(keys, ctx).join(', ')} FROM ${from(n.inputScan!, ctx)}) AS ${a}`
    : from(n.inputScan!, ctx, a);
  inner = havingModifiers(n, inner, ctx);
  // Group keys under a collation (collationList[i] belongs to groupByList[i]) group by ICU sort key;
  // the key's output value is the group's smallest value in code-point order (BigQuery documents
  // that GROUP BY and DISTINCT honour collation, not which of the equal values is returned).
  const locales = keys.map((_k, i) => {
    const name = (n.collationList as Node[] | undefined)?.[i]?.collationName;
    return name ? icuLocale(String(name)) : undefined;
  });
  const collated = locales.some((l) => l !== undefined);
  if (collated && (n.groupingSetList?.length || n.rollupColumnList?.length)) throw BigQueryError.notSupported('GROUPING SETS, ROLLUP or CUBE over collated strings');
  const keyItem = (k: Unkinded<ResolvedComputedColumn>, i: number) => (locales[i] ? `min(${colName(k.column!)}) AS ${colName(k.column!)}` : colName(k.column!));
  const groupKey = (k: Unkinded<ResolvedComputedColumn>, i: number) => (locales[i] ? sortKey(colName(k.column!), locales[i]!) : colName(k.column!));
  const outer = ctx.aggregateInput;
  ctx.aggregateInput = n.inputScan;
  const items = [...keys.map(keyItem), ...computed(aggs, ctx)];
  ctx.aggregateInput = outer;
  for (const g of n.groupingCallList ?? []) items.push(`GROUPING(${colName(g.groupByColumn!.column!)}) AS ${colName(g.outputColumn!)}`);
  let group = '';
  const sets: Node[] = n.groupingSetList ?? [];
  if (sets.length) group = ` GROUP BY GROUPING SETS (${sets.map(groupingSet).join(', ')})`;
  else if (n.rollupColumnList?.length) group = ` GROUP BY ROLLUP (${n.rollupColumnList.map((r: Node) => colName(r.column)).join(', ')})`;
  else if (keys.length) group = ` GROUP BY ${keys.map(groupKey).join(', ')}`;
  return `SELECT ${items.length ? items.join(', ') : 'NULL AS "__none"'} FROM ${inner}${group}`;
}

/**
 * `SELECT WITH AGGREGATION_THRESHOLD OPTIONS(threshold = n, privacy_unit_column = c)`
 * (query-syntax "AGGREGATION_THRESHOLD clause"): the aggregation, keeping only the groups in which
 * at least `threshold` (default 50) distinct privacy units take part.
 */
function aggregationThresholdScan(n: ResolvedAggregationThresholdAggregateScan, ctx: LowerContext): string {
  const opt = (name: string) => ((n.optionList ?? []) as Node[]).find((o) => String(o.name).toLowerCase() === name)?.value;
  const unit = opt('privacy_unit_column');
  if (!unit) throw BigQueryError.notSupported('AGGREGATION_THRESHOLD without privacy_unit_column');
  const known = new Set(['threshold', 'privacy_unit_column']);
  for (const o of (n.optionList ?? []) as Node[]) if (!known.has(String(o.name).toLowerCase())) throw BigQueryError.notSupported(`AGGREGATION_THRESHOLD option ${o.name}`);
  const threshold = opt('threshold') ? lowerExpr(opt('threshold'), ctx) : '50';
  return `${aggregateScan(n, ctx)} HAVING count(DISTINCT ${lowerExpr(unit, ctx)}) >= ${threshold}`;
}

/**
 * `agg(x HAVING MAX|MIN y)` (aggregate-function-calls "HAVING MAX and HAVING MIN clause"): the
 * aggregate runs over the group's rows whose y equals the group's maximum (minimum) y; rows with a
 * NULL y never qualify. Each modifier adds y and its per-group extreme (a window over the group
 * keys) to the aggregate's input and a FILTER condition for the call (`ctx.havingFilters`).
 * @returns the aggregate's input, wrapped when some call has a modifier
 */
function havingModifiers(n: ResolvedAggregateScan | ResolvedAggregationThresholdAggregateScan, inner: string, ctx: LowerContext): string {
  const calls = ((n.aggregateList ?? []) as Node[]).map((cc) => cc.expr).filter((e: Node) => e?.kind === 'AggregateFunctionCall' && e.havingModifier);
  if (!calls.length) return inner;
  if (n.groupingSetList?.length || n.rollupColumnList?.length) throw BigQueryError.notSupported('HAVING MAX/MIN modifiers with GROUPING SETS, ROLLUP or CUBE');
  const keys = ((n.groupByList ?? []) as Node[]).map((k) => colName(k.column));
  const over = keys.length ? `PARTITION BY ${keys.join(', ')}` : '';
  ctx.havingFilters ??= new Map();
  const items = calls.map((call: Node) => {
    const h = ctx.alias('hv');
    const y = lowerExpr(call.havingModifier.havingExpr, ctx);
    const extreme = (call.havingModifier.kind_ ?? call.havingModifier.kind) === 'MIN' ? 'min' : 'max';
    ctx.havingFilters!.set(call, `${h} = ${h}_x`);
    return `${y} AS ${h}, ${extreme}(${y}) OVER (${over}) AS ${h}_x`;
  });
  return `(SELECT *, ${items.join(', ')} FROM ${inner}) AS ${ctx.alias()}`;
}

/** One element of ZetaSQL's grouping set list: a plain set, ROLLUP or CUBE (of multi-column items). */
function groupingSet(s: Node): string {
  const multi = (m: Node) => `(${(m.columnList ?? []).map((r: Node) => colName(r.column)).join(', ')})`;
  if (s.kind === 'Rollup') return `ROLLUP (${(s.rollupColumnList ?? []).map(multi).join(', ')})`;
  if (s.kind === 'Cube') return `CUBE (${(s.cubeColumnList ?? []).map(multi).join(', ')})`;
  return `(${(s.groupByColumnList ?? []).map((r: Node) => colName(r.column)).join(', ')})`;
}

function analyticScan(n: ResolvedAnalyticScan, ctx: LowerContext): string {
  const items: string[] = [];
  for (const g of n.functionGroupList ?? []) {
    const parts: string[] = [];
    const pb: Node[] = g.partitionBy?.partitionByList ?? [];
    // PARTITION BY under a collation partitions by ICU sort key (collationList[i] belongs to item i).
    const part = (r: Node, i: number) => {
      const name = (g.partitionBy?.collationList as Node[] | undefined)?.[i]?.collationName;
      const locale = name ? icuLocale(String(name)) : undefined;
      return locale ? sortKey(colName(r.column), locale) : colName(r.column);
    };
    if (pb.length) parts.push(`PARTITION BY ${pb.map(part).join(', ')}`);
    if (g.orderBy?.orderByItemList?.length) parts.push(`ORDER BY ${lowerOrderBy(g.orderBy.orderByItemList, ctx, n.inputScan, !!ctx.topNWindows?.has(n))}`);
    for (const cc of g.analyticFunctionList ?? []) items.push(`${lowerWindowCall(cc.expr!, ctx, parts, g.orderBy?.orderByItemList)} AS ${colName(cc.column!)}`);
  }
  const input = n.inputScan!;
  const inputCols = new Set((input.columnList ?? []).map((c) => String(c.columnId)));
  const pass = cols(n).filter((c) => inputCols.has(String(c.columnId))).map(colName);
  return `SELECT ${[...pass, ...items].join(', ')} FROM ${from(input, ctx)}`;
}

const SETOP: Record<string, string> = {
  UNION_ALL: 'UNION ALL', UNION_DISTINCT: 'UNION', INTERSECT_ALL: 'INTERSECT ALL',
  INTERSECT_DISTINCT: 'INTERSECT', EXCEPT_ALL: 'EXCEPT ALL', EXCEPT_DISTINCT: 'EXCEPT',
};

function setOperationScan(n: ResolvedSetOperationScan, ctx: LowerContext): string {
  const out = cols(n);
  const branches = (n.inputItemList as Node[]).map((item) => {
    const oc: Node[] = item.outputColumnList ?? [];
    const list = oc.map((c, i) => `${colName(c)} AS ${colName(out[i])}`).join(', ');
    return `SELECT ${list} FROM ${from(item.scan, ctx)}`;
  });
  const op = SETOP[n.opType ?? 'UNION_ALL'];
  if (!op) throw BigQueryError.notSupported(`Set operation ${n.opType}`);
  if (op === 'UNION ALL' && !(n.inputItemList as Node[]).some((item) => readsTable(item.scan))) {
    // Inline data (no table read): rows come out branch by branch, each in its own order, as the
    // examples of the reference show (`ARRAY(SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3)` is
    // `[1, 2, 3]`); DuckDB may otherwise interleave branches run in parallel.
    const tagged = branches.map((b, i) => `(SELECT *, ${i} AS "__b", row_number() OVER () AS "__r" FROM (${b}))`);
    return `SELECT ${selectList(out)} FROM (${tagged.join(' UNION ALL ')}) ORDER BY "__b", "__r"`;
  }
  return branches.map((b) => `(${b})`).join(` ${op} `);
}

/** True when a scan (or any scan under it) reads a stored table. */
function readsTable(n: Node): boolean {
  let found = false;
  walk(n, (x) => {
    // (A TVF scan's kind is 'Tvfscan'; the lowering refuses it before this check is reached.)
    if (x.kind === 'TableScan' || x.kind === ('Tvfscan' satisfies ResolvedScanKind)) found = true;
  });
  return found;
}

function withScan(n: ResolvedWithScan, ctx: LowerContext): string {
  const ctes = (n.withEntryList as Node[]).map((e) => {
    const q: Node = e.withSubquery;
    const names = (q.columnList ?? []).map((_: unknown, i: number) => `w${i}`);
    if (q.kind === 'RecursiveScan') (ctx as LowerContext & { recursiveName?: string }).recursiveName = e.withQueryName;
    if (countsIterations(q)) names.push(ITERATION);
    const body = q.kind === 'RecursiveScan' ? lowerScan(q, ctx) : `SELECT * FROM (${lowerScan(q, ctx)})`;
    return `${ident(e.withQueryName)}(${names.join(', ') || 'w0'}) AS (${body})`;
  });
  return `WITH ${n.recursive ? 'RECURSIVE ' : ''}${ctes.join(', ')} SELECT ${selectList(cols(n))} FROM (${lowerScan(n.query!, ctx)})`;
}

function withRefScan(n: ResolvedWithRefScan | ResolvedRecursiveRefScan, ctx: LowerContext): string {
  const items = cols(n).map((c, i) => `w${i} AS ${colName(c)}`);
  const name = (n.kind === 'WithRefScan' ? n.withQueryName : undefined) ?? (ctx as LowerContext & { recursiveName?: string }).recursiveName;
  return `SELECT ${items.join(', ') || 'NULL AS "__none"'} FROM ${ident(name!)}`;
}

/** The hidden iteration-number column of a recursive CTE (see recursiveScan). */
const ITERATION = '"__bq_iteration"';

/**
 * UNION ALL recursions carry an iteration number; UNION DISTINCT ones cannot (the number would make
 * every row distinct) and end when an iteration adds no new row.
 */
const countsIterations = (q: Node) => q.kind === 'RecursiveScan' && q.opType !== 'UNION_DISTINCT';

/**
 * A recursive CTE's two terms. Under UNION ALL each row carries the iteration that produced it
 * (the base term 0); an iteration past BigQuery's 500 that still produces rows raises BigQuery's
 * error instead of recursing until memory runs out (https://cloud.google.com/bigquery/docs/recursive-ctes).
 * DuckDB reads the previous iteration's rows wherever the recursive term names the CTE, so
 * `max(iteration)` over it is the previous iteration's number.
 */
function recursiveScan(n: ResolvedRecursiveScan, ctx: LowerContext): string {
  const out = cols(n);
  const counted = countsIterations(n);
  const prev = `(SELECT max(${ITERATION}) FROM ${ident((ctx as LowerContext & { recursiveName?: string }).recursiveName ?? '')})`;
  const tooMany = `error('${BigQueryError.recursionLimit(MAX_RECURSIVE_CTE_ITERATIONS).message.replace(/'/g, "''")}')`;
  const branch = (item: Unkinded<ResolvedSetOperationItem>, iteration: string) => {
    const oc = item.outputColumnList ?? [];
    const items = oc.map((c, i) => `${colName(c)} AS ${colName(out[i])}`);
    if (counted) items.push(`${iteration} AS ${ITERATION}`);
    return `SELECT ${items.join(', ')} FROM ${from(item.scan!, ctx)}`;
  };
  const op = n.opType === 'UNION_DISTINCT' ? 'UNION' : 'UNION ALL';
  const next = `CASE WHEN ${prev} >= ${MAX_RECURSIVE_CTE_ITERATIONS} THEN ${tooMany} ELSE ${prev} + 1 END`;
  return `${branch(n.nonRecursiveTerm!, '0')} ${op} ${branch(n.recursiveTerm!, next)}`;
}

/**
 * Every scan kind of the analyzer's resolved_ast.proto (src/analyzer/generated/resolved-ast.ts), so
 * that a kind added there fails typechecking here until it is lowered or listed as not lowered.
 */
const SCANS: ScanLowerings = {
  TableScan: tableScan,
  ProjectScan: projectScan,
  FilterScan: filterScan,
  OrderByScan: orderByScan,
  LimitOffsetScan: limitOffsetScan,
  SingleRowScan: singleRowScan,
  JoinScan: joinScan,
  ArrayScan: arrayScan,
  AggregateScan: aggregateScan,
  AggregationThresholdAggregateScan: aggregationThresholdScan,
  AnalyticScan: analyticScan,
  SetOperationScan: setOperationScan,
  WithScan: withScan,
  WithRefScan: withRefScan,
  RecursiveScan: recursiveScan,
  RecursiveRefScan: withRefScan,
  SampleScan: sampleScan,
  // Not lowered: refused with "Query construct <kind>" (BigQueryError.notSupported).
  AnonymizedAggregateScan: null,
  DifferentialPrivacyAggregateScan: null,
  ExecuteAsRoleScan: null,
  GroupRowsScan: null,
  PivotScan: null,
  RelationArgumentScan: null,
  Tvfscan: null,
  UnpivotScan: null,
};

/** Lowers a scan to a DuckDB SELECT whose columns are `c<id>` for each of its column list. */
export function lowerScan(n: Node, ctx: LowerContext): string {
  const f = SCANS[n.kind as ResolvedScanKind] as ((n: Node, ctx: LowerContext) => string) | null | undefined;
  if (!f) throw BigQueryError.notSupported(`Query construct ${n.kind}`);
  return f(n, ctx);
}
