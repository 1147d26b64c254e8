/**
 * Strict mode of the corpus runner (conformance/README.md "Running": the verdict table, the divergence registry
 * and pass gate): the divergence registry (`conformance/divergences.json`), the pending list
 * (`conformance/pending.json`), per-fixture strict verdicts, the gate arithmetic, the strict report
 * and the pending-list update.
 *
 * - Divergent (in the registry) and differs → expected-fail (ok). Divergent and matches → the run
 *   fails naming the entry to remove.
 * - Pending (feature not built yet; never in the registry) and fails → ok, reported as pending.
 *   Pending and passes → the run fails telling to remove it from pending: the list only shrinks.
 * - Every other fixture must match.
 * - Gate: green iff no non-divergent, non-pending fixture fails, no divergent fixture passes, no
 *   pending fixture passes, and at least 85 % of the match-expected (non-divergent, non-pending)
 *   fixtures match.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normaliseCause, summarise } from './report.js';
import type { FixtureOutcome } from './runner.js';
import type { QualificationIssue } from './qualify.js';

/** Fixture id → rationale (registry) or short reason (pending). */
export type IdList = Record<string, string>;

export interface StrictLists {
  divergences: IdList;
  pending: IdList;
}

/** Minimum share of match-expected fixtures that must match (conformance/README.md "Running"). */
export const MIN_MATCH_RATE = 0.85;

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Default registry and pending files: the repository's `conformance/`. */
export const DEFAULT_DIVERGENCES = resolve(REPO_ROOT, 'conformance/divergences.json');
export const DEFAULT_PENDING = resolve(REPO_ROOT, 'conformance/pending.json');

/** Raised for a malformed registry or pending file (exit code 2 in the CLI). */
export class StrictListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StrictListError';
  }
}

const ID_RE = /^[A-Za-z0-9_\-]+\/[A-Za-z0-9_\-.]+$/;

