// The bqemu web console: a preact app (htm templates, no JSX build) that talks to the emulator
// only through BigQuery's public REST v2 API on the same origin.
import { html, render } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { Tree, TableView } from './explorer.js';
import { QueryPage } from './query.js';
import { JobsPage } from './jobs.js';

function App() {
  const [projects, setProjects] = useState([]);
  const [error, setError] = useState('');
  const [page, setPage] = useState('query');
  const [tableRef, setTableRef] = useState(null);
  const [draft, setDraft] = useState({ sql: 'SELECT 1 AS x', n: 0 });
  const [jobsKey, setJobsKey] = useState(0);
  const [treeKey, setTreeKey] = useState(0);
  useEffect(() => {
    api.projects().then((r) => setProjects((r.projects || []).map((p) => p.projectReference.projectId)), (e) => setError(e.message));
  }, []);
  const projectId = projects[0];
  const openTable = (ref) => {
    setTableRef(ref);
    setPage('table');
  };
  const openQuery = (sql) => {
    setDraft((d) => ({ sql, n: d.n + 1 }));
    setPage('query');
  };
  const tab = (id, label) => html`<li><a href="#" data-testid=${`nav-${id}`} aria-current=${page === id ? 'page' : undefined}
    onClick=${(e) => (e.preventDefault(), setPage(id))}>${label}</a></li>`;
  return html`
    <header class="top">
      <nav>
        <ul><li><strong>bqemu</strong> console</li></ul>
        <ul>${tab('query', 'Query')}${tab('jobs', 'Job history')}</ul>
      </nav>
    </header>
    <div class="layout">
      <aside>
        <div class="aside-head"><strong>Explorer</strong><a href="#" title="Reload" data-testid="tree-reload" onClick=${(e) => (e.preventDefault(), setTreeKey((k) => k + 1))}>↻</a></div>
        ${error && html`<small class="error">${error}</small>`}
        <${Tree} projects=${projects} selected=${page === 'table' ? tableRef : null} onSelect=${openTable} reloadKey=${treeKey} />
      </aside>
      <main>
        ${!projectId ? html`<p aria-busy="true">Loading…</p>` : ''}
        ${projectId && page === 'table' && tableRef ? html`<${TableView} tableRef=${tableRef} onQuery=${openQuery} />` : ''}
        ${projectId ? html`<div hidden=${page !== 'query'}><${QueryPage} key=${draft.n} projectId=${projectId} initialSql=${draft.sql} onJobDone=${() => setJobsKey((k) => k + 1)} /></div>` : ''}
        ${projectId && page === 'jobs' ? html`<${JobsPage} projectId=${projectId} reloadKey=${jobsKey} />` : ''}
      </main>
    </div>
  `;
}

render(html`<${App} />`, document.getElementById('app'));
