/**
 * routines: insert, get, list (paging, `filter=routineType:…`), update (PUT), patch, delete.
 * Source: Routine / ListRoutinesResponse in src/server/rest/bigquery-v2-discovery.json. Routines live in the
 * same catalog store as the ones CREATE FUNCTION / TABLE FUNCTION / PROCEDURE make, so a routine
 * inserted here is callable from SQL and a DDL-created one is listed here.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RoutineArgument, RoutineMeta } from '../../catalog/store.js';
import { BigQueryError } from '../../errors/errors.js';
import type { BqType } from '../../types/types.js';
import { EtagMemo, offsetOfToken, pageToken } from '../../wire/resources.js';
import { jsonArrayYielding, type ListPageJson } from '../../wire/list-pages.js';
import { intParam, objectBody, requireDataset, type RestContext } from './context.js';
import type { Argument, RequestBodies, RequestJson, Routine, StandardSqlDataType, StandardSqlField } from '../../types/generated/bigquery-v2.js';

type Params = { projectId: string; datasetId: string; routineId: string };
type Req = FastifyRequest<{ Params: Params; Querystring: Record<string, string>; Body: unknown }>;

const ROUTINE_TYPES = ['SCALAR_FUNCTION', 'AGGREGATE_FUNCTION', 'PROCEDURE', 'TABLE_VALUED_FUNCTION'];
const EXTRA_FIELDS = ['description', 'determinismLevel', 'importedLibraries', 'strictMode', 'securityMode', 'dataGovernanceType'];

/** BqType → REST StandardSqlDataType. */
export function sqlDataType(t: BqType): StandardSqlDataType {
  if (t.kind === 'ARRAY') return { typeKind: 'ARRAY', arrayElementType: sqlDataType(t.element) };
  if (t.kind === 'RANGE') return { typeKind: 'RANGE', rangeElementType: sqlDataType(t.element) };
  if (t.kind === 'STRUCT') return { typeKind: 'STRUCT', structType: { fields: t.fields.map((f) => ({ ...(f.name ? { name: f.name } : {}), type: sqlDataType(f.type) })) } };
  return { typeKind: t.kind };
}

/** REST StandardSqlDataType → BqType. */
export function bqTypeOf(d: unknown, where: string): BqType {
  const x = (d ?? {}) as StandardSqlDataType<RequestJson>;
  const kind = String(x.typeKind ?? '');
  if (kind === 'ARRAY') return { kind: 'ARRAY', element: bqTypeOf(x.arrayElementType, where) };
  if (kind === 'RANGE') return { kind: 'RANGE', element: bqTypeOf(x.rangeElementType, where) } as BqType;
  if (kind === 'STRUCT')
    return { kind: 'STRUCT', fields: ((x.structType?.fields ?? []) as (StandardSqlField<RequestJson> | null)[]).map((f) => ({ name: f?.name ?? '', type: bqTypeOf(f?.type, where) })) } as BqType;
  const scalar = ['INT64', 'BOOL', 'FLOAT64', 'STRING', 'BYTES', 'TIMESTAMP', 'DATE', 'TIME', 'DATETIME', 'INTERVAL', 'GEOGRAPHY', 'NUMERIC', 'BIGNUMERIC', 'JSON'];
  if (!scalar.includes(kind)) throw BigQueryError.invalidTypeKind(where, kind);
  return { kind } as BqType;
}

/** Routine records are replaced on update, never changed in place: their etags are kept (resources.ts EtagMemo). */
const fullEtags = new EtagMemo<RoutineMeta>();
const listEtags = new EtagMemo<RoutineMeta>();

