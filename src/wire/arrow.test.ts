/**
 * BigQuery's Arrow mapping (src/wire/arrow.ts): the schema and record-batch IPC messages are read
 * back with apache-arrow the way the Storage Read clients read them (schema bytes, then batch bytes,
 * as one IPC stream) and compared with values taken from BigQuery's documentation:
 * - Arrow types: BigQuery DataFrames' data-type table (date32, time64("us"), timestamp("us"),
 *   timestamp("us", tz="UTC"), decimal128(38, 9), decimal256(76, 38), list_, struct) and Google's
 *   Python client (`_pandas_helpers.py`: GEOGRAPHY/JSON/DATETIME field metadata, RANGE
 *   struct<start, end>, REPEATED not nullable);
 * - value ranges: the GoogleSQL data types page (INT64 ±2^63, NUMERIC ±(10^29 − 10^-9),
 *   BIGNUMERIC −2^255 … 2^255 − 1 at scale 38, DATE 0001-01-01 … 9999-12-31, TIMESTAMP
 *   0001-01-01 … 9999-12-31 23:59:59.999999 UTC) and the Storage Write page's day counts
 *   (DATE −719162 = 0001-01-01, 2932896 = 9999-12-31, days since 1970-01-01).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { DateUnit, MessageHeader, MessageReader, RecordBatchReader, TimeUnit, Type, IntervalUnit, type RecordBatch, type Field } from 'apache-arrow';
import type { BqType, Value } from '../types/types.js';
import { arrowRecordBatchBytes, arrowRecordBatchBytesFromColumns, arrowSchemaBytes, type ArrowField } from './arrow.js';
// The Node client's own Arrow decoding (what reader.ReadClient's table readers run on ReadRows responses).
import {
  ArrowRawTransform,
  ArrowRecordBatchTableRowTransform,
  ArrowRecordBatchTransform,
  ArrowRecordReaderTransform,
} from '@google-cloud/bigquery-storage/build/src/reader/arrow_transform.js';

const T = (kind: string) => ({ kind }) as BqType;

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Reads schema + batch bytes as a Storage Read client does; returns the batches. */
function readBack(fields: ArrowField[], ...batches: Value[][][]): RecordBatch[] {
  const bytes = concat(arrowSchemaBytes(fields), ...batches.map((rows) => arrowRecordBatchBytes(fields, rows)));
  return [...RecordBatchReader.from(bytes)];
}

/** One column's values of a one-batch read. */
function column(t: BqType, values: Value[]): { field: Field; batch: RecordBatch } {
  const [batch] = readBack([{ name: 'c', type: t }], values.map((v) => [v]));
  return { field: batch.schema.fields[0], batch };
}

/** The signed integer held in `count` little-endian 32-bit words at `at` (Arrow's decimal layout). */
function wordsToBigInt(words: Uint32Array, at: number, count: number): bigint {
  let u = 0n;
  for (let k = count - 1; k >= 0; k--) u = (u << 32n) | BigInt(words[at + k]);
  const bits = BigInt(32 * count);
  return u >= 1n << (bits - 1n) ? u - (1n << bits) : u;
}

const meta = (f: Field) => Object.fromEntries(f.metadata);

