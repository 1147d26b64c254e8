/**
 * REST shapes of jobs: Job, JobList items, QueryResponse and GetQueryResultsResponse
 * (src/server/rest/bigquery-v2-discovery.json; statistics per JobStatistics / JobStatistics2). Rendered here,
 * above the job manager (src/jobs), whose records they read.
 */
import { resultRowCount, type JobRecord } from '../../jobs/jobs.js';
import { anonymousDestination } from '../../jobs/anonymous.js';
import { destinationUris } from '../../jobs/extract.js';
import { fieldFromType } from '../../types/schema.js';
import { API_BASE_PATH as API, EtagMemo } from '../../wire/resources.js';
import type { Job, JobConfiguration, RequestJson } from '../../types/generated/bigquery-v2.js';

const tableRef = (r: { projectId: string; datasetId: string; tableId: string }) => ({
  projectId: r.projectId,
  datasetId: r.datasetId,
  tableId: r.tableId,
});

/** Statement types whose jobs run stages (a query plan) even without reading a table. */
const STAGED = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'CREATE_TABLE_AS_SELECT', 'EXPORT_DATA']);

/**
 * Whether a finished job did work BigQuery reports with a query plan, timeline and slot time: it
 * scanned a table, ran DML or wrote a destination. Recorded: `SELECT 1 AS x` and UNNEST-only
 * queries carry none of these (http/jobs/job_get_complete, page_*); a job that ran stages does
 * (http/jobs/export_csv_query_job).
 */
export function ranStages(j: JobRecord): boolean {
  if (j.state !== 'DONE' || j.configuration.dryRun || !j.result) return false;
  return (j.stats?.tablesScanned ?? 0) > 0 || STAGED.has(j.result.statementType) || !!j.configuration.query?.destinationTable;
}

/** A one-stage query plan (ExplainQueryStage) of a finished job. */
function queryPlan(j: JobRecord): Record<string, unknown>[] {
  const ms = String(j.stats?.slotMs ?? 0);
  const r = j.result!;
  // Rows may be kept encoded (JobRecord.encodedRows) once the job finished.
  const written = r.numDmlAffectedRows ?? r.destinationRowsWritten ?? resultRowCount(j);
  const reads = (r.referencedTables ?? []).map((t) => `FROM ${t.projectId}.${t.datasetId}.${t.tableId}`);
  return [
    {
      name: 'S00: Output',
      id: '0',
      startMs: String(j.startTime ?? j.creationTime),
      endMs: String(j.endTime ?? j.startTime ?? j.creationTime),
      waitRatioAvg: 0,
      waitMsAvg: '0',
      waitRatioMax: 0,
      waitMsMax: '0',
      readRatioAvg: 0,
      readMsAvg: '0',
      readRatioMax: 0,
      readMsMax: '0',
      computeRatioAvg: 1,
      computeMsAvg: ms,
      computeRatioMax: 1,
      computeMsMax: ms,
      writeRatioAvg: 0,
      writeMsAvg: '0',
      writeRatioMax: 0,
      writeMsMax: '0',
      shuffleOutputBytes: '0',
      shuffleOutputBytesSpilled: '0',
      recordsRead: String(j.stats?.recordsRead ?? 0),
      recordsWritten: String(written),
      parallelInputs: '1',
      completedParallelInputs: '1',
      status: 'COMPLETE',
      steps: [
        ...(reads.length ? [{ kind: 'READ', substeps: reads }] : []),
        { kind: 'WRITE', substeps: ['TO __stage00_output'] },
      ],
      slotMs: ms,
      computeMode: 'BIGQUERY',
    },
  ];
}

/**
 * A DML statement's `numDmlAffectedRows` and `dmlStats` (DmlStatistics: the count under
 * deletedRowCount for a DELETE, updatedRowCount for an UPDATE, insertedRowCount otherwise), as
 * JobStatistics2 and QueryResponse carry them; empty for any other statement.
 */
