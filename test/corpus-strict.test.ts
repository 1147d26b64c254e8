/**
 * The strict-mode pass gate over the project's whole corpus (conformance/README.md "Running"): every
 * fixture of `conformance/fixtures` (the imported real-BigQuery recordings plus the authored ones)
 * runs through `@google-cloud/bigquery` against an in-process emulator, and the run must be green:
 * no fixture that is neither divergent (`conformance/divergences.json`) nor pending
 * (`conformance/pending.json`) fails, no divergent fixture matches, no pending fixture passes, and
 * at least 85 % of the match-expected fixtures match. When a feature lands and a pending fixture
 * starts passing, this test fails until the entry is removed (`bqemu corpus run --update-pending`).
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { corpusRun } from '../src/conformance/cli.js';

const CORPUS = path.resolve(__dirname, '../conformance/fixtures');

describe('strict corpus gate', () => {
  it('conformance/fixtures passes the strict gate', async () => {
    const json = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-strict-')), 'report.json');
    const lines: string[] = [];
    const code = await corpusRun({ corpus: CORPUS, strict: true, json, concurrency: 4, log: (l) => lines.push(l) });
    const text = lines.join('\n');
    const report = JSON.parse(fs.readFileSync(json, 'utf8'));
    const g = report.strict.gate;
    console.log(
      `strict corpus: ${g.total} fixtures; registry ${g.registry} (${g.expectedFail} expected-fail, ${g.unexpectedPass.length} unexpected pass); ` +
        `pending ${g.pending} (${g.pendingPassed.length} now passing); passing ${g.passing}/${g.matchExpected} match-expected; gate ${g.green ? 'green' : 'red'}`,
    );
    expect(g.total).toBeGreaterThanOrEqual(728);
    expect(g.unexpectedPass, 'divergent fixtures that now match: remove them from conformance/divergences.json').toEqual([]);
    expect(g.pendingPassed, 'pending fixtures that now pass: remove them from conformance/pending.json (bqemu corpus run --update-pending)').toEqual([]);
    expect(g.failing, 'fixtures neither divergent nor pending that fail').toEqual([]);
    expect(g.rate).toBeGreaterThanOrEqual(0.85);
    expect(code, text.slice(-3000)).toBe(0);
  }, 600_000);
});
