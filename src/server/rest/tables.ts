/**
 * tables: insert (schema or view), get (`view=BASIC` omits storage statistics), list (paging),
 * patch/update (`If-Match` → 412 on a stale etag; schema may add columns or relax REQUIRED),
 * delete. Source: Table / TableList in src/server/rest/bigquery-v2-discovery.json.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { datasetLocation, type TableMeta } from '../../catalog/store.js';
import { checkResourceMetadata } from './metadata-limits.js';
import { BigQueryError } from '../../errors/errors.js';
import { createStoredTable, withDefaultSql } from '../../engine/ddl.js';
import { addPicosColumnSql, isPicosColumn } from '../../engine/picos-storage.js';
import { dropTableObject } from '../../engine/drop-table.js';
import { resultFields } from '../../engine/statement-context.js';
import { columnFromField, columnTypeSql, fieldFromColumn, type Column, type TableFieldSchema } from '../../types/schema.js';
import { paramsKey } from '../../types/type-params.js';
import { checkSetDataType } from '../../engine/type-params.js';
import { offsetOfToken, pageToken, tableListItem, tableResource } from '../../wire/resources.js';
import { jsonArrayYielding, type ListPageJson } from '../../wire/list-pages.js';
import { intParam, objectBody, requireDataset, requireTable, type PathParams, type RestContext } from './context.js';
import type { RequestBodies, RequestJson, Table } from '../../types/generated/bigquery-v2.js';
import { duckType } from '../../engine/duckdb/types.js';
import { isAnonymousDataset } from '../../jobs/anonymous.js';
import { anonymousTableResource } from './anonymous-tables.js';
import { expirePartitions, withDatasetDefaults } from '../../engine/expiration.js';
import { streamingBufferOf } from '../../engine/streaming-buffer.js';

const READ_ONLY = ['kind', 'etag', 'id', 'selfLink', 'tableReference', 'schema', 'view', 'creationTime', 'lastModifiedTime', 'type', 'location', 'numRows', 'numBytes', 'numLongTermBytes', 'numTotalLogicalBytes'];

function settable(body: Table<RequestJson>): Record<string, unknown> {
  const f: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!READ_ONLY.includes(k) && v !== undefined && v !== null) f[k] = v;
  return f;
}

function checkTableId(id: unknown): string {
  if (typeof id !== 'string' || !id) throw BigQueryError.requiredParameterMissing('tableReference.tableId');
  if (!/^[\p{L}\p{M}\p{N}\p{Pc}\p{Pd}\p{Zs}$-]{1,1024}$/u.test(id))
    throw BigQueryError.invalidTableId(id);
  return id;
}

function schemaColumns(schema: unknown): Column[] {
  const fields = (schema as { fields?: TableFieldSchema[] } | undefined)?.fields ?? [];
  const cols = fields.map(columnFromField);
  const seen = new Set<string>();
  for (const c of cols) {
    const k = c.name.toLowerCase();
    if (seen.has(k)) throw BigQueryError.duplicateColumnNames(c.name);
    seen.add(k);
  }
  return cols;
}

/** Counts a stored table's rows. */
export async function countRows(ctx: RestContext, t: TableMeta): Promise<number> {
  if (t.type !== 'TABLE') return 0;
  await expirePartitions(ctx.engine, t);
  const r = await ctx.engine.db.readAll(`SELECT count(*) FROM "${t.duckName}"`);
  return Number(r.getRowsJS()[0][0]);
}

/**
 * The resource of a stored table or view with its storage statistics: `numRows` leaves out rows
 * still in the streaming buffer (discovery, Table.numRows: "excluding any data in the streaming
 * buffer"), which `streamingBuffer` describes while it holds rows (src/engine/streaming-buffer.ts).
 */
async function tableResourceWithStats(ctx: RestContext, t: TableMeta, view?: string): Promise<Table> {
  if (view === 'BASIC') return tableResource(ctx.baseUrl(), t, 0, view, locationOfTable(ctx, t));
  const buffer = await streamingBufferOf(ctx.engine, t);
  const body = tableResource(ctx.baseUrl(), t, (await countRows(ctx, t)) - (buffer?.rows ?? 0), view, locationOfTable(ctx, t));
  if (buffer) body.streamingBuffer = { estimatedRows: buffer.estimatedRows, estimatedBytes: buffer.estimatedBytes, oldestEntryTime: buffer.oldestEntryTime };
  return body;
}

