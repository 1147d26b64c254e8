/**
 * What a persistent routine is, independent of running DDL: its reference, its arguments, the
 * RoutineMeta a CREATE FUNCTION statement stores, and the catalog protos the analyzer binds for it
 * (`functionProto`: SQL functions as ZetaSQL templated SQL functions, JavaScript functions as
 * scalar functions the lowering calls through src/functions/js-udf.ts; `tvfProto`: table functions).
 * The CREATE/DROP statements are routines.ts; the analyzer asks for routines on demand
 * (src/engine/analyze.ts).
 */
import type { Node } from '../analyzer/ast.js';
import { fromTypeProto, toTypeProto } from '../analyzer/types.js';
import type { RoutineArgument, RoutineMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import { jsUdfGroup, registerJsUdf } from '../functions/js-udf.js';
import type { BqType } from '../types/types.js';
import { resolveTablePath, type NameDefaults } from './names.js';
import { literalOptions } from './options.js';

/** ZetaSQL's function group of templated SQL functions (what the catalog deserializer keys on). */
export const TEMPLATED_GROUP = 'Templated_SQL_Function';

/** A routine's reference (REST `RoutineReference`). */
export interface RoutineRef {
  projectId: string;
  datasetId: string;
  routineId: string;
}

/**
 * The routine a name path names, resolved like a table path (src/engine/names.ts).
 * @throws BigQueryError invalidQuery as resolveTablePath does.
 */
export function routineRef(namePath: string[], d: NameDefaults): RoutineRef {
  const r = resolveTablePath(namePath, d);
  return { projectId: r.projectId, datasetId: r.datasetId, routineId: r.tableId };
}

/** `p:d.r`, the form of BigQuery's messages. */
export const routineRefText = (r: RoutineRef): string => `${r.projectId}:${r.datasetId}.${r.routineId}`;

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
