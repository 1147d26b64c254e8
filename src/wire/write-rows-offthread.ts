/**
 * Off-main-thread decoding of large AppendRows requests: the rows of a serialized `ProtoRows`, or
 * an Arrow record batch, are decoded into columns (src/wire/write-rows-columnar.ts) in worker threads
 * (write-rows-worker.ts), so that the emulator's main thread only appends them to DuckDB — per 1M
 * rows of (INT64, FLOAT64, STRING) about 0.4 s of protobuf decoding and its garbage collection
 * leave the event loop, and a connection's next requests decode there while the one before
 * commits here. Strings come back as one UTF-8 buffer per column with DuckDB's string cells
 * (src/wire/write-rows-cells.ts), appended as bytes: no JS string per value on the main thread.
 *
 * Up to DECODE_WORKERS workers: a request goes to the worker with the fewest requests in hand, a
 * second worker starting only when the first is busy — so, with several requests in flight, one
 * decodes while another does (the caller keeps the answers in request order,
 * src/server/grpc/append-rows.ts). The bytes a request is copied into for its worker come back
 * with the answer and are reused for a later request (SPARE_BUFFERS of them at most): a 1M-row
 * write does not allocate a fresh copy of every request. A decoded batch's own buffers go back to a
 * worker once its request is answered (releaseOffThreadBatch), so their memory is freed by a
 * worker's small heap rather than counted towards a full collection of the main thread's.
 *
 * Any failure (a row the columnar path cannot decode exactly, a worker that stopped) answers
 * `undefined`: the caller decodes on the main thread, which gives the same rows or the row errors.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerScript } from '../config/worker-script.js';
import type { Column } from '../types/schema.js';
import { cellsColumn, type WriteColumnBatch, type WriteColumnValues } from './write-rows-columnar.js';
import type { OffThreadAnswer, OffThreadColumn, OffThreadRelease, OffThreadRequest } from './write-rows-worker.js';
import type { WriteRowOptions } from './write-rows.js';

/** Requests whose ProtoRows or record batch are smaller than this (bytes) are decoded on the main thread (the worker's round trip costs ~0.1 ms). */
export const OFF_THREAD_MIN_BYTES = 8 * 1024;

/** Decoding workers at most: two where the machine has two cores or more (the main thread appends meanwhile). */
export const DECODE_WORKERS = Math.min(2, Math.max(1, os.availableParallelism()));

/** Request copies kept for reuse, and the largest kept (bytes): at most 4 × 2 MB held between writes. */
const SPARE_BUFFERS = 4;
const SPARE_MAX_BYTES = 2 * 1024 * 1024;
/** Copies are allocated in multiples of this (bytes), so requests of similar sizes reuse each other's. */
const BUFFER_GRAIN = 64 * 1024;

/** One decoding worker and the requests it has in hand. */
interface DecodeWorker {
  w: Worker;
  waiting: Map<number, (b: WriteColumnBatch | undefined) => void>;
}

const workers: (DecodeWorker | undefined)[] = [];
/** The buffers of each batch a worker decoded (its own: none is a view of a gRPC buffer), for {@link releaseOffThreadBatch}. */
const owned = new WeakMap<WriteColumnBatch, ArrayBuffer[]>();
const spare: ArrayBuffer[] = [];
let nextId = 1;
let decodedCount = 0;
let releasedCount = 0;

/** Reports a pool's state (a test seam): workers running, request copies kept for reuse, requests decoded there and released. */
export const offThreadDecoders = {
  /** Requests the workers answered with columns (since the process started). */
  get decoded(): number {
    return decodedCount;
  },
  /** Decoded batches whose buffers went back to a worker ({@link releaseOffThreadBatch}). */
  get released(): number {
    return releasedCount;
  },
  get running(): number {
    return workers.filter(Boolean).length;
  },
  get spareBuffers(): number {
    return spare.length;
  },
};

/** Keeps a request copy the worker handed back, for a later request. */
function keepSpare(b: ArrayBuffer | undefined): void {
  if (b && b.byteLength <= SPARE_MAX_BYTES && spare.length < SPARE_BUFFERS) spare.push(b);
}

/** A buffer of at least `n` bytes: a spare one when one is large enough, else a new one. */
function bufferFor(n: number): ArrayBuffer {
  let best = -1;
  for (let i = 0; i < spare.length; i++) if (spare[i]!.byteLength >= n && (best < 0 || spare[i]!.byteLength < spare[best]!.byteLength)) best = i;
  if (best >= 0) return spare.splice(best, 1)[0]!;
  return new ArrayBuffer(Math.ceil(n / BUFFER_GRAIN) * BUFFER_GRAIN);
}

