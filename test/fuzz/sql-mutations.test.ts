/**
 * Property: mutated corpus SQL (conformance/fixtures/**\/query.sql: truncated, tokens swapped or
 * edited, huge literals and identifiers, deep nesting, long IN lists) sent through `jobs.query`
 * never answers 5xx, never goes unanswered, errors come in Google's error shape
 * (https://cloud.google.com/bigquery/docs/error-messages), and no small query is still running
 * after a 10 s server-side wait (the sign of a wedged analyzer). A second client's `SELECT <n>`
 * (a fresh text each time, so no analysis cache can hide a wedge) keeps answering throughout.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { createScene } from './fuzz-scene.js';
import { judgeQuery, runRequests, type FuzzTally } from './fuzz-run.js';
import { FUZZ_SEED, runs } from './fuzz-config.js';
import type { FuzzRequest } from './http-target.js';
import { LivenessProbe, type LatencyStats } from './liveness-probe.js';
import { corpusQueries, mutatedSql, queryRequest, SQL_LIMIT_SIZES, SQL_TEST_SIZES, type SqlFuzzSizes } from './sql-mutations.js';
import type { Scene } from './rest-requests.js';

let t: TestEmulator;
let scene: Scene;
let probe: LivenessProbe;

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'fz-project' });
  scene = await createScene(t.emu.url, t.projectId);
  probe = new LivenessProbe(t.emu.url, t.projectId, 100);
  probe.start();
});

afterAll(async () => {
  await probe?.stop();
  await t?.emu.close();
});

function sample(kinds: string[], sizes: SqlFuzzSizes, n: number, seed: number): FuzzRequest[] {
  const arb = mutatedSql(corpusQueries(scene), sizes).filter((c) => kinds.includes(c.kind));
  return fc.sample(arb, { seed, numRuns: n }).map((c) => queryRequest(scene, c, 10_000));
}

function report(name: string, tally: FuzzTally, s: LatencyStats): void {
  console.log(
    `[fuzz sql: ${name}] seed ${FUZZ_SEED}\n${tally.kindTable()}\nsecond client SELECT n: ${s.count} answers, p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms, ${s.failures} failures` +
      (tally.failures.length ? `\nfailures by cause:\n${tally.causeReport()}` : ''),
  );
}

/** The liveness bound: generous for a loaded 2-core machine with the fuzzer in the same process. */
function expectAlive(s: LatencyStats): void {
  expect(s.failureSamples).toEqual([]);
  // Every probe answered within its 15 s deadline; the typical one quickly (load averages of 15+
  // on this shared 2-core machine put single probes at ~5 s, so no bound on the maximum here).
  expect(s.p50).toBeLessThan(1_000);
}

describe('fuzz: mutated corpus SQL through jobs.query', () => {
  it('truncation, token swaps and edits: never 5xx or a hang; the second client keeps answering', async () => {
    probe.reset();
    const tally = await runRequests(t.emu.url, sample(['sql:truncate', 'sql:tokenSwap', 'sql:tokenEdit'], SQL_TEST_SIZES, runs(250), FUZZ_SEED), { concurrency: 2, timeoutMs: 30_000, judge: judgeQuery });
    const s = probe.stats();
    report('truncate/swap/edit', tally, s);
    expect(tally.causeReport()).toBe('');
    expectAlive(s);
  });

  it('huge literals and identifiers, nesting and IN lists below the sizes that stall: never 5xx or a hang', async () => {
    probe.reset();
    const kinds = ['sql:hugeLiteral', 'sql:hugeIdentifier', 'sql:deepNesting', 'sql:longInList'];
    const tally = await runRequests(t.emu.url, sample(kinds, SQL_TEST_SIZES, runs(80), FUZZ_SEED + 1), { concurrency: 2, timeoutMs: 30_000, judge: judgeQuery });
    const s = probe.stats();
    report('moderate sizes', tally, s);
    expect(tally.causeReport()).toBe('');
    expectAlive(s);
  });

  it('sizes at and over BigQuery limits: an error or an answer, never a wedge', async () => {
    const own = await startTestEmulator({ projectId: 'fz-limits' });
    const p = new LivenessProbe(own.emu.url, own.projectId, 100);
    try {
      const sc = await createScene(own.emu.url, own.projectId);
      p.start();
      const kinds = ['sql:hugeLiteral', 'sql:hugeIdentifier', 'sql:deepNesting', 'sql:longInList'];
      const reqs = fc.sample(mutatedSql(corpusQueries(sc), SQL_LIMIT_SIZES).filter((c) => kinds.includes(c.kind)), { seed: FUZZ_SEED + 2, numRuns: runs(12) }).map((c) => queryRequest(sc, c, 40_000));
      let failed = false;
      // A 1 MB IN list is analyzed by ZetaSQL for ~4 s on an idle machine and over 10 s under a
      // loaded CI: the server-side wait is 40 s, so only a wedge (no answer at all) fails.
      const tally = await runRequests(own.emu.url, reqs, { concurrency: 1, timeoutMs: 60_000, judge: judgeQuery, stop: () => failed, onOutcome: (o) => (failed ||= !!o.problem) });
      const s = await p.stop();
      report('limit sizes', tally, s);
      expect(tally.causeReport()).toBe('');
      expectAlive(s);
    } finally {
      await p.stop();
      await own.emu.close();
    }
  });
});
