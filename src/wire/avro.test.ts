/**
 * BigQuery's Avro mapping (src/wire/avro.ts): the schema JSON is parsed and the serialized rows are
 * decoded with avsc (what a Storage Read client does with `avroSchema.schema` and
 * `avroRows.serializedBinaryRows`: one schemaless record after another), and compared with values
 * taken from BigQuery's documentation and the Avro specification:
 * - the type table of the Storage Read API's "Avro schema details" (NULLABLE → ["null", T], INT64
 *   long, FLOAT64 double, NUMERIC bytes decimal(38, 9), BIGNUMERIC bytes decimal(77, 38), DATE int
 *   date, TIME long time-micros, TIMESTAMP long timestamp-micros, DATETIME/GEOGRAPHY/JSON string
 *   with sqlType, STRUCT record, REPEATED array);
 * - Avro 1.8's binary encoding (zig-zag varint longs, decimal as two's-complement big-endian
 *   unscaled bytes, date = days since 1970-01-01, time-micros = µs after midnight);
 * - the recorded session conformance/grpc/storage_read/read_session_avro_all_types (its row:
 *   42, 3.14159, 'hello', TRUE, NUMERIC '123.456789012', DATE '2026-05-20',
 *   TIMESTAMP '2026-05-20 12:34:56 UTC');
 * - value ranges from the GoogleSQL data types page (INT64 ±2^63, DATE 0001-01-01 … 9999-12-31).
 */
import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import type { BqType, Value } from '../types/types.js';
import { avroRowsBytes, avroSchemaJson, type AvroField } from './avro.js';

const T = (kind: string) => ({ kind }) as BqType;

/** A long type decoding to bigint (avsc's default refuses longs beyond 2^53). */
const BigLong = avro.types.LongType.__with({
  fromBuffer: (b: Buffer) => b.readBigInt64LE(),
  toBuffer: (n: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(n);
    return b;
  },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: (n: unknown) => typeof n === 'bigint',
  compare: (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0),
});

/** Decodes `bytes` as back-to-back records of `schema` (JSON text). */
function decode(schema: string, bytes: Uint8Array): Record<string, unknown>[] {
  const type = avro.Type.forSchema(JSON.parse(schema), { registry: { long: BigLong } });
  const buf = Buffer.from(bytes);
  const out: Record<string, unknown>[] = [];
  for (let pos = 0; pos < buf.length; ) {
    const { value, offset } = type.decode(buf, pos);
    expect(offset).toBeGreaterThan(pos);
    out.push(value as Record<string, unknown>);
    pos = offset;
  }
  return out;
}

/** The unscaled integer of an Avro decimal's two's-complement big-endian bytes. */
function unscaled(b: Buffer): bigint {
  let n = 0n;
  for (const x of b) n = (n << 8n) | BigInt(x);
  return b.length && b[0] & 0x80 ? n - (1n << BigInt(8 * b.length)) : n;
}

const roundTrip = (fields: AvroField[], rows: Value[][]) => decode(avroSchemaJson(fields), avroRowsBytes(fields, rows));

