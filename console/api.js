// The console's only way to the emulator: BigQuery's public REST v2 API on the same origin
// (https://cloud.google.com/bigquery/docs/reference/rest). Every call is a same-origin JSON
// request, so the server's Host, Origin and content-type guards accept it.

const BASE = '/bigquery/v2';

/** A REST error as BigQuery sends it: `error.message`, `error.code`, `error.errors[0].reason`. */
export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.message || `HTTP ${status}`);
    this.status = status;
    this.reason = e.errors && e.errors[0] ? e.errors[0].reason : undefined;
  }
}

const enc = encodeURIComponent;

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

async function call(method, path, params, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(BASE + path + query(params), init);
  const text = await res.text();
  const json = text ? JSON.parse(text) : {};
  if (!res.ok) throw new ApiError(res.status, json);
  return json;
}

const tablePath = (ref) => `/projects/${enc(ref.projectId)}/datasets/${enc(ref.datasetId)}/tables/${enc(ref.tableId)}`;

export const api = {
  /** projects.list */
  projects: () => call('GET', '/projects', { maxResults: 1000 }),
  /** datasets.list (hidden datasets too) */
  datasets: (projectId, pageToken) => call('GET', `/projects/${enc(projectId)}/datasets`, { all: true, maxResults: 1000, pageToken }),
  /** tables.list */
  tables: (projectId, datasetId, pageToken) => call('GET', `/projects/${enc(projectId)}/datasets/${enc(datasetId)}/tables`, { maxResults: 1000, pageToken }),
  /** datasets.get */
  dataset: (projectId, datasetId) => call('GET', `/projects/${enc(projectId)}/datasets/${enc(datasetId)}`),
  /** tables.get */
  table: (ref) => call('GET', tablePath(ref)),
  /** tabledata.list: one page of rows */
  tableData: (ref, maxResults, pageToken) => call('GET', `${tablePath(ref)}/data`, { maxResults, pageToken, 'formatOptions.useInt64Timestamp': true }),
  /** rowAccessPolicies.list */
  rowAccessPolicies: (ref) => call('GET', `${tablePath(ref)}/rowAccessPolicies`),
  /** jobs.insert of a query job with a job id chosen here (so it can be cancelled at once) */
  insertQuery: (projectId, jobId, sql) =>
    call('POST', `/projects/${enc(projectId)}/jobs`, {}, { jobReference: { projectId, jobId }, configuration: { query: { query: sql, useLegacySql: false } } }),
  /** jobs.query with dryRun: the bytes the query would process */
  dryRun: (projectId, sql) => call('POST', `/projects/${enc(projectId)}/queries`, {}, { query: sql, useLegacySql: false, dryRun: true }),
  /** jobs.getQueryResults: one page of a query's rows (waits up to timeoutMs for the job) */
  queryResults: (ref, maxResults, pageToken, timeoutMs) =>
    call('GET', `/projects/${enc(ref.projectId)}/queries/${enc(ref.jobId)}`, { location: ref.location, maxResults, pageToken, timeoutMs, 'formatOptions.useInt64Timestamp': true }),
  /** jobs.get */
  job: (ref) => call('GET', `/projects/${enc(ref.projectId)}/jobs/${enc(ref.jobId)}`, { location: ref.location }),
  /** jobs.cancel */
  cancel: (ref) => call('POST', `/projects/${enc(ref.projectId)}/jobs/${enc(ref.jobId)}/cancel`, { location: ref.location }),
  /** jobs.list with projection=full (configuration included) for every user */
  jobs: (projectId, pageToken) => call('GET', `/projects/${enc(projectId)}/jobs`, { projection: 'full', allUsers: true, maxResults: 50, pageToken }),
};
