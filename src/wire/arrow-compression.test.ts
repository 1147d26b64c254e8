/**
 * `compressRecordBatch` (src/wire/arrow-compression.ts) on a batch of every BigQuery type: the
 * compressed batch must read back (apache-arrow) to exactly the values of the uncompressed one, and
 * its buffers must follow the Arrow columnar format's IPC compression layout (Message.fbs
 * BodyCompressionMethod.BUFFER: "the uncompressed length in the first 8 bytes as a 64-bit
 * little-endian signed integer followed by the compressed buffer bytes", -1 meaning "not
 * compressed") — the length checked by decompressing each buffer with lz4-napi / zstd-napi
 * directly, as Arrow C++ (pyarrow) does when it allocates the prefix's size.
 */
import { Message, RecordBatchReader, tableFromIPC, type RecordBatch } from 'apache-arrow';
import { decompressFrameSync } from 'lz4-napi';
import { decompress as zstdDecompress } from 'zstd-napi';
import { describe, expect, it } from 'vitest';
import type { BqType, Value } from '../types/types.js';
import { arrowRecordBatchBytes, arrowSchemaBytes, type ArrowField } from './arrow.js';
import { bufferCompressionOf, compressRecordBatch, type BufferCompression } from './arrow-compression.js';

const T = (kind: string) => ({ kind }) as BqType;

const FIELDS: ArrowField[] = [
  { name: 'i', type: T('INT64') },
  { name: 'f', type: T('FLOAT64') },
  { name: 'b', type: T('BOOL') },
  { name: 's', type: T('STRING') },
  { name: 'y', type: T('BYTES') },
  { name: 'n', type: T('NUMERIC') },
  { name: 'bn', type: T('BIGNUMERIC') },
  { name: 'd', type: T('DATE') },
  { name: 't', type: T('TIME') },
  { name: 'dt', type: T('DATETIME') },
  { name: 'ts', type: T('TIMESTAMP') },
  { name: 'g', type: T('GEOGRAPHY') },
  { name: 'j', type: T('JSON') },
  { name: 'iv', type: T('INTERVAL') },
  { name: 'r', type: { kind: 'RANGE', element: T('DATE') } },
  { name: 'st', type: { kind: 'STRUCT', fields: [{ name: 'x', type: T('INT64') }, { name: 'l', type: { kind: 'ARRAY', element: T('STRING') } }] } },
  { name: 'a', type: { kind: 'ARRAY', element: T('INT64') } },
];

/** Row i of FIELDS (a NULL in every nullable column on every 5th row). */
function row(i: number): Value[] {
  if (i % 5 === 4) return FIELDS.map((f) => (f.type.kind === 'ARRAY' ? [] : null));
  return [
    BigInt(i) - 2n ** 62n,
    i / 3,
    i % 2 === 0,
    `text-${i % 7}`,
    new Uint8Array([i & 255, 1, 2]),
    `${i}.123456789`,
    `-${i}.00000000000000000000000000000000000001`,
    '2024-02-29',
    '23:59:59.999999',
    '2024-02-29T12:00:00.5',
    253402300799999999n - BigInt(i),
    'POINT(1 2)',
    '{"a":[1,2]}',
    { months: i, days: -i, micros: 3_600_000_000n },
    { start: '2024-01-01', end: null },
    [BigInt(i), ['p', 'q']],
    [1n, 2n, BigInt(i)],
  ];
}

const ROWS = Array.from({ length: 2000 }, (_, i) => row(i));
const SCHEMA = arrowSchemaBytes(FIELDS);
const RAW = arrowRecordBatchBytes(FIELDS, ROWS);

/** The values of `batch` read after the schema, as JSON-comparable rows. */
function rowsOf(batch: Uint8Array): unknown[] {
  const all = new Uint8Array(SCHEMA.length + batch.length);
  all.set(SCHEMA);
  all.set(batch, SCHEMA.length);
  return tableFromIPC(all)
    .toArray()
    .map((r) => JSON.parse(JSON.stringify(r.toJSON(), (_, v) => (typeof v === 'bigint' ? `${v}n` : v))));
}

