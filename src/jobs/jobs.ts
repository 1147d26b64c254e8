/**
 * The job manager: query jobs (jobs.insert / jobs.query), their lifecycle, metadata and result pages.
 *
 * Lifecycle (DESIGN §2.1): a job is created PENDING, runs asynchronously (RUNNING) once it has a
 * running slot (slots.ts: a bounded number of jobs run at once) and ends DONE, with
 * `status.errorResult` when it failed. Execution itself is execute.ts; a SELECT job's result is its
 * anonymous table (anonymous.ts). Callers wait for it as long as they choose
 * ({@link JobManager.waitFor}: jobs.query and getQueryResults wait up to `timeoutMs`).
 * jobs.cancel interrupts the DuckDB connections running the job; the job then ends DONE with
 * BigQuery's `stopped` error. Job ids are idempotent: inserting an existing id with the same
 * configuration returns the existing job, a different configuration is 409 duplicate.
 *
 * Memory: metadata of every job stays; result rows are kept for the most recently finished jobs
 * only (a job count and a cell budget); a page of an evicted result answers BigQuery's 404 for
 * an expired anonymous result table.
 *
 * Source: REST Job / JobConfigurationQuery / JobStatistics / JobStatistics2 in
 * api/bigquery-v2-discovery.json.
 */
import { randomUUID } from 'node:crypto';
import type { Engine, ResultField, StatementResult } from '../engine/engine.js';
import { Interrupter, runInterruptible } from '../engine/duckdb/db.js';
import { BigQueryError, asBigQueryError } from '../errors/errors.js';
import type { Value } from '../types/types.js';
import { encodeRowStrings, encodingVaries } from '../wire/resources.js';
import { jobFromJson, jobToJson } from './persist.js';
import { SessionManager } from './sessions.js';
import { configKey } from './jobs-params.js';
import { AnonymousTables, anonymousDestination, anonymousTable, withoutAnonymousEcho } from './anonymous.js';
import { JobSlots, type SlotRequest } from './slots.js';
import { statementTimeoutError, validateQueryConfig } from './query-options.js';
import { executeQueryJob, newExecution } from './execute.js';
import { childJobIds, childJobs } from './children.js';
import { executeLoadJob, validateLoadConfig } from './load.js';
import { executeCopyJob, validateCopyConfig } from './copy.js';
import { executeExtractJob, validateExtractConfig } from './extract.js';
import type { JobListFilter, JobRecord, JobStats, ResultLimits } from './jobs-model.js';
import { ByteLedger, DEFAULT_MAX_RETAINED_BYTES, keptBytes, pageEnd } from './result-bytes.js';

export type { JobListFilter, JobRecord, JobState, JobStats, ResultLimits } from './jobs-model.js';
export { decodeParams } from './jobs-params.js';
export { anonymousTable } from './anonymous.js';

const DEFAULT_LIMITS: ResultLimits = { maxJobs: 1000, maxCells: 5_000_000, maxBytes: DEFAULT_MAX_RETAINED_BYTES };
/** Query jobs running at once by default; later ones stay PENDING (slots.ts). */
export const DEFAULT_MAX_RUNNING_JOBS = 16;
/** How long jobs.cancel waits for the cancelled job to stop before answering. */
const CANCEL_WAIT_MS = 2000;
/** Lifetime of a jobs.query requestId (QueryRequest.requestId: "limited to 15 minutes"). */
const REQUEST_ID_TTL_MS = 15 * 60 * 1000;

/** BigQuery's error of a cancelled job (reason `stopped`; HTTP 499 CANCELLED when a call answers it). */
export function stoppedError(): BigQueryError {
  return BigQueryError.cancelled();
}

interface Running {
  intr: Interrupter;
  cancelled: boolean;
  done: Promise<void>;
  /** The job's request for a running slot (withdrawn when it is cancelled while PENDING). */
  slot?: SlotRequest;
  /** Set to the limit when a statement ran past scriptOptions.statementTimeoutMs. */
  timedOut?: number;
}