/** Read a `{ "<phase>/<name>": "text" }` file; a missing file is an empty list. */
export function readIdList(file: string, what: string): IdList {
  if (!existsSync(file)) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new StrictListError(`${what} ${file}: invalid JSON: ${(e as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new StrictListError(`${what} ${file}: must be a JSON object mapping fixture id to text`);
  const out: IdList = {};
  for (const [id, text] of Object.entries(raw as Record<string, unknown>)) {
    if (!ID_RE.test(id)) throw new StrictListError(`${what} ${file}: "${id}" is not a fixture id of the form <phase>/<name>`);
    if (typeof text !== 'string' || text.trim() === '') throw new StrictListError(`${what} ${file}: entry "${id}" needs a non-empty ${what === 'registry' ? 'rationale' : 'reason'}`);
    out[id] = text;
  }
  return out;
}

/** Load both lists and check they are disjoint (a pending fixture is never in the registry). */
export function loadStrictLists(divergencesFile = DEFAULT_DIVERGENCES, pendingFile = DEFAULT_PENDING): StrictLists {
  const lists = { divergences: readIdList(divergencesFile, 'registry'), pending: readIdList(pendingFile, 'pending list') };
  const both = Object.keys(lists.pending).filter((id) => id in lists.divergences);
  if (both.length) throw new StrictListError(`fixtures both in the divergence registry and pending (pending is never in the registry): ${both.join(', ')}`);
  return lists;
}

/** Write a list sorted by id, two-space indented, trailing newline. */
export function writeIdList(file: string, list: IdList): void {
  const sorted: IdList = {};
  for (const id of Object.keys(list).sort()) sorted[id] = list[id]!;
  writeFileSync(file, JSON.stringify(sorted, null, 2) + '\n');
}

export type StrictStatus = 'pass' | 'fail' | 'expected-fail' | 'unexpected-pass' | 'pending' | 'pending-pass';

export interface StrictVerdict {
  id: string;
  status: StrictStatus;
  /** True when the verdict does not break the gate. */
  ok: boolean;
  /** Registry rationale or pending reason. */
  note?: string;
}

/** Strict verdict of one outcome (conformance/README.md "Running" verdict table). */
export function strictVerdict(o: FixtureOutcome, lists: StrictLists): StrictVerdict {
  const matched = o.status === 'pass';
  const div = lists.divergences[o.id];
  if (div !== undefined) return matched ? { id: o.id, status: 'unexpected-pass', ok: false, note: div } : { id: o.id, status: 'expected-fail', ok: true, note: div };
  const pend = lists.pending[o.id];
  if (pend !== undefined) return matched ? { id: o.id, status: 'pending-pass', ok: false, note: pend } : { id: o.id, status: 'pending', ok: true, note: pend };
  return matched ? { id: o.id, status: 'pass', ok: true } : { id: o.id, status: 'fail', ok: false };
}

export interface GateResult {
  green: boolean;
  /** Fixtures run. */
  total: number;
  /** Registry entries, and how many of them ran. */
  registry: number;
  registryRun: number;
  expectedFail: number;
  unexpectedPass: string[];
  /** Pending entries, and how many of them ran. */
  pending: number;
  pendingRun: number;
  pendingFailing: number;
  pendingPassed: string[];
  /** Non-divergent, non-pending fixtures run, and how many of them match. */
  matchExpected: number;
  passing: number;
  failing: string[];
  /** passing / matchExpected, null when nothing is match-expected. */
  rate: number | null;
  minRate: number;
  /** Why the gate is red (empty when green). */
  reasons: string[];
  /** Entries naming fixtures absent from the corpus (informational; e.g. kept-back fixtures). */
  registryNotInCorpus: string[];
  pendingNotInCorpus: string[];
}

/**
 * Apply the strict rules and the pass gate (conformance/README.md "Running") to a run's outcomes. `corpusIds`
 * (every fixture id of the corpus, unfiltered) lets the result name list entries with no fixture.
 */
export function evaluateStrict(outcomes: FixtureOutcome[], lists: StrictLists, opts: { minRate?: number; corpusIds?: string[] } = {}): { verdicts: StrictVerdict[]; gate: GateResult } {
  const minRate = opts.minRate ?? MIN_MATCH_RATE;
  const verdicts = outcomes.map((o) => strictVerdict(o, lists));
  const by = (s: StrictStatus) => verdicts.filter((v) => v.status === s);
  const passing = by('pass').length;
  const failing = by('fail').map((v) => v.id);
  const matchExpected = passing + failing.length;
  const rate = matchExpected ? passing / matchExpected : null;
  const unexpectedPass = by('unexpected-pass').map((v) => v.id);
  const pendingPassed = by('pending-pass').map((v) => v.id);
  const reasons: string[] = [];
  if (failing.length) reasons.push(`${failing.length} fixture(s) neither divergent nor pending fail`);
  if (unexpectedPass.length) reasons.push(`${unexpectedPass.length} divergent fixture(s) now match: remove them from the divergence registry`);
  if (pendingPassed.length) reasons.push(`${pendingPassed.length} pending fixture(s) now pass: remove them from the pending list`);
  if (rate !== null && rate < minRate) reasons.push(`match rate ${(rate * 100).toFixed(1)} % is below ${(minRate * 100).toFixed(0)} %`);
  const ids = opts.corpusIds ? new Set(opts.corpusIds) : undefined;
  return {
    verdicts,
    gate: {
      green: reasons.length === 0,
      total: outcomes.length,
      registry: Object.keys(lists.divergences).length,
      registryRun: by('expected-fail').length + unexpectedPass.length,
      expectedFail: by('expected-fail').length,
      unexpectedPass,
      pending: Object.keys(lists.pending).length,
      pendingRun: by('pending').length + pendingPassed.length,
      pendingFailing: by('pending').length,
      pendingPassed,
      matchExpected,
      passing,
      failing,
      rate,
      minRate,
      reasons,
      registryNotInCorpus: ids ? Object.keys(lists.divergences).filter((id) => !ids.has(id)).sort() : [],
      pendingNotInCorpus: ids ? Object.keys(lists.pending).filter((id) => !ids.has(id)).sort() : [],
    },
  };
}

/** A short pending reason from a failing outcome ("not built yet: …"). */
export function pendingReason(o: FixtureOutcome): string {
  const cause = normaliseCause(o.cause ?? o.detail ?? o.kind ?? 'fails');
  return `not built yet: ${cause}`.slice(0, 140);
}

export interface PendingUpdate {
  next: IdList;
  /** Entries dropped: the fixture passes now, or no longer exists in the corpus. */
  removed: string[];
  /** New failures added (only with allowGrow). */
  added: string[];
  /** New failures that were not added because the list may only shrink. */
  notAdded: string[];
}

/**
 * Rewrite the pending list from a run (`--update-pending`): entries whose fixture now passes or no
 * longer exists are removed; entries of fixtures that did not run (a filter) are kept; new
 * failures (neither divergent nor pending) are added only with `allowGrow` — the list only shrinks.
 */
export function updatePendingList(current: IdList, outcomes: FixtureOutcome[], divergences: IdList, opts: { allowGrow?: boolean; corpusIds?: string[] } = {}): PendingUpdate {
  const next: IdList = { ...current };
  const removed: string[] = [];
  const added: string[] = [];
  const notAdded: string[] = [];
  if (opts.corpusIds) {
    const ids = new Set(opts.corpusIds);
    for (const id of Object.keys(next)) {
      if (!ids.has(id)) {
        delete next[id];
        removed.push(id);
      }
    }
  }
  for (const o of outcomes) {
    if (o.id in divergences) continue;
    if (o.status === 'pass') {
      if (o.id in next) {
        delete next[o.id];
        removed.push(o.id);
      }
    } else if (!(o.id in next)) {
      if (opts.allowGrow) {
        next[o.id] = pendingReason(o);
        added.push(o.id);
      } else notAdded.push(o.id);
    }
  }
  return { next, removed: removed.sort(), added: added.sort(), notAdded: notAdded.sort() };
}

function pct(x: number | null): string {
  return x === null ? 'n/a' : `${(x * 100).toFixed(1)} %`;
}

export interface StrictReportOptions {
  /** How many failing fixtures to list (default 40). */
  maxFailures?: number;
  /** Non-qualifying fixtures (conformance/README.md "Qualification") to list. */
  unqualified?: { id: string; issues: QualificationIssue[] }[];
  divergencesFile?: string;
  pendingFile?: string;
  /** Pending-list update done in this run, to report. */
  update?: PendingUpdate & { file: string };
}

/**
 * The strict-mode text report: phase table, registry / pending / passing counts, every entry to
 * remove, the failures, the non-qualifying fixtures and the gate verdict. The last line is
 * `N passed, N failed` where passed counts ok verdicts (pass, expected-fail, pending).
 */
export function formatStrictReport(outcomes: FixtureOutcome[], result: { verdicts: StrictVerdict[]; gate: GateResult }, opts: StrictReportOptions = {}): string {
  const { gate, verdicts } = result;
  const s = summarise(outcomes);
  const lines: string[] = ['Corpus results by phase (raw matches):'];
  const w = Math.max(5, ...s.phases.map((p) => p.phase.length));
  for (const p of s.phases) lines.push(`  ${p.phase.padEnd(w)}  ${String(p.passed).padStart(4)}/${String(p.total).padEnd(4)} ${pct(p.rate).padStart(8)}`);
  lines.push(`  ${'total'.padEnd(w)}  ${String(s.passed).padStart(4)}/${String(s.total).padEnd(4)} ${pct(s.total ? s.passed / s.total : null).padStart(8)}`);
  const divFile = opts.divergencesFile ?? 'conformance/divergences.json';
  const pendFile = opts.pendingFile ?? 'conformance/pending.json';
  lines.push('', 'Strict mode (conformance/README.md "Running"):');
  lines.push(`  registry (${divFile}): ${gate.registry} entries, ${gate.registryRun} run: ${gate.expectedFail} expected-fail, ${gate.unexpectedPass.length} unexpected pass`);
  lines.push(`  pending  (${pendFile}): ${gate.pending} entries, ${gate.pendingRun} run: ${gate.pendingFailing} still failing, ${gate.pendingPassed.length} now passing`);
  lines.push(`  passing: ${gate.passing} of ${gate.matchExpected} match-expected fixtures (${pct(gate.rate)}, gate ≥ ${(gate.minRate * 100).toFixed(0)} %), ${gate.failing.length} failing`);
  if (gate.registryNotInCorpus.length) lines.push(`  registry entries with no fixture in this corpus: ${gate.registryNotInCorpus.join(', ')}`);
  if (gate.pendingNotInCorpus.length) lines.push(`  pending entries with no fixture in this corpus: ${gate.pendingNotInCorpus.join(', ')}`);
  const note = new Map(verdicts.map((v) => [v.id, v.note]));
  if (gate.unexpectedPass.length) {
    lines.push('', `Divergent fixtures that now match — remove these entries from ${divFile}:`);
    for (const id of gate.unexpectedPass) lines.push(`  ${id}  (${note.get(id) ?? ''})`);
  }
  if (gate.pendingPassed.length) {
    lines.push('', `Pending fixtures that now pass — remove them from ${pendFile} (the list only shrinks; or run with --update-pending):`);
    for (const id of gate.pendingPassed) lines.push(`  ${id}`);
  }
  if (gate.failing.length) {
    const max = opts.maxFailures ?? 40;
    const byId = new Map(outcomes.map((o) => [o.id, o]));
    lines.push('', `Failures of match-expected fixtures (${Math.min(max, gate.failing.length)} of ${gate.failing.length}):`);
    for (const id of gate.failing.slice(0, max)) {
      const o = byId.get(id);
      lines.push(`  ${id}  [${o?.kind ?? '?'}] ${(o?.detail ?? '').replace(/\s+/g, ' ').slice(0, 300)}`);
    }
  }
  const unq = opts.unqualified ?? [];
  lines.push('', `Non-qualifying fixtures (conformance/README.md "Qualification"): ${unq.length}`);
  for (const u of unq) lines.push(`  ${u.id}: ${u.issues.map((i) => `${i.rule} in ${i.file} (${i.detail})`).join('; ')}`);
  if (opts.update) {
    const u = opts.update;
    lines.push('', `Pending list rewritten (${u.file}): ${u.removed.length} removed, ${u.added.length} added${u.notAdded.length ? `, ${u.notAdded.length} new failure(s) not added (the list only shrinks; --allow-grow adds them)` : ''}`);
    for (const id of u.removed) lines.push(`  - ${id}`);
    for (const id of u.added) lines.push(`  + ${id}`);
  }
  lines.push('', `Gate: ${gate.green ? 'GREEN' : `RED — ${gate.reasons.join('; ')}`}`);
  const ok = verdicts.filter((v) => v.ok).length;
  lines.push('', `${ok} passed, ${verdicts.length - ok} failed`);
  return lines.join('\n');
}
