/**
 * Property: work that never ends by itself — scripts looping forever, JavaScript UDFs that spin or
 * allocate, recursive CTEs without an exit — ends in an error, or in a job that `jobs.cancel`
 * stops (https://cloud.google.com/bigquery/docs/reference/rest/v2/jobs/cancel), while a second
 * client's `SELECT <n>` keeps answering. The emulator runs in its own process
 * (spawned-emulator.ts), so a crash shows as a crash and a frozen event loop shows in the probe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FuzzTally } from './fuzz-run.js';
import { LivenessProbe } from './liveness-probe.js';
import { RUNAWAY_RECURSION, RUNAWAY_SCRIPTS, RUNAWAY_UDFS, type RunawayCase } from './runaway-queries.js';
import { runRunaway, RUNAWAY_TIMES } from './runaway-run.js';
import { spawnEmulator, type SpawnedEmulator } from './spawned-emulator.js';

let emu: SpawnedEmulator;

beforeAll(async () => {
  emu = await spawnEmulator({ projectId: 'fz-runaway' });
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

/** Runs the cases two at a time with the probe on; prints and returns the tally and latencies. */
async function runAll(name: string, cases: RunawayCase[], times = RUNAWAY_TIMES, probeTimeoutMs = 15_000) {
  const probe = new LivenessProbe(emu.url, emu.projectId, 100, probeTimeoutMs);
  probe.start();
  const tally = new FuzzTally();
  const queue = [...cases];
  await Promise.all(
    [0, 1].map(async () => {
      for (let c = queue.shift(); c; c = queue.shift()) tally.add(await runRunaway(emu.url, emu.projectId, c, times));
    }),
  );
  const s = await probe.stop();
  const lag = emu.lagSamples();
  const maxLag = Math.max(0, ...lag.map((l) => l.max));
  console.log(
    `[fuzz runaway: ${name}]\n${tally.kindTable()}\nsecond client SELECT n: ${s.count} answers, p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms, ${s.failures} failures; emulator event-loop lag max ${maxLag} ms` +
      (tally.failures.length ? `\nfailures by cause:\n${tally.causeReport()}` : '') +
      (s.failureSamples.length ? `\nprobe failures:\n${s.failureSamples.join('\n')}` : '') +
      (emu.exit ? `\nEMULATOR EXITED ${JSON.stringify(emu.exit)}\n${emu.outputTail()}` : ''),
  );
  return { tally, s };
}

describe('fuzz: runaway scripts, UDFs and recursion', () => {
  it('scripts that loop forever and unbounded recursive CTEs end in an error or a cancel; others are served', async () => {
    const { tally, s } = await runAll('scripts and recursion', [...RUNAWAY_SCRIPTS.slice(0, 3), ...RUNAWAY_RECURSION]);
    expect(emu.exit).toBeUndefined();
    expect(tally.causeReport()).toBe('');
    expect(s.failureSamples).toEqual([]);
    // Generous bound for a loaded 2-core machine (the 100 ms p99 is for `npm run fuzz`);
    // every probe must answer (within 15 s), and the typical one quickly.
    expect(s.p50).toBeLessThan(1_000);
  });

  it('JavaScript UDFs that spin or allocate fail alone; the second client keeps answering', async () => {
    // One case in `npm test` (each costs the UDF time limit today); `npm run fuzz` runs them all.
    const { tally, s } = await runAll('udfs', [RUNAWAY_UDFS[0]!], { ...RUNAWAY_TIMES, httpSlackMs: 12_000 }, 5_000);
    expect(emu.exit).toBeUndefined();
    expect(tally.causeReport()).toBe('');
    expect(s.failureSamples).toEqual([]);
    expect(s.p50).toBeLessThan(1_000);
  }, 30_000);
});