/**
 * A page of a job's result: the rows as domain values, or (results kept encoded) as REST JSON text
 * per row; `total` counts every row, `next` is the next page's start index.
 */
export interface ResultPage {
  fields: ResultField[];
  rows?: Value[][];
  encodedRows?: string[];
  total: number;
  next?: number;
}

/** Rows in a job's result, whichever form they are kept in. */
export function resultRowCount(j: JobRecord): number {
  return j.encodedRows?.length ?? j.result?.rows?.length ?? 0;
}

/** Waits for `p` at most `ms` milliseconds. */
async function within(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, ms))))]);
  clearTimeout(timer);
}

export class JobManager {
  private jobs = new Map<string, JobRecord>();
  private running = new Map<string, Running>();
  /** Jobs whose result rows are kept, least recently finished or read first, with their cell counts. */
  private retained = new Map<string, number>();
  private retainedCells = 0;
  /** jobs.query requestIds: project + id → the job it created. */
  private requests = new Map<string, { fingerprint: string; key: string; at: number }>();
  private readonly limits: ResultLimits;
  /** Sessions (createSession / connectionProperties session_id). */
  readonly sessions: SessionManager;
  /** Anonymous result tables → their jobs (anonymous.ts). */
  private anonymous = new AnonymousTables();
  /** Running slots: jobs beyond the limit stay PENDING (slots.ts). */
  readonly slots: JobSlots;

  constructor(
    readonly engine: Engine,
    private readonly defaultProject: string,
    limits: Partial<ResultLimits> = {},
    sessionIdleMs?: number,
    maxRunningJobs = DEFAULT_MAX_RUNNING_JOBS,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.sessions = new SessionManager(engine, sessionIdleMs);
    this.slots = new JobSlots(maxRunningJobs);
  }

  private key = (p: string, j: string) => JSON.stringify([p, j]);

  /** Loads the jobs persisted in the database (with `--data-dir`). */
  async load(): Promise<void> {
    const loaded: JobRecord[] = [];
    for (const r of await this.engine.db.loadAll()) {
      if (r.kind !== 'job') continue;
      const j = jobFromJson(r.json);
      this.jobs.set(this.key(j.projectId, j.jobId), j);
      this.anonymous.add(j.projectId, j.jobId);
      loaded.push(j);
    }
    for (const j of loaded.sort((a, b) => (a.endTime ?? 0) - (b.endTime ?? 0))) this.retain(j);
  }

  /** Persists a finished job (with `--data-dir` only); results over 100,000 rows keep metadata only. */
  private async persist(j: JobRecord): Promise<void> {
    if (!this.engine.db.persistent) return;
    const big = resultRowCount(j) > 100_000;
    const rec: JobRecord = big ? { ...j, result: { ...j.result!, rows: undefined }, encodedRows: undefined, resultsExpired: true } : j;
    await this.engine.db.save('job', this.key(j.projectId, j.jobId), jobToJson(rec));
  }

  /** @throws BigQueryError notFound for an unknown job. */
  get(projectId: string, jobId: string): JobRecord {
    const j = this.jobs.get(this.key(projectId, jobId));
    if (!j) throw BigQueryError.jobNotFound(projectId, jobId);
    return j;
  }

  /** The finished or running query job whose anonymous result table `projectId:datasetId.tableId` is, if any. */
  jobOfAnonymousTable(projectId: string, datasetId: string, tableId: string): JobRecord | undefined {
    const id = this.anonymous.jobIdOf(projectId, datasetId, tableId);
    const j = id === undefined ? undefined : this.jobs.get(this.key(projectId, id));
    return j && anonymousDestination(j) ? j : undefined;
  }

  /** Jobs of a project, newest first (jobs.list). */
  list(projectId: string, f: JobListFilter = {}): JobRecord[] {
    return [...this.jobs.values()]
      .filter(
        (j) =>
          j.projectId === projectId &&
          (f.parentJobId === undefined ? !j.parentJobId : j.parentJobId === f.parentJobId) &&
          (!f.states?.length || f.states.includes(j.state)) &&
          (f.minCreationTime === undefined || j.creationTime >= f.minCreationTime) &&
          (f.maxCreationTime === undefined || j.creationTime <= f.maxCreationTime),
      )
      .sort((a, b) => b.creationTime - a.creationTime || (a.jobId < b.jobId ? 1 : -1));
  }

