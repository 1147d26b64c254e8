/**
 * Handlers of the procedural statements, by parse-tree kind (BigQuery procedural language
 * reference: DECLARE, SET, IF, CASE, LOOP, WHILE, REPEAT, FOR…IN, BREAK/LEAVE, CONTINUE/ITERATE,
 * labels, BEGIN…END, BEGIN…EXCEPTION…END, RAISE, RETURN; debugging statements: ASSERT;
 * user-defined functions: CREATE TEMP FUNCTION; transactions: BEGIN, COMMIT, ROLLBACK). The
 * analyzer's parser gives LOOP as a `WhileStatement` without condition and LEAVE/ITERATE as
 * BREAK/CONTINUE with their keyword.
 */
import type { Node } from '../analyzer/ast.js';
import { BigQueryError } from '../errors/errors.js';
import type { BqType } from '../types/types.js';
import { setErrorVariables } from './errors.js';
import { executeImmediate } from './dynamic.js';
import type { Flow, Interpreter, StatementHandler, Typed } from './interpreter.js';
import { callStatement } from './procedures.js';
import { withParams } from './variables.js';

const labelOf = (n: Node): string | undefined => n.label?.name?.idString;
const sameLabel = (a: string | undefined, b: string | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/** What a loop does with the flow its body ended with: next iteration, leave, or pass it outward. */
function loopControl(f: Flow, label: string | undefined): 'next' | 'exit' | Flow {
  if (!f) return 'next';
  if (f.kind === 'return') return f;
  if (f.label && !sameLabel(f.label, label)) return f;
  return f.kind === 'break' ? 'exit' : 'next';
}

function at(it: Interpreter, n: Node): string {
  const { line, column } = it.src.lineCol(it.src.range(n).start);
  return ` at [${line}:${column}]`;
}

/** DECLARE name[, …] [type] [DEFAULT expr]: NULL without DEFAULT; the DEFAULT coerces to the type. */
async function declare(it: Interpreter, n: Node): Promise<Flow> {
  const ids: Node[] = n.variableList?.identifierList ?? [];
  // A written type is resolved first (parameterized types such as STRING(10) are not allowed in
  // the STRUCT constructor that coerces the DEFAULT; their base type is).
  const declared = n.type ? await it.typeOf(n.type) : undefined;
  const type = declared?.type;
  const v: Typed = n.defaultValue ? await it.evaluate(n.defaultValue, type ? { type } : undefined) : { type: type!, value: null };
  const value = withParams(v.value, v.type, declared?.params);
  for (const id of ids) {
    if (it.scopes.lookup(id.idString)) throw BigQueryError.variableRedeclared(id.idString, at(it, id));
    it.scopes.declare(id.idString, v.type, value, declared?.params);
  }
  return undefined;
}

function variable(it: Interpreter, id: Node) {
  const v = it.scopes.lookup(id.idString);
  if (!v) throw BigQueryError.undeclaredVariable(id.idString, at(it, id));
  return v;
}

/** SET x = expr. */
async function setOne(it: Interpreter, n: Node): Promise<Flow> {
  const v = variable(it, n.variable);
  v.value = withParams((await it.evaluate(n.expression, { type: v.type })).value, v.type, v.params);
  return undefined;
}

/** SET (a, b, …) = struct_expr: each field to its variable. */
async function setTuple(it: Interpreter, n: Node): Promise<Flow> {
  const ids: Node[] = n.variables?.identifierList ?? [];
  const vars = ids.map((id) => variable(it, id));
  const type: BqType = { kind: 'STRUCT', fields: vars.map((v) => ({ name: '', type: v.type })) };
  const r = await it.evaluate(n.structExpression, { type });
  const values = (r.value as unknown[] | null) ?? vars.map(() => null);
  const checked = vars.map((v, i) => withParams(values[i] as Typed['value'], v.type, v.params));
  vars.forEach((v, i) => (v.value = checked[i]));
  return undefined;
}

/** SET @@name = expr, for the settable system variables. */
async function setSystem(it: Interpreter, n: Node): Promise<Flow> {
  const path = ((n.systemVariable?.path?.names ?? []) as Node[]).map((x) => x.idString).join('.').toLowerCase();
  const sv = it.sys.get(path);
  if (!sv) throw BigQueryError.unrecognizedSystemVariable(path, at(it, n.systemVariable));
  if (!sv.settable) throw BigQueryError.systemVariableReadOnly(path, at(it, n.systemVariable));
  const { value } = await it.evaluate(n.expression, { type: sv.type });
  if (path === 'time_zone' && value !== 'UTC')
    throw BigQueryError.notSupported(`Setting @@time_zone to a time zone other than UTC (${String(value)})`);
  it.sys.set(path, sv.type, value, true);
  it.rememberSystem(path);
  if (path === 'dataset_id' || path === 'dataset_project_id') it.useDefaultDataset();
  return undefined;
}

async function ifStmt(it: Interpreter, n: Node): Promise<Flow> {
  if (await it.condition(n.condition)) return it.execList(n.thenList?.statementList);
  for (const c of (n.elseifClauses?.elseifClauses ?? []) as Node[]) if (await it.condition(c.condition)) return it.execList(c.body?.statementList);
  return it.execList(n.elseList?.statementList);
}

/** CASE [expr] WHEN … THEN … [ELSE …] END CASE: one query picks the branch. */
async function caseStmt(it: Interpreter, n: Node): Promise<Flow> {
  const whens: Node[] = n.whenThenClauses?.whenThenClauses ?? [];
  const pieces: (string | Node)[] = n.expression ? ['SELECT CASE ', n.expression] : ['SELECT CASE'];
  whens.forEach((w, i) => pieces.push(' WHEN ', w.condition, ` THEN ${i + 1}`));
  pieces.push(' ELSE 0 END');
  const r = await it.query(pieces);
  const i = Number(r.rows[0]?.[0] ?? 0);
  return i > 0 ? it.execList(whens[i - 1].body?.statementList) : it.execList(n.elseList?.statementList);
}

/** LOOP and WHILE (a LOOP is a WHILE without condition). */
async function whileStmt(it: Interpreter, n: Node): Promise<Flow> {
  const label = labelOf(n);
  for (;;) {
    await it.tick();
    if (n.condition && !(await it.condition(n.condition))) return undefined;
    const c = loopControl(await it.execList(n.body?.statementList), label);
    if (c === 'exit') return undefined;
    if (c !== 'next') return c;
  }
}

/** REPEAT … UNTIL cond END REPEAT: the body runs at least once. */
async function repeatStmt(it: Interpreter, n: Node): Promise<Flow> {
  const label = labelOf(n);
  for (;;) {
    await it.tick();
    const c = loopControl(await it.execList(n.body?.statementList), label);
    if (c === 'exit') return undefined;
    if (c !== 'next') return c;
    if (await it.condition(n.untilClause?.condition)) return undefined;
  }
}

/** FOR x IN (query) DO … END FOR: x is a STRUCT of the row's columns, scoped to the body. */
async function forIn(it: Interpreter, n: Node): Promise<Flow> {
  const label = labelOf(n);
  const res = await it.query([n.query]);
  const type: BqType = { kind: 'STRUCT', fields: res.fields.map((f) => ({ name: f.name, type: f.type })) };
  const name: string = n.variable?.idString;
  for (const row of res.rows) {
    await it.tick();
    const depth = it.scopes.depth;
    it.scopes.push();
    let f: Flow;
    try {
      it.scopes.declare(name, type, row);
      f = await it.execList(n.body?.statementList);
    } finally {
      it.scopes.unwindTo(depth);
    }
    const c = loopControl(f, label);
    if (c === 'exit') return undefined;
    if (c !== 'next') return c;
  }
  return undefined;
}

/** BEGIN … [EXCEPTION WHEN ERROR THEN …] END: a scope; the handler runs outside it with `@@error`. */
async function block(it: Interpreter, n: Node): Promise<Flow> {
  const depth = it.scopes.depth;
  const handler: Node | undefined = n.handlerList?.exceptionHandlerList?.[0];
  let f: Flow;
  it.scopes.push();
  try {
    f = await it.execList(n.statementListNode?.statementList);
  } catch (e) {
    it.scopes.unwindTo(depth);
    if (!handler || !(e instanceof BigQueryError)) throw e;
    it.handling.push(e);
    setErrorVariables(it.sys, e);
    try {
      f = await it.execList(handler.statementList?.statementList);
    } finally {
      it.handling.pop();
      setErrorVariables(it.sys, it.handling[it.handling.length - 1]);
    }
  } finally {
    it.scopes.unwindTo(depth);
  }
  return f?.kind === 'break' && sameLabel(f.label, labelOf(n)) ? undefined : f;
}

/** RAISE [USING MESSAGE = expr]; without a message, re-raises the error being handled. */
async function raise(it: Interpreter, n: Node): Promise<Flow> {
  if (!n.message) {
    const current = it.handling[it.handling.length - 1];
    if (!current) throw BigQueryError.raiseOutsideHandler(at(it, n));
    throw current;
  }
  const m = await it.evaluate(n.message, { type: { kind: 'STRING' } });
  throw BigQueryError.raised(m.value === null ? null : String(m.value));
}

/** ASSERT expr [AS 'description'] (debugging statements). */
async function assertStmt(it: Interpreter, n: Node): Promise<Flow> {
  const v = await it.evaluate(n.expr, { type: { kind: 'BOOL' } });
  if (v.value === true) return undefined;
  const description = n.description?.stringValue;
  throw BigQueryError.assertionFailed(description);
}

/** CREATE TEMP FUNCTION (SQL); other CREATE FUNCTION forms go to the engine. */
async function createFunction(it: Interpreter, n: Node): Promise<Flow> {
  if (n.scope !== 'TEMPORARY') {
    await it.runStatement(n);
    return undefined;
  }
  const { start, end } = it.src.range(n);
  const a = await it.engine.statements.analyze(it.src.text, start, it.defaults, it.paramTypes()).catch((e) => {
    throw it.functions.errorText(e);
  });
  it.functions.define(a.stmt);
  await (it.opts as { onScan?: (s: unknown[]) => Promise<void> }).onScan?.([]); // one hook call per result (job statistics)
  it.record({ statementType: 'CREATE_FUNCTION' }, start, end);
  return undefined;
}

/** Procedural statement handlers by parse-tree kind; every other statement is SQL for the engine. */
export const PROCEDURAL: Record<string, StatementHandler> = {
  VariableDeclaration: declare,
  SingleAssignment: setOne,
  AssignmentFromStruct: setTuple,
  SystemVariableAssignment: setSystem,
  IfStatement: ifStmt,
  CaseStatement: caseStmt,
  WhileStatement: whileStmt,
  RepeatStatement: repeatStmt,
  ForInStatement: forIn,
  BreakStatement: async (_it, n) => ({ kind: 'break', label: labelOf(n) }),
  ContinueStatement: async (_it, n) => ({ kind: 'continue', label: labelOf(n) }),
  ReturnStatement: async () => ({ kind: 'return' }),
  BeginEndBlock: block,
  RaiseStatement: raise,
  AssertStatement: assertStmt,
  ExecuteImmediateStatement: executeImmediate,
  CreateFunctionStatement: createFunction,
  CallStatement: callStatement,
  BeginStatement: async (it) => void it.txn.begin(),
  CommitStatement: async (it) => void (await it.txn.commit()),
  RollbackStatement: async (it) => void (await it.txn.rollback()),
};
