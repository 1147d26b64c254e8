/** Documentation examples: the pass-rate report (docs.ts). */
import type { DocGroup, DocOutcome } from './docs-model.js';

interface Tally {
  passed: number;
  total: number;
}

function pct(t: Tally): string {
  return `${t.total ? ((t.passed / t.total) * 100).toFixed(1) : '0.0'}%`;
}

/** Coarse failure kind of a cause, for the kinds table. */
export function failureKind(cause: string): string {
  if (!cause.startsWith('emulator error: ')) return cause.split(':')[0]!;
  const rest = cause.slice('emulator error: '.length);
  if (rest.startsWith('not supported: ')) return 'emulator error: function/operator not supported by bqemu';
  if (rest.startsWith('function not found')) return 'emulator error: function not found by the analyzer (not a BigQuery function?)';
  if (/^Type \w+ is not supported/.test(rest)) return 'emulator error: type not supported';
  if (/^Syntax error/.test(rest)) return 'emulator error: syntax error';
  if (rest.startsWith('client could not decode')) return 'client decode error (wire format)';
  if (/does not exist!|Binder Error|Conversion Error|Catalog Error|Parser Error|Invalid Input Error/i.test(rest)) return 'emulator error: execution engine error';
  return 'emulator error: other';
}

const GROUP_TITLES: Record<DocGroup, string> = { core: 'GoogleSQL core', pipe: 'pipe syntax', graph: 'graph (not BigQuery)', proto: 'protocol buffers (not BigQuery)' };

/** True for a case counted in the acceptance metric: core group, of a BigQuery feature (docs-scope.ts). */
export function isBigQueryCase(o: DocOutcome): boolean {
  return o.group === 'core' && !o.notBigQuery;
}

function tally(map: Map<string, Tally>, key: string, pass: boolean): void {
  const t = map.get(key) ?? { passed: 0, total: 0 };
  t.total++;
  if (pass) t.passed++;
  map.set(key, t);
}

const fmt = (t: Tally | undefined) => (t ? `${String(t.passed).padStart(4)}/${String(t.total).padEnd(4)} ${pct(t).padStart(6)}` : ''.padEnd(16));

/**
 * Text report: the acceptance metric (BigQuery-feature cases), rates by doc page, the GoogleSQL-only
 * and pipe/graph/proto cases apart with their exclusion reasons, top failing pages and causes of the
 * BigQuery-feature cases; last line `N passed, N failed` over every case run.
 */
export function formatDocsReport(outcomes: DocOutcome[], skipped: Record<string, number>, opts: { maxCauses?: number; maxFailures?: number } = {}): string {
  const lines: string[] = [];
  const byDoc = new Map<string, Tally>();
  const otherByDoc = new Map<string, Tally>();
  const byGroup = new Map<string, Tally>();
  const byReason = new Map<string, Tally>();
  for (const o of outcomes) {
    const pass = o.status === 'pass';
    if (isBigQueryCase(o)) tally(byDoc, o.doc, pass);
    else tally(otherByDoc, o.doc, pass);
    // Pipe-syntax cases of BigQuery's pipe operators are their own group; the others are GoogleSQL-only.
    const scoped = o.group === 'core' || o.group === 'pipe';
    tally(byGroup, scoped && o.notBigQuery ? 'zetasql' : o.group === 'core' ? 'bigquery' : o.group, pass);
    if (scoped && o.notBigQuery) tally(byReason, o.notBigQuery, pass);
  }
  const docs = [...new Set([...byDoc.keys(), ...otherByDoc.keys()])].sort();
  const w = Math.max(10, ...docs.map((k) => k.length));
  lines.push(`Documentation examples by page:  ${'BigQuery features'.padEnd(16)}  not BigQuery / pipe / graph / proto`);
  for (const doc of docs) lines.push(`  ${doc.padEnd(w)}  ${fmt(byDoc.get(doc))}  ${otherByDoc.has(doc) ? fmt(otherByDoc.get(doc)) : ''}`.trimEnd());
  lines.push('', 'By group:');
  const groups: [string, string][] = [
    ['bigquery', 'BigQuery features (acceptance metric)'],
    ['zetasql', 'GoogleSQL features BigQuery does not have'],
    ['pipe', 'pipe syntax (BigQuery pipe operators)'],
    ...(['graph', 'proto'] as DocGroup[]).map((g): [string, string] => [g, GROUP_TITLES[g]]),
  ];
  for (const [g, title] of groups) {
    const t = byGroup.get(g);
    if (t) lines.push(`  ${title.padEnd(48)} ${fmt(t)}`);
  }
  if (byReason.size) {
    const reasons = [...byReason.entries()].sort((a, b) => b[1].total - a[1].total || a[0].localeCompare(b[0]));
    lines.push(`  not BigQuery, by reason (docs-scope.ts): ${reasons.map(([r, t]) => `${r} ${t.total}`).join(', ')}`);
  }
  const skippedTotal = Object.values(skipped).reduce((a, b) => a + b, 0);
  if (skippedTotal) lines.push(`  not run (${skippedTotal}): ${Object.entries(skipped).map(([k, v]) => `${k} ${v}`).join(', ')}`);

  const failing = [...byDoc.entries()].filter(([, t]) => t.passed < t.total).sort((a, b) => b[1].total - b[1].passed - (a[1].total - a[1].passed) || a[0].localeCompare(b[0]));
  if (failing.length) {
    lines.push('', 'Top failing pages (failures):');
    for (const [doc, t] of failing.slice(0, 12)) lines.push(`  ${String(t.total - t.passed).padStart(5)}  ${doc} (${pct(t)} pass)`);
  }
  const failures = outcomes.filter((o) => o.status === 'fail' && isBigQueryCase(o));
  if (failures.length) {
    const kinds = new Map<string, number>();
    const causes = new Map<string, { count: number; examples: string[] }>();
    for (const o of failures) {
      const cause = o.cause ?? 'unknown';
      const kind = failureKind(cause);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      const g = causes.get(cause) ?? { count: 0, examples: [] };
      g.count++;
      if (g.examples.length < 3) g.examples.push(o.id);
      causes.set(cause, g);
    }
    lines.push('', 'Failure kinds (BigQuery-feature cases):');
    for (const [k, n] of [...kinds.entries()].sort((a, b) => b[1] - a[1])) lines.push(`  ${String(n).padStart(5)}  ${k}`);
    const maxCauses = opts.maxCauses ?? 30;
    const sorted = [...causes.entries()].sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]));
    lines.push('', `Top failure causes (${Math.min(maxCauses, sorted.length)} of ${sorted.length} groups):`);
    for (const [cause, g] of sorted.slice(0, maxCauses)) {
      lines.push(`  ${String(g.count).padStart(5)}  ${cause}`);
      lines.push(`         e.g. ${g.examples.join(', ')}`);
    }
    const maxFailures = opts.maxFailures ?? 0;
    if (maxFailures > 0) {
      lines.push('', `Failures (${Math.min(maxFailures, failures.length)} of ${failures.length}):`);
      for (const o of failures.slice(0, maxFailures)) lines.push(`  ${o.id}  [${o.cause}] ${(o.detail ?? '').replace(/\s+/g, ' ').slice(0, 240)}`);
    }
  }
  const allFailed = outcomes.filter((o) => o.status === 'fail').length;
  lines.push('', `${outcomes.length - allFailed} passed, ${allFailed} failed`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
