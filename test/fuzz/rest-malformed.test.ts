/**
 * Property: no malformed REST request — generated from the discovery document for every method
 * (src/server/rest/bigquery-v2-discovery.json) — gets a 5xx, goes unanswered, or gets an error body
 * other than Google's `{error:{code,message,errors:[{reason,message,domain}],status}}`
 * (https://cloud.google.com/bigquery/docs/error-messages); and afterwards the read-only calls
 * (datasets/tables/routines/jobs get and list) still answer 200, so no stored value broke them.
 * Meanwhile a second client's `SELECT <n>` keeps answering. Seeded: test/fuzz/fuzz-config.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { createScene } from './fuzz-scene.js';
import { runRequests, FuzzTally } from './fuzz-run.js';
import { FUZZ_SEED, runs } from './fuzz-config.js';
import { LivenessProbe } from './liveness-probe.js';
import { anyMalformedRequest, readBackRequests, TEST_SIZES, type Scene } from './rest-requests.js';
import type { FuzzRequest } from './http-target.js';

let t: TestEmulator;
let probe: LivenessProbe;

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'fz-project' });
  probe = new LivenessProbe(t.emu.url, t.projectId, 100);
  probe.start();
});

afterAll(async () => {
  const s = await probe?.stop();
  if (s) console.log(`[fuzz rest] second client SELECT n: ${s.count} answers, p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms, ${s.failures} failures`);
  await t?.emu.close();
});

/**
 * A fresh scene in its own project per property, so state one property poisons (a stored value
 * that breaks later reads) fails that property's read-backs only.
 */
async function sceneFor(name: string): Promise<Scene> {
  return createScene(t.emu.url, `fz-${name}`);
}

/** Samples `n` malformed requests of the given kinds (same seed ⇒ same requests). */
function sample(scene: Scene, kinds: string[], n: number, seed: number): FuzzRequest[] {
  const arb = anyMalformedRequest(scene, TEST_SIZES).filter((r) => kinds.includes(r.kind));
  return fc.sample(arb, { seed, numRuns: n });
}

/** Runs the requests, then the read-backs; prints the tables; returns the tally. */
async function fuzz(name: string, scene: Scene, reqs: FuzzRequest[]): Promise<FuzzTally> {
  const tally = await runRequests(t.emu.url, reqs, { concurrency: 4, timeoutMs: 15_000 });
  await runRequests(t.emu.url, readBackRequests(scene), { concurrency: 1, timeoutMs: 15_000 }, tally);
  console.log(`[fuzz rest: ${name}] seed ${FUZZ_SEED}\n${tally.kindTable()}${tally.failures.length ? `\nfailures by cause:\n${tally.causeReport()}` : ''}`);
  return tally;
}

describe('fuzz: malformed REST requests for every discovery method', () => {
  it('unknown fields, wrong enums, missing required fields, huge strings: never 5xx, Google error shape', async () => {
    const sc = await sceneFor('body-schema');
    const tally = await fuzz('body schema', sc, sample(sc, ['rest:unknownField', 'rest:wrongEnum', 'rest:missingRequired', 'rest:hugeString'], runs(400), FUZZ_SEED));
    expect(tally.totals().requests).toBeGreaterThan(runs(400));
    expect(tally.causeReport()).toBe('');
  });

  it('wrong JSON types: never 5xx, Google error shape', async () => {
    const sc = await sceneFor('wrong-types');
    const tally = await fuzz('wrong types', sc, sample(sc, ['rest:wrongType'], runs(300), FUZZ_SEED + 4));
    expect(tally.causeReport()).toBe('');
  });

  it('malformed and truncated JSON, non-JSON content types: never 5xx, Google error shape', async () => {
    const sc = await sceneFor('json-and-content-type');
    const tally = await fuzz('json and content type', sc, sample(sc, ['rest:malformedJson', 'rest:truncatedJson', 'rest:contentType'], runs(300), FUZZ_SEED + 1));
    expect(tally.causeReport()).toBe('');
  });

  it('bad and over-long path parameters, bad query parameters: Google error shape', async () => {
    const sc = await sceneFor('path-and-query-parameters');
    const tally = await fuzz('path and query parameters', sc, sample(sc, ['rest:badPathParam', 'rest:badQueryParam'], runs(400), FUZZ_SEED + 2));
    expect(tally.causeReport()).toBe('');
  });

  it('deeply nested JSON values: 400, and nothing stored breaks a later read', async () => {
    const sc = await sceneFor('deep-nesting');
    const tally = await fuzz('deep nesting', sc, sample(sc, ['rest:deepNesting'], runs(150), FUZZ_SEED + 3));
    expect(tally.causeReport()).toBe('');
  });

  it('the second client kept answering SELECT n', () => {
    const s = probe.stats();
    // Generous bound for a loaded 2-core machine with the fuzzer in the same process; the issue's
    // 100 ms p99 target is measured by `npm run fuzz` against a spawned emulator.
    expect(s.count).toBeGreaterThan(5);
    expect(s.failureSamples).toEqual([]);
    // Every probe answered within its 15 s deadline; the typical one quickly (load averages of 15+
    // on this shared 2-core machine put single probes at ~5 s, so no bound on the maximum here).
    expect(s.p50).toBeLessThan(1_000);
  });
});
