/**
 * The entry point of a query request (jobs.query / jobs.insert): one GoogleSQL text, one statement
 * or several separated by `;`. A script (several statements, or a procedural one) runs in the
 * interpreter (src/scripting/index.ts `runScript`); otherwise each statement is analyzed and executed
 * by the engine (src/engine/analyze.ts, src/engine/statements.ts) in order.
 *
 * Scripting sits above the engine: it calls the engine, never the reverse (.dependency-cruiser.cjs).
 */
import { preParseWithLocations } from '../analyzer/pre-parse.js';
import type { Engine, QueryOptions, StatementResult } from '../engine/engine.js';
import { stripComments } from '../engine/analyze.js';
import { checkQueryText } from '../engine/query-text-limits.js';
import { executeStatement } from '../engine/statements.js';
import { BigQueryError } from '../errors/errors.js';
import { yieldIfLongText } from '../config/limits.js';
import type { BqType } from '../types/types.js';
import { runScript } from './index.js';

/**
 * Executes every statement of `sql` in order; returns each statement's result (the last one is
 * the request's answer).
 * @throws BigQueryError with BigQuery's reason and text.
 */
export async function executeRequest(engine: Engine, sql: string, opts: QueryOptions): Promise<StatementResult[]> {
  // BigQuery's limits on the text (length, nesting) before any analysis (src/engine/query-text-limits.ts).
  await yieldIfLongText(sql);
  checkQueryText(sql);
  await yieldIfLongText(sql);
  // Syntax this analyzer build cannot parse, respelled first (src/analyzer/literal-concat.ts, set-by-name.ts,
  // pipe-syntax.ts); error locations of a pipe-syntax rewrite are mapped back to the user's text.
  const pre = preParseWithLocations(sql);
  await yieldIfLongText(sql);
  try {
    return await executeText(engine, pre.text, opts);
  } catch (e) {
    if (e instanceof BigQueryError && pre.text !== sql) e.message = pre.relocate(e.message);
    throw e;
  }
}

/** {@link executeRequest} after the pre-parse rewrites. */
async function executeText(engine: Engine, sql: string, opts: QueryOptions): Promise<StatementResult[]> {
  // Scripts (several statements, or a procedural one) run in the interpreter.
  // A script's statements answer domain values (variables, child jobs): no bulk-encoded result.
  const script = await runScript(engine, sql, { ...opts, encodeResult: undefined, resultTable: undefined });
  if (script) return script;
  const results: StatementResult[] = [];
  const total = Buffer.byteLength(sql);
  let pos = 0;
  const named = new Map<string, BqType>();
  for (const [k, v] of opts.namedParams ?? []) named.set(k, v.type);
  const params = { named, positional: (opts.positionalParams ?? []).map((p) => p.type) };
  while (pos < total) {
    const rest = Buffer.from(sql).subarray(pos).toString('utf8');
    if (!stripComments(rest)) break;
    const a = await engine.statements.analyze(sql, pos, opts, params);
    const r = await executeStatement(engine, a.stmt, a.tables, opts);
    r.span ??= [pos, a.next];
    results.push(r);
    pos = a.next;
  }
  if (!results.length) throw BigQueryError.emptyScript();
  return results;
}
