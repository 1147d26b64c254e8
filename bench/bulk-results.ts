/**
 * `tsx bench/bulk-results.ts [--rounds N]`: what a query result of a given size costs the server to
 * read and encode, each way src/engine/result-json.ts can take, on a DuckDB database in this
 * process (`Database`, as the engine opens it):
 *
 * - domain values: `readRows` (decoded in JavaScript) then the JavaScript cell encoders
 *   (`encodeRowBlocksSync`), the path of small results;
 * - bulk text: `readEncodedRows` (each row's REST text built inside DuckDB, copied out);
 * - the server's choice: `readResultRows` (domain values up to its size limit, else bulk text),
 *   encoded as the server then keeps it;
 *
 * over results of 4 columns (STRING, STRING, INT64, FLOAT64 — a third of the FLOAT64 cells in Java's
 * exponent form) of 10 to 100,000 rows; and DuckDB's time to prepare the bulk text's SQL of one
 * column of each kind (its planning, paid by every bulk-encoded result). Prints CPU ms of the whole
 * process per result (DuckDB's threads included), median and range over the rounds, the ways
 * alternating within each round. Plain timing, no assertions.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { Database } from '../src/engine/duckdb/db.js';
import { readEncodedRows, restRowsSql } from '../src/engine/result-json.js';
import { readResultRows } from '../src/engine/query-results.js';
import { readRows } from '../src/engine/statement-context.js';
import type { Engine, ResultField } from '../src/engine/engine-types.js';
import type { BqType } from '../src/types/types.js';
import { encodeRowBlocksSync } from '../src/wire/encoded-rows.js';

const T = (kind: string) => ({ kind }) as BqType;
const FIELDS: ResultField[] = [
  { name: 'b', type: T('STRING') },
  { name: 'ty', type: T('STRING') },
  { name: 'id', type: T('INT64') },
  { name: 'f', type: T('FLOAT64') },
];
const TABLE = `CREATE TABLE t AS SELECT id::BIGINT AS id, 'Brand#' || (id % 50) AS b, 'MEDIUM POLISHED ' || (id % 7) AS ty,
  CASE WHEN id % 3 = 0 THEN id * 1e7 ELSE id / 7 END AS f FROM range(1, 100001) AS r(id)`;
const SIZES = [10, 100, 500, 1000, 2000, 5000, 10_000, 20_000, 100_000];

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `${med(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

/** CPU ms of the whole process per call of `f`, over `reps` calls. */
async function cpuPer(f: () => Promise<unknown>, reps: number): Promise<number> {
  const c0 = process.cpuUsage();
  for (let i = 0; i < reps; i++) await f();
  const d = process.cpuUsage(c0);
  return (d.user + d.system) / 1000 / reps;
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--rounds');
  const rounds = at >= 0 ? Number(process.argv[at + 1]) : 3;
  const db = await Database.open();
  const e = { db, maxResponseBytes: 100 * 1024 * 1024 } as unknown as Engine;
  await db.run(TABLE);
  const opts = { useInt64Timestamp: false };
  const ways: Record<string, (sql: string) => Promise<unknown>> = {
    'domain values + JS encoders': async (sql) => encodeRowBlocksSync(FIELDS, await readRows(e, sql, [...FIELDS]), opts),
    'bulk text': (sql) => readEncodedRows(e, sql, FIELDS),
    "server's choice": async (sql) => {
      const r = await readResultRows(e, sql, FIELDS);
      if ('rows' in r) encodeRowBlocksSync(FIELDS, r.rows, opts);
    },
  };
  const cpu = new Map<string, number[]>();
  for (const n of SIZES) {
    const sql = `SELECT b, ty, id, f FROM t WHERE id <= ${n} ORDER BY id DESC`;
    const reps = Math.max(3, Math.floor(40_000 / n));
    for (const w of Object.values(ways)) await w(sql); // warm-up
    for (let r = 0; r < rounds; r++)
      for (const [name, w] of Object.entries(ways)) {
        const key = `${n}\t${name}`;
        (cpu.get(key) ?? cpu.set(key, []).get(key)!).push(await cpuPer(() => w(sql), reps));
      }
  }
  console.log(`| rows | ${Object.keys(ways).map((w) => `${w}: CPU ms per result`).join(' | ')} |`);
  console.log(`|--:|${Object.keys(ways).map(() => '--:').join('|')}|`);
  for (const n of SIZES) console.log(`| ${n.toLocaleString('en-US')} | ${Object.keys(ways).map((w) => fmt(cpu.get(`${n}\t${w}`)!)).join(' | ')} |`);
  db.close();

  // Planning of the bulk text's SQL, one column of each kind, on a plain DuckDB (prepare only).
  const raw = await DuckDBInstance.create(':memory:');
  const c = await raw.connect();
  await c.run(TABLE);
  console.log('\n| one column of | DuckDB prepare of the bulk text SQL, ms: median (range) |\n|---|--:|');
  for (const f of FIELDS) {
    const text = restRowsSql(`SELECT ${f.name} FROM t WHERE id <= 10`, [f]);
    const ms: number[] = [];
    for (let i = 0; i < 5 * rounds; i++) {
      const t0 = performance.now();
      (await c.prepare(text)).destroySync();
      ms.push(performance.now() - t0);
    }
    console.log(`| ${f.type.kind} (${f.name}) | ${fmt(ms)} |`);
  }
  c.closeSync();
  raw.closeSync();
}

await main();
