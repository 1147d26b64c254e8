/**
 * Arrow buffer compression of the Storage Read API (src/wire/arrow-compression.ts), through the
 * official Node client `@google-cloud/bigquery-storage` (GAPIC `v1.BigQueryReadClient` and the
 * high-level `reader.ReadClient`).
 *
 * Expected behaviour, from outside this repository's code:
 * - storage.proto ArrowSerializationOptions: `buffer_compression` is "the compression codec to use
 *   for Arrow buffers in serialized record batches" (LZ4_FRAME, ZSTD; COMPRESSION_UNSPECIFIED: none);
 * - the recordings conformance/grpc/storage_read/sr_arrow_compression_lz4_frame and
 *   sr_arrow_compression_zstd: the session echoes `read_options.arrow_serialization_options`;
 * - the Arrow columnar format's IPC compression: a compressed record batch carries
 *   `BodyCompression {codec, method BUFFER}` in its RecordBatch header (Message.fbs); each body
 *   buffer is an int64 little-endian uncompressed length (-1: left uncompressed) and then the
 *   codec's frame; the schema message is not compressed;
 * - the frame magic numbers: LZ4 frame 0x184D2204 (lz4 Frame format), Zstandard 0xFD2FB528 (RFC 8878).
 * The flatbuffer is read with apache-arrow's generated accessors (`apache-arrow/fb/*`), the
 * buffers are decompressed with lz4-napi / zstd-napi directly, and the rows are compared with an
 * uncompressed session of the same table.
 */
import { createRequire } from 'node:module';
import { ByteBuffer } from 'flatbuffers';
import { tableFromIPC } from 'apache-arrow';
import { CompressionType } from 'apache-arrow/fb/compression-type';
import { BodyCompressionMethod } from 'apache-arrow/fb/body-compression-method';
import { Message } from 'apache-arrow/fb/message';
import { MessageHeader } from 'apache-arrow/fb/message-header';
import { RecordBatch } from 'apache-arrow/fb/record-batch';
import { decompressFrameSync } from 'lz4-napi';
import { decompress as zstdDecompress } from 'zstd-napi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { readClient, tableReaderClient, type ReadClient } from './helpers/storage-read.js';

let t: TestEmulator;
let client: ReadClient;
const P = 'test-project';
const TABLE = `projects/${P}/datasets/src/tables/words`;
const ROWS = 25_000;

type Codec = 'LZ4_FRAME' | 'ZSTD';
const MAGIC: Record<Codec, number[]> = { LZ4_FRAME: [0x04, 0x22, 0x4d, 0x18], ZSTD: [0x28, 0xb5, 0x2f, 0xfd] };
const IPC_CODEC: Record<Codec, CompressionType> = { LZ4_FRAME: CompressionType.LZ4_FRAME, ZSTD: CompressionType.ZSTD };
const decompress: Record<Codec, (b: Buffer) => Buffer> = { LZ4_FRAME: decompressFrameSync, ZSTD: (b) => zstdDecompress(b) };

beforeAll(async () => {
  t = await startTestEmulator({ projectId: P });
  client = readClient(t.emu);
  await t.bq.query({ query: 'CREATE SCHEMA src' });
  // A compressible table: a repeated category text, small integers, a NULL every 7th row.
  await t.bq.query({
    query: `CREATE TABLE src.words AS SELECT x AS id, CONCAT('category-', CAST(MOD(x, 5) AS STRING)) AS word, IF(MOD(x, 7) = 0, NULL, MOD(x, 11) * 1.5) AS score FROM UNNEST(GENERATE_ARRAY(1, ${ROWS})) AS x`,
  });
});

afterAll(async () => {
  await client?.close();
  await t?.emu.close();
});

/** A one-stream ARROW session, with `bufferCompression` when given. */
async function session(bufferCompression?: Codec | number) {
  const readOptions = bufferCompression === undefined ? {} : { arrowSerializationOptions: { bufferCompression: bufferCompression as never } };
  const [s] = await client.createReadSession({ parent: `projects/${P}`, readSession: { table: TABLE, dataFormat: 'ARROW', readOptions }, maxStreamCount: 1 });
  return s;
}

/** Every serialized record batch of the session's single stream, from `offset`. */
async function batches(s: Awaited<ReturnType<typeof session>>, offset = 0): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const r of client.readRows({ readStream: s.streams![0].name!, offset })) out.push(Buffer.from(r.arrowRecordBatch!.serializedRecordBatch as Uint8Array));
  return out;
}

/** The rows of record batches decoded with apache-arrow after the session's schema message. */
function decode(schema: Uint8Array, bs: Buffer[]): Record<string, unknown>[] {
  return bs.flatMap((b) => tableFromIPC(Buffer.concat([schema, b])).toArray().map((r) => r.toJSON() as Record<string, unknown>));
}

/** The encapsulated IPC message `bytes` (0xFFFFFFFF, int32 metadata length, Message flatbuffer, body). */
function ipcMessage(bytes: Buffer) {
  expect(bytes.readUInt32LE(0)).toBe(0xffffffff);
  const metaLength = bytes.readInt32LE(4);
  const message = Message.getRootAsMessage(new ByteBuffer(new Uint8Array(bytes.buffer, bytes.byteOffset + 8, metaLength)));
  return { message, body: bytes.subarray(8 + metaLength) };
}

