/**
 * One AppendRows connection (BigQueryWrite.AppendRows, bidirectional streaming; storage.proto
 * AppendRowsRequest/AppendRowsResponse):
 *
 * - the first request names `writeStream` and carries `protoRows.writerSchema.protoDescriptor`;
 *   later requests may omit both, and a new writer schema replaces the previous one;
 * - rows are decoded by src/wire/write-rows.ts in slices (the event loop is never held long) as
 *   each request arrives — so a request decodes while the one before it commits; for tables of
 *   INT64/FLOAT64/BOOL/STRING columns into columns (src/wire/write-rows-columnar.ts), large proto
 *   requests and Arrow batches in worker threads (src/wire/write-rows-offthread.ts; pipelined
 *   requests decode side by side and are still answered in request order) — and appended by
 *   the engine (src/engine/storage-write.ts) in request order, answered once committed; requests
 *   already decoded behind the one being appended go in the same DuckDB transaction (each keeps
 *   its own offset and outcome);
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
import { BigQueryError } from '../../errors/errors.js';
import type { Column } from '../../types/schema.js';
import { arrowRowDecoder } from '../../wire/write-arrow-rows.js';
import type { ColumnarWriteDecoder } from '../../wire/write-rows-columnar.js';
import { columnarArrowDecoder } from '../../wire/write-arrow-columns.js';
import { columnarProtoDecoder } from '../../wire/write-proto-columns.js';
import { OFF_THREAD_MIN_BYTES, decodeArrowRowsOffThread, decodeProtoRowsOffThread, releaseOffThreadBatch } from '../../wire/write-rows-offthread.js';
import { protoRowDecoder, type DecodedWriteRows, type MissingValueInterpretation, type WriteRowDecoder, type WriteRowOptions } from '../../wire/write-rows.js';
import type { AppendOutcome, AppendPart, WriteStreams, WriteTarget } from '../../engine/storage-write.js';
import { serializedRowsOf } from './protos.js';
import { storageTableSchema } from './write-schema.js';
import { rpcStatusOf, writeStatusOf } from './write-status.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- proto-loader messages are untyped plain objects
type Msg = Record<string, any>;

/** Requests read and not yet answered before the connection stops reading. */
export const MAX_QUEUED_REQUESTS = 4;

/**
 * Most rows appended in one DuckDB transaction when several requests of a connection wait: their
 * fixed cost (transaction, appender, stream record, table history) is paid once per group.
 */
export const GROUP_MAX_ROWS = 50_000;

/**
 * Rows decoded between two yields to the event loop (measured: 4,096 rows of three scalar columns
 * took 30–46 ms under load in src/wire/write-rows.ts, so a quarter of that).
 */
export const DECODE_SLICE_ROWS = 1_024;

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/**
 * Requests read and not yet answered, over every connection of the process (a test seam: a fast
 * writer must find the connection stopped reading, never an unbounded queue). `peak`: the most one
 * connection held since reset.
 */
export const appendRowsQueue = {
  peak: 0,
  /** The most requests appended in one DuckDB transaction since reset. */
  largestGroup: 0,
  /** Zeroes the peak and the largest group. */
  reset(): void {
    this.peak = 0;
    this.largestGroup = 0;
  },
};

/** A cheap identity of a column list (names and types), for schema-change detection. */
const columnsKey = (columns: readonly Column[]) => JSON.stringify(columns.map((c) => [c.name, c.type, c.required]));

/**
 * Decodes `serialized` in slices of DECODE_SLICE_ROWS rows with a yield between slices; row
 * error indexes count from the request's first row.
 */
