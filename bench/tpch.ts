/**
 * The TPC-H-shaped suite: the eight tables generated in a raw DuckDB (bench/tpch-data.ts), written
 * as Parquet into an emulator's Cloud Storage stand-in folder and loaded into bqemu by load jobs;
 * then each of the 22 queries (bench/tpch-queries.ts) runs in GoogleSQL through
 * `@google-cloud/bigquery` and in DuckDB's dialect on the raw DuckDB, results checked equal, p50s
 * compared. A third column times the SQL bqemu lowers each query to, run directly on the emulator's
 * DuckDB: it tells lowering cost (lowered vs raw) from per-query overhead (bqemu vs lowered).
 * Used by `npm run bench -- --tpch 0.1` and by test/tpch.test.ts (SF 0.01, answers only).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { startEmulator, type Emulator } from '../src/server/server.js';
import { lowerQuery, makeContext } from '../src/engine/statement-context.js';
import { RawDuck } from './duckdb.js';
import { ClientProcess } from './client-process.js';
import { stats, type Stats } from './report.js';
import { TPCH_TABLES, tpchGenerateSql } from './tpch-data.js';
import { duckSql, googleSql, tpchQueries } from './tpch-queries.js';

const PROJECT = 'tpch-project';
const DATASET = 'tpch';

export interface TpchQueryResult {
  name: string;
  rows: number;
  /** Undefined when bqemu's rows equal raw DuckDB's; else the first difference (or bqemu's error). */
  mismatch?: string;
  bqemu?: Stats;
  duck?: Stats;
  /** The lowered SQL run on the emulator's own DuckDB. */
  lowered?: Stats;
  /** bqemu through a client in its own plain-node process (bench/client-process.ts). */
  ownClient?: Stats;
  /**
   * p50 of this process's CPU time (ms, every thread: DuckDB's workers included) per run of each
   * in-process side — steadier than wall time on a shared machine. bqemu's includes the in-process
   * client's own work (request building, JSON parsing, row decoding).
   */
  cpu?: { bqemu: number; lowered: number; duck: number };
}

/** A loaded suite: the emulator holding the tables, the raw DuckDB, and how to run queries on both. */
export class TpchSuite {
  private constructor(
    readonly sf: number,
    readonly emu: Emulator,
    readonly duck: RawDuck,
    readonly bq: BigQuery,
    private readonly dir: string,
    /** Milliseconds spent generating (raw DuckDB) and loading (Parquet + load jobs). */
    readonly setupMs: { generate: number; load: number },
  ) {}

  /**
   * Generates the tables at scale factor `sf` and loads them into a new in-process emulator.
   * @throws when a load job fails (its error result)
   */
  static async start(sf: number, log: (s: string) => void = () => {}): Promise<TpchSuite> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-tpch-'));
    const duck = await RawDuck.create();
    let emu: Emulator | undefined;
    try {
      let t0 = performance.now();
      for (const s of tpchGenerateSql(sf)) await duck.run(s);
      const generate = performance.now() - t0;
      log(`  TPC-H SF ${sf}: generated in raw DuckDB in ${generate.toFixed(0)} ms`);
      fs.mkdirSync(path.join(dir, 'bkt', 'tpch'), { recursive: true });
      for (const t of TPCH_TABLES) await duck.run(`COPY ${t} TO '${path.join(dir, 'bkt', 'tpch', `${t}.parquet`)}' (FORMAT parquet)`);
      emu = await startEmulator({ port: 0, projectId: PROJECT, gcsDir: dir });
      const bq = new BigQuery({ projectId: PROJECT, apiEndpoint: emu.url, authClient: new PassThroughClient() as never, autoRetry: false, maxRetries: 0 });
      t0 = performance.now();
      await bq.createDataset(DATASET);
      for (const t of TPCH_TABLES) {
        const [job] = await bq.createJob({
          configuration: { load: { sourceUris: [`gs://bkt/tpch/${t}.parquet`], sourceFormat: 'PARQUET', destinationTable: { projectId: PROJECT, datasetId: DATASET, tableId: t } } },
        });
        const [meta] = await job.promise().then(() => job.getMetadata());
        if (meta.status?.errorResult) throw new Error(`load of ${t} failed: ${meta.status.errorResult.message}`);
      }
      const load = performance.now() - t0;
      log(`  TPC-H SF ${sf}: Parquet written and loaded by ${TPCH_TABLES.length} load jobs in ${load.toFixed(0)} ms`);
      return new TpchSuite(sf, emu, duck, bq, dir, { generate, load });
    } catch (e) {
      await emu?.close();
      duck.close();
      fs.rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }

  /** The 22 queries: GoogleSQL for bqemu, DuckDB's dialect for the raw side. */
  queries(): { name: string; bq: string; duck: string }[] {
    const bq = tpchQueries(googleSql(DATASET), this.sf);
    const duck = tpchQueries(duckSql, this.sf);
    return bq.map((q, i) => ({ name: q.name, bq: q.sql, duck: duck[i].sql }));
  }

