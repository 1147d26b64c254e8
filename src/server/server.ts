/**
 * The emulator process: engine + job manager + the REST server (fastify) on `host:port`, serving
 * BigQuery REST v2 under both `/bigquery/v2/projects/…` and `/projects/…` (docs/ARCHITECTURE.md §5, §7).
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { Engine } from '../engine/engine.js';
import { JobManager, type ResultLimits } from '../jobs/jobs.js';
import { BigQueryError } from '../errors/errors.js';
import { setAllowedLocalDirs } from '../jobs/source-uris.js';
import { dropOrphanedStages } from '../jobs/destination.js';
import { configureStreamingBuffer } from '../engine/streaming-buffer.js';
import { beginRequest, endRequest } from '../engine/duckdb/native-memory.js';
import { DEFAULT_GRPC_PORT, resolveConfig, type EmulatorConfig } from '../config/config.js';
import { createLogger, type Logger } from '../config/logger.js';
import { setJsUdfLimits } from '../config/limits.js';
import { SHUTDOWN_GRACE_MS } from '../config/timeouts.js';
import { MAX_PATH_PARAM_CHARS, MAX_REQUEST_BYTES, MAX_UPLOAD_REQUEST_BYTES } from '../config/request-limits.js';
import { API_BASE_PATH, sentCallbacks, serializeReply } from '../wire/resources.js';
import { streamLargeReplies } from './reply-chunks.js';
import type { RestContext } from './rest/context.js';
import { projectsRoutes } from './rest/projects.js';
import { datasetsRoutes } from './rest/datasets.js';
import { tablesRoutes } from './rest/tables.js';
import { routinesRoutes } from './rest/routines.js';
import { rowAccessPoliciesRoutes } from './rest/row-access-policies.js';
import { modelsRoutes } from './rest/models.js';
import { iamPoliciesRoutes } from './rest/iam-policies.js';
import { tabledataRoutes } from './rest/tabledata.js';
import { jobsRoutes } from './rest/jobs.js';
import { uploadsRoutes } from './rest/uploads.js';
import { discoveryRoutes } from './rest/discovery.js';
import { consoleRoutes } from './console.js';
import { parseJsonBodyYielding } from './rest/json-body.js';
import { readBodyText } from './rest/request-body.js';
import { addRequestValidation } from './rest/request-validation.js';
import { networkGuards } from './rest/network-guards.js';
import { requireAuth } from './rest/require-auth.js';
import { oauthTokenRoutes } from './rest/oauth-token.js';
import { loadSeedData, readSeedFile } from './seed-data.js';
import { clientError, drainRequestBody, frameworkError } from './rest/framework-errors.js';
import { cappedEnvelope } from './rest/reference-ids.js';
import { startGrpcServer } from './grpc/grpc-server.js';

const API_PROJECTS = `${API_BASE_PATH}/projects`;

/**
 * The path a REST request is routed by: a path under `/bigquery/v2/projects` without the base path
 * (fastify's `rewriteUrl`), any other path as sent. The API's routes are registered once, without
 * the base path, and served with and without it. Registering them under both prefixes cost 20–50 ms
 * of the median cold start (bench/results/2026-11-27-memory-and-start.md §4). `request.originalUrl` keeps
 * the path as sent.
 */
export function routedPath(url: string): string {
  if (!url.startsWith(API_PROJECTS)) return url;
  const next = url.charCodeAt(API_PROJECTS.length);
  // `/bigquery/v2/projects`, `/bigquery/v2/projects/…`, `/bigquery/v2/projects?…`, not `/bigquery/v2/projectsX`.
  return Number.isNaN(next) || next === 0x2f || next === 0x3f ? url.slice(API_BASE_PATH.length) : url;
}

/**
 * Options of an embedded emulator: any knob of `EmulatorConfig` (src/config/config.ts; absent ones
 * take their defaults through the same resolver as `bqemu serve`), plus what only code can pass.
 */
export interface EmulatorOptions extends Partial<EmulatorConfig> {
  /** Log nothing but errors (the default when embedded); `false` also logs every request (as `--log`). */
  quiet?: boolean;
  /** How many finished jobs' result rows are kept (src/jobs/jobs.ts ResultLimits); older results expire. */
  resultLimits?: Partial<ResultLimits>;
  /**
   * Where the structured log goes (default: standard output when `quiet === false` or a `logLevel`
   * is given, else standard error).
   */
  logStream?: NodeJS.WritableStream;
  /** A logger to use instead of creating one (the CLI passes its own). */
  logger?: Logger;
}

