/**
 * Measurements on a spawned `node bin/bqemu.js serve`: cold start (spawn → first answered
 * `SELECT 1`) and resident memory (VmRSS from /proc, the emulator and its analyzer child) after
 * many small queries.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Target } from './target.js';
import { LAUNCHER_SOURCE } from '../src/analyzer/launcher.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Spawned {
  child: ChildProcess;
  url: string;
  projectId: string;
  /** ms from spawn to the first answered `SELECT 1`. */
  coldStartMs: number;
  /**
   * CPU ms (user + system, /proc) the emulator's node process and its descendants (the analyzer
   * launcher and children) had used when the first `SELECT 1` was answered: unlike the wall time,
   * this barely depends on what else the machine runs.
   */
  coldStartCpuMs: number;
  /** The Storage Read API's gRPC port. */
  grpcPort: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** POSTs jobs.query `SELECT 1`; true when it answers 200. */
async function selectOne(url: string, projectId: string): Promise<boolean> {
  try {
    const r = await fetch(`${url}/bigquery/v2/projects/${projectId}/queries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'SELECT 1', useLegacySql: false }),
      signal: AbortSignal.timeout(5000),
    });
    await r.arrayBuffer();
    return r.status === 200;
  } catch {
    return false;
  }
}

/**
 * Makes sure `bin/bqemu.js` will run the compiled build (dist/), as `npm start` does after
 * `npm install`: when src/ changed since the last build, builds first (otherwise the launcher
 * would compile TypeScript at start-up and cold start would measure tsx, not bqemu).
 * @returns whether a build ran.
 */
export function ensureFreshBuild(): boolean {
  const newest = (dir: string): number =>
    Math.max(0, ...fs.readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newest(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).mtimeMs)));
  let stamp = 0;
  try {
    stamp = fs.statSync(path.join(ROOT, 'dist', '.build-stamp')).mtimeMs;
  } catch {
    // no build yet
  }
  if (newest(path.join(ROOT, 'src')) <= stamp) return false;
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore' });
  return true;
}

/**
 * Spawns the emulator and polls `SELECT 1` (every 5 ms) until it answers. `root`: the checkout
 * whose bin/bqemu.js runs (default this one; another one gives a before/after pair).
 */
export async function spawnEmulator(timeoutMs = 30_000, root = ROOT): Promise<Spawned> {
  const port = await freePort();
  const grpcPort = await freePort();
  const projectId = 'bench-project';
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  // BQEMU_NODE_FLAGS="--cpu-prof …": extra V8/Node flags for an investigation (as the fuzz run's).
  const flags = (process.env.BQEMU_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...flags, path.join(root, 'bin/bqemu.js'), 'serve', '--port', String(port), '--grpc-port', String(grpcPort), '--project', projectId], {
    cwd: root,
    // BQEMU_EMULATOR_STDOUT=FILE keeps the emulator's stdout (e.g. `--trace-gc` lines in BQEMU_NODE_FLAGS).
    stdio: ['ignore', process.env.BQEMU_EMULATOR_STDOUT ? fs.openSync(process.env.BQEMU_EMULATOR_STDOUT, 'a') : 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  for (;;) {
    if (await selectOne(url, projectId)) break;
    if (child.exitCode !== null) throw new Error(`emulator exited with ${child.exitCode}: ${stderr.slice(0, 500)}`);
    if (performance.now() - t0 > timeoutMs) {
      await stop();
      throw new Error(`emulator did not answer SELECT 1 within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const coldStartMs = performance.now() - t0;
  return { child, url, projectId, coldStartMs, coldStartCpuMs: cpuMsOfTree(child.pid!), grpcPort, stop };
}

/** CPU ms (utime + stime of /proc/<pid>/stat, clock ticks of 10 ms) of a pid and its descendants. */
export function cpuMsOfTree(pid: number): number {
  const own = (p: number) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(f[11]) + Number(f[12])) * 10;
    } catch {
      return 0;
    }
  };
  let ms = own(pid);
  const stack = childrenOf(pid);
  while (stack.length) {
    const p = stack.pop()!;
    ms += own(p);
    stack.push(...childrenOf(p));
  }
  return ms;
}

