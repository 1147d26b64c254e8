/**
 * `npm run soak [-- --rounds 5 --concurrency 4 --filter s]`: the whole conformance corpus
 * (conformance/fixtures, the same runner as `bqemu corpus run`, src/conformance/runner.ts) run
 * `--rounds` times against ONE spawned emulator process, recording per round: duration,
 * passed/failed fixtures, the emulator's RSS, V8 heap in use and the analyzer children's RSS at the
 * round's end,
 * and the emulator's event-loop lag during the round (test/fuzz/event-loop-lag-preload.cjs).
 *
 * Exit 1 when the emulator exits (a crash), a later round passes fewer fixtures than the first
 * (state that degrades), or the emulator's RSS grows from the end of round 2 to the end of the last
 * round by more than `--max-growth-pct` (default 25): by round 2 the retained job history
 * (src/jobs/jobs.ts keeps the last 1,000 jobs' results) is full, so further growth is a leak.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { discoverFixtures, resolveSqlRoot } from '../src/conformance/fixtures.js';
import { runCorpus } from '../src/conformance/runner.js';
import { formatTable } from '../test/fuzz/fuzz-run.js';
import { percentile } from '../test/fuzz/liveness-probe.js';
import { childrenOf, spawnEmulator } from '../test/fuzz/spawned-emulator.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '4' },
    filter: { type: 'string' },
    corpus: { type: 'string', default: 'conformance/fixtures' },
    'max-growth-pct': { type: 'string', default: '25' },
  },
});

/** Resident set size of a process in bytes (Linux /proc), 0 when gone. */
function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function main(): Promise<number> {
  const rounds = Number(args.rounds);
  const fixtures = discoverFixtures(resolveSqlRoot(args.corpus!), args.filter);
  const projectId = 'bqemu-conformance';
  console.log(`bqemu soak: ${fixtures.length} fixtures × ${rounds} rounds, concurrency ${args.concurrency}, one emulator process`);
  const emu = await spawnEmulator({ projectId });
  const mb = (b: number) => Math.round(b / 1e6);
  const rows: (string | number)[][] = [];
  const rssEnd: number[] = [];
  const passes: number[] = [];
  let crashed = false;
  try {
    for (let r = 1; r <= rounds; r++) {
      const started = Date.now();
      const outcomes = await runCorpus(fixtures, { endpoint: emu.url, projectId, concurrency: Number(args.concurrency), timeoutMs: 120_000 });
      const ended = Date.now();
      const lag = emu.lagSamples().filter((l) => l.t > started && l.t <= ended + 1000);
      const rss = rssOf(emu.pid);
      const childRss = childrenOf(emu.pid).reduce((s, p) => s + rssOf(p), 0);
      const passed = outcomes.filter((o) => o.status === 'pass').length;
      const timeouts = outcomes.filter((o) => o.kind === 'timeout').length;
      rssEnd.push(rss);
      passes.push(passed);
      const row = [
        r,
        Math.round((ended - started) / 1000),
        passed,
        outcomes.length - passed,
        timeouts,
        mb(rss),
        mb(childRss),
        mb(lag.at(-1)?.heap ?? 0),
        percentile(lag.map((l) => l.p50).sort((a, b) => a - b), 50),
        percentile(lag.map((l) => l.p99).sort((a, b) => a - b), 99),
        Math.max(0, ...lag.map((l) => l.max)),
      ];
      rows.push(row);
      console.log(`round ${r}: ${row[1]} s, ${passed} passed, ${row[3]} failed (${timeouts} timeouts), emulator RSS ${row[5]} MB, analyzer RSS ${row[6]} MB, V8 heap ${row[7]} MB, lag p99 ${row[9]} ms, max ${row[10]} ms`);
      if (emu.exit) {
        crashed = true;
        console.log(`!! emulator exited ${JSON.stringify(emu.exit)}\n${emu.outputTail()}`);
        break;
      }
    }
  } finally {
    await emu.stop();
  }
  console.log(
    `\n== bqemu soak summary ==\n${formatTable(['round', 'seconds', 'passed', 'failed', 'timeouts', 'RSS MB', 'analyzer RSS MB', 'V8 heap MB', 'lag p50 ms', 'lag p99 ms', 'lag max ms'], rows)}`,
  );
  const growth = rssEnd.length >= 3 ? ((rssEnd[rssEnd.length - 1]! - rssEnd[1]!) / rssEnd[1]!) * 100 : 0;
  const degraded = passes.some((p) => p < passes[0]!);
  const tooMuch = growth > Number(args['max-growth-pct']);
  console.log(`RSS growth from the end of round 2 to the end of round ${rssEnd.length}: ${growth.toFixed(1)}% (bound ${args['max-growth-pct']}%)`);
  const failed = crashed || degraded || tooMuch;
  console.log(`${failed ? 'FAIL' : 'PASS'}: ${crashed ? 'emulator crashed; ' : ''}${degraded ? 'a later round passed fewer fixtures; ' : ''}${tooMuch ? 'RSS kept growing; ' : ''}${failed ? '' : 'no crash, stable passes, RSS growth within the bound'}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
