// The results / preview / job list grid: a Tabulator table (https://tabulator.info) inside a
// preact component. Only the modules the console uses are registered, to keep the bundle small.
import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';
import { Tabulator, FormatModule, InteractionModule, ResizeColumnsModule, ResizeTableModule, TooltipModule } from 'tabulator-tables';
import { displayText } from './cells.js';

// ResizeTable redraws a grid filled while its page was hidden once it is shown again.
Tabulator.registerModule([FormatModule, InteractionModule, ResizeColumnsModule, ResizeTableModule, TooltipModule]);

/** A cell: nested values as compact JSON, NULL greyed out, long texts cut with a tooltip. */
function formatCell(cell) {
  const v = cell.getValue();
  const el = document.createElement('span');
  el.textContent = displayText(v);
  if (v === null || v === undefined) el.className = 'null';
  else if (typeof v === 'object') el.className = 'nested';
  return el;
}

/**
 * Props: `columns` — `[{ name, title? }]`; `rows` — objects keyed by column name; `onRowClick(row)`;
 * `rowNumberFrom` — when given, a first column numbers the rows from it; `maxHeight` (CSS; the grid scrolls past it).
 */
export function Grid({ columns, rows, onRowClick, rowNumberFrom, maxHeight = '65vh', testId }) {
  const el = useRef(null);
  const table = useRef(null);
  const click = useRef(onRowClick);
  click.current = onRowClick;
  const key = JSON.stringify(columns.map((c) => c.name)) + (rowNumberFrom !== undefined);
  useEffect(() => {
    const cols = columns.map((c) => ({
      title: c.title || c.name,
      field: c.name,
      formatter: c.formatter || formatCell,
      tooltip: (e, cell) => displayText(cell.getValue()),
      maxWidth: 480,
    }));
    if (rowNumberFrom !== undefined) cols.unshift({ title: 'Row', field: '__row', width: 70, cssClass: 'rownum' });
    const t = new Tabulator(el.current, {
      data: [],
      columns: cols,
      layout: 'fitDataStretch',
      // Pages are small (≤ 50 rows): every row in the DOM, none virtualised.
      renderVertical: 'basic',
      maxHeight,
      placeholder: 'No rows',
      // Column names are BigQuery's, which may contain dots: no nested field lookup.
      nestedFieldSeparator: false,
    });
    t.on('rowClick', (_e, row) => click.current && click.current(row.getData()));
    table.current = { t, built: new Promise((resolve) => t.on('tableBuilt', resolve)) };
    return () => {
      table.current = null;
      t.destroy();
    };
  }, [key]);
  useEffect(() => {
    const cur = table.current;
    if (!cur) return;
    const data = rowNumberFrom !== undefined ? rows.map((r, i) => ({ ...r, __row: rowNumberFrom + i })) : rows;
    cur.built.then(() => table.current === cur && cur.t.replaceData(data));
  }, [rows, key]);
  return html`<div class="bq-grid" data-testid=${testId} ref=${el}></div>`;
}
