/**
 * `tsx bench/result-paging.ts [--root DIR] [--reps N]`: the server-side cost of paging a 1M-row ×
 * 3-column result (INT64, FLOAT64, STRING) through getQueryResults with a raw HTTP client (not
 * `@google-cloud/bigquery`, whose own decoding would be the floor), and of the same query written
 * to a destination table. Prints, per repetition, the CPU ms the spawned emulator (its node process,
 * DuckDB's threads included, and its analyzer children; /proc) used and the wall ms. `--root`
 * spawns another checkout's emulator (a before/after pair in one session); `--no-destination`
 * skips the destination-table case. Plain timing, no
 * assertions; the machine may be loaded, so compare CPU, not wall. The main thread's CPU (the
 * event loop, /proc/<pid>/task/<pid>) is printed apart from the process's (DuckDB's threads);
 * `--loop-delay` adds the event loop's delay over each paging run (bench/loop-delay-preload.cjs);
 * `--threads` adds the CPU of each kind of thread (main, DuckDB's, libuv's pool) over each paging run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuMsOfTree, rest, ensureFreshBuild, spawnEmulator, waitJobDone, type Spawned } from './process.js';

/** CPU ms (utime + stime, clock ticks of 10 ms) of the emulator's main thread: its event loop. */
function mainThreadCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** CPU ms per thread (`main`, else `name#tid`, the name from /proc/<pid>/task/<tid>/comm) of the emulator. */
function cpuMsByThread(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const key = Number(tid) === pid ? 'main' : `${name}#${tid}`;
      out.set(key, (out.get(key) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** `after - before` per thread name, as `name ms` pairs (largest first, 0 ms left out). */
function threadDelta(before: Map<string, number>, after: Map<string, number>): string {
  return [...after]
    .map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const)
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

const ROWS = 1_000_000;

/** Pages a query job's result with raw HTTP (100k rows per page); returns the rows and bytes read. */
async function pageAll(emu: Spawned, jobId: string): Promise<{ rows: number; bytes: number }> {
  let token: string | undefined;
  let rows = 0;
  let bytes = 0;
  for (;;) {
    const r = await fetch(`${emu.url}/bigquery/v2/projects/${emu.projectId}/queries/${jobId}?maxResults=100000&timeoutMs=60000${token ? `&pageToken=${token}` : ''}`);
    const text = await r.text();
    bytes += text.length;
    const page = JSON.parse(text);
    if (r.status >= 400) throw new Error(text.slice(0, 300));
    if (!page.jobComplete) continue;
    rows += page.rows?.length ?? 0;
    token = page.pageToken;
    if (!token) return { rows, bytes };
  }
}

/**
 * With `--loop-delay`: the emulator's event-loop delay over each paging run (p50/p99/max ms), from
 * bench/loop-delay-preload.cjs; undefined otherwise.
 */
class LoopDelay {
  private readonly file = path.join(os.tmpdir(), `bqemu-loop-delay-${process.pid}.jsonl`);
  constructor(private readonly pid: () => number) {}

  /** The flags and environment that load the preload into the spawned emulator. */
  static setUp(): LoopDelay {
    const d = new LoopDelay(() => d.target);
    process.env.BQEMU_NODE_FLAGS = `${process.env.BQEMU_NODE_FLAGS ?? ''} --require ${path.join(path.dirname(new URL(import.meta.url).pathname), 'loop-delay-preload.cjs')}`;
    process.env.BQEMU_LOOP_DELAY_FILE = d.file;
    fs.rmSync(d.file, { force: true });
    return d;
  }

  target = 0;

  /** Starts a measured stretch (the preload starts over). */
  start(): void {
    process.kill(this.pid(), 'SIGUSR2');
  }

  /** The delays since {@link start}, as `p50/p99/max`. */
  async stop(): Promise<string> {
    const before = fs.existsSync(this.file) ? fs.readFileSync(this.file, 'utf8').trim().split('\n').length : 0;
    process.kill(this.pid(), 'SIGUSR2');
    for (let i = 0; i < 200; i++) {
      const lines = fs.existsSync(this.file) ? fs.readFileSync(this.file, 'utf8').trim().split('\n') : [];
      if (lines.length > before) {
        const d = JSON.parse(lines[lines.length - 1]!) as { p50: number; p99: number; max: number };
        return `${d.p50}/${d.p99}/${d.max}`;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    return 'n/a';
  }
}

/** Runs the measurement on one spawned emulator; returns the markdown lines. */
export async function runPagingBench(root: string | undefined, reps: number, log: (s: string) => void, destination = true, delay?: LoopDelay, threads = false): Promise<string[]> {
  const emu = await spawnEmulator(60_000, root);
  const pid = emu.child.pid!;
  if (delay) delay.target = pid;
  const lines: string[] = [];
  try {
    await rest(emu, 'POST', '/datasets', { datasetReference: { projectId: emu.projectId, datasetId: 'pg' } });
    await rest(emu, 'POST', '/queries', {
      query: `CREATE TABLE pg.t AS SELECT id, id / 7 AS f, CONCAT('v', CAST(id AS STRING)) AS s FROM UNNEST(GENERATE_ARRAY(1, ${ROWS})) AS id`,
      useLegacySql: false,
      timeoutMs: 120000,
    });
    for (let rep = 0; rep < reps; rep++) {
      const c0 = cpuMsOfTree(pid);
      const m0 = mainThreadCpuMs(pid);
      const th0 = threads ? cpuMsByThread(pid) : undefined;
      const t0 = performance.now();
      delay?.start();
      const j = await rest(emu, 'POST', '/jobs', { configuration: { query: { query: 'SELECT id, f, s FROM pg.t', useLegacySql: false, useQueryCache: false } } });
      const { rows, bytes } = await pageAll(emu, j.jobReference.jobId);
      if (rows !== ROWS) throw new Error(`paged ${rows} rows`);
      const loop = delay ? ` | ${await delay.stop()}` : '';
      const byThread = th0 ? ` | ${threadDelta(th0, cpuMsByThread(pid))}` : '';
      const line = `| page 1M rows × 3 columns | ${rep + 1} | ${cpuMsOfTree(pid) - c0} | ${mainThreadCpuMs(pid) - m0} | ${(performance.now() - t0).toFixed(0)} | ${(bytes / 1e6).toFixed(0)} MB${loop}${byThread} |`;
      lines.push(line);
      log(line);
    }
    for (let rep = 0; destination && rep < reps; rep++) {
      const c0 = cpuMsOfTree(pid);
      const m0 = mainThreadCpuMs(pid);
      const t0 = performance.now();
      const j = await rest(emu, 'POST', '/jobs', {
        configuration: {
          query: {
            query: 'SELECT id, f, s FROM pg.t',
            useLegacySql: false,
            useQueryCache: false,
            destinationTable: { projectId: emu.projectId, datasetId: 'pg', tableId: 'dest' },
            writeDisposition: 'WRITE_TRUNCATE',
          },
        },
      });
      await waitJobDone(emu, j.jobReference.jobId);
      const line = `| query 1M rows into a destination table (WRITE_TRUNCATE) | ${rep + 1} | ${cpuMsOfTree(pid) - c0} | ${mainThreadCpuMs(pid) - m0} | ${(performance.now() - t0).toFixed(0)} | |`;
      lines.push(line);
      log(line);
    }
  } finally {
    await emu.stop();
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const root = arg('--root');
  if (!root) ensureFreshBuild();
  const delay = process.argv.includes('--loop-delay') ? LoopDelay.setUp() : undefined;
  const threads = process.argv.includes('--threads');
  console.log(`| case | rep | server CPU ms (all threads) | main thread CPU ms | wall ms | bytes${delay ? ' | event-loop delay p50/p99/max ms' : ''}${threads ? ' | CPU ms per thread name' : ''} |\n|---|---|---|---|---|---|${delay ? '---|' : ''}${threads ? '---|' : ''}`);
  await runPagingBench(root, Number(arg('--reps') ?? 3), (s) => console.log(s), !process.argv.includes('--no-destination'), delay, threads);
}
