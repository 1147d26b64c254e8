/**
 * `npx tsx bench/tpch-overhead.ts [--sf 1] [--only q02,q08] [--iters 7] [--ways bqemu,raw]`: where bqemu − lowered goes
 * for TPC-H queries (bench/tpch-queries.ts). Interleaved round by round on one emulator: the
 * lowered SQL read whole (`Database.readAll`, the suite's "lowered" column), the same SQL streamed
 * chunk by chunk the way a job reads it (`Database.readChunks`), the query end to end through
 * `@google-cloud/bigquery`, and the DuckDB twin on the raw DuckDB. Wall and process-CPU p50 (ms).
 * Prints only.
 */
import fs from 'node:fs';
import os from 'node:os';
import { stats } from './report.js';
import { TpchSuite } from './tpch.js';
import { duckSql, tpchQueries } from './tpch-queries.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** CPU ms per thread of this process (/proc/self/task/<tid>/stat utime + stime), keyed by `name/tid`. */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const st = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = st.slice(st.indexOf('(') + 1, st.lastIndexOf(')'));
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      out.set(`${name}/${tid}`, ((Number(f[11]) + Number(f[12])) * 1000) / 100);
    } catch {
      // the thread ended
    }
  }
  return out;
}

const log = (s: string) => process.stderr.write(s + '\n');

async function main(): Promise<void> {
  const sf = Number(arg('--sf') ?? 1);
  const only = arg('--only')?.split(',');
  const iters = Number(arg('--iters') ?? 7);
  // Only these ways (e.g. `--ways bqemu` under --cpu-prof).
  const ways0 = arg('--ways')?.split(',');
  const suite = await TpchSuite.start(sf, log);
  try {
    log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    // The DuckDB twins over the emulator's own tables (its DuckDB names): `nat@emu` tells the
    // lowering's cost from differences of the stored data (a load job's layout vs CREATE TABLE AS).
    const duckName = (n: string) => `"${suite.emu.engine.catalog.getTable('tpch-project', 'tpch', n)!.duckName}"`;
    const atEmu = tpchQueries({ ...duckSql, t: duckName }, sf);
    for (const q of suite.queries()) {
      if (only && !only.includes(q.name)) continue;
      const lowered = await suite.lowered(q.bq);
      const db = suite.emu.engine.db;
      // The text the job itself hands to DuckDB (readRows wraps the lowered SQL).
      let jobSql = '';
      const readChunks = db.readChunks.bind(db);
      const calls: string[] = [];
      db.readChunks = (sql, ...rest) => {
        if (sql.length > jobSql.length) jobSql = sql;
        return readChunks(sql, ...rest);
      };
      for (const m of ['readAll', 'run', 'openCursor'] as const) {
        const f = (db[m] as (...a: unknown[]) => unknown).bind(db);
        (db as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => (calls.push(`${m}: ${String(a[0]).slice(0, 120)}`), f(...a));
      }
      await suite.bqRows(q.bq);
      db.readChunks = readChunks;
      for (const m of ['readAll', 'run', 'openCursor']) delete (db as unknown as Record<string, unknown>)[m];
      if (calls.length) log(`other DuckDB calls of the job: ${calls.join(' | ')}`);
      if (process.argv.includes('--print')) log(`--- job SQL:\n${jobSql}\n--- lowered:\n${lowered}`);
      const all: [string, () => Promise<unknown>][] = [
        ['readAll', async () => (await db.readAll(lowered)).getRowsJS()],
        ['nat@emu', async () => (await db.readAll(`${atEmu.find((x) => x.name === q.name)!.sql}`)).getRowsJS()],
        ['readChunks', () => db.readChunks(lowered, () => {})],
        ['jobSql', async () => (await db.readAll(jobSql)).getRowsJS()],
        ['bqemu', () => suite.bqRows(q.bq)],
        ['raw', () => suite.duckRows(q.duck)],
      ];
      const ways = all.filter(([n]) => !ways0 || ways0.includes(n));
      const wall: number[][] = ways.map(() => []);
      const cpu: number[][] = ways.map(() => []);
      for (let i = 0; i < iters + 1; i++)
        for (let w = 0; w < ways.length; w++) {
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          await ways[w][1]();
          const c = process.cpuUsage(c0);
          if (i > 0) {
            wall[w].push(performance.now() - t0);
            cpu[w].push((c.user + c.system) / 1000);
          }
        }
      if (process.argv.includes('--threads'))
        for (const [n, f] of ways) {
          const before = threadCpu();
          for (let i = 0; i < iters; i++) await f();
          const after = threadCpu();
          const per = [...after].map(([k, v]) => [k, (v - (before.get(k) ?? 0)) / iters] as const).filter(([, v]) => v > 0.2);
          log(`  ${n} per run, CPU ms by thread: ${per.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
        }
      log(`${q.name}: ` + ways.map(([n], w) => `${n} ${stats(wall[w]).p50.toFixed(1)} (${stats(cpu[w]).p50.toFixed(1)} cpu)`).join(', '));
    }
  } finally {
    await suite.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
