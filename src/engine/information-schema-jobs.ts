/**
 * INFORMATION_SCHEMA.JOBS and its synonym JOBS_BY_PROJECT (BigQuery "JOBS view"): one row per job
 * of the project, scripts' child jobs included, at region scope only
 * (`[p.]region-us.INFORMATION_SCHEMA.JOBS[_BY_PROJECT]`).
 *
 * The job list belongs to the job manager (src/jobs), which the engine never imports: the server
 * sets `Engine.jobsProvider`, a function answering a project's jobs as `JobSource`s (a structural
 * subset of the job manager's records). Without a provider the view is empty.
 *
 * Columns follow the documented schema, in the order of the live view (creation_time, project_id,
 * project_number, user_email, job_id, job_type, statement_type, priority, start_time, end_time,
 * query, state, reservation_id, total_bytes_processed, total_slot_ms, error_result, cache_hit,
 * destination_table, referenced_tables, labels, timeline, job_stages, total_bytes_billed, …).
 * RECORD columns carry the documented fields the emulator can fill; `timeline` and `job_stages`
 * are empty arrays (the emulator keeps no per-stage history).
 */
import { BigQueryError } from '../errors/errors.js';
import { arrayOf, scalar, structOf, type BqType, type Value } from '../types/types.js';
import type { InfoSchemaScope } from './information-schema-scope.js';

/** What the JOBS view reads of a job (the job manager's JobRecord satisfies it). */
export interface JobSource {
  projectId: string;
  jobId: string;
  location: string;
  configuration: Record<string, any>;
  state: string;
  error?: { toErrorProto(): { reason: string; message: string; location?: string } };
  /** Milliseconds since the epoch. */
  creationTime: number;
  startTime?: number;
  endTime?: number;
  result?: {
    statementType: string;
    numDmlAffectedRows?: number;
    ddlTargetTable?: TableRefLike;
    referencedTables?: TableRefLike[];
  };
  stats?: { bytesProcessed: number; bytesBilled: number; slotMs: number };
  sessionId?: string;
  parentJobId?: string;
  childJobIds?: string[];
}

interface TableRefLike {
  projectId: string;
  datasetId: string;
  tableId: string;
}

/** A project's jobs, child jobs included (set by the server; see the module comment). */
export type JobsProvider = (projectId: string) => JobSource[];

const S = scalar('STRING');
const I = scalar('INT64');
const TS = scalar('TIMESTAMP');
const B = scalar('BOOL');
const F = scalar('FLOAT64');
const struct = (...fields: [string, BqType][]) => structOf(fields.map(([name, type]) => ({ name, type })));
const TABLE_REF = struct(['project_id', S], ['dataset_id', S], ['table_id', S]);

const JOBS_COLUMNS: [string, BqType][] = [
  ['creation_time', TS], ['project_id', S], ['project_number', I], ['user_email', S], ['principal_subject', S], ['job_id', S],
  ['job_type', S], ['statement_type', S], ['priority', S], ['start_time', TS], ['end_time', TS], ['query', S], ['state', S],
  ['reservation_id', S], ['total_bytes_processed', I], ['total_slot_ms', I],
  ['error_result', struct(['reason', S], ['location', S], ['debug_info', S], ['message', S])],
  ['cache_hit', B], ['destination_table', TABLE_REF], ['referenced_tables', arrayOf(TABLE_REF)],
  ['labels', arrayOf(struct(['key', S], ['value', S]))],
  ['timeline', arrayOf(struct(['elapsed_ms', I], ['total_slot_ms', I], ['pending_units', I], ['completed_units', I], ['active_units', I], ['estimated_runnable_units', I]))],
  ['job_stages', arrayOf(struct(['name', S], ['id', I], ['start_ms', I], ['end_ms', I], ['wait_ratio_avg', F], ['read_ratio_avg', F], ['compute_ratio_avg', F], ['write_ratio_avg', F], ['records_read', I], ['records_written', I], ['status', S], ['slot_ms', I]))],
  ['total_bytes_billed', I], ['transaction_id', S], ['parent_job_id', S], ['session_info', struct(['session_id', S])],
  ['dml_statistics', struct(['inserted_row_count', I], ['deleted_row_count', I], ['updated_row_count', I])],
  ['total_modified_partitions', I], ['bi_engine_statistics', struct(['bi_engine_mode', S], ['acceleration_mode', S])],
  ['query_info', struct(['resource_warning', S], ['query_hashes', struct(['normalized_literals', S])])],
  ['transferred_bytes', I], ['edition', S], ['job_creation_reason', struct(['code', S])],
  ['continuous_query_info', struct(['output_watermark', TS])], ['continuous', B], ['query_dialect', S],
];

