/**
 * A spawned emulator's main thread over one Storage Write case: its CPU time (/proc), and its
 * event-loop delay (the client in the bench's process, so the client's heap and work are not in
 * the measure): bench/loop-delay-preload.cjs is preloaded into the emulator (`--require`, 1 ms
 * resolution) and writes the delays since the previous SIGUSR2 (p50, p99, max ms) on each SIGUSR2.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The delays of one stretch, ms. */
export interface LoopDelays {
  p50: number;
  p99: number;
  max: number;
}

const FILE = path.join(os.tmpdir(), `bqemu-write-loop-delay-${process.pid}.jsonl`);

/** Makes emulators spawned from now on (bench/process.ts spawnEmulator) load the preload. */
export function preloadLoopDelay(): void {
  if (!(process.env.BQEMU_NODE_FLAGS ?? '').includes('loop-delay-preload')) {
    process.env.BQEMU_NODE_FLAGS = `${process.env.BQEMU_NODE_FLAGS ?? ''} --require ${path.join(path.dirname(new URL(import.meta.url).pathname), 'loop-delay-preload.cjs')}`;
  }
  process.env.BQEMU_LOOP_DELAY_FILE = FILE;
  fs.rmSync(FILE, { force: true });
}

const lines = () => (fs.existsSync(FILE) ? fs.readFileSync(FILE, 'utf8').trim().split('\n').filter(Boolean) : []);

/** Ends the emulator `pid`'s current stretch and returns its delays (undefined when it did not answer within 2 s). */
export async function loopDelaySince(pid: number): Promise<LoopDelays | undefined> {
  const before = lines().length;
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 200; i++) {
    const now = lines();
    if (now.length > before) return JSON.parse(now[now.length - 1]!) as LoopDelays;
    await new Promise((r) => setTimeout(r, 10));
  }
  return undefined;
}

/** CPU ms of the main thread of `pid` (/proc/<pid>/task/<pid>/stat utime + stime, 10 ms ticks). */
export function mainThreadCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
}
