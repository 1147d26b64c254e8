// Strict mode (conformance/README.md "Running"): divergence registry, pending list, gate arithmetic and the
// pending-list update — as pure functions, then end to end through `corpusRun` against an
// in-process emulator with a small temporary corpus.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../server/server.js';
import { corpusRun } from './cli.js';
import type { FixtureOutcome } from './runner.js';
import { evaluateStrict, formatStrictReport, loadStrictLists, readIdList, strictVerdict, StrictListError, updatePendingList, type StrictLists } from './strict.js';

const out = (id: string, pass: boolean): FixtureOutcome => ({ id, phase: id.split('/')[0]!, status: pass ? 'pass' : 'fail', durationMs: 1, ...(pass ? {} : { kind: 'rows', detail: 'rows[0].n (INT64): expected 1, got 2', cause: 'cell mismatch (INT64)' }) });
const lists = (divergences: Record<string, string> = {}, pending: Record<string, string> = {}): StrictLists => ({ divergences, pending });

describe('strict verdicts (conformance/README.md "Running")', () => {
  it('divergent: differs → expected-fail (ok); matches → unexpected pass (not ok)', () => {
    const l = lists({ 'p/div': 'spheroidal' });
    expect(strictVerdict(out('p/div', false), l)).toEqual({ id: 'p/div', status: 'expected-fail', ok: true, note: 'spheroidal' });
    expect(strictVerdict(out('p/div', true), l)).toEqual({ id: 'p/div', status: 'unexpected-pass', ok: false, note: 'spheroidal' });
  });
  it('pending: fails → pending (ok); passes → pending-pass (not ok)', () => {
    const l = lists({}, { 'p/todo': 'not built yet' });
    expect(strictVerdict(out('p/todo', false), l)).toMatchObject({ status: 'pending', ok: true });
    expect(strictVerdict(out('p/todo', true), l)).toMatchObject({ status: 'pending-pass', ok: false });
  });
  it('everything else must match', () => {
    expect(strictVerdict(out('p/x', true), lists())).toMatchObject({ status: 'pass', ok: true });
    expect(strictVerdict(out('p/x', false), lists())).toMatchObject({ status: 'fail', ok: false });
  });
});