describe('IPC framing (ReadSession.arrowSchema / ReadRowsResponse.arrowRecordBatch)', () => {
  const fields: ArrowField[] = [{ name: 'x', type: T('INT64') }];
  it('the schema bytes are one Schema message and the batch bytes one RecordBatch message', () => {
    const schema = [...new MessageReader(concat(arrowSchemaBytes(fields)))];
    expect(schema.map((m) => m.headerType)).toEqual([MessageHeader.Schema]);
    const batch = arrowRecordBatchBytes(fields, [[1n]]);
    // Encapsulated message: continuation marker 0xFFFFFFFF first.
    expect([...batch.subarray(0, 4)]).toEqual([0xff, 0xff, 0xff, 0xff]);
    const reader = new MessageReader(concat(batch));
    const msg = reader.readMessage()!;
    expect(msg.headerType).toBe(MessageHeader.RecordBatch);
    expect((msg.header() as { length: number }).length).toBe(1);
    // Continuation + length word, the padded metadata, then exactly the body: nothing else follows.
    const metadataLength = new DataView(batch.buffer, batch.byteOffset).getInt32(4, true);
    expect(batch.length).toBe(8 + metadataLength + Number(msg.bodyLength));
    reader.readMessageBody(Number(msg.bodyLength));
    expect(reader.readMessage()).toBeNull();
  });
  it('a schema followed by several batches reads as one stream (as ReadRows responses are concatenated)', () => {
    const batches = readBack(fields, [[1n], [2n]], [[3n]], []);
    expect(batches.map((b) => b.numRows)).toEqual([2, 1, 0]);
    expect(batches.flatMap((b) => [...b.getChild('x')!])).toEqual([1n, 2n, 3n]);
  });
  it('the column-wise entry point writes the same bytes as the row-wise one', () => {
    const f: ArrowField[] = [{ name: 'a', type: T('STRING') }, { name: 'b', type: { kind: 'ARRAY', element: T('INT64') } }];
    const rows: Value[][] = [['x', [1n]], [null, []], ['ü', null]];
    const byColumns = arrowRecordBatchBytesFromColumns(f, [['x', null, 'ü'], [[1n], [], null]], 3);
    expect(Buffer.from(byColumns).equals(Buffer.from(arrowRecordBatchBytes(f, rows)))).toBe(true);
  });
  it('an empty session schema has no rows and keeps its fields', () => {
    const [batch] = readBack([{ name: 'a', type: T('STRING') }, { name: 'b', type: T('DATE') }], []);
    expect(batch.numRows).toBe(0);
    expect(batch.schema.fields.map((f) => f.name)).toEqual(['a', 'b']);
  });
});

