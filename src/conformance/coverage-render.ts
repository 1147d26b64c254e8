/** Coverage report output: the text report and the self-contained HTML page. */
import { DEPTH_TIERS, SHALLOW_THRESHOLD, SURFACE_CATEGORIES, type CoverageReport, type DepthTier, type SurfaceCategory, type SurfaceItem } from './coverage-model.js';
import { VARIATION_TAGS } from './tags.js';

const CATEGORY_TITLES: Record<SurfaceCategory, string> = {
  function: 'Functions',
  statement: 'Statements',
  job_config: 'Job-configuration knobs',
  type: 'Types',
  endpoint: 'Endpoints',
};

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

function wrapList(names: string[], indent: string, width = 100): string[] {
  const lines: string[] = [];
  let line = indent;
  for (const n of names) {
    if (line.length + n.length + 2 > width && line.trim()) {
      lines.push(line.replace(/,\s*$/, ','));
      line = indent;
    }
    line += `${n}, `;
  }
  if (line.trim()) lines.push(line.replace(/,\s*$/, ''));
  return lines;
}

function itemLabel(it: SurfaceItem): string {
  return it.known ? it.name : `${it.name}*`;
}

/** Text report: tags, per-category tier counts and lists, broad-but-shallow items. */
export function formatCoverageText(r: CoverageReport, opts: { maxPerTier?: number } = {}): string {
  const max = opts.maxPerTier ?? 400;
  const lines: string[] = [];
  const kinds = { sql: 0, http: 0, grpc: 0 };
  for (const f of r.fixtures) kinds[f.kind]++;
  lines.push(`Coverage of ${r.corpus}`);
  lines.push(`  ${r.fixtures.length} fixtures (${kinds.sql} sql, ${kinds.http} http, ${kinds.grpc} grpc); functions known from ${r.functionSource}`);
  lines.push('', 'Variation tags (fixtures per tag):');
  for (const t of VARIATION_TAGS) lines.push(`  ${t.padEnd(15)} ${String(r.tagCounts[t]).padStart(5)}`);
  lines.push('', 'Depth tiers (0 uncovered, 1 sampled, 2-5 covered, 6+ deep):');
  lines.push(`  ${'category'.padEnd(24)} ${DEPTH_TIERS.map((t) => t.padStart(9)).join(' ')}     total`);
  for (const c of SURFACE_CATEGORIES) {
    const its = r.items.filter((i) => i.category === c);
    lines.push(`  ${CATEGORY_TITLES[c].padEnd(24)} ${DEPTH_TIERS.map((t) => String(its.filter((i) => i.tier === t).length).padStart(9)).join(' ')} ${String(its.length).padStart(9)}`);
  }
  for (const c of SURFACE_CATEGORIES) {
    const its = r.items.filter((i) => i.category === c);
    lines.push('', `${CATEGORY_TITLES[c]}:`);
    for (const t of [...DEPTH_TIERS].reverse()) {
      const inTier = its.filter((i) => i.tier === t);
      if (inTier.length === 0) continue;
      const names = inTier.slice(0, max).map((i) => (t === 'uncovered' ? itemLabel(i) : `${itemLabel(i)} (${i.fixtures.length})`));
      lines.push(`  ${t} (${inTier.length}):`);
      lines.push(...wrapList(names, '    '));
      if (inTier.length > max) lines.push(`    … ${inTier.length - max} more`);
    }
  }
  const shallow = r.items.filter((i) => i.shallow);
  lines.push('', `Broad but shallow (>= ${SHALLOW_THRESHOLD} fixtures, tag union exactly {happy_path}): ${shallow.length}`);
  for (const c of SURFACE_CATEGORIES) {
    const its = shallow.filter((i) => i.category === c);
    if (its.length === 0) continue;
    lines.push(`  ${CATEGORY_TITLES[c]}:`);
    lines.push(...wrapList(its.map((i) => `${itemLabel(i)} (${i.fixtures.length})`), '    '));
  }
  if (r.items.some((i) => !i.known && i.fixtures.length > 0)) lines.push('', '* not in the reference list of its category (seen in the corpus only)');
  if (r.problems.length) {
    lines.push('', `Unreadable fixtures (${r.problems.length}):`);
    for (const p of r.problems.slice(0, 20)) lines.push(`  ${p.id}: ${p.message}`);
  }
  return lines.join('\n');
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A self-contained HTML page (inline CSS, no scripts or external assets). */
export function renderCoverageHtml(r: CoverageReport): string {
  const tierClass: Record<DepthTier, string> = { uncovered: 't0', sampled: 't1', covered: 't2', deep: 't3' };
  const parts: string[] = [];
  parts.push('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>bqemu corpus coverage</title><style>');
  parts.push(
    'body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}' +
      'th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}th{background:#f2f2f2}' +
      'td.n{text-align:right}.t0{background:#fbe3e3}.t1{background:#fdf1d6}.t2{background:#e6f2e1}.t3{background:#cfe8c8}' +
      '.shallow{font-weight:bold}.tag{display:inline-block;border-radius:3px;padding:0 4px;margin:0 2px;background:#e8e8f4;font-size:12px}' +
      'details{margin:.3em 0}summary{cursor:pointer}code{font-size:12px}',
  );
  parts.push('</style></head><body>');
  parts.push(`<h1>Corpus coverage</h1><p>${esc(r.corpus)} — ${r.fixtures.length} fixtures; functions known from ${esc(r.functionSource)}.</p>`);
  parts.push('<h2>Variation tags</h2><table><tr><th>tag</th><th>fixtures</th></tr>');
  for (const t of VARIATION_TAGS) parts.push(`<tr><td>${t}</td><td class="n">${r.tagCounts[t]}</td></tr>`);
  parts.push('</table><h2>Depth tiers</h2><table><tr><th>category</th>');
  for (const t of DEPTH_TIERS) parts.push(`<th class="${tierClass[t]}">${t}</th>`);
  parts.push('<th>broad but shallow</th><th>total</th></tr>');
  for (const c of SURFACE_CATEGORIES) {
    const its = r.items.filter((i) => i.category === c);
    parts.push(`<tr><td>${CATEGORY_TITLES[c]}</td>`);
    for (const t of DEPTH_TIERS) parts.push(`<td class="n ${tierClass[t]}">${its.filter((i) => i.tier === t).length}</td>`);
    parts.push(`<td class="n">${its.filter((i) => i.shallow).length}</td><td class="n">${its.length}</td></tr>`);
  }
  parts.push('</table>');
  const shallow = r.items.filter((i) => i.shallow);
  parts.push(`<h2>Broad but shallow (${shallow.length})</h2><p>Items with ${SHALLOW_THRESHOLD} or more fixtures whose tag union is exactly {happy_path}.</p><table><tr><th>category</th><th>item</th><th>fixtures</th></tr>`);
  for (const i of shallow) parts.push(`<tr><td>${CATEGORY_TITLES[i.category]}</td><td>${esc(i.name)}</td><td class="n">${i.fixtures.length}</td></tr>`);
  parts.push('</table>');
  for (const c of SURFACE_CATEGORIES) {
    const its = r.items.filter((i) => i.category === c);
    parts.push(`<h2>${CATEGORY_TITLES[c]}</h2><table><tr><th>item</th><th>fixtures</th><th>tier</th><th>tags</th><th>fixture ids</th></tr>`);
    for (const i of its) {
      const ids = i.fixtures.length
        ? `<details><summary>${i.fixtures.length}</summary>${i.fixtures.map((f) => `<code>${esc(f)}</code>`).join('<br>')}</details>`
        : '';
      parts.push(
        `<tr class="${tierClass[i.tier]}${i.shallow ? ' shallow' : ''}"><td>${esc(i.name)}${i.known ? '' : ' *'}</td><td class="n">${i.fixtures.length}</td>` +
          `<td>${i.tier}${i.shallow ? ' (shallow)' : ''}</td><td>${i.tags.map((t) => `<span class="tag">${t}</span>`).join('')}</td><td>${ids}</td></tr>`,
      );
    }
    parts.push('</table>');
  }
  parts.push('<p>* not in the reference list of its category (seen in the corpus only).</p></body></html>');
  return parts.join('\n');
}