/** Column sets of the job views; JOBS_BY_PROJECT is a synonym of JOBS (documented). */
export const JOB_VIEWS: Record<string, [string, BqType][]> = { JOBS: JOBS_COLUMNS, JOBS_BY_PROJECT: JOBS_COLUMNS };

/** The principal the emulator runs every job as (the Job resource's `user_email`, src/server/rest/job-resources.ts). */
const USER_EMAIL = 'bqemu@localhost';

const micros = (ms: number | undefined): Value => (ms === undefined || !Number.isFinite(ms) ? null : BigInt(Math.trunc(ms)) * 1000n);
const big = (n: number | undefined): Value => (n === undefined || !Number.isFinite(n) ? null : BigInt(Math.trunc(n)));
const ref = (t: Partial<TableRefLike> | undefined): Value => (t?.tableId ? [t.projectId ?? null, t.datasetId ?? null, t.tableId] : null);

/**
 * Rejects a job view read at dataset scope: the JOBS views exist only at region scope
 * (documented "Scope and syntax").
 * @throws BigQueryError invalidQuery
 */
export function checkJobViewScope(scope: InfoSchemaScope): void {
  if (scope.datasetId !== undefined)
    throw BigQueryError.jobViewNeedsRegion(scope.view, scope.datasetId);
}

function jobType(c: Record<string, any>): string | null {
  for (const k of ['query', 'load', 'extract', 'copy']) if (c[k]) return k.toUpperCase();
  return null;
}

function dmlStatistics(j: JobSource): Value {
  const r = j.result;
  if (!r || r.numDmlAffectedRows === undefined || !['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(r.statementType)) return null;
  const n = BigInt(r.numDmlAffectedRows);
  if (r.statementType === 'INSERT') return [n, 0n, 0n];
  if (r.statementType === 'DELETE') return [0n, n, 0n];
  if (r.statementType === 'UPDATE') return [0n, 0n, n];
  return null; // MERGE: the emulator does not split a MERGE's count by action
}

/** One JOBS row (values in JOBS_COLUMNS order). */
function jobRow(j: JobSource): Value[] {
  const c = j.configuration ?? {};
  const q = c.query ?? {};
  const done = j.state === 'DONE';
  const labels = Object.entries((c.labels ?? {}) as Record<string, string>).map(([k, v]) => [k, String(v)]);
  const e = j.error?.toErrorProto();
  const script = !!j.childJobIds?.length;
  return [
    micros(j.creationTime), j.projectId, null, USER_EMAIL, `user:${USER_EMAIL}`, j.jobId,
    jobType(c), j.result?.statementType ?? null, q.priority ?? (q.query !== undefined ? 'INTERACTIVE' : null),
    micros(j.startTime), micros(done ? j.endTime : undefined), typeof q.query === 'string' ? q.query : null, j.state,
    null, done ? big(j.stats?.bytesProcessed ?? 0) : null, done ? big(j.stats?.slotMs ?? 0) : null,
    e ? [e.reason, e.location ?? null, null, e.message] : null,
    done && !script ? false : null, ref(q.destinationTable ?? j.result?.ddlTargetTable),
    (j.result?.referencedTables ?? []).map(ref), labels, [], [],
    done ? big(j.stats?.bytesBilled ?? 0) : null, null, j.parentJobId ?? null, j.sessionId ? [j.sessionId] : null,
    dmlStatistics(j), done ? 0n : null, null, null,
    // job_creation_reason REQUESTED: every emulator job was asked for (jobs.insert or jobs.query).
    done ? 0n : null, null, ['REQUESTED'], null, false, q.query !== undefined ? (q.useLegacySql === false ? 'GOOGLE_SQL' : 'DEFAULT_GOOGLE_SQL') : null,
  ];
}

/**
 * JOBS rows of the scope's project, newest first; at a region (`region-us`) only the jobs whose
 * location is that region (`US`).
 */
export function jobViewRows(provider: JobsProvider | undefined, scope: InfoSchemaScope): Value[][] {
  checkJobViewScope(scope);
  const region = scope.region?.toLowerCase();
  return (provider?.(scope.projectId) ?? [])
    .filter((j) => !region || j.location.toLowerCase() === region)
    .sort((a, b) => b.creationTime - a.creationTime)
    .map(jobRow);
}
