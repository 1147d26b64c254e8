/**
 * Off-main-thread decoding of large AppendRows proto requests: the rows of a serialized `ProtoRows`
 * are decoded into columns (src/wire/write-rows-columnar.ts) in one worker thread
 * (write-rows-worker.ts), so that the emulator's main thread only appends them to DuckDB — per 1M
 * rows of (INT64, FLOAT64, STRING) about 0.4 s of protobuf decoding and its garbage collection
 * leave the event loop, and a connection's next request decodes there while the one before
 * commits here. Strings come back as one UTF-8 buffer per column with DuckDB's string cells
 * (src/wire/write-rows-cells.ts), appended as bytes: no JS string per value on the main thread.
 *
 * Any failure (a row the columnar path cannot decode exactly, a worker that stopped) answers
 * `undefined`: the caller decodes on the main thread, which gives the same rows or the row errors.
 */
import { Worker } from 'node:worker_threads';
import { workerScript } from '../config/worker-script.js';
import type { Column } from '../types/schema.js';
import { cellsColumn, type WriteColumnBatch, type WriteColumnValues } from './write-rows-columnar.js';
import type { OffThreadColumn, OffThreadRequest } from './write-rows-worker.js';
import type { WriteRowOptions } from './write-rows.js';

/** Requests whose ProtoRows are smaller than this (bytes) are decoded on the main thread (the worker's round trip costs ~0.1 ms). */
export const OFF_THREAD_MIN_BYTES = 8 * 1024;

type Answer = { id: number; length?: number; columns?: OffThreadColumn[] };

let worker: Worker | undefined;
let nextId = 1;
const waiting = new Map<number, (b: WriteColumnBatch | undefined) => void>();

function failAll(): void {
  for (const w of waiting.values()) w(undefined);
  waiting.clear();
}

function decoder(): Worker {
  if (worker) return worker;
  const { script, evalCode } = workerScript(import.meta.url, 'write-rows-worker');
  const w = new Worker(script, { eval: evalCode });
  w.unref();
  w.on('message', (m: Answer) => {
    const done = waiting.get(m.id);
    if (!done) return;
    waiting.delete(m.id);
    if (!waiting.size) w.unref();
    let batch: WriteColumnBatch | undefined;
    try {
      batch = m.columns ? { columnar: true, length: m.length!, columns: m.columns.map(unpack) } : undefined;
    } catch {
      batch = undefined;
    }
    done(batch);
  });
  w.on('error', () => failAll());
  w.on('exit', () => {
    if (worker === w) worker = undefined;
    failAll();
  });
  worker = w;
  return w;
}

/** A posted column as the columnar batch holds it (STRING: its cells, decoded to strings only if read). */
const unpack = (c: OffThreadColumn): WriteColumnValues => (c.kind === 'STRING' ? cellsColumn(c.cells) : c);

/**
 * Decodes the serialized ProtoRows `protoRows` of a request in the worker, for the writer schema
 * `descriptor` (the DescriptorProto object) on `columns`; `key` identifies that pair. Resolves
 * with the columns, or `undefined` when the main thread must decode the request.
 */
export function decodeProtoRowsOffThread(key: string, descriptor: unknown, columns: Column[], options: WriteRowOptions, protoRows: Uint8Array): Promise<WriteColumnBatch | undefined> {
  return new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    // A copy the worker owns (the request's bytes are a view of gRPC's buffer).
    const rows = new Uint8Array(protoRows);
    const msg: OffThreadRequest = { id, key, descriptor, columns, options, rows };
    try {
      const w = decoder();
      w.ref();
      w.postMessage(msg, [rows.buffer]);
    } catch {
      waiting.delete(id);
      resolve(undefined);
    }
  });
}
