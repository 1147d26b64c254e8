/**
 * The handlers of `google.cloud.bigquery.storage.v1.BigQueryWrite` (storage.proto): CreateWriteStream,
 * GetWriteStream, FinalizeWriteStream, BatchCommitWriteStreams, FlushRows, and AppendRows
 * (bidirectional, src/server/grpc/append-rows.ts), over the engine's write streams
 * (src/engine/storage-write.ts). Messages are proto-loader's plain objects (protos.ts). Answers
 * follow the recordings in conformance/grpc/storage_write/: CreateWriteStream answers the table
 * schema and an empty location, GetWriteStream (view BASIC) no schema and location `us`, a
 * COMMITTED stream's commit time is its creation time, and the implicit `_default` stream is a
 * COMMITTED stream without a creation time.
 */
import * as grpc from '@grpc/grpc-js';
import type { Logger } from '../../config/logger.js';
import { BigQueryError } from '../../errors/errors.js';
import type { TableMeta } from '../../catalog/store.js';
import { parseWriteTableName, type WriteStreamRecord, type WriteStreams, type WriteStreamType, type WriteTarget } from '../../engine/storage-write.js';
import { appendRowsConnection } from './append-rows.js';
import { storageTableSchema } from './write-schema.js';
import { timestampOf, writeStatusOf } from './write-status.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- proto-loader messages are untyped plain objects
type Msg = Record<string, any>;

/** The region BigQuery names in `WriteStream.location` (lower case: recorded `us`). */
const LOCATION = 'us';

/**
 * The `WriteStream` message of a created stream. `create`: as CreateWriteStream answers it
 * (schema, empty location); otherwise as GetWriteStream does (location, schema only for view FULL).
 */
function streamMessage(s: WriteStreamRecord, t: TableMeta, opts: { create?: boolean; full?: boolean }): Msg {
  const out: Msg = { name: s.name, type: s.type, createTime: timestampOf(s.createMs), writeMode: 'WRITE_MODE_UNSPECIFIED', location: opts.create ? '' : LOCATION };
  if (s.commitMs !== undefined) out.commitTime = timestampOf(s.commitMs);
  if (opts.create || opts.full) out.tableSchema = storageTableSchema(t.columns);
  return out;
}

/** The `WriteStream` message of the implicit `_default` stream (recorded sw_get_write_stream_default). */
function defaultStreamMessage(w: WriteTarget, full: boolean): Msg {
  const out: Msg = { name: w.name, type: 'COMMITTED', writeMode: 'WRITE_MODE_UNSPECIFIED', location: LOCATION };
  if (full) out.tableSchema = storageTableSchema(w.table.columns);
  return out;
}

const TYPES: ReadonlySet<string> = new Set<WriteStreamType>(['COMMITTED', 'PENDING', 'BUFFERED']);

/** The BigQueryWrite service implementation over `streams`. */
export function bigQueryWriteHandlers(streams: WriteStreams, log: Logger): grpc.UntypedServiceImplementation {
  const unary =
    (f: (req: Msg) => Promise<Msg>) =>
    (call: grpc.ServerUnaryCall<Msg, Msg>, cb: grpc.sendUnaryData<Msg>): void => {
      streams
        .ready()
        .then(() => f(call.request))
        .then(
          (r) => cb(null, r),
          (e) => cb(writeStatusOf(e, log)),
        );
    };
  return {
    CreateWriteStream: unary(async (req) => {
      const t = streams.tableOf(String(req.parent ?? ''));
      const type = String(req.writeStream?.type ?? 'TYPE_UNSPECIFIED');
      if (!TYPES.has(type)) throw BigQueryError.invalidWriteRequest(`write_stream.type must be COMMITTED, PENDING or BUFFERED, got ${type}`);
      return streamMessage(await streams.create(t, type as WriteStreamType), t, { create: true });
    }),
    GetWriteStream: unary(async (req) => {
      const w = streams.resolve(String(req.name ?? ''));
      const full = req.view === 'FULL';
      return w.stream ? streamMessage(w.stream, w.table, { full }) : defaultStreamMessage(w, full);
    }),
    FinalizeWriteStream: unary(async (req) => ({ rowCount: String(await streams.finalize(streams.resolve(String(req.name ?? '')))) })),
    FlushRows: unary(async (req) => {
      const w = streams.resolve(String(req.writeStream ?? ''));
      const raw = req.offset?.value;
      const offset = raw === undefined || raw === null ? undefined : Number(raw);
      return { offset: String(await streams.flush(w, offset)) };
    }),
    BatchCommitWriteStreams: unary(async (req) => {
      parseWriteTableName(String(req.parent ?? ''));
      const names = ((req.writeStreams ?? []) as unknown[]).map(String);
      if (!names.length) throw BigQueryError.invalidWriteRequest('write_streams must name at least one stream');
      const r = await streams.batchCommit(names);
      return r.commitMs !== undefined ? { commitTime: timestampOf(r.commitMs), streamErrors: [] } : { streamErrors: r.streamErrors };
    }),
    AppendRows: (call: grpc.ServerDuplexStream<Msg, Msg>) => {
      // Response headers first, as a Google front end sends them (see read-service.ts ReadRows).
      call.sendMetadata(new grpc.Metadata());
      streams.ready().then(
        () => appendRowsConnection(streams, call, log),
        (e) => call.emit('error', writeStatusOf(e, log)),
      );
    },
  };
}
