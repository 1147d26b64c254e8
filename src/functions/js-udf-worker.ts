/**
 * A JavaScript UDF worker thread (started by src/functions/js-udf-pool.ts). It owns one QuickJS
 * sandbox (src/functions/js-udf-sandbox.ts) and answers one batch at a time: a job arrives on the
 * message port from `workerData.port`; the answer is posted back on that port and then announced
 * through `workerData.done` (an Int32Array on a SharedArrayBuffer set to 1 and notified), so the
 * main thread can take it synchronously with `receiveMessageOnPort` after `Atomics.wait`, and
 * through a `'done'` message on the parent port, which wakes the main thread's event loop
 * (`Atomics.waitAsync` neither keeps the loop alive nor wakes it promptly in Node 20). A `'ready'`
 * message tells the pool the worker has started. After an answer that hit a limit the pool
 * terminates this worker.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { JsUdfSandbox, type SandboxResult, type SandboxUdf } from './js-udf-sandbox.js';
import { lowerWorkerThreadPriority } from '../config/limits.js';

// Below the main thread and the analyzer (src/config/limits.ts WORKER_THREAD_NICE).
lowerWorkerThreadPriority();

/** Batches of a trivial UDF run before the worker takes work. */
const WARM_UP_BATCHES = 10;

/** A batch for the worker. */
export interface WorkerJob {
  udf: SandboxUdf;
  rows: string[];
  timeoutMs: number;
}

/** The data a worker is started with. */
export interface WorkerStart {
  port: MessagePort;
  done: Int32Array;
  memoryBytes: number;
  stackBytes: number;
}

const { port, done, memoryBytes, stackBytes } = workerData as WorkerStart;
const sandbox = JsUdfSandbox.create(memoryBytes, stackBytes).then((s) => {
  // Warm-up: V8 first runs the interpreter's WebAssembly unoptimised; a few batches of a trivial
  // UDF get it optimised before the first real batch (measured on the 2-core machine: the first
  // 100k-row query after start 4.5 s without warm-up, 2.5 s with it; warm runs ≈ 0.4 s).
  const warm: SandboxUdf = { id: -1, name: 'warm_up', argNames: ['x'], argTypes: [{ kind: 'INT64' }], returnType: { kind: 'INT64' }, code: 'return x + 1;' };
  const rows = Array.from({ length: 2048 }, (_, i) => `[${i}]`);
  for (let i = 0; i < WARM_UP_BATCHES; i++) s.run(warm, rows, 10_000);
  parentPort?.postMessage('ready');
  return s;
});

port.on('message', (job: WorkerJob) => {
  void sandbox.then(
    (s) => s.run(job.udf, job.rows, job.timeoutMs),
    (): SandboxResult => ({ limit: 'memory' }),
  ).then((result) => {
    port.postMessage(result);
    Atomics.store(done, 0, 1);
    Atomics.notify(done, 0);
    // Wakes the pool's event loop when nobody waits synchronously.
    parentPort?.postMessage('done');
  });
});
