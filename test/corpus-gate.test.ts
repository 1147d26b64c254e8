/**
 * The foundation's corpus gate: the real-BigQuery recordings of the `standard_functions` and
 * `rest_crud` phases (their in-repository copy, `conformance/fixtures/`), run through
 * `@google-cloud/bigquery` against an in-process emulator, pass at ≥ 60 % each. Rates are measured, not asserted per fixture; the
 * complete strict-mode harness with the divergence registry is test/corpus-strict.test.ts.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { corpusRun } from '../src/conformance/cli.js';

const CORPUS = path.resolve(__dirname, '../conformance/fixtures');
const GATE: Record<string, number> = { standard_functions: 0.6, rest_crud: 0.6 };

describe('recorded corpus gate', () => {
  it('passes ≥ 60 % of standard_functions and rest_crud', async () => {
    const json = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-gate-')), 'report.json');
    const lines: string[] = [];
    await corpusRun({ corpus: CORPUS, filter: 'standard_functions/*,rest_crud/*', json, concurrency: 4, log: (l) => lines.push(l) });
    const report = JSON.parse(fs.readFileSync(json, 'utf8'));
    const phases: { phase: string; rate: number; passed: number; total: number }[] = report.summary.phases;
    for (const p of phases) console.log(`corpus ${p.phase}: ${p.passed}/${p.total} (${(100 * p.rate).toFixed(1)} %)`);
    for (const [phase, min] of Object.entries(GATE)) {
      const p = phases.find((x) => x.phase === phase);
      expect(p, `phase ${phase} ran`).toBeDefined();
      expect(p!.rate, `${phase} pass rate`).toBeGreaterThanOrEqual(min);
    }
  }, 600_000);
});
