/**
 * Corpus run report: pass rates by phase, top failure kinds and grouped causes, JSON output
 * (conformance/README.md "Running": the pass gate; "Fixture outcomes and compared fields").
 */
import { writeFileSync } from 'node:fs';
import type { FixtureOutcome } from './runner.js';

/**
 * Collapse the volatile parts of a failure cause so similar failures group together: per-run
 * dataset names, project-qualified names, `[line:col]` markers, numbers and long quoted strings.
 */
export function normaliseCause(cause: string): string {
  return cause
    .replace(/[\w-]+[.:]bqemu_cr_\w+/g, '<dataset>')
    .replace(/bqemu_cr_\w+/g, '<dataset>')
    .replace(/\[\d+:\d+\]/g, '[L:C]')
    .replace(/(["'`])([^"'`]{40,})\1/g, '$1…$1')
    .replace(/\b\d+(\.\d+)?\b/g, 'N')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 160);
}

export interface PhaseSummary {
  phase: string;
  passed: number;
  failed: number;
  total: number;
  rate: number;
}

export interface CauseGroup {
  kind: string;
  cause: string;
  count: number;
  examples: string[];
}

export interface RunSummary {
  passed: number;
  failed: number;
  total: number;
  phases: PhaseSummary[];
  kinds: { kind: string; count: number }[];
  causes: CauseGroup[];
}

/** Aggregate outcomes into per-phase rates, failure kinds and grouped causes. */
export function summarise(outcomes: FixtureOutcome[]): RunSummary {
  const phases = new Map<string, PhaseSummary>();
  const kinds = new Map<string, number>();
  const causes = new Map<string, CauseGroup>();
  for (const o of outcomes) {
    const p = phases.get(o.phase) ?? { phase: o.phase, passed: 0, failed: 0, total: 0, rate: 0 };
    p.total++;
    if (o.status === 'pass') p.passed++;
    else p.failed++;
    phases.set(o.phase, p);
    if (o.status === 'fail') {
      const kind = o.kind ?? 'unknown';
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      const cause = normaliseCause(o.cause ?? o.detail ?? '');
      const key = `${kind}\u0000${cause}`;
      const g = causes.get(key) ?? { kind, cause, count: 0, examples: [] };
      g.count++;
      if (g.examples.length < 3) g.examples.push(o.id);
      causes.set(key, g);
    }
  }
  for (const p of phases.values()) p.rate = p.total ? p.passed / p.total : 0;
  const passed = outcomes.filter((o) => o.status === 'pass').length;
  return {
    passed,
    failed: outcomes.length - passed,
    total: outcomes.length,
    phases: [...phases.values()].sort((a, b) => a.phase.localeCompare(b.phase)),
    kinds: [...kinds.entries()].map(([kind, count]) => ({ kind, count })).sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind)),
    causes: [...causes.values()].sort((a, b) => b.count - a.count || a.cause.localeCompare(b.cause)),
  };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/**
 * Render the text report. The last line is exactly `N passed, N failed`.
 * `maxCauses` bounds the cause table, `maxFailures` the per-fixture failure list (0 hides it).
 */
export function formatReport(outcomes: FixtureOutcome[], opts: { maxCauses?: number; maxFailures?: number } = {}): string {
  const s = summarise(outcomes);
  const lines: string[] = [];
  lines.push('Corpus results by phase:');
  const w = Math.max(5, ...s.phases.map((p) => p.phase.length));
  for (const p of s.phases) lines.push(`  ${p.phase.padEnd(w)}  ${String(p.passed).padStart(4)}/${String(p.total).padEnd(4)} ${pct(p.rate).padStart(6)}`);
  lines.push(`  ${'total'.padEnd(w)}  ${String(s.passed).padStart(4)}/${String(s.total).padEnd(4)} ${pct(s.total ? s.passed / s.total : 0).padStart(6)}`);
  if (s.failed > 0) {
    lines.push('', 'Failure kinds:');
    for (const k of s.kinds) lines.push(`  ${String(k.count).padStart(5)}  ${k.kind}`);
    const maxCauses = opts.maxCauses ?? 25;
    lines.push('', `Top failure causes (${Math.min(maxCauses, s.causes.length)} of ${s.causes.length} groups):`);
    for (const c of s.causes.slice(0, maxCauses)) {
      lines.push(`  ${String(c.count).padStart(5)}  [${c.kind}] ${c.cause}`);
      lines.push(`         e.g. ${c.examples.join(', ')}`);
    }
    const maxFailures = opts.maxFailures ?? 0;
    if (maxFailures > 0) {
      const failures = outcomes.filter((o) => o.status === 'fail');
      lines.push('', `Failures (${Math.min(maxFailures, failures.length)} of ${failures.length}):`);
      for (const o of failures.slice(0, maxFailures)) lines.push(`  ${o.id}  [${o.kind}] ${(o.detail ?? '').replace(/\s+/g, ' ').slice(0, 300)}`);
    }
  }
  const teardown = outcomes.filter((o) => o.teardownError).length;
  if (teardown > 0) lines.push('', `Teardown problems in ${teardown} fixture(s) (see JSON report).`);
  lines.push('', `${s.passed} passed, ${s.failed} failed`);
  return lines.join('\n');
}

/** Write the JSON report: summary plus every outcome. */
export function writeJsonReport(file: string, outcomes: FixtureOutcome[], meta: Record<string, unknown> = {}): void {
  const body = { ...meta, summary: summarise(outcomes), outcomes };
  writeFileSync(file, JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2) + '\n');
}