describe('avroSchemaJson', () => {
  it('is a record named __root__ with ["null", T] unions, logical types and sqlTypes per the docs', () => {
    const fields: AvroField[] = [
      { name: 'i', type: T('INT64') },
      { name: 'f', type: T('FLOAT64') },
      { name: 'b', type: T('BOOL'), required: true },
      { name: 's', type: T('STRING') },
      { name: 'y', type: T('BYTES') },
      { name: 'n', type: T('NUMERIC') },
      { name: 'bn', type: T('BIGNUMERIC') },
      { name: 'd', type: T('DATE') },
      { name: 't', type: T('TIME') },
      { name: 'ts', type: T('TIMESTAMP') },
      { name: 'dt', type: T('DATETIME') },
      { name: 'g', type: T('GEOGRAPHY') },
      { name: 'j', type: T('JSON') },
      { name: 'a', type: { kind: 'ARRAY', element: T('INT64') } },
    ];
    const s = JSON.parse(avroSchemaJson(fields));
    expect(s.type).toBe('record');
    expect(s.name).toBe('__root__');
    const byName = Object.fromEntries(s.fields.map((f: { name: string; type: unknown }) => [f.name, f.type]));
    expect(byName).toEqual({
      i: ['null', 'long'],
      f: ['null', 'double'],
      b: 'boolean',
      s: ['null', 'string'],
      y: ['null', 'bytes'],
      n: ['null', { type: 'bytes', logicalType: 'decimal', precision: 38, scale: 9 }],
      bn: ['null', { type: 'bytes', logicalType: 'decimal', precision: 77, scale: 38 }],
      d: ['null', { type: 'int', logicalType: 'date' }],
      t: ['null', { type: 'long', logicalType: 'time-micros' }],
      ts: ['null', { type: 'long', logicalType: 'timestamp-micros' }],
      dt: ['null', { type: 'string', sqlType: 'DATETIME' }],
      g: ['null', { type: 'string', sqlType: 'GEOGRAPHY' }],
      j: ['null', { type: 'string', sqlType: 'JSON' }],
      a: { type: 'array', items: 'long' },
    });
    // avsc accepts it as a valid Avro schema.
    expect(() => avro.Type.forSchema(s)).not.toThrow();
  });

  it('names nested records uniquely (two STRUCT columns with a same-named sub-STRUCT)', () => {
    const inner: BqType = { kind: 'STRUCT', fields: [{ name: 'x', type: T('INT64') }] };
    const outer: BqType = { kind: 'STRUCT', fields: [{ name: 'in', type: inner }] };
    const fields: AvroField[] = [
      { name: 'p', type: outer },
      { name: 'q', type: outer },
    ];
    expect(() => avro.Type.forSchema(JSON.parse(avroSchemaJson(fields)))).not.toThrow();
  });
});

