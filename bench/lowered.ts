/**
 * `npx tsx bench/lowered.ts [--iters N] [--only a,b] [--explain]`: where the time of each
 * public-workload case (bench/cases.ts) goes. In one process and one run, interleaved round by
 * round, five ways of answering the same question:
 *   natural  the case's DuckDB SQL on the raw reference DuckDB (bench/duckdb.ts: the bench's ratio base);
 *   nat@emu  the same DuckDB SQL on the emulator's own DuckDB instance (its settings, pool, prepared statements);
 *   lowered  the SQL the emulator's lowering produced for the case, run on the emulator's DuckDB directly;
 *   streamed the same SQL read as a job reads it (`Database.readChunks`, chunk by chunk, rows not decoded);
 *   bqemu    the case through `@google-cloud/bigquery` against the in-process emulator (end to end).
 * For each: wall p50 and the process CPU per operation (p50 of process.cpuUsage deltas: every
 * thread of this process, DuckDB's workers included) — on a loaded machine CPU time is the steadier
 * figure. `lowered − nat@emu` is the lowering's cost; `bqemu − lowered` the per-query overhead
 * outside DuckDB (REST, jobs, analysis, result encoding, and the client's own decoding).
 * `--explain` prints EXPLAIN ANALYZE of the natural and the lowered SQL. Prints only.
 */
import os from 'node:os';
import { startEmulator } from '../src/server/server.js';
import { CASES } from './cases.js';
import { DATASETS, dataSelect } from './data.js';
import { RawDuck } from './duckdb.js';
import { stats } from './report.js';
import { Target } from './target.js';

const PUBLIC = ['select_literal', 'join_hash_100k', 'agg_group_by_1m', 'agg_high_card_2m', 'window_partition_1m', 'order_by_100k'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const log = (s: string) => process.stderr.write(s + '\n');

/** Wall and CPU milliseconds of one call. */
async function measure(f: () => Promise<unknown>): Promise<[number, number]> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return [wall, (c.user + c.system) / 1000];
}

async function main(): Promise<void> {
  const iters = Number(arg('--iters') ?? 30);
  const only = arg('--only')?.split(',') ?? PUBLIC;
  const explain = process.argv.includes('--explain');
  const emu = await startEmulator({ port: 0, projectId: 'bench-project' });
  const duck = await RawDuck.create();
  try {
    const me = new Target('bqemu', emu.url, emu.projectId, 'bench');
    await me.setup(log);
    for (const d of DATASETS) await duck.run(`CREATE TABLE ${d.name} AS ${dataSelect(d, me.mode, 'duck')}`);
    const db = emu.engine.db;
    // The last SQL the engine read rows with (the lowered query: readRows → readChunks).
    let last = '';
    const readChunks = db.readChunks.bind(db);
    db.readChunks = (sql, visit, restart) => ((last = sql), readChunks(sql, visit, restart));
    const duckNameOf = (n: string) => emu.engine.catalog.getTable(emu.projectId, 'bench', n)?.duckName ?? n;
    log(`\nload average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; ${iters} interleaved rounds\n`);
    log('| case | natural p50 ms (cpu) | nat@emu p50 ms (cpu) | lowered p50 ms (cpu) | streamed p50 ms (cpu) | bqemu p50 ms (cpu) | lowered/nat@emu | bqemu − lowered |');
    log('|---|---|---|---|---|---|---|---|');
    for (const c of CASES.filter((x) => only.includes(x.name))) {
      const bqOp = await c.target(me);
      await bqOp();
      const lowered = last;
      const natural = (c as { duckSql?: string }).duckSql ?? (await naturalSql(c.name));
      const natAtEmu = c.needs.reduce((s, n) => s.replace(new RegExp(`\\b(FROM|JOIN) ${n}\\b`, 'g'), `$1 "${duckNameOf(n)}"`), natural);
      const ways: [string, () => Promise<unknown>][] = [
        ['natural', () => duck.rows(natural)],
        // The emulator instance runs with BigQuery's NULL order by default: the natural query states DuckDB's own.
        ['nat@emu', () => db.readAll(withDuckDefaultNullOrder(natAtEmu))],
        ['lowered', () => db.readAll(lowered)],
        // The same SQL read the way a job reads it (Database.readChunks: streamed chunk by chunk).
        ['streamed', () => readChunks(lowered, () => {})],
        ['bqemu', () => bqOp()],
      ];
      const wall: number[][] = ways.map(() => []);
      const cpu: number[][] = ways.map(() => []);
      for (let i = 0; i < Math.min(5, iters); i++) for (const [, f] of ways) await f();
      for (let i = 0; i < iters; i++)
        for (let w = 0; w < ways.length; w++) {
          const [ms, cp] = await measure(ways[w][1]);
          wall[w].push(ms);
          cpu[w].push(cp);
        }
      const p = (a: number[]) => stats(a).p50;
      const cell = (w: number) => `${p(wall[w]).toFixed(2)} (${p(cpu[w]).toFixed(2)})`;
      log(`| ${c.name} | ${cell(0)} | ${cell(1)} | ${cell(2)} | ${cell(3)} | ${cell(4)} | ${(p(wall[2]) / p(wall[1])).toFixed(2)}× | ${(p(wall[4]) - p(wall[2])).toFixed(2)} ms |`);
      if (explain) {
        log(`\n${c.name} lowered SQL:\n${lowered}\n`);
        for (const [label, sql, run] of [['natural', natural, (s: string) => duck.rows(s)], ['lowered', lowered, (s: string) => db.readAll(s).then((r) => r.getRowsJS())]] as const) {
          const rows = (await run(`EXPLAIN ANALYZE ${sql}`)) as unknown[][];
          log(`--- EXPLAIN ANALYZE ${label}\n${String(rows[0]?.[1] ?? '')}`);
        }
      }
    }
  } finally {
    await emu.close();
    duck.close();
  }
}

/** The DuckDB SQL of a case (bench/cases.ts keeps it in the closure: recovered by running its duck op once). */
async function naturalSql(name: string): Promise<string> {
  const c = CASES.find((x) => x.name === name)!;
  let seen = '';
  const probe = { rows: async (sql: string) => ((seen = sql), []) } as unknown as RawDuck;
  await (await c.duck(probe, 'spec'))();
  return seen;
}

/** `sql` with every ORDER BY key of DuckDB's default NULL order spelled out (NULLS LAST). */
function withDuckDefaultNullOrder(sql: string): string {
  return sql.replace(/ORDER BY ([^)]*?)(?= LIMIT|\)|$)/g, (_m, keys: string) => `ORDER BY ${keys.split(',').map((k) => `${k.trim()} NULLS LAST`).join(', ')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
