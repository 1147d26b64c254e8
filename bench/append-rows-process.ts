/**
 * The raw AppendRows client of bench/storage-write.ts in a process of its own
 * (bench/append-rows-client.cjs): the pre-encoded requests are handed over in a temporary file, the
 * child connects and says "ready", and {@link AppendRowsProcess.go} starts the timed span. The
 * child's heap holds nothing but the requests, so its garbage collection stays out of the span —
 * run in the bench's own process, the client collected the bench's 1M row objects inside it, on the
 * same two cores as the server (client CPU 120–800 ms per 1M-row case, bimodal).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const CLIENT = path.join(path.dirname(new URL(import.meta.url).pathname), 'append-rows-client.cjs');

/** A spawned client, connected and waiting. */
export interface AppendRowsProcess {
  /** Writes every request and resolves once the last is answered: wall ms of that span and the client's CPU ms over it. @throws Error on a refused append or a failed call. */
  go(): Promise<{ ms: number; cpu: number }>;
}

/** Spawns the client for `requests` (AppendRowsRequest bytes) on the gRPC `address`, `inFlight` unanswered at most; resolves once it is connected. */
export async function appendRowsProcess(address: string, requests: Buffer[], inFlight: number): Promise<AppendRowsProcess> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-append-')), 'requests.bin');
  const out = fs.openSync(file, 'w');
  for (const r of requests) {
    const n = Buffer.alloc(4);
    n.writeUInt32LE(r.length);
    fs.writeSync(out, n);
    fs.writeSync(out, r);
  }
  fs.closeSync(out);
  const child: ChildProcess = spawn(process.execPath, [CLIENT, address, file, String(inFlight)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const r = await lines.next();
    if (r.done) throw new Error('the AppendRows client exited without an answer');
    return r.value as string;
  };
  const cleanup = () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
  const first = await next().catch((e) => {
    cleanup();
    throw e;
  });
  if (first !== 'ready') {
    cleanup();
    throw new Error(`AppendRows client: ${first}`);
  }
  return {
    async go() {
      try {
        child.stdin!.write('go\n');
        const answer = JSON.parse(await next()) as { ms?: number; cpu?: number; error?: string };
        if (answer.error !== undefined) throw new Error(answer.error);
        return { ms: answer.ms!, cpu: answer.cpu! };
      } finally {
        child.stdin!.end();
        cleanup();
      }
    },
  };
}

const FLOOR_SERVER = path.join(path.dirname(new URL(import.meta.url).pathname), 'append-rows-floor-server.cjs');

/**
 * Starts the client floor's server (bench/append-rows-floor-server.cjs, a process of its own): an
 * AppendRows that answers every request at once without reading it. Resolves with its address and
 * a stop function.
 */
export async function appendRowsFloorServer(): Promise<{ address: string; stop(): void }> {
  const child = spawn(process.execPath, [FLOOR_SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = await lines.next();
  const port = Number(first.done ? NaN : first.value);
  if (!Number.isInteger(port)) {
    child.kill();
    throw new Error(`AppendRows floor server: ${first.done ? 'exited' : first.value}`);
  }
  return {
    address: `127.0.0.1:${port}`,
    stop() {
      child.stdin!.end();
      setTimeout(() => child.kill(), 2000).unref();
    },
  };
}
