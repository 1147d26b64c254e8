/**
 * Fuzz harness: an emulator in its own process (`node bin/bqemu.js serve --port 0`), so a crash is
 * observable as a crash (exit code/signal) instead of taking the harness down with it. The
 * process is preloaded with event-loop-lag-preload.cjs, which records its event-loop delay and RSS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One event-loop sample of the spawned process (see event-loop-lag-preload.cjs). */
export interface LagSample {
  t: number;
  p50: number;
  p99: number;
  max: number;
  rss: number;
  /** V8 heap in use (bytes). */
  heap: number;
}

/** A running emulator process. */
export interface SpawnedEmulator {
  url: string;
  projectId: string;
  pid: number;
  child: ChildProcess;
  /** Set once the process has exited: its code or signal. */
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  /** The last lines of its stderr/stdout (for crash reports). */
  outputTail(): string;
  /**
   * Event-loop/RSS samples recorded so far, from the first second that ended after the emulator
   * announced it was serving (its start-up — module loading, the first analyzer — is not serving).
   */
  lagSamples(): LagSample[];
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and removes its scratch files. */
  stop(): Promise<void>;
}

/** Direct children of a process (Linux /proc; empty elsewhere), e.g. the analyzer processes. */
export function childrenOf(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((t) => fs.readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/))
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * Spawns `bqemu serve` on a free port and waits until it prints its URL.
 * @throws when it does not start within `startTimeoutMs`.
 */
export async function spawnEmulator(opts: { projectId?: string; extraArgs?: string[]; startTimeoutMs?: number } = {}): Promise<SpawnedEmulator> {
  const projectId = opts.projectId ?? 'fz-project';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-fuzz-'));
  const lagFile = path.join(dir, 'lag.jsonl');
  const child = spawn(
    process.execPath,
    [
      // BQEMU_CPU_PROF_DIR=dir: a CPU profile of the emulator, written when it stops (SIGTERM).
      ...(process.env.BQEMU_CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BQEMU_CPU_PROF_DIR] : []),
      // BQEMU_NODE_FLAGS="--trace-gc …": extra V8/Node flags for an investigation.
      ...(process.env.BQEMU_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean),
      '--require', path.join(ROOT, 'test/fuzz/event-loop-lag-preload.cjs'), path.join(ROOT, 'bin/bqemu.js'), 'serve', '--port', '0', '--project', projectId, ...(opts.extraArgs ?? [])
    ],
    { cwd: dir, env: { ...process.env, BQEMU_LAG_FILE: lagFile }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let tail = '';
  const keep = (b: Buffer) => {
    tail = (tail + b.toString('utf8')).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  // BQEMU_EMULATOR_OUTPUT=file: the emulator's whole stdout and stderr, for an investigation.
  if (process.env.BQEMU_EMULATOR_OUTPUT) {
    const out = fs.createWriteStream(process.env.BQEMU_EMULATOR_OUTPUT);
    child.stdout!.pipe(out);
    child.stderr!.pipe(out);
  }
  const emu: SpawnedEmulator = {
    url: '',
    projectId,
    pid: child.pid ?? -1,
    child,
    outputTail: () => tail,
    lagSamples: () => {
      try {
        return fs.readFileSync(lagFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LagSample).filter((l) => l.t >= servingAt + 1000);
      } catch {
        return [];
      }
    },
    stop: async () => {
      // Its analyzer children, so none outlives a SIGKILLed emulator (they are ours: we started it).
      const children = childrenOf(child.pid ?? -1);
      if (!emu.exit) {
        const gone = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGTERM');
        // Writing a CPU profile of minutes takes longer than the usual 5 s grace.
        const t = setTimeout(() => child.kill('SIGKILL'), process.env.BQEMU_CPU_PROF_DIR ? 120_000 : 5000);
        await gone;
        clearTimeout(t);
      }
      for (const pid of children) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  child.once('exit', (code, signal) => {
    emu.exit = { code, signal };
  });
  let servingAt = Infinity;
  emu.url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bqemu did not start within ${opts.startTimeoutMs ?? 60_000} ms: ${tail}`)), opts.startTimeoutMs ?? 60_000);
    const onData = () => {
      const m = /serving BigQuery REST v2 on (http:\/\/\S+)/.exec(tail);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        servingAt = Date.now();
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`bqemu exited during start (${code ?? signal}): ${tail}`));
    });
  });
  return emu;
}