describe('pass gate arithmetic (conformance/README.md "Running")', () => {
  it('is green when nothing match-expected fails and nothing divergent or pending passes', () => {
    const outcomes = [out('a/1', true), out('a/2', true), out('a/div', false), out('a/todo', false)];
    const { gate } = evaluateStrict(outcomes, lists({ 'a/div': 'r', 'b/kept_back': 'r' }, { 'a/todo': 'p' }), { corpusIds: outcomes.map((o) => o.id) });
    expect(gate).toMatchObject({ green: true, total: 4, registry: 2, registryRun: 1, expectedFail: 1, pending: 1, pendingRun: 1, pendingFailing: 1, matchExpected: 2, passing: 2, rate: 1, reasons: [] });
    expect(gate.registryNotInCorpus).toEqual(['b/kept_back']);
  });
  it('is red when a divergent fixture matches, naming it', () => {
    const { gate } = evaluateStrict([out('a/1', true), out('a/div', true)], lists({ 'a/div': 'r' }));
    expect(gate.green).toBe(false);
    expect(gate.unexpectedPass).toEqual(['a/div']);
    expect(gate.reasons.join()).toMatch(/remove them from the divergence registry/);
  });
  it('is red when a pending fixture passes (the list only shrinks)', () => {
    const { gate } = evaluateStrict([out('a/1', true), out('a/todo', true)], lists({}, { 'a/todo': 'p' }));
    expect(gate.green).toBe(false);
    expect(gate.pendingPassed).toEqual(['a/todo']);
    expect(gate.reasons.join()).toMatch(/remove them from the pending list/);
  });
  it('is red when one match-expected fixture fails, even above 85 %', () => {
    const outcomes = [...Array.from({ length: 19 }, (_, i) => out(`a/${i}`, true)), out('a/bad', false)];
    const { gate } = evaluateStrict(outcomes, lists());
    expect(gate).toMatchObject({ green: false, matchExpected: 20, passing: 19, failing: ['a/bad'], rate: 0.95 });
  });
  it('applies the 85 % floor to the match-expected fixtures only', () => {
    // 17 of 20 match-expected match (85 %): the floor itself holds; the 3 failures still make it red.
    const outcomes = [...Array.from({ length: 17 }, (_, i) => out(`a/p${i}`, true)), ...Array.from({ length: 3 }, (_, i) => out(`a/f${i}`, false))];
    const at = evaluateStrict(outcomes, lists()).gate;
    expect(at.rate).toBeCloseTo(0.85);
    expect(at.reasons.some((r) => /below/.test(r))).toBe(false);
    const below = evaluateStrict([...outcomes, out('a/f3', false)], lists()).gate;
    expect(below.rate).toBeCloseTo(17 / 21);
    expect(below.reasons.some((r) => /below 85 %/.test(r))).toBe(true);
    // Divergent and pending fixtures are outside the ratio.
    const excluded = evaluateStrict([out('a/ok', true), out('a/d', false), out('a/t', false)], lists({ 'a/d': 'r' }, { 'a/t': 'p' })).gate;
    expect(excluded).toMatchObject({ matchExpected: 1, passing: 1, rate: 1, green: true });
    // A custom floor.
    expect(evaluateStrict([out('a/ok', true)], lists(), { minRate: 1.01 }).gate.green).toBe(false);
  });
  it('reports registry, pending and passing counts and the entries to remove', () => {
    const outcomes = [out('a/1', true), out('a/div', true), out('a/todo', true), out('a/bad', false)];
    const result = evaluateStrict(outcomes, lists({ 'a/div': 'why' }, { 'a/todo': 'p' }));
    const text = formatStrictReport(outcomes, result, { unqualified: [{ id: 'a/clock', issues: [{ rule: 'wall-clock', file: 'query.sql', detail: 'CURRENT_DATE' }] }] });
    expect(text).toMatch(/registry \(.*\): 1 entries, 1 run: 0 expected-fail, 1 unexpected pass/);
    expect(text).toMatch(/pending .*: 1 entries, 1 run: 0 still failing, 1 now passing/);
    expect(text).toMatch(/passing: 1 of 2 match-expected fixtures/);
    expect(text).toMatch(/remove these entries from .*divergences\.json:\n  a\/div/);
    expect(text).toMatch(/remove them from .*pending\.json.*\n  a\/todo/);
    expect(text).toMatch(/Non-qualifying fixtures \(conformance\/README\.md "Qualification"\): 1\n  a\/clock: wall-clock in query\.sql/);
    expect(text).toMatch(/Gate: RED/);
    expect(text.split('\n').at(-1)).toBe('1 passed, 3 failed');
  });
});

describe('pending list update (--update-pending)', () => {
  const current = { 'a/now_passes': 'x', 'a/still_fails': 'y', 'a/not_run': 'z', 'a/deleted': 'w' };
  const outcomes = [out('a/now_passes', true), out('a/still_fails', false), out('a/new_failure', false), out('a/div', false), out('a/ok', true)];
  const corpusIds = ['a/now_passes', 'a/still_fails', 'a/not_run', 'a/new_failure', 'a/div', 'a/ok'];
  it('only removes entries by default', () => {
    const u = updatePendingList(current, outcomes, { 'a/div': 'r' }, { corpusIds });
    expect(u.next).toEqual({ 'a/still_fails': 'y', 'a/not_run': 'z' });
    expect(u.removed).toEqual(['a/deleted', 'a/now_passes']);
    expect(u.added).toEqual([]);
    expect(u.notAdded).toEqual(['a/new_failure']);
  });
  it('adds new failures with --allow-grow, never divergent ones', () => {
    const u = updatePendingList(current, outcomes, { 'a/div': 'r' }, { corpusIds, allowGrow: true });
    expect(Object.keys(u.next).sort()).toEqual(['a/new_failure', 'a/not_run', 'a/still_fails']);
    expect(u.next['a/new_failure']).toMatch(/^not built yet: /);
    expect(u.added).toEqual(['a/new_failure']);
  });
});

describe('registry files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bqemu-lists-'));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  it('reads id → text maps and rejects malformed ones', () => {
    expect(readIdList(join(dir, 'absent.json'), 'registry')).toEqual({});
    expect(readIdList(file('ok.json', '{"a/b": "why"}'), 'registry')).toEqual({ 'a/b': 'why' });
    expect(() => readIdList(file('arr.json', '["a/b"]'), 'registry')).toThrow(StrictListError);
    expect(() => readIdList(file('id.json', '{"no-slash": "why"}'), 'registry')).toThrow(/<phase>\/<name>/);
    expect(() => readIdList(file('empty.json', '{"a/b": ""}'), 'registry')).toThrow(/rationale/);
  });
  it('refuses a fixture both divergent and pending', () => {
    expect(() => loadStrictLists(file('d.json', '{"a/b": "r"}'), file('p.json', '{"a/b": "p"}'))).toThrow(/never in the registry/);
  });
});

