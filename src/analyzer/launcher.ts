/**
 * Starts analyzer children from a small helper process (the launcher) instead of from the
 * emulator itself. Starting a child copies the parent's page tables (libuv forks on Linux), so
 * its cost grows with the parent's memory, and it blocks the event loop: measured on this
 * machine, `spawn('/bin/true')` took 23 ms from a fresh Node process and 116 / 167 / 196 ms with
 * 1 / 2 / 3 GB resident — in the 10-minute fuzz run single analyzer restarts stalled every client
 * for up to 289 ms. The launcher is a bare Node process (~40 MB) started once, early; asking it
 * for a child is an IPC message, so a restart costs the emulator nothing it has to wait for.
 *
 * Lifetime: the launcher runs under `setpriv --pdeathsig KILL` when available and also exits
 * (killing its children) when its IPC channel closes, so it never outlives the emulator; its
 * children get the same treatment relative to it. Where the launcher cannot start, callers fall
 * back to spawning directly (`launchChild` returns undefined).
 *
 * Protocol (JSON over the IPC channel): emulator → launcher `{op:'spawn', id, file, args}`,
 * `{op:'kill', id}`; launcher → emulator `{op:'spawned', id, pid}`, `{op:'stderr', id, data}`,
 * `{op:'exit', id, code, signal}`.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** Events of one child started by the launcher. */
export interface LaunchedChildEvents {
  /** The child runs with this pid. */
  onSpawned(pid: number): void;
  /** A chunk of the child's standard error. */
  onStderr(data: string): void;
  /** The child exited (code, or the signal that ended it); also sent when it could not start (code -1). */
  onExit(code: number | null, signal: string | null): void;
}

/** A child started through the launcher. */
export interface LaunchedChild {
  /** Kills it with SIGKILL (no-op once it exited). */
  kill(): void;
}

/**
 * The launcher's own code, run with `node -e`: a file of its own would need a TypeScript-free
 * copy for tsx runs and another for the compiled build. Exported so that a bench can tell the
 * launcher among the emulator's children (its `-e` argument; bench/process.ts).
 */
export const LAUNCHER_SOURCE = `
const { spawn } = require('node:child_process');
const children = new Map();
process.on('message', (m) => {
  if (m.op === 'spawn') {
    let c;
    try {
      c = spawn(m.file, m.args, { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      process.send({ op: 'exit', id: m.id, code: -1, signal: null });
      return;
    }
    children.set(m.id, c);
    if (c.pid) process.send({ op: 'spawned', id: m.id, pid: c.pid });
    c.stderr.on('data', (d) => process.send({ op: 'stderr', id: m.id, data: d.toString('utf8') }));
    c.on('error', () => {});
    c.on('close', (code, signal) => {
      children.delete(m.id);
      if (process.connected) process.send({ op: 'exit', id: m.id, code: c.pid ? code : -1, signal });
    });
  } else if (m.op === 'kill') {
    const c = children.get(m.id);
    if (c && c.pid) try { process.kill(c.pid, 'SIGKILL'); } catch {}
  }
});
process.on('disconnect', () => {
  for (const c of children.values()) if (c.pid) try { process.kill(c.pid, 'SIGKILL'); } catch {}
  process.exit(0);
});
`;

let launcher: ChildProcess | undefined;
let failed = false;
let nextId = 0;
const handlers = new Map<number, LaunchedChildEvents>();

type FromLauncher =
  | { op: 'spawned'; id: number; pid: number }
  | { op: 'stderr'; id: number; data: string }
  | { op: 'exit'; id: number; code: number | null; signal: string | null };

/**
 * Starts the launcher if it is not running (cheap to call again). `wrapper`: a command that execs
 * its arguments after `--` (setpriv with `--pdeathsig KILL`), or undefined.
 * @returns false when no launcher can run here (then spawn directly).
 */
export function startLauncher(wrapper?: string[]): boolean {
  if (launcher && launcher.connected) return true;
  if (failed) return false;
  try {
    const cmd = [...(wrapper ?? []), process.execPath, '-e', LAUNCHER_SOURCE];
    const child = spawn(cmd[0]!, cmd.slice(1), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { ...process.env, NODE_OPTIONS: '' } });
    const startedAt = Date.now();
    launcher = child;
    child.on('message', (m: FromLauncher) => {
      const h = handlers.get(m.id);
      if (!h) return;
      if (m.op === 'spawned') h.onSpawned(m.pid);
      else if (m.op === 'stderr') h.onStderr(m.data);
      else {
        handlers.delete(m.id);
        h.onExit(m.code, m.signal);
      }
    });
    child.on('error', () => {
      failed = true;
    });
    child.on('exit', () => {
      if (launcher === child) launcher = undefined;
      // Gone at once (e.g. a sandbox refusing setpriv's prctl): spawn directly from now on.
      if (Date.now() - startedAt < 2000) failed = true;
      // Its children were killed with it: tell their owners, who start replacements.
      const orphans = [...handlers.values()];
      handlers.clear();
      for (const h of orphans) h.onExit(null, 'SIGKILL');
    });
    // Neither the launcher nor its channel keeps the emulator alive.
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    return true;
  } catch {
    failed = true;
    return false;
  }
}

/**
 * Starts `file args` through the launcher (standard input and output ignored, standard error
 * delivered to `events.onStderr`). Returns undefined when there is no launcher to ask.
 */
export function launchChild(file: string, args: string[], events: LaunchedChildEvents): LaunchedChild | undefined {
  if (!launcher?.connected) return undefined;
  const id = ++nextId;
  handlers.set(id, events);
  launcher.send({ op: 'spawn', id, file, args });
  return {
    kill: () => {
      if (handlers.has(id) && launcher?.connected) launcher.send({ op: 'kill', id });
    },
  };
}

/** Stops the launcher (and with it every child it started). */
export function stopLauncher(): void {
  const l = launcher;
  launcher = undefined;
  if (l?.pid) {
    try {
      l.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}