const decompress: Record<BufferCompression, (b: Buffer) => Buffer> = { LZ4_FRAME: decompressFrameSync, ZSTD: (b) => zstdDecompress(b) };

describe('compressRecordBatch', () => {
  it('without a codec returns the batch itself', () => {
    expect(compressRecordBatch(RAW, undefined, () => SCHEMA)).toBe(RAW);
  });

  for (const codec of ['LZ4_FRAME', 'ZSTD'] as const) {
    it(`${codec}: every type reads back to the uncompressed values; every length prefix is the uncompressed length`, () => {
      const packed = compressRecordBatch(RAW, codec, () => SCHEMA);
      expect(rowsOf(packed)).toEqual(rowsOf(RAW));
      expect(packed.length).toBeLessThan(RAW.length);
      // Uncompressed buffer lengths, in order, from the uncompressed batch's own metadata.
      const [plainBatch] = [...RecordBatchReader.from(new Uint8Array([...SCHEMA, ...RAW]))] as RecordBatch[];
      expect(plainBatch.numRows).toBe(ROWS.length);
      const view = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
      const metaLength = view.readInt32LE(4);
      const header = Message.decode(packed.subarray(8, 8 + metaLength)).header() as unknown as { buffers: { offset: number; length: number }[] };
      const plainMeta = Buffer.from(RAW.buffer, RAW.byteOffset, RAW.byteLength).readInt32LE(4);
      const plainHeader = Message.decode(RAW.subarray(8, 8 + plainMeta)).header() as unknown as { buffers: { offset: number; length: number }[] };
      expect(header.buffers.length).toBe(plainHeader.buffers.length);
      let checked = 0;
      header.buffers.forEach(({ offset, length }, k) => {
        if (length === 0) return;
        const at = 8 + metaLength + offset;
        const prefix = view.readBigInt64LE(at);
        const body = view.subarray(at + 8, at + length);
        const uncompressed = prefix === -1n ? body : decompress[codec](body);
        if (prefix !== -1n) expect(prefix).toBe(BigInt(uncompressed.length));
        // The decompressed buffer is the uncompressed batch's buffer k, byte for byte (which may
        // carry up to 7 bytes of trailing 8-byte-alignment padding).
        const p = plainHeader.buffers[k];
        const plainBuf = Buffer.from(RAW.subarray(8 + plainMeta + p.offset, 8 + plainMeta + p.offset + p.length));
        expect(plainBuf.length - uncompressed.length).toBeGreaterThanOrEqual(0);
        expect(plainBuf.length - uncompressed.length).toBeLessThan(8);
        expect(uncompressed.equals(plainBuf.subarray(0, uncompressed.length))).toBe(true);
        checked++;
      });
      expect(checked).toBeGreaterThan(FIELDS.length);
    });
  }
});

describe('bufferCompressionOf', () => {
  it('reads CompressionCodec names and numbers (storage.proto: COMPRESSION_UNSPECIFIED 0, LZ4_FRAME 1, ZSTD 2)', () => {
    expect(bufferCompressionOf(undefined)).toBeUndefined();
    expect(bufferCompressionOf({ arrowSerializationOptions: null })).toBeUndefined();
    expect(bufferCompressionOf({ arrowSerializationOptions: { bufferCompression: 'COMPRESSION_UNSPECIFIED' } })).toBeUndefined();
    expect(bufferCompressionOf({ arrowSerializationOptions: { bufferCompression: 0 } })).toBeUndefined();
    expect(bufferCompressionOf({ arrowSerializationOptions: { bufferCompression: 'LZ4_FRAME' } })).toBe('LZ4_FRAME');
    expect(bufferCompressionOf({ arrowSerializationOptions: { bufferCompression: 1 } })).toBe('LZ4_FRAME');
    expect(bufferCompressionOf({ arrowSerializationOptions: { bufferCompression: 'ZSTD' } })).toBe('ZSTD');
    expect(bufferCompressionOf({ arrowSerializationOptions: { bufferCompression: 2 } })).toBe('ZSTD');
    expect(() => bufferCompressionOf({ arrowSerializationOptions: { bufferCompression: 9 } })).toThrow(/buffer_compression/);
  });
});
