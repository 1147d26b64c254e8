/**
 * The pool of JavaScript UDF worker threads (src/functions/js-udf-worker.ts): user JavaScript never
 * runs on the main thread, so a runaway UDF cannot stall other clients.
 *
 * A batch is posted to an idle worker; the caller (a DuckDB scalar-function callback, which must
 * answer synchronously) may wait a short bounded slice with `Atomics.wait` for the answer. A batch
 * still running after the slice is awaited through the worker's `done` message (event loop free). A worker
 * that has not answered by the time limit plus a grace period is terminated and replaced, and its
 * batch answers `{limit: 'timeout'}`; a worker that hit a limit is replaced too, so its heap is
 * freed. Batches beyond the pool size wait in a queue.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { JS_UDF_KILL_GRACE_MS, JS_UDF_STACK_BYTES, jsUdfMemoryBytes } from '../config/limits.js';
import type { SandboxResult, SandboxUdf } from './js-udf-signature.js';
import type { WorkerJob, WorkerStart } from './js-udf-worker.js';
import { workerScript } from '../config/worker-script.js';

/** One batch of calls: settled synchronously (`result`) or later (`settled`). */
export class JsUdfBatch {
  result?: SandboxResult;
  readonly settled: Promise<SandboxResult>;
  private resolve!: (r: SandboxResult) => void;
  constructor(readonly job: WorkerJob) {
    this.settled = new Promise((r) => (this.resolve = r));
  }
  settle(r: SandboxResult): void {
    if (this.result) return;
    this.result = r;
    this.resolve(r);
  }
}

interface Slot {
  worker: Worker;
  port: MessagePort;
  done: Int32Array;
  busy?: JsUdfBatch;
  /** The hard-limit timer of the batch being watched. */
  timer?: NodeJS.Timeout;
  /** The worker has started (until then a batch waits in its port and nobody waits for it synchronously). */
  ready?: boolean;
}

/** Consecutive worker deaths without an answer after which the pool stops replacing workers. */
const MAX_DEATHS = 5;

/** Workers in the pool: one per core, at least 2 (one runaway UDF never holds them all). */
const POOL_SIZE = Math.max(2, Math.min(4, availableParallelism()));

export class JsUdfPool {
  private readonly slots: Slot[] = [];
  private readonly queue: JsUdfBatch[] = [];
  private closed = false;
  /** Workers that died without answering since the last answer, and the last worker error. */
  private deaths = 0;
  private lastError = '';
  private brokenText(): string {
    return `Internal error: JavaScript UDF workers cannot start${this.lastError ? `: ${this.lastError}` : ''}`;
  }