function routineResource(r: RoutineMeta, full = true): Routine {
  const out: Routine = {
    routineReference: { projectId: r.projectId, datasetId: r.datasetId, routineId: r.routineId },
    routineType: r.routineType,
    creationTime: String(r.creationTime),
    lastModifiedTime: String(r.lastModifiedTime),
    language: r.language,
  };
  if (full) {
    if (r.arguments.length)
      out.arguments = r.arguments.map((a) => ({
        name: a.name,
        ...(a.dataType ? { dataType: sqlDataType(a.dataType) } : { argumentKind: 'ANY_TYPE' }),
        ...(r.routineType === 'PROCEDURE' && a.mode ? { mode: a.mode } : {}),
        // Argument.isAggregate: false is a NOT AGGREGATE parameter of an aggregate function.
        ...(r.routineType === 'AGGREGATE_FUNCTION' && a.isAggregate === false ? { isAggregate: false } : {}),
      }));
    if (r.returnType) out.returnType = sqlDataType(r.returnType);
    if (r.returnTableType) out.returnTableType = { columns: r.returnTableType.map((c) => ({ name: c.name, type: sqlDataType(c.type) })) };
    out.definitionBody = r.definitionBody;
    for (const k of EXTRA_FIELDS) if (r.fields[k] !== undefined) (out as Record<string, unknown>)[k] = r.fields[k];
  }
  return { etag: (full ? fullEtags : listEtags).of(r, [], out), ...out };
}

/** A stored routine from a REST body (insert/update), validated like BigQuery's required fields. */
function routineFromBody(body: Routine<RequestJson>, ref: Params, existing?: RoutineMeta): RoutineMeta {
  const routineType = String(body.routineType ?? existing?.routineType ?? '');
  if (!ROUTINE_TYPES.includes(routineType)) throw BigQueryError.invalidRoutineType(routineType);
  if (typeof body.definitionBody !== 'string' || !body.definitionBody) throw BigQueryError.routineBodyRequired();
  const language = String(body.language ?? (routineType === 'SCALAR_FUNCTION' ? 'SQL' : 'SQL')).toUpperCase();
  if (language !== 'SQL' && language !== 'JAVASCRIPT') throw BigQueryError.notSupported(`Language ${language}`, { in: 'request', location: 'language' });
  if (language === 'JAVASCRIPT') {
    if (routineType !== 'SCALAR_FUNCTION') throw BigQueryError.javascriptOnlyScalar();
    if ((body.importedLibraries ?? []).length)
      throw BigQueryError.notSupported('importedLibraries (JavaScript libraries in Cloud Storage)', { in: 'request', location: 'importedLibraries' });
    if (!body.returnType) throw BigQueryError.javascriptReturnTypeRequired();
  }
  // A null element (`"arguments": [null]`) is an argument without a name, not a crash.
  const args: RoutineArgument[] = ((body.arguments ?? []) as (Argument<RequestJson> | null)[]).map((a0, i) => {
    const a: Argument<RequestJson> = a0 ?? {};
    if (typeof a.name !== 'string' || !a.name) throw BigQueryError.argumentNameRequired(i + 1);
    const arg: RoutineArgument = { name: a.name };
    if (a.argumentKind !== 'ANY_TYPE') arg.dataType = bqTypeOf(a.dataType, `arguments[${i}].dataType`);
    if (a.mode === 'IN' || a.mode === 'OUT' || a.mode === 'INOUT') arg.mode = a.mode;
    if (routineType === 'AGGREGATE_FUNCTION' && a.isAggregate === false) arg.isAggregate = false;
    return arg;
  });
  const fields: Record<string, unknown> = {};
  const raw = body as Record<string, unknown>;
  for (const k of EXTRA_FIELDS) if (raw[k] !== undefined && raw[k] !== null) fields[k] = raw[k];
  const now = Date.now();
  return {
    projectId: ref.projectId,
    datasetId: ref.datasetId,
    routineId: ref.routineId,
    routineType: routineType as RoutineMeta['routineType'],
    language: language as RoutineMeta['language'],
    arguments: args,
    returnType: body.returnType ? bqTypeOf(body.returnType, 'returnType') : undefined,
    returnTableType: body.returnTableType?.columns
      ? (body.returnTableType.columns as (StandardSqlField<RequestJson> | null)[]).map((c, i) => ({ name: String(c?.name), type: bqTypeOf(c?.type, `returnTableType.columns[${i}].type`) }))
      : undefined,
    definitionBody: body.definitionBody,
    creationTime: existing?.creationTime ?? now,
    lastModifiedTime: existing ? Math.max(now, existing.lastModifiedTime + 1) : now,
    fields,
  };
}