async function decodeSliced(decoder: WriteRowDecoder, serialized: Uint8Array[], opts: WriteRowOptions): Promise<DecodedWriteRows> {
  // One element (an Arrow record batch) may hold many rows: decoded with yields inside.
  if (serialized.length === 1) return decoder.decodeAsync(serialized, opts);
  if (serialized.length <= DECODE_SLICE_ROWS) return decoder.decode(serialized, opts);
  await yieldToLoop();
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


/**
 * The decoder of Arrow rows (`arrowRows.writerSchema.serializedSchema`, an IPC schema message; each
 * request's `arrowRows.rows.serializedRecordBatch` decoded as one batch): src/wire/write-arrow-rows.ts.
 * @throws BigQueryError invalid for a schema that does not fit the table (BigQuery's texts).
 */
function arrowDecoderOf(serializedSchema: Uint8Array, columns: Column[]): ReturnType<typeof arrowRowDecoder> {
  return arrowRowDecoder(serializedSchema, columns);
}

/** One request ready to append (`rows` at `offset`), or already answered (`response`). */
interface Prepared {
  w: WriteTarget;
  response?: Msg;
  out?: Msg;
  rows?: AppendPart['rows'];
  offset?: number;
}

/** A request read: its preparation, and its result once prepared. */
interface QueuedRequest {
  promise: Promise<Prepared>;
  value?: Prepared;
}

/** Serves one AppendRows call until the client half-closes it, or a connection-level error ends it. */
export function appendRowsConnection(streams: WriteStreams, call: grpc.ServerDuplexStream<Msg, Msg>, log: Logger): void {
  // Requests read and not yet answered, each being prepared (decoded) as it arrived.
  const queue: QueuedRequest[] = [];
  let running = false;
  let ended = false;
  let closed = false;
  let target: WriteTarget | undefined;
  let descriptor: { key: string; value: unknown } | undefined;
  // The row decoder of the writer schema, and its columnar fast path when the table allows one.
  let decoder: { key: string; decoder: WriteRowDecoder; columnar?: ColumnarWriteDecoder } | undefined;
  // The table schema this connection's writer knows, and the columns array it was read from.
  let known: { ref: readonly Column[]; key: string } | undefined;

  const fail = (e: unknown) => {
    if (closed) return;
    closed = true;
    call.emit('error', writeStatusOf(e, log));
  };

  /**
   * Everything of one request before its rows are appended: the stream resolved, the writer schema
   * taken, the rows decoded. Runs as the request arrives, so the next request decodes while the one
   * before commits. Throws a BigQueryError that ends the connection; a refusal of this request alone
   * is a finished `response`.
   */
  const prepare = async (req: Msg): Promise<Prepared> => {
    const name = String(req.writeStream ?? '') || target?.name;
    if (!name) throw BigQueryError.invalidWriteRequest('The first AppendRows request of a connection must name write_stream');
    const w = (target = streams.resolve(name));
    const out: Msg = { writeStream: w.name };
    const columns = streams.columnsOf(w);
    const liveColumns = w.table.columns;
    if (!known) known = { ref: liveColumns, key: columnsKey(liveColumns) };
    else if (known.ref !== liveColumns) {
      const key = columnsKey(liveColumns);
      if (key !== known.key) out.updatedSchema = storageTableSchema(liveColumns);
      known = { ref: liveColumns, key };
    }
    const rawOffset = req.offset?.value;
    const offset = rawOffset === undefined || rawOffset === null ? undefined : Number(rawOffset);
    if (req.rows === 'arrowRows' || req.arrowRows) {
      const arrow: Msg = req.arrowRows ?? {};
      const schema = arrow.writerSchema?.serializedSchema as Uint8Array | undefined;
      if (schema?.length) {
        const key = `arrow:${Buffer.from(schema).toString('base64')}`;
        if (key !== descriptor?.key) descriptor = { key, value: schema };
      }
      if (!descriptor?.key.startsWith('arrow:')) throw BigQueryError.invalidWriteRequest('The first AppendRows request with arrow_rows must carry arrow_rows.writer_schema.serialized_schema');
      const batch = arrow.rows?.serializedRecordBatch as Uint8Array | undefined;
      try {
        const key = `${descriptor.key}\n${columnsKey(columns)}`;
        if (decoder?.key !== key) {
          const d = arrowDecoderOf(descriptor.value as Uint8Array, columns);
          decoder = { key, decoder: d, columnar: columnarArrowDecoder(descriptor.value as Uint8Array, d.arrowSchema, columns) };
        }
        const serialized = batch?.length ? [batch] : [];
        // Large batches decode in a worker thread (src/wire/write-rows-offthread.ts); a batch it
        // gives back (a row the columnar path cannot take) is decoded here, giving the row errors.
        const offThread = batch && batch.length >= OFF_THREAD_MIN_BYTES && decoder.columnar ? await decodeArrowRowsOffThread(decoder.key, descriptor.value as Uint8Array, columns, rowOptionsOf(req), batch) : undefined;
        const cols = offThread ?? (serialized.length ? await decoder.columnar?.decode(serialized, rowOptionsOf(req)) : undefined);
        if (cols) return { w, out, rows: cols, offset };
        return finish(w, out, await decodeSliced(decoder.decoder, serialized, rowOptionsOf(req)), offset);
      } catch (e) {
        const err = e instanceof BigQueryError ? e : BigQueryError.invalidWriteRequest(`Failed to parse arrow_rows: ${(e as Error).message}`);
        return { w, response: { ...out, error: rpcStatusOf(err) } };
      }
    }
    const proto: Msg = req.protoRows ?? {};
    const d = proto.writerSchema?.protoDescriptor;
    if (d) {
      const key = JSON.stringify(d);
      if (key !== descriptor?.key) descriptor = { key, value: d };
    }
    if (!descriptor || descriptor.key.startsWith('arrow:')) throw BigQueryError.invalidWriteRequest('The first AppendRows request of a connection must carry proto_rows.writer_schema.proto_descriptor');
    const decoderKey = `${descriptor.key}\n${columnsKey(columns)}`;
    if (decoder?.key !== decoderKey) {
      try {
        const d = protoRowDecoder(descriptor.value, columns);
        decoder = { key: decoderKey, decoder: d, columnar: d.protoType && columnarProtoDecoder(d.protoType, columns) };
      } catch (e) {
        // The decoders' schema errors are BigQuery's INVALID_ARGUMENT texts (src/errors/write-row-errors.ts).
        if (e instanceof BigQueryError) throw e;
        throw BigQueryError.invalidWriteRequest(`Invalid proto_rows.writer_schema.proto_descriptor: ${(e as Error).message}`);
      }
    }
    // `protoRows.rows`: a serialized ProtoRows (protos.ts keeps it as bytes), or decoded (`serializedRows`).
    const raw = proto.rows instanceof Uint8Array ? proto.rows : undefined;
    let decoded: DecodedWriteRows;
    try {
      if (raw?.length && decoder.columnar?.decodeProtoRows) {
        // Large requests decode in the worker thread (src/wire/write-rows-offthread.ts).
        const cols =
          raw.length >= OFF_THREAD_MIN_BYTES
            ? await decodeProtoRowsOffThread(decoder.key, descriptor.value, columns, rowOptionsOf(req), raw)
            : await decoder.columnar.decodeProtoRows(raw, rowOptionsOf(req));
        if (cols) return { w, out, rows: cols, offset };
      }
      const serialized = raw ? serializedRowsOf(raw) : ((proto.rows?.serializedRows ?? []) as Uint8Array[]);
      if (!raw && serialized.length && decoder.columnar) {
        const cols = await decoder.columnar.decode(serialized, rowOptionsOf(req));
        if (cols) return { w, out, rows: cols, offset };
      }
      decoded = await decodeSliced(decoder.decoder, serialized, rowOptionsOf(req));
    } catch (e) {
      const err = e instanceof BigQueryError ? e : BigQueryError.invalidWriteRequest(`Failed to parse proto_rows: ${(e as Error).message}`);
      return { w, response: { ...out, error: rpcStatusOf(err) } };
    }
    return finish(w, out, decoded, offset);
  };

  /** A decoded request: its rows to append, or its row errors as the answer. */
  const finish = (w: WriteTarget, out: Msg, decoded: DecodedWriteRows, offset: number | undefined): Prepared =>
    decoded.rowErrors.length
      ? { w, response: { ...out, error: rpcStatusOf(BigQueryError.appendRowErrors(w.name)), rowErrors: rowErrorsOf(decoded) } }
      : { w, out, rows: decoded.rows, offset };

  /** The response of an appended (or refused) prepared request. */
  const responseOf = (p: Prepared, r: AppendOutcome): Msg => {
    const out = p.out!;
    if (r.error) return { ...out, error: rpcStatusOf(r.error) };
    if (r.rowErrors?.length) return { ...out, error: rpcStatusOf(BigQueryError.appendRowErrors(p.w.name)), rowErrors: rowErrorsOf({ rows: [], rowErrors: r.rowErrors }) };
    return { ...out, appendResult: r.offset === undefined ? {} : { offset: { value: String(r.offset) } } };
  };

  /**
   * Appends a group of prepared requests of one stream in one DuckDB transaction (in request
   * order); their responses. A group whose write fails is appended again request by request, so
   * one request's DuckDB error answers that request alone.
   */
  const commit = async (group: Prepared[]): Promise<Msg[]> => {
    if (group.length === 1 && group[0]!.response) return [group[0]!.response];
    try {
      const outcomes = await streams.appendAll(group[0]!.w, group.map((p) => ({ rows: p.rows!, offset: p.offset })));
      return group.map((p, i) => responseOf(p, outcomes[i]!));
    } catch (e) {
      if (!(e instanceof BigQueryError)) throw e;
      if (group.length === 1) return [{ ...group[0]!.out!, error: rpcStatusOf(e) }];
      const out: Msg[] = [];
      for (const p of group) out.push(...(await commit([p])));
      return out;
    }
  };

  /**
   * The prepared requests at the head of the queue that append together: the first, then those
   * after it already prepared for the same stream with rows to append, up to GROUP_MAX_ROWS rows.
   */
  const takeGroup = (first: Prepared): Prepared[] => {
    const group = [first];
    if (first.response) return group;
    let rows = first.rows!.length;
    for (let k = 1; k < queue.length; k++) {
      const v = queue[k]!.value;
      if (!v || v.response || v.w.name !== first.w.name || rows + v.rows!.length > GROUP_MAX_ROWS) break;
      group.push(v);
      rows += v.rows!.length;
    }
    return group;
  };

  const pump = async () => {
    if (running) return;
    running = true;
    try {
      while (queue.length && !closed) {
        const group = takeGroup(await queue[0]!.promise);
        queue.splice(0, group.length);
        appendRowsQueue.largestGroup = Math.max(appendRowsQueue.largestGroup, group.length);
        if (queue.length < MAX_QUEUED_REQUESTS && call.isPaused()) call.resume();
        const responses = await commit(group);
        // Appended (or refused) and answered: nothing reads these rows again.
        for (const p of group) if (p.rows) releaseOffThreadBatch(p.rows);
        if (closed) return;
        for (const r of responses) call.write(r);
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
    const entry: QueuedRequest = { promise: prepare(req) };
    // Its failure is met in order, by pump; its value lets pump group it with the requests before it.
    entry.promise.then((v) => (entry.value = v), () => undefined);
    queue.push(entry);
    appendRowsQueue.peak = Math.max(appendRowsQueue.peak, queue.length);
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
