/**
 * The handlers of `google.cloud.bigquery.storage.v1.BigQueryRead` (storage.proto): CreateReadSession,
 * ReadRows (server streaming, Arrow record batches or Avro rows, read from DuckDB batch by batch
 * with backpressure: the next batch is read only once the call's buffer has room, and a cancelled
 * call ends the DuckDB query) and SplitReadStream. Request
 * and response messages are the plain objects of @grpc/proto-loader (protos.ts: camelCase fields,
 * int64 as strings, enums as names). Errors are BigQueryErrors sent as gRPC statuses
 * (src/errors/grpc-status.ts); anything else is a bug and answers INTERNAL.
 */
import * as grpc from '@grpc/grpc-js';
import { BigQueryError, grpcCodeOf } from '../../errors/errors.js';
import type { Logger } from '../../config/logger.js';
import { arrowRecordBatchBytesFromColumns, arrowSchemaBytes } from '../../wire/arrow.js';
import { bufferCompressionOf, compressRecordBatch, type BufferCompression } from '../../wire/arrow-compression.js';
import { avroRowsBytes, avroSchemaJson } from '../../wire/avro.js';
import { callerFromHeaders } from '../rest/context.js';
import type { Value } from '../../types/types.js';
import type { RowBatch } from '../../engine/storage-read.js';
import { parseTablePath, partitionRows, type DataFormat, type ReadSessions, type SessionField } from './read-session.js';

/**
 * Rows one ReadRows response carries: a response closes at the first DuckDB chunk (≤ 2,048 rows)
 * that reaches this count, so one holds at most MAX_ROWS_PER_RESPONSE + 2,047 rows. One batch is
 * what a stream holds in JS memory at a time.
 */
export const MAX_ROWS_PER_RESPONSE = 10_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- proto-loader messages are untyped plain objects
type Msg = Record<string, any>;

/** The gRPC status of an error thrown by a handler (BigQueryError → its code; anything else INTERNAL). */
function statusOf(e: unknown, log: Logger): grpc.ServiceError {
  const err = e instanceof BigQueryError ? e : undefined;
  if (!err) log.error({ err: e }, 'bug: a Storage Read API handler failed unexpectedly');
  const code = err ? grpcCodeOf(err) : grpc.status.INTERNAL;
  const details = err ? err.message : String((e as Error)?.message ?? e);
  return Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });
}

/** The caller identity of a call (`x-bqemu-caller` / `x-bqemu-groups` metadata, as the REST headers). */
function callerOf(md: grpc.Metadata) {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(md.getMap())) headers[k] = typeof v === 'string' ? v : v.toString('utf8');
  return callerFromHeaders(headers);
}

const timestamp = (ms: number) => ({ seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 });

/** The BigQueryRead service implementation over `sessions`. */
export function bigQueryReadHandlers(sessions: ReadSessions, log: Logger): grpc.UntypedServiceImplementation {
  return {
    CreateReadSession: (call: grpc.ServerUnaryCall<Msg, Msg>, cb: grpc.sendUnaryData<Msg>) => {
      createReadSession(sessions, call.request, callerOf(call.metadata)).then((r) => cb(null, r), (e) => cb(statusOf(e, log)));
    },
    ReadRows: (call: grpc.ServerWritableStream<Msg, Msg>) => {
      // Response headers first, as a Google front end sends them: the Node client (google-gax over
      // retry-request) re-sends a streaming call that fails before any response metadata.
      call.sendMetadata(new grpc.Metadata());
      readRows(sessions, call).then(
        () => call.end(),
        (e) => call.emit('error', statusOf(e, log)),
      );
    },
    SplitReadStream: (call: grpc.ServerUnaryCall<Msg, Msg>, cb: grpc.sendUnaryData<Msg>) => {
      try {
        cb(null, splitReadStream(sessions, call.request));
      } catch (e) {
        cb(statusOf(e, log));
      }
    },
  };
}

/**
 * CreateReadSession: the session resource with its streams and its Arrow or Avro schema.
 * @throws BigQueryError invalid for a malformed table name, a bad selected field or restriction;
 *   notFound for a missing table.
 */