export function tablesRoutes(app: FastifyInstance, ctx: RestContext): void {
  const cat = ctx.engine.catalog;
  type Req = FastifyRequest<{ Params: PathParams; Querystring: Record<string, string>; Body: unknown }>;

  app.post('/projects/:projectId/datasets/:datasetId/tables', async (req: Req) => {
    const body = objectBody<RequestBodies['bigquery.tables.insert']>(req.body);
    checkResourceMetadata(body);
    const projectId = body.tableReference?.projectId ?? req.params.projectId;
    const datasetId = body.tableReference?.datasetId ?? req.params.datasetId;
    const tableId = checkTableId(body.tableReference?.tableId);
    requireDataset(ctx, projectId, datasetId);
    if (cat.getTable(projectId, datasetId, tableId)) throw BigQueryError.alreadyExists('Table', `${projectId}:${datasetId}.${tableId}`);
    const ref = { projectId, datasetId, tableId };
    let t: TableMeta;
    if (body.view?.query) {
      if (body.view.useLegacySql === true) throw BigQueryError.notSupported('Legacy SQL views', { in: 'request', verb: 'are' });
      const a = await ctx.engine.statements.analyze(String(body.view.query), 0, { projectId }, {});
      if (a.stmt.kind !== 'QueryStmt') throw BigQueryError.viewQueryNotSelect();
      const now = Date.now();
      t = {
        ...ref,
        type: 'VIEW',
        duckName: '',
        columns: resultFields(a.stmt.outputColumnList ?? []).map((f) => ({ name: f.name, type: f.type, required: false })),
        viewQuery: String(body.view.query),
        creationTime: now,
        lastModifiedTime: now,
        // The dataset's default table expiration applies to views too (BigQuery "Manage logical views").
        fields: withDatasetDefaults(ctx.engine, ref, settable(body), now),
      };
      await cat.putTable(t);
    } else t = await createStoredTable(ctx.engine, ref, await withDefaultSql(ctx.engine, ref.projectId, schemaColumns(body.schema)), settable(body));
    return tableResource(ctx.baseUrl(), t, 0, undefined, locationOfTable(ctx, t));
  });

  app.get('/projects/:projectId/datasets/:datasetId/tables/:tableId', async (req: Req) => {
    // A query job's anonymous result table (src/server/rest/anonymous-tables.ts).
    if (isAnonymousDataset(req.params.datasetId)) return anonymousTableResource(ctx, req.params, req.query.view);
    const t = requireTable(ctx, req.params.projectId, req.params.datasetId, req.params.tableId);
    return tableResourceWithStats(ctx, t, req.query.view);
  });

  app.get('/projects/:projectId/datasets/:datasetId/tables', async (req: Req) => {
    requireDataset(ctx, req.params.projectId, req.params.datasetId);
    const all = cat.listTables(req.params.projectId, req.params.datasetId);
    const start = offsetOfToken(req.query.pageToken) ?? 0;
    const max = intParam(req.query.maxResults, 'maxResults') ?? 1000;
    const page = all.slice(start, start + max);
    const out: Record<string, unknown> = { kind: 'bigquery#tableList', etag: '', tables: await jsonArrayYielding(page, tableListItem), totalItems: all.length };
    const listed = (out.tables as ListPageJson).count;
    if (start + listed < all.length) out.nextPageToken = pageToken(start + listed);
    return out;
  });

  const modify = (replace: boolean) => async (req: Req) => {
    const t = requireTable(ctx, req.params.projectId, req.params.datasetId, req.params.tableId);
    const ifMatch = req.headers['if-match'];
    if (ifMatch && ifMatch !== '*' && ifMatch !== tableResource(ctx.baseUrl(), t, 0, undefined, locationOfTable(ctx, t)).etag) throw BigQueryError.preconditionFailed();
    const body = objectBody<RequestBodies['bigquery.tables.patch']>(req.body);
    checkResourceMetadata(body);
    let columns = t.columns;
    if (body.schema?.fields && t.type === 'TABLE') columns = await evolveSchema(ctx, t, schemaColumns(body.schema));
    const fields = replace ? settable(body) : { ...t.fields, ...settable(body) };
    for (const k of Object.keys(body)) if ((body as Record<string, unknown>)[k] === null) delete fields[k];
    const nt: TableMeta = { ...t, columns, fields, lastModifiedTime: Math.max(Date.now(), t.lastModifiedTime + 1) };
    if (body.view?.query && t.type === 'VIEW') nt.viewQuery = String(body.view.query);
    await cat.putTable(nt);
    return tableResourceWithStats(ctx, nt);
  };
  app.patch('/projects/:projectId/datasets/:datasetId/tables/:tableId', modify(false));
  app.put('/projects/:projectId/datasets/:datasetId/tables/:tableId', modify(true));

  app.delete('/projects/:projectId/datasets/:datasetId/tables/:tableId', async (req: Req, reply) => {
    const t = requireTable(ctx, req.params.projectId, req.params.datasetId, req.params.tableId);
    await dropTableObject(ctx.engine, t);
    reply.status(204).send();
  });
}

