/**
 * A JavaScript UDF worker thread (started by src/functions/js-udf-pool.ts). It owns one QuickJS
 * sandbox (src/functions/js-udf-sandbox.ts) and answers one batch at a time: a job arrives on the
 * message port from `workerData.port`; the answer is posted back on that port and then announced
 * through `workerData.done` (an Int32Array on a SharedArrayBuffer set to 1 and notified), so the
 * main thread can take it synchronously with `receiveMessageOnPort` after `Atomics.wait`, and
 * through a `'done'` message on the parent port, which wakes the main thread's event loop
 * (`Atomics.waitAsync` neither keeps the loop alive nor wakes it promptly in Node 20). After an
 * answer that hit a limit the pool terminates this worker.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { JsUdfSandbox, type SandboxResult, type SandboxUdf } from './js-udf-sandbox.js';

/** A batch for the worker. */
export interface WorkerJob {
  udf: SandboxUdf;
  rows: string[];
  timeoutMs: number;
  memoryBytes: number;
}

/** The data a worker is started with. */
export interface WorkerStart {
  port: MessagePort;
  done: Int32Array;
  stackBytes: number;
}

const { port, done, stackBytes } = workerData as WorkerStart;
const sandbox = JsUdfSandbox.create(stackBytes);

port.on('message', (job: WorkerJob) => {
  void sandbox.then(
    (s) => s.run(job.udf, job.rows, job.timeoutMs, job.memoryBytes),
    (): SandboxResult => ({ limit: 'memory' }),
  ).then((result) => {
    port.postMessage(result);
    Atomics.store(done, 0, 1);
    Atomics.notify(done, 0);
    // Wakes the pool's event loop when nobody waits synchronously.
    parentPort?.postMessage('done');
  });
});
