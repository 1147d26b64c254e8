/**
 * `npx tsx bench/query-overhead.ts [--n 2000] [--only select_literal,join_hash_100k] [--stub] [--plain-only]`:
 * the per-query cost of small queries end to end, for profiling (run it under
 * `node --import tsx --cpu-prof`). An in-process emulator; the case's query sent `--n` times in a
 * row through `@google-cloud/bigquery` (jobs.query, as `bq.query` does). Prints, per case, wall and
 * process CPU per query (all threads), and with `--stub` the same client against a local HTTP
 * server answering the emulator's recorded responses (bench/replay.ts): the client's own cost.
 * Then the same from a plain-node client process (bench/client-process.ts), which is how a user's
 * program runs the client; `--plain-only` runs only that (a CPU profile then holds the emulator's
 * side alone). Prints only.
 */
import os from 'node:os';
import { startEmulator } from '../src/server/server.js';
import { CASES } from './cases.js';
import { runClientProcess } from './client-process.js';
import { DATASETS, ctasSql } from './data.js';
import { ReplayServer } from './replay.js';
import { Target } from './target.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const log = (s: string) => process.stderr.write(s + '\n');

/** Wall and process-CPU milliseconds per call of `n` calls of `f` in a row. */
async function perCall(n: number, f: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall: wall / n, cpu: (c.user + c.system) / 1000 / n };
}

async function main(): Promise<void> {
  const n = Number(arg('--n') ?? 2000);
  const only = arg('--only')?.split(',') ?? ['select_literal', 'join_hash_100k'];
  const stub = process.argv.includes('--stub');
  // Only the plain-node client (for a CPU profile of the emulator's side alone).
  const plainOnly = process.argv.includes('--plain-only');
  const emu = await startEmulator({ port: 0, projectId: 'bench-project' });
  const replay = new ReplayServer(emu.url);
  try {
    const me = new Target('bqemu', emu.url, emu.projectId, 'bench');
    await me.bq.createDataset(me.dataset);
    const cases = CASES.filter((c) => only.includes(c.name) && c.sql);
    for (const d of DATASETS.filter((x) => cases.some((c) => c.needs.includes(x.name)))) await me.query(ctasSql(d, me.t(d.name), 'spec', 'bq'));
    await replay.start();
    const viaStub = new Target('stub', replay.url, emu.projectId, 'bench');
    log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; ${n} queries per case`);
    for (const c of cases) {
      if (!plainOnly) {
        const op = await c.target(me);
        await perCall(Math.min(200, n), op);
        const r = await perCall(n, op);
        let line = `${c.name}: in-process client (tsx): bqemu ${r.wall.toFixed(3)} ms wall, ${r.cpu.toFixed(3)} ms cpu per query`;
        if (stub) {
          replay.record();
          const recorded = await c.target(viaStub);
          await recorded();
          const sop = () => (replay.replay(), recorded());
          await perCall(Math.min(200, n), sop);
          const s = await perCall(n, sop);
          line += `; client alone (stub) ${s.wall.toFixed(3)} ms wall, ${s.cpu.toFixed(3)} ms cpu`;
        }
        log(line);
      }
      const sql = c.sql!(me);
      const warm = Math.max(1, Math.floor(n / 10));
      const wallOf = (r: { ms: number[] }) => r.ms.reduce((x, y) => x + y, 0) / r.ms.length;
      const p = await runClientProcess(emu.url, emu.projectId, sql, n, warm);
      let plain = `${c.name}: plain-node client: bqemu ${wallOf(p).toFixed(3)} ms wall, client process ${p.cpu.toFixed(3)} ms cpu, emulator process ${p.serverCpu.toFixed(3)} ms cpu per query`;
      if (stub) {
        replay.record();
        await runClientProcess(replay.url, emu.projectId, sql, 1, 0);
        replay.replayInLoop();
        const s = await runClientProcess(replay.url, emu.projectId, sql, n, warm);
        plain += `; client alone (stub) ${wallOf(s).toFixed(3)} ms wall, ${s.cpu.toFixed(3)} ms cpu`;
      }
      log(plain);
    }
  } finally {
    await replay.close();
    await emu.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
