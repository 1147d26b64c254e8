/**
 * A pool of ZetaSQL analyzer processes (src/analyzer/process.ts) that no request can wedge:
 *
 * - every call has a deadline (ANALYZER_CALL_DEADLINE_MS); a call past it restarts its process and
 *   fails alone with BigQuery's "too complex" error;
 * - a call unanswered for a while has its connection probed; a process or connection that does not
 *   answer the probe (crashed, or an HTTP/2 session silently ended by an oversized error trailer,
 *   see src/config/analyzer-limits.ts) is replaced and its calls are resent once to another
 *   process; a call lost twice is the culprit and fails alone — unless its text is too short to
 *   wedge anything (ANALYZER_SUSPECT_MIN_CHARS), which is resent until its deadline;
 * - only the calls that can have caused a loss are charged with it: calls on their own
 *   connections that merely shared a replaced process with the culprit are resent uncharged;
 * - up to ANALYZER_POOL_MAX processes: a second one starts when a call finds every process busy;
 * - a call whose job is cancelled (its AbortSignal) ends at once; a long one restarts its process.
 *
 * The only per-process state is the catalogs registered in it (src/analyzer/registered-catalogs.ts),
 * a cache: a replaced process starts with none, and a call naming a catalog its process no longer
 * knows is resent with the catalog itself.
 */
import * as grpc from '@grpc/grpc-js';
import fs from 'node:fs';
import os from 'node:os';
import { AnalyzerProcess, takePrespawned } from './process.js';
import { Worker, type Connection, type Pending, type WarmUp } from './pool-worker.js';
import type { CatalogRef } from './registered-catalogs.js';
import { BigQueryError } from '../errors/errors.js';
import { silentLogger, type Logger } from '../config/logger.js';
import {
  ANALYZER_CALL_DEADLINE_MS, ANALYZER_CANCEL_RESTART_AFTER_MS, ANALYZER_HEAVY_CALL_MS, ANALYZER_HEAVY_EXTRA, ANALYZER_HEAVY_NICE, ANALYZER_POOL_MAX, ANALYZER_PROBE_DEADLINE_MS,
  ANALYZER_STALL_PROBE_AFTER_MS, ANALYZER_SUSPECT_MIN_CHARS, ANALYZER_WATCH_INTERVAL_MS, ANALYZER_CRASH_WINDOW_MS, ANALYZER_RESTART_BACKOFF_MS, ANALYZER_RESTART_BACKOFF_MAX_MS,
} from '../config/analyzer-limits.js';

/** BigQuery's answer for a statement the analyzer cannot finish (past the deadline, too large an answer, lost twice). */
const tooComplex = () => BigQueryError.queryTooComplex();

export class AnalyzerPool {
  private workers: Worker[] = [];
  private stopped = false;
  private timer?: NodeJS.Timeout;
  /** Recent unplanned process exits (timestamps), for the restart back-off. */
  private crashes: number[] = [];
  /** Deadline of each call, ms (ANALYZER_CALL_DEADLINE_MS; tests lower it). */
  deadlineMs = ANALYZER_CALL_DEADLINE_MS;
  /** Shortest SQL text that can be blamed for a loss (ANALYZER_SUSPECT_MIN_CHARS; tests change it). */
  suspectMinChars = ANALYZER_SUSPECT_MIN_CHARS;
  /**
   * A request every process started from now on answers once before it takes calls (the client
   * sets it from its first short analysis). A new process's first analysis took 80–140 ms against
   * 13–50 ms for the next ones (measured on a restarted child); a call that got a replacement
   * process paid that on top of its own wait.
   */
  warmUp?: WarmUp;
  /** Calls sent naming a registered catalog instead of carrying it (a test seam). */
  registeredCatalogCalls = 0;

  /** @param log the analyzer's logger: processes replaced, and each process's spawn, exit and standard error. */
  constructor(readonly maxSize = ANALYZER_POOL_MAX, private readonly log: Logger = silentLogger) {}

  /** Starts the first process (the prespawned one if any); resolves with its maximum language options. */
  start(): Promise<unknown> {
    return this.spawn(takePrespawned()).ready;
  }

  /** Pids of the live analyzer processes, oldest first. */
  get pids(): number[] {
    return this.workers.filter((w) => !w.dead && w.proc.pid).map((w) => w.proc.pid!);
  }