describe('scalar types', () => {
  it('INT64 → int64, min and max', () => {
    const { field, batch } = column(T('INT64'), [-(2n ** 63n), 2n ** 63n - 1n, 0n, null]);
    expect(field.type.typeId).toBe(Type.Int);
    expect(field.type).toMatchObject({ bitWidth: 64, isSigned: true });
    expect([...batch.getChild('c')!]).toEqual([-9223372036854775808n, 9223372036854775807n, 0n, null]);
  });
  it('FLOAT64 → float64 with NaN, ±Infinity and -0', () => {
    const { field, batch } = column(T('FLOAT64'), [1.5, NaN, -Infinity, Infinity, -0, null]);
    expect(field.type.typeId).toBe(Type.Float);
    expect(field.type).toMatchObject({ precision: 2 }); // Precision.DOUBLE
    const got = [...batch.getChild('c')!];
    expect(got[0]).toBe(1.5);
    expect(Number.isNaN(got[1])).toBe(true);
    expect(got.slice(2, 4)).toEqual([-Infinity, Infinity]);
    expect(Object.is(got[4], -0)).toBe(true);
    expect(got[5]).toBeNull();
  });
  it('BOOL → bool', () => {
    const { field, batch } = column(T('BOOL'), [true, false, null, true, true, false, false, true, false]);
    expect(field.type.typeId).toBe(Type.Bool);
    expect([...batch.getChild('c')!]).toEqual([true, false, null, true, true, false, false, true, false]);
  });
  it('STRING → utf8 (multi-byte text; empty is not NULL)', () => {
    const { field, batch } = column(T('STRING'), ['héllo 世界 🦀', '', null]);
    expect(field.type.typeId).toBe(Type.Utf8);
    expect(meta(field)).toEqual({});
    expect([...batch.getChild('c')!]).toEqual(['héllo 世界 🦀', '', null]);
  });
  it('STRING offsets with ASCII, multi-byte and NULL values mixed', () => {
    const texts = ['a', 'é', null, '世界', '', '🦀x', 'plain'];
    const { batch } = column(T('STRING'), texts);
    expect([...batch.getChild('c')!]).toEqual(texts);
    // UTF-8 lengths: a 1, é 2, 世界 6, 🦀x 5, plain 5.
    expect([...(batch.getChild('c')!.data[0].valueOffsets as Int32Array)]).toEqual([0, 1, 3, 3, 9, 9, 14, 19]);
  });
  it('STRING: unpaired surrogates each become U+FFFD, even when two adjacent values would pair up', () => {
    const { batch } = column(T('STRING'), ['\uD83E', '\uDD80']);
    expect([...batch.getChild('c')!]).toEqual(['\uFFFD', '\uFFFD']);
  });
  it('BYTES → binary', () => {
    const { field, batch } = column(T('BYTES'), [new Uint8Array([0, 255, 16]), new Uint8Array(), null]);
    expect(field.type.typeId).toBe(Type.Binary);
    const got = [...batch.getChild('c')!];
    expect(got.map((b) => (b === null ? null : [...b]))).toEqual([[0, 255, 16], [], null]);
  });
  it('NUMERIC → decimal128(38, 9): the unscaled value ×10^9, max and min', () => {
    const { field, batch } = column(T('NUMERIC'), ['99999999999999999999999999999.999999999', '-99999999999999999999999999999.999999999', '1.5', '-0.000000001', null]);
    expect(field.type.typeId).toBe(Type.Decimal);
    expect(field.type).toMatchObject({ precision: 38, scale: 9, bitWidth: 128 });
    const data = batch.getChild('c')!.data[0];
    const words = data.values as Uint32Array;
    const got = [0, 1, 2, 3].map((i) => wordsToBigInt(words, i * 4, 4));
    expect(got).toEqual([10n ** 38n - 1n, -(10n ** 38n - 1n), 1_500_000_000n, -1n]);
    expect(data.nullCount).toBe(1);
    expect(batch.getChild('c')!.isValid(4)).toBe(false);
  });
  it('BIGNUMERIC → decimal256(76, 38): max 2^255−1 and min −2^255 unscaled', () => {
    const { field, batch } = column(T('BIGNUMERIC'), [
      '578960446186580977117854925043439539266.34992332820282019728792003956564819967',
      '-578960446186580977117854925043439539266.34992332820282019728792003956564819968',
      '-2.25',
      null,
    ]);
    expect(field.type).toMatchObject({ typeId: Type.Decimal, precision: 76, scale: 38, bitWidth: 256 });
    const words = batch.getChild('c')!.data[0].values as Uint32Array;
    expect([0, 1, 2].map((i) => wordsToBigInt(words, i * 8, 8))).toEqual([2n ** 255n - 1n, -(2n ** 255n), -225n * 10n ** 36n]);
    expect(batch.getChild('c')!.isValid(3)).toBe(false);
  });
  it('DATE → date32 days since 1970-01-01, before 1970 and at the range ends', () => {
    const { field, batch } = column(T('DATE'), ['1970-01-01', '1969-12-31', '1900-01-01', '0001-01-01', '9999-12-31', null]);
    expect(field.type).toMatchObject({ typeId: Type.Date, unit: DateUnit.DAY });
    const data = batch.getChild('c')!.data[0];
    expect([...(data.values as Int32Array)].slice(0, 5)).toEqual([0, -1, -25567, -719162, 2932896]);
    expect(batch.getChild('c')!.isValid(5)).toBe(false);
  });
  it('TIME → time64[µs] microseconds of the day', () => {
    const { field, batch } = column(T('TIME'), ['00:00:00', '23:59:59.999999', '12:34:56.5', null]);
    expect(field.type).toMatchObject({ typeId: Type.Time, unit: TimeUnit.MICROSECOND, bitWidth: 64 });
    const values = batch.getChild('c')!.data[0].values as BigInt64Array;
    expect([...values].slice(0, 3)).toEqual([0n, 86_399_999_999n, (12n * 3600n + 34n * 60n + 56n) * 1_000_000n + 500_000n]);
    expect(batch.getChild('c')!.isValid(3)).toBe(false);
  });
  it('DATETIME → timestamp[µs] without zone, with google:sqlType:datetime', () => {
    const { field, batch } = column(T('DATETIME'), ['1969-07-20T20:17:40', '9999-12-31T23:59:59.999999', '1970-01-01T00:00:00.000001', null]);
    expect(field.type).toMatchObject({ typeId: Type.Timestamp, unit: TimeUnit.MICROSECOND, timezone: null });
    expect(meta(field)).toEqual({ 'ARROW:extension:name': 'google:sqlType:datetime' });
    const values = batch.getChild('c')!.data[0].values as BigInt64Array;
    // 1969-07-20 20:17:40 is Unix second −14182940.
    expect([...values].slice(0, 3)).toEqual([-14_182_940_000_000n, 253_402_300_799_999_999n, 1n]);
    expect(batch.getChild('c')!.isValid(3)).toBe(false);
  });
  it('TIMESTAMP → timestamp[µs, UTC], exact microseconds at both range ends', () => {
    const { field, batch } = column(T('TIMESTAMP'), [-62_135_596_800_000_000n, 253_402_300_799_999_999n, -1n, null]);
    expect(field.type).toMatchObject({ typeId: Type.Timestamp, unit: TimeUnit.MICROSECOND, timezone: 'UTC' });
    expect(meta(field)).toEqual({});
    const values = batch.getChild('c')!.data[0].values as BigInt64Array;
    expect([...values].slice(0, 3)).toEqual([-62_135_596_800_000_000n, 253_402_300_799_999_999n, -1n]);
    expect(batch.getChild('c')!.isValid(3)).toBe(false);
  });
  it('INTERVAL → interval[month_day_nano]: months, days, nanoseconds', () => {
    // INTERVAL '1-2 -3 4:5:6.000789' YEAR TO SECOND: 14 months, −3 days, 4h5m6.000789s.
    const micros = ((4n * 60n + 5n) * 60n + 6n) * 1_000_000n + 789n;
    const { field, batch } = column(T('INTERVAL'), [{ months: 14, days: -3, micros }, { months: 0, days: 0, micros: -1n }, null]);
    expect(field.type).toMatchObject({ typeId: Type.Interval, unit: IntervalUnit.MONTH_DAY_NANO });
    const raw = batch.getChild('c')!.data[0].values as Int32Array;
    const nanos = new BigInt64Array(raw.buffer, raw.byteOffset, raw.length / 2);
    expect([raw[0], raw[1], nanos[1]]).toEqual([14, -3, 14_706_000_789_000n]);
    expect([raw[4], raw[5], nanos[3]]).toEqual([0, 0, -1000n]);
    expect(batch.getChild('c')!.isValid(2)).toBe(false);
  });
  it('GEOGRAPHY → utf8 WKT with the geography extension metadata', () => {
    const { field, batch } = column(T('GEOGRAPHY'), ['POINT(1 2)', null]);
    expect(field.type.typeId).toBe(Type.Utf8);
    expect(meta(field)).toEqual({ 'ARROW:extension:name': 'google:sqlType:geography', 'ARROW:extension:metadata': '{"encoding": "WKT"}' });
    expect([...batch.getChild('c')!]).toEqual(['POINT(1 2)', null]);
  });
  it('JSON → utf8 with google:sqlType:json', () => {
    const { field, batch } = column(T('JSON'), ['{"a":[1,null]}', 'null', null]);
    expect(field.type.typeId).toBe(Type.Utf8);
    expect(meta(field)).toEqual({ 'ARROW:extension:name': 'google:sqlType:json' });
    expect([...batch.getChild('c')!]).toEqual(['{"a":[1,null]}', 'null', null]);
  });
});

