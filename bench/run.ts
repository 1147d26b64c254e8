/**
 * `npm run bench [-- options]`: times each case through the emulator (in process, driven by
 * `@google-cloud/bigquery`; plain query cases also from a client in its own plain-node process,
 * bench/client-process.ts) and on raw DuckDB, then cold start and RSS of a spawned emulator;
 * prints the table and writes `bench/results/<YYYY-MM-DD>.md`. Plain timing, no assertions.
 *
 * Options:
 *   --peer URL          also run every case against another endpoint (side-by-side column)
 *   --peer-project ID   project id on the peer (default bench-project)
 *   --only a,b          only these cases (names from cases.ts; `storage` = the Storage Read cases, storage-read.ts;
 *                       `write` = the Storage Write cases, storage-write.ts)
 *   --write-rows N      rows of the Storage Write cases (default 1000000)
 *   --storage-rows N    rows of the Storage Read table (default 10000000)
 *   --storage-iters N   timed reads per Storage Read case (default 3, after one warm-up)
 *   --no-process        skip cold start and RSS
 *   --rss-queries N     small queries for the RSS run (default 10000; samples at 100, 1000, 2500, 5000 and N)
 *   --no-write          print only, do not write bench/results/
 *   --tpch SF[,SF]      run the TPC-H-shaped suite (bench/tpch.ts) at these scale factors, writing
 *                       `bench/results/<YYYY-MM-DD>-tpch.md`; `--only tpch` runs nothing else
 *   --tpch-iters N      timed runs per TPC-H query and side (default 5, after 1 warm-up)
 *
 * The Storage Read cases run last, on an emulator of their own, and write
 * `bench/results/<YYYY-MM-DD>-storage.md`; then the Storage Write cases, writing
 * `bench/results/<YYYY-MM-DD>-storage-write.md`.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../src/server/server.js';
import { CASES, type Case, type Op, type OpResult } from './cases.js';
import { ownProcessClient } from './client-process.js';
import { DATASETS, dataSelect } from './data.js';
import { RawDuck } from './duckdb.js';
import { ensureFreshBuild, rssRun, spawnEmulator, type Spawned } from './process.js';
import { checkLines, noteLines, resultsTable, processLines, stats, verdictLines, writeResults, type CaseResult, type RunResult, type Side } from './report.js';
import { Target, errText } from './target.js';
import { ReplayServer } from './replay.js';
import { runStorageBench } from './storage-read.js';
import { runStorageWriteBench } from './storage-write.js';
import { runTpchBench } from './tpch-report.js';
import fs from 'node:fs';

/**
 * The client floor of a case (see replay.ts): its operation recorded once through the replay
 * server, then timed against the recording. Capped at 30 timed runs after up to 5 warm-up runs.
 */
async function floorOf(c: Case, replay: ReplayServer, me: Target): Promise<ReturnType<typeof stats>> {
  const rt = new Target('replay', replay.url, me.projectId, me.dataset);
  replay.record();
  const op = await c.target(rt);
  replay.record();
  await op();
  const runs = Math.min(c.iters, 30);
  const warm = Math.min(c.warmup, 5);
  const ms: number[] = [];
  for (let i = 0; i < warm + runs; i++) {
    replay.replay();
    const t0 = performance.now();
    await op();
    if (i >= warm) ms.push(performance.now() - t0);
  }
  return stats(ms);
}

