/**
 * The client in a process of its own: `@google-cloud/bigquery` under plain node
 * (bench/plain-client.cjs), as a user's program or the published emulator benchmark runs it,
 * against an emulator serving from this process. In-process timing under `tsx` charges the client
 * ~0.5 ms of CPU per request for a module resolution through tsx's loader thread, and runs client
 * and server on one event loop.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import readline from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stats, type Stats } from './report.js';
import type { ReplayServer } from './replay.js';

const PLAIN_CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'plain-client.cjs');

export interface ClientProcessRun {
  /** Wall ms per query, as the client process timed them. */
  ms: number[];
  /** The client process's CPU ms per timed query (every thread). */
  cpu: number;
  /** This process's CPU ms per query (timed and warm-up) meanwhile: the in-process emulator's. */
  serverCpu: number;
}

/**
 * Runs `sql` `warmup` untimed then `iters` timed times from a plain-node client process against `url`.
 * @throws the client process's error output when it fails
 */
export async function runClientProcess(url: string, projectId: string, sql: string, iters: number, warmup: number): Promise<ClientProcessRun> {
  const c0 = process.cpuUsage();
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [PLAIN_CLIENT, url, projectId, String(iters), String(warmup), sql], { maxBuffer: 64 << 20 }, (e, stdout, stderr) =>
      e ? reject(new Error(`client process failed: ${stderr.split('\n').slice(0, 3).join(' ') || e.message}`)) : resolve(stdout),
    ),
  );
  const c = process.cpuUsage(c0);
  const r = JSON.parse(out) as { ms: number[]; cpu: number };
  return { ...r, serverCpu: (c.user + c.system) / 1000 / Math.max(1, iters + warmup) };
}

/**
 * bqemu through a client in its own process, and that client's floor: the same queries answered
 * from responses recorded from bqemu (bench/replay.ts, replayed in a loop) — the client's own cost.
 */
export async function ownProcessClient(emuUrl: string, replay: ReplayServer, projectId: string, sql: string, iters: number, warmup: number): Promise<{ bqemu: Stats; floor: Stats }> {
  const bqemu = await runClientProcess(emuUrl, projectId, sql, iters, warmup);
  replay.record();
  await runClientProcess(replay.url, projectId, sql, 1, 0);
  replay.replayInLoop();
  const floor = await runClientProcess(replay.url, projectId, sql, iters, warmup);
  replay.record();
  return { bqemu: stats(bqemu.ms), floor: stats(floor.ms) };
}

/**
 * A client process kept running (bench/plain-client.cjs `--serve`): one query at a time, timed in
 * the client process, so a bench can take turns between it and other sides within one round.
 */
export class ClientProcess {
  private readonly answers: ((line: string) => void)[] = [];

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    readline.createInterface({ input: child.stdout }).on('line', (line) => this.answers.shift()?.(line));
  }

  /** Starts a client process for the REST endpoint `url`. */
  static start(url: string, projectId: string): ClientProcess {
    return new ClientProcess(spawn(process.execPath, [PLAIN_CLIENT, '--serve', url, projectId], { stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  /**
   * Runs `sql` once through the client; its wall ms as the client process measured it.
   * @throws the client's error text when the query fails, or when the process ended
   */
  async query(sql: string): Promise<number> {
    const line = await new Promise<string>((resolve, reject) => {
      if (this.child.exitCode !== null) return reject(new Error(`client process ended (${this.child.exitCode})`));
      this.answers.push(resolve);
      this.child.stdin.write(JSON.stringify(sql) + '\n');
    });
    const r = JSON.parse(line) as { ms?: number; error?: string };
    if (r.error !== undefined) throw new Error(`client process: ${r.error}`);
    return r.ms!;
  }

  /** Ends the process (stdin closed: it exits once the last query answered). */
  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    await new Promise<void>((r) => {
      this.child.once('exit', () => r());
      this.child.stdin.end();
    });
  }
}
