/**
 * The server closes — and `bqemu serve` exits on SIGTERM — even while a client holds a connection
 * that never sent a request. Node closes idle keep-alive connections on close but not such a one,
 * and undici opens one ahead after a reply it aborted: close then waited forever. Past
 * SHUTDOWN_GRACE_MS every connection is closed (src/server/server.ts).
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SHUTDOWN_GRACE_MS } from '../src/config/timeouts.js';
import { startTestEmulator } from './helpers/emulator.js';
import { killTree } from './helpers/kill-tree.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A TCP connection to `port` on 127.0.0.1 that sends nothing; resolves once connected, with a promise of its end. */
async function silentConnection(port: number): Promise<{ socket: net.Socket; ended: Promise<void> }> {
  const socket = net.connect(port, '127.0.0.1');
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return { socket, ended };
}

describe('closing with a connection that never sent a request', () => {
  it('the in-process server closes after the grace period and ends the connection', async () => {
    const t = await startTestEmulator({ projectId: 'close-project' });
    const [rows] = await t.bq.query({ query: 'SELECT 1 AS x' });
    expect(rows).toEqual([{ x: 1 }]);
    const { ended } = await silentConnection(Number(new URL(t.emu.url).port));
    const t0 = performance.now();
    await t.emu.close();
    const ms = performance.now() - t0;
    await ended;
    // It waited for the connection to end by itself first (no assertion on how long beyond that).
    expect(ms).toBeGreaterThanOrEqual(SHUTDOWN_GRACE_MS - 50);
  }, 30_000);

  it('`bqemu serve` exits on SIGTERM', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/bqemu.js'), 'serve', '--port', '0', '--grpc-port', '0', '--project', 'close-project'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const deadline = Date.now() + 60_000;
      let m: RegExpExecArray | null;
      while (!(m = /REST v2 on http:\/\/127\.0\.0\.1:(\d+) /.exec(out))) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`emulator did not start: ${out}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const { ended } = await silentConnection(Number(m[1]));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await ended;
    } finally {
      if (child.exitCode === null && child.signalCode === null) await killTree(child);
    }
  }, 90_000);
});
