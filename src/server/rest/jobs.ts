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
    // No `rows` key on an empty page (recorded page_empty_result_set, page_max_results_zero).
    if (enc.rows.length) out.rows = enc.rows;
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
        // projection=minimal: "Does not include the job configuration" (discovery); the recorded
        // minimal item (job_list_in_project) is {id, kind, jobReference, state, statistics, status}.
        const item: Record<string, unknown> = { kind: r.kind, id: r.id, jobReference: r.jobReference, state: j.state, statistics: r.statistics, status: r.status };
        if (String(req.query.projection ?? 'full').toLowerCase() !== 'minimal') {
          item.configuration = r.configuration;
          item.user_email = r.user_email;
          item.principal_subject = r.principal_subject;
        }
        if (j.error) item.errorResult = j.error.toErrorProto();
        return item;
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
    // Recorded jobs.delete answer (job_delete): HTTP 200 with an empty JSON object.
    reply.status(200).send({});
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
    // QueryResponse fields beyond GetQueryResultsResponse, as recorded (page_total_rows_in_response).
    out.totalBytesBilled = '0';
    out.location = j.location;
    out.creationTime = String(j.creationTime);
    if (body.dryRun) {
      // Recorded dryrun_simple_query: jobReference without jobId; no rows, totalRows, queryId, startTime.
      out.jobReference = { projectId: j.projectId, location: j.location };
      delete out.rows;
      delete out.totalRows;
      delete out.pageToken;
      ctx.jobs.delete(j.projectId, j.jobId);
    } else {
      out.queryId = j.jobId;
      out.jobCreationReason = { code: 'REQUESTED' };
      if (j.startTime) out.startTime = String(j.startTime);
    }
    if (j.endTime) out.endTime = String(j.endTime);
    return out;
  });

  app.get('/projects/:projectId/queries/:jobId', async (req: Req) => {
    const j = ctx.jobs.get(req.params.projectId, req.params.jobId);
    return { etag: '', ...resultPage(ctx, j, req.query, 'bigquery#getQueryResultsResponse') };
  });
}