  /**
   * Calls `method` on an analyzer process. Resolves with the answer; rejects with the analyzer's
   * gRPC error (its own answer, e.g. a syntax error), a BigQueryError of its own (too complex,
   * not started), or `abortError()` once `signal` aborts. `catalogRef`: the request's
   * `simpleCatalog` may be sent as a catalog registered in the process (registered-catalogs.ts).
   */
  call(method: string, req: object, signal?: AbortSignal, abortError: () => unknown = () => new Error('aborted'), catalogRef?: CatalogRef): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.stopped) return reject(BigQueryError.analyzer.stopped());
      const p: Pending = { method, req, resolve, reject, deadlineAt: Date.now() + this.deadlineMs, losses: 0, textChars: textCharsOf(req), done: false, catalogRef };
      if (signal) {
        if (signal.aborted) return reject(abortError());
        const onAbort = () => this.abandon(p, abortError());
        signal.addEventListener('abort', onAbort, { once: true });
        p.cleanup = () => signal.removeEventListener('abort', onAbort);
      }
      this.send(p);
    });
  }

  /** Stops every process; calls still waiting fail. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    for (const w of this.workers) {
      for (const p of w.inflight) this.finish(p, BigQueryError.analyzer.stopped());
      w.close();
    }
    this.workers = [];
  }

  private spawn(proc = new AnalyzerProcess(this.log)): Worker {
    if (proc.log === silentLogger) proc.log = this.log;
    // Back-off when processes keep dying: none for the first, then 100 ms doubling up to 5 s.
    const now = Date.now();
    this.crashes = this.crashes.filter((t) => now - t < ANALYZER_CRASH_WINDOW_MS);
    const delay = this.crashes.length < 2 ? 0 : Math.min(ANALYZER_RESTART_BACKOFF_MAX_MS, ANALYZER_RESTART_BACKOFF_MS * 2 ** (this.crashes.length - 2));
    const w = new Worker(proc, delay, this.warmUp);
    proc.onExit = () => {
      this.crashes.push(Date.now());
      this.replace(w);
    };
    w.ready.catch(() => this.replace(w));
    this.workers.push(w);
    return w;
  }

  /**
   * An idle ready ordinary process, else (starting one more when allowed) the least busy one.
   * Heavy processes (a long call running, see ANALYZER_HEAVY_CALL_MS) get new calls only when no
   * ordinary process lives.
   */
  private pick(long: boolean): Worker {
    const live = this.workers.filter((w) => !w.dead);
    if (long) {
      // A long text goes to a process already running long ones, else its process turns heavy at
      // once: short calls never wait on a process busy with a long analysis (in a fuzz run a
      // `SELECT n` sent beside a 300,000-character text waited ~210 ms for the heavy mark; beside a
      // 65,600-character one whose error wedged the process, ~520 ms for the stall probe).
      const heavy = live.filter((w) => w.heavy && w.isReady);
      if (heavy.length) return heavy.reduce((a, b) => (b.inflight.size < a.inflight.size ? b : a));
      const w = this.pick(false);
      if (w.isReady) this.makeHeavy(w);
      return w;
    }
    const ordinary = live.filter((w) => !w.heavy);
    const idle = ordinary.find((w) => w.isReady && w.inflight.size === 0);
    if (idle) return idle;
    if (!ordinary.length && live.length >= this.maxSize + ANALYZER_HEAVY_EXTRA) {
      const ready = live.filter((w) => w.isReady);
      return (ready.length ? ready : live).reduce((a, b) => (b.inflight.size < a.inflight.size ? b : a));
    }
    if (!ordinary.length) return this.spawn();
    if (ordinary.length < this.maxSize && ordinary.every((w) => w.isReady) && live.length < this.maxSize + ANALYZER_HEAVY_EXTRA) this.spawn();
    const ready = ordinary.filter((w) => w.isReady);
    return (ready.length ? ready : ordinary).reduce((a, b) => (b.inflight.size < a.inflight.size ? b : a));
  }

  /**
   * Marks `w` heavy: every thread of its process gets nice ANALYZER_HEAVY_NICE (Linux; a no-op
   * where /proc or setpriority is unavailable) and new calls go to other processes.
   */
  private makeHeavy(w: Worker): void {
    w.heavy = true;
    // Calls that only share the process with the long one go to an ordinary process.
    const now = Date.now();
    for (const other of [...w.inflight]) if (other.textChars < this.suspectMinChars && (other.sentAt === undefined || now - other.sentAt < ANALYZER_HEAVY_CALL_MS)) {
      this.detach(other)?.cancel();
      this.send(other);
    }
    const pid = w.proc.pid;
    if (!pid) return;
    let tids: string[] = [String(pid)];
    try {
      tids = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      // No /proc: the main thread only.
    }
    for (const tid of tids) {
      try {
        os.setPriority(Number(tid), ANALYZER_HEAVY_NICE);
      } catch {
        // The thread ended meanwhile, or no permission: it keeps its priority.
      }
    }
    this.log.debug({ childPid: pid }, 'analyzer process running a long call: lowered in priority');
  }

  /**
   * A heavy process whose calls all ended: back to ordinary priority where this process may raise
   * it again (root or CAP_SYS_NICE), else retired (a replacement starts when calls need one).
   */
  private settleHeavy(w: Worker): void {
    if (!w.heavy || w.dead || w.inflight.size) return;
    const pid = w.proc.pid;
    try {
      if (!pid) throw new Error('no pid');
      for (const tid of fs.readdirSync(`/proc/${pid}/task`)) os.setPriority(Number(tid), 0);
      w.heavy = false;
    } catch {
      w.close();
      this.workers = this.workers.filter((x) => x !== w);
    }
  }

  private send(p: Pending): void {
    if (p.done) return;
    if (this.stopped) return this.finish(p, BigQueryError.analyzer.stopped());
    const w = this.pick(p.textChars >= this.suspectMinChars);
    const conn = w.connectionFor(p);
    p.worker = w;
    p.conn = conn;
    p.sentAt = undefined;
    w.inflight.add(p);
    conn.inflight.add(p);
    this.watch();
    w.ready.then(
      () => {
        if (p.done || p.worker !== w || w.dead) return;
        p.sentAt = Date.now();
        try {
          const req = w.catalogs.requestFor(p.req, p.catalogRef, w.shared.client);
          p.usedRegistered = req !== p.req;
          if (p.usedRegistered) this.registeredCatalogCalls++;
          p.call = conn.client[p.method].call(conn.client, req, new grpc.Metadata(), { deadline: p.deadlineAt }, (e, res) => this.answered(p, w, conn, e, res));
        } catch (e) {
          // Not a method of the service (a programming error): fails this call, never hangs it.
          this.detach(p);
          this.finish(p, BigQueryError.analyzer.callFailed(p.method, (e as Error).message));
        }
      },
      (e: Error) => {
        if (p.done || p.worker !== w) return;
        this.detach(p);
        this.finish(p, BigQueryError.analyzer.failedToStart(e.message));
      },
    );
  }

  /** Takes `p` off its process and connection (closing a connection of its own); returns its gRPC call. */
  private detach(p: Pending): grpc.ClientUnaryCall | undefined {
    const c = p.call;
    const w = p.worker;
    w?.inflight.delete(p);
    p.conn?.inflight.delete(p);
    if (p.conn && w) w.release(p.conn);
    if (w?.heavy && !w.inflight.size) queueMicrotask(() => this.settleHeavy(w));
    p.worker = undefined;
    p.conn = undefined;
    p.call = undefined;
    return c;
  }

  private answered(p: Pending, w: Worker, conn: Connection, e: grpc.ServiceError | null, res: unknown): void {
    if (p.done || p.worker !== w || p.conn !== conn) return; // abandoned, or resent when its process was replaced
    this.detach(p);
    if (!e) {
      conn.lastAnswer = Date.now();
      return this.finish(p, undefined, res);
    }
    switch (e.code) {
      case grpc.status.DEADLINE_EXCEEDED:
        // The process may still be working on it: restart it (its other calls are resent, uncharged:
        // this call is the culprit).
        this.replace(w, false);
        return this.finish(p, tooComplex());
      case grpc.status.UNAVAILABLE:
      case grpc.status.CANCELLED:
        // The process or its connection went away mid-call.
        this.replace(w);
        return this.lost(p);
      case grpc.status.RESOURCE_EXHAUSTED:
        // Request or answer over ANALYZER_MAX_SEND_BYTES / ANALYZER_MAX_RECEIVE_BYTES — or the
        // analyzer's own answer with this code ("Out of stack space due to deeply nested query
        // expression during query resolution"), which is BigQuery's text: passed on as it is.
        conn.lastAnswer = Date.now();
        if (!/message larger than max/i.test(e.details ?? '')) return this.finish(p, e);
        return this.finish(p, tooComplex());
      case grpc.status.INTERNAL:
        // Client-side (de)serialization: an answer nested deeper than protobufjs decodes.
        conn.lastAnswer = Date.now();
        // An answer too deeply nested to decode is a text nested too deep: BigQuery's out-of-stack
        // answer (https://cloud.google.com/bigquery/docs/troubleshoot-queries#out_of_stack_space).
        if (/^Response message parsing error: (maximum nesting depth exceeded|Maximum call stack size exceeded)/.test(e.details ?? ''))
          return this.finish(p, BigQueryError.outOfStackSpace());
        if (/^(Response message parsing error|Request message serialization failure)/.test(e.details ?? '')) return this.finish(p, tooComplex());
        return this.finish(p, e);
      default:
        conn.lastAnswer = Date.now();
        if (p.usedRegistered && /^Registered catalog \d+ unknown/.test(e.details ?? '')) {
          // Unregistered under it (evicted while it was on its way): sent again with the catalog itself.
          p.catalogRef = undefined;
          return this.send(p);
        }
        return this.finish(p, e); // the analyzer's own answer
    }
  }

  /**
   * A call whose process or connection was lost under it. Charged (`charge`), it is resent once
   * on a connection of its own and fails as the culprit when lost again there; a call too short to
   * be a culprit, or one lost uncharged (it only shared a process with the culprit), is resent
   * again. Every resend is bounded by the call's deadline.
   */
  private lost(p: Pending, charge = true): void {
    if (p.done) return;
    if (Date.now() >= p.deadlineAt) return this.finish(p, tooComplex());
    if (charge && (p.losses === 0 || p.textChars >= this.suspectMinChars)) p.losses++;
    if (p.losses >= 2) return this.finish(p, tooComplex());
    this.send(p);
  }

  /**
   * Kills `w`'s process, drops its channel and resends its calls elsewhere. Calls on the shared
   * connection are charged with the loss (any of them may have stalled it); calls on connections
   * of their own only when `chargeOwn` (the process died: one of them may have crashed it).
   */
  private replace(w: Worker, chargeOwn = true): void {
    if (w.dead) return;
    this.log.warn({ childPid: w.proc.pid ?? w.proc.lastPid, ready: w.isReady, inflight: w.inflight.size, stderrTail: w.proc.stderrTail }, 'analyzer process replaced');
    w.close();
    this.workers = this.workers.filter((x) => x !== w);
    const orphans = [...w.inflight].map((p) => ({ p, own: p.conn?.dedicated === true }));
    for (const { p } of orphans) this.detach(p)?.cancel();
    if (!this.stopped && !this.workers.length) this.spawn();
    for (const { p, own } of orphans) {
      if (w.isReady) this.lost(p, !own || chargeOwn);
      else this.finish(p, BigQueryError.analyzer.didNotStart());
    }
  }

  /** A call given up by its caller (job cancelled): settled now; a long-running one restarts its process. */
  private abandon(p: Pending, err: unknown): void {
    if (p.done) return;
    const w = p.worker;
    const ran = p.sentAt === undefined ? 0 : Date.now() - p.sentAt;
    this.detach(p)?.cancel();
    this.finish(p, err);
    if (w && ran >= ANALYZER_CANCEL_RESTART_AFTER_MS) this.replace(w);
  }

  private finish(p: Pending, err?: unknown, res?: unknown): void {
    if (p.done) return;
    p.done = true;
    p.cleanup?.();
    if (err !== undefined) p.reject(err);
    else p.resolve(res);
  }

  /** Runs the stall watch while calls are in flight. */
  private watch(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => {
      const now = Date.now();
      for (const w of [...this.workers]) {
        if (w.dead || !w.isReady) continue;
        if (!w.heavy) for (const p of w.inflight) if (p.sentAt !== undefined && now - p.sentAt >= ANALYZER_HEAVY_CALL_MS) {
          this.makeHeavy(w);
          break;
        }
        for (const conn of [w.shared, ...w.dedicated]) {
          if (!conn.inflight.size || conn.probing || now - conn.lastAnswer < ANALYZER_STALL_PROBE_AFTER_MS) continue;
          let oldest = Infinity;
          for (const p of conn.inflight) if (p.sentAt !== undefined && p.sentAt < oldest) oldest = p.sentAt;
          if (now - oldest >= ANALYZER_STALL_PROBE_AFTER_MS) this.probe(w, conn);
        }
      }
      if (!this.workers.some((w) => w.inflight.size)) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }, ANALYZER_WATCH_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * Checks that a connection still answers a trivial call. A shared connection that does not gets
   * its process replaced (its calls resent); a resent call's own connection that does not is that
   * call's second loss (it fails alone; the process keeps serving).
   */
  private probe(w: Worker, conn: Connection): void {
    conn.probing = true;
    conn.client.getLanguageOptions({}, new grpc.Metadata(), { deadline: Date.now() + ANALYZER_PROBE_DEADLINE_MS }, (e) => {
      conn.probing = false;
      if (w.dead || conn.closed) return;
      if (!e) {
        conn.lastAnswer = Date.now();
        return;
      }
      // The shared connection stalled (its calls are charged), not the calls on their own ones.
      if (!conn.dedicated) return this.replace(w, false);
      for (const p of [...conn.inflight]) {
        this.detach(p)?.cancel();
        this.lost(p);
      }
      w.release(conn);
    });
  }
}

/** Characters of SQL in an analyzer request (its statement, whole resumable input or query). */
function textCharsOf(req: object): number {
  const r = req as { sqlStatement?: unknown; sql?: unknown; parseResumeLocation?: { input?: unknown } };
  const text = r.sqlStatement ?? r.sql ?? r.parseResumeLocation?.input;
  return typeof text === 'string' ? text.length : 0;
}
