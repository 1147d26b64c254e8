/**
 * datasets: insert, get, list (`all`, `filter` by label, paging), patch, update (`If-Match` →
 * 412 on a stale etag), delete (`deleteContents`), undelete (src/engine/dataset-undelete.ts). Source: Dataset / DatasetList in
 * src/server/rest/bigquery-v2-discovery.json; messages as recorded (fixtures rest_crud/error_*).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BigQueryError } from '../../errors/errors.js';
import type { DatasetMeta } from '../../catalog/store.js';
import { dropDataset } from '../../engine/ddl.js';
import { undeleteDataset } from '../../engine/dataset-undelete.js';
import { datasetListItem, datasetResource, offsetOfToken, pageToken } from '../../wire/resources.js';
import { jsonArrayYielding, ListItemJsonCache, type ListPageJson } from '../../wire/list-pages.js';
import { intParam, objectBody, requireDataset, type PathParams, type RestContext } from './context.js';
import type { Dataset, RequestBodies, RequestJson } from '../../types/generated/bigquery-v2.js';
import { DEFAULT_LOCATION, isLocationName, normalizeLocation } from '../../types/locations.js';
import { checkResourceMetadata } from './metadata-limits.js';

const READ_ONLY = ['kind', 'etag', 'id', 'selfLink', 'datasetReference', 'creationTime', 'lastModifiedTime', 'location', 'type'];

/** The client-settable fields of a Dataset body. */
function settable(body: Dataset<RequestJson>): Record<string, unknown> {
  const f: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!READ_ONLY.includes(k) && v !== undefined) f[k] = v;
  return f;
}

/** Dataset ids: letters, digits and underscores, at most 1024 characters. */
export function checkDatasetId(id: unknown): string {
  if (typeof id !== 'string' || !id) throw BigQueryError.requiredParameterMissing('datasetReference.datasetId');
  if (!/^[A-Za-z0-9_]{1,1024}$/.test(id))
    throw BigQueryError.invalidDatasetId(id);
  return id;
}

/**
 * The location a new dataset lives in: the body's `location` (BigQuery's spelling: `US`, `EU`,
 * `asia-northeast1`), else US.
 * @throws BigQueryError invalid for a value that is no location name.
 */
function locationOfBody(location: unknown): string {
  if (location === undefined || location === null || location === '') return DEFAULT_LOCATION;
  if (typeof location !== 'string' || !isLocationName(location)) throw BigQueryError.invalidValue('location', String(location), 'location');
  return normalizeLocation(location);
}

/** Label filter `labels.k:v labels.k2` (all must hold). */
function matchesFilter(labels: Record<string, string> | undefined, filter: string | undefined): boolean {
  if (!filter) return true;
  return filter
    .split(/\s+(?:AND\s+)?/i)
    .filter(Boolean)
    .every((term) => {
      const m = /^labels\.([^:]+)(?::(.*))?$/.exec(term);
      if (!m) return false;
      const v = labels?.[m[1]];
      return v !== undefined && (m[2] === undefined || m[2] === v);
    });
}