/** Starts worker `slot`. */
function start(slot: number): DecodeWorker {
  const { script, evalCode } = workerScript(import.meta.url, 'write-rows-worker');
  const w = new Worker(script, { eval: evalCode });
  const d: DecodeWorker = { w, waiting: new Map() };
  const failAll = () => {
    for (const done of d.waiting.values()) done(undefined);
    d.waiting.clear();
  };
  w.unref();
  w.on('message', (m: OffThreadAnswer) => {
    keepSpare(m.rows);
    const done = d.waiting.get(m.id);
    if (!done) return;
    d.waiting.delete(m.id);
    if (!d.waiting.size) w.unref();
    let batch: WriteColumnBatch | undefined;
    try {
      batch = m.columns ? { columnar: true, length: m.length!, columns: m.columns.map(unpack) } : undefined;
    } catch {
      batch = undefined;
    }
    if (batch) {
      decodedCount++;
      owned.set(batch, buffersOf(m.columns!));
    }
    done(batch);
  });
  w.on('error', failAll);
  w.on('exit', () => {
    if (workers[slot] === d) workers[slot] = undefined;
    failAll();
  });
  workers[slot] = d;
  return d;
}

/** The worker for the next request: an idle one, else a new one while fewer than DECODE_WORKERS run, else the least busy. */
function pick(): DecodeWorker {
  let best: DecodeWorker | undefined;
  let free = -1;
  for (let i = 0; i < DECODE_WORKERS; i++) {
    const d = workers[i];
    if (!d) {
      if (free < 0) free = i;
      continue;
    }
    if (!best || d.waiting.size < best.waiting.size) best = d;
  }
  if (best && (best.waiting.size === 0 || free < 0)) return best;
  return start(free);
}

/** The distinct buffers of posted columns. */
function buffersOf(columns: OffThreadColumn[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const c of columns) {
    if (c.kind === 'STRING') for (const a of [c.cells.bytes, c.cells.offsets, c.cells.valid, c.cells.inline, c.cells.long]) out.add(a.buffer as ArrayBuffer);
    else {
      out.add(c.values.buffer as ArrayBuffer);
      if (c.valid) out.add(c.valid.buffer as ArrayBuffer);
    }
  }
  return [...out];
}

/**
 * Hands the buffers of `batch` back to a decoding worker when a worker decoded it (else does
 * nothing): call once the batch is appended and answered, as nothing may read it afterwards (its
 * arrays are then empty). Their memory is then freed by the worker's heap, whose garbage
 * collection is cheap, instead of counting towards the main thread's: per 1M rows of (INT64,
 * FLOAT64, STRING) about 45 MB of decoded columns, which otherwise bring on a full collection of
 * the main heap (bench --only write, perf: ConcurrentMarking, Sweeper).
 */
export function releaseOffThreadBatch(batch: unknown): void {
  const buffers = owned.get(batch as WriteColumnBatch);
  if (!buffers) return;
  owned.delete(batch as WriteColumnBatch);
  const d = workers.find(Boolean);
  if (!d) return;
  try {
    d.w.postMessage({ release: buffers } satisfies OffThreadRelease, buffers);
    releasedCount++;
  } catch {
    // A worker that stopped: the buffers stay with the main thread's heap.
  }
}

/** A posted column as the columnar batch holds it (STRING: its cells, decoded to strings only if read). */
const unpack = (c: OffThreadColumn): WriteColumnValues => (c.kind === 'STRING' ? cellsColumn(c.cells) : c);

/**
 * Decodes the serialized ProtoRows `protoRows` of a request in a worker, for the writer schema
 * `descriptor` (the DescriptorProto object) on `columns`; `key` identifies that pair. Resolves
 * with the columns, or `undefined` when the main thread must decode the request.
 */
export function decodeProtoRowsOffThread(key: string, descriptor: unknown, columns: Column[], options: WriteRowOptions, protoRows: Uint8Array): Promise<WriteColumnBatch | undefined> {
  return decodeOffThread('proto', key, descriptor, columns, options, protoRows);
}

/**
 * Decodes the Arrow record batch `serializedRecordBatch` of a request in a worker, for the writer
 * schema `serializedSchema` (the IPC schema message) on `columns`; `key` identifies that pair.
 * Resolves with the columns, or `undefined` when the main thread must decode the request.
 */
export function decodeArrowRowsOffThread(key: string, serializedSchema: Uint8Array, columns: Column[], options: WriteRowOptions, serializedRecordBatch: Uint8Array): Promise<WriteColumnBatch | undefined> {
  return decodeOffThread('arrow', key, serializedSchema, columns, options, serializedRecordBatch);
}

/** Decodes one request's rows (`format`) in a worker (see the two callers). */
function decodeOffThread(format: OffThreadRequest['format'], key: string, descriptor: unknown, columns: Column[], options: WriteRowOptions, protoRows: Uint8Array): Promise<WriteColumnBatch | undefined> {
  return new Promise((resolve) => {
    const id = nextId++;
    // A copy the worker owns (the request's bytes are a view of gRPC's buffer), in a reused buffer.
    const buffer = bufferFor(protoRows.length);
    const rows = new Uint8Array(buffer, 0, protoRows.length);
    rows.set(protoRows);
    const msg: OffThreadRequest = { id, format, key, descriptor, columns, options, rows };
    let d: DecodeWorker | undefined;
    try {
      d = pick();
      d.waiting.set(id, resolve);
      d.w.ref();
      d.w.postMessage(msg, [buffer]);
    } catch {
      d?.waiting.delete(id);
      resolve(undefined);
    }
  });
}
