/**
 * Supervises the ZetaSQL local-service child process (`remote_server.so` from the npm package
 * `@fivetrandevelopers/zetasql`), listening on a private unix socket.
 *
 * - ready only after a real RPC answers (the pool probes it, src/analyzer/pool.ts);
 * - replaced by the pool after a crash or a stall;
 * - terminated when the emulator stops (SIGINT/SIGTERM/exit), and by the kernel when the emulator
 *   dies without stopping it (`setpriv --pdeathsig`, Linux);
 * - elsewhere, a child orphaned by a SIGKILLed emulator is found through its pid file and killed at
 *   the next start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Directory of the ZetaSQL binaries and protos inside the npm package. */
export function zetasqlDir(): string {
  return path.join(path.dirname(require.resolve('@fivetrandevelopers/zetasql/package.json')), 'lib', 'zetasql');
}

function binaryPath(): string {
  const arm = process.arch.startsWith('arm') ? '_arm' : '';
  const ext = process.platform === 'darwin' ? '' : '.so';
  return path.join(zetasqlDir(), `remote_server${arm}${ext}`);
}

const PID_ROOT = path.join(os.tmpdir(), `bqemu-analyzer-${process.getuid?.() ?? 0}`);

/** Kills analyzer children whose emulator (recorded in the pid file) no longer runs. */
export function reapOrphans(): number {
  let reaped = 0;
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(PID_ROOT);
  } catch {
    return 0;
  }
  for (const e of entries) {
    const dir = path.join(PID_ROOT, e);
    const m = /^(\d+)-/.exec(e);
    if (!m) continue;
    const parent = Number(m[1]);
    if (isAlive(parent)) continue;
    try {
      const child = Number(fs.readFileSync(path.join(dir, 'child.pid'), 'utf8'));
      if (child && isAlive(child) && isAnalyzer(child)) {
        process.kill(child, 'SIGKILL');
        reaped++;
      }
    } catch {
      /* no pid file */
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return reaped;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isAnalyzer(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('remote_server');
  } catch {
    return process.platform !== 'linux';
  }
}

/**
 * `setpriv --pdeathsig KILL` (util-linux, on every Debian/Ubuntu system): the kernel kills the
 * analyzer the moment the emulator process ends, also when the emulator is SIGKILLed and gets no
 * chance to stop it. Where it is missing, an orphan is reaped by the next start (reapOrphans).
 */
let setpriv = process.platform === 'linux' ? ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => fs.existsSync(p)) : undefined;

/**
 * One analyzer child. `address` is the gRPC target (`unix:/…/zs.sock:0`). The child does not
 * restart itself: its owner (src/analyzer/pool.ts) replaces a process that exited or stalled.
 */
export class AnalyzerProcess {
  readonly dir: string;
  readonly address: string;
  private child?: ChildProcess;
  private stopping = false;
  /** Called once when the child exits without `stop()` (crash, or killed from outside). */
  onExit?: () => void;

  constructor() {
    fs.mkdirSync(PID_ROOT, { recursive: true, mode: 0o700 });
    this.dir = fs.mkdtempSync(path.join(PID_ROOT, `${process.pid}-`));
    // The server appends ":<port>" to the host it is given; with port 0 the socket is "zs.sock:0".
    this.address = `unix:${path.join(this.dir, 'zs.sock')}:0`;
  }

  /** Starts the child (idempotent while it runs). */
  start(): void {
    if (this.stopping || (this.child && this.child.exitCode === null && this.child.signalCode === null)) return;
    const sock = path.join(this.dir, 'zs.sock');
    fs.rmSync(sock + ':0', { force: true });
    const args = [`unix:${sock}`, '0'];
    // setpriv execs the analyzer: the child's pid and command line are the analyzer's own.
    const wrapper = setpriv;
    const child = wrapper
      ? spawn(wrapper, ['--pdeathsig', 'KILL', '--', binaryPath(), ...args], { stdio: ['ignore', 'ignore', 'ignore'] })
      : spawn(binaryPath(), args, { stdio: ['ignore', 'ignore', 'ignore'] });
    const startedAt = Date.now();
    this.child = child;
    child.on('error', () => undefined); // a failed spawn also emits 'exit'
    fs.writeFileSync(path.join(this.dir, 'child.pid'), String(child.pid ?? ''));
    child.on('exit', (code) => {
      // setpriv itself failed (exit status 1 at once, e.g. a sandbox refusing prctl): spawn directly from now on.
      if (wrapper && code === 1 && Date.now() - startedAt < 2000) setpriv = undefined;
      if (this.child !== child || this.stopping) return;
      this.child = undefined;
      this.onExit?.();
    });
  }

  /** Pid of the running child, if any. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Stops the child and removes the private directory. Synchronous so it can run on 'exit'. */
  stop(): void {
    this.stopping = true;
    if (this.child?.pid) {
      try {
        process.kill(this.child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    this.child = undefined;
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

let prespawned: AnalyzerProcess | undefined;

/**
 * Starts the analyzer child before the rest of the emulator is even loaded, so it boots while
 * the modules load (cold start). The next AnalyzerClient adopts it.
 */
export function prespawnAnalyzer(): void {
  reapOrphans();
  prespawned = new AnalyzerProcess();
  prespawned.start();
}

/** The prespawned child, once. */
export function takePrespawned(): AnalyzerProcess | undefined {
  const p = prespawned;
  prespawned = undefined;
  return p;
}