  /**
   * Deletes a job's metadata (and its child jobs'); a running job is cancelled first.
   * @throws BigQueryError notFound; invalid for a child job (deleted only with its parent).
   */
  async delete(projectId: string, jobId: string): Promise<void> {
    const j = this.get(projectId, jobId);
    if (j.parentJobId)
      throw BigQueryError.childJobDelete(`${projectId}:${j.location}.${jobId}`, j.parentJobId);
    if (j.state !== 'DONE') await this.cancel(projectId, jobId);
    for (const id of [...(j.childJobIds ?? []), jobId]) {
      const k = this.key(projectId, id);
      if (!this.jobs.delete(k)) continue;
      this.anonymous.remove(projectId, id);
      this.release(k);
      if (this.engine.db.persistent) await this.engine.db.save('job', k, null);
    }
  }

  /**
   * Creates a job and starts it (jobs.insert); a dry run completes before this returns. An
   * existing id with the same configuration returns the existing job.
   * @throws BigQueryError duplicate for an existing id with another configuration; invalid for a
   *   job without a query or load configuration. `uploadFile`: a media upload's data (load jobs).
   */
  async insert(projectId: string, body: Record<string, any>, uploadFile?: string): Promise<JobRecord> {
    const ref = body.jobReference ?? {};
    const jobId: string = ref.jobId ?? `job_${randomUUID().replace(/-/g, '_')}`;
    const configuration: Record<string, any> = body.configuration ?? {};
    const existing = this.jobs.get(this.key(projectId, jobId));
    if (existing) {
      if (configKey(existing.configuration) === configKey(withoutAnonymousEcho(configuration, existing))) return existing;
      throw BigQueryError.alreadyExists('Job', `${projectId}:${existing.location}.${jobId}`);
    }
    if (configuration.load && !configuration.query) validateLoadConfig(configuration, uploadFile !== undefined); // load.ts
    else if (configuration.copy && !configuration.query) validateCopyConfig(configuration); // copy.ts
    else if (configuration.extract && !configuration.query) validateExtractConfig(configuration); // extract.ts
    else {
      if (!configuration.query) throw BigQueryError.requiredParameterMissing('configuration.query', 'configuration');
      if (typeof configuration.query.query !== 'string' || !configuration.query.query.trim())
        throw BigQueryError.requiredParameterMissing('query');
      validateQueryConfig(configuration);
    }
    const job: JobRecord = { projectId, jobId, location: ref.location ?? 'US', configuration, state: 'PENDING', creationTime: Date.now(), uploadFile };
    const key = this.key(projectId, jobId);
    this.jobs.set(key, job);
    if (!configuration.dryRun && configuration.query) this.anonymous.add(projectId, jobId);
    const run: Running = { intr: new Interrupter(), cancelled: false, done: Promise.resolve() };
    this.running.set(key, run);
    // The job runs on its own (PENDING → RUNNING once it has a slot → DONE); callers wait as long as they choose.
    run.done = this.run(job, run).finally(() => this.running.delete(key));
    if (configuration.dryRun) {
      // A dry run is answered, never stored (its answer has no job id).
      await run.done;
      this.jobs.delete(key);
    }
    return job;
  }

  /** Waits until the job is DONE or `ms` passed. */
  async waitFor(job: JobRecord, ms: number): Promise<void> {
    const r = this.running.get(this.key(job.projectId, job.jobId));
    if (!r || job.state === 'DONE') return;
    await within(r.done, ms);
  }

  /**
   * Cancels a job (jobs.cancel): a running job's DuckDB work is interrupted and the job ends DONE
   * with the `stopped` error. Answers once the job stopped (or after a short wait); a finished job
   * is answered unchanged.
   */
  async cancel(projectId: string, jobId: string): Promise<JobRecord> {
    const j = this.get(projectId, jobId);
    const r = this.running.get(this.key(projectId, jobId));
    if (r && j.state !== 'DONE') {
      r.cancelled = true;
      r.intr.interrupt();
      r.slot?.withdraw();
      await within(r.done, CANCEL_WAIT_MS);
    }
    return j;
  }

