/**
 * Arrow IPC buffer compression of the Storage Read API:
 * `ReadSession.read_options.arrow_serialization_options.buffer_compression` (storage.proto
 * ArrowSerializationOptions.CompressionCodec: COMPRESSION_UNSPECIFIED "no compression", LZ4_FRAME
 * "LZ4 Frame", ZSTD "Zstandard compression") — "the compression codec to use for Arrow buffers in
 * serialized record batches".
 *
 * What a compressed session sends (Arrow columnar format, "Compression"; what pyarrow and Arrow
 * C++ read): the schema message (`ReadSession.arrow_schema.serialized_schema`) is never
 * compressed; each record-batch message carries a `BodyCompression {codec, method: BUFFER}` in its
 * RecordBatch header, and every body buffer is an int64 little-endian uncompressed length followed
 * by the codec's frame (or, when compressing would not shrink that buffer, the length -1 and the
 * raw bytes). The framing is apache-arrow's own writer (`RecordBatchStreamWriter` with
 * `compressionType`); this module only supplies the two codecs to apache-arrow's
 * `compressionRegistry`: LZ4 frames from `lz4-napi` and Zstandard frames from `zstd-napi`, both
 * able to decode too, so apache-arrow readers in this process read compressed batches.
 *
 * The decoders are registered when this module is first imported, the encoders at the first
 * compressed batch (useEncoders; the registry is global to
 * the apache-arrow module instance: the ES-module build this code imports; a CommonJS `require`
 * of apache-arrow — what `@google-cloud/bigquery-storage`'s readers use — has its own registry).
 *
 * One correction to apache-arrow 21's writer: it writes each compressed buffer's length prefix as
 * the *compressed* length (`_compressBodyBuffers`: `byteLength = compressed.length`), where the
 * format asks for the uncompressed length. apache-arrow's own reader never looks at the value
 * (it only tests for -1), but Arrow C++ / pyarrow allocate the prefix's size and refuse a buffer
 * that decompresses to another length ("Failed to fully decompress buffer"). The lengths are
 * recorded as the codecs compress and written back over the prefixes (`fixLengthPrefixes`).
 */
import { createRequire } from 'node:module';
import { CompressionType, Message, RecordBatchReader, RecordBatchStreamWriter, compressionRegistry, type RecordBatch } from 'apache-arrow';
import { BigQueryError } from '../errors/errors.js';

/** A buffer compression a read session can ask for (CompressionCodec names other than COMPRESSION_UNSPECIFIED). */
export type BufferCompression = 'LZ4_FRAME' | 'ZSTD';

/** The Arrow IPC codec of each Storage Read API CompressionCodec. */
const IPC_CODEC: Record<BufferCompression, CompressionType> = {
  LZ4_FRAME: CompressionType.LZ4_FRAME,
  ZSTD: CompressionType.ZSTD,
};

/** A Buffer view of `data` without copying (the napi libraries take Buffers). */
const asBuffer = (data: Uint8Array) => (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));

/** Zstandard level 1: Arrow C++'s default for IPC buffers (faster than zstd's own default 3, and no larger on columnar buffers). */
const ZSTD_PARAMETERS = { compressionLevel: 1 };

/** The uncompressed lengths of the buffers compressed since the last `compressRecordBatch` began, in order. */
let encodedLengths: number[] = [];

const require = createRequire(import.meta.url);
let lz4Napi: typeof import('lz4-napi') | undefined;
let zstdNapi: typeof import('zstd-napi') | undefined;
/**
 * The two native codec libraries, loaded at their first use: only a compressed read session (or a
 * compressed Arrow batch appended) needs them, and loading both cost ~10 ms of every cold start
 * (bench/results/2026-11-27-cold-start-2.md). Both are packages of their own (not in the
 * command-line bundle), so this is the one instance an import would give.
 */
const lz4 = () => (lz4Napi ??= require('lz4-napi') as typeof import('lz4-napi'));
const zstd = () => (zstdNapi ??= require('zstd-napi') as typeof import('zstd-napi'));

// Decoders from the start (apache-arrow readers in this process, e.g. of appended Arrow rows);
// the encoders at the first compressed batch (useEncoders): apache-arrow checks an encoder when it
// is registered by compressing a sample, which would load the libraries here.
compressionRegistry.set(CompressionType.LZ4_FRAME, { decode: (data) => lz4().decompressFrameSync(asBuffer(data)) });
compressionRegistry.set(CompressionType.ZSTD, { decode: (data) => zstd().decompress(data) });