/** VmRSS of a pid in MB (0 when it is gone). */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Direct children of a pid (scanning /proc/<pid>/stat's ppid). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(e));
    } catch {
      /* gone */
    }
  }
  return out;
}

export interface RssPoint {
  queries: number;
  /** The emulator's node process. */
  nodeMb: number;
  /** Its descendants (the ZetaSQL analyzer). */
  childrenMb: number;
}

/** The node process's RSS and the sum over its descendants. */
export function rssOf(pid: number): RssPoint {
  let childrenMb = 0;
  const stack = childrenOf(pid);
  while (stack.length) {
    const p = stack.pop()!;
    childrenMb += rssMb(p);
    stack.push(...childrenOf(p));
  }
  return { queries: 0, nodeMb: rssMb(pid), childrenMb };
}

/**
 * Runs `total` small queries (`SELECT <i> AS n, 'hello' AS s`, so the text varies) through the
 * client, sampling RSS after each count in `marks`. Returns the samples and the mean ms per query.
 */
export async function rssRun(s: Spawned, marks: number[], progress: (n: number) => void): Promise<{ points: RssPoint[]; msPerQuery: number; launcherMb?: number }> {
  const pid = s.child.pid!;
  const launcherMb = await launcherStarted(pid);
  const t = new Target('rss', s.url, s.projectId, 'unused');
  const points: RssPoint[] = [{ ...rssOf(pid), queries: 0 }];
  const total = Math.max(...marks);
  const t0 = performance.now();
  for (let i = 1; i <= total; i++) {
    await t.query(`SELECT ${i} AS n, 'hello' AS s`);
    if (marks.includes(i)) points.push({ ...rssOf(pid), queries: i });
    if (i % 1000 === 0) progress(i);
  }
  return { points, msPerQuery: (performance.now() - t0) / total, launcherMb };
}

/** True when process `p` is the analyzer launcher: `node -e LAUNCHER_SOURCE` (src/analyzer/launcher.ts). */
function isLauncher(p: number): boolean {
  try {
    const argv = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
    return argv[1] === '-e' && argv[2] === LAUNCHER_SOURCE;
  } catch {
    return false;
  }
}

/**
 * Waits (up to `timeoutMs`) until the emulator `pid` has started its analyzer launcher — a helper
 * Node process of ~40 MB started one second after the emulator is ready (src/cli/main.ts) — and
 * its RSS has settled; returns that RSS in MB, or undefined when none appeared. The RSS samples
 * then all include it: a fixed process started on a timer is not growth over the queries (it
 * appeared between the 100- and 1,000-query samples whenever 100 queries took under a second,
 * and counted ~42 MB as growth).
 */
async function launcherStarted(pid: number, timeoutMs = 10_000): Promise<number | undefined> {
  const end = performance.now() + timeoutMs;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let launcher: number | undefined;
  while (launcher === undefined && performance.now() < end) {
    launcher = childrenOf(pid).find(isLauncher);
    if (launcher === undefined) await sleep(50);
  }
  if (launcher === undefined) return undefined;
  // Settled: the same RSS twice, 200 ms apart.
  let last = -1;
  for (let mb = rssMb(launcher); mb !== last && performance.now() < end; mb = rssMb(launcher)) {
    last = mb;
    await sleep(200);
  }
  return rssMb(launcher);
}

/**
 * One REST call to a spawned emulator's project (`p` is the path after `/projects/<id>`); resolves
 * with the JSON answer. @throws Error with the status and the start of the answer on a 4xx/5xx.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function rest(emu: Spawned, method: string, p: string, body?: unknown): Promise<any> {
  const r = await fetch(`${emu.url}/bigquery/v2/projects/${emu.projectId}${p}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const j = await r.json();
  if (r.status >= 400) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(j).slice(0, 300)}`);
  return j;
}

/**
 * Polls jobs.get on a spawned emulator until job `jobId` is DONE, every `pollMs`.
 * @throws Error with the job's errorResult when it failed.
 */
export async function waitJobDone(emu: Spawned, jobId: string, pollMs = 10): Promise<void> {
  for (;;) {
    const j = await rest(emu, 'GET', `/jobs/${jobId}`);
    if (j.status?.state === 'DONE') {
      if (j.status.errorResult) throw new Error(JSON.stringify(j.status.errorResult));
      return;
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