export interface Emulator {
  url: string;
  projectId: string;
  engine: Engine;
  app: FastifyInstance;
  /** The configuration the emulator runs with (options, environment and defaults resolved). */
  config: EmulatorConfig;
  /** The emulator's structured logger. */
  log: Logger;
  /** The bound port of the gRPC Storage Read and Write APIs (src/server/grpc/). */
  grpcPort: number;
  /** `host:port` of the gRPC Storage Read and Write APIs. */
  grpcAddress: string;
  close(): Promise<void>;
}

/**
 * Starts the emulator with `opts` resolved into one EmulatorConfig (src/config/config.ts).
 * @throws ConfigError when a process-wide environment variable (BQEMU_GCS_DIR, BQEMU_LOG_LEVEL) cannot be used;
 *   an Error if the port is taken or the analyzer cannot start.
 */
export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const { quiet, resultLimits, logStream, logger, ...knobs } = opts;
  // Embedded, only errors are logged (a 5xx from a handler is a bug worth its stack) unless asked.
  const config = resolveConfig({ logRequests: quiet === false, ...knobs }, { defaultLogLevel: quiet === false ? 'info' : 'error' });
  const log = logger ?? createLogger(config.logLevel, logStream ?? (quiet === false || opts.logLevel ? process.stdout : process.stderr), config.logFormat);
  // Read before anything starts, so a bad seed file fails fast.
  const seed = config.dataFromYaml ? await readSeedFile(config.dataFromYaml) : undefined;
  const projectId = config.projectId;
  setJsUdfLimits({ timeoutMs: config.jsUdfTimeoutMs, memoryMb: config.jsUdfMemoryMb });
  const engine = await Engine.start({
    dataDir: config.dataDir,
    database: { memoryLimit: config.memoryLimit, tempDirectory: config.tempDirectory },
    maxResponseBytes: config.maxResponseBytes,
    gcsDir: config.gcsDir,
    storageEmulatorHost: config.storageEmulatorHost,
    log,
  });
  setAllowedLocalDirs(engine, config.allowLocalFiles);
  configureStreamingBuffer(engine, { seconds: config.streamingBufferSeconds });
  const jobs = new JobManager(engine, projectId, resultLimits ?? {}, config.sessionIdleMs, config.maxRunningJobs, log);
  // Result staging tables of jobs a crash cut short (src/jobs/destination.ts), before any job runs.
  if (engine.db.persistent) await dropOrphanedStages(engine);
  await jobs.load();
  engine.jobsProvider = (p) => jobs.list(p).flatMap((j) => [j, ...(j.childJobIds?.length ? jobs.list(p, { parentJobId: j.jobId }) : [])]);
  engine.catalog.touchProject(projectId);
  for (const datasetId of [config.dataset ?? []].flat()) {
    if (engine.catalog.getDataset(projectId, datasetId)) continue;
    const now = Date.now();
    await engine.catalog.putDataset({ projectId, datasetId, creationTime: now, lastModifiedTime: now, fields: {} });
  }
  const host = config.host;
  // Fastify logs through the same logger; its per-request lines only with --log (logRequests).
  const app = Fastify({
    loggerInstance: log.child({ component: 'server' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
    // Without --log a request logs only a handler's bug (below, with its request id): its logger is
    // the server's own rather than a pino child per request, which cost ~75 µs of every request
    // (CPU profile of 2,500 small queries, 2026-11-27).
    ...(config.logRequests ? {} : { childLoggerFactory: (logger: FastifyBaseLogger) => logger }),
    bodyLimit: MAX_REQUEST_BYTES,
    rewriteUrl: (req) => routedPath(req.url ?? '/'),
    routerOptions: { maxParamLength: MAX_PATH_PARAM_CHARS },
    clientErrorHandler: clientError,
    frameworkErrors: (err, _req, r) => {
      const e = frameworkError(err);
      const reply = r as unknown as FastifyReply;
      reply.status(e.httpStatus).header('content-type', 'application/json; charset=UTF-8').send(e.toEnvelope());
    },
  });
  // A reply holding pieces of bytes (RawJson.fromParts) serialises to a stream, which fastify sends as one.
  app.setReplySerializer(serializeReply as (payload: unknown) => string);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', async (req: FastifyRequest, payload: IncomingMessage) => parseJsonBodyYielding(await readBodyText(req, payload, req.routeOptions.bodyLimit ?? MAX_REQUEST_BYTES)));
  // Requests in flight: the forced collections of src/engine/duckdb/native-memory.ts wait for none.
  app.addHook('onRequest', (_req, reply, done) => {
    beginRequest();
    reply.raw.once('close', endRequest);
    done();
  });
  app.addHook('onRequest', networkGuards({ host, allowedHosts: config.allowedHosts, corsOrigins: config.corsOrigins }));
  if (config.requireAuth) app.addHook('onRequest', requireAuth);
  app.addHook('onRoute', addRequestValidation);
  // A streamed reply of views of kept result bytes: their owner hears when the response closes (all
  // handed to the socket, or the client gone), and only then reuses them (src/wire/encoded-rows.ts).
  app.addHook('onSend', (_req, reply, payload, done) => {
    const callbacks = sentCallbacks(payload);
    if (callbacks) reply.raw.once('close', () => callbacks.forEach((f) => f()));
    done(null, payload);
  });
  app.addHook('onSend', streamLargeReplies);
  app.setErrorHandler(async (err: Error & { statusCode?: number; code?: string }, req, reply) => {
    // An oversized body: read the rest before answering, or the client never sees the 400.
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && !(await drainRequestBody(req.raw))) reply.header('connection', 'close');
    let e: BigQueryError;
    if (err instanceof BigQueryError) e = err;
    else if ((err.statusCode ?? 500) < 500) e = frameworkError(err, req.url.startsWith('/upload/') ? MAX_UPLOAD_REQUEST_BYTES : MAX_REQUEST_BYTES);
    else {
      req.log.error({ err, reqId: req.id, method: req.method, url: req.originalUrl }, 'bug: a request handler failed unexpectedly');
      e = BigQueryError.internal(err.message);
    }
    return reply.status(e.httpStatus).header('content-type', 'application/json; charset=UTF-8').send(cappedEnvelope(e));
  });
  app.setNotFoundHandler((req, reply) => {
    const e = BigQueryError.unknownRestPath(req.method, req.originalUrl);
    reply.status(404).send(cappedEnvelope(e));
  });
  const ctx: RestContext = { engine, jobs, defaultProject: projectId, baseUrl: () => '' };
  // Served under /bigquery/v2 too (routedPath).
  await app.register(async (r) => {
    projectsRoutes(r, ctx);
    datasetsRoutes(r, ctx);
    tablesRoutes(r, ctx);
    routinesRoutes(r, ctx);
    rowAccessPoliciesRoutes(r, ctx);
    modelsRoutes(r, ctx);
    iamPoliciesRoutes(r, ctx);
    tabledataRoutes(r, ctx);
    jobsRoutes(r, ctx);
  });
  // Media uploads of load jobs (their own body parser: bytes).
  await app.register(async (r) => uploadsRoutes(r, ctx), { prefix: '/upload/bigquery/v2' });
  discoveryRoutes(app, ctx);
  // The web console at `/` (src/server/console.ts): files read at the first request.
  consoleRoutes(app);
  await oauthTokenRoutes(app);
  if (seed) {
    await loadSeedData(app, seed, { requireAuth: config.requireAuth, log }).catch(async (e: unknown) => {
      await app.close();
      engine.stop();
      throw e;
    });
  }
  // The analyzer's warm-up (Engine.warmedUp) has overlapped the start-up above; it is done before
  // the first request can arrive.
  await engine.warmedUp;
  const address = await app.listen({ host, port: config.port });
  const url = address.replace('[::1]', 'localhost');
  // An embedded emulator on a free REST port (tests) takes a free gRPC port too unless one is named.
  const grpcPort = knobs.grpcPort ?? (config.port === 0 ? 0 : config.grpcPort);
  const grpcLog = log.child({ component: 'grpc' });
  const startGrpc = (port: number) => startGrpcServer({ host, port, engine, jobs, log: grpcLog });
  const grpc = await startGrpc(grpcPort)
    .catch((e: unknown) => {
      // The default port taken (another emulator, a test run beside this one): a free port instead.
      if (grpcPort !== DEFAULT_GRPC_PORT || !/EADDRINUSE|address already in use/i.test(String((e as Error)?.message))) throw e;
      grpcLog.warn({ port: grpcPort }, 'the default gRPC port is taken; serving the Storage Read and Write APIs on a free port');
      return startGrpc(0);
    })
    .catch(async (e: unknown) => {
      await app.close();
      engine.stop();
      throw e;
    });
  log.info({ component: 'server', url, host, port: Number(new URL(url).port), grpcPort: grpc.port, projectId, dataDir: config.dataDir ?? null }, 'server listening');
  ctx.baseUrl = () => url;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    // Connections still open after the grace period (one that never sent a request is not idle to
    // Node) are closed, requests in flight with them.
    const force = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    try {
      await Promise.all([app.close(), grpc.close()]);
    } finally {
      clearTimeout(force);
    }
    engine.stop();
  };
  return { url, projectId, engine, app, config, log, grpcPort: grpc.port, grpcAddress: grpc.address, close };
}
