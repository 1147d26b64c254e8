// The query page: editor, run (jobs.insert + jobs.getQueryResults pages), cancel (jobs.cancel),
// dry run (jobs.query with dryRun: totalBytesProcessed), a paged results grid and downloads.
// https://cloud.google.com/bigquery/docs/reference/rest/v2/jobs
import { html } from 'htm/preact';
import { useRef, useState } from 'preact/hooks';
import { api } from './api.js';
import { bytesText, rowObjects, toCsv, toJson } from './cells.js';
import { SqlEditor } from './editor.js';
import { Grid } from './grid.js';

const PAGE_SIZE = 50;
/** Rows a download collects at most (more would not fit a browser tab comfortably). */
const DOWNLOAD_MAX_ROWS = 100000;

const newJobId = () => `console_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Saves `text` as a file through a temporary object URL. */
function saveFile(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** Props: `projectId`, `initialSql`, `onJobDone()` (refreshes the history). */
export function QueryPage({ projectId, initialSql, onJobDone }) {
  const sqlRef = useRef(initialSql || 'SELECT 1 AS x');
  const [job, setJob] = useState(null); // { ref, state, stats }
  const [error, setError] = useState(null);
  const [estimate, setEstimate] = useState('');
  const [result, setResult] = useState(null); // { schema, totalRows, rows, page, tokens }
  const [busy, setBusy] = useState(false);
  const runId = useRef(0);

  async function run() {
    const my = ++runId.current;
    setError(null);
    setResult(null);
    setEstimate('');
    setJob(null);
    setBusy(true);
    try {
      const inserted = await api.insertQuery(projectId, newJobId(), sqlRef.current);
      const ref = inserted.jobReference;
      setJob({ ref, state: inserted.status?.state || 'PENDING' });
      let page;
      for (;;) {
        page = await api.queryResults(ref, PAGE_SIZE, undefined, 1000);
        if (runId.current !== my) return;
        if (page.jobComplete) break;
        setJob({ ref, state: 'RUNNING' });
        await sleep(100);
      }
      const full = await api.job(ref);
      if (runId.current !== my) return;
      setJob({ ref, state: 'DONE', stats: full.statistics, statementType: full.statistics?.query?.statementType });
      setResult({ schema: page.schema, totalRows: Number(page.totalRows || 0), rows: rowObjects(page.schema, page.rows), page: 0, tokens: [undefined, page.pageToken], affected: page.numDmlAffectedRows });
    } catch (e) {
      if (runId.current === my) {
        setError({ message: e.message, reason: e.reason });
        setJob((j) => j && { ...j, state: 'DONE' });
      }
    } finally {
      if (runId.current === my) {
        setBusy(false);
        onJobDone && onJobDone();
      }
    }
  }

  async function cancel() {
    if (!job) return;
    try {
      await api.cancel(job.ref);
    } catch (e) {
      setError({ message: e.message, reason: e.reason });
    }
  }

  async function dryRun() {
    setError(null);
    setEstimate('');
    try {
      const r = await api.dryRun(projectId, sqlRef.current);
      setEstimate(`This query will process ${bytesText(r.totalBytesProcessed)} when run.`);
    } catch (e) {
      setError({ message: e.message, reason: e.reason });
    }
  }

  async function goto(page) {
    const token = result.tokens[page];
    if (page > 0 && !token) return;
    try {
      const r = await api.queryResults(job.ref, PAGE_SIZE, token, 10000);
      const tokens = result.tokens.slice();
      tokens[page + 1] = r.pageToken;
      setResult({ ...result, rows: rowObjects(r.schema || result.schema, r.rows), page, tokens });
    } catch (e) {
      setError({ message: e.message, reason: e.reason });
    }
  }

  async function download(kind) {
    const all = [];
    let token;
    do {
      const r = await api.queryResults(job.ref, 10000, token, 10000);
      all.push(...rowObjects(result.schema, r.rows));
      token = r.pageToken;
    } while (token && all.length < DOWNLOAD_MAX_ROWS);
    const rows = all.slice(0, DOWNLOAD_MAX_ROWS);
    if (kind === 'csv') saveFile('results.csv', 'text/csv', toCsv(result.schema.fields, rows));
    else saveFile('results.json', 'application/json', toJson(rows));
  }

  const fields = result?.schema?.fields || [];
  const first = result ? result.page * PAGE_SIZE + 1 : 0;
  const last = result ? result.page * PAGE_SIZE + result.rows.length : 0;
  const stats = job?.stats;
  return html`
    <section class="query-page">
      <${SqlEditor} value=${sqlRef.current} onChange=${(t) => (sqlRef.current = t)} onRun=${run} error=${error} />
      <div class="toolbar" role="group">
        <button data-testid="run" onClick=${run} disabled=${busy} aria-busy=${busy}>Run</button>
        <button data-testid="cancel" class="secondary" onClick=${cancel} disabled=${!busy || !job}>Cancel</button>
        <button data-testid="dry-run" class="outline" onClick=${dryRun}>Dry run</button>
        <span class="status" data-testid="job-status">${job ? `Job ${job.ref.jobId}: ${job.state}` : ''}</span>
      </div>
      ${estimate && html`<p class="estimate" data-testid="estimate">${estimate}</p>`}
      ${error && html`<article class="error" data-testid="query-error"><strong>${error.reason || 'error'}</strong>: ${error.message}</article>`}
      ${result &&
      html`
        <div class="results-head">
          <span data-testid="result-summary">
            ${stats?.query?.statementType ? `${stats.query.statementType} · ` : ''}${result.affected !== undefined ? `${result.affected} rows affected · ` : ''}
            ${fields.length ? `Rows ${result.totalRows ? first : 0}–${last} of ${result.totalRows}` : 'No result set'}
            ${stats ? ` · ${bytesText(stats.totalBytesProcessed)} processed · ${Number(stats.endTime) - Number(stats.startTime)} ms` : ''}
          </span>
          <span role="group" class="pager">
            <button class="outline" data-testid="results-prev" disabled=${result.page === 0} onClick=${() => goto(result.page - 1)}>‹ Previous</button>
            <button class="outline" data-testid="results-next" disabled=${!result.tokens[result.page + 1]} onClick=${() => goto(result.page + 1)}>Next ›</button>
            <button class="outline" data-testid="download-csv" disabled=${!fields.length} onClick=${() => download('csv')}>CSV</button>
            <button class="outline" data-testid="download-json" disabled=${!fields.length} onClick=${() => download('json')}>JSON</button>
          </span>
        </div>
        ${fields.length ? html`<${Grid} testId="results-grid" columns=${fields} rows=${result.rows} rowNumberFrom=${first} />` : null}
      `}
    </section>
  `;
}
