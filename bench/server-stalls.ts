/**
 * `tsx bench/server-stalls.ts [--root DIR] [--trace] [--probe-in-main] [--once] [--no-write]`: does the
 * server stay responsive while it moves a lot of data? A second client (a worker thread of its
 * own) issues `SELECT 1` (jobs.query, raw HTTP) every 10 ms against a spawned emulator while it
 *
 * 1. loads 1M rows × 3 columns from Parquet (a load job from the Cloud Storage folder),
 * 2. answers a 1M-row query and pages through all of it with getQueryResults (raw HTTP),
 * 3. extracts the 1M-row table to CSV in the Cloud Storage folder,
 *
 * each working phase repeating its work until it has lasted 2 s (`--once`: the work once, as before
 * 2026-11-28), and prints, per phase, the probe's p50/p99/max latency (target: p99 ≤ 20 ms,
 * max ≤ 60 ms) next to an idle baseline; with `--trace`, also inside the emulator and the slowest
 * probes' phases there (bench/probe-trace-preload.cjs). Plain timing, no assertions.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DuckDBInstance } from '@duckdb/node-api';
import { cpuMsOfTree, rest, spawnEmulator, waitJobDone, type Spawned } from './process.js';

const ROWS = 1_000_000;
const BUCKET = 'bench-stalls';
const PROBE_EVERY_MS = 10;
/** Default StallOptions.minPhaseMs: ≥ ~200 probes per phase on a quiet host (`--once`: the work once). */
const MIN_PHASE_MS = 2000;

interface ProbeStats {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN);

/**
 * The probe loop, run in a worker thread of its own: the bench's main thread parses the 64 MB pages
 * it reads (`JSON.parse`, 0.1–0.3 s each), and a probe timed on that thread measured those parses —
 * the paging phase's p99 of 220–260 ms in 2026-11-26-stalls-2.md (2026-11-26-stalls-3.md). Each
 * probe carries `x-bqemu-probe: <n>` (bench/probe-trace-preload.cjs times it inside the emulator).
 */
