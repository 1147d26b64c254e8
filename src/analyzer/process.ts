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
import { silentLogger, type Logger } from '../config/logger.js';
import { launchChild, startLauncher } from './launcher.js';

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
    // No pid folder yet (first start on this machine): no orphans.
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
      // No pid file (its emulator died before writing it) or the child is already gone: only the folder is left to remove.
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
    // No /proc entry: on Linux the process is gone (not ours to kill); elsewhere /proc does not exist, trust the pid file.
    return process.platform !== 'linux';
  }
}

/** Lines of the child's standard error kept for the crash diagnostics (the last ones). */
export const STDERR_TAIL_LINES = 20;
/** Longest standard-error line kept or logged, characters (longer ones are cut). */
const STDERR_LINE_CHARS = 2000;
/** Standard-error lines one child may log; later ones are only kept in the tail (a chatty child cannot flood the log). */
const STDERR_LOG_LINES = 200;

/**
 * The child's standard error, split into lines: each logged at warn (up to STDERR_LOG_LINES), the
 * last STDERR_TAIL_LINES kept for the exit diagnostics. Memory is bounded: a partial line is cut at
 * STDERR_LINE_CHARS.
 */
export class StderrLines {
  readonly tail: string[] = [];
  private partial = '';
  private logged = 0;

  /** @param pid the child's pid for the log lines (may be set later, once known). */
  constructor(private readonly log: Logger, public pid: number | undefined) {}

  push(chunk: Buffer | string): void {
    const lines = (this.partial + chunk.toString()).split('\n');
    this.partial = lines.pop()!.slice(0, STDERR_LINE_CHARS);
    for (const l of lines) this.line(l);
  }

  end(): void {
    if (this.partial) this.line(this.partial);
    this.partial = '';
  }