  /** Cancels every running job and waits for them to stop (emulator shutdown). */
  async shutdown(): Promise<void> {
    const all = [...this.running.values()];
    for (const r of all) {
      r.cancelled = true;
      r.intr.interrupt();
      r.slot?.withdraw();
    }
    await within(Promise.all(all.map((r) => r.done)), CANCEL_WAIT_MS);
  }

  /** The job an earlier jobs.query with this requestId and the same parameters created (15 minutes). */
  jobOfRequest(projectId: string, requestId: string, fingerprint: string): JobRecord | undefined {
    const r = this.requests.get(this.key(projectId, requestId));
    if (!r || r.fingerprint !== fingerprint || Date.now() - r.at > REQUEST_ID_TTL_MS) return undefined;
    return this.jobs.get(r.key);
  }

  /** Remembers the job a jobs.query with a requestId created. */
  rememberRequest(projectId: string, requestId: string, fingerprint: string, job: JobRecord): void {
    const now = Date.now();
    if (this.requests.size > 10_000) for (const [k, v] of this.requests) if (now - v.at > REQUEST_ID_TTL_MS) this.requests.delete(k);
    this.requests.set(this.key(projectId, requestId), { fingerprint, key: this.key(job.projectId, job.jobId), at: now });
  }

  /** Runs a job once it has a running slot (dry runs take none); a job cancelled while PENDING never starts. */
  private async run(job: JobRecord, r: Running): Promise<void> {
    const slot = job.configuration.dryRun ? undefined : (r.slot = this.slots.take());
    if (slot && !(await slot.ready)) return this.finish(job, stoppedError());
    try {
      await this.execute(job, r);
    } finally {
      if (slot) this.slots.release();
    }
  }

  /** Ends a job that never ran (cancelled while PENDING): DONE with `error`, no start time. */
  private async finish(job: JobRecord, error: BigQueryError): Promise<void> {
    job.stats = { bytesProcessed: 0, bytesBilled: 0, slotMs: 0, tablesScanned: 0 };
    job.endTime = Date.now();
    if (this.jobs.get(this.key(job.projectId, job.jobId)) === job) await this.persist({ ...job, error, state: 'DONE' }).catch(() => undefined);
    job.error = error;
    job.state = 'DONE';
  }

  private async execute(job: JobRecord, r: Running): Promise<void> {
    job.state = 'RUNNING';
    job.startTime = Date.now();
    const t0 = performance.now();
    const ex = newExecution();
    const { stats, perStatement } = ex;
    let results: StatementResult[] = [];
    let error: BigQueryError | undefined;
    try {
      await runInterruptible(r.intr, async () => {
        if (r.intr.interrupted) throw stoppedError();
        const onStatementTimeout = (ms: number) => {
          r.timedOut = ms;
          r.intr.interrupt();
        };
        if (job.configuration.load) await executeLoadJob(this.engine, job);
        else if (job.configuration.copy && !job.configuration.query) await executeCopyJob(this.engine, job);
        else if (job.configuration.extract && !job.configuration.query) await executeExtractJob(this.engine, job);
        else await executeQueryJob({ engine: this.engine, sessions: this.sessions, onStatementTimeout }, job, ex);
        results = ex.results;
      });
    } catch (e) {
      error = r.cancelled ? stoppedError() : r.timedOut !== undefined ? statementTimeoutError(r.timedOut) : asBigQueryError(e);
      // An erroring dry run names the query as location `q` (recorded api_configuration/dry_run_invalid_function).
      if (job.configuration.dryRun && error.location === 'query') error = BigQueryError.withLocation(error, 'q');
      job.result = undefined;
      results = [];
    }
    stats.slotMs = Math.round(performance.now() - t0);
    job.stats = stats;
    job.endTime = Math.max(Date.now(), job.startTime);
    const key = this.key(job.projectId, job.jobId);
    const kept = this.jobs.get(key) === job;
    if (results.length > 1) this.addChildJobs(job, results, perStatement, kept);
    // Stored (with --data-dir) before anyone can see it DONE or failed: a client that saw the job
    // end finds it after a crash.
    if (kept && !job.configuration.dryRun) {
      this.retain(job);
      await this.persist({ ...job, ...(error ? { error } : {}), state: 'DONE' }).catch(() => undefined);
    }
    if (error) job.error = error;
    job.state = 'DONE';
  }