export function dmlStatistics(r: NonNullable<JobRecord['result']>): { numDmlAffectedRows?: string; dmlStats?: Record<string, string> } {
  if (r.numDmlAffectedRows === undefined) return {};
  const n = String(r.numDmlAffectedRows);
  const key = r.statementType === 'DELETE' ? 'deletedRowCount' : r.statementType === 'UPDATE' ? 'updatedRowCount' : 'insertedRowCount';
  return { numDmlAffectedRows: n, dmlStats: { [key]: n } };
}

/**
 * JobStatistics with the query block (JobStatistics2). A PENDING or RUNNING job has its times
 * only; a dry run has no start time and reports the bytes it would process.
 */
export function jobStatistics(j: JobRecord): Record<string, unknown> {
  const stats: Record<string, unknown> = { creationTime: String(j.creationTime) };
  const dry = !!j.configuration.dryRun;
  if (j.startTime && !dry) stats.startTime = String(j.startTime);
  if (j.state !== 'DONE') return stats;
  if (j.endTime) stats.endTime = String(j.endTime);
  if (j.configuration.load) return loadStatistics(j, stats);
  if (j.configuration.copy && !j.configuration.query) return copyExtractStatistics(j, stats);
  if (j.configuration.extract && !j.configuration.query) return copyExtractStatistics(j, stats);
  const r = j.result;
  const processed = String(j.stats?.bytesProcessed ?? 0);
  const staged = ranStages(j);
  const slotMs = String(j.stats?.slotMs ?? 0);
  stats.totalBytesProcessed = processed;
  const q: Record<string, unknown> = {};
  if (staged) {
    q.queryPlan = queryPlan(j);
    q.estimatedBytesProcessed = processed;
    q.timeline = [
      {
        elapsedMs: String(Math.max(0, (j.endTime ?? 0) - (j.startTime ?? 0))),
        totalSlotMs: slotMs,
        pendingUnits: '0',
        completedUnits: '1',
        activeUnits: '0',
        estimatedRunnableUnits: '0',
      },
    ];
    q.totalPartitionsProcessed = '0';
  }
  q.totalBytesProcessed = processed;
  // A dry run bills nothing.
  q.totalBytesBilled = dry ? '0' : String(j.stats?.bytesBilled ?? 0);
  if (staged) {
    q.billingTier = 1;
    q.totalSlotMs = slotMs;
  }
  q.cacheHit = false;
  if (r) {
    if (r.referencedTables?.length) q.referencedTables = r.referencedTables.map(tableRef);
    // JobStatistics2.schema: "Present only for successful dry run of non-legacy SQL queries".
    if (r.schema && dry) q.schema = { fields: r.schema.map((f) => fieldFromType(f.name, f.type, f.required)) };
    q.statementType = r.statementType;
    if (r.exportDataStatistics && !dry)
      q.exportDataStatistics = { fileCount: String(r.exportDataStatistics.fileCount), rowCount: String(r.exportDataStatistics.rowCount) };
    Object.assign(q, dmlStatistics(r));
    if (r.ddlOperationPerformed) q.ddlOperationPerformed = r.ddlOperationPerformed;
    if (r.ddlTargetTable) q.ddlTargetTable = tableRef(r.ddlTargetTable);
    if (r.ddlTargetRoutine) q.ddlTargetRoutine = { projectId: r.ddlTargetRoutine.projectId, datasetId: r.ddlTargetRoutine.datasetId, routineId: r.ddlTargetRoutine.routineId };
    if (r.ddlTargetDataset) q.ddlTargetDataset = { projectId: r.ddlTargetDataset.projectId, datasetId: r.ddlTargetDataset.datasetId };
  }
  if (dry) q.totalBytesProcessedAccuracy = 'PRECISE';
  if (staged) q.transferredBytes = '0';
  stats.query = q;
  if (staged) {
    stats.totalSlotMs = slotMs;
    stats.finalExecutionDurationMs = String(Math.max(0, (j.endTime ?? 0) - (j.startTime ?? 0)));
  }
  if (j.childJobIds?.length) stats.numChildJobs = String(j.childJobIds.length);
  if (j.parentJobId) {
    stats.parentJobId = j.parentJobId;
    stats.scriptStatistics = { evaluationKind: 'STATEMENT' };
  }
  if (j.sessionId) stats.sessionInfo = { sessionId: j.sessionId };
  return stats;
}

