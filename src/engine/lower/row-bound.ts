/**
 * The most rows a query can return, read from its resolved scan, when the resolved AST alone says
 * so: a SELECT without FROM (SingleRowScan) is one row, an aggregation without GROUP BY is one row
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/query-syntax#group_by_clause: without
 * it, "the aggregate function is applied to all rows, producing a single output row"), `LIMIT n`
 * with a literal `n` is at most n, and projections, filters, ordering and window functions never
 * add rows. Anything else (joins, set operations, UNNEST, tables) has no bound here.
 */
import type { Node } from '../../analyzer/ast.js';

/** Scans whose output has at most as many rows as their input. */
const SAME_OR_FEWER = new Set(['ProjectScan', 'FilterScan', 'OrderByScan', 'AnalyticScan']);

/**
 * The most rows `scan` can produce, or undefined when unknown.
 * @param scan a resolved query scan (ResolvedStatement.query of a QueryStmt)
 */
export function rowsAtMost(scan: Node | undefined): number | undefined {
  for (let n = scan; n; n = n.inputScan) {
    if (n.kind === 'SingleRowScan') return 1;
    if (n.kind === 'AggregateScan') return !n.groupByList?.length && !n.groupingSetList?.length && !n.rollupColumnList?.length ? 1 : undefined;
    if (n.kind === 'LimitOffsetScan') {
      const limit = literalInt(n.limit);
      if (limit !== undefined) return Math.min(limit, rowsAtMost(n.inputScan) ?? limit);
      continue;
    }
    if (!SAME_OR_FEWER.has(String(n.kind))) return undefined;
  }
  return undefined;
}

/** A non-negative INT64 literal's value as a number, or undefined. */
function literalInt(n: Node | undefined): number | undefined {
  if (n?.kind !== 'Literal') return undefined;
  const v = n.value?.value?.int64Value;
  const x = Number(v);
  return v !== undefined && Number.isSafeInteger(x) && x >= 0 ? x : undefined;
}
