/**
 * `GROUP BY ALL`, which this analyzer build (about 2023) parses but rejects ("GROUP BY ALL is not
 * supported"), rewritten on the analyzer's own parse tree into the equivalent explicit GROUP BY
 * (BigQuery query-syntax "Group rows by ALL", in preview since the 2024-02-26 release
 * notes). The rule of the reference: the grouping keys are the SELECT items except
 *
 * - items that include an aggregate function call or a window function call;
 * - items that reference no name from the FROM clause (constants, query parameters);
 * - items that only reference GROUP BY keys inferred from other SELECT items
 *   (`x, y, [x, y]` groups by x and y).
 *
 * The remaining items become ordinals (`GROUP BY 2, 3`); none left is `GROUP BY ()` (one group).
 * A SELECT list with `*` is left alone (the analyzer's error stands): its keys are not items.
 * Aggregate calls are recognised by name ({@link AGGREGATE_FUNCTIONS}, BigQuery's aggregate,
 * statistical and approximate aggregate function lists); a user-defined aggregate is not known
 * and would be taken as a key.
 */
import { normalize, walk, type Node } from './ast.js';

/** BigQuery's aggregate functions (aggregate_functions, statistical_aggregate_functions, approximate_aggregate_functions, hll/kll, geography aggregates). */
export const AGGREGATE_FUNCTIONS: ReadonlySet<string> = new Set([
  'ANY_VALUE', 'ARRAY_AGG', 'ARRAY_CONCAT_AGG', 'AVG', 'BIT_AND', 'BIT_OR', 'BIT_XOR', 'COUNT', 'COUNTIF', 'GROUPING',
  'LOGICAL_AND', 'LOGICAL_OR', 'MAX', 'MAX_BY', 'MIN', 'MIN_BY', 'STRING_AGG', 'SUM', 'AGG',
  'CORR', 'COVAR_POP', 'COVAR_SAMP', 'STDDEV', 'STDDEV_POP', 'STDDEV_SAMP', 'VARIANCE', 'VAR_POP', 'VAR_SAMP',
  'APPROX_COUNT_DISTINCT', 'APPROX_QUANTILES', 'APPROX_TOP_COUNT', 'APPROX_TOP_SUM',
  'HLL_COUNT.INIT', 'HLL_COUNT.MERGE', 'HLL_COUNT.MERGE_PARTIAL',
  'KLL_QUANTILES.INIT_INT64', 'KLL_QUANTILES.INIT_FLOAT64', 'KLL_QUANTILES.MERGE_INT64', 'KLL_QUANTILES.MERGE_FLOAT64',
  'KLL_QUANTILES.MERGE_PARTIAL', 'KLL_QUANTILES.MERGE_POINT_INT64', 'KLL_QUANTILES.MERGE_POINT_FLOAT64',
  'ST_CENTROID_AGG', 'ST_EXTENT', 'ST_UNION_AGG',
]);

interface Range {
  start: number;
  end: number;
}

const STAR_KINDS = new Set(['Star', 'StarWithModifiers', 'DotStar', 'DotStarWithModifiers']);
const SUBQUERY_KINDS = new Set(['ExpressionSubquery', 'Query']);

const functionName = (f: Node): string => ((f.function?.names ?? []) as Node[]).map((n) => String(n.idString ?? '')).join('.').toUpperCase().replace(/^SAFE\./, '');

/** Nodes of an expression, not descending into subqueries (their names are their own). */
function visitExpr(n: Node | undefined, visit: (x: Node) => void, top = true): void {
  if (!n || typeof n !== 'object') return;
  if (!top && SUBQUERY_KINDS.has(n.kind)) return;
  if (typeof n.kind === 'string') visit(n);
  for (const [k, v] of Object.entries(n)) {
    if (k === 'function' || !v || typeof v !== 'object') continue;
    if (Array.isArray(v)) for (const e of v) visitExpr(e as Node, visit, false);
    else visitExpr(v as Node, visit, false);
  }
}

/** Whitespace-insensitive lower-case text of a node. */
const textOf = (buf: Buffer, r: Range): string => buf.subarray(r.start, r.end).toString('utf8').replace(/\s+/g, ' ').trim().toLowerCase();

/** The grouping keys of a SELECT list under GROUP BY ALL, as 1-based ordinals; undefined for `*` lists. */
export function groupByAllOrdinals(columns: Node[], buf: Buffer): number[] | undefined {
  if (columns.some((c) => STAR_KINDS.has(c.expression?.kind))) return undefined;
  const info = columns.map((c) => {
    let aggregate = false;
    const paths: string[] = [];
    visitExpr(c.expression, (x) => {
      if (x.kind === 'AnalyticFunctionCall') aggregate = true;
      if (x.kind === 'FunctionCall' && AGGREGATE_FUNCTIONS.has(functionName(x))) aggregate = true;
      if (x.kind === 'PathExpression' && x.parseLocationRange) paths.push(textOf(buf, x.parseLocationRange));
    });
    const isPath = c.expression?.kind === 'PathExpression';
    return { aggregate, paths, isPath };
  });
  const candidate = info.map((i) => !i.aggregate && i.paths.length > 0);
  const keyPaths = new Set(info.flatMap((i, k) => (candidate[k] && i.isPath ? i.paths : [])));
  const out: number[] = [];
  info.forEach((i, k) => {
    if (!candidate[k]) return;
    if (!i.isPath && i.paths.every((p) => keyPaths.has(p))) return;
    out.push(k + 1);
  });
  return out;
}

/**
 * Rewrites every `GROUP BY ALL` of a statement into explicit ordinals.
 * @param sql one statement's text
 * @param parsed the analyzer's parse tree of `sql` (ParseResponse.parsedStatement, raw)
 * @returns the rewritten text, or undefined when no GROUP BY ALL can be rewritten
 */
export function rewriteGroupByAll(sql: string, parsed: unknown): string | undefined {
  const tree = normalize(parsed);
  const buf = Buffer.from(sql, 'utf8');
  const edits: { range: Range; text: string }[] = [];
  walk(tree, (sel) => {
    if (sel.kind !== 'Select' || !sel.groupBy?.all?.parseLocationRange) return;
    const ords = groupByAllOrdinals(sel.selectList?.columns ?? [], buf);
    if (!ords) return;
    edits.push({ range: sel.groupBy.all.parseLocationRange, text: ords.length ? ords.join(', ') : '()' });
  });
  if (!edits.length) return undefined;
  edits.sort((a, b) => b.range.start - a.range.start);
  let out = buf;
  for (const e of edits) out = Buffer.concat([out.subarray(0, e.range.start), Buffer.from(e.text), out.subarray(e.range.end)]);
  return out.toString('utf8');
}