const PROBE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, every, first } = workerData;
let running = true;
const out = [];
parentPort.on('message', () => (running = false));
const send = (n) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-bqemu-probe': String(n) }, body: JSON.stringify({ query: 'SELECT 1', useLegacySql: false }) });
(async () => {
  // Untimed: the worker's first fetch loads the HTTP client (~30–100 ms).
  await (await send(-1)).text();
  parentPort.postMessage('ready');
  for (let n = first; running; n++) {
    const at = performance.timeOrigin + performance.now();
    const t0 = performance.now();
    await (await send(n)).text();
    const ms = performance.now() - t0;
    out.push({ n, at, ms });
    await new Promise((res) => setTimeout(res, Math.max(0, every - ms)));
  }
  parentPort.postMessage(out);
})();
`;

/** One probe: its number, epoch ms sent, latency ms. */
interface Probe {
  n: number;
  at: number;
  ms: number;
}

let probeCount = 0;

/**
 * Probes `SELECT 1` every PROBE_EVERY_MS until stopped; returns the probes. `inMain`: on this
 * thread (the measurement of 2026-11-26-stalls-2.md, kept for comparison) instead of a worker.
 */
async function startProbe(emu: Spawned, inMain: boolean): Promise<{ stop(): Promise<Probe[]> }> {
  const url = `${emu.url}/bigquery/v2/projects/${emu.projectId}/queries`;
  const first = probeCount;
  probeCount += 1_000_000;
  if (!inMain) {
    const w = new Worker(PROBE_WORKER, { eval: true, workerData: { url, every: PROBE_EVERY_MS, first } });
    const ready = new Promise<void>((resolve, reject) => {
      w.once('message', () => resolve());
      w.once('error', reject);
    });
    await ready;
    const done = new Promise<Probe[]>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    });
    return {
      async stop() {
        w.postMessage('stop');
        const out = await done;
        await w.terminate();
        return out;
      },
    };
  }
  const out: Probe[] = [];
  let running = true;
  const loop = (async () => {
    for (let n = first; running; n++) {
      const at = performance.timeOrigin + performance.now();
      const t0 = performance.now();
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-bqemu-probe': String(n) },
        body: JSON.stringify({ query: 'SELECT 1', useLegacySql: false }),
      });
      await r.text();
      const took = performance.now() - t0;
      out.push({ n, at, ms: took });
      await new Promise((res) => setTimeout(res, Math.max(0, PROBE_EVERY_MS - took)));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return out;
    },
  };
}

/** A probe as the emulator saw it (bench/probe-trace-preload.cjs). */
interface Traced {
  id: number;
  at: number;
  finish: number;
  lagMax: number;
  marks: [string, number, number][];
  busy?: [number, string][];
}

/** Options of a run: where the probe runs, and whether the emulator traces it. */
export interface StallOptions {
  /** Probe on the bench's main thread (the measurement before 2026-11-26-stalls-3.md). */
  probeInMain?: boolean;
  /** A file bench/probe-trace-preload.cjs writes the emulator's view of each probe to. */
  traceFile?: string;
  /**
   * Each working phase repeats its work until it has lasted this long (ms; 0: the work once). A
   * phase of one 1M-row extract lasts ~0.5 s on a quiet host: ~50 probes, whose nearest-rank p99
   * is their maximum.
   */
  minPhaseMs?: number;
}

interface PhaseStats extends ProbeStats {
  ms: number;
  /** Times the work ran (StallOptions.minPhaseMs). */
  runs: number;
  /** CPU ms the emulator (with its children) used during the work, and of that its main thread. */
  cpuMs: number;
  mainCpuMs: number;
  /** Inside the emulator (arrival → answer handed to the socket), when traced. */
  server?: ProbeStats;
  /** The slowest probes, with the emulator's view of each. */
  slowest: string[];
}

const stats = (ms: number[]): ProbeStats => {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 0.5), p99: pct(s, 0.99), max: s[s.length - 1] ?? NaN };
};

/** The traced probes numbered from `first` (the file's lines, by probe number). */
function traced(file: string | undefined, probes: Probe[]): Map<number, Traced> {
  const out = new Map<number, Traced>();
  if (!file || !fs.existsSync(file)) return out;
  const ids = new Set(probes.map((p) => p.n));
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const t = JSON.parse(line) as Traced;
    if (ids.has(t.id)) out.set(t.id, t);
  }
  return out;
}

/** One slow probe: client latency, then the emulator's view (arrival delay, phases, busy DuckDB work). */
function describe(p: Probe, t: Traced | undefined): string {
  if (!t) return `probe ${p.n}: ${p.ms.toFixed(1)} ms client, not traced`;
  const marks = t.marks.filter((m) => m[0] !== 'duckdb:fetchChunk' || m[2] - m[1] > 1).map(([w, a, b]) => `${w} ${a}–${b}`).join(', ');
  const busy = t.busy?.length ? `; other DuckDB work in flight: ${t.busy.map(([ms, sql]) => `${ms} ms \`${sql.replace(/\s+/g, ' ')}\``).join(', ')}` : '';
  return `probe ${p.n}: ${p.ms.toFixed(1)} ms client; in the emulator ${t.finish} ms (arrived ${(t.at - p.at).toFixed(1)} ms after sending; event-loop lag max ${t.lagMax} ms): ${marks}${busy}`;
}

/**
 * CPU ms (utime + stime, clock ticks of 10 ms) of a process's main thread (/proc/<pid>/task/<pid>/stat):
 * the thread that answers every REST request. With the process's whole CPU (cpuMsOfTree), a
 * measure of a phase's work that barely depends on what else the machine runs.
 */
function mainThreadCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Runs `work` while probing; returns the probe's statistics and the work's wall time. */
async function phase(emu: Spawned, opts: StallOptions, work: (run: number) => Promise<void>, repeat = true): Promise<PhaseStats> {
  const probe = await startProbe(emu, opts.probeInMain === true);
  const pid = emu.child.pid!;
  const cpu0 = cpuMsOfTree(pid);
  const main0 = mainThreadCpuMs(pid);
  const t0 = performance.now();
  let runs = 0;
  do await work(runs++);
  while (repeat && performance.now() - t0 < (opts.minPhaseMs ?? 0));
  const ms = performance.now() - t0;
  const cpuMs = cpuMsOfTree(pid) - cpu0;
  const mainCpuMs = mainThreadCpuMs(pid) - main0;
  const probes = await probe.stop();
  // The emulator appends a probe's line when its answer is handed over: give the last one time.
  await new Promise((r) => setTimeout(r, 50));
  const tr = traced(opts.traceFile, probes);
  const slow = [...probes].sort((a, b) => b.ms - a.ms).slice(0, 3);
  return {
    ...stats(probes.map((p) => p.ms)),
    ms,
    runs,
    cpuMs,
    mainCpuMs,
    ...(tr.size ? { server: stats([...tr.values()].map((t) => t.finish)) } : {}),
    slowest: slow.map((p) => describe(p, tr.get(p.n))),
  };
}

/** Runs the phases; returns the markdown report. */
export async function runStallBench(log: (s: string) => void, root?: string, opts: StallOptions = {}): Promise<string> {
  const gcs = path.join(os.tmpdir(), 'bqemu-gcs', BUCKET);
  fs.mkdirSync(gcs, { recursive: true });
  const parquet = path.join(gcs, 't1m.parquet');
  const duck = await DuckDBInstance.create(':memory:');
  const c = await duck.connect();
  await c.run(`COPY (SELECT range AS id, range / 7 AS f, concat('v', range) AS s FROM range(${ROWS})) TO '${parquet}' (FORMAT parquet)`);
  c.closeSync();
  if (opts.traceFile) {
    fs.rmSync(opts.traceFile, { force: true });
    process.env.BQEMU_PROBE_TRACE_FILE = opts.traceFile;
    process.env.BQEMU_NODE_FLAGS = `${process.env.BQEMU_NODE_FLAGS ?? ''} --require ${path.join(path.dirname(new URL(import.meta.url).pathname), 'probe-trace-preload.cjs')}`;
  }
  const emu = await spawnEmulator(30_000, root);
  const rows: string[] = [];
  const details: string[] = [];
  try {
    await rest(emu, 'POST', '/datasets', { datasetReference: { projectId: emu.projectId, datasetId: 'st' } });
    const idle = await phase(emu, opts, () => new Promise((r) => setTimeout(r, 2000)), false);
    // The first load makes st.t, which the next phases read; a repeat loads a table of its own.
    const load = await phase(emu, opts, async (run) => {
      const j = await rest(emu, 'POST', '/jobs', {
        configuration: { load: { sourceUris: [`gs://${BUCKET}/t1m.parquet`], sourceFormat: 'PARQUET', destinationTable: { projectId: emu.projectId, datasetId: 'st', tableId: run ? `t${run}` : 't' } } },
      });
      await waitJobDone(emu, j.jobReference.jobId, 20);
    });
    const result = await phase(emu, opts, async () => {
      const j = await rest(emu, 'POST', '/jobs', { configuration: { query: { query: 'SELECT id, f, s FROM st.t', useLegacySql: false } } });
      let token: string | undefined;
      let n = 0;
      for (;;) {
        const page = await rest(emu, 'GET', `/queries/${j.jobReference.jobId}?maxResults=100000&timeoutMs=60000${token ? `&pageToken=${token}` : ''}`);
        if (!page.jobComplete) continue;
        n += page.rows?.length ?? 0;
        token = page.pageToken;
        if (!token) break;
      }
      if (n !== ROWS) throw new Error(`paged ${n} rows`);
    });
    const extract = await phase(emu, opts, async (run) => {
      const j = await rest(emu, 'POST', '/jobs', {
        configuration: { extract: { sourceTable: { projectId: emu.projectId, datasetId: 'st', tableId: 't' }, destinationUris: [`gs://${BUCKET}/out${run}/t-*.csv`], destinationFormat: 'CSV' } },
      });
      await waitJobDone(emu, j.jobReference.jobId, 20);
    });
    const srv = (s: PhaseStats) => (s.server ? ` | ${s.server.p50.toFixed(1)} / ${s.server.p99.toFixed(1)} / ${s.server.max.toFixed(1)}` : '');
    const line = (name: string, s: PhaseStats) => {
      details.push(`- ${name}:`, ...s.slowest.map((d) => `  - ${d}`));
      return `| ${name} | ${s.runs} | ${s.ms.toFixed(0)} | ${s.cpuMs} / ${s.mainCpuMs} | ${s.n} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.max.toFixed(1)}${srv(s)} |`;
    };
    rows.push(line('idle (2 s)', idle), line('load job: 1M rows × 3 columns from Parquet', load), line('query + page 1M rows × 3 columns (getQueryResults, 100k per page)', result), line('extract 1M rows to CSV', extract));
    for (const r of [...rows, ...details]) log(r);
  } finally {
    await emu.stop();
    fs.rmSync(gcs, { recursive: true, force: true });
  }
  return [
    `# Server stalls ${new Date().toISOString().slice(0, 10)}`,
    '',
    `A second client (${opts.probeInMain ? "on the bench's main thread" : 'a worker thread of its own'}) issues \`SELECT 1\` (jobs.query, raw HTTP) every ${PROBE_EVERY_MS} ms while a spawned emulator works; ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} at the end.`,
    'Target: p99 ≤ 20 ms, max ≤ 60 ms.',
    opts.minPhaseMs ? `Each working phase repeats its work until it has lasted ${opts.minPhaseMs} ms (runs: how many times), so that its p99 is not its maximum.` : 'Each working phase runs its work once.',
    '',
    `| phase | runs | work ms | emulator CPU ms (all / main thread) | probes | p50 ms | p99 ms | max ms${opts.traceFile ? ' | in the emulator p50 / p99 / max ms' : ''} |`,
    `|---|---|---|---|---|---|---|---|${opts.traceFile ? '---|' : ''}`,
    ...rows,
    '',
    'Slowest probes per phase:',
    '',
    ...details,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `--root DIR`: another checkout's emulator (a before/after pair); `--no-write`: print only;
  // `--probe-in-main`: the probe on this thread (the earlier measurement); `--trace`: the emulator
  // times each probe (bench/probe-trace-preload.cjs).
  const at = process.argv.indexOf('--root');
  const opts: StallOptions = {
    probeInMain: process.argv.includes('--probe-in-main'),
    ...(process.argv.includes('--trace') ? { traceFile: path.join(os.tmpdir(), `bqemu-probe-trace-${process.pid}.jsonl`) } : {}),
    minPhaseMs: process.argv.includes('--once') ? 0 : MIN_PHASE_MS,
  };
  const report = await runStallBench((s) => console.log(s), at >= 0 ? process.argv[at + 1] : undefined, opts);
  if (process.argv.includes('--no-write')) process.exit(0);
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
  const date = new Date().toISOString().slice(0, 10);
  // A results file is never overwritten: a later run of the day gets the next free number.
  let file = path.join(dir, `${date}-stalls.md`);
  for (let n = 2; fs.existsSync(file); n++) file = path.join(dir, `${date}-stalls-${n}.md`);
  fs.writeFileSync(file, report);
  console.log(`written ${file}`);
}