describe('nested types and modes', () => {
  const inner: BqType = { kind: 'STRUCT', fields: [{ name: 'd', type: T('DATE') }] };
  const struct: BqType = {
    kind: 'STRUCT',
    fields: [
      { name: 'n', type: T('INT64') },
      { name: 'tags', type: { kind: 'ARRAY', element: T('STRING') } },
      { name: 'inner', type: inner },
    ],
  };
  it('STRUCT → struct with nullable children; NULL at every depth', () => {
    const { field, batch } = column(struct, [[7n, ['a', 'b'], ['2024-02-29']], null, [null, [], [null]], [1n, null, null]]);
    expect(field.type.typeId).toBe(Type.Struct);
    expect(field.nullable).toBe(true);
    const kids = field.type.children as Field[];
    expect(kids.map((k) => [k.name, k.type.typeId, k.nullable])).toEqual([
      ['n', Type.Int, true],
      ['tags', Type.List, false],
      ['inner', Type.Struct, true],
    ]);
    const rows = [...batch.getChild('c')!].map((r) => (r === null ? null : r.toJSON()));
    expect(rows[1]).toBeNull();
    expect(rows[0].n).toBe(7n);
    expect([...rows[0].tags]).toEqual(['a', 'b']);
    expect(rows[0].inner.toJSON()).toEqual({ d: Date.UTC(2024, 1, 29) });
    expect(rows[2].n).toBeNull();
    expect([...rows[2].tags]).toEqual([]);
    expect(rows[2].inner.toJSON()).toEqual({ d: null });
    expect([...rows[3].tags]).toEqual([]); // a NULL array reads as empty
    expect(rows[3].inner).toBeNull();
  });
  it('ARRAY → list<item>, the column not nullable; ARRAY<STRUCT> and empty arrays', () => {
    const t: BqType = { kind: 'ARRAY', element: { kind: 'STRUCT', fields: [{ name: 'x', type: T('FLOAT64') }] } };
    const { field, batch } = column(t, [[[1.5], [null]], [], null]);
    expect(field.type.typeId).toBe(Type.List);
    expect(field.nullable).toBe(false);
    expect((field.type.children as Field[])[0]).toMatchObject({ name: 'item', nullable: true });
    const vec = batch.getChild('c')!;
    expect(vec.nullCount).toBe(0);
    const rows = [...vec].map((l) => [...l].map((s) => s.toJSON()));
    expect(rows).toEqual([[{ x: 1.5 }, { x: null }], [], []]);
  });
  it('ARRAY<GEOGRAPHY> carries the element type metadata on the column field', () => {
    const { field, batch } = column({ kind: 'ARRAY', element: T('GEOGRAPHY') }, [['POINT(0 0)', 'LINESTRING(0 0, 1 1)']]);
    expect(meta(field)['ARROW:extension:name']).toBe('google:sqlType:geography');
    expect([...batch.getChild('c')!.get(0)]).toEqual(['POINT(0 0)', 'LINESTRING(0 0, 1 1)']);
  });
  it('RANGE<DATE> → struct<start, end>; a NULL bound is unbounded', () => {
    const { field, batch } = column({ kind: 'RANGE', element: T('DATE') }, [{ start: '2024-01-01', end: null }, { start: null, end: '1969-12-31' }, null]);
    expect(field.type.typeId).toBe(Type.Struct);
    expect((field.type.children as Field[]).map((k) => [k.name, k.type.typeId, k.nullable])).toEqual([
      ['start', Type.Date, true],
      ['end', Type.Date, true],
    ]);
    const vec = batch.getChild('c')!;
    expect(vec.get(0)!.toJSON()).toEqual({ start: Date.UTC(2024, 0, 1), end: null });
    expect(vec.get(1)!.toJSON()).toEqual({ start: null, end: Date.UTC(1969, 11, 31) });
    expect(vec.get(2)).toBeNull();
  });
  it('RANGE<TIMESTAMP> bounds are timestamp[µs, UTC]', () => {
    const { field } = column({ kind: 'RANGE', element: T('TIMESTAMP') }, [{ start: 0n, end: 1n }]);
    expect((field.type.children as Field[])[0].type).toMatchObject({ typeId: Type.Timestamp, unit: TimeUnit.MICROSECOND, timezone: 'UTC' });
  });
  it('REQUIRED columns are not nullable; NULLABLE ones are', () => {
    const [batch] = readBack(
      [
        { name: 'r', type: T('STRING'), required: true },
        { name: 'o', type: T('STRING') },
        { name: 'a', type: { kind: 'ARRAY', element: T('INT64') } },
      ],
      [['x', null, [1n, 2n]]],
    );
    expect(batch.schema.fields.map((f) => [f.name, f.nullable])).toEqual([
      ['r', false],
      ['o', true],
      ['a', false],
    ]);
    expect(batch.get(0)!.toJSON().r).toBe('x');
    expect([...batch.getChild('a')!.get(0)]).toEqual([1n, 2n]);
  });
});

