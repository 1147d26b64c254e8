/**
 * The emulator process: engine + job manager + the REST server (fastify) on `host:port`, serving
 * BigQuery REST v2 under both `/bigquery/v2/projects/…` and `/projects/…` (DESIGN §4, §7).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { Engine } from '../engine/engine.js';
import { JobManager, type ResultLimits } from '../jobs/jobs.js';
import { BigQueryError } from '../errors/errors.js';
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

/** Parses a JSON body; malformed JSON is BigQuery's 400 `invalid`, never a 5xx. */
function parseJsonBody(body: string): unknown {
  if (!body || !body.trim()) return {};
  try {
    return JSON.parse(body);
  } catch (e) {
    throw BigQueryError.invalid(`Invalid JSON payload received. ${(e as Error).message}`);
  }
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
  const jobs = new JobManager(engine, projectId, opts.resultLimits ?? {}, opts.sessionIdleMs, opts.maxRunningJobs);
  await jobs.load();
  engine.jobsProvider = (p) => jobs.list(p).flatMap((j) => [j, ...(j.childJobIds?.length ? jobs.list(p, { parentJobId: j.jobId }) : [])]);
  engine.catalog.touchProject(projectId);
  if (opts.dataset && !engine.catalog.getDataset(projectId, opts.dataset)) {
    const now = Date.now();
    await engine.catalog.putDataset({ projectId, datasetId: opts.dataset, creationTime: now, lastModifiedTime: now, fields: {} });
  }
  const app = Fastify({ logger: opts.quiet === false ? { level: 'info' } : false, bodyLimit: 1024 * 1024 * 1024 });
  app.setReplySerializer(serializeReply);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
    let e: BigQueryError;
    if (err instanceof BigQueryError) e = err;
    else if ((err as { statusCode?: number }).statusCode && (err as { statusCode: number }).statusCode < 500)
      e = BigQueryError.invalid(err.message);
    else {
      app.log.error(err);
      e = BigQueryError.internal(err.message);
    }
    reply.status(e.httpStatus).header('content-type', 'application/json; charset=UTF-8').send(e.toEnvelope());
  });
  app.setNotFoundHandler((req, reply) => {
    const e = BigQueryError.notFound(`Not found: ${req.method} ${req.url}`);
    reply.status(404).send(e.toEnvelope());
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
  const host = opts.host ?? '127.0.0.1';
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