export function datasetsRoutes(app: FastifyInstance, ctx: RestContext): void {
  const cat = ctx.engine.catalog;
  // A DatasetMeta is replaced, never changed in place (src/catalog/store.ts putDataset), so its
  // list item's bytes can be kept for as long as the record is the current one.
  const listedDatasets = new ListItemJsonCache<DatasetMeta>(() => true).forKey('');
  type Req = FastifyRequest<{ Params: PathParams; Querystring: Record<string, string>; Body: unknown }>;

  app.post('/projects/:projectId/datasets', async (req: Req) => {
    const body = objectBody<RequestBodies['bigquery.datasets.insert']>(req.body);
    checkResourceMetadata(body);
    const ref = body.datasetReference ?? {};
    const projectId = ref.projectId ?? req.params.projectId;
    const datasetId = checkDatasetId(ref.datasetId);
    if (cat.getDataset(projectId, datasetId)) throw BigQueryError.alreadyExists('Dataset', `${projectId}:${datasetId}`);
    const now = Date.now();
    const d = { projectId, datasetId, creationTime: now, lastModifiedTime: now, location: locationOfBody(body.location), fields: settable(body) };
    await cat.putDataset(d);
    return datasetResource(ctx.baseUrl(), d);
  });

  app.get('/projects/:projectId/datasets/:datasetId', async (req: Req) =>
    datasetResource(ctx.baseUrl(), requireDataset(ctx, req.params.projectId, req.params.datasetId)),
  );

  app.get('/projects/:projectId/datasets', async (req: Req) => {
    const q = req.query;
    // `all`: "Whether to list all datasets, including hidden ones" (discovery); hidden = the id starts with "_".
    const includeHidden = String(q.all) === 'true';
    const all = cat
      .listDatasets(req.params.projectId)
      .filter((d) => (includeHidden || !d.datasetId.startsWith('_')) && matchesFilter(d.fields.labels as Record<string, string>, q.filter));
    const start = offsetOfToken(q.pageToken) ?? 0;
    const max = intParam(q.maxResults, 'maxResults') ?? 1000;
    const page = all.slice(start, start + max);
    const out: Record<string, unknown> = { kind: 'bigquery#datasetList', etag: '', datasets: await jsonArrayYielding(page, datasetListItem, undefined, listedDatasets) };
    const listed = (out.datasets as ListPageJson).count;
    if (start + listed < all.length) out.nextPageToken = pageToken(start + listed);
    return out;
  });

  const modify = (replace: boolean) => async (req: Req) => {
    const d = requireDataset(ctx, req.params.projectId, req.params.datasetId);
    const ifMatch = req.headers['if-match'];
    if (ifMatch && ifMatch !== '*' && ifMatch !== datasetResource(ctx.baseUrl(), d).etag) throw BigQueryError.preconditionFailed();
    const body = objectBody<RequestBodies['bigquery.datasets.patch']>(req.body);
    checkResourceMetadata(body);
    const fields = replace ? settable(body) : { ...d.fields, ...settable(body) };
    for (const [k, v] of Object.entries(fields)) if (v === null) delete fields[k];
    if (!replace && body.labels && typeof d.fields.labels === 'object') {
      const labels: Record<string, unknown> = { ...(d.fields.labels as object), ...body.labels };
      for (const [k, v] of Object.entries(labels)) if (v === null) delete labels[k];
      fields.labels = labels;
    }
    const nd = { ...d, fields, lastModifiedTime: Math.max(Date.now(), d.lastModifiedTime + 1) };
    await cat.putDataset(nd);
    return datasetResource(ctx.baseUrl(), nd);
  };
  app.patch('/projects/:projectId/datasets/:datasetId', modify(false));
  app.put('/projects/:projectId/datasets/:datasetId', modify(true));

  app.delete('/projects/:projectId/datasets/:datasetId', async (req: Req, reply) => {
    const { projectId, datasetId } = req.params;
    requireDataset(ctx, projectId, datasetId);
    // BigQuery: 400 `Dataset p:d is still in use`, reason resourceInUse (hashicorp/terraform-provider-google#6688);
    // routines count as contents too.
    await dropDataset(ctx.engine, projectId, datasetId, String(req.query.deleteContents) === 'true');
    reply.status(204).send();
  });

  // datasets.undelete (`datasets/d:undelete`; the pattern keeps the id apart from the `:undelete` suffix).
  app.post('/projects/:projectId/datasets/:datasetId(^[^:]+)::undelete', async (req: Req) => {
    const body = (req.body ?? {}) as RequestBodies['bigquery.datasets.undelete'];
    if (body.deletionTime != null) throw BigQueryError.undeleteByDeletionTimeNotSupported();
    return datasetResource(ctx.baseUrl(), await undeleteDataset(ctx.engine, req.params.projectId, req.params.datasetId));
  });
}