describe('corpusRun --strict end to end (in-process emulator)', () => {
  let emu: Emulator;
  let root = '';
  let dir = '';
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, projectId: 'strict-proj', quiet: true });
    root = mkdtempSync(join(tmpdir(), 'bqemu-strict-'));
    const fx = (id: string, query: string, expected: unknown) => {
      mkdirSync(join(root, id), { recursive: true });
      writeFileSync(join(root, id, 'query.sql'), query);
      writeFileSync(join(root, id, 'expected.json'), JSON.stringify(expected));
    };
    const one = { schema: [{ name: 'n', type: 'INTEGER', mode: 'NULLABLE' }], rows: [{ n: 1 }] };
    fx('p/matches', 'SELECT 1 AS n', one);
    fx('p/differs', 'SELECT 2 AS n', one);
    dir = mkdtempSync(join(tmpdir(), 'bqemu-strict-lists-'));
  }, 60_000);
  afterAll(async () => {
    await emu.close();
  });
  const run = async (divergences: object, pending: object, extra: Partial<Parameters<typeof corpusRun>[0]> = {}) => {
    const d = join(dir, 'divergences.json');
    const p = join(dir, 'pending.json');
    writeFileSync(d, JSON.stringify(divergences));
    writeFileSync(p, JSON.stringify(pending));
    const lines: string[] = [];
    const code = await corpusRun({ corpus: root, endpoint: emu.url, project: 'strict-proj', strict: true, divergences: d, pending: p, log: (l) => lines.push(l), ...extra });
    return { code, text: lines.join('\n'), pending: JSON.parse(readFileSync(p, 'utf8')) as Record<string, string> };
  };

  it('green: the differing fixture is divergent (expected-fail)', async () => {
    const r = await run({ 'p/differs': 'known divergence' }, {});
    expect(r.code, r.text).toBe(0);
    expect(r.text).toMatch(/1 expected-fail, 0 unexpected pass/);
    expect(r.text).toMatch(/Gate: GREEN/);
  });
  it('red: a registry entry that matches fails the run, naming the entry to remove', async () => {
    const r = await run({ 'p/differs': 'known', 'p/matches': 'wrongly registered' }, {});
    expect(r.code).toBe(1);
    expect(r.text).toMatch(/remove these entries from .*:\n  p\/matches/);
  });
  it('green: a failing pending fixture is reported as pending', async () => {
    const r = await run({}, { 'p/differs': 'not built yet' });
    expect(r.code, r.text).toBe(0);
    expect(r.text).toMatch(/1 still failing, 0 now passing/);
  });
  it('red: a pending fixture that passes must be removed from pending', async () => {
    const r = await run({ 'p/differs': 'known' }, { 'p/matches': 'not built yet' });
    expect(r.code).toBe(1);
    expect(r.text).toMatch(/pending\.json.*\n  p\/matches/);
  });
  it('red: a failure that is neither divergent nor pending', async () => {
    const r = await run({}, {});
    expect(r.code).toBe(1);
    expect(r.text).toMatch(/Failures of match-expected fixtures \(1 of 1\):\n  p\/differs/);
  });
  it('--update-pending shrinks the list; --allow-grow lets it grow', async () => {
    const shrink = await run({}, { 'p/matches': 'was failing' }, { updatePending: true });
    expect(shrink.pending).toEqual({});
    expect(shrink.code).toBe(1); // p/differs is a new failure, not added without --allow-grow
    expect(shrink.text).toMatch(/1 new failure\(s\) not added/);
    const grow = await run({}, {}, { updatePending: true, allowGrow: true });
    expect(Object.keys(grow.pending)).toEqual(['p/differs']);
    expect(grow.code, grow.text).toBe(0);
  });
  it('exits 2 on a malformed registry', async () => {
    const r = await run({ 'p/differs': 'r' }, { 'p/differs': 'p' });
    expect(r.code).toBe(2);
  });
});