describe('values of the wrong shape', () => {
  it('are an emulator fault (500 backendError), not a silent NULL', () => {
    const bad: [BqType, Value][] = [
      [T('INT64'), 'x'],
      [T('NUMERIC'), 'abc'],
      [T('DATE'), '2024-13-01'],
      [T('TIMESTAMP'), 5],
      [T('STRING'), 5n],
      [T('DATE'), { months: 1, days: 0, micros: 1n }],
      [{ kind: 'ARRAY', element: T('INT64') }, 1n],
    ];
    for (const [t, v] of bad) {
      let caught: unknown;
      try {
        arrowRecordBatchBytes([{ name: 'c', type: t }], [[v]]);
      } catch (e) {
        caught = e;
      }
      expect(caught, t.kind).toMatchObject({ reason: 'backendError', httpStatus: 500 });
      expect(String((caught as Error).message)).toContain(`Arrow value of type ${t.kind}`);
    }
  });
});

describe('through @google-cloud/bigquery-storage\'s Arrow transforms', () => {
  it('ReadRows responses decode into the TableRows the client yields', async () => {
    const fields: ArrowField[] = [
      { name: 'id', type: T('INT64'), required: true },
      { name: 'name', type: T('STRING') },
      { name: 'tags', type: { kind: 'ARRAY', element: T('STRING') } },
      { name: 's', type: { kind: 'STRUCT', fields: [{ name: 'x', type: T('FLOAT64') }] } },
    ];
    const session = { arrowSchema: { serializedSchema: arrowSchemaBytes(fields) } };
    const responses = [
      { arrowRecordBatch: { serializedRecordBatch: arrowRecordBatchBytes(fields, [[1n, 'a', ['p', 'q'], [0.5]]]), rowCount: 1 } },
      { arrowRecordBatch: { serializedRecordBatch: arrowRecordBatchBytes(fields, [[2n, null, [], null]]), rowCount: 1 } },
    ];
    const rows: unknown[] = [];
    await pipeline(
      Readable.from(responses),
      new ArrowRawTransform(),
      new ArrowRecordReaderTransform(session as never),
      new ArrowRecordBatchTransform(),
      new ArrowRecordBatchTableRowTransform(),
      async (source: AsyncIterable<unknown>) => {
        for await (const r of source) rows.push(r);
      },
    );
    expect(rows).toEqual([
      { f: [{ v: 1n }, { v: 'a' }, { v: [{ v: 'p' }, { v: 'q' }] }, { v: { f: [{ v: 0.5 }] } }] },
      { f: [{ v: 2n }, { v: null }, { v: [] }, { v: null }] },
    ]);
  });
});