describe('arrowSerializationOptions.bufferCompression', () => {
  let plainRows: Record<string, unknown>[];
  let plainBytes: number;
  let plainSchema: Buffer;

  beforeAll(async () => {
    const s = await session();
    plainSchema = Buffer.from(s.arrowSchema!.serializedSchema as Uint8Array);
    const bs = await batches(s);
    plainRows = decode(plainSchema, bs);
    plainBytes = bs.reduce((n, b) => n + b.length, 0);
    expect(plainRows).toHaveLength(ROWS);
    // Uncompressed batches carry no BodyCompression.
    for (const b of bs) expect(ipcMessage(b).message.header(new RecordBatch())!.compression()).toBeNull();
  });

  for (const codec of ['LZ4_FRAME', 'ZSTD'] as const) {
    it(`${codec}: echoed, schema uncompressed, every batch has BodyCompression(${codec}) and ${codec} frames, same rows, fewer bytes`, async () => {
      const s = await session(codec);
      expect(s.readOptions?.arrowSerializationOptions?.bufferCompression).toBe(codec);
      // The schema message is never compressed: byte-identical to the uncompressed session's.
      expect(Buffer.from(s.arrowSchema!.serializedSchema as Uint8Array).equals(plainSchema)).toBe(true);
      const bs = await batches(s);
      let compressedBuffers = 0;
      for (const b of bs) {
        const { message, body } = ipcMessage(b);
        expect(message.headerType()).toBe(MessageHeader.RecordBatch);
        const rb: RecordBatch = message.header(new RecordBatch());
        const bc = rb.compression();
        expect(bc).not.toBeNull();
        expect(bc!.codec()).toBe(IPC_CODEC[codec]);
        expect(bc!.method()).toBe(BodyCompressionMethod.BUFFER);
        for (let i = 0; i < rb.buffersLength(); i++) {
          const region = rb.buffers(i)!;
          const length = Number(region.length());
          if (length === 0) continue;
          const buf = body.subarray(Number(region.offset()), Number(region.offset()) + length);
          const uncompressed = buf.readBigInt64LE(0);
          if (uncompressed === -1n) continue; // stored raw: compressing it would not have shrunk it
          expect([...buf.subarray(8, 12)]).toEqual(MAGIC[codec]);
          expect(BigInt(decompress[codec](buf.subarray(8)).length)).toBe(uncompressed);
          compressedBuffers++;
        }
      }
      expect(compressedBuffers).toBeGreaterThan(0);
      expect(decode(plainSchema, bs)).toEqual(plainRows);
      const bytes = bs.reduce((n, b) => n + b.length, 0);
      expect(bytes).toBeLessThan(plainBytes / 2);
    });
  }

  it('a compressed stream resumed at an offset continues exactly where it stopped', async () => {
    const s = await session('ZSTD');
    const rows = decode(plainSchema, await batches(s, 12_345));
    expect(rows).toEqual(plainRows.slice(12_345));
  });

  it('COMPRESSION_UNSPECIFIED sends uncompressed batches', async () => {
    const s = await session('COMPRESSION_UNSPECIFIED' as never);
    const bs = await batches(s);
    expect(bs.every((b) => ipcMessage(b).message.header(new RecordBatch())!.compression() === null)).toBe(true);
    expect(decode(plainSchema, bs)).toEqual(plainRows);
  });

  it('a codec number the proto does not define is INVALID_ARGUMENT', async () => {
    const e = await session(7).then(
      () => undefined,
      (err: { code: number; details: string }) => err,
    );
    expect(e?.code).toBe(3);
    expect(e?.details).toContain('buffer_compression');
  });

  it('the high-level reader.ReadClient asks for no compression unless told, and passes arrowSerializationOptions through', async () => {
    const rc = tableReaderClient(t.emu);
    try {
      const table = { projectId: P, datasetId: 'src', tableId: 'words' };
      const plain = await rc.createArrowTableReader({ table });
      const plainBatches = [];
      for await (const b of await plain.getRecordBatchStream()) plainBatches.push(b);
      expect(plain.getSessionInfo()?.readOptions?.arrowSerializationOptions ?? null).toBeNull();
      // Its Arrow decoding is apache-arrow's RecordBatchReader from a CommonJS require, whose
      // compressionRegistry is empty: a reader program registers decoders itself (without them a
      // compressed batch throws "Record batch is compressed but codec not found" inside the
      // client's stream transform). Registered here with lz4-napi / zstd-napi, decode only.
      const cjsArrow = createRequire(import.meta.url)('apache-arrow') as typeof import('apache-arrow');
      cjsArrow.compressionRegistry.set(cjsArrow.CompressionType.ZSTD, { decode: (b: Uint8Array) => zstdDecompress(b) });
      const zstd = await rc.createArrowTableReader({ table });
      const zstdBatches = [];
      for await (const b of await zstd.getRecordBatchStream({ arrowSerializationOptions: { bufferCompression: 'ZSTD' } as never })) zstdBatches.push(b);
      expect(zstd.getSessionInfo()?.readOptions?.arrowSerializationOptions?.bufferCompression).toBe('ZSTD');
      const rows = (bs: { toArray(): { toJSON(): unknown }[] }[]) => bs.flatMap((b) => b.toArray().map((r) => r.toJSON()));
      expect(rows(zstdBatches)).toEqual(rows(plainBatches));
      expect(rows(plainBatches)).toEqual(plainRows);
    } finally {
      await rc.close();
    }
  });
});
