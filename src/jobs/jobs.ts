/**
 * The job manager: query jobs (jobs.insert / jobs.query), their lifecycle, metadata and result pages.
 *
 * Lifecycle (docs/ARCHITECTURE.md §1, §3): a job is created PENDING, runs asynchronously (RUNNING)
 * once it has a running slot (slots.ts: a bounded number of jobs run at once) and ends DONE, with
 * `status.errorResult` when it failed. Execution itself is execute.ts; a SELECT job's result is its
 * anonymous table (anonymous.ts). Callers wait for it as long as they choose ({@link
 * JobManager.waitFor}: jobs.query and getQueryResults wait up to `timeoutMs`). jobs.cancel
 * interrupts the DuckDB connections running the job; the job then ends DONE with BigQuery's
 * `stopped` error. Job ids are idempotent: inserting an existing id with the same configuration
 * returns the existing job, a different configuration is 409 duplicate.
 *
 * Memory: metadata of every job stays; result rows are kept for the most recently finished jobs
 * only (a job count and a cell budget); a page of an evicted result answers BigQuery's 404 for
 * an expired anonymous result table (job-results.ts).
 *
 * Source: REST Job / JobConfigurationQuery / JobStatistics / JobStatistics2 in
 * src/server/rest/bigquery-v2-discovery.json.
 */
import { randomUUID } from 'node:crypto';
import type { Engine, StatementResult } from '../engine/engine.js';
import { Interrupter, runInterruptible } from '../engine/duckdb/db.js';
import type { Caller } from '../engine/row-access.js';
import { BigQueryError, asBigQueryError } from '../errors/errors.js';
import { compactJob, jobFromJson, jobToJson } from './persist.js';
import { RequestIds } from './request-ids.js';
import { SessionManager } from './sessions.js';
import { configKey } from './jobs-params.js';
import { AnonymousTables, anonymousDestination, withoutAnonymousEcho } from './anonymous.js';
import { JobSlots, type SlotRequest } from './slots.js';
import { statementTimeoutError, validateQueryConfig } from './query-options.js';
import { executeQueryJob, newExecution, type RequestRunner } from './execute.js';
import { childJobIds, childJobs } from './children.js';
import { executeLoadJob, validateLoadConfig } from './load.js';
import { executeCopyJob, validateCopyConfig } from './copy.js';
import { executeExtractJob, validateExtractConfig } from './extract.js';
import type { JobListFilter, JobRecord, JobStats, ResultLimits } from './jobs-model.js';
import { componentLogger, logIgnored, type Logger } from '../config/logger.js';
import { DEFAULT_RETAINED_CELLS, DEFAULT_RETAINED_JOBS } from '../config/limits.js';
import { CANCEL_WAIT_MS, DEFAULT_MAX_RUNNING_JOBS } from '../config/timeouts.js';
import { DEFAULT_MAX_RETAINED_BYTES } from './result-bytes.js';
import { checkJobDatasetsIn, foundIn, jobKey, jobLocation } from './job-location.js';
import { DEFAULT_LOCATION, normalizeLocation } from '../types/locations.js';
import { dropKeptRows, RetainedResults, resultRowCount, type ResultPage } from './job-results.js';

export type { JobListFilter, JobRecord, JobState, JobStats, ResultLimits } from './jobs-model.js';
export { decodeParams } from './jobs-params.js';
export { anonymousTable } from './anonymous.js';
export { resultRowCount, type ResultPage } from './job-results.js';

const DEFAULT_LIMITS: ResultLimits = { maxJobs: DEFAULT_RETAINED_JOBS, maxCells: DEFAULT_RETAINED_CELLS, maxBytes: DEFAULT_MAX_RETAINED_BYTES };
/** Query jobs running at once by default; later ones stay PENDING (slots.ts, src/config/timeouts.ts). */
export { DEFAULT_MAX_RUNNING_JOBS };

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
  /** Who runs the job (row access policies; src/server/rest/context.ts callerFromHeaders). */
  caller?: Caller;
  /** The job, and the key it was stored under when inserted (its location may change as it runs). */
  job: JobRecord;
  key: string;
}

