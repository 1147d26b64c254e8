/**
 * jobs: insert (query jobs), get, list, cancel, delete; queries: jobs.query (synchronous) and
 * jobs.getQueryResults (`maxResults`, `pageToken`, `startIndex`, `timeoutMs`). A failed query
 * answers jobs.query and getQueryResults with the job's error envelope; jobs.get shows it in
 * `status.errorResult`. Source: src/server/rest/bigquery-v2-discovery.json (Job, QueryRequest, QueryResponse,
 * GetQueryResultsResponse, JobList, JobCancelResponse).
 */
import { checkLabels } from './metadata-limits.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { JobRecord, JobState } from '../../jobs/jobs.js';
import { schemaOf, encodeRowsJson, offsetOfToken, pageToken } from '../../wire/resources.js';
import { pageRowsJson } from '../../wire/encoded-rows.js';
import { jsonArrayYielding, ListItemJsonCache, type ListPageJson } from '../../wire/list-pages.js';
import { timestampEncodeOptions, type CellEncodeOptions } from '../../wire/rest-values.js';
import { dmlStatistics, jobResource, jobStatistics } from './job-resources.js';
import { callerFromHeaders, intParam, objectBody, type PathParams, type RestContext } from './context.js';
import type { RequestBodies } from '../../types/generated/bigquery-v2.js';
import { BigQueryError } from '../../errors/errors.js';
import { JOB_INSERT_WAIT_MS, QUERY_DEFAULT_TIMEOUT_MS, QUERY_MAX_TIMEOUT_MS } from '../../config/timeouts.js';

const DEFAULT_PAGE = 100_000;

/** The QueryRequest fields that belong in configuration.query. */
const QUERY_FIELDS = ['query', 'useLegacySql', 'defaultDataset', 'parameterMode', 'queryParameters', 'useQueryCache', 'maximumBytesBilled', 'createSession', 'connectionProperties', 'priority', 'continuous'];

// Default and longest waits of jobs.query / getQueryResults, jobs.insert's wait (src/config/timeouts.ts).
const DEFAULT_TIMEOUT_MS = QUERY_DEFAULT_TIMEOUT_MS;
const MAX_TIMEOUT_MS = QUERY_MAX_TIMEOUT_MS;
const INSERT_WAIT_MS = JOB_INSERT_WAIT_MS;

const STATES = ['PENDING', 'RUNNING', 'DONE'] as const;