async function createReadSession(sessions: ReadSessions, req: Msg, caller: ReturnType<typeof callerOf>): Promise<Msg> {
  const rs: Msg = req.readSession ?? {};
  const table = parseTablePath(String(rs.table ?? ''));
  if (rs.dataFormat !== 'ARROW' && rs.dataFormat !== 'AVRO') throw BigQueryError.invalidReadArgument('read_session.data_format must be ARROW or AVRO');
  const opts: Msg = rs.readOptions ?? {};
  const maxStreams = Number(req.maxStreamCount ?? 0);
  const minStreams = Number(req.preferredMinStreamCount ?? 0);
  partitionRows(1, maxStreams, minStreams); // argument checks before any read
  const bufferCompression = rs.dataFormat === 'ARROW' ? bufferCompressionOf(opts) : undefined;
  const s = await sessions.create(
    { table, selectedFields: (opts.selectedFields ?? []) as string[], rowRestriction: String(opts.rowRestriction ?? ''), snapshotTime: snapshotTimeOf(rs.tableModifiers), samplePercentage: samplePercentageOf(opts), caller },
    'us',
    (rows) => partitionRows(rows, maxStreams, minStreams),
    rs.dataFormat,
  );
  s.bufferCompression = bufferCompression;
  const bytes = String(s.estimatedBytes);
  return {
    name: s.name,
    expireTime: timestamp(s.expireMs),
    dataFormat: s.dataFormat,
    ...schemaOf(s),
    table: rs.table,
    tableModifiers: rs.tableModifiers ?? null,
    readOptions: opts,
    streams: [...s.streams.keys()].map((name) => ({ name })),
    estimatedTotalBytesScanned: bytes,
    estimatedTotalPhysicalFileSize: bytes,
    estimatedRowCount: String(s.rowCount),
    traceId: rs.traceId ?? '',
  };
}

/**
 * TableModifiers.snapshot_time (google.protobuf.Timestamp `{seconds, nanos}`) as GoogleSQL timestamp
 * text with microseconds (BigQuery's precision); undefined when unset (read as of now).
 * @throws BigQueryError invalid for a negative or out-of-range timestamp.
 */
function snapshotTimeOf(mods: Msg | null | undefined): string | undefined {
  const ts = mods?.snapshotTime;
  if (!ts) return undefined;
  const seconds = Number(ts.seconds ?? 0);
  const nanos = Number(ts.nanos ?? 0);
  if (!Number.isFinite(seconds) || nanos < 0 || nanos > 999_999_999) throw BigQueryError.invalidReadArgument('table_modifiers.snapshot_time is not a valid timestamp');
  if (seconds === 0 && nanos === 0) return undefined;
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) throw BigQueryError.invalidReadArgument('table_modifiers.snapshot_time is not a valid timestamp');
  const micros = String(Math.floor(nanos / 1000)).padStart(6, '0');
  return `${d.toISOString().slice(0, 19).replace('T', ' ')}.${micros}+00`;
}

/**
 * ReadOptions.sample_percentage (proto3 `optional double`: unset → undefined, every row read).
 * @throws BigQueryError invalid outside [0, 100].
 */
function samplePercentageOf(opts: Msg): number | undefined {
  const p = opts.samplePercentage;
  if (p === undefined || p === null) return undefined;
  const n = Number(p);
  if (!(n >= 0 && n <= 100)) throw BigQueryError.invalidReadArgument(`read_options.sample_percentage must be between 0 and 100, got ${p}`);
  return n;
}

/** The schema field of a session's messages: `arrowSchema` (IPC schema message) or `avroSchema` (JSON text). */
function schemaOf(s: { dataFormat: DataFormat; fields: SessionField[] }): Msg {
  return s.dataFormat === 'AVRO' ? { avroSchema: { schema: avroSchemaJson(s.fields) } } : { arrowSchema: { serializedSchema: Buffer.from(arrowSchemaBytes(s.fields)) } };
}

/**
 * The rows part of a ReadRows response. The batch's own rowCount is deprecated and left 0 in both
 * formats: BigQuery answers the count in ReadRowsResponse.rowCount only (recorded
 * conformance/grpc/storage_read/sr_create_session_one_stream: arrow row_count "0" vs "10";
 * read_session_avro_basic: avro_rows carries no row_count).
 */
function rowsOf(s: { dataFormat: DataFormat; fields: SessionField[]; bufferCompression?: BufferCompression }, b: RowBatch): Msg {
  if (s.dataFormat === 'AVRO') {
    // Avro sessions read domain values only (ReadSessions.batches with raw false).
    const cols = b.columns as Value[][];
    const rows = Array.from({ length: b.rowCount }, (_, i) => cols.map((c) => c[i]));
    return { avroRows: { serializedBinaryRows: Buffer.from(avroRowsBytes(s.fields, rows)), rowCount: '0' } };
  }
  const bytes = compressRecordBatch(arrowRecordBatchBytesFromColumns(s.fields, b.columns, b.rowCount), s.bufferCompression, () => arrowSchemaBytes(s.fields));
  return { arrowRecordBatch: { serializedRecordBatch: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), rowCount: '0' } };
}

