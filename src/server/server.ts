/**
 * The emulator process: engine + job manager + the REST server (fastify) on `host:port`, serving
 * BigQuery REST v2 under both `/bigquery/v2/projects/…` and `/projects/…` (DESIGN §4, §7).
 */
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { Engine } from '../engine/engine.js';
import { JobManager, type ResultLimits } from '../jobs/jobs.js';
import { BigQueryError } from '../errors/errors.js';
import { setAllowedLocalDirs } from '../jobs/source-uris.js';
import { MAX_PATH_PARAM_CHARS, MAX_REQUEST_BYTES, MAX_UPLOAD_REQUEST_BYTES } from '../config/request-limits.js';
import { serializeReply } from '../wire/resources.js';
import type { RestContext } from './rest/context.js';
import { projectsRoutes } from './rest/projects.js';
import { datasetsRoutes } from './rest/datasets.js';
import { tablesRoutes } from './rest/tables.js';
import { routinesRoutes } from './rest/routines.js';
import { rowAccessPoliciesRoutes } from './rest/row-access-policies.js';
import { tabledataRoutes } from './rest/tabledata.js';
import { jobsRoutes } from './rest/jobs.js';
import { uploadsRoutes } from './rest/uploads.js';
import { discoveryRoutes } from './rest/discovery.js';
import { parseJsonBody } from './rest/json-body.js';
import { addRequestValidation } from './rest/request-validation.js';
import { networkGuards } from './rest/network-guards.js';
import { clientError, drainRequestBody, frameworkError } from './rest/framework-errors.js';
import { cappedEnvelope } from './rest/reference-ids.js';

export interface EmulatorOptions {
  host?: string;
  /** REST port; 0 picks a free one. */
  port?: number;
  grpcPort?: number;
  projectId?: string;
  /** Dataset created at start (in the default project). */
  dataset?: string;
  dataDir?: string;
  quiet?: boolean;
  /** Idle lifetime of a session in ms (BigQuery: 24 hours). */
  sessionIdleMs?: number;
  /** Query jobs running at once; later jobs stay PENDING until one ends (default 16, src/jobs/slots.ts). */
  maxRunningJobs?: number;
  /** How many finished jobs' result rows are kept (src/jobs/jobs.ts ResultLimits); older results expire. */
  resultLimits?: Partial<ResultLimits>;
  /** Local directories load jobs and external tables may read `file://` / absolute-path sources from (`--allow-local-files`; src/jobs/source-uris.ts). None by default. */
  allowLocalFiles?: string[];
  /** Extra host names clients may reach the emulator by (`Host` header check); `*` allows any. */
  allowedHosts?: string[];
  /** Browser origins allowed to call the REST API (CORS); none by default. */
  corsOrigins?: string[];
  /** Where the server's log goes (default: stdout when logging requests, else errors only to stderr). */
  logStream?: NodeJS.WritableStream;
  /** DuckDB's memory limit, a size such as `4GB` (default half the machine's RAM, src/config/limits.ts). */
  memoryLimit?: string;
  /** Where DuckDB spills (default `<dataDir>/spill`, else a private directory under the OS temp directory). */
  tempDirectory?: string;
  /** Largest decoded result of one query in bytes before "Response too large to return." (default 512 MB). */
  maxResponseBytes?: number;
}

export interface Emulator {
  url: string;
  projectId: string;
  engine: Engine;
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * Starts the emulator.
 * @throws if the port is taken or the analyzer cannot start.
 */
export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const projectId = opts.projectId ?? 'test-project';
  const engine = await Engine.start({
    dataDir: opts.dataDir,
    database: { memoryLimit: opts.memoryLimit, tempDirectory: opts.tempDirectory },
    maxResponseBytes: opts.maxResponseBytes,
  });
  setAllowedLocalDirs(engine, opts.allowLocalFiles ?? []);
  const jobs = new JobManager(engine, projectId, opts.resultLimits ?? {}, opts.sessionIdleMs, opts.maxRunningJobs);
  await jobs.load();
  engine.jobsProvider = (p) => jobs.list(p).flatMap((j) => [j, ...(j.childJobIds?.length ? jobs.list(p, { parentJobId: j.jobId }) : [])]);
  engine.catalog.touchProject(projectId);
  if (opts.dataset && !engine.catalog.getDataset(projectId, opts.dataset)) {
    const now = Date.now();
    await engine.catalog.putDataset({ projectId, datasetId: opts.dataset, creationTime: now, lastModifiedTime: now, fields: {} });
  }
  const host = opts.host ?? '127.0.0.1';
  // Errors are logged even when quiet: a 5xx from a handler is a bug worth its stack (stderr).
  const app = Fastify({
    logger: { level: opts.quiet === false ? 'info' : 'error', stream: opts.logStream ?? (opts.quiet === false ? process.stdout : process.stderr) },
    bodyLimit: MAX_REQUEST_BYTES,
    routerOptions: { maxParamLength: MAX_PATH_PARAM_CHARS },
    clientErrorHandler: clientError,
    frameworkErrors: (err, _req, r) => {
      const e = frameworkError(err);
      const reply = r as unknown as FastifyReply;
      reply.status(e.httpStatus).header('content-type', 'application/json; charset=UTF-8').send(e.toEnvelope());
    },
  });
  app.setReplySerializer(serializeReply);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  app.addHook('onRequest', networkGuards({ host, allowedHosts: opts.allowedHosts, corsOrigins: opts.corsOrigins }));
  app.addHook('onRoute', addRequestValidation);
  app.setErrorHandler(async (err: Error & { statusCode?: number; code?: string }, req, reply) => {
    // An oversized body: read the rest before answering, or the client never sees the 400.
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && !(await drainRequestBody(req.raw))) reply.header('connection', 'close');
    let e: BigQueryError;
    if (err instanceof BigQueryError) e = err;
    else if ((err.statusCode ?? 500) < 500) e = frameworkError(err, req.url.startsWith('/upload/') ? MAX_UPLOAD_REQUEST_BYTES : MAX_REQUEST_BYTES);
    else {
      req.log.error({ err, method: req.method, url: req.url }, 'bug: a request handler failed unexpectedly');
      e = BigQueryError.internal(err.message);
    }
    return reply.status(e.httpStatus).header('content-type', 'application/json; charset=UTF-8').send(cappedEnvelope(e));
  });
  app.setNotFoundHandler((req, reply) => {
    const e = BigQueryError.unknownRestPath(req.method, req.url);
    reply.status(404).send(cappedEnvelope(e));
  });
  const ctx: RestContext = { engine, jobs, defaultProject: projectId, baseUrl: () => '' };
  for (const prefix of ['/bigquery/v2', '']) {
    await app.register(
      async (r) => {
        projectsRoutes(r, ctx);
        datasetsRoutes(r, ctx);
        tablesRoutes(r, ctx);
        routinesRoutes(r, ctx);
        rowAccessPoliciesRoutes(r, ctx);
        tabledataRoutes(r, ctx);
        jobsRoutes(r, ctx);
      },
      { prefix },
    );
  }
  // Media uploads of load jobs (their own body parser: bytes).
  await app.register(async (r) => uploadsRoutes(r, ctx), { prefix: '/upload/bigquery/v2' });
  discoveryRoutes(app, ctx);
  const address = await app.listen({ host, port: opts.port ?? 9050 });
  const url = address.replace('[::1]', 'localhost');
  ctx.baseUrl = () => url;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.close();
    engine.stop();
  };
  return { url, projectId, engine, app, close };
}
