/**
 * Worker thread of write-rows-offthread.ts: decodes the rows of large AppendRows requests — proto
 * rows (a serialized `ProtoRows` message) or an Arrow record batch — into columns with
 * src/wire/write-proto-columns.ts and src/wire/write-arrow-columns.ts, off the emulator's main
 * thread, and posts them back as transferable buffers (strings as one UTF-8 buffer and offsets
 * per column, with their DuckDB string cells: src/wire/write-rows-cells.ts).
 *
 * Messages in: `{ id, format, key, descriptor, columns, options, rows }` (`descriptor`: the proto
 * DescriptorProto object, or the Arrow IPC schema message's bytes; `key` identifies the writer
 * schema and columns: the decoder is built once per key). Messages out: `{ id, length, columns,
 * rows }` ({@link OffThreadColumn} each), or `{ id, rows }` when the request needs the main thread's
 * row path; `rows` hands the request's buffer back for reuse (write-rows-offthread.ts). Also in:
 * `{ release }`, the buffers of an answer the main thread is done with (dropped here).
 */
import { parentPort } from 'node:worker_threads';
import { lowerWorkerThreadPriority } from '../config/limits.js';
import type { Column } from '../types/schema.js';
import type { ColumnarWriteDecoder, WriteColumnBatch } from './write-rows-columnar.js';
import { columnarProtoDecoder } from './write-proto-columns.js';
import { columnarArrowDecoder } from './write-arrow-columns.js';
import { arrowRowDecoder } from './write-arrow-rows.js';
import { protoRowDecoder, type WriteRowOptions } from './write-rows.js';
import { stringCellsOf, type StringCells } from './write-rows-cells.js';

/** One decoded column as posted: numeric columns as they are, STRING as UTF-8 bytes and offsets. */
export type OffThreadColumn =
  | Exclude<WriteColumnBatch['columns'][number], { kind: 'STRING' }>
  | { kind: 'STRING'; cells: StringCells };

/** An answer of the worker: the columns (absent: the main thread decodes), and the request's buffer back. */
export interface OffThreadAnswer {
  id: number;
  length?: number;
  columns?: OffThreadColumn[];
  rows?: ArrayBuffer;
}

/**
 * Buffers of a decoded batch the main thread is done with (appended and answered), handed back so
 * that their memory is released by this thread's heap instead of the main thread's
 * (write-rows-offthread.ts releaseOffThreadBatch).
 */
export interface OffThreadRelease {
  release: ArrayBuffer[];
}

/** A request to the worker. */
export interface OffThreadRequest {
  id: number;
  /** `proto`: `rows` is a serialized ProtoRows; `arrow`: an Arrow record batch message. */
  format: 'proto' | 'arrow';
  key: string;
  descriptor: unknown;
  columns: Column[];
  options: WriteRowOptions;
  rows: Uint8Array;
}

// Below the main thread and the analyzer (src/config/limits.ts WORKER_THREAD_NICE).
lowerWorkerThreadPriority();

const decoders = new Map<string, ColumnarWriteDecoder | null>();

/** The columnar decoder of a key (null when the request shape has none). */
function decoderOf(m: OffThreadRequest): ColumnarWriteDecoder | null {
  let d = decoders.get(m.key);
  if (d === undefined) {
    if (m.format === 'arrow') {
      const schema = m.descriptor as Uint8Array;
      d = columnarArrowDecoder(schema, arrowRowDecoder(schema, m.columns).arrowSchema, m.columns) ?? null;
    } else {
      const rows = protoRowDecoder(m.descriptor, m.columns);
      d = (rows.protoType && columnarProtoDecoder(rows.protoType, m.columns)) ?? null;
    }
    if (decoders.size > 64) decoders.clear();
    decoders.set(m.key, d);
  }
  return d;
}

parentPort!.on('message', (m: OffThreadRequest | OffThreadRelease) => {
  // Released buffers are dropped here: this thread's small heap frees them.
  if ('release' in m) return;
  void (async () => {
    // The request's buffer goes back with the answer (its decoded values are copies of its bytes).
    const back = m.rows.buffer as ArrayBuffer;
    try {
      const d = decoderOf(m);
      const batch = m.format === 'arrow' ? await d?.decode([m.rows], m.options) : await d?.decodeProtoRows?.(m.rows, m.options);
      if (!batch) return parentPort!.postMessage({ id: m.id, rows: back } satisfies OffThreadAnswer, [back]);
      const columns = batch.columns.map((c): OffThreadColumn => (c.kind === 'STRING' ? { kind: 'STRING', cells: c.cells ?? stringCellsOf(c.values) } : c));
      const transfer = new Set<ArrayBuffer>([back]);
      for (const c of columns) {
        if (c.kind === 'STRING') for (const a of [c.cells.bytes, c.cells.offsets, c.cells.valid, c.cells.inline, c.cells.long]) transfer.add(a.buffer as ArrayBuffer);
        else {
          transfer.add(c.values.buffer as ArrayBuffer);
          if (c.valid) transfer.add(c.valid.buffer as ArrayBuffer);
        }
      }
      parentPort!.postMessage({ id: m.id, length: batch.length, columns, rows: back } satisfies OffThreadAnswer, [...transfer]);
    } catch {
      // The main thread decodes it (and answers the row errors or schema errors it finds).
      parentPort!.postMessage({ id: m.id, rows: back } satisfies OffThreadAnswer, [back]);
    }
  })();
});