let encoders = false;
/** Registers both codecs with their encoders, once (apache-arrow's writer looks them up). */
function useEncoders(): void {
  if (encoders) return;
  encoders = true;
  compressionRegistry.set(CompressionType.LZ4_FRAME, {
    encode: (data) => (encodedLengths.push(data.length), lz4().compressFrameSync(asBuffer(data))),
    decode: (data) => lz4().decompressFrameSync(asBuffer(data)),
  });
  compressionRegistry.set(CompressionType.ZSTD, {
    encode: (data) => (encodedLengths.push(data.length), zstd().compress(data, ZSTD_PARAMETERS)),
    decode: (data) => zstd().decompress(data),
  });
}

/**
 * The buffer compression a CreateReadSession asks for, from its `read_options` (proto-loader plain
 * object: enums as names, or as numbers when the client sent a value the proto does not name):
 * undefined for none (no arrow_serialization_options, COMPRESSION_UNSPECIFIED / 0).
 * @throws BigQueryError invalid (INVALID_ARGUMENT) for a codec number the proto does not define.
 */
export function bufferCompressionOf(readOptions: { arrowSerializationOptions?: { bufferCompression?: unknown } | null } | null | undefined): BufferCompression | undefined {
  const c = readOptions?.arrowSerializationOptions?.bufferCompression;
  if (c === undefined || c === null || c === 'COMPRESSION_UNSPECIFIED' || c === 0) return undefined;
  if (c === 'LZ4_FRAME' || c === 1) return 'LZ4_FRAME';
  if (c === 'ZSTD' || c === 2) return 'ZSTD';
  throw BigQueryError.invalidReadArgument(`Invalid arrow_serialization_options.buffer_compression: ${String(c)}`);
}

/** The length prefix of a buffer left uncompressed (Arrow format: "-1 … the body buffer is not compressed"). */
const NOT_COMPRESSED = -1n;

/**
 * Rewrites the int64 length prefix of each compressed body buffer of the record-batch message
 * `msg` (metadata then body, as apache-arrow wrote it) with its uncompressed length: `lengths[k]`
 * is the length of the k-th non-empty buffer the codec was handed, the order apache-arrow writes
 * buffers in. Buffers stored raw (prefix -1) keep their prefix.
 */
function fixLengthPrefixes(msg: Uint8Array, lengths: readonly number[]): void {
  const view = new DataView(msg.buffer, msg.byteOffset, msg.byteLength);
  const metaLength = view.getInt32(4, true);
  const header = Message.decode(msg.subarray(8, 8 + metaLength)).header() as { buffers: { offset: number; length: number }[] };
  const bodyAt = 8 + metaLength;
  let k = 0;
  for (const { offset, length } of header.buffers) {
    if (length === 0) continue;
    const at = bodyAt + offset;
    if (view.getBigInt64(at, true) !== NOT_COMPRESSED) view.setBigInt64(at, BigInt(lengths[k]), true);
    k++;
  }
}

/** The byte length of the schema message an IPC stream starts with (continuation, int32 metadata length, metadata; no body). */
function schemaMessageLength(stream: Uint8Array): number {
  return 8 + new DataView(stream.buffer, stream.byteOffset, 8).getInt32(4, true);
}

/** The length of the end-of-stream marker apache-arrow's stream writer appends (continuation + zero length). */
const EOS_BYTES = 8;

/**
 * The record-batch message (no schema, no end-of-stream marker) of apache-arrow `RecordBatch`
 * `batch` with its body buffers compressed by `codec` — for an encoder that holds the batch itself
 * (no decoding needed); `compressRecordBatch` for one that holds its bytes.
 */
export function compressedRecordBatchBytes(batch: RecordBatch, codec: BufferCompression): Uint8Array {
  useEncoders();
  encodedLengths = [];
  const out = RecordBatchStreamWriter.writeAll([batch], { compressionType: IPC_CODEC[codec] }).toUint8Array(true);
  const msg = out.slice(schemaMessageLength(out), out.length - EOS_BYTES);
  fixLengthPrefixes(msg, encodedLengths);
  return msg;
}

/**
 * The record-batch message `batch` (an uncompressed `ReadRowsResponse.arrow_record_batch.serialized_record_batch`)
 * with its body buffers compressed by `codec`: the same rows, a `BodyCompression` header, each
 * buffer prefixed with its uncompressed length and compressed (module docstring). Without a
 * codec, `batch` itself. `schema` gives the session's schema message the batch is read after
 * (called only when compressing); it is not part of the result.
 */
export function compressRecordBatch(batch: Uint8Array, codec: BufferCompression | undefined, schema: () => Uint8Array): Uint8Array {
  if (!codec) return batch;
  const head = schema();
  const stream = new Uint8Array(head.length + batch.length);
  stream.set(head);
  stream.set(batch, head.length);
  const [decoded] = RecordBatchReader.from(stream).readAll();
  return compressedRecordBatchBytes(decoded, codec);
}
