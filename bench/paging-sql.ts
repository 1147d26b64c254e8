/**
 * `tsx bench/paging-sql.ts [--rounds N] [--only NAME,…]`: the DuckDB side of paging 1M rows × 3
 * columns (INT64, FLOAT64 = id / 7, STRING; the table bench/result-paging.ts pages), on raw DuckDB
 * in this process: each form of the REST row text, and each way of reading it, run to the end, the
 * forms alternating round by round. Prints the CPU ms of the whole process per 1M rows
 * (`process.cpuUsage`, DuckDB's threads included) and of the main thread alone (/proc), median and
 * range over the rounds. Plain timing, no assertions; the machine may be loaded (compare CPU, and
 * forms within one run).
 *
 * `--check-float`: first compares, over 3M doubles of [10^-3, 10^7) of both signs (uniform,
 * log-uniform, rounded to 0–8 digits, small fractions), DuckDB's `CAST(x AS VARCHAR)` with its JSON
 * writer's `to_json(x)` text (the FLOAT64 cells of that range, src/engine/result-json.ts) and
 * prints how many differ.
 *
 * Forms: the scan alone; the server's row SQL (`restRowsSql`, src/engine/result-json.ts) read as the
 * server reads it (`Database.readChunks`, streamed) with and without copying the texts out
 * (`readEncodedRows`); the same SQL materialised (one call, then each chunk synchronously); and
 * candidate SQL forms of the row text.
 */
import fs from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { Database } from '../src/engine/duckdb/db.js';
import { readEncodedRows, restRowsSql } from '../src/engine/result-json.js';
import type { Engine, ResultField } from '../src/engine/engine-types.js';
import type { BqType } from '../src/types/types.js';

const T = (kind: string) => ({ kind }) as BqType;

const ROWS = 1_000_000;

