/**
 * Persistent routines (BigQuery "User-defined functions", "Table functions", "Stored procedures"):
 * CREATE [OR REPLACE | IF NOT EXISTS] FUNCTION / TABLE FUNCTION / PROCEDURE, DROP FUNCTION /
 * TABLE FUNCTION / PROCEDURE, stored in the catalog store (RoutineMeta, the REST `Routine`).
 *
 * Functions reach the analyzer as catalog functions built from the stored routine
 * (`functionProto`, routine-definitions.ts): SQL functions as ZetaSQL templated SQL functions (inlined by
 * REWRITE_INLINE_SQL_FUNCTIONS), JavaScript functions as scalar functions the lowering calls
 * through the JS UDF runner (src/functions/js-udf.ts). The analyzer asks for them by the path the
 * query wrote (`Function not found: …`, bound on demand by src/engine/analyze.ts).
 */
import type { Node } from '../analyzer/ast.js';
import { fromTypeProto } from '../analyzer/types.js';
import type { RoutineMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Engine, QueryOptions, StatementHandler, StatementHandlers, StatementResult } from './engine-types.js';
import type { LowerContext } from './lower/context.js';
import { argumentsOf, functionRoutine, routineRef, routineRefText, type RoutineRef } from './routine-definitions.js';

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
    else throw BigQueryError.alreadyExists('Routine', routineRefText(ref));
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
    throw BigQueryError.resourceNotFound(kind === 'PROCEDURE' ? 'Procedure' : kind === 'TABLE_VALUED_FUNCTION' ? 'Table function' : 'Function', routineRefText(ref));
  }
  if (!opts.dryRun) await e.catalog.deleteRoutine(existing.projectId, existing.datasetId, existing.routineId);
  return base('DROP');
}

/** DROP PROCEDURE comes as a generic DropStmt (objectType PROCEDURE); ddl.ts delegates here. */
export const dropProcedure = (e: Engine, stmt: Node, opts: QueryOptions) => dropRoutine(e, stmt, opts, 'DROP_PROCEDURE', 'PROCEDURE');

export const ROUTINES = {
  CreateFunctionStmt: createFunction,
  CreateProcedureStmt: createProcedure,
  CreateTableFunctionStmt: createTableFunction,
  DropFunctionStmt: (e, stmt, _ctx, opts) => dropRoutine(e, stmt, opts, 'DROP_FUNCTION', 'SCALAR_FUNCTION'),
  DropTableFunctionStmt: (e, stmt, _ctx, opts) => dropRoutine(e, stmt, opts, 'DROP_TABLE_FUNCTION', 'TABLE_VALUED_FUNCTION'),
} satisfies StatementHandlers;
