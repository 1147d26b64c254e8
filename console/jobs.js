// Job history: jobs.list with projection=full and allUsers
// (https://cloud.google.com/bigquery/docs/reference/rest/v2/jobs/list), newest first, and each
// job's configuration, statistics and status (errorResult, errors) when it is picked.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { bytesText, msText } from './cells.js';
import { Grid } from './grid.js';

const COLUMNS = [
  { name: 'jobId', title: 'Job ID' },
  { name: 'type', title: 'Type' },
  { name: 'state', title: 'State' },
  { name: 'created', title: 'Created' },
  { name: 'duration', title: 'Duration' },
  { name: 'bytes', title: 'Bytes processed' },
  { name: 'error', title: 'Error' },
];

function summary(j) {
  const s = j.statistics || {};
  const type = Object.keys(j.configuration || {}).find((k) => ['query', 'load', 'copy', 'extract'].includes(k)) || j.configuration?.jobType || '';
  return {
    jobId: j.jobReference.jobId,
    type: type.toUpperCase(),
    state: j.status?.errorResult ? 'FAILED' : j.status?.state || j.state,
    created: msText(s.creationTime),
    duration: s.endTime && s.startTime ? `${Number(s.endTime) - Number(s.startTime)} ms` : '',
    bytes: s.query?.totalBytesProcessed !== undefined ? bytesText(s.query.totalBytesProcessed) : '',
    error: j.status?.errorResult?.message || j.errorResult?.message || '',
    job: j,
  };
}

/** Props: `projectId`, `reloadKey` (changes when a job was run from the console). */
export function JobsPage({ projectId, reloadKey }) {
  const [pages, setPages] = useState({ jobs: [], token: undefined });
  const [error, setError] = useState('');
  const [picked, setPicked] = useState(null);
  async function load(more) {
    try {
      const r = await api.jobs(projectId, more ? pages.token : undefined);
      const jobs = (r.jobs || []).map(summary);
      setPages({ jobs: more ? [...pages.jobs, ...jobs] : jobs, token: r.nextPageToken });
      setError('');
    } catch (e) {
      setError(e.message);
    }
  }
  useEffect(() => void load(false), [projectId, reloadKey]);
  const j = picked?.job;
  return html`
    <section class="jobs-page">
      <div class="results-head">
        <span>Jobs of ${projectId} (all users), newest first</span>
        <span role="group" class="pager">
          <button class="outline" data-testid="jobs-refresh" onClick=${() => load(false)}>Refresh</button>
          <button class="outline" disabled=${!pages.token} onClick=${() => load(true)}>More</button>
        </span>
      </div>
      ${error && html`<article class="error">${error}</article>`}
      <${Grid} testId="jobs-grid" columns=${COLUMNS} rows=${pages.jobs} maxHeight="320px" onRowClick=${setPicked} />
      ${j &&
      html`
        <article class="job-detail" data-testid="job-detail">
          <header><strong>${j.jobReference.jobId}</strong> · ${j.jobReference.location || ''} · ${picked.state} ${j.user_email ? `· ${j.user_email}` : ''}</header>
          ${j.status?.errorResult && html`<p class="error" data-testid="job-error"><strong>${j.status.errorResult.reason}</strong>: ${j.status.errorResult.message}</p>`}
          <div class="grid-2">
            <div><h4>Configuration</h4><pre data-testid="job-configuration">${JSON.stringify(j.configuration, null, 2)}</pre></div>
            <div><h4>Statistics</h4><pre data-testid="job-statistics">${JSON.stringify(j.statistics, null, 2)}</pre></div>
          </div>
          ${j.status?.errors?.length ? html`<h4>Errors</h4><pre>${JSON.stringify(j.status.errors, null, 2)}</pre>` : ''}
        </article>
      `}
    </section>
  `;
}