  private line(raw: string): void {
    const line = raw.replace(/\r$/, '').slice(0, STDERR_LINE_CHARS);
    if (!line) return;
    this.tail.push(line);
    if (this.tail.length > STDERR_TAIL_LINES) this.tail.shift();
    if (this.logged < STDERR_LOG_LINES) this.log.warn({ childPid: this.pid, stderr: line }, 'analyzer stderr');
    else if (this.logged === STDERR_LOG_LINES) this.log.warn({ childPid: this.pid }, `analyzer stderr: more than ${STDERR_LOG_LINES} lines, the rest is not logged`);
    this.logged++;
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
  private child?: RunningChild;
  private stopping = false;
  private stderr?: StderrLines;
  /** Pid of the last child started (kept after it exits, for diagnostics). */
  lastPid?: number;
  /** Called once when the child exits without `stop()` (crash, or killed from outside). */
  onExit?: () => void;

  /** @param log the analyzer's logger (spawn, exit and the child's standard error). */
  constructor(public log: Logger = silentLogger) {
    fs.mkdirSync(PID_ROOT, { recursive: true, mode: 0o700 });
    this.dir = fs.mkdtempSync(path.join(PID_ROOT, `${process.pid}-`));
    // The server appends ":<port>" to the host it is given; with port 0 the socket is "zs.sock:0".
    this.address = `unix:${path.join(this.dir, 'zs.sock')}:0`;
  }

  /**
   * Starts the child (idempotent while it runs), through the launcher (src/analyzer/launcher.ts)
   * unless `direct`: the first child at start-up is spawned directly (the emulator is still small,
   * so the fork is cheap, and waiting for the launcher's own start would delay the first answer).
   */
  start(direct = false): void {
    if (this.stopping || this.child) return;
    const sock = path.join(this.dir, 'zs.sock');
    fs.rmSync(sock + ':0', { force: true });
    const args = [`unix:${sock}`, '0'];
    // setpriv execs the analyzer: the child's pid and command line are the analyzer's own.
    const wrapper = setpriv;
    const cmd = wrapper ? [wrapper, '--pdeathsig', 'KILL', '--', binaryPath(), ...args] : [binaryPath(), ...args];
    const startedAt = Date.now();
    const stderr = (this.stderr = new StderrLines(this.log, undefined));
    const running: RunningChild = { kill: () => undefined };
    this.child = running;
    const spawned = (pid: number | undefined) => {
      running.pid = stderr.pid = this.lastPid = pid;
      if (this.child !== running) return;
      fs.writeFileSync(path.join(this.dir, 'child.pid'), String(pid ?? ''));
      this.log.info({ childPid: pid, socket: sock, pdeathsig: !!wrapper, launcher: !!launched }, 'analyzer spawned');
    };
    const exited = (code: number | null, signal: string | null) => {
      // setpriv itself failed (exit status 1 at once, e.g. a sandbox refusing prctl): spawn directly from now on.
      const setprivFailed = wrapper && code === 1 && Date.now() - startedAt < 2000;
      if (setprivFailed) setpriv = undefined;
      stderr.end();
      if (this.child !== running || this.stopping) {
        this.log.debug({ childPid: running.pid, code, signal }, 'analyzer exited (stopped)');
        return;
      }
      this.log.warn({ childPid: running.pid, code, signal, uptime_ms: Date.now() - startedAt, stderrTail: stderr.tail, ...(setprivFailed ? { note: 'setpriv failed; spawning without it from now on' } : {}) }, 'analyzer exited unexpectedly');
      this.child = undefined;
      this.onExit?.();
    };
    const launched = !direct && startLauncher(launcherWrapper())
      ? launchChild(cmd[0]!, cmd.slice(1), { onSpawned: spawned, onStderr: (d) => stderr.push(d), onExit: exited })
      : undefined;
    if (launched) {
      running.kill = () => launched.kill();
      return;
    }
    // No launcher here: spawn directly (blocks the event loop for the fork; see launcher.ts).
    // Standard error is read (never left to fill its pipe) and logged line by line.
    const child: ChildProcess = spawn(cmd[0]!, cmd.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    running.kill = () => child.kill('SIGKILL');
    child.stderr?.on('data', (d: Buffer) => stderr.push(d));
    // A failed spawn also emits 'exit', which handles it; the error itself is only logged.
    child.on('error', (e) => this.log.warn({ err: e, binary: cmd[0] }, 'analyzer spawn failed'));
    spawned(child.pid);
    // Reported once standard error is closed too ('close' follows 'exit'), so the tail holds the child's last words.
    child.once('close', (code, signal) => exited(code, signal));
  }

  /** The last lines the current (or last) child wrote to standard error (diagnostics). */
  get stderrTail(): string[] {
    return [...(this.stderr?.tail ?? [])];
  }

  /** Pid of the running child, if any. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Stops the child and removes the private directory. Synchronous so it can run on 'exit'. */
  stop(): void {
    this.stopping = true;
    const c = this.child;
    this.child = undefined;
    if (c?.pid) {
      try {
        process.kill(c.pid, 'SIGKILL');
      } catch (e) {
        // ESRCH: the child already exited; nothing else can fail here.
        this.log.debug({ childPid: c.pid, err: e }, 'analyzer already gone at stop');
      }
    } else c?.kill();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The analyzer child this process runs: its pid once known, and how to kill it. */
interface RunningChild {
  pid?: number;
  kill(): void;
}

let prespawned: AnalyzerProcess | undefined;

/**
 * Starts the analyzer child before the rest of the emulator is even loaded, so it boots while
 * the modules load (cold start). The next AnalyzerClient adopts it. `log`: the analyzer's logger.
 */
export function prespawnAnalyzer(log?: Logger): void {
  reapOrphans();
  prespawned = new AnalyzerProcess(log);
  prespawned.start(true);
}

/**
 * Starts the launcher (src/analyzer/launcher.ts) that starts every later child. `bqemu serve`
 * calls it once it serves: started with the prespawned child, the launcher's own Node start
 * competed for the CPU with the emulator's on the way to the first answer
 * (bench/results/2026-11-26-cold-start-2.md). A child needed before then starts it itself.
 */
export function startAnalyzerLauncher(): void {
  startLauncher(launcherWrapper());
}

/** The command prefix the launcher runs under: setpriv with `--pdeathsig KILL` where available. */
function launcherWrapper(): string[] | undefined {
  return setpriv ? [setpriv, '--pdeathsig', 'KILL', '--'] : undefined;
}

/** The prespawned child, once. */
export function takePrespawned(): AnalyzerProcess | undefined {
  const p = prespawned;
  prespawned = undefined;
  return p;
}
