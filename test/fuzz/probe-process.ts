/**
 * Fuzz harness: the "second client" in a process of its own. The long fuzz run (`npm run fuzz`)
 * builds multi-megabyte requests and collects large answers on its own event loop; a prober on
 * that loop would time the harness's stalls as the emulator's. Forked from the harness, this
 * process runs a LivenessProbe against the URL the harness gives it (and gives it again after a
 * restart) and reports back over IPC:
 *
 * - parent → child: `{ url }` (probe this emulator from now on), `{ stop: true }`;
 * - child → parent: `{ consecutiveFailures }` after each probe (with `progress`, the latencies so
 *   far, every 5 s), `{ stats }` (LatencyStats) once
 *   stopped, then it exits.
 *
 * Run as a module it is the child; `ProbeProcess` is the parent's handle.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LivenessProbe, type LatencyStats } from './liveness-probe.js';

type ToChild = { url: string } | { stop: true };
type ToParent = { consecutiveFailures: number; progress?: LatencyStats } | { stats: LatencyStats };

/** The parent's handle on a forked prober (same interface as the in-process LivenessProbe the harness used). */
export class ProbeProcess {
  private readonly child: ChildProcess;
  /** Probes failed in a row since the last good answer, as last reported by the child. */
  consecutiveFailures = 0;
  private progress: LatencyStats = { count: 0, p50: 0, p99: 0, max: 0, failures: 0, failureSamples: [] };
  private stopped?: Promise<LatencyStats>;

  /**
   * Forks the prober; it starts probing `url` at once, one `SELECT n` every `intervalMs`.
   * @param execArgv the child's node flags (the harness's own, so `--import tsx` carries over).
   */
  constructor(url: string, projectId: string, intervalMs = 50, execArgv = process.execArgv) {
    this.child = fork(fileURLToPath(import.meta.url), [url, projectId, String(intervalMs)], {
      execArgv: execArgv.filter((a) => !a.startsWith('--max-old-space-size')),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (m: ToParent) => {
      if ('consecutiveFailures' in m) {
        this.consecutiveFailures = m.consecutiveFailures;
        if (m.progress) this.progress = m.progress;
      }
    });
  }

  /** The latencies as of the child's last progress report (at most ~5 s old). */
  stats(): LatencyStats {
    return this.progress;
  }

  /** Points the prober at another emulator (after a restart) and clears its failure streak. */
  retarget(url: string): void {
    this.consecutiveFailures = 0;
    this.child.send({ url } satisfies ToChild);
  }

  /** Stops probing; resolves with the latencies of every probe. */
  stop(): Promise<LatencyStats> {
    this.stopped ??= new Promise<LatencyStats>((resolve, reject) => {
      this.child.on('message', (m: ToParent) => {
        if ('stats' in m) resolve(m.stats);
      });
      this.child.once('exit', (code) => reject(new Error(`the prober exited (${code}) before reporting`)));
      this.child.send({ stop: true } satisfies ToChild);
    });
    return this.stopped;
  }
}

/** The child: probes until told to stop. */
async function runChild(): Promise<void> {
  const [url, projectId, interval] = process.argv.slice(2);
  let current = url!;
  const probe = new LivenessProbe(() => current, projectId!, Number(interval));
  probe.explainAfterMs = 100;
  probe.alternateSelect1 = true;
  let stopping = false;
  process.on('message', (m: ToChild) => {
    if ('url' in m) {
      current = m.url;
      probe.consecutiveFailures = 0;
    } else stopping = true;
  });
  let reported = Date.now();
  probe.onProbe = () => {
    const progress = Date.now() - reported >= 5000 ? probe.stats() : undefined;
    if (progress) reported = Date.now();
    process.send!({ consecutiveFailures: probe.consecutiveFailures, progress } satisfies ToParent);
  };
  probe.start();
  while (!stopping) await new Promise((r) => setTimeout(r, 100));
  const stats = await probe.stop();
  process.send!({ stats } satisfies ToParent, () => process.exit(0));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) void runChild();