  /** Rows of a GoogleSQL query through the client, as plain comparable values. */
  async bqRows(sql: string): Promise<unknown[][]> {
    const [rows] = await this.bq.query({ query: sql, useLegacySql: false, useQueryCache: false });
    return (rows as Record<string, unknown>[]).map((r) => Object.values(r));
  }

  /** Rows of a DuckDB query on the raw side. */
  duckRows(sql: string): Promise<unknown[][]> {
    return this.duck.rows(sql);
  }

  /**
   * The DuckDB SQL a query job of `sql` hands DuckDB (its rows read by src/engine/statement-context.ts
   * readRows, whose result-size guard wraps the lowered SELECT when it returns strings): recorded
   * from one run through the client, so it holds what the job's lowering knew (the stored columns of
   * a table scanned twice, src/engine/stored-columns.ts; NULL facts, src/engine/column-stats.ts).
   * Falls back to lowering the analyzed statement directly when no read was seen.
   */
  async lowered(sql: string): Promise<string> {
    const db = this.emu.engine.db;
    const readChunks = db.readChunks;
    let seen = '';
    db.readChunks = function (this: typeof db, text, ...rest) {
      if (text.length > seen.length) seen = text;
      return readChunks.call(this, text, ...rest);
    };
    try {
      await this.bqRows(sql);
    } finally {
      db.readChunks = readChunks;
    }
    if (seen) return seen;
    const e = this.emu.engine;
    const defaults = { projectId: PROJECT };
    const a = await e.statements.analyze(sql, 0, defaults, { named: new Map() });
    const ctx = await makeContext(e, a.tables, { ...defaults, noRowAccess: true });
    return lowerQuery(a.stmt, ctx);
  }

