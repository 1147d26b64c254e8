/**
 * `tsx bench/large-results.ts [--rounds N] [--only a,b]`: what a large query result (past the
 * 128 KB read as domain values, src/engine/query-results.ts readResultRows) costs the server when its
 * one run's DuckDB chunks are kept and read back from a temporary table ('keep',
 * src/engine/duckdb/kept-chunks.ts), when the query is stopped and run again to build its row
 * texts ('rerun'), and as the server chooses by time (undefined: src/engine/statement-context.ts
 * keepLargeResult) — next to raw DuckDB running the same SQL and streaming its chunks (nothing
 * decoded), on one `Database` in this process. Query shapes: a heavy aggregate of 2M rows
 * returning 5,000 groups, a sort of 1M rows returning 20,000, sorts of 500k and 1M rows returning
 * all of them, a scan of 1M rows.
 * Prints wall and process CPU ms per result (DuckDB's threads included), median and range over
 * the rounds, the ways alternating within each round. Plain timing, no assertions.
 */
import { Database } from '../src/engine/duckdb/db.js';
import { readResultRows } from '../src/engine/query-results.js';
import type { Engine, ResultField } from '../src/engine/engine-types.js';
import type { BqType } from '../src/types/types.js';
import { silentLogger } from '../src/config/logger.js';

const T = (kind: string) => ({ kind }) as BqType;
const TABLE = `CREATE TABLE big AS SELECT id::BIGINT AS id, id % 5000 AS k, id / 7 AS v, 'name ' || (id % 977) AS s FROM range(1, 2000001) AS r(id)`;

const CASES: { name: string; sql: string; fields: ResultField[] }[] = [
  {
    name: 'aggregate 2M → 5,000 rows',
    sql: `SELECT k, count(*) AS n, sum(v) AS total, 'group ' || k AS label FROM big GROUP BY k ORDER BY k`,
    fields: [{ name: 'k', type: T('INT64') }, { name: 'n', type: T('INT64') }, { name: 'total', type: T('FLOAT64') }, { name: 'label', type: T('STRING') }],
  },
  {
    name: 'sort 1M → first 20,000 rows',
    sql: `SELECT id, s, v FROM big WHERE id <= 1000000 ORDER BY s, id DESC LIMIT 20000`,
    fields: [{ name: 'id', type: T('INT64') }, { name: 's', type: T('STRING') }, { name: 'v', type: T('FLOAT64') }],
  },
  {
    name: 'sort 500k → all rows',
    sql: `SELECT id, s, v FROM big WHERE id <= 500000 ORDER BY s, id DESC`,
    fields: [{ name: 'id', type: T('INT64') }, { name: 's', type: T('STRING') }, { name: 'v', type: T('FLOAT64') }],
  },
  {
    name: 'sort 1M → all rows',
    sql: `SELECT id, s, v FROM big WHERE id <= 1000000 ORDER BY s, id DESC`,
    fields: [{ name: 'id', type: T('INT64') }, { name: 's', type: T('STRING') }, { name: 'v', type: T('FLOAT64') }],
  },
  {
    name: 'scan 1M rows',
    sql: `SELECT id, s, v FROM big WHERE id <= 1000000`,
    fields: [{ name: 'id', type: T('INT64') }, { name: 's', type: T('STRING') }, { name: 'v', type: T('FLOAT64') }],
  },
];

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `${med(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

async function main(): Promise<void> {
  const arg = (n: string) => (process.argv.indexOf(n) >= 0 ? process.argv[process.argv.indexOf(n) + 1] : undefined);
  const rounds = Number(arg('--rounds') ?? 5);
  const only = arg('--only')?.split(',');
  const db = await Database.open();
  const base = { db, maxResponseBytes: 512 * 1024 * 1024, log: silentLogger } as unknown as Engine;
  await db.run(TABLE);
  const ways: Record<string, (c: (typeof CASES)[number]) => Promise<unknown>> = {
    'raw DuckDB (stream)': (c) => db.readChunks(c.sql, () => undefined),
    keep: (c) => readResultRows({ ...base, largeResults: 'keep' } as Engine, c.sql, c.fields),
    rerun: (c) => readResultRows({ ...base, largeResults: 'rerun' } as Engine, c.sql, c.fields),
    "server's choice": (c) => readResultRows(base, c.sql, c.fields),
  };
  console.log(`| query | ${Object.keys(ways).map((w) => `${w}: wall ms / CPU ms`).join(' | ')} |`);
  console.log(`|---|${Object.keys(ways).map(() => '---').join('|')}|`);
  for (const c of CASES) {
    if (only && !only.some((o) => c.name.includes(o))) continue;
    const wall = new Map<string, number[]>();
    const cpu = new Map<string, number[]>();
    for (let r = 0; r <= rounds; r++)
      for (const [w, f] of Object.entries(ways)) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await f(c);
        const ms = performance.now() - t0;
        const d = process.cpuUsage(c0);
        // Round 0 warms DuckDB's caches and the kept prepared statements.
        if (r === 0) continue;
        (wall.get(w) ?? wall.set(w, []).get(w)!).push(ms);
        (cpu.get(w) ?? cpu.set(w, []).get(w)!).push((d.user + d.system) / 1000);
      }
    console.log(`| ${c.name} | ${Object.keys(ways).map((w) => `${fmt(wall.get(w)!)} / ${fmt(cpu.get(w)!)}`).join(' | ')} |`);
  }
  await db.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
