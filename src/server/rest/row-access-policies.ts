/**
 * rowAccessPolicies: insert, get, list (pageSize/pageToken), update (PUT), delete, batchDelete.
 * Source: RowAccessPolicy, ListRowAccessPoliciesResponse, BatchDeleteRowAccessPoliciesRequest in
 * src/server/rest/bigquery-v2-discovery.json. `grantees` is input only: it is stored (row-level security
 * evaluates it) but never answered.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RowAccessPolicyMeta, TableMeta } from '../../catalog/store.js';
import { BigQueryError } from '../../errors/errors.js';
import { checkGrantees, checkPolicyId, checkPredicate } from '../../engine/row-access.js';
import { etagOf, offsetOfToken, pageToken } from '../../wire/resources.js';
import { intParam, objectBody, requireTable, type PathParams, type RestContext } from './context.js';
import type { RequestBodies, RowAccessPolicy } from '../../types/generated/bigquery-v2.js';

/** The REST form of a policy. */
export function rowAccessPolicyResource(p: RowAccessPolicyMeta): RowAccessPolicy {
  return {
    etag: etagOf([p.filterPredicate, p.grantees, p.lastModifiedTime]),
    rowAccessPolicyReference: { projectId: p.projectId, datasetId: p.datasetId, tableId: p.tableId, policyId: p.policyId },
    filterPredicate: p.filterPredicate,
    creationTime: new Date(p.creationTime).toISOString(),
    lastModifiedTime: new Date(p.lastModifiedTime).toISOString(),
  };
}

const fullName = (t: { projectId: string; datasetId: string; tableId: string }) => `${t.projectId}.${t.datasetId}.${t.tableId}`;

export function rowAccessPoliciesRoutes(app: FastifyInstance, ctx: RestContext): void {
  const cat = ctx.engine.catalog;
  type Params = PathParams & { policyId: string };
  type Req = FastifyRequest<{ Params: Params; Querystring: Record<string, string>; Body: unknown }>;
  const base = '/projects/:projectId/datasets/:datasetId/tables/:tableId/rowAccessPolicies';

  const tableOf = (req: Req): TableMeta => {
    const t = requireTable(ctx, req.params.projectId, req.params.datasetId, req.params.tableId);
    if (t.type !== 'TABLE') throw BigQueryError.rowAccessPoliciesOnlyOnTables(fullName(t), t.type.toLowerCase());
    return t;
  };
  const policyOf = (req: Req): RowAccessPolicyMeta => {
    const t = tableOf(req);
    const p = cat.getRowAccessPolicy(t.projectId, t.datasetId, t.tableId, req.params.policyId);
    if (!p) throw BigQueryError.rowAccessPolicyNotFound(req.params.policyId, fullName(t));
    return p;
  };

  app.post(base, async (req: Req) => {
    const t = tableOf(req);
    const body = objectBody<RequestBodies['bigquery.rowAccessPolicies.insert']>(req.body);
    const ref = body.rowAccessPolicyReference ?? {};
    const policyId = checkPolicyId(ref.policyId);
    if (cat.getRowAccessPolicy(t.projectId, t.datasetId, t.tableId, policyId))
      throw BigQueryError.rowAccessPolicyAlreadyExists(policyId, fullName(t));
    const filterPredicate = await checkPredicate(ctx.engine, t, body.filterPredicate);
    const grantees = checkGrantees(body.grantees ?? []);
    const now = Date.now();
    const p: RowAccessPolicyMeta = { projectId: t.projectId, datasetId: t.datasetId, tableId: t.tableId, policyId, filterPredicate, grantees, creationTime: now, lastModifiedTime: now };
    await cat.putRowAccessPolicy(p);
    return rowAccessPolicyResource(p);
  });

  app.get(`${base}/:policyId`, async (req: Req) => rowAccessPolicyResource(policyOf(req)));

  app.get(base, async (req: Req) => {
    const t = tableOf(req);
    const all = cat.listRowAccessPolicies(t.projectId, t.datasetId, t.tableId);
    const start = offsetOfToken(req.query.pageToken) ?? 0;
    const size = intParam(req.query.pageSize, 'pageSize') || 1000;
    const page = all.slice(start, start + size);
    const out: Record<string, unknown> = {};
    if (page.length) out.rowAccessPolicies = page.map(rowAccessPolicyResource);
    if (start + page.length < all.length) out.nextPageToken = pageToken(start + page.length);
    return out;
  });

  app.put(`${base}/:policyId`, async (req: Req) => {
    const old = policyOf(req);
    const t = tableOf(req);
    const body = objectBody<RequestBodies['bigquery.rowAccessPolicies.update']>(req.body);
    const ref = body.rowAccessPolicyReference ?? {};
    // A reference naming another policy id renames the policy.
    const policyId = ref.policyId === undefined ? old.policyId : checkPolicyId(ref.policyId);
    if (policyId !== old.policyId && cat.getRowAccessPolicy(t.projectId, t.datasetId, t.tableId, policyId))
      throw BigQueryError.rowAccessPolicyAlreadyExists(policyId, fullName(t));
    const filterPredicate = await checkPredicate(ctx.engine, t, body.filterPredicate);
    const grantees = body.grantees === undefined ? old.grantees : checkGrantees(body.grantees);
    const p: RowAccessPolicyMeta = { ...old, policyId, filterPredicate, grantees, lastModifiedTime: Math.max(Date.now(), old.lastModifiedTime + 1) };
    if (policyId !== old.policyId) await cat.deleteRowAccessPolicy(old.projectId, old.datasetId, old.tableId, old.policyId);
    await cat.putRowAccessPolicy(p);
    return rowAccessPolicyResource(p);
  });

  app.delete(`${base}/:policyId`, async (req: Req, reply) => {
    const p = policyOf(req);
    await cat.deleteRowAccessPolicy(p.projectId, p.datasetId, p.tableId, p.policyId);
    reply.status(204).send();
  });

  // `rowAccessPolicies:batchDelete` (a literal colon is written `::` in a fastify path).
  app.post(`${base}::batchDelete`, async (req: Req, reply) => {
    const t = tableOf(req);
    const body = objectBody<RequestBodies['bigquery.rowAccessPolicies.batchDelete']>(req.body);
    const ids = body.policyIds;
    if (!Array.isArray(ids) || !ids.length) throw BigQueryError.requiredParameterMissing('policyIds');
    for (const id of ids)
      if (typeof id !== 'string' || !cat.getRowAccessPolicy(t.projectId, t.datasetId, t.tableId, id))
        throw BigQueryError.rowAccessPolicyNotFound(String(id), fullName(t));
    for (const id of ids as string[]) await cat.deleteRowAccessPolicy(t.projectId, t.datasetId, t.tableId, id);
    reply.status(204).send();
  });
}
