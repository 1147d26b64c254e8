import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatReport, normaliseCause, summarise, writeJsonReport } from './report.js';
import type { FixtureOutcome } from './runner.js';

const o = (id: string, status: 'pass' | 'fail', kind?: FixtureOutcome['kind'], cause?: string): FixtureOutcome => {
  const r: FixtureOutcome = { id, phase: id.split('/')[0]!, status, durationMs: 1 };
  if (kind) r.kind = kind;
  if (cause) r.cause = cause;
  return r;
};

const outcomes = [
  o('a/1', 'pass'),
  o('a/2', 'fail', 'kind mismatch', 'emulator error: invalidQuery: Function not found: FOO at [1:8]'),
  o('a/3', 'fail', 'kind mismatch', 'emulator error: invalidQuery: Function not found: FOO at [3:15]'),
  o('b/1', 'fail', 'rows', 'cell mismatch (FLOAT64)'),
  o('b/2', 'pass'),
  o('b/3', 'pass'),
];

describe('normaliseCause', () => {
  it('groups messages that differ only in volatile parts', () => {
    expect(normaliseCause('Not found: Table proj:bqemu_cr_ab12cd_7_x.t at [1:8]')).toBe(normaliseCause('Not found: Table other:bqemu_cr_ffffff_99_y.t at [2:30]'));
    expect(normaliseCause('division by zero: 1 / 0')).toBe(normaliseCause('division by zero: 10 / 0'));
  });
  it('keeps distinct functions apart', () => {
    expect(normaliseCause('Function not found: FOO')).not.toBe(normaliseCause('Function not found: BAR'));
    expect(normaliseCause('schema type INT64 vs STRING')).toBe('schema type INT64 vs STRING');
  });
});

describe('summarise', () => {
  it('computes per-phase rates, kinds and grouped causes', () => {
    const s = summarise(outcomes);
    expect(s.passed).toBe(3);
    expect(s.failed).toBe(3);
    expect(s.phases).toEqual([
      { phase: 'a', passed: 1, failed: 2, total: 3, rate: 1 / 3 },
      { phase: 'b', passed: 2, failed: 1, total: 3, rate: 2 / 3 },
    ]);
    expect(s.kinds).toEqual([{ kind: 'kind mismatch', count: 2 }, { kind: 'rows', count: 1 }]);
    expect(s.causes[0]).toMatchObject({ kind: 'kind mismatch', count: 2, examples: ['a/2', 'a/3'] });
  });
});

describe('formatReport', () => {
  it('ends with the exact summary line', () => {
    const text = formatReport(outcomes);
    const lines = text.split('\n');
    expect(lines[lines.length - 1]).toBe('3 passed, 3 failed');
    expect(text).toContain('Top failure causes');
    expect(formatReport([o('a/1', 'pass')]).split('\n').pop()).toBe('1 passed, 0 failed');
  });
  it('lists failures when asked', () => {
    expect(formatReport(outcomes, { maxFailures: 1 })).toContain('Failures (1 of 3)');
    expect(formatReport(outcomes)).not.toContain('Failures (');
  });
});

describe('writeJsonReport', () => {
  it('writes summary and outcomes', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bqemu-rep-')), 'r.json');
    writeJsonReport(file, outcomes, { endpoint: 'x' });
    const body = JSON.parse(readFileSync(file, 'utf8'));
    expect(body.endpoint).toBe('x');
    expect(body.summary.passed).toBe(3);
    expect(body.outcomes).toHaveLength(6);
  });
});
