/**
 * REST shapes of jobs: Job, JobList items, QueryResponse and GetQueryResultsResponse
 * (api/bigquery-v2-discovery.json; statistics per JobStatistics / JobStatistics2).
 */
import type { JobRecord } from '../jobs/jobs.js';
import { fieldFromType } from '../types/schema.js';
import { etagOf } from './resources.js';

const API = '/bigquery/v2';

const tableRef = (r: { projectId: string; datasetId: string; tableId: string }) => ({
  projectId: r.projectId,
  datasetId: r.datasetId,
  tableId: r.tableId,
});

/** JobStatistics with the query block (JobStatistics2). */
export function jobStatistics(j: JobRecord): Record<string, unknown> {
  const stats: Record<string, unknown> = { creationTime: String(j.creationTime) };
  if (j.startTime) stats.startTime = String(j.startTime);
  if (j.endTime) stats.endTime = String(j.endTime);
  const r = j.result;
  const q: Record<string, unknown> = {
    totalBytesProcessed: '0',
    totalBytesBilled: '0',
    cacheHit: false,
    totalSlotMs: '0',
  };
  stats.totalBytesProcessed = '0';
  if (r) {
    q.statementType = r.statementType;
    if (r.schema) q.schema = { fields: r.schema.map((f) => fieldFromType(f.name, f.type, f.required)) };
    if (r.numDmlAffectedRows !== undefined) {
      q.numDmlAffectedRows = String(r.numDmlAffectedRows);
      const n = String(r.numDmlAffectedRows);
      q.dmlStats =
        r.statementType === 'DELETE'
          ? { deletedRowCount: n }
          : r.statementType === 'UPDATE'
            ? { updatedRowCount: n }
            : { insertedRowCount: n };
    }
    if (r.ddlOperationPerformed) q.ddlOperationPerformed = r.ddlOperationPerformed;
    if (r.ddlTargetTable) q.ddlTargetTable = tableRef(r.ddlTargetTable);
    if (r.referencedTables) q.referencedTables = r.referencedTables.map(tableRef);
  }
  if ((j.children?.length ?? 0) > 1) stats.numChildJobs = String(j.children!.length);
  if (j.sessionId) stats.sessionInfo = { sessionId: j.sessionId };
  stats.query = q;
  return stats;
}

/** The Job resource. */
export function jobResource(base: string, j: JobRecord): Record<string, unknown> {
  const status: Record<string, unknown> = { state: j.state };
  if (j.error) {
    status.errorResult = j.error.toErrorProto();
    status.errors = [j.error.toErrorProto()];
  }
  const configuration = { jobType: 'QUERY', ...j.configuration };
  const body = {
    kind: 'bigquery#job',
    id: `${j.projectId}:${j.location}.${j.jobId}`,
    selfLink: `${base}${API}/projects/${j.projectId}/jobs/${j.jobId}?location=${j.location}`,
    user_email: 'bqemu@localhost',
    principal_subject: 'user:bqemu@localhost',
    configuration,
    jobReference: { projectId: j.projectId, jobId: j.jobId, location: j.location },
    statistics: jobStatistics(j),
    status,
    // JobCreationReason (discovery): REQUESTED = "Job creation was requested."; recorded on every job.
    jobCreationReason: { code: 'REQUESTED' },
  };
  return { etag: etagOf([j.jobId, j.state, j.endTime]), ...body };
}