  constructor(private readonly size = POOL_SIZE) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const { script, evalCode } = workerScript(import.meta.url, 'js-udf-worker');
    const { port1, port2 } = new MessageChannel();
    const done = new Int32Array(new SharedArrayBuffer(4));
    const start: WorkerStart = { port: port2, done, memoryBytes: jsUdfMemoryBytes(), stackBytes: JS_UDF_STACK_BYTES };
    const worker = new Worker(script, {
      eval: evalCode,
      workerData: start,
      transferList: [port2],
      // The V8 heap of the worker holds only batches in transit (QuickJS's heap is WebAssembly
      // memory, capped by the sandbox); a deep QuickJS stack needs more than V8's default stack.
      resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 8 },
    });
    worker.unref();
    const slot: Slot = { worker, port: port1, done };
    // The worker's 'done' wakes this loop; a stale one (its answer was taken synchronously) finds
    // the flag of the next batch still 0.
    worker.on('message', (m) => {
      if (m === 'ready') slot.ready = true;
      else if (slot.busy && Atomics.load(slot.done, 0) === 1) this.finish(slot);
    });
    // A worker that dies (its V8 heap exhausted) fails its batch and is replaced; workers that
    // cannot start at all (a broken install) stop being replaced after a few tries.
    worker.on('error', (e) => (this.lastError = e instanceof Error ? e.message : String(e)));
    worker.on('exit', () => {
      const b = slot.busy;
      const i = this.slots.indexOf(slot);
      if (i < 0 || this.closed) return;
      slot.busy = undefined;
      clearTimeout(slot.timer);
      b?.settle({ limit: 'memory' });
      if (++this.deaths > MAX_DEATHS) {
        this.slots.splice(i, 1);
        for (const q of this.queue.splice(0)) q.settle({ error: this.brokenText() });
        return;
      }
      this.slots[i] = this.spawn();
      this.next(this.slots[i]);
    });
    return slot;
  }

  /**
   * Runs a batch. With `waitMs` > 0 and an idle worker, waits up to `waitMs` on this thread; the
   * batch's `result` is set when it finished in that time. `blocking` waits for the whole time limit
   * (starting an extra worker when every worker is busy).
   */
  submit(udf: SandboxUdf, rows: string[], timeoutMs: number, waitMs: number, blocking = false): JsUdfBatch {
    const batch = new JsUdfBatch({ udf, rows, timeoutMs });
    if (!this.slots.length && !this.closed) {
      batch.settle({ error: this.brokenText() });
      return batch;
    }
    let slot = this.slots.find((s) => !s.busy);
    if (!slot && blocking) {
      slot = this.spawn();
      this.slots.push(slot);
    }
    if (!slot) {
      this.queue.push(batch);
      return batch;
    }
    this.dispatch(slot, batch);
    // A starting worker (up to ~1 s) is not waited for: the batch goes straight to the retry path.
    const wait = blocking ? timeoutMs + JS_UDF_KILL_GRACE_MS : slot.ready ? waitMs : 0;
    if (wait > 0) {
      Atomics.wait(slot.done, 0, 0, wait);
      if (Atomics.load(slot.done, 0) === 1) this.finish(slot);
      else if (blocking) this.kill(slot);
    }
    if (!batch.result) this.watch(slot, batch);
    return batch;
  }

  private dispatch(slot: Slot, batch: JsUdfBatch): void {
    slot.busy = batch;
    Atomics.store(slot.done, 0, 0);
    slot.port.postMessage(batch.job);
  }

  /** Awaits the worker's answer off the event loop (its 'done' message); terminates the worker at the hard limit. */
  private watch(slot: Slot, batch: JsUdfBatch): void {
    slot.timer = setTimeout(() => {
      if (slot.busy !== batch) return;
      if (Atomics.load(slot.done, 0) === 1) this.finish(slot);
      else this.kill(slot);
    }, batch.job.timeoutMs + JS_UDF_KILL_GRACE_MS);
  }

  /** Takes the worker's answer; a worker that hit a limit is replaced. */
  private finish(slot: Slot): void {
    const b = slot.busy;
    const msg = receiveMessageOnPort(slot.port)?.message as SandboxResult | undefined;
    slot.busy = undefined;
    clearTimeout(slot.timer);
    const r = msg ?? { limit: 'memory' };
    this.deaths = 0;
    // A worker that hit a limit is replaced; an extra worker (see submit) retires when idle.
    if ('limit' in r || this.slots.length > this.size) this.replace(slot);
    else this.next(slot);
    b?.settle(r);
  }

  /** Terminates a worker that ran past the hard limit; its batch answers `timeout`. */
  private kill(slot: Slot): void {
    const b = slot.busy;
    slot.busy = undefined;
    clearTimeout(slot.timer);
    this.replace(slot);
    b?.settle({ limit: 'timeout' });
  }

  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
    slot.port.close();
    if (this.closed) return;
    // Extra workers started for blocking waits are not replaced.
    if (this.slots.length < this.size) {
      const fresh = this.spawn();
      this.slots.push(fresh);
      this.next(fresh);
    }
  }

  private next(slot: Slot): void {
    const b = this.queue.shift();
    if (!b) return;
    this.dispatch(slot, b);
    this.watch(slot, b);
  }

  /** Stops a batch nobody waits for any more (its job was cancelled): dequeued, or its worker replaced. */
  abandon(batch: JsUdfBatch): void {
    if (batch.result) return;
    const q = this.queue.indexOf(batch);
    if (q >= 0) this.queue.splice(q, 1);
    const slot = this.slots.find((s) => s.busy === batch);
    if (slot) this.kill(slot);
    else batch.settle({ limit: 'timeout' });
  }

  /** Terminates every worker (batches still running answer `timeout`). */
  close(): void {
    this.closed = true;
    for (const s of this.slots) {
      s.worker.removeAllListeners('exit');
      void s.worker.terminate();
      s.busy?.settle({ limit: 'timeout' });
    }
    for (const b of this.queue.splice(0)) b.settle({ limit: 'timeout' });
    this.slots.length = 0;
  }
}