/** A finished load job's statistics: JobStatistics3 (`load`) when it loaded, times only when it failed. */
function loadStatistics(j: JobRecord, stats: Record<string, unknown>): Record<string, unknown> {
  const l = j.loadStats;
  if (l)
    stats.load = {
      inputFiles: String(l.inputFiles),
      inputFileBytes: String(l.inputFileBytes),
      outputRows: String(l.outputRows),
      outputBytes: String(l.outputBytes),
      badRecords: String(l.badRecords),
    };
  return stats;
}

/**
 * A finished copy or extract job's statistics: JobStatistics5 (`copy`: copiedRows,
 * copiedLogicalBytes) or JobStatistics4 (`extract`: destinationUriFileCounts, inputBytes) when it
 * succeeded, times only when it failed.
 */
function copyExtractStatistics(j: JobRecord, stats: Record<string, unknown>): Record<string, unknown> {
  if (j.copyStats) stats.copy = { copiedRows: String(j.copyStats.copiedRows), copiedLogicalBytes: String(j.copyStats.copiedLogicalBytes) };
  if (j.extractStats)
    stats.extract = { destinationUriFileCounts: j.extractStats.destinationUriFileCounts.map(String), inputBytes: String(j.extractStats.inputBytes) };
  return stats;
}

/** JobConfiguration.jobType ("QUERY, LOAD, EXTRACT, COPY or UNKNOWN") of a job's configuration. */
function jobTypeOf(c: JobConfiguration<RequestJson>): string {
  if (c.query) return 'QUERY';
  return c.load ? 'LOAD' : c.copy ? 'COPY' : c.extract ? 'EXTRACT' : 'UNKNOWN';
}

/** Each job's etag, kept until its state changes (jobs.list pages thousands of jobs). */
const jobEtags = new EtagMemo<JobRecord>();

/** The Job resource. */
export function jobResource(base: string, j: JobRecord): Job {
  const status: Record<string, unknown> = { state: j.state };
  if (j.error) status.errorResult = j.error.toErrorProto();
  // status.errors: every error; a load job's bad records even when it succeeded (load.ts).
  if (j.errors?.length) status.errors = j.errors;
  else if (j.error) status.errors = [j.error.toErrorProto()];
  // The query configuration echoes its priority, INTERACTIVE by default (recorded on every query job);
  // a query without a destination names its anonymous result table (recorded job_get_complete).
  const anon = anonymousDestination(j);
  const query = j.configuration.query
    ? {
        ...j.configuration.query,
        ...(anon ? { destinationTable: tableRef(anon), writeDisposition: j.configuration.query.writeDisposition ?? 'WRITE_TRUNCATE' } : {}),
        priority: j.configuration.query.priority ?? 'INTERACTIVE',
      }
    : undefined;
  // An extract job echoes its first URI in the deprecated `destinationUri` too (recorded http/jobs/extract_avro_basic).
  const extract = j.configuration.extract && !j.configuration.query ? { ...j.configuration.extract, destinationUri: destinationUris(j.configuration.extract)[0] } : undefined;
  const configuration = { jobType: jobTypeOf(j.configuration), ...j.configuration, ...(query ? { query } : {}), ...(extract ? { extract } : {}) };
  const dry = !!j.configuration.dryRun;
  const body: Job = {
    kind: 'bigquery#job',
    id: `${j.projectId}:${j.location}.${j.jobId}`,
    selfLink: `${base}${API}/projects/${j.projectId}/jobs/${j.jobId}?location=${j.location}`,
    user_email: 'bqemu@localhost',
    configuration,
    // A dry run has no job id (recorded http/jobs/dryrun_schema_only).
    jobReference: dry ? { projectId: j.projectId, location: j.location } : { projectId: j.projectId, jobId: j.jobId, location: j.location },
    statistics: jobStatistics(j),
    status,
    principal_subject: 'user:bqemu@localhost',
  };
  // JobCreationReason (discovery): REQUESTED = "Job creation was requested."; recorded on every job but dry runs.
  if (!dry) body.jobCreationReason = { code: 'REQUESTED' };
  return { etag: jobEtags.of(j, [j.state, j.endTime], [j.jobId, j.state, j.endTime]), ...body };
}