  /** One DONE child job per statement of a script job (jobs.list `parentJobId`, children.ts). */
  private addChildJobs(parent: JobRecord, results: StatementResult[], stats: JobStats[], store: boolean): void {
    parent.childJobIds = childJobIds(parent, results.length);
    if (!store) return;
    for (const child of childJobs(parent, results, stats)) {
      this.jobs.set(this.key(child.projectId, child.jobId), child);
      this.anonymous.add(child.projectId, child.jobId);
      this.retain(child);
      void this.persist(child).catch(() => undefined);
    }
  }

  /**
   * Keeps a finished job's rows, dropping the rows of the oldest jobs beyond the limits. Rows whose
   * REST text does not depend on request options are kept as that text (see `encodeRowStrings`).
   */
  private retain(job: JobRecord): void {
    const rows = job.result?.rows;
    if ((!rows && !job.encodedRows) || job.resultsExpired) return;
    const key = this.key(job.projectId, job.jobId);
    this.release(key);
    const fields = job.result?.schema ?? [];
    if (rows && !encodingVaries(fields)) {
      job.encodedRows = encodeRowStrings(fields, rows, { useInt64Timestamp: false });
      job.result = { ...job.result!, rows: undefined };
    }
    const cells = resultRowCount(job) * Math.max(1, fields.length);
    this.retained.set(key, cells);
    this.retainedCells += cells;
    this.retainedBytes.add(key, keptBytes(job.encodedRows ?? job.result?.rows));
    for (const [k] of this.retained) {
      const within = this.retained.size <= this.limits.maxJobs && this.retainedCells <= this.limits.maxCells && this.retainedBytes.total <= this.limits.maxBytes;
      if (this.retained.size <= 1 || within) break;
      this.release(k);
      const j = this.jobs.get(k);
      if (j?.result) {
        j.result = { ...j.result, rows: undefined };
        j.encodedRows = undefined;
        j.resultsExpired = true;
      }
    }
  }

  private release(key: string): void {
    const cells = this.retained.get(key);
    if (cells === undefined) return;
    this.retained.delete(key);
    this.retainedCells -= cells;
    this.retainedBytes.remove(key);
  }
  private readonly retainedBytes = new ByteLedger();

  /**
   * Result page of a finished query job.
   * @throws BigQueryError notFound when the job's results expired (BigQuery: its anonymous
   *   result table is gone).
   */
  page(job: JobRecord, startIndex: number, maxResults: number): ResultPage {
    const r = job.result;
    if (job.resultsExpired) {
      const t = anonymousTable(job.projectId, job.jobId);
      throw BigQueryError.tableNotFound(t.projectId, t.datasetId, t.tableId, job.location);
    }
    const key = this.key(job.projectId, job.jobId);
    const cells = this.retained.get(key);
    if (cells !== undefined) {
      // Reading a result keeps it (least recently used goes first).
      this.retained.delete(key);
      this.retained.set(key, cells);
    }
    const fields = r?.schema ?? [];
    const total = resultRowCount(job);
    // At most maxResults rows and MAX_PAGE_BYTES of them (src/jobs/result-bytes.ts).
    const end = pageEnd(job.encodedRows ?? r?.rows ?? [], startIndex, Math.min(total, startIndex + maxResults));
    const next = end < total ? end : undefined;
    if (job.encodedRows) return { fields, encodedRows: job.encodedRows.slice(startIndex, end), total, next };
    return { fields, rows: (r?.rows ?? []).slice(startIndex, end), total, next };
  }

  get project(): string {
    return this.defaultProject;
  }
}
