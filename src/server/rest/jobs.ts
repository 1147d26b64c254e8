/**
 * jobs: insert (query jobs), get, list, cancel, delete; queries: jobs.query (synchronous) and
 * jobs.getQueryResults (`maxResults`, `pageToken`, `startIndex`, `timeoutMs`). A failed query
 * answers jobs.query and getQueryResults with the job's error envelope; jobs.get shows it in
 * `status.errorResult`. Source: api/bigquery-v2-discovery.json (Job, QueryRequest, QueryResponse,
 * GetQueryResultsResponse, JobList, JobCancelResponse).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { JobRecord } from '../../jobs/jobs.js';
import { encodeRows, offsetOfToken, pageToken } from '../../wire/resources.js';
import { jobResource, jobStatistics } from '../../wire/jobs.js';
import { intParam, objectBody, type PathParams, type RestContext } from './context.js';
import { BigQueryError } from '../../errors/errors.js';

const DEFAULT_PAGE = 100_000;

/** The QueryRequest fields that belong in configuration.query. */
const QUERY_FIELDS = ['query', 'useLegacySql', 'defaultDataset', 'parameterMode', 'queryParameters', 'useQueryCache', 'maximumBytesBilled', 'createSession', 'connectionProperties', 'priority'];

/** Result page (rows, schema, totals) of a finished job in REST form. */
function resultPage(ctx: RestContext, j: JobRecord, q: Record<string, unknown>, kind: string): Record<string, unknown> {
  if (j.error) throw j.error;
  const start = offsetOfToken(q.pageToken as string) ?? intParam(q.startIndex, 'startIndex') ?? 0;
  const max = intParam(q.maxResults, 'maxResults') ?? DEFAULT_PAGE;
  const page = ctx.jobs.page(j, start, max);
  const useInt64Timestamp = (q.formatOptions as { useInt64Timestamp?: boolean } | undefined)?.useInt64Timestamp === true || String(q['formatOptions.useInt64Timestamp']) === 'true';
  const stats = jobStatistics(j).query as Record<string, unknown>;
  const out: Record<string, unknown> = {
    kind,
    jobReference: { projectId: j.projectId, jobId: j.jobId, location: j.location },
    totalBytesProcessed: '0',
    jobComplete: true,
    cacheHit: false,
  };
  if (j.result?.schema) {
    const enc = encodeRows(page.fields, page.rows, { useInt64Timestamp });
    out.schema = enc.schema;
    out.rows = enc.rows;
    out.totalRows = String(page.total);
    if (page.next !== undefined) out.pageToken = pageToken(page.next);
  }
  if (stats.numDmlAffectedRows !== undefined) {
    out.numDmlAffectedRows = stats.numDmlAffectedRows;
    out.dmlStats = stats.dmlStats;
  }
  if (j.sessionId) out.sessionInfo = { sessionId: j.sessionId };
  return out;
}

export function jobsRoutes(app: FastifyInstance, ctx: RestContext): void {
  type Req = FastifyRequest<{ Params: PathParams; Querystring: Record<string, string>; Body: unknown }>;
  const base = () => ctx.baseUrl();

  app.post('/projects/:projectId/jobs', async (req: Req) => {
    const j = await ctx.jobs.insert(req.params.projectId, objectBody(req.body));
    return jobResource(base(), j);
  });

  app.get('/projects/:projectId/jobs/:jobId', async (req: Req) => jobResource(base(), ctx.jobs.get(req.params.projectId, req.params.jobId)));

  app.get('/projects/:projectId/jobs', async (req: Req) => {
    const all = ctx.jobs.list(req.params.projectId).filter((j) => !req.query.stateFilter || String(req.query.stateFilter).toUpperCase().split(',').includes(j.state));
    const start = offsetOfToken(req.query.pageToken) ?? 0;
    const max = intParam(req.query.maxResults, 'maxResults') ?? 1000;
    const page = all.slice(start, start + max);
    const out: Record<string, unknown> = {
      kind: 'bigquery#jobList',
      etag: '',
      jobs: page.map((j) => {
        const r = jobResource(base(), j);
        return { kind: r.kind, id: r.id, jobReference: r.jobReference, state: j.state, configuration: r.configuration, statistics: r.statistics, status: r.status, user_email: r.user_email, errorResult: j.error?.toErrorProto() };
      }),
    };
    if (start + page.length < all.length) out.nextPageToken = pageToken(start + page.length);
    return out;
  });

  app.post('/projects/:projectId/jobs/:jobId/cancel', async (req: Req) => ({
    kind: 'bigquery#jobCancelResponse',
    job: jobResource(base(), ctx.jobs.get(req.params.projectId, req.params.jobId)),
  }));

  app.delete('/projects/:projectId/jobs/:jobId/delete', async (req: Req, reply) => {
    ctx.jobs.delete(req.params.projectId, req.params.jobId);
    reply.status(204).send();
  });

  app.post('/projects/:projectId/queries', async (req: Req) => {
    const body = objectBody(req.body);
    if (typeof body.query !== 'string') throw BigQueryError.invalid('Required parameter is missing: query', 'query');
    const query: Record<string, unknown> = {};
    for (const k of QUERY_FIELDS) if (body[k] !== undefined) query[k] = body[k];
    if (query.useLegacySql === undefined) query.useLegacySql = false;
    const configuration: Record<string, unknown> = { query };
    if (body.dryRun) configuration.dryRun = true;
    if (body.labels) configuration.labels = body.labels;
    if (body.jobTimeoutMs) configuration.jobTimeoutMs = body.jobTimeoutMs;
    const jobId = body.dryRun ? undefined : `job_${randomUUID().replace(/-/g, '_')}`;
    const j = await ctx.jobs.insert(req.params.projectId, { jobReference: { jobId, location: body.location }, configuration });
    const out = resultPage(ctx, j, { maxResults: body.maxResults, formatOptions: body.formatOptions }, 'bigquery#queryResponse');
    out.queryId = j.jobId;
    if (body.dryRun) {
      delete out.jobReference;
      delete out.rows;
      delete out.totalRows;
      ctx.jobs.delete(j.projectId, j.jobId);
    }
    return out;
  });

  app.get('/projects/:projectId/queries/:jobId', async (req: Req) => {
    const j = ctx.jobs.get(req.params.projectId, req.params.jobId);
    return { etag: '', ...resultPage(ctx, j, req.query, 'bigquery#getQueryResultsResponse') };
  });
}
