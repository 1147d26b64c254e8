/**
 * One AppendRows connection (BigQueryWrite.AppendRows, bidirectional streaming; storage.proto
 * AppendRowsRequest/AppendRowsResponse):
 *
 * - the first request names `writeStream` and carries `protoRows.writerSchema.protoDescriptor`;
 *   later requests may omit both, and a new writer schema replaces the previous one;
 * - rows are decoded by src/wire/write-rows.ts in slices (the event loop is never held long) and
 *   appended by the engine (src/engine/storage-write.ts), which answers once they are committed;
 * - one response per request, in request order; an error of one request (offset already written
 *   or beyond the end, finalized stream, rows that do not fit: `rowErrors`) is that response's
 *   `error` (google.rpc.Status) and the connection goes on, as storage.proto documents
 *   AppendRowsResponse.error; a connection-level fault (unknown stream, no writer schema) ends
 *   the call with its status;
 * - backpressure: past MAX_QUEUED_REQUESTS requests read and not yet answered, the call stops
 *   reading (HTTP/2 flow control then holds the writer), so a fast writer never makes the server
 *   buffer without bound;
 * - `updatedSchema` once, on the first response after the table's schema changed (storage.proto
 *   AppendRowsResponse.updated_schema; the managed writers rebuild their descriptor from it).
 */
import type * as grpc from '@grpc/grpc-js';
import type { Logger } from '../../config/logger.js';
import { BigQueryError, grpcCodeOf } from '../../errors/errors.js';
import type { Column } from '../../types/schema.js';
import { arrowRowDecoder } from '../../wire/write-arrow-rows.js';
import { protoRowDecoder, type DecodedWriteRows, type MissingValueInterpretation, type WriteRowDecoder, type WriteRowOptions } from '../../wire/write-rows.js';
import type { WriteStreams, WriteTarget } from '../../engine/storage-write.js';
import { storageTableSchema } from './write-schema.js';
import { writeStatusOf } from './write-status.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- proto-loader messages are untyped plain objects
type Msg = Record<string, any>;

/** Requests read and not yet answered before the connection stops reading. */
export const MAX_QUEUED_REQUESTS = 4;

/** Rows decoded between two yields to the event loop. */
export const DECODE_SLICE_ROWS = 4_096;

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/** A cheap identity of a column list (names and types), for schema-change detection. */
const columnsKey = (columns: readonly Column[]) => JSON.stringify(columns.map((c) => [c.name, c.type, c.required]));

/**
 * Decodes `serialized` in slices of DECODE_SLICE_ROWS rows with a yield between slices; row
 * error indexes count from the request's first row.
 */
async function decodeSliced(decoder: WriteRowDecoder, serialized: Uint8Array[], opts: WriteRowOptions): Promise<DecodedWriteRows> {
  if (serialized.length <= DECODE_SLICE_ROWS) return serialized.length === 1 ? decoder.decodeAsync(serialized, opts) : decoder.decode(serialized, opts);
  const out: DecodedWriteRows = { rows: [], rowErrors: [] };
  for (let i = 0; i < serialized.length; i += DECODE_SLICE_ROWS) {
    if (i) await yieldToLoop();
    const r = decoder.decode(serialized.slice(i, i + DECODE_SLICE_ROWS), opts);
    for (const row of r.rows) out.rows.push(row);
    for (const e of r.rowErrors) out.rowErrors.push({ ...e, index: e.index + i });
  }
  return out;
}

/** The decoding options of a request (`missingValueInterpretations` keys lower-cased). */
function rowOptionsOf(req: Msg): WriteRowOptions {
  const map: Record<string, MissingValueInterpretation> = {};
  for (const [k, v] of Object.entries((req.missingValueInterpretations ?? {}) as Record<string, MissingValueInterpretation>)) map[k.toLowerCase()] = v;
  return { missingValueInterpretations: map, defaultMissingValueInterpretation: req.defaultMissingValueInterpretation ?? 'MISSING_VALUE_INTERPRETATION_UNSPECIFIED' };
}

/** The `error` of a response: a google.rpc.Status of a BigQueryError. */
const rpcStatusOf = (e: BigQueryError) => ({ code: grpcCodeOf(e), message: e.message, details: [] });