function checkRoutineId(id: unknown): string {
  if (typeof id !== 'string' || !id) throw BigQueryError.requiredParameterMissing('routineReference.routineId');
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,255}$/.test(id))
    throw BigQueryError.invalidRoutineId(id);
  return id;
}

export function routinesRoutes(app: FastifyInstance, ctx: RestContext): void {
  const cat = ctx.engine.catalog;
  const base = '/projects/:projectId/datasets/:datasetId/routines';
  const notFound = (p: Params) => BigQueryError.resourceNotFound('Routine', `${p.projectId}:${p.datasetId}.${p.routineId}`);
  const find = (p: Params) => {
    requireDataset(ctx, p.projectId, p.datasetId);
    const r = cat.getRoutine(p.projectId, p.datasetId, p.routineId);
    if (!r || r.routineId !== p.routineId) throw notFound(p);
    return r;
  };

  app.post(base, async (req: Req) => {
    const body = objectBody<RequestBodies['bigquery.routines.insert']>(req.body);
    const ref: Params = {
      projectId: body.routineReference?.projectId ?? req.params.projectId,
      datasetId: body.routineReference?.datasetId ?? req.params.datasetId,
      routineId: checkRoutineId(body.routineReference?.routineId),
    };
    requireDataset(ctx, ref.projectId, ref.datasetId);
    if (cat.getRoutine(ref.projectId, ref.datasetId, ref.routineId)) throw BigQueryError.alreadyExists('Routine', `${ref.projectId}:${ref.datasetId}.${ref.routineId}`);
    const r = routineFromBody(body, ref);
    await cat.putRoutine(r);
    return routineResource(r);
  });

  app.get(`${base}/:routineId`, async (req: Req) => routineResource(find(req.params)));

  app.get(base, async (req: Req) => {
    requireDataset(ctx, req.params.projectId, req.params.datasetId);
    let all = cat.listRoutines(req.params.projectId, req.params.datasetId);
    const filter = req.query.filter;
    if (filter) {
      const m = /^\s*routineType\s*:\s*"?(\w+)"?\s*$/.exec(filter);
      if (!m) throw BigQueryError.invalidRoutineFilter(filter);
      all = all.filter((r) => r.routineType === m[1]);
    }
    const start = offsetOfToken(req.query.pageToken) ?? 0;
    const max = intParam(req.query.maxResults, 'maxResults') ?? 1000;
    const page = all.slice(start, start + max);
    const out: Record<string, unknown> = { routines: await jsonArrayYielding(page, (r) => routineResource(r, false)) };
    const listed = (out.routines as ListPageJson).count;
    if (start + listed < all.length) out.nextPageToken = pageToken(start + listed);
    return out;
  });

  const modify = (replace: boolean) => async (req: Req) => {
    const existing = find(req.params);
    const ifMatch = req.headers['if-match'];
    if (ifMatch && ifMatch !== '*' && ifMatch !== routineResource(existing).etag) throw BigQueryError.preconditionFailed();
    const body = objectBody<RequestBodies['bigquery.routines.update']>(req.body);
    const merged = replace ? body : { ...routineResource(existing), ...body };
    const r = routineFromBody(merged, req.params, existing);
    await cat.putRoutine(r);
    return routineResource(r);
  };
  app.put(`${base}/:routineId`, modify(true));
  app.patch(`${base}/:routineId`, modify(false));

  app.delete(`${base}/:routineId`, async (req: Req, reply) => {
    const r = find(req.params);
    await cat.deleteRoutine(r.projectId, r.datasetId, r.routineId);
    reply.status(204).send();
  });
}