/**
 * Applies a patched schema: new columns are added (NULLABLE or REPEATED only), REQUIRED may be
 * relaxed to NULLABLE; dropping or retyping a column is BigQuery's 400 `invalid`.
 */
async function evolveSchema(ctx: RestContext, t: TableMeta, next: Column[]): Promise<Column[]> {
  const byName = new Map(next.map((c) => [c.name.toLowerCase(), c]));
  const mismatch = (detail: string) => BigQueryError.schemaMismatch(`${t.projectId}:${t.datasetId}.${t.tableId}`, detail);
  const modeName = (c: Column) => (c.type.kind === 'ARRAY' ? 'REPEATED' : c.required ? 'REQUIRED' : 'NULLABLE');
  const stmts: string[] = [];
  for (const old of t.columns) {
    const c = byName.get(old.name.toLowerCase());
    // BigQuery's texts: "… Field x is missing in new schema" (mozilla/mozilla-schema-generator#100),
    // "… Field x has changed type from STRING to INTEGER" (legacy REST type names), "… Field x has
    // changed mode from NULLABLE to REPEATED".
    if (!c) throw mismatch(`Field ${old.name} is missing in new schema`);
    if ((old.type.kind === 'ARRAY') !== (c.type.kind === 'ARRAY'))
      throw mismatch(`Field ${old.name} has changed mode from ${modeName(old)} to ${modeName(c)}`);
    if (JSON.stringify(c.type) !== JSON.stringify(old.type))
      throw mismatch(`Field ${old.name} has changed type from ${fieldFromColumn(old).type} to ${fieldFromColumn(c).type}`);
    // Type parameters may only be relaxed (STRING(10) → STRING(20) or STRING), as with ALTER COLUMN SET DATA TYPE.
    if (paramsKey(c) !== paramsKey(old)) {
      try {
        checkSetDataType(old, c.type, c);
      } catch {
        throw mismatch(`Field ${old.name} has changed type from ${columnTypeSql(old.type, old)} to ${columnTypeSql(c.type, c)}`);
      }
    }
    if (old.required && !c.required) stmts.push(`ALTER TABLE "${t.duckName}" ALTER COLUMN "${old.name}" DROP NOT NULL`);
  }
  const oldNames = new Set(t.columns.map((c) => c.name.toLowerCase()));
  for (const c of next)
    if (!oldNames.has(c.name.toLowerCase())) {
      if (c.required) throw mismatch(`Cannot add required fields to an existing schema. (field: ${c.name})`);
      stmts.push(`ALTER TABLE "${t.duckName}" ADD COLUMN "${c.name.replace(/"/g, '""')}" ${duckType(c.type)}`);
    }
  // A column that is (or became) TIMESTAMP(12) gets its picosecond companion (src/engine/picos-storage.ts).
  for (const c of next) if (isPicosColumn(c)) stmts.push(addPicosColumnSql(t.duckName, c));
  if (stmts.length) await ctx.engine.db.transaction(stmts);
  return next;
}

/** The location of a table: its dataset's (src/types/locations.ts). */
function locationOfTable(ctx: RestContext, t: TableMeta): string {
  return datasetLocation(ctx.engine.catalog.getDataset(t.projectId, t.datasetId));
}
