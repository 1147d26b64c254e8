/**
 * Supervises the ZetaSQL local-service child process (`remote_server.so` from the npm package
 * `@fivetrandevelopers/zetasql`), listening on a private unix socket (DESIGN §5 practice 8, §6).
 *
 * - ready only after a real RPC answers (the caller probes through `AnalyzerClient.ready`);
 * - restarted with back-off after a crash;
 * - terminated when the emulator stops (SIGINT/SIGTERM/exit);
 * - a child orphaned by a SIGKILLed emulator is found through its pid file and killed at the next start.
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

/** One supervised analyzer child. `address` is the gRPC target (`unix:/…/zs.sock:0`). */
export class AnalyzerProcess {
  readonly dir: string;
  readonly address: string;
  private child?: ChildProcess;
  private stopping = false;
  private restarts = 0;
  private lastStart = 0;
  /** Called after the child was restarted (the client re-probes readiness). */
  onRestart?: () => void;

  constructor() {
    fs.mkdirSync(PID_ROOT, { recursive: true, mode: 0o700 });
    this.dir = fs.mkdtempSync(path.join(PID_ROOT, `${process.pid}-`));
    // The server appends ":<port>" to the host it is given; with port 0 the socket is "zs.sock:0".
    this.address = `unix:${path.join(this.dir, 'zs.sock')}:0`;
  }

  /** Starts the child (idempotent while it runs). */
  start(): void {
    if (this.child && this.child.exitCode === null && !this.child.killed) return;
    const sock = path.join(this.dir, 'zs.sock');
    try {
      fs.rmSync(sock + ':0', { force: true });
    } catch {
      /* ignore */
    }
    this.lastStart = Date.now();
    const child = spawn(binaryPath(), [`unix:${sock}`, '0'], { stdio: ['ignore', 'ignore', 'ignore'] });
    this.child = child;
    fs.writeFileSync(path.join(this.dir, 'child.pid'), String(child.pid ?? ''));
    child.on('exit', () => {
      if (this.child !== child || this.stopping) return;
      this.child = undefined;
      // Back-off: immediate after a long healthy run, then 100 ms doubling up to 5 s.
      const healthy = Date.now() - this.lastStart > 30_000;
      this.restarts = healthy ? 0 : this.restarts + 1;
      const delay = this.restarts === 0 ? 0 : Math.min(5000, 100 * 2 ** (this.restarts - 1));
      setTimeout(() => {
        if (this.stopping) return;
        this.start();
        this.onRestart?.();
      }, delay).unref();
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
 * the modules load (cold start, issue 4). The next AnalyzerClient adopts it.
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