/** CPU ms of this process's main thread (/proc/self/task/<pid>/stat, 10 ms ticks). */
function mainMs(): number {
  const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

const FIELDS: ResultField[] = [
  { name: 'id', type: T('INT64') },
  { name: 'f', type: T('FLOAT64') },
  { name: 's', type: T('STRING') },
] as ResultField[];
const BASE = 'SELECT id, f, s FROM t';

/** Streams `sql` to its end on `c` (node-api's fetchChunk, as readChunks does); returns the rows. */
async function stream(c: DuckDBConnection, sql: string): Promise<number> {
  const r = await c.stream(sql);
  let n = 0;
  for (let ch = await r.fetchChunk(); ch && ch.rowCount > 0; ch = await r.fetchChunk()) n += ch.rowCount;
  return n;
}

/** Runs `sql` materialised (one call; each chunk read synchronously); returns the rows. */
async function materialised(c: DuckDBConnection, sql: string): Promise<number> {
  const r = await c.run(sql);
  let n = 0;
  for (let i = 0; i < r.chunkCount; i++) n += r.getChunk(i).rowCount;
  return n;
}

/** A row form as one `format` call (fmt's `{}`), no NULL handling: measured only. */
const formatRow = `SELECT format('{{"f":[{{"v":"{}"}},{{"v":"{}"}},{{"v":{}}}]}},', id, f, CAST(to_json(s) AS VARCHAR)) AS j FROM t`;
/** A row form as one `concat` of the plain casts, no Java float form nor NULL handling: measured only. */
const naiveRow = `SELECT concat('{"f":[{"v":"', id, '"},{"v":"', f, '"},{"v":', CAST(to_json(s) AS VARCHAR), '}]},') AS j FROM t`;
/** The same pieces joined with `||`. */
const pipesRow = `SELECT '{"f":[{"v":"' || id || '"},{"v":"' || f || '"},{"v":' || CAST(to_json(s) AS VARCHAR) || '}]},' AS j FROM t`;

async function main(): Promise<void> {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const rounds = Number(arg('--rounds') ?? 3);
  const only = arg('--only')?.split(',');
  const db = await Database.open();
  const e = { db, maxResponseBytes: 512 * 1024 * 1024 } as unknown as Engine;
  await db.run(`CREATE TABLE t AS SELECT id::BIGINT AS id, id / 7 AS f, 'v' || id::VARCHAR AS s FROM range(1, ${ROWS + 1}) AS r(id)`);
  // A second, plain DuckDB instance with the same table, for the forms read through node-api alone.
  const raw = await DuckDBInstance.create(':memory:');
  const c = await raw.connect();
  await c.run("SET default_null_order='nulls_first_on_asc_last_on_desc'");
  await c.run(`CREATE TABLE t AS SELECT id::BIGINT AS id, id / 7 AS f, 'v' || id::VARCHAR AS s FROM range(1, ${ROWS + 1}) AS r(id)`);
  const rowSql = restRowsSql(BASE, FIELDS);
  // The row SQL's second form alone (the one for rows with no NULL outside STRING columns): wrong
  // for NULLs, measured only, for the cost of the NULL form.
  const fastOnly = rowSql.replace(/^SELECT CASE WHEN .*? ELSE (concat\('\{"f":\[\{"v":"'.*) END AS j FROM/s, 'SELECT $1 AS j FROM');
  if (fastOnly === rowSql) throw new Error('the row SQL changed shape: update the fast-form extraction');

  const forms: { name: string; run: () => Promise<unknown> }[] = [
    { name: 'scan alone (streamed)', run: () => stream(c, BASE) },
    { name: 'server row SQL, streamed, no copy', run: () => stream(c, rowSql) },
    { name: 'server row SQL, materialised, no copy', run: () => materialised(c, rowSql) },
    { name: 'server row SQL, readEncodedRows (streamed, texts copied out)', run: () => readEncodedRows(e, BASE, FIELDS) },
    { name: 'server row SQL without its NULL form, streamed', run: () => stream(c, fastOnly) },
    { name: 'FLOAT64 text alone: CAST(f AS VARCHAR)', run: () => stream(c, 'SELECT CAST(f AS VARCHAR) FROM t') },
    { name: 'FLOAT64 text alone: CAST(to_json(f) AS VARCHAR)', run: () => stream(c, 'SELECT CAST(to_json(f) AS VARCHAR) FROM t') },
    { name: 'naive concat row (no Java form, no NULLs), streamed', run: () => stream(c, naiveRow) },
    { name: '|| row (no Java form, no NULLs), streamed', run: () => stream(c, pipesRow) },
    { name: 'format() row (no Java form, no NULLs), streamed', run: () => stream(c, formatRow) },
  ].filter((f) => !only || only.some((o) => f.name.includes(o)));

  if (process.argv.includes('--check-float')) {
    await c.run(
      `CREATE TEMP TABLE r AS SELECT CASE WHEN i % 2 = 0 THEN 1 ELSE -1 END * CASE WHEN i % 8 < 2 THEN random() * 1e7 WHEN i % 8 < 4 THEN exp(ln(1e-3) + random() * ln(1e10)) ` +
        `WHEN i % 8 < 6 THEN round(random() * 1e6, (i % 9)::INTEGER) ELSE (i % 100000)::DOUBLE / (1 + i % 977) END AS x FROM range(0, 3000000) t(i)`,
    );
    const r = await c.runAndReadAll(
      `SELECT count(*) FILTER (WHERE abs(x) >= 0.001 AND abs(x) < 10000000), count(*) FILTER (WHERE abs(x) >= 0.001 AND abs(x) < 10000000 AND CAST(x AS VARCHAR) <> CAST(to_json(x) AS VARCHAR)) FROM r`,
    );
    const [n, diff] = r.getRows()[0]!.map(String);
    console.log(`FLOAT64 text check: ${diff} of ${n} doubles in [1e-3, 1e7) differ between CAST(x AS VARCHAR) and to_json(x)\n`);
  }
  const cpu = new Map<string, number[]>();
  const main = new Map<string, number[]>();
  for (const f of forms) await f.run(); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const f of forms) {
      const c0 = process.cpuUsage();
      const m0 = mainMs();
      await f.run();
      const d = process.cpuUsage(c0);
      (cpu.get(f.name) ?? cpu.set(f.name, []).get(f.name)!).push((d.user + d.system) / 1000);
      (main.get(f.name) ?? main.set(f.name, []).get(f.name)!).push(mainMs() - m0);
    }
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
  console.log(`| form (1M rows × 3 columns) | CPU ms, whole process: median (range) | main thread CPU ms: median (range) |\n|---|---|---|`);
  for (const f of forms) console.log(`| ${f.name} | ${med(cpu.get(f.name)!).toFixed(0)} (${range(cpu.get(f.name)!)}) | ${med(main.get(f.name)!)} (${range(main.get(f.name)!)}) |`);
  c.closeSync();
  raw.closeSync();
  db.close();
}

await main();
