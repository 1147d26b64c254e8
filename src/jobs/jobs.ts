/**
 * The job manager: query jobs (jobs.insert / jobs.query), their metadata and their result pages.
 *
 * A job runs to completion before the request that created it answers (DONE at once); the
 * asynchronous lifecycle with cancel is issue 7. Job ids are idempotent: inserting an existing
 * id returns the existing job. Results stay in memory for paging (`getQueryResults`).
 * Source: REST Job / JobConfigurationQuery / JobStatistics2 in api/bigquery-v2-discovery.json.
 */
import { randomUUID } from 'node:crypto';
import type { Engine, ResultField, StatementResult } from '../engine/engine.js';
import { BigQueryError, asBigQueryError } from '../errors/errors.js';
import type { ParamValue } from '../engine/lower/context.js';
import type { Value } from '../types/types.js';
import { decodeQueryParameter } from '../wire/rest-values.js';
import { applyDestination } from './destination.js';
import { jobFromJson, jobToJson } from './persist.js';

export interface JobRecord {
  projectId: string;
  jobId: string;
  location: string;
  configuration: Record<string, any>;
  state: 'PENDING' | 'RUNNING' | 'DONE';
  error?: BigQueryError;
  creationTime: number;
  startTime?: number;
  endTime?: number;
  result?: StatementResult;
  /** Every statement's result (scripts). */
  children?: StatementResult[];
  sessionId?: string;
}

export class JobManager {
  private jobs = new Map<string, JobRecord>();

  constructor(
    readonly engine: Engine,
    private readonly defaultProject: string,
  ) {}

  private key = (p: string, j: string) => JSON.stringify([p, j]);

  /** Loads the jobs persisted in the database (with `--data-dir`). */
  async load(): Promise<void> {
    for (const r of await this.engine.db.loadAll()) {
      if (r.kind !== 'job') continue;
      const j = jobFromJson(r.json);
      this.jobs.set(this.key(j.projectId, j.jobId), j);
    }
  }

  /** Persists a finished job (with `--data-dir` only); results over 100,000 rows keep metadata only. */
  private async persist(j: JobRecord): Promise<void> {
    if (!this.engine.db.persistent) return;
    const big = (j.result?.rows?.length ?? 0) > 100_000;
    const rec = big ? { ...j, children: undefined, result: { ...j.result!, rows: [] } } : j;
    await this.engine.db.save('job', this.key(j.projectId, j.jobId), jobToJson(rec));
  }

  get(projectId: string, jobId: string): JobRecord {
    const j = this.jobs.get(this.key(projectId, jobId));
    if (!j) throw BigQueryError.jobNotFound(projectId, jobId);
    return j;
  }

  list(projectId: string): JobRecord[] {
    return [...this.jobs.values()].filter((j) => j.projectId === projectId).sort((a, b) => b.creationTime - a.creationTime);
  }

  delete(projectId: string, jobId: string): void {
    this.get(projectId, jobId);
    this.jobs.delete(this.key(projectId, jobId));
    void this.engine.db.save('job', this.key(projectId, jobId), null);
  }

  /**
   * Creates and runs a job (jobs.insert). An existing id returns the existing job.
   * @throws BigQueryError invalid for a job without a query configuration.
   */
  async insert(projectId: string, body: Record<string, any>): Promise<JobRecord> {
    const ref = body.jobReference ?? {};
    const jobId: string = ref.jobId ?? `job_${randomUUID().replace(/-/g, '_')}`;
    const existing = this.jobs.get(this.key(projectId, jobId));
    if (existing) return existing;
    const configuration = body.configuration ?? {};
    if (!configuration.query) {
      const kind = Object.keys(configuration).find((k) => ['load', 'extract', 'copy'].includes(k));
      if (kind) throw BigQueryError.notSupported(`Job type ${kind.toUpperCase()}`);
      throw BigQueryError.invalid('Required parameter is missing: configuration.query', 'configuration');
    }
    if (typeof configuration.query.query !== 'string' || !configuration.query.query.trim())
      throw BigQueryError.invalid('Required parameter is missing: query', 'query');
    const job: JobRecord = { projectId, jobId, location: ref.location ?? 'US', configuration, state: 'RUNNING', creationTime: Date.now() };
    this.jobs.set(this.key(projectId, jobId), job);
    await this.run(job);
    return job;
  }

  private async run(job: JobRecord): Promise<void> {
    const q = job.configuration.query;
    job.startTime = Date.now();
    try {
      if (q.useLegacySql === true || q.useLegacySql === 'true')
        throw BigQueryError.invalidQuery('Legacy SQL is not supported by bqemu; set useLegacySql to false');
      const { named, positional } = decodeParams(q.queryParameters, q.parameterMode);
      const dd = q.defaultDataset;
      const results = await this.engine.execute(q.query, {
        projectId: job.projectId,
        defaultDataset: dd?.datasetId ? { projectId: dd.projectId ?? job.projectId, datasetId: dd.datasetId } : undefined,
        namedParams: named,
        positionalParams: positional,
        dryRun: !!job.configuration.dryRun,
      });
      job.children = results;
      const last = results[results.length - 1];
      // A request of several statements is a script job: its statementType is SCRIPT (recorded rest_crud/dml_*).
      job.result = results.length > 1 ? { ...last, statementType: 'SCRIPT' } : last;
      if (q.destinationTable && job.result.statementType === 'SELECT' && !job.configuration.dryRun)
        await applyDestination(this.engine, job.projectId, q, job.result);
    } catch (e) {
      job.error = asBigQueryError(e);
    }
    job.state = 'DONE';
    job.endTime = Date.now();
    if (!job.configuration.dryRun) await this.persist(job);
  }

  /** Result page of a finished query job. */
  page(job: JobRecord, startIndex: number, maxResults: number): { fields: ResultField[]; rows: Value[][]; total: number; next?: number } {
    const r = job.result;
    const fields = r?.schema ?? [];
    const all = r?.rows ?? [];
    const rows = all.slice(startIndex, startIndex + maxResults);
    const next = startIndex + rows.length < all.length ? startIndex + rows.length : undefined;
    return { fields, rows, total: all.length, next };
  }

  get project(): string {
    return this.defaultProject;
  }
}

/**
 * Decodes REST `queryParameters` (contract §4.3 parameterMode): named when the parameters carry
 * names, positional otherwise.
 * @throws BigQueryError invalid for malformed parameters.
 */
export function decodeParams(list: unknown, mode?: string): { named: Map<string, ParamValue>; positional: ParamValue[] } {
  const named = new Map<string, ParamValue>();
  const positional: ParamValue[] = [];
  if (!Array.isArray(list)) return { named, positional };
  for (const p of list) {
    const d = decodeQueryParameter(p);
    const pv = { type: d.type, value: d.value };
    if (String(mode ?? '').toUpperCase() === 'POSITIONAL' || !d.name) positional.push(pv);
    else named.set(d.name.toLowerCase(), pv);
  }
  return { named, positional };
}
