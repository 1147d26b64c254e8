/**
 * `npx tsx bench/tpch-explain.ts [--sf 1] [--only q11,q18] [--iters 5] [--explain]`: for each TPC-H
 * query (bench/tpch-queries.ts), the SQL bqemu lowers it to, and p50 wall ms of that lowered SQL on
 * the emulator's DuckDB next to the DuckDB-dialect twin on the raw DuckDB, timed in turns (same
 * load). `--explain` adds EXPLAIN ANALYZE of both. Tells a lowering cost (lowered ≫ raw) from the
 * per-query overhead outside DuckDB. Prints only.
 */
import os from 'node:os';
import { stats } from './report.js';
import { TpchSuite } from './tpch.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const log = (s: string) => process.stderr.write(s + '\n');

async function main(): Promise<void> {
  const sf = Number(arg('--sf') ?? 1);
  const only = arg('--only')?.split(',');
  const iters = Number(arg('--iters') ?? 5);
  const explain = process.argv.includes('--explain');
  const suite = await TpchSuite.start(sf, log);
  try {
    log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    for (const q of suite.queries()) {
      if (only && !only.includes(q.name)) continue;
      const lowered = await suite.lowered(q.bq);
      const db = suite.emu.engine.db;
      const ways: [string, () => Promise<unknown>][] = [
        ['lowered', async () => (await db.readAll(lowered)).getRowsJS()],
        ['raw', () => suite.duckRows(q.duck)],
      ];
      const ms: number[][] = ways.map(() => []);
      for (let i = 0; i < iters + 1; i++)
        for (let w = 0; w < ways.length; w++) {
          const t0 = performance.now();
          await ways[w][1]();
          if (i > 0) ms[w].push(performance.now() - t0);
        }
      const [l, r] = ms.map((m) => stats(m).p50);
      log(`${q.name}: lowered ${l.toFixed(1)} ms, raw ${r.toFixed(1)} ms, ${(l / r).toFixed(2)}×`);
      if (explain) {
        log(`--- ${q.name} lowered SQL:\n${lowered}`);
        const lp = (await (await db.readAll(`EXPLAIN ANALYZE ${lowered}`)).getRowsJS()) as unknown[][];
        log(`--- EXPLAIN ANALYZE lowered\n${String(lp[0]?.[1] ?? '')}`);
        const rp = (await suite.duckRows(`EXPLAIN ANALYZE ${q.duck}`)) as unknown[][];
        log(`--- EXPLAIN ANALYZE raw\n${String(rp[0]?.[1] ?? '')}`);
      }
    }
  } finally {
    await suite.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