/** The kind of a job (BigQuery's configuration.jobType: QUERY, LOAD, COPY or EXTRACT). */
function jobKind(job: JobRecord): string {
  const c = job.configuration;
  return c.load ? 'LOAD' : c.copy && !c.query ? 'COPY' : c.extract && !c.query ? 'EXTRACT' : 'QUERY';
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
  /** The result rows kept in memory (job-results.ts). */
  private readonly results: RetainedResults;
  /** jobs.query requestIds (request-ids.ts). */
  private readonly requests = new RequestIds();
  private readonly limits: ResultLimits;
  /** Sessions (createSession / connectionProperties session_id). */
  readonly sessions: SessionManager;
  /** Anonymous result tables → their jobs (anonymous.ts). */
  private anonymous = new AnonymousTables();
  /** Running slots: jobs beyond the limit stay PENDING (slots.ts). */
  readonly slots: JobSlots;
  /** The jobs' logger (`{component: 'jobs'}`): each job's start and end at debug. */
  private readonly log: Logger;
  /**
   * Runs a query job's text (default src/scripting/request.ts `executeRequest`); the job-manager
   * unit tests (test/job-manager.test.ts) put a fake engine's answers here.
   */
  runRequest: RequestRunner | undefined;

  constructor(
    readonly engine: Engine,
    private readonly defaultProject: string,
    limits: Partial<ResultLimits> = {},
    sessionIdleMs?: number,
    maxRunningJobs = DEFAULT_MAX_RUNNING_JOBS,
    log?: Logger,
  ) {
    this.log = componentLogger(log, 'jobs');
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.results = new RetainedResults(this.limits, (key) => this.jobs.get(key), (key) => this.compact(key));
    this.sessions = new SessionManager(engine, sessionIdleMs);
    this.slots = new JobSlots(maxRunningJobs);
  }

  /** A job's key: job ids are unique per project and location (jobKey in job-location.ts). */
  private key = (j: Pick<JobRecord, 'projectId' | 'jobId' | 'location'>) => jobKey(j.projectId, j.location, j.jobId);

  /** Loads the jobs persisted in the database (with `--data-dir`). */
  async load(): Promise<void> {
    const loaded: JobRecord[] = [];
    for (const r of await this.engine.db.loadAll()) {
      if (r.kind !== 'job') continue;
      const j = jobFromJson(r.json);
      this.jobs.set(this.key(j), j);
      this.anonymous.add(j.projectId, j.jobId, this.key(j));
      loaded.push(j);
      // Stored before job ids were per location: kept under the per-location key from now on.
      if (r.key !== this.key(j)) await this.engine.db.save('job', this.key(j), r.json).then(() => this.engine.db.save('job', r.key, null));
    }
    for (const j of loaded.sort((a, b) => (a.endTime ?? 0) - (b.endTime ?? 0))) this.retain(j);
    for (const j of loaded) this.compact(this.key(j));
  }

  /**
   * Replaces the record stored under `key` by its compact form when the job is DONE and holds no
   * result rows (persist.ts compactJob): a finished job's history costs about half the memory.
   */
  private compact(key: string): void {
    const j = this.jobs.get(key);
    if (j) this.jobs.set(key, compactJob(j));
  }

  /** Persists a finished job (with `--data-dir` only); results over 100,000 rows keep metadata only. */
  private async persist(j: JobRecord): Promise<void> {
    if (!this.engine.db.persistent) return;
    const big = resultRowCount(j) > 100_000;
    const rec: JobRecord = big ? { ...j, result: { ...j.result!, rows: undefined }, encodedRows: undefined, resultsExpired: true } : j;
    await this.engine.db.save('job', this.key(j), jobToJson(rec));
  }

  /**
   * The job `jobId` of a project, as jobs.get/getQueryResults/cancel/delete find it: in `location`
   * when one is given, else only in the US and EU multi-regions (the `location` parameter of
   * jobs.get in the discovery document).
   * @throws BigQueryError notFound `Not found: Job P:L.ID` for an unknown job or another location.
   */
  get(projectId: string, jobId: string, location?: string): JobRecord {
    const asked = location ? normalizeLocation(location) : undefined;
    const j = (asked ? [asked] : ['US', 'EU']).map((l) => this.jobs.get(jobKey(projectId, l, jobId))).find((x) => x && foundIn(x, asked)) ?? this.relocated(projectId, jobId, asked);
    if (!j) throw BigQueryError.jobNotFound(projectId, jobId, asked ?? DEFAULT_LOCATION);
    return j;
  }

  /**
   * A running job that named no location and moved to the location of the first table it read
   * (execute.ts); it is stored under its new location's key when it ends.
   */
  private relocated(projectId: string, jobId: string, asked: string | undefined): JobRecord | undefined {
    return [...this.running.values()].map((r) => r.job).find((j) => j.projectId === projectId && j.jobId === jobId && foundIn(j, asked));
  }

  /** The finished or running query job whose anonymous result table `projectId:datasetId.tableId` is, if any. */
  jobOfAnonymousTable(projectId: string, datasetId: string, tableId: string): JobRecord | undefined {
    const key = this.anonymous.jobKeyOf(projectId, datasetId, tableId);
    const j = key === undefined ? undefined : this.jobs.get(key);
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
  async delete(projectId: string, jobId: string, location?: string): Promise<void> {
    const j = this.get(projectId, jobId, location);
    if (j.parentJobId)
      throw BigQueryError.childJobDelete(`${projectId}:${j.location}.${jobId}`, j.parentJobId);
    if (j.state !== 'DONE') await this.cancel(projectId, jobId, j.location);
    for (const id of [...(j.childJobIds ?? []), jobId]) {
      const k = jobKey(projectId, j.location, id);
      const gone = this.jobs.get(k);
      if (!gone) continue;
      this.jobs.delete(k);
      dropKeptRows(gone);
      // A read of its results still in flight answers 404, not an empty page.
      gone.resultsExpired = true;
      this.anonymous.remove(projectId, id, k);
      this.release(k);
      if (this.engine.db.persistent) await this.engine.db.save('job', k, null);
    }
  }

  /**
   * Creates a job and starts it (jobs.insert); a dry run completes before this returns. An
   * existing id with the same configuration returns the existing job.
   * @throws BigQueryError duplicate for an existing id with another configuration; invalid for a
   *   job without a query or load configuration. `uploadFile`: a media upload's data (load jobs);
   *   `opts.caller`: the identity the job's statements run as (absent: the default principal).
   */
  async insert(projectId: string, body: Record<string, any>, uploadFile?: string, opts: { caller?: Caller } = {}): Promise<JobRecord> {
    const ref = body.jobReference ?? {};
    const jobId: string = ref.jobId ?? `job_${randomUUID().replace(/-/g, '_')}`;
    const configuration: Record<string, any> = body.configuration ?? {};
    const { location, byDefault } = jobLocation(this.engine.catalog, projectId, configuration, ref.location);
    // Job ids are unique per project and location (https://cloud.google.com/bigquery/docs/running-jobs#generate-jobid).
    const existing = this.jobs.get(jobKey(projectId, location, jobId));
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
    checkJobDatasetsIn(this.engine.catalog, projectId, configuration, location);
    const job: JobRecord = { projectId, jobId, location, configuration, state: 'PENDING', creationTime: Date.now(), uploadFile };
    if (byDefault) job.locationByDefault = true;
    const key = this.key(job);
    this.jobs.set(key, job);
    if (!configuration.dryRun && configuration.query) this.anonymous.add(projectId, jobId, key);
    const run: Running = { job, key, intr: new Interrupter(), cancelled: false, done: Promise.resolve(), caller: opts.caller };
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
    const r = this.runningOf(job);
    if (!r || job.state === 'DONE') return;
    await within(r.done, ms);
  }

  /**
   * Cancels a job (jobs.cancel): a running job's DuckDB work is interrupted and the job ends DONE
   * with the `stopped` error. Answers once the job stopped (or after a short wait); a finished job
   * is answered unchanged.
   */
  async cancel(projectId: string, jobId: string, location?: string): Promise<JobRecord> {
    const j = this.get(projectId, jobId, location);
    const r = this.runningOf(j);
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

  /** The job an earlier jobs.query with this requestId and the same parameters created (15 minutes; request-ids.ts). */
  jobOfRequest(projectId: string, requestId: string, fingerprint: string): JobRecord | undefined {
    const r = this.requests.find(projectId, requestId, fingerprint);
    if (!r) return undefined;
    // The same job, not another job of the same id created after it was deleted.
    // A job that named no location may have moved to the location of the first table it read.
    const same = (j: JobRecord | undefined) => j?.projectId === projectId && j.jobId === r.jobId && j.creationTime === r.creationTime;
    const j = this.jobs.get(jobKey(projectId, r.location, r.jobId));
    return same(j) ? j : [...this.jobs.values()].find(same);
  }

  /** Remembers the job a jobs.query with a requestId created. */
  rememberRequest(projectId: string, requestId: string, fingerprint: string, job: JobRecord): void {
    this.requests.remember(projectId, requestId, fingerprint, job);
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
    // A job that cannot be stored (--data-dir) still ends; it is only lost at the next start.
    if (this.jobs.get(this.key(job)) === job) await this.persist({ ...job, error, state: 'DONE' }).catch(logIgnored(this.log, 'storing a job', 'warn'));
    job.error = error;
    job.state = 'DONE';
    this.compact(this.key(job));
  }

  private async execute(job: JobRecord, r: Running): Promise<void> {
    job.state = 'RUNNING';
    job.startTime = Date.now();
    const t0 = performance.now();
    const kind = jobKind(job);
    this.log.debug({ jobId: job.jobId, projectId: job.projectId, kind, dryRun: job.configuration.dryRun === true }, 'job start');
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
        else await executeQueryJob({ engine: this.engine, sessions: this.sessions, onStatementTimeout, caller: r.caller, runRequest: this.runRequest }, job, ex);
        results = ex.results;
      });
    } catch (e) {
      error = r.cancelled ? stoppedError() : r.timedOut !== undefined ? statementTimeoutError(r.timedOut) : asBigQueryError(e);
      if (!(e instanceof BigQueryError)) this.log.debug({ jobId: job.jobId, original: e instanceof Error ? e.message : String(e), reason: error.reason, message: error.message }, 'job error mapped');
      // An erroring dry run names the query as location `q` (recorded api_configuration/dry_run_invalid_function).
      if (job.configuration.dryRun && error.location === 'query') error = BigQueryError.withLocation(error, 'q');
      job.result = undefined;
      results = [];
    }
    stats.slotMs = Math.round(performance.now() - t0);
    job.stats = stats;
    job.endTime = Math.max(Date.now(), job.startTime);
    const kept = this.rekey(job, r.key);
    if (results.length > 1) this.addChildJobs(job, results, perStatement, kept);
    // Stored (with --data-dir) before anyone can see it DONE or failed: a client that saw the job
    // end finds it after a crash.
    if (kept && !job.configuration.dryRun) {
      this.retain(job);
      await this.persist({ ...job, ...(error ? { error } : {}), state: 'DONE' }).catch(logIgnored(this.log, 'storing a job (it still ends; lost at the next start)', 'warn'));
    }
    if (error) job.error = error;
    job.state = 'DONE';
    if (kept) this.compact(this.key(job));
    this.log.debug(
      { jobId: job.jobId, projectId: job.projectId, kind, statementType: job.result?.statementType, duration_ms: Math.round(performance.now() - t0), ...(error ? { error: { reason: error.reason, message: error.message } } : {}) },
      'job end',
    );
  }

  /** One DONE child job per statement of a script job (jobs.list `parentJobId`, children.ts). */
  private addChildJobs(parent: JobRecord, results: StatementResult[], stats: JobStats[], store: boolean): void {
    parent.childJobIds = childJobIds(parent, results.length);
    if (!store) return;
    for (const child of childJobs(parent, results, stats)) {
      this.jobs.set(this.key(child), child);
      this.anonymous.add(child.projectId, child.jobId, this.key(child));
      this.retain(child);
      this.compact(this.key(child));
      void this.persist(child).catch(logIgnored(this.log, 'storing a child job (lost at the next start)', 'warn'));
    }
  }

  /** The running state of a job that has not ended. */
  private runningOf(job: JobRecord): Running | undefined {
    return this.running.get(this.key(job)) ?? [...this.running.values()].find((r) => r.job === job);
  }

  /**
   * Stores a job stored under `insertedAs` under its key, after it moved to the location of the
   * first table it read (execute.ts). Answers whether the job is still stored (not deleted
   * while it ran); an id already taken in the new location keeps the job under its first key.
   */
  private rekey(job: JobRecord, insertedAs: string): boolean {
    if (this.jobs.get(insertedAs) !== job) return false;
    const key = this.key(job);
    if (key === insertedAs || this.jobs.has(key)) return true;
    this.jobs.delete(insertedAs);
    this.jobs.set(key, job);
    this.anonymous.remove(job.projectId, job.jobId, insertedAs);
    this.anonymous.add(job.projectId, job.jobId, key);
    return true;
  }

  /** Keeps a finished job's rows within the limits (job-results.ts RetainedResults.retain). */
  private retain(job: JobRecord): void {
    this.results.retain(this.key(job), job);
  }

  private release(key: string): void {
    this.results.release(key);
  }

  /** Resolves when `job`'s kept result is ready to page (a large one is encoded in the background first). */
  async pageable(job: JobRecord): Promise<void> {
    await this.results.encoded(this.key(job));
  }

  /**
   * Result page of a finished query job (job-results.ts RetainedResults.page).
   * @throws BigQueryError notFound when the job's results expired.
   */
  page(job: JobRecord, startIndex: number, maxResults: number): ResultPage {
    return this.results.page(this.key(job), job, startIndex, maxResults);
  }

  get project(): string {
    return this.defaultProject;
  }
}