/** Serves one AppendRows call until the client half-closes it, or a connection-level error ends it. */
export function appendRowsConnection(streams: WriteStreams, call: grpc.ServerDuplexStream<Msg, Msg>, log: Logger): void {
  const queue: Msg[] = [];
  let running = false;
  let ended = false;
  let closed = false;
  let target: WriteTarget | undefined;
  let descriptor: { key: string; value: unknown } | undefined;
  let decoder: { key: string; decoder: WriteRowDecoder } | undefined;
  // The table schema this connection's writer knows, and the columns array it was read from.
  let known: { ref: readonly Column[]; key: string } | undefined;

  const fail = (e: unknown) => {
    if (closed) return;
    closed = true;
    call.emit('error', writeStatusOf(e, log));
  };

  /** The response to one request; throws a BigQueryError that ends the connection. */
  const handle = async (req: Msg): Promise<Msg> => {
    const name = String(req.writeStream ?? '') || target?.name;
    if (!name) throw BigQueryError.invalidWriteRequest('The first AppendRows request of a connection must name write_stream');
    target = streams.resolve(name);
    const out: Msg = { writeStream: target.name };
    const columns = streams.columnsOf(target);
    const liveColumns = target.table.columns;
    if (!known) known = { ref: liveColumns, key: columnsKey(liveColumns) };
    else if (known.ref !== liveColumns) {
      const key = columnsKey(liveColumns);
      if (key !== known.key) out.updatedSchema = storageTableSchema(liveColumns);
      known = { ref: liveColumns, key };
    }
    // Arrow rows (arrow_rows: an IPC schema, then record batches) or proto rows; the writer schema
    // of the connection is the last one sent, its decoder built once per (schema, columns).
    const arrow: Msg | undefined = req.rows === 'arrowRows' || req.arrowRows ? (req.arrowRows ?? {}) : undefined;
    const proto: Msg = req.protoRows ?? {};
    const d = arrow ? arrow.writerSchema?.serializedSchema : proto.writerSchema?.protoDescriptor;
    if (d) {
      const key = arrow ? `arrow:${Buffer.from(d as Uint8Array).toString('base64')}` : JSON.stringify(d);
      if (key !== descriptor?.key) descriptor = { key, value: d };
    }
    if (!descriptor) throw BigQueryError.invalidWriteRequest('The first AppendRows request of a connection must carry proto_rows.writer_schema.proto_descriptor');
    const decoderKey = `${descriptor.key}\n${columnsKey(columns)}`;
    if (decoder?.key !== decoderKey) {
      try {
        const isArrow = descriptor.key.startsWith('arrow:');
        decoder = { key: decoderKey, decoder: isArrow ? arrowRowDecoder(descriptor.value as Uint8Array, columns) : protoRowDecoder(descriptor.value, columns) };
      } catch (e) {
        // The decoders' schema errors are BigQuery's INVALID_ARGUMENT texts (src/errors/write-row-errors.ts).
        if (e instanceof BigQueryError) throw e;
        throw BigQueryError.invalidWriteRequest(`Invalid proto_rows.writer_schema.proto_descriptor: ${(e as Error).message}`);
      }
    }
    const serialized = (arrow ? (arrow.rows?.serializedRecordBatch ? [arrow.rows.serializedRecordBatch] : []) : (proto.rows?.serializedRows ?? [])) as Uint8Array[];
    const rawOffset = req.offset?.value;
    const offset = rawOffset === undefined || rawOffset === null ? undefined : Number(rawOffset);
    try {
      let decoded: DecodedWriteRows;
      try {
        decoded = await decodeSliced(decoder.decoder, serialized, rowOptionsOf(req));
      } catch (e) {
        if (e instanceof BigQueryError) throw e;
        throw BigQueryError.invalidWriteRequest(`Failed to parse proto_rows: ${(e as Error).message}`);
      }
      if (decoded.rowErrors.length) return { ...out, error: rpcStatusOf(BigQueryError.appendRowErrors(target.name)), rowErrors: rowErrorsOf(decoded) };
      const r = await streams.append(target, decoded.rows, offset);
      if (r.rowErrors?.length) return { ...out, error: rpcStatusOf(BigQueryError.appendRowErrors(target.name)), rowErrors: rowErrorsOf({ rows: [], rowErrors: r.rowErrors }) };
      return { ...out, appendResult: r.offset === undefined ? {} : { offset: { value: String(r.offset) } } };
    } catch (e) {
      if (!(e instanceof BigQueryError)) throw e;
      return { ...out, error: rpcStatusOf(e) };
    }
  };

  const pump = async () => {
    if (running) return;
    running = true;
    try {
      while (queue.length && !closed) {
        const req = queue.shift()!;
        if (queue.length < MAX_QUEUED_REQUESTS && call.isPaused()) call.resume();
        const resp = await handle(req);
        if (closed) return;
        call.write(resp);
      }
      if (ended && !closed && !queue.length) {
        closed = true;
        call.end();
      }
    } catch (e) {
      fail(e);
    } finally {
      running = false;
    }
  };

  call.on('data', (req: Msg) => {
    if (closed) return;
    queue.push(req);
    if (queue.length >= MAX_QUEUED_REQUESTS) call.pause();
    void pump();
  });
  call.on('end', () => {
    ended = true;
    void pump();
  });
  call.on('cancelled', () => {
    closed = true;
  });
  call.on('error', () => {
    closed = true;
  });
}

/** `AppendRowsResponse.row_errors` of decoded rows (index as int64 text). */
function rowErrorsOf(d: DecodedWriteRows): Msg[] {
  return d.rowErrors.map((e) => ({ index: String(e.index), code: e.code, message: e.message }));
}