interface Args {
  peer?: string;
  peerProject: string;
  only?: string[];
  process: boolean;
  rssQueries: number;
  write: boolean;
  storageRows: number;
  storageIters: number;
  writeRows: number;
  tpch: number[];
  tpchIters: number;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { peerProject: 'bench-project', process: true, rssQueries: 10_000, write: true, storageRows: 10_000_000, storageIters: 3, writeRows: 1_000_000, tpch: [], tpchIters: 5 };
  for (let i = 0; i < argv.length; i++) {
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${argv[i - 1]} needs a value`);
      return x;
    };
    switch (argv[i]) {
      case '--peer': a.peer = v().replace(/\/+$/, ''); break;
      case '--peer-project': a.peerProject = v(); break;
      case '--only': a.only = v().split(','); break;
      case '--no-process': a.process = false; break;
      case '--rss-queries': a.rssQueries = Number(v()); break;
      case '--no-write': a.write = false; break;
      case '--storage-rows': a.storageRows = Number(v()); break;
      case '--storage-iters': a.storageIters = Number(v()); break;
      case '--write-rows': a.writeRows = Number(v()); break;
      case '--tpch': a.tpch = v().split(',').map(Number); break;
      case '--tpch-iters': a.tpchIters = Number(v()); break;
      default: throw new Error(`unknown option ${argv[i]} (see bench/run.ts)`);
    }
  }
  return a;
}

const log = (s: string) => process.stderr.write(s + '\n');

/** Runs `warmup` untimed then `iters` timed operations; returns the ms and the first result. */
async function time(op: Op, iters: number, warmup: number): Promise<{ ms: number[]; first: OpResult }> {
  let first: OpResult | undefined;
  for (let i = 0; i < warmup; i++) first ??= await op();
  const ms: number[] = [];
  for (let i = 0; i < iters; i++) {
    const t0 = performance.now();
    const r = await op();
    ms.push(performance.now() - t0);
    first ??= r;
  }
  return { ms, first: first! };
}

/** Times a case on one side; a failure becomes `{error}`. */
async function side(c: Case, prepare: () => Promise<Op>, missing: Map<string, string>): Promise<{ side: Side; first?: OpResult }> {
  const gone = c.needs.find((n) => missing.has(n));
  if (gone) return { side: { error: `data set ${gone} could not be created: ${missing.get(gone)}` } };
  try {
    const r = await time(await prepare(), c.iters, c.warmup);
    return { side: { stats: stats(r.ms) }, first: r.first };
  } catch (e) {
    return { side: { error: errText(e) } };
  }
}

/** A value as compared between sides: numbers (and bigints) to 12 significant digits. */
function norm(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'bigint') return String(Number(Number(v).toPrecision(12)));
  return v === null || v === undefined ? 'NULL' : String(v);
}

/** A note when two sides' results differ (row count, or the first differing row). */
function compare(who: string, a: OpResult | undefined, b: OpResult | undefined): string | undefined {
  if (!a || !b) return undefined;
  if (a.count !== b.count) return `row count differs: ${who} ${a.count}, duckdb ${b.count}`;
  if (!a.values || !b.values) return undefined;
  for (let i = 0; i < a.values.length; i++) {
    const x = a.values[i].map(norm).join(', ');
    const y = (b.values[i] ?? []).map(norm).join(', ');
    if (x !== y) return `result differs at row ${i}: ${who} (${x}), duckdb (${y})`;
  }
  return undefined;
}

async function runCases(args: Args, cases: Case[], setupLog: string[], dataModes: string[]): Promise<{ results: CaseResult[]; duckVersion: string }> {
  const slog = (s: string) => (setupLog.push(s.trim()), log(s));
  const emu = await startEmulator({ port: 0, projectId: 'bench-project' });
  const duck = await RawDuck.create();
  const duckVersion = await duck.version();
  const me = new Target('bqemu', emu.url, emu.projectId, 'bench');
  const replay = new ReplayServer(emu.url);
  await replay.start();
  const peer = args.peer ? new Target('peer', args.peer, args.peerProject, `bqemu_bench_${Date.now()}`) : undefined;
  const results: CaseResult[] = [];
  try {
    log('setting up data sets…');
    await me.setup(slog);
    dataModes.push(`bqemu built its tables with ${me.mode === 'spec' ? 'UNNEST(GENERATE_ARRAY(…)) and MOD' : 'cross joins of literal arrays (GENERATE_ARRAY/MOD unavailable); raw DuckDB uses the same cross joins'}`);
    for (const d of DATASETS) await duck.run(`CREATE TABLE ${d.name} AS ${dataSelect(d, me.mode, 'duck')}`);
    if (peer) {
      try {
        await peer.setup(slog);
        dataModes.push(`peer built its tables with ${peer.mode === 'spec' ? 'GENERATE_ARRAY and MOD' : 'literal-array cross joins'}`);
      } catch (e) {
        slog(`  peer: setup failed: ${errText(e)}`);
        for (const d of DATASETS) peer.missing.set(d.name, 'peer setup failed');
      }
    }
    for (const c of cases) {
      log(`${c.name}: ${c.iters} iterations after ${c.warmup} warm-up…`);
      const e = await side(c, () => c.target(me), me.missing);
      const d = await side(c, () => c.duck(duck, me.mode), new Map());
      let clientFloor: CaseResult['clientFloor'];
      if ('stats' in e.side) {
        try {
          clientFloor = await floorOf(c, replay, me);
        } catch (err) {
          log(`  client floor not measured: ${errText(err)}`);
        }
      }
      let ownClient: CaseResult['ownClient'];
      if ('stats' in e.side && c.sql) {
        try {
          ownClient = await ownProcessClient(emu.url, replay, me.projectId, c.sql(me), c.iters, c.warmup);
        } catch (err) {
          log(`  client in its own process not measured: ${errText(err)}`);
        }
      }
      const p = peer ? await side(c, () => c.target(peer), peer.missing) : undefined;
      const notes: string[] = [];
      if (c.note) notes.push(c.note);
      for (const n of [compare('bqemu', e.first, d.first), compare('peer', p?.first, d.first)]) if (n) notes.push(n);
      if (p && 'error' in p.side) notes.push('skipped on the peer (failed there)');
      results.push({ name: c.name, iters: c.iters, warmup: c.warmup, emu: e.side, duck: d.side, peer: p?.side, clientFloor, ownClient, rowsPerOp: c.rowsPerOp, maxP50Ms: c.maxP50Ms, minRowsPerSec: c.minRowsPerSec, heavy: c.heavy, notes });
      const show = (s: Side) => ('stats' in s ? `p50 ${s.stats.p50.toFixed(1)} ms` : `FAILED: ${s.error}`);
      log(`  bqemu ${show(e.side)}${ownClient ? ` (client in its own process p50 ${ownClient.bqemu.p50.toFixed(1)} ms, its floor ${ownClient.floor.p50.toFixed(1)} ms)` : ''} | duckdb ${show(d.side)}${p ? ` | peer ${show(p.side)}` : ''}`);
    }
  } finally {
    if (peer) await peer.teardown();
    await replay.close();
    await emu.close();
    duck.close();
  }
  return { results, duckVersion };
}

/**
 * Spawns timed for the cold start's median: single spawns on this 2-core host range over ~400 ms
 * (430–849 ms in bench/results/2026-11-27-memory-and-start.md); a median of 3 was 595, 643 and
 * 697 ms in bench/results/2026-11-27-11.md to -13.md.
 */
const COLD_START_SPAWNS = 7;

async function runProcess(args: Args, r: RunResult): Promise<void> {
  let last: Spawned | undefined;
  try {
    if (ensureFreshBuild()) log('src/ was newer than dist/: built it first (npm run build)');
    log(`cold start: spawning the emulator ${COLD_START_SPAWNS} times…`);
    r.coldStartMs = [];
    for (let i = 0; i < COLD_START_SPAWNS; i++) {
      if (last) await last.stop();
      last = await spawnEmulator();
      r.coldStartMs.push(last.coldStartMs);
      log(`  ${last.coldStartMs.toFixed(0)} ms`);
    }
  } catch (e) {
    r.coldStartError = errText(e);
  }
  try {
    if (!last) last = await spawnEmulator();
    log(`RSS: ${args.rssQueries} small queries on the spawned emulator…`);
    const marks = [...new Set([100, 1000, 2500, 5000, args.rssQueries])].filter((m) => m <= args.rssQueries);
    r.rss = await rssRun(last, marks, (n) => log(`  ${n} queries`));
  } catch (e) {
    r.rssError = errText(e);
  } finally {
    await last?.stop();
  }
}

/** The Storage Read cases (storage-read.ts): prints their report and writes `<date>-storage.md`. */
async function runStorage(args: Args): Promise<void> {
  const load0 = os.loadavg()[0];
  const t0 = performance.now();
  const table = await runStorageBench({ rows: args.storageRows, iters: args.storageIters, log });
  const date = new Date().toISOString().slice(0, 10);
  const report = `# Storage Read API bench ${date}\n\n\`npm run bench -- ${process.argv.slice(2).join(' ')}\` on ${os.cpus().length} cores, load average ${load0.toFixed(2)} → ${os.loadavg()[0].toFixed(2)}, ${((performance.now() - t0) / 1000).toFixed(0)} s.\n\n${table}\n`;
  process.stdout.write(`\n${report}\n`);
  if (args.write) {
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
    let file = path.join(dir, `${date}-storage.md`);
    for (let n = 2; fs.existsSync(file); n++) file = path.join(dir, `${date}-storage-${n}.md`);
    fs.writeFileSync(file, report);
    process.stdout.write(`results written to ${path.relative(process.cwd(), file)}\n`);
  }
}

/** The Storage Write cases (storage-write.ts): prints their report and writes `<date>-storage-write.md`. */
async function runStorageWrite(args: Args): Promise<void> {
  const load0 = os.loadavg()[0];
  const t0 = performance.now();
  const table = await runStorageWriteBench({ rows: args.writeRows, log });
  const date = new Date().toISOString().slice(0, 10);
  const report = `# Storage Write API bench ${date}\n\n\`npm run bench -- ${process.argv.slice(2).join(' ')}\` on ${os.cpus().length} cores, load average ${load0.toFixed(2)} → ${os.loadavg()[0].toFixed(2)}, ${((performance.now() - t0) / 1000).toFixed(0)} s.\n\n${table}\n`;
  process.stdout.write(`\n${report}\n`);
  if (args.write) {
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
    let file = path.join(dir, `${date}-storage-write.md`);
    for (let n = 2; fs.existsSync(file); n++) file = path.join(dir, `${date}-storage-write-${n}.md`);
    fs.writeFileSync(file, report);
    process.stdout.write(`results written to ${path.relative(process.cwd(), file)}\n`);
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const args = parseArgs(argv);
  const storage = !args.only || args.only.includes('storage');
  const writeApi = !args.only || args.only.includes('write');
  if (args.only) args.only = args.only.filter((n) => n !== 'storage' && n !== 'write' && n !== 'tpch');
  if (args.only && !args.only.length) {
    if (storage) await runStorage(args);
    if (writeApi) await runStorageWrite(args);
    if (args.tpch.length) await runTpchBench(args, log);
    return;
  }
  const t0 = performance.now();
  const load0 = os.loadavg()[0];
  const cases = args.only ? CASES.filter((c) => args.only!.includes(c.name)) : CASES;
  if (args.only && cases.length !== args.only.length) throw new Error(`unknown case in --only; cases: ${CASES.map((c) => c.name).join(', ')}`);
  const setupLog: string[] = [];
  const dataModes: string[] = [];
  const { results, duckVersion } = await runCases(args, cases, setupLog, dataModes);
  const r: RunResult = {
    date: new Date().toISOString().slice(0, 10),
    cases: results,
    peerUrl: args.peer,
    dataModes,
    setupLog,
    duckVersion,
    totalSeconds: 0,
    args: argv.join(' '),
    load: [load0, 0],
  };
  if (args.process) await runProcess(args, r);
  else r.coldStartError = r.rssError = 'skipped (--no-process)';
  r.totalSeconds = (performance.now() - t0) / 1000;
  r.load[1] = os.loadavg()[0];
  process.stdout.write(`\nload average ${r.load[0].toFixed(2)} → ${r.load[1].toFixed(2)} on ${os.cpus().length} cores\n\n${resultsTable(r)}\n\nVerdicts (p50 against 1.3 × raw DuckDB + 3 ms):\n${verdictLines(r).join('\n')}\n\n${processLines(r).join('\n')}\n\nTargets:\n${checkLines(r).join('\n')}\n\nNotes:\n${noteLines(r).join('\n') || '- none'}\n\n`);
  if (args.write) {
    const file = writeResults(path.join(path.dirname(fileURLToPath(import.meta.url)), 'results'), r);
    process.stdout.write(`results written to ${path.relative(process.cwd(), file)}\n`);
  }
  if (storage) await runStorage(args);
  if (writeApi) await runStorageWrite(args);
  if (args.tpch.length) await runTpchBench(args, log);
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`bench failed: ${(e as Error).stack ?? e}\n`);
    process.exit(1);
  },
);
