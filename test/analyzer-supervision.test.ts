/**
 * Supervision of the ZetaSQL analyzer child (`remote_server.so`, docs/ARCHITECTURE.md §6,
 * src/analyzer/process.ts):
 * - SIGKILLed during a run, it is restarted and the next query succeeds;
 * - an emulator started as its own process (`node bin/bqemu.js serve`) leaves no analyzer behind
 *   after SIGTERM;
 * - kill -9 of the emulator leaves no analyzer: the kernel kills it with its parent
 *   (`setpriv --pdeathsig`), within a second; the next start removes the socket directory.
 * Processes are inspected through /proc (Linux only; the suite is skipped elsewhere).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HAS_PROC = process.platform === 'linux' && fs.existsSync('/proc/self/stat');

interface Proc {
  pid: number;
  ppid: number;
  state: string;
  cmd: string;
}

/** Every process visible in /proc (state from /proc/PID/stat; Z = zombie). */
function processes(): Proc[] {
  const out: Proc[] = [];
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').join(' ').trim();
      out.push({ pid: Number(e), state: rest[0], ppid: Number(rest[1]), cmd });
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

/**
 * True when `p` is a child of `parent` or of one of its children: analyzers are started by the
 * emulator's launcher process (src/analyzer/launcher.ts), or by the emulator itself without one.
 */
function startedBy(p: Proc, parent: number | undefined, all = processes()): boolean {
  if (p.ppid === parent) return true;
  const up = all.find((x) => x.pid === p.ppid);
  return !!up && up.ppid === parent;
}

/** Live (not zombie) process `pid`, if any. */
const live = (pid: number) => processes().find((p) => p.pid === pid && p.state !== 'Z');

/** Live analyzer processes whose command line mentions `needle` (e.g. a socket directory). */
const analyzersWith = (needle: string) => processes().filter((p) => p.state !== 'Z' && p.cmd.includes('remote_server') && p.cmd.includes(needle));

async function until<T>(f: () => T | undefined | false, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}


/**
 * Starts `node bin/bqemu.js serve --port 0` (the emulator picks a free port itself: no race for one
 * looked up beforehand) and waits for its "serving" line, which names the port.
 */
async function spawnEmulator(): Promise<{ child: ChildProcess; port: number; analyzer: Proc; sockDir: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/bqemu.js'), 'serve', '--port', '0', '--grpc-port', '0', '--project', 'sup-project'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Killed by afterAll even when a check below throws (a leaked emulator holds its ports for good).
  started.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await until(() => /REST v2 on http:\/\/127\.0\.0\.1:\d+ /.test(out) || child.exitCode !== null, 'the emulator to start', 30_000);
  if (child.exitCode !== null) throw new Error(`emulator exited: ${out}`);
  const port = Number(/REST v2 on http:\/\/127\.0\.0\.1:(\d+) /.exec(out)![1]);
  const analyzer = await until(() => processes().find((p) => startedBy(p, child.pid) && p.cmd.includes('remote_server') && p.state !== 'Z'), 'its analyzer child');
  const m = /unix:(\S+)\/zs\.sock/.exec(analyzer.cmd);
  if (!m) throw new Error(`unexpected analyzer command line: ${analyzer.cmd}`);
  return { child, port, analyzer, sockDir: m[1] };
}

const started: ChildProcess[] = [];
afterAll(() => {
  // Only processes this file started, by pid.
  for (const c of started) if (c.exitCode === null && c.signalCode === null && c.pid) process.kill(c.pid, 'SIGKILL');
});

describe.skipIf(!HAS_PROC)('analyzer supervision (needs Linux /proc)', () => {
  describe('in-process emulator', () => {
    let t: TestEmulator;
    beforeAll(async () => {
      t = await startTestEmulator({ projectId: 'sup-project' });
    });
    afterAll(async () => {
      await t?.emu.close();
    });

    it('restarts a SIGKILLed analyzer; the next query succeeds', async () => {
      const [before] = await t.bq.query({ query: 'SELECT 1 AS one' });
      expect(before).toEqual([{ one: 1 }]);
      const pid = t.emu.engine.analyzer.pid!;
      expect(pid).toBeGreaterThan(0);
      expect(live(pid)?.cmd).toContain('remote_server');
      process.kill(pid, 'SIGKILL');
      await until(() => !live(pid), 'the analyzer to die');
      const [after] = await t.bq.query({ query: 'SELECT 2 AS two, "x" AS s' });
      expect(after).toEqual([{ two: 2, s: 'x' }]);
      const next = t.emu.engine.analyzer.pid!;
      expect(next).not.toBe(pid);
      expect(live(next)?.cmd).toContain('remote_server');
      // Started by the launcher, not forked from this (large) process on its event loop.
      expect(live(next)?.ppid).not.toBe(process.pid);
      expect(startedBy(live(next)!, process.pid)).toBe(true);
      // And once more, right after a query: supervision is not a one-shot.
      process.kill(next, 'SIGKILL');
      const [again] = await t.bq.query({ query: 'SELECT 3 AS three' });
      expect(again).toEqual([{ three: 3 }]);
    });
  });

  describe('emulator as a separate process', () => {
    it('SIGTERM stops the emulator and leaves no analyzer with its socket directory', async () => {
      const emu = await spawnEmulator();
      started.push(emu.child);
      // It serves: a query goes through the analyzer.
      const r = await fetch(`http://127.0.0.1:${emu.port}/bigquery/v2/projects/sup-project/queries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'SELECT 41 + 1 AS answer', useLegacySql: false }),
      });
      expect((await r.json()).rows).toEqual([{ f: [{ v: '42' }] }]);
      expect(analyzersWith(emu.sockDir).length).toBe(1);

      const exited = new Promise<number | null>((resolve) => emu.child.once('exit', (code) => resolve(code)));
      process.kill(emu.child.pid!, 'SIGTERM');
      expect(await exited).toBe(0);
      await until(() => analyzersWith(emu.sockDir).length === 0, 'the analyzer to be gone', 5000);
      expect(live(emu.analyzer.pid)).toBeUndefined();
      expect(fs.existsSync(emu.sockDir)).toBe(false);
    });

    it('kill -9 of the emulator leaves no analyzer behind (the kernel ends it with its parent)', async () => {
      const emu = await spawnEmulator();
      started.push(emu.child);
      const children = processes().filter((p) => startedBy(p, emu.child.pid) && p.cmd.includes('remote_server') && p.state !== 'Z');
      expect(children.map((p) => p.pid)).toContain(emu.analyzer.pid);
      // Every process it started itself too (the analyzers' launcher).
      const own = processes().filter((p) => p.ppid === emu.child.pid && p.state !== 'Z');
      const exited = new Promise<void>((resolve) => emu.child.once('exit', () => resolve()));
      const killedAt = Date.now();
      process.kill(emu.child.pid!, 'SIGKILL');
      await exited;
      // SIGKILL gives the emulator no chance to stop its child: setpriv --pdeathsig does.
      await until(() => children.every((c) => !live(c.pid)), 'every analyzer to be gone', 5000);
      await until(() => own.every((c) => !live(c.pid)), 'every process it started to be gone', 5000);
      // Liveness bound: the kernel signals the child as its parent exits (well under 1 s).
      expect(Date.now() - killedAt).toBeLessThan(1000);
      expect(analyzersWith(emu.sockDir)).toEqual([]);

      // The next emulator still clears what the killed one left (its socket directory).
      const next = await startTestEmulator({ projectId: 'sup-project-2' });
      try {
        await until(() => !fs.existsSync(emu.sockDir), 'the stale socket directory to be removed', 5000);
        const [rows] = await next.bq.query({ query: 'SELECT 7 AS seven' });
        expect(rows).toEqual([{ seven: 7 }]);
      } finally {
        await next.emu.close();
      }
    });
  });
});
