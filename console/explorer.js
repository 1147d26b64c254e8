// The explorer: project → datasets → tables tree (projects.list, datasets.list, tables.list) and
// a table's schema, details, paged preview (tabledata.list) and row access policies
// (rowAccessPolicies.list). https://cloud.google.com/bigquery/docs/reference/rest/v2/tables
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { bytesText, msText, rowObjects } from './cells.js';
import { Grid } from './grid.js';

const PREVIEW_PAGE = 25;

/** A dataset's node: its tables are listed the first time it is opened. */
function DatasetNode({ projectId, dataset, selected, onSelect }) {
  const datasetId = dataset.datasetReference.datasetId;
  const [tables, setTables] = useState(null);
  const [error, setError] = useState('');
  async function toggle(e) {
    if (!e.currentTarget.open || tables) return;
    try {
      const all = [];
      let token;
      do {
        const r = await api.tables(projectId, datasetId, token);
        all.push(...(r.tables || []));
        token = r.nextPageToken;
      } while (token);
      setTables(all);
    } catch (err) {
      setError(err.message);
    }
  }
  return html`
    <details class="dataset" onToggle=${toggle} data-testid=${`dataset-${datasetId}`}>
      <summary>${datasetId}</summary>
      ${error && html`<small class="error">${error}</small>`}
      <ul>
        ${(tables || []).map((t) => {
          const ref = t.tableReference;
          const isSel = selected && selected.datasetId === datasetId && selected.tableId === ref.tableId && selected.projectId === projectId;
          return html`<li><a href="#" class=${isSel ? 'selected' : ''} data-testid=${`table-${datasetId}.${ref.tableId}`}
            onClick=${(e) => (e.preventDefault(), onSelect(ref))} title=${t.type}>${ref.tableId}</a>${t.type !== 'TABLE' ? html` <small>${t.type.toLowerCase()}</small>` : ''}</li>`;
        })}
        ${tables && !tables.length ? html`<li><small>no tables</small></li>` : ''}
      </ul>
    </details>
  `;
}

/** The tree of every project the emulator lists. Props: `selected` table reference, `onSelect(ref)`. */
export function Tree({ projects, selected, onSelect, reloadKey }) {
  const [datasets, setDatasets] = useState({});
  useEffect(() => {
    for (const p of projects) {
      (async () => {
        const all = [];
        let token;
        do {
          const r = await api.datasets(p, token);
          all.push(...(r.datasets || []));
          token = r.nextPageToken;
        } while (token);
        setDatasets((d) => ({ ...d, [p]: all }));
      })().catch((e) => setDatasets((d) => ({ ...d, [p]: e })));
    }
  }, [projects.join(','), reloadKey]);
  return html`
    <nav class="tree" data-testid="tree">
      ${projects.map((p) => {
        const ds = datasets[p];
        return html`
          <details open key=${p + reloadKey}>
            <summary><strong>${p}</strong></summary>
            ${ds instanceof Error ? html`<small class="error">${ds.message}</small>` : ''}
            ${Array.isArray(ds) ? ds.map((d) => html`<${DatasetNode} key=${d.id} projectId=${p} dataset=${d} selected=${selected} onSelect=${onSelect} />`) : ''}
            ${Array.isArray(ds) && !ds.length ? html`<small>no datasets</small>` : ''}
          </details>`;
      })}
    </nav>
  `;
}

/** Schema fields flattened with their path (`a.b`) and depth, for the schema table. */
function flatFields(fields, prefix = '', depth = 0, out = []) {
  for (const f of fields || []) {
    out.push({ ...f, path: prefix + f.name, depth });
    if (f.fields) flatFields(f.fields, `${prefix}${f.name}.`, depth + 1, out);
  }
  return out;
}

function SchemaView({ table }) {
  const rows = flatFields(table.schema?.fields);
  return html`
    <table class="striped" data-testid="schema">
      <thead><tr><th>Field name</th><th>Type</th><th>Mode</th><th>Description</th></tr></thead>
      <tbody>
        ${rows.map((f) => html`<tr><td style=${`padding-left:${0.75 + f.depth * 1.25}rem`}><code>${f.depth ? f.path : f.name}</code></td>
          <td>${f.type}${f.rangeElementType ? `<${f.rangeElementType.type}>` : ''}</td><td>${f.mode || 'NULLABLE'}</td><td>${f.description || ''}</td></tr>`)}
      </tbody>
    </table>
  `;
}