/** `timeoutMs` of a request (body number or query-string text), capped. */
function timeoutOf(v: unknown): number {
  return Math.min(intParam(v, 'timeoutMs') ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
}

/** A uint64 query parameter in milliseconds (jobs.list min/maxCreationTime). */
function msParam(v: unknown, name: string): number | undefined {
  if (v === undefined || v === '') return undefined;
  if (!/^\d+$/.test(String(v))) throw BigQueryError.invalidValue(name, String(v), name);
  return Number(v);
}

/** Values of a repeated query parameter (`stateFilter=done&stateFilter=running` or `done,running`). */
function repeated(v: unknown): string[] {
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return list.flatMap((x) => String(x).split(',')).map((x) => x.trim()).filter(Boolean);
}

/**
 * The cell encoding of a jobs.query body's `formatOptions` or getQueryResults' `formatOptions.*`
 * query parameters (src/wire/rest-values.ts timestampEncodeOptions).
 * @throws BigQueryError invalid for useInt64Timestamp true with a FLOAT64 or ISO8601_STRING format.
 */
export function formatOptionsOf(q: Record<string, unknown>): CellEncodeOptions {
  const body = q.formatOptions as { useInt64Timestamp?: unknown; timestampOutputFormat?: unknown } | undefined;
  if (body && typeof body === 'object') return timestampEncodeOptions(body.timestampOutputFormat, body.useInt64Timestamp);
  return timestampEncodeOptions(q['formatOptions.timestampOutputFormat'], q['formatOptions.useInt64Timestamp']);
}

/** Result page (rows, schema, totals) of a finished job in REST form. */
function resultPage(ctx: RestContext, j: JobRecord, q: Record<string, unknown>, kind: string): Record<string, unknown> {
  if (j.error) throw j.error;
  const start = offsetOfToken(q.pageToken as string) ?? intParam(q.startIndex, 'startIndex') ?? 0;
  const max = intParam(q.maxResults, 'maxResults') ?? DEFAULT_PAGE;
  const page = ctx.jobs.page(j, start, max);
  const fmt = formatOptionsOf(q);
  const out: Record<string, unknown> = {
    kind,
    jobReference: { projectId: j.projectId, jobId: j.jobId, location: j.location },
    // As jobStatistics reports it (job-resources.ts), without building the rest of the statistics.
    totalBytesProcessed: String(j.stats?.bytesProcessed ?? 0),
    jobComplete: true,
    cacheHit: false,
  };
  if (j.result?.schema) {
    out.schema = schemaOf(page.fields);
    // No `rows` key on an empty page (recorded page_empty_result_set, page_max_results_zero).
    if (page.encodedRows?.length) out.rows = pageRowsJson(page.encodedRows);
    else if (page.rows?.length) out.rows = encodeRowsJson(page.fields, page.rows, fmt);
    out.totalRows = String(page.total);
    if (page.next !== undefined) out.pageToken = pageToken(page.next);
  }
  if (j.result) Object.assign(out, dmlStatistics(j.result));
  if (j.sessionId) out.sessionInfo = { sessionId: j.sessionId };
  return out;
}

export function jobsRoutes(app: FastifyInstance, ctx: RestContext): void {
  // jobs.list items of DONE jobs (they no longer change) are serialised once (src/wire/resources.ts).
  const doneJobJson = new ListItemJsonCache<JobRecord>((j) => j.state === 'DONE');
  type Req = FastifyRequest<{ Params: PathParams; Querystring: Record<string, string | string[]>; Body: unknown }>;
  const base = () => ctx.baseUrl();

  app.post('/projects/:projectId/jobs', async (req: Req) => {
    // The job starts inside this scope, so its statements run as the request's caller (row access).
    const body = objectBody<RequestBodies['bigquery.jobs.insert']>(req.body);
    checkLabels(body.configuration?.labels);
    const j = await ctx.jobs.insert(req.params.projectId, body, undefined, { caller: callerFromHeaders(req.headers) });
    // A dry run that fails answers the error itself (there is no job to poll).
    if (j.configuration.dryRun && j.error) throw j.error;
    await ctx.jobs.waitFor(j, INSERT_WAIT_MS);
    return jobResource(base(), j);
  });

  // `location`: where the job runs; without it only US and EU jobs are found (src/jobs/jobs.ts get).
  const locationParam = (req: Req): string | undefined => {
    const l = (req.query as Record<string, unknown>).location;
    return typeof l === 'string' ? l : undefined;
  };
  app.get('/projects/:projectId/jobs/:jobId', async (req: Req) => jobResource(base(), ctx.jobs.get(req.params.projectId, req.params.jobId, locationParam(req))));

  app.get('/projects/:projectId/jobs', async (req: Req) => {
    const q = req.query as Record<string, unknown>;
    const states = repeated(q.stateFilter).map((s) => s.toUpperCase());
    for (const s of states) if (!(STATES as readonly string[]).includes(s)) throw BigQueryError.invalidValue('stateFilter', s.toLowerCase(), 'stateFilter');
    // Without `projection`, BigQuery lists the minimal projection (no configuration): the official
    // Python client and the bq CLI (clients/client_job.py) ask for projection=full for it.
    const projection = String(q.projection ?? 'minimal').toLowerCase();
    if (projection !== 'full' && projection !== 'minimal') throw BigQueryError.invalidValue('projection', String(q.projection), 'projection');
    // allUsers: every job of the emulator belongs to its one user, so all jobs are listed either way.
    const all = ctx.jobs.list(req.params.projectId, {
      states: states as JobState[],
      minCreationTime: msParam(q.minCreationTime, 'minCreationTime'),
      maxCreationTime: msParam(q.maxCreationTime, 'maxCreationTime'),
      parentJobId: typeof q.parentJobId === 'string' && q.parentJobId ? q.parentJobId : undefined,
    });
    const start = offsetOfToken(q.pageToken as string | undefined) ?? 0;
    const max = intParam(q.maxResults, 'maxResults') ?? 1000;
    const page = all.slice(start, start + max);
    const b = base();
    const out: Record<string, unknown> = {
      kind: 'bigquery#jobList',
      etag: '',
      // Serialised item by item, yielding between items (a page can hold megabytes of configuration).
      jobs: await jsonArrayYielding(page, (j) => {
        const r = jobResource(b, j);
        // projection=minimal: "Does not include the job configuration" (discovery); the recorded
        // minimal item (job_list_in_project) is {id, kind, jobReference, state, statistics, status}.
        const item: Record<string, unknown> = { kind: r.kind, id: r.id, jobReference: r.jobReference, state: j.state, statistics: r.statistics, status: r.status };
        if (projection === 'full') {
          item.configuration = r.configuration;
          item.user_email = r.user_email;
          item.principal_subject = r.principal_subject;
        }
        if (j.error) item.errorResult = j.error.toErrorProto();
        return item;
      }, undefined, doneJobJson.forKey(`${b} ${projection}`)),
    };
    const listed = (out.jobs as ListPageJson).count;
    if (start + listed < all.length) out.nextPageToken = pageToken(start + listed);
    return out;
  });

  app.post('/projects/:projectId/jobs/:jobId/cancel', async (req: Req) => {
    const job = jobResource(base(), await ctx.jobs.cancel(req.params.projectId, req.params.jobId, locationParam(req)));
    // The recorded jobCancelResponse's job has no user_email or principal_subject (job_cancel).
    delete job.user_email;
    delete job.principal_subject;
    return { kind: 'bigquery#jobCancelResponse', job };
  });

  app.delete('/projects/:projectId/jobs/:jobId/delete', async (req: Req, reply) => {
    await ctx.jobs.delete(req.params.projectId, req.params.jobId, locationParam(req));
    // Recorded jobs.delete answer (job_delete): HTTP 200 with an empty JSON object.
    reply.status(200).send({});
  });

  app.post('/projects/:projectId/queries', async (req: Req) => {
    const body = objectBody<RequestBodies['bigquery.jobs.query']>(req.body);
    checkLabels(body.labels);
    if (typeof body.query !== 'string') throw BigQueryError.requiredParameterMissing('query');
    formatOptionsOf({ formatOptions: body.formatOptions }); // a conflicting formatOptions is refused before the job starts
    const query: Record<string, unknown> = {};
    for (const k of QUERY_FIELDS) if ((body as Record<string, unknown>)[k] !== undefined) query[k] = (body as Record<string, unknown>)[k];
    if (query.useLegacySql === undefined) query.useLegacySql = false;
    const configuration: Record<string, unknown> = { query };
    if (body.dryRun) configuration.dryRun = true;
    if (body.labels) configuration.labels = body.labels;
    if (body.jobTimeoutMs) configuration.jobTimeoutMs = body.jobTimeoutMs;
    const timeoutMs = timeoutOf(body.timeoutMs);
    const projectId = req.params.projectId;
    // requestId: a retried request with the same parameters answers the job the first one created
    // (QueryRequest.requestId; dry runs are never duplicates).
    const requestId = typeof body.requestId === 'string' && body.requestId && !body.dryRun ? body.requestId : undefined;
    const fingerprint = JSON.stringify([configuration, body.location ?? null]);
    let j = requestId ? ctx.jobs.jobOfRequest(projectId, requestId, fingerprint) : undefined;
    if (!j) {
      const jobId = body.dryRun ? undefined : `job_${randomUUID().replace(/-/g, '_')}`;
      j = await ctx.jobs.insert(projectId, { jobReference: { jobId, location: body.location }, configuration }, undefined, { caller: callerFromHeaders(req.headers) });
      if (requestId) ctx.jobs.rememberRequest(projectId, requestId, fingerprint, j);
    }
    await ctx.jobs.waitFor(j, timeoutMs);
    if (j.state !== 'DONE') {
      // Not done within timeoutMs: the client polls getQueryResults with the jobReference.
      const out: Record<string, unknown> = {
        kind: 'bigquery#queryResponse',
        jobReference: { projectId: j.projectId, jobId: j.jobId, location: j.location },
        jobComplete: false,
        queryId: j.jobId,
        jobCreationReason: { code: 'REQUESTED' },
        location: j.location,
        creationTime: String(j.creationTime),
      };
      if (j.startTime) out.startTime = String(j.startTime);
      return out;
    }
    const out = resultPage(ctx, j, { maxResults: body.maxResults, formatOptions: body.formatOptions }, 'bigquery#queryResponse');
    const stats = jobStatistics(j);
    const qs = stats.query as Record<string, unknown>;
    // QueryResponse fields beyond GetQueryResultsResponse, as recorded (page_total_rows_in_response).
    out.totalBytesBilled = qs.totalBytesBilled ?? '0';
    if (qs.totalSlotMs !== undefined) out.totalSlotMs = qs.totalSlotMs;
    out.location = j.location;
    out.creationTime = String(j.creationTime);
    if (body.dryRun) {
      // Recorded dryrun_simple_query: jobReference without jobId; no rows, totalRows, queryId, startTime.
      out.jobReference = { projectId: j.projectId, location: j.location };
      delete out.rows;
      delete out.totalRows;
      delete out.pageToken;
    } else {
      out.queryId = j.jobId;
      out.jobCreationReason = { code: 'REQUESTED' };
      if (j.startTime) out.startTime = String(j.startTime);
    }
    if (j.endTime) out.endTime = String(j.endTime);
    return out;
  });

  app.get('/projects/:projectId/queries/:jobId', async (req: Req) => {
    const j = ctx.jobs.get(req.params.projectId, req.params.jobId, locationParam(req));
    const q = req.query as Record<string, unknown>;
    formatOptionsOf(q);
    await ctx.jobs.waitFor(j, timeoutOf(q.timeoutMs));
    if (j.state !== 'DONE')
      return { kind: 'bigquery#getQueryResultsResponse', etag: '', jobReference: { projectId: j.projectId, jobId: j.jobId, location: j.location }, jobComplete: false };
    // A large result is being encoded in the background: page the text once it is (not twice).
    await ctx.jobs.pageable(j);
    return { etag: '', ...resultPage(ctx, j, q, 'bigquery#getQueryResultsResponse') };
  });
}