describe('avroRowsBytes', () => {
  it('encodes the recorded all-types row (read_session_avro_all_types) as Avro decodes it', () => {
    const fields: AvroField[] = ['i', 'f', 's', 'b', 'n', 'd', 'ts'].map((name, k) => ({
      name,
      type: T(['INT64', 'FLOAT64', 'STRING', 'BOOL', 'NUMERIC', 'DATE', 'TIMESTAMP'][k]),
    }));
    const ts = BigInt(Date.UTC(2026, 4, 20, 12, 34, 56)) * 1000n;
    const [r] = roundTrip(fields, [[42n, 3.14159, 'hello', true, '123.456789012', '2026-05-20', ts]]);
    expect(r.i).toBe(42n);
    expect(r.f).toBe(3.14159);
    expect(r.s).toBe('hello');
    expect(r.b).toBe(true);
    expect(unscaled(r.n as Buffer)).toBe(123456789012n);
    expect(r.d).toBe(Date.UTC(2026, 4, 20) / 86_400_000);
    expect(r.ts).toBe(Number(ts)); // logical-typed longs decode with avsc's default (number) long
  });

  it('writes NULL as the union null branch for every nullable type', () => {
    const kinds = ['INT64', 'FLOAT64', 'BOOL', 'STRING', 'BYTES', 'NUMERIC', 'BIGNUMERIC', 'DATE', 'TIME', 'TIMESTAMP', 'DATETIME', 'GEOGRAPHY', 'JSON', 'INTERVAL'];
    const fields = kinds.map((k) => ({ name: k.toLowerCase(), type: T(k) }));
    const [r] = roundTrip(fields, [kinds.map(() => null)]);
    expect(Object.values(r)).toEqual(kinds.map(() => null));
  });

  it('round-trips the extremes of INT64, FLOAT64, DATE, TIME and decimals', () => {
    const fields: AvroField[] = [
      { name: 'i', type: T('INT64') },
      { name: 'f', type: T('FLOAT64') },
      { name: 'd', type: T('DATE') },
      { name: 't', type: T('TIME') },
      { name: 'n', type: T('NUMERIC') },
      { name: 'bn', type: T('BIGNUMERIC') },
    ];
    const rows = roundTrip(fields, [
      [-(2n ** 63n), -Infinity, '0001-01-01', '00:00:00', '-99999999999999999999999999999.999999999', '-578960446186580977117854925043439539266.34992332820282019728792003956564819968'],
      [2n ** 63n - 1n, Number.NaN, '9999-12-31', '23:59:59.999999', '99999999999999999999999999999.999999999', '0.00000000000000000000000000000000000001'],
    ]);
    expect(rows.map((r) => r.i)).toEqual([-(2n ** 63n), 2n ** 63n - 1n]);
    expect(rows[0].f).toBe(-Infinity);
    expect(Number.isNaN(rows[1].f)).toBe(true);
    expect(rows.map((r) => r.d)).toEqual([-719_162, 2_932_896]);
    expect(rows.map((r) => r.t)).toEqual([0, 86_399_999_999]);
    expect(rows.map((r) => unscaled(r.n as Buffer))).toEqual([-(10n ** 38n - 1n), 10n ** 38n - 1n]);
    expect(rows.map((r) => unscaled(r.bn as Buffer))).toEqual([-(2n ** 255n), 1n]);
  });

  it('encodes BYTES, UTF-8 strings, DATETIME, GEOGRAPHY, JSON and INTERVAL text', () => {
    const fields: AvroField[] = ['BYTES', 'STRING', 'DATETIME', 'GEOGRAPHY', 'JSON', 'INTERVAL'].map((k) => ({ name: k.toLowerCase(), type: T(k) }));
    const [r] = roundTrip(fields, [
      [new Uint8Array([0, 255, 7]), 'héllo ☃', '2026-05-20T12:34:56.123456', 'POINT(1 2)', '{"a":1}', { months: 14, days: 3, micros: 3_723_000_000n }],
    ]);
    expect([...(r.bytes as Buffer)]).toEqual([0, 255, 7]);
    expect(r.string).toBe('héllo ☃');
    expect(r.datetime).toBe('2026-05-20T12:34:56.123456');
    expect(r.geography).toBe('POINT(1 2)');
    expect(r.json).toBe('{"a":1}');
    expect(r.interval).toBe('1-2 3 1:2:3');
  });

  it('encodes STRUCT as a record, ARRAY as an array (NULL array → empty), RANGE as {start, end}, NULLs at every depth', () => {
    const st: BqType = { kind: 'STRUCT', fields: [{ name: 'a', type: T('INT64') }, { name: 'l', type: { kind: 'ARRAY', element: T('STRING') } }] };
    const fields: AvroField[] = [
      { name: 's', type: st },
      { name: 'arr', type: { kind: 'ARRAY', element: st } },
      { name: 'r', type: { kind: 'RANGE', element: T('DATE') } },
    ];
    const rows = roundTrip(fields, [
      [[1n, ['x', 'y']], [[2n, []], [null, ['z']]], { start: '2024-01-01', end: null }],
      [null, null, null],
    ]);
    expect(rows[0]).toEqual({ s: { a: 1n, l: ['x', 'y'] }, arr: [{ a: 2n, l: [] }, { a: null, l: ['z'] }], r: { start: 19_723, end: null } });
    expect(rows[1]).toEqual({ s: null, arr: [], r: null });
  });

  it('encodes zero rows as zero bytes', () => {
    expect(avroRowsBytes([{ name: 'i', type: T('INT64') }], []).length).toBe(0);
  });

  it('raises cannotEncodeAvroValue (500) for a value of the wrong shape', () => {
    expect(() => avroRowsBytes([{ name: 'i', type: T('INT64') }], [['x']])).toThrow(/Cannot encode "x" as an Avro value of type INT64/);
  });
});
