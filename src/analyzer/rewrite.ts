/**
 * Documented source rewrites for what this analyzer build (about 2023) rejects but BigQuery
 * accepts. Rewrites work on the analyzer's own parse tree (byte ranges
 * of AST nodes), never on a hand-written parser.
 *
 * 1. GROUP BY an expression that also stands in the SELECT list, in a query with ORDER BY or
 *    HAVING: this build then reports `SELECT list expression references column x which is neither
 *    grouped nor aggregated` (measured: `SELECT MOD(n, 2) AS p FROM t GROUP BY MOD(n, 2) ORDER BY p`
 *    fails, the same query without ORDER BY analyzes). BigQuery accepts it (recorded
 *    standard_functions/tpcds_q99, agg_grouping_sets). The rewrite replaces each such GROUP BY
 *    item (also inside ROLLUP/CUBE/GROUPING SETS) by the select item's ordinal, which means the
 *    same grouping. ORDER BY items repeating a SELECT expression of such a query get the same
 *    treatment. SELECT lists with `*` are left alone (ordinals would shift).
 * 2. The RANGE_SESSIONIZE table function, unknown to this build: see ./range-sessionize.ts.
 */
import { normalize, walk, type Node } from './ast.js';

interface Range {
  start: number;
  end: number;
}

const rangeOf = (n: Node | undefined): Range | undefined => n?.parseLocationRange;

const STAR_KINDS = new Set(['Star', 'StarWithModifiers', 'DotStar', 'DotStarWithModifiers']);

/** Whitespace-insensitive source text of a node. */
function textOf(buf: Buffer, r: Range): string {
  return buf.subarray(r.start, r.end).toString('utf8').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A GROUP BY item that may be replaced by an ordinal: its byte range, and whether it is a parenthesised grouping set. */
interface Candidate {
  node: Node;
  range: Range;
  parens: boolean;
}

/** The items of a GROUP BY: plain ones, those inside ROLLUP/CUBE, and GROUPING SETS members. */
function groupingCandidates(groupBy: Node): Candidate[] {
  const out: Candidate[] = [];
  const add = (n: Node | undefined, parens = false, range = rangeOf(n)) => {
    if (n && range && n.kind !== 'PathExpression' && n.kind !== 'IntLiteral') out.push({ node: n, range, parens });
  };
  walk(groupBy, (n) => {
    if (n.kind === 'GroupingItems' && n.expression) add(n.expression);
    if ((n.kind === 'Rollup' || n.kind === 'Cube') && Array.isArray(n.expressions)) for (const e of n.expressions) add(e);
    if (n.kind === 'GroupingSets' && n.expression) {
      const e: Node = n.expression;
      if (e.kind === 'StructConstructorWithParens') for (const f of e.fieldExpressions ?? []) add(f);
      else add(e, true, rangeOf(n));
    }
  });
  return out;
}

/** Strips balanced outer parentheses: `(f(x))` → `f(x)`. */
function unparen(t: string): string {
  while (t.startsWith('(') && t.endsWith(')')) {
    let depth = 0;
    let balanced = true;
    for (let i = 0; i < t.length - 1; i++) {
      depth += t[i] === '(' ? 1 : t[i] === ')' ? -1 : 0;
      if (depth === 0) {
        balanced = false;
        break;
      }
    }
    if (!balanced) break;
    t = t.slice(1, -1).trim();
  }
  return t;
}

/**
 * Rewrites GROUP BY expressions that repeat a SELECT item into that item's ordinal.
 * @param sql one statement's text
 * @param parsed the analyzer's parse tree of `sql` (ParseResponse.parsedStatement, raw)
 * @returns the rewritten text, or undefined when nothing applies
 */
export function rewriteGroupByExpressions(sql: string, parsed: unknown): string | undefined {
  const tree = normalize(parsed);
  const buf = Buffer.from(sql, 'utf8');
  const edits: { range: Range; text: string }[] = [];
  walk(tree, (sel) => {
    if (sel.kind !== 'Select' || !sel.groupBy) return;
    const columns: Node[] = sel.selectList?.columns ?? [];
    if (columns.some((c) => STAR_KINDS.has(c.expression?.kind))) return;
    const texts = columns.map((c) => (rangeOf(c.expression) ? unparen(textOf(buf, rangeOf(c.expression)!)) : ''));
    for (const g of groupingCandidates(sel.groupBy)) {
      const i = texts.indexOf(unparen(textOf(buf, g.range)));
      if (i >= 0) edits.push({ range: g.range, text: g.parens ? `(${i + 1})` : String(i + 1) });
    }
  });
  // ORDER BY items repeating a SELECT expression of an aggregating query, likewise.
  walk(tree, (query) => {
    const sel: Node | undefined = query.queryExpr;
    if (query.kind !== 'Query' || !query.orderBy || sel?.kind !== 'Select' || !sel.groupBy) return;
    const columns: Node[] = sel.selectList?.columns ?? [];
    if (columns.some((c) => STAR_KINDS.has(c.expression?.kind))) return;
    const texts = columns.map((c) => (rangeOf(c.expression) ? unparen(textOf(buf, rangeOf(c.expression)!)) : ''));
    for (const o of (query.orderBy.orderingExpressions ?? []) as Node[]) {
      const e: Node | undefined = o.expression;
      const r = rangeOf(e);
      if (!e || !r || e.kind === 'PathExpression' || e.kind === 'IntLiteral') continue;
      const i = texts.indexOf(unparen(textOf(buf, r)));
      if (i >= 0) edits.push({ range: r, text: String(i + 1) });
    }
  });
  if (!edits.length) return undefined;
  edits.sort((a, b) => b.range.start - a.range.start);
  let out = buf;
  for (const e of edits) out = Buffer.concat([out.subarray(0, e.range.start), Buffer.from(e.text), out.subarray(e.range.end)]);
  return out.toString('utf8');
}