/**
 * Responses a stream may have written and not yet handed to HTTP/2: past this many, ReadRows waits
 * before reading the next batch from DuckDB (grpc-js would otherwise queue 16 messages before
 * write() returns false). With HTTP/2 flow control behind it, a reader that stops reading stops
 * the DuckDB query after a few batches.
 */
const MAX_QUEUED_RESPONSES = 2;

/** Counts a call's responses written and not yet flushed; `room()` waits until fewer than MAX_QUEUED_RESPONSES are, or the call is cancelled or ends. */
function writeQueue(call: grpc.ServerWritableStream<Msg, Msg>) {
  let queued = 0;
  let wake: (() => void) | undefined;
  const ended = () => wake?.();
  const events = ['close', 'cancelled', 'finish', 'error'] as const;
  return {
    write(msg: Msg): void {
      queued++;
      call.write(msg, () => {
        queued--;
        wake?.();
      });
    },
    async room(): Promise<void> {
      if (queued < MAX_QUEUED_RESPONSES || call.cancelled) return;
      for (const ev of events) call.on(ev, ended);
      try {
        while (queued >= MAX_QUEUED_RESPONSES && !call.cancelled && !call.destroyed) await new Promise<void>((r) => (wake = r));
      } finally {
        wake = undefined;
        for (const ev of events) call.off(ev, ended);
      }
    },
  };
}

/**
 * ReadRows: the stream's rows from `offset`, in batches of about MAX_ROWS_PER_RESPONSE rows read
 * from DuckDB one at a time (the next only while fewer than MAX_QUEUED_RESPONSES responses wait to
 * be sent), the schema on the first response. A cancelled call stops the read and ends its query.
 * @throws BigQueryError invalid/notFound for a bad stream name; outOfRange past the end.
 */
async function readRows(sessions: ReadSessions, call: grpc.ServerWritableStream<Msg, Msg>): Promise<void> {
  const name = String(call.request.readStream ?? '');
  const offset = Number(call.request.offset ?? 0);
  const { session, range } = sessions.stream(name);
  const total = range.end - range.start;
  if (!Number.isInteger(offset) || offset < 0) throw BigQueryError.invalidReadArgument(`Invalid offset ${call.request.offset}`);
  if (offset > total) throw BigQueryError.readOffsetOutOfRange(offset, total, name);
  let first = true;
  let at = offset;
  const out = writeQueue(call);
  for await (const b of sessions.batches(session, range.start + offset, range.end, MAX_ROWS_PER_RESPONSE, session.dataFormat === 'ARROW')) {
    if (call.cancelled) break;
    const msg: Msg = {
      ...rowsOf(session, b),
      rowCount: String(b.rowCount),
      stats: { progress: { atResponseStart: at / total, atResponseEnd: (at + b.rowCount) / total } },
      throttleState: { throttlePercent: 0 },
    };
    if (first) Object.assign(msg, schemaOf(session));
    first = false;
    at += b.rowCount;
    out.write(msg);
    await out.room();
    if (call.cancelled) break;
  }
}

/**
 * SplitReadStream: a primary and a remainder stream that partition the stream's rows at
 * `fraction`; a stream too small to split answers an empty response (BigQuery's answer: no
 * primary and no remainder, storage.proto SplitReadStreamResponse).
 * @throws BigQueryError invalid for a fraction outside (0, 1) or a bad name; notFound for an unknown stream.
 */
function splitReadStream(sessions: ReadSessions, req: Msg): Msg {
  const name = String(req.name ?? '');
  const { session, range } = sessions.stream(name);
  const fraction = Number(req.fraction ?? 0);
  if (!(fraction > 0 && fraction < 1)) throw BigQueryError.invalidReadArgument(`Invalid fraction ${req.fraction}: it must be in (0.0, 1.0)`);
  const mid = range.start + Math.floor((range.end - range.start) * fraction);
  if (mid <= range.start || mid >= range.end) return {};
  return {
    primaryStream: { name: sessions.addStream(session, { start: range.start, end: mid }) },
    remainderStream: { name: sessions.addStream(session, { start: mid, end: range.end }) },
  };
}