function DetailsView({ table }) {
  const t = table;
  const part = t.timePartitioning
    ? `${t.timePartitioning.type} on ${t.timePartitioning.field || '_PARTITIONTIME'}`
    : t.rangePartitioning
      ? `RANGE on ${t.rangePartitioning.field}`
      : '';
  const items = [
    ['Table ID', `${t.tableReference.projectId}.${t.tableReference.datasetId}.${t.tableReference.tableId}`],
    ['Type', t.type],
    ['Description', t.description],
    ['Labels', t.labels && Object.entries(t.labels).map(([k, v]) => `${k}:${v}`).join(', ')],
    ['Created', msText(t.creationTime)],
    ['Last modified', msText(t.lastModifiedTime)],
    ['Table expiration', msText(t.expirationTime)],
    ['Data location', t.location],
    ['Number of rows', t.numRows],
    ['Total logical bytes', t.numBytes !== undefined ? bytesText(t.numBytes) : undefined],
    ['Partitioned by', part],
    ['Clustered by', t.clustering?.fields?.join(', ')],
    ['Streaming buffer rows', t.streamingBuffer?.estimatedRows],
    ['View query', t.view?.query || t.materializedView?.query],
    ['External data', t.externalDataConfiguration && `${t.externalDataConfiguration.sourceFormat} ${(t.externalDataConfiguration.sourceUris || []).join(', ')}`],
  ].filter(([, v]) => v !== undefined && v !== null && v !== '');
  return html`<table data-testid="details"><tbody>${items.map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${k === 'View query' ? html`<pre>${v}</pre>` : v}</td></tr>`)}</tbody></table>`;
}

function PreviewView({ table }) {
  const ref = table.tableReference;
  const [state, setState] = useState({ page: 0, tokens: [undefined], rows: null, total: 0, error: '' });
  async function load(page, tokens) {
    try {
      const r = await api.tableData(ref, PREVIEW_PAGE, tokens[page]);
      const next = tokens.slice();
      next[page + 1] = r.pageToken;
      setState({ page, tokens: next, rows: rowObjects(table.schema, r.rows), total: Number(r.totalRows || 0), error: '' });
    } catch (e) {
      setState((s) => ({ ...s, error: e.message }));
    }
  }
  useEffect(() => void load(0, [undefined]), [ref.tableId, ref.datasetId]);
  if (state.error) return html`<article class="error" data-testid="preview-error">${state.error}</article>`;
  if (!state.rows) return html`<p aria-busy="true">Loading…</p>`;
  const first = state.page * PREVIEW_PAGE + 1;
  return html`
    <div class="results-head">
      <span data-testid="preview-summary">Rows ${state.total ? first : 0}–${state.page * PREVIEW_PAGE + state.rows.length} of ${state.total}</span>
      <span role="group" class="pager">
        <button class="outline" data-testid="preview-prev" disabled=${state.page === 0} onClick=${() => load(state.page - 1, state.tokens)}>‹ Previous</button>
        <button class="outline" data-testid="preview-next" disabled=${!state.tokens[state.page + 1]} onClick=${() => load(state.page + 1, state.tokens)}>Next ›</button>
      </span>
    </div>
    <${Grid} testId="preview-grid" columns=${table.schema?.fields || []} rows=${state.rows} rowNumberFrom=${first} />
  `;
}

function PoliciesView({ table }) {
  const [policies, setPolicies] = useState(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api.rowAccessPolicies(table.tableReference).then((r) => setPolicies(r.rowAccessPolicies || []), (e) => setError(e.message));
  }, [table.tableReference.tableId]);
  if (error) return html`<article class="error">${error}</article>`;
  if (!policies) return html`<p aria-busy="true">Loading…</p>`;
  if (!policies.length) return html`<p data-testid="policies">This table has no row access policies.</p>`;
  return html`
    <table class="striped" data-testid="policies">
      <thead><tr><th>Policy</th><th>Filter</th><th>Created</th><th>Last modified</th></tr></thead>
      <tbody>
        ${policies.map((p) => html`<tr><td>${p.rowAccessPolicyReference.policyId}</td><td><code>${p.filterPredicate}</code></td>
          <td>${msText(Date.parse(p.creationTime) || p.creationTime)}</td><td>${msText(Date.parse(p.lastModifiedTime) || p.lastModifiedTime)}</td></tr>`)}
      </tbody>
    </table>
    <p><small>Grantees are not shown: the REST API accepts them but never returns them (RowAccessPolicy.grantees is input only).</small></p>
  `;
}

const TABS = [
  ['schema', 'Schema', SchemaView],
  ['details', 'Details', DetailsView],
  ['preview', 'Preview', PreviewView],
  ['policies', 'Row access policies', PoliciesView],
];

/** A table's page. Props: `tableRef`, `onQuery(sql)` (opens the editor on this table). */
export function TableView({ tableRef, onQuery }) {
  const [table, setTable] = useState(null);
  const [error, setError] = useState('');
  const [tab, setTab] = useState('schema');
  useEffect(() => {
    setTable(null);
    setError('');
    api.table(tableRef).then(setTable, (e) => setError(e.message));
  }, [tableRef.projectId, tableRef.datasetId, tableRef.tableId]);
  if (error) return html`<article class="error">${error}</article>`;
  if (!table) return html`<p aria-busy="true">Loading…</p>`;
  const View = TABS.find(([id]) => id === tab)[2];
  const name = `${tableRef.projectId}.${tableRef.datasetId}.${tableRef.tableId}`;
  return html`
    <section class="table-view">
      <header class="table-head">
        <h2 data-testid="table-title">${tableRef.tableId}</h2>
        <button class="outline" onClick=${() => onQuery(`SELECT * FROM \`${name}\` LIMIT 1000`)}>Query</button>
      </header>
      <div class="tabs" role="tablist">
        ${TABS.map(([id, label]) => html`<a href="#" role="tab" aria-selected=${tab === id} data-testid=${`tab-${id}`} onClick=${(e) => (e.preventDefault(), setTab(id))}>${label}</a>`)}
      </div>
      <${View} table=${table} />
    </section>
  `;
}