  async close(): Promise<void> {
    await this.emu.close();
    this.duck.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A cell as compared: dates and other wrapped values as text, numbers as numbers, NULL as null. */
function plain(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object' && 'value' in (v as object)) return String((v as { value: unknown }).value);
  if (typeof v === 'object' && v !== null && typeof (v as { toString?: unknown }).toString === 'function') {
    const s = String(v);
    return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : s;
  }
  return v;
}

/** Equal within a relative tolerance of 1e-9 (sums of doubles in another order), else exactly. */
function same(a: unknown, b: unknown): boolean {
  const x = plain(a);
  const y = plain(b);
  if (typeof x === 'number' && typeof y === 'number') return x === y || Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
  return x === y;
}

/**
 * The first difference between bqemu's rows and raw DuckDB's (in order: every TPC-H query orders
 * its output), or undefined when they are equal.
 */
export function firstDifference(got: unknown[][], want: unknown[][]): string | undefined {
  if (got.length !== want.length) return `row count: bqemu ${got.length}, duckdb ${want.length}`;
  for (let i = 0; i < got.length; i++) {
    const g = got[i];
    const w = want[i];
    if (g.length !== w.length || g.some((v, j) => !same(v, w[j]))) return `row ${i}: bqemu ${JSON.stringify(g.map(plain))}, duckdb ${JSON.stringify(w.map(plain))}`;
  }
  return undefined;
}

/**
 * Runs every query once on both sides and compares the rows; with `iters` > 0 also times bqemu,
 * the lowered SQL and raw DuckDB in turns (`warmup` untimed rounds first).
 */
export async function runTpch(suite: TpchSuite, o: TpchRunOptions): Promise<TpchQueryResult[]> {
  const client = o.ownClient && o.iters > 0 ? ClientProcess.start(suite.emu.url, PROJECT) : undefined;
  try {
    return await runQueries(suite, o, client);
  } finally {
    await client?.close();
  }
}

/** Options of {@link runTpch}; `ownClient` adds a client in its own plain-node process as a fourth side. */
export interface TpchRunOptions {
  iters: number;
  warmup: number;
  log?: (s: string) => void;
  only?: string[];
  ownClient?: boolean;
}

async function runQueries(suite: TpchSuite, o: TpchRunOptions, client: ClientProcess | undefined): Promise<TpchQueryResult[]> {
  const out: TpchQueryResult[] = [];
  for (const q of suite.queries()) {
    if (o.only && !o.only.includes(q.name)) continue;
    const r: TpchQueryResult = { name: q.name, rows: 0 };
    try {
      const want = await suite.duckRows(q.duck);
      r.rows = want.length;
      r.mismatch = firstDifference(await suite.bqRows(q.bq), want);
      if (o.iters > 0) {
        // The sides take turns, so that each sees the same (shared, changing) machine load.
        const lowered = await suite.lowered(q.bq);
        const sides: [keyof typeof ms, () => Promise<unknown>][] = [
          ['bqemu', () => suite.bqRows(q.bq)],
          ['lowered', async () => (await suite.emu.engine.db.readAll(lowered)).getRowsJS()],
          ['duck', () => suite.duckRows(q.duck)],
        ];
        const ms = { bqemu: [] as number[], lowered: [] as number[], duck: [] as number[], own: [] as number[] };
        const cpu = { bqemu: [] as number[], lowered: [] as number[], duck: [] as number[] };
        for (let i = 0; i < o.warmup + o.iters; i++) {
          for (const [k, f] of sides) {
            const c0 = process.cpuUsage();
            const t0 = performance.now();
            await f();
            const c = process.cpuUsage(c0);
            if (i >= o.warmup) ms[k].push(performance.now() - t0);
            if (i >= o.warmup && k !== 'own') cpu[k].push((c.user + c.system) / 1000);
          }
          // The client in its own plain-node process takes its turn too (timed there).
          if (client) {
            const t = await client.query(q.bq);
            if (i >= o.warmup) ms.own.push(t);
          }
        }
        r.bqemu = stats(ms.bqemu);
        r.lowered = stats(ms.lowered);
        r.duck = stats(ms.duck);
        r.cpu = { bqemu: stats(cpu.bqemu).p50, lowered: stats(cpu.lowered).p50, duck: stats(cpu.duck).p50 };
        if (client) r.ownClient = stats(ms.own);
      }
    } catch (e) {
      r.mismatch = `failed: ${(e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 300)}`;
    }
    o.log?.(`  ${q.name}: ${r.mismatch ? `MISMATCH ${r.mismatch}` : `${r.rows} rows equal`}${r.bqemu ? ` · bqemu ${r.bqemu.p50.toFixed(1)} ms${r.ownClient ? ` (own-process client ${r.ownClient.p50.toFixed(1)} ms)` : ''}, lowered ${r.lowered?.p50.toFixed(1)} ms, duckdb ${r.duck?.p50.toFixed(1)} ms` : ''}`);
    out.push(r);
  }
  return out;
}

const f = (x: number | undefined) => (x === undefined ? '' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

/**
 * The ratio table: per query bqemu p50, the lowered SQL's p50 on DuckDB, raw DuckDB's p50, bqemu ÷
 * raw, and whether bqemu is within 1.3 × raw + 3 ms (the issue's target).
 */
export function tpchTable(results: TpchQueryResult[]): string {
  const own = results.some((r) => r.ownClient);
  const within = (b: number | undefined, d: number | undefined) => (b !== undefined && d !== undefined ? (b <= 1.3 * d + 3 ? 'yes' : '**no**') : '');
  const cpu = results.some((r) => r.cpu);
  const head = `| query | rows | answers | bqemu p50 (ms) | lowered SQL on DuckDB p50 | raw DuckDB p50 | bqemu ÷ raw | lowered ÷ raw | ≤ 1.3 × raw + 3 ms |${own ? ' bqemu, own-process client p50 | its ÷ raw | ≤ 1.3 × raw + 3 ms |' : ''}${cpu ? ' CPU p50 ms: bqemu + client / lowered / raw | lowered ÷ raw (CPU) |' : ''}`;
  const lines = [head, `|:--|--:|:--|--:|--:|--:|--:|--:|:--|${own ? '--:|--:|:--|' : ''}${cpu ? '--:|--:|' : ''}`];
  for (const r of results) {
    const b = r.bqemu?.p50;
    const l = r.lowered?.p50;
    const d = r.duck?.p50;
    const o = r.ownClient?.p50;
    const ownCells = own ? ` ${f(o)} | ${o && d ? (o / d).toFixed(2) + '×' : ''} | ${within(o, d)} |` : '';
    const c = r.cpu;
    const cpuCells = cpu ? (c ? ` ${f(c.bqemu)} / ${f(c.lowered)} / ${f(c.duck)} | ${c.duck > 0 ? (c.lowered / c.duck).toFixed(2) + '×' : ''} |` : ' | |') : '';
    lines.push(`| ${r.name} | ${r.rows} | ${r.mismatch ? `**${r.mismatch.replace(/\|/g, '/')}**` : 'equal'} | ${f(b)} | ${f(l)} | ${f(d)} | ${b && d ? (b / d).toFixed(2) + '×' : ''} | ${l && d ? (l / d).toFixed(2) + '×' : ''} | ${within(b, d)} |${ownCells}${cpuCells}`);
  }
  const sum = (k: 'bqemu' | 'lowered' | 'duck' | 'ownClient') => results.reduce((s, r) => s + (r[k]?.p50 ?? 0), 0);
  const ownTotal = own ? ` ${f(sum('ownClient'))} | ${(sum('ownClient') / sum('duck')).toFixed(2)}× | |` : '';
  const cs = (k: 'bqemu' | 'lowered' | 'duck') => results.reduce((s, r) => s + (r.cpu?.[k] ?? 0), 0);
  const cpuTotal = cpu ? ` ${f(cs('bqemu'))} / ${f(cs('lowered'))} / ${f(cs('duck'))} | ${(cs('lowered') / cs('duck')).toFixed(2)}× |` : '';
  if (results.some((r) => r.bqemu)) lines.push(`| total | | | ${f(sum('bqemu'))} | ${f(sum('lowered'))} | ${f(sum('duck'))} | ${(sum('bqemu') / sum('duck')).toFixed(2)}× | ${(sum('lowered') / sum('duck')).toFixed(2)}× | |${ownTotal}${cpuTotal}`);
  return lines.join('\n');
}
