/**
 * CALL of a stored procedure (BigQuery "Work with stored procedures"): the arguments are
 * evaluated in the caller's script (IN), the body runs in its own interpreter with the parameters
 * as its variables, and OUT/INOUT parameters are written back to the caller's variables (an
 * OUT/INOUT argument must be a variable). The statements the body runs are results of the caller.
 */
import type { Node } from '../analyzer/ast.js';
import { normalize } from '../analyzer/ast.js';
import { routineRef } from '../engine/routine-definitions.js';
import { resolveTablePath } from '../engine/names.js';
import { BigQueryError } from '../errors/errors.js';
import type { Flow, Interpreter } from './interpreter.js';
import { Interpreter as Child } from './interpreter.js';
import { coerceValue } from './variables.js';
import type { Value } from '../types/types.js';

const pathOf = (n: Node | undefined): string[] => (n?.names ?? []).map((x: Node) => String(x.idString));

/**
 * BigQuery's system procedures.
 * - BQ.ABORT_SESSION([session_id]): ends the session (the request's own without an argument)
 *   through the job layer's hook (BigQuery "Terminate a session").
 * - BQ.REFRESH_MATERIALIZED_VIEW: materialized views here are always current (they are read
 *   through their query), so a refresh is a no-op once the view is found
 *   (BigQuery "Manually refresh a materialized view"; recorded versioning/mv_refresh_after_dml).
 */
async function systemProcedure(it: Interpreter, segs: string[], n: Node): Promise<boolean> {
  const name = segs.join('.').toUpperCase();
  const arg: Node | undefined = (n.arguments ?? []).map((a: Node) => a.expr ?? a)[0];
  if (name === 'BQ.ABORT_SESSION') {
    const id = arg ? (await it.evaluate(arg, { type: { kind: 'STRING' } })).value : undefined;
    if (!it.opts.endSession) throw BigQueryError.abortSessionOutsideSession();
    await it.opts.endSession(id === undefined || id === null ? undefined : String(id));
    return true;
  }
  if (name !== 'BQ.REFRESH_MATERIALIZED_VIEW') return false;
  if (!arg) throw BigQueryError.refreshMaterializedViewName();
  const { value } = await it.evaluate(arg, { type: { kind: 'STRING' } });
  const ref = resolveTablePath([String(value)], it.defaults);
  const t = it.engine.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId);
  if (!t) throw BigQueryError.tableNotFound(ref.projectId, ref.datasetId, ref.tableId);
  return true;
}

export async function callStatement(it: Interpreter, n: Node): Promise<Flow> {
  const segs = pathOf(n.procedureName);
  if (await systemProcedure(it, segs, n)) return undefined;
  const ref = routineRef(segs, it.defaults);
  const proc = it.engine.catalog.getRoutine(ref.projectId, ref.datasetId, ref.routineId);
  if (!proc || proc.routineType !== 'PROCEDURE') {
    const { line, column } = it.src.lineCol(it.src.range(n.procedureName ?? n).start);
    throw BigQueryError.procedureNotFound(segs.map((s) => (/^[A-Za-z_]\w*$/.test(s) ? s : `\`${s}\``)).join('.'), line, column);
  }
  const args: Node[] = (n.arguments ?? []).map((a: Node) => a.expr ?? a);
  if (args.length !== proc.arguments.length)
    throw BigQueryError.procedureArity(proc.routineId, proc.arguments.length, args.length);
  const res = await it.engine.analyzer.call('parse', { sqlStatement: proc.definitionBody, allowScript: true, options: it.engine.analyzer.languageOptions });
  const body: Node[] = normalize(res.parsedScript)?.statementListNode?.statementList ?? [];
  const child = new Child(it.engine, proc.definitionBody, it.opts, it.handlers, false, true);
  child.defaults = it.defaults;
  const outs: { param: string; variable: string }[] = [];
  for (let i = 0; i < args.length; i++) {
    const p = proc.arguments[i];
    const mode = p.mode ?? 'IN';
    let value = null as Value;
    let type = p.dataType;
    if (mode !== 'IN') {
      const name = pathOf(args[i]).join('.') || String(args[i].idString ?? '');
      const v = it.scopes.lookup(name);
      if (!v) throw BigQueryError.procedureArgumentNotVariable(mode, p.name, proc.routineId);
      outs.push({ param: p.name, variable: name });
      if (mode === 'INOUT') value = v.value;
      type ??= v.type;
      if (mode === 'INOUT' && p.dataType) value = coerceValue(v.value, v.type, p.dataType, `argument ${p.name}`);
    } else {
      const t = await it.evaluate(args[i], p.dataType ? { type: p.dataType } : undefined);
      value = t.value;
      type ??= t.type;
    }
    child.scopes.declare(p.name, type!, value);
  }
  child.scopes.push();
  await child.run(body);
  for (const o of outs) {
    const src = child.scopes.visible().get(o.param.toLowerCase())!;
    const dst = it.scopes.lookup(o.variable)!;
    dst.value = coerceValue(src.value, src.type, dst.type, `variable ${o.variable}`);
  }
  const { start, end } = it.src.range(n);
  for (const r of child.results) it.record(r, start, end);
  return undefined;
}
