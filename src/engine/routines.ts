/**
 * Persistent routines (BigQuery "User-defined functions", "Table functions", "Stored procedures"):
 * CREATE [OR REPLACE | IF NOT EXISTS] FUNCTION / TABLE FUNCTION / PROCEDURE, DROP FUNCTION /
 * TABLE FUNCTION / PROCEDURE, stored in the catalog store (RoutineMeta, the REST `Routine`).
 *
 * Functions reach the analyzer as catalog functions built from the stored routine
 * (`functionProto`): SQL functions as ZetaSQL templated SQL functions (inlined by
 * REWRITE_INLINE_SQL_FUNCTIONS), JavaScript functions as scalar functions the lowering calls
 * through the JS UDF runner (src/functions/js-udf.ts). The analyzer asks for them by the path the
 * query wrote (`Function not found: …`, bound on demand by src/engine/analyze.ts).
 */
import type { Node } from '../analyzer/ast.js';
import { fromTypeProto, toTypeProto } from '../analyzer/types.js';
import type { RoutineArgument, RoutineMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import { jsUdfGroup, registerJsUdf } from '../functions/js-udf.js';
import type { BqType } from '../types/types.js';
import type { Engine, QueryOptions, StatementResult } from './engine.js';
import type { LowerContext } from './lower/context.js';
import { resolveTablePath, type NameDefaults } from './names.js';
import { literalOptions } from './options.js';
import type { StatementHandler } from './statements.js';

/** ZetaSQL's function group of templated SQL functions (what the catalog deserializer keys on). */
export const TEMPLATED_GROUP = 'Templated_SQL_Function';

export interface RoutineRef {
  projectId: string;
  datasetId: string;
  routineId: string;
}

export function routineRef(namePath: string[], d: NameDefaults): RoutineRef {
  const r = resolveTablePath(namePath, d);
  return { projectId: r.projectId, datasetId: r.datasetId, routineId: r.tableId };
}

const refText = (r: RoutineRef) => `${r.projectId}:${r.datasetId}.${r.routineId}`;

/** The arguments a resolved CREATE statement declares. */
export function argumentsOf(stmt: Node): RoutineArgument[] {
  const sig = stmt.signature as { argument?: Node[] } | undefined;
  const names: string[] = stmt.argumentNameList ?? [];
  return (sig?.argument ?? []).map((a, i) => {
    const arg: RoutineArgument = { name: String(a.options?.argumentName ?? names[i] ?? `arg${i}`) };
    if (a.kind === 'ARG_TYPE_FIXED' && a.type) arg.dataType = fromTypeProto(a.type);
    const mode = a.options?.procedureArgumentMode;
    if (mode === 'OUT' || mode === 'INOUT' || mode === 'IN') arg.mode = mode;
    if (stmt.isAggregate && a.options?.isNotAggregate) arg.isAggregate = false;
    return arg;
  });
}

const fixedArg = (t: BqType, name?: string, notAggregate?: boolean) => ({
  kind: 'ARG_TYPE_FIXED',
  type: toTypeProto(t),
  numOccurrences: 1,
  ...(name || notAggregate ? { options: { ...(name ? { argumentName: name } : {}), ...(notAggregate ? { isNotAggregate: true } : {}) } } : {}),
});
const anyArg = (name?: string, notAggregate?: boolean) => ({
  kind: 'ARG_TYPE_ARBITRARY',
  numOccurrences: 1,
  ...(name || notAggregate ? { options: { ...(name ? { argumentName: name } : {}), ...(notAggregate ? { isNotAggregate: true } : {}) } } : {}),
});

let contextIds = 5000;

/**
 * The analyzer `FunctionProto` of a scalar or aggregate function, named by the path the query
 * used. A SQL aggregate function (CREATE AGGREGATE FUNCTION) is a templated SQL function of mode
 * AGGREGATE, its `NOT AGGREGATE` parameters marked `isNotAggregate`; REWRITE_INLINE_SQL_UDAS
 * inlines its calls into the calling query's aggregation.
 */
export function functionProto(r: Pick<RoutineMeta, 'routineId' | 'language' | 'arguments' | 'returnType' | 'definitionBody'> & Partial<Pick<RoutineMeta, 'routineType'>>, namePath: string[]): object {
  const aggregate = r.routineType === 'AGGREGATE_FUNCTION';
  const args = r.arguments.map((a) => (a.dataType ? fixedArg(a.dataType, undefined, aggregate && a.isAggregate === false) : anyArg(undefined, aggregate && a.isAggregate === false)));
  const returnType = r.returnType ? fixedArg(r.returnType) : anyArg();
  if (r.language === 'JAVASCRIPT') {
    if (!r.returnType || r.arguments.some((a) => !a.dataType)) throw BigQueryError.javascriptTypesRequired();
    const id = registerJsUdf({
      name: r.routineId,
      argNames: r.arguments.map((a) => a.name),
      argTypes: r.arguments.map((a) => a.dataType!),
      returnType: r.returnType,
      code: r.definitionBody,
    });
    return { namePath, group: jsUdfGroup(id), mode: 'SCALAR', signature: [{ argument: args, returnType, contextId: String(contextIds++) }] };
  }
  return {
    namePath,
    group: TEMPLATED_GROUP,
    mode: aggregate ? 'AGGREGATE' : 'SCALAR',
    signature: [{ argument: args, returnType, contextId: String(contextIds++) }],
    parseResumeLocation: { input: r.definitionBody, bytePosition: 0 },
    templatedSqlFunctionArgumentName: r.arguments.map((a) => a.name),
  };
}

/** The analyzer `TableValuedFunctionProto` of a SQL table function (a templated SQL TVF, inlined by REWRITE_INLINE_SQL_TVFS). */
export function tvfProto(r: Pick<RoutineMeta, 'arguments' | 'definitionBody'>, namePath: string[]): object {
  return {
    namePath,
    type: 'TEMPLATED_SQL_TVF',
    signature: {
      argument: r.arguments.map((a) => (a.dataType ? fixedArg(a.dataType, a.name) : anyArg(a.name))),
      returnType: { kind: 'ARG_TYPE_RELATION', numOccurrences: 1 },
      contextId: String(contextIds++),
    },
    parseResumeLocation: { input: r.definitionBody, bytePosition: 0 },
    argumentName: r.arguments.map((a) => a.name),
  };
}

/** `OPTIONS(library=…)` (JavaScript libraries from Cloud Storage) cannot be honoured locally. */
export function rejectLibraries(stmt: Node): void {
  const o = literalOptions(stmt.optionList);
  if (o.library !== undefined && o.library !== null)
    throw BigQueryError.notSupported('OPTIONS(library=…) of a JavaScript UDF (libraries in Cloud Storage are not reachable from the emulator)');
}

/**
 * The routine a resolved CREATE [AGGREGATE] FUNCTION defines (not stored). SQL aggregate functions
 * (BigQuery "User-defined aggregate functions") are AGGREGATE_FUNCTION routines.
 * @throws BigQueryError notSupported: another language; a JavaScript aggregate function.
 */
export function functionRoutine(stmt: Node, ref: RoutineRef): RoutineMeta {
  const lang = String(stmt.language ?? 'SQL').toUpperCase();
  if (lang !== 'SQL' && lang !== 'JS') throw BigQueryError.notSupported(`CREATE FUNCTION … LANGUAGE ${String(stmt.language).toLowerCase()}`);
  if (lang === 'JS') rejectLibraries(stmt);
  if (stmt.isAggregate && lang === 'JS') throw BigQueryError.notSupported('CREATE AGGREGATE FUNCTION … LANGUAGE js (JavaScript user-defined aggregate functions)');
  const o = literalOptions(stmt.optionList);
  const fields: Record<string, unknown> = {};
  if (typeof o.description === 'string') fields.description = o.description;
  return {
    ...ref,
    routineType: stmt.isAggregate ? 'AGGREGATE_FUNCTION' : 'SCALAR_FUNCTION',
    language: lang === 'JS' ? 'JAVASCRIPT' : 'SQL',
    arguments: argumentsOf(stmt),
    returnType: stmt.hasExplicitReturnType && stmt.returnType ? fromTypeProto(stmt.returnType) : undefined,
    definitionBody: String(stmt.code ?? ''),
    creationTime: Date.now(),
    lastModifiedTime: Date.now(),
    fields,
  };
}

function requireDataset(e: Engine, r: RoutineRef): void {
  if (!e.catalog.getDataset(r.projectId, r.datasetId)) throw BigQueryError.datasetNotFound(r.projectId, r.datasetId);
}

async function createRoutine(e: Engine, stmt: Node, opts: QueryOptions, statementType: string, build: (ref: RoutineRef) => RoutineMeta): Promise<StatementResult> {
  const ref = routineRef(stmt.namePath as string[], opts);
  requireDataset(e, ref);
  const routine = build(ref);
  const existing = e.catalog.getRoutine(ref.projectId, ref.datasetId, ref.routineId);
  let op: 'CREATE' | 'REPLACE' | 'SKIP' = 'CREATE';
  if (existing) {
    if (stmt.createMode === 'CREATE_OR_REPLACE') op = 'REPLACE';
    else if (stmt.createMode === 'CREATE_IF_NOT_EXISTS') op = 'SKIP';
    else throw BigQueryError.alreadyExists('Routine', refText(ref));
  }
  const base: StatementResult = { statementType, ddlOperationPerformed: op, schema: [], rows: [] };
  (base as { ddlTargetRoutine?: RoutineRef }).ddlTargetRoutine = ref;
  if (op === 'SKIP' || opts.dryRun) return base;
  if (existing) routine.creationTime = existing.creationTime;
  await e.catalog.putRoutine(routine);
  return base;
}

async function createFunction(e: Engine, stmt: Node, _ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  if (stmt.createScope === 'CREATE_TEMP') throw BigQueryError.tempFunctionOutsideScript();
  return createRoutine(e, stmt, opts, 'CREATE_FUNCTION', (ref) => functionRoutine(stmt, ref));
}

async function createProcedure(e: Engine, stmt: Node, _ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  return createRoutine(e, stmt, opts, 'CREATE_PROCEDURE', (ref) => ({
    ...ref,
    routineType: 'PROCEDURE',
    language: 'SQL',
    arguments: argumentsOf(stmt),
    definitionBody: String(stmt.procedureBody ?? ''),
    creationTime: Date.now(),
    lastModifiedTime: Date.now(),
    fields: {},
  }));
}

async function createTableFunction(e: Engine, stmt: Node, _ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  return createRoutine(e, stmt, opts, 'CREATE_TABLE_FUNCTION', (ref) => ({
    ...ref,
    routineType: 'TABLE_VALUED_FUNCTION',
    language: 'SQL',
    arguments: argumentsOf(stmt),
    returnTableType: (stmt.outputColumnList ?? []).map((o: Node) => ({ name: String(o.name), type: fromTypeProto(o.column.type) })),
    definitionBody: String(stmt.code ?? ''),
    creationTime: Date.now(),
    lastModifiedTime: Date.now(),
    fields: {},
  }));
}

async function dropRoutine(e: Engine, stmt: Node, opts: QueryOptions, statementType: string, kind: RoutineMeta['routineType']): Promise<StatementResult> {
  const ref = routineRef(stmt.namePath as string[], opts);
  const base = (op: 'DROP' | 'SKIP'): StatementResult => {
    const r: StatementResult = { statementType, ddlOperationPerformed: op, schema: [], rows: [] };
    (r as { ddlTargetRoutine?: RoutineRef }).ddlTargetRoutine = ref;
    return r;
  };
  const existing = e.catalog.getRoutine(ref.projectId, ref.datasetId, ref.routineId);
  // DROP FUNCTION drops scalar and aggregate functions alike.
  const matches = existing && (existing.routineType === kind || (kind === 'SCALAR_FUNCTION' && existing.routineType === 'AGGREGATE_FUNCTION'));
  if (!existing || !matches) {
    if (stmt.isIfExists) return base('SKIP');
    requireDataset(e, ref);
    throw BigQueryError.resourceNotFound(kind === 'PROCEDURE' ? 'Procedure' : kind === 'TABLE_VALUED_FUNCTION' ? 'Table function' : 'Function', refText(ref));
  }
  if (!opts.dryRun) await e.catalog.deleteRoutine(existing.projectId, existing.datasetId, existing.routineId);
  return base('DROP');
}

/** DROP PROCEDURE comes as a generic DropStmt (objectType PROCEDURE); ddl.ts delegates here. */
export const dropProcedure = (e: Engine, stmt: Node, opts: QueryOptions) => dropRoutine(e, stmt, opts, 'DROP_PROCEDURE', 'PROCEDURE');

export const ROUTINES: Record<string, StatementHandler> = {
  CreateFunctionStmt: createFunction,
  CreateProcedureStmt: createProcedure,
  CreateTableFunctionStmt: createTableFunction,
  DropFunctionStmt: (e, stmt, _ctx, opts) => dropRoutine(e, stmt, opts, 'DROP_FUNCTION', 'SCALAR_FUNCTION'),
  DropTableFunctionStmt: (e, stmt, _ctx, opts) => dropRoutine(e, stmt, opts, 'DROP_TABLE_FUNCTION', 'TABLE_VALUED_FUNCTION'),
};
