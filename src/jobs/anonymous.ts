/**
 * Anonymous result tables (BigQuery "Writing query results": a query without a destination table
 * writes its result to a temporary, cached results table in a hidden dataset, kept about 24 hours).
 *
 * Every SELECT query job names its anonymous table in `configuration.query.destinationTable`, with
 * `writeDisposition: WRITE_TRUNCATE` (recorded http/jobs/job_get_complete, job_cancel,
 * job_insert_returns_job_resource, dryrun_schema_only). The dataset is `_<sha1 hex of the
 * project>`, the table `anon<sha1 hex of the job id>`. tables.get and tabledata.list on that table
 * answer the job's result through the job manager's result pages; once the result is no longer kept
 * they answer BigQuery's 404 for the table.
 */
import { flatString } from './persist.js';
import { createHash } from 'node:crypto';
import type { TableRef } from '../engine/names.js';
import type { JobRecord } from './jobs-model.js';

import { ANONYMOUS_TABLE_TTL_MS } from '../config/timeouts.js';

/** Lifetime BigQuery gives an anonymous results table (src/config/timeouts.ts). */
export { ANONYMOUS_TABLE_TTL_MS };

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

/** The anonymous table a query job's results live in (also named in the expired-results error). */
export function anonymousTable(projectId: string, jobId: string): TableRef {
  return { projectId, datasetId: `_${sha1(projectId)}`, tableId: `anon${sha1(jobId)}` };
}

/** Whether a dataset id has the shape of a project's hidden dataset of anonymous tables. */
export function isAnonymousDataset(datasetId: string): boolean {
  return /^_[0-9a-f]{40}$/.test(datasetId);
}

/** One statement whose text starts like a query (the job's statement type before it ran). */
const QUERY_START = /^(?:\s|--[^\n]*\n|#[^\n]*\n|\/\*[\s\S]*?\*\/)*(?:\(|SELECT\b|WITH\b|FROM\b)/i;

/**
 * The anonymous destination of a query job, or undefined: jobs with a destination table of their
 * own, and statements that are not queries (DML, DDL, scripts, EXPORT DATA), have none. A job that
 * has not finished is judged by its text (one statement starting like a query); a finished one by
 * its statement type; a failed one has none.
 */
export function anonymousDestination(j: JobRecord): TableRef | undefined {
  const q = j.configuration.query;
  if (!q || q.destinationTable) return undefined;
  if (j.state === 'DONE') {
    if (j.error || j.result?.statementType !== 'SELECT') return undefined;
  } else {
    const text = typeof q.query === 'string' ? q.query : '';
    if (!QUERY_START.test(text) || /;\s*\S/.test(text.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`/g, ''))) return undefined;
  }
  return anonymousTable(j.projectId, j.jobId);
}

/**
 * Index of anonymous tables → the job whose result each holds (tables.get / tabledata.list on a
 * hidden table). Keys are `project/tableId`; values the job's key in the job manager (job ids are
 * unique per location, src/jobs/job-location.ts jobKey; the last job of an id wins its table).
 */
export class AnonymousTables {
  private byTable = new Map<string, string>();

  /** Remembers a job's anonymous table (any query job; lookups check the job's state). */
  add(projectId: string, jobId: string, jobKey: string): void {
    // One flat string (a concatenation is kept as its parts), held as long as the job.
    this.byTable.set(flatString(`${projectId}/${anonymousTable(projectId, jobId).tableId}`), jobKey);
  }

  /** Forgets a job's anonymous table, unless another job (same id, other location) holds it now. */
  remove(projectId: string, jobId: string, jobKey: string): void {
    const k = `${projectId}/${anonymousTable(projectId, jobId).tableId}`;
    if (this.byTable.get(k) === jobKey) this.byTable.delete(k);
  }

  /** The key of the job whose anonymous table this is, if any. */
  jobKeyOf(projectId: string, datasetId: string, tableId: string): string | undefined {
    if (datasetId !== anonymousTable(projectId, '').datasetId) return undefined;
    return this.byTable.get(`${projectId}/${tableId}`);
  }
}

/**
 * A retried jobs.insert may send back the configuration a job answer showed: its anonymous
 * destination (and WRITE_TRUNCATE) are then not part of what the client asked for. Answers the
 * configuration without them, for comparing with the existing job's.
 */
export function withoutAnonymousEcho(configuration: Record<string, any>, existing: JobRecord): Record<string, any> {
  const q = configuration.query;
  const anon = anonymousTable(existing.projectId, existing.jobId);
  const d = q?.destinationTable;
  if (!d || d.projectId !== anon.projectId || d.datasetId !== anon.datasetId || d.tableId !== anon.tableId) return configuration;
  const { destinationTable: _d, ...rest } = q;
  if (rest.writeDisposition === 'WRITE_TRUNCATE' && existing.configuration.query?.writeDisposition === undefined) delete rest.writeDisposition;
  return { ...configuration, query: rest };
}
