/**
 * Storage Write API proto rows → BigQuery values (src/wire/write-rows.ts). Rows are encoded with
 * protobufjs from descriptors built the way the Node managed writer builds them
 * (`adapt.convertStorageSchemaToProto2Descriptor` / `…Proto3Descriptor` of
 * @google-cloud/bigquery-storage), or by hand for the other proto types BigQuery accepts.
 * Expected values come from "Supported protocol buffer and Arrow data types"
 * (https://cloud.google.com/bigquery/docs/supported-data-types): DATE −719162 = 0001-01-01 and
 * 2932896 = 9999-12-31; TIMESTAMP in microseconds since the epoch; DATETIME/TIME packed with
 * `CivilTimeEncoder`'s bit layout (encoded below from its documented layout); NUMERIC/BIGNUMERIC
 * bytes from `BigDecimalByteStringEncoder` (little-endian two's complement of value × 10^9 / 10^38,
 * 1.2 → 1200000000 = 0x47868C00); GEOGRAPHY WKT/GeoJSON; RANGE unset bound = unbounded.
 */
import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import descriptorExt from 'protobufjs/ext/descriptor/index.js';
import { adapt } from '@google-cloud/bigquery-storage';
// The proto3 variant is not re-exported by `adapt`; it lives next to the proto2 one.
import { convertStorageSchemaToProto3Descriptor } from '@google-cloud/bigquery-storage/build/src/adapt/proto.js';
import { columnFromField, type Column, type TableFieldSchema } from '../types/schema.js';
import { protoRowDecoder, type WriteRowOptions } from './write-rows.js';

const DP = (descriptorExt as unknown as { DescriptorProto: protobuf.Type }).DescriptorProto;
const fromDescriptor = (d: unknown) => (protobuf.Type as unknown as { fromDescriptor(d: unknown): protobuf.Type }).fromDescriptor(d);

/** The managed writer's proto2 (or proto3) descriptor for a REST schema, as a plain object. */
function managedDescriptor(fields: TableFieldSchema[], proto3 = false): Record<string, unknown> {
  const storage = adapt.convertBigQuerySchemaToStorageTableSchema({ fields });
  const d = proto3 ? convertStorageSchemaToProto3Descriptor(storage, 'root') : adapt.convertStorageSchemaToProto2Descriptor(storage, 'root');
  return (d as unknown as { toJSON(): Record<string, unknown> }).toJSON();
}

/** Encodes `rows` (plain objects) as messages of `descriptor` with protobufjs, wrappers resolvable. */
function encoder(descriptor: Record<string, unknown>): (row: Record<string, unknown>) => Uint8Array {
  const type = fromDescriptor(DP.fromObject(descriptor));
  const root = new protobuf.Root();
  for (const f of ['google/protobuf/wrappers.proto', 'google/protobuf/timestamp.proto', 'google/protobuf/duration.proto'])
    root.addJSON((protobuf.common as unknown as Record<string, { nested: protobuf.INamespace['nested'] }>)[f].nested!);
  root.add(type);
  root.resolveAll();
  return (row) => type.encode(type.fromObject(row)).finish();
}

/** A hand-built descriptor `root` with one field per entry (`TYPE_…` names, optional typeName/label). */
function handDescriptor(fields: { name: string; type: string; typeName?: string; label?: string }[], nestedType: unknown[] = []): Record<string, unknown> {
  return {
    name: 'root',
    field: fields.map((f, i) => ({ name: f.name, number: i + 1, type: f.type, typeName: f.typeName, label: f.label ?? 'LABEL_OPTIONAL' })),
    nestedType,
  };
}

/** Columns of a REST schema; a DEFAULT (set by DDL in the catalog) kept from `defaultValueExpression`. */
const cols = (fields: TableFieldSchema[]): Column[] =>
  fields.map((f) => ({ ...columnFromField(f), ...(f.defaultValueExpression ? { defaultValueExpression: f.defaultValueExpression } : {}) }));

/** Decodes `rows` written with `descriptor` into a table of `fields`. */
function decodeWith(descriptor: Record<string, unknown>, fields: TableFieldSchema[], rows: Record<string, unknown>[], options?: WriteRowOptions) {
  const enc = encoder(descriptor);
  return protoRowDecoder(descriptor, cols(fields)).decode(rows.map(enc), options);
}

/** One value of one column written with a hand descriptor field of proto type `protoType`. */
function one(protoType: string, bqType: string, value: unknown, extra: Partial<TableFieldSchema> = {}) {
  const fields = [{ name: 'c', type: bqType, ...extra }];
  return decodeWith(handDescriptor([{ name: 'c', type: protoType }]), fields, [{ c: value }]);
}
const valueOf = (r: ReturnType<typeof one>) => {
  expect(r.rowErrors).toEqual([]);
  return r.rows[0][0];
};

/** CivilTimeEncoder's packed TIME (micros precision): hour << 32 | minute << 26 | second << 20 | micros. */
const packTime = (h: number, m: number, s: number, us: number) => (BigInt(h) << 32n) | (BigInt(m) << 26n) | (BigInt(s) << 20n) | BigInt(us);
/** CivilTimeEncoder's packed DATETIME: year << 46 | month << 42 | day << 37 | the TIME bits. */
const packDatetime = (y: number, mo: number, d: number, h: number, m: number, s: number, us: number) =>
  (BigInt(y) << 46n) | (BigInt(mo) << 42n) | (BigInt(d) << 37n) | packTime(h, m, s, us);

/** Little-endian two's complement, minimal length (BigInteger.toByteArray reversed). */
function leBytes(v: bigint): Uint8Array {
  const out: number[] = [];
  for (;;) {
    const b = Number(v & 0xffn);
    out.push(b);
    v >>= 8n;
    if ((v === 0n && !(b & 0x80)) || (v === -1n && b & 0x80)) break;
  }
  return Uint8Array.from(out);
}

describe('proto rows: the managed writer descriptor', () => {
  const fields: TableFieldSchema[] = [
    { name: 'i', type: 'INTEGER' }, { name: 'f', type: 'FLOAT' }, { name: 'b', type: 'BOOLEAN' }, { name: 's', type: 'STRING' },
    { name: 'by', type: 'BYTES' }, { name: 'n', type: 'NUMERIC' }, { name: 'bn', type: 'BIGNUMERIC' }, { name: 'd', type: 'DATE' },
    { name: 'dt', type: 'DATETIME' }, { name: 't', type: 'TIME' }, { name: 'ts', type: 'TIMESTAMP' }, { name: 'g', type: 'GEOGRAPHY' },
    { name: 'j', type: 'JSON' },
    { name: 'rec', type: 'RECORD', fields: [{ name: 'x', type: 'INTEGER' }, { name: 'tags', type: 'STRING', mode: 'REPEATED' }] },
    { name: 'arr', type: 'INTEGER', mode: 'REPEATED' },
    { name: 'r', type: 'RANGE', rangeElementType: { type: 'DATE' } },
  ];
  it('converts every type the adapter maps, in the column order', () => {
    const d = managedDescriptor(fields);
    const r = decodeWith(d, fields, [{
      i: '-9223372036854775808', f: 1.5, b: true, s: 'héllo', by: Buffer.from([0, 255]), n: '123.456', bn: '-0.00000000000000000000000000000000000001',
      d: -719162, dt: '2024-03-05 12:34:56.789012', t: '23:59:59.999999', ts: '1700000000123456', g: 'POINT(1 2)', j: '{"a": [1, 2]}',
      rec: { x: 7, tags: ['a', 'b'] }, arr: [1, 2, 3], r: { start: 19723 },
    }]);
    expect(r.rowErrors).toEqual([]);
    expect(r.rows[0]).toEqual([
      -9223372036854775808n, 1.5, true, 'héllo', Uint8Array.from([0, 255]), '123.456', '-0.00000000000000000000000000000000000001',
      '0001-01-01', '2024-03-05T12:34:56.789012', '23:59:59.999999', 1700000000123456n, 'POINT(1 2)', '{"a":[1,2]}',
      [7n, ['a', 'b']], [1n, 2n, 3n], { start: '2024-01-01', end: null },
    ]);
  });
  it('absent fields are NULL (an empty array when REPEATED); proto3 values sent as 0 stay 0', () => {
    expect(decodeWith(managedDescriptor(fields), fields, [{}]).rows[0]).toEqual([null, null, null, null, null, null, null, null, null, null, null, null, null, null, [], null]);
    const p3: TableFieldSchema[] = [{ name: 'i', type: 'INTEGER' }, { name: 's', type: 'STRING' }, { name: 'b', type: 'BOOLEAN' }];
    expect(decodeWith(managedDescriptor(p3, true), p3, [{ i: 0, s: '', b: false }, {}]).rows).toEqual([[0n, '', false], [null, null, null]]);
  });
  it('maps a column whose name is no proto identifier through the column_name annotation', () => {
    const f: TableFieldSchema[] = [{ name: 'my-col', type: 'STRING' }, { name: 'ok', type: 'INTEGER' }];
    const d = managedDescriptor(f);
    const placeholder = ((d.field as { name: string }[])[0]).name;
    expect(placeholder).not.toBe('my-col');
    expect(decodeWith(d, f, [{ [placeholder]: 'v', ok: 1 }]).rows).toEqual([['v', 1n]]);
  });
  it('matches field names to columns case-insensitively', () => {
    expect(decodeWith(handDescriptor([{ name: 'NAME', type: 'TYPE_STRING' }]), [{ name: 'name', type: 'STRING' }], [{ NAME: 'x' }]).rows).toEqual([['x']]);
  });
});

describe('proto rows: each documented proto type', () => {
  it('INT64 from int32, uint32, sint64, sfixed64, fixed32, enum and the Int64Value wrapper', () => {
    expect(valueOf(one('TYPE_INT32', 'INTEGER', -5))).toBe(-5n);
    expect(valueOf(one('TYPE_UINT32', 'INTEGER', 4294967295))).toBe(4294967295n);
    expect(valueOf(one('TYPE_SINT64', 'INTEGER', '9223372036854775807'))).toBe(9223372036854775807n);
    expect(valueOf(one('TYPE_SFIXED64', 'INTEGER', '-4611686018427387904'))).toBe(-4611686018427387904n);
    expect(valueOf(one('TYPE_FIXED32', 'INTEGER', 7))).toBe(7n);
    const wrapped = decodeWith(handDescriptor([{ name: 'c', type: 'TYPE_MESSAGE', typeName: '.google.protobuf.Int64Value' }]), [{ name: 'c', type: 'INTEGER' }], [{ c: { value: '42' } }, { c: {} }, {}]);
    expect(wrapped.rows).toEqual([[42n], [0n], [null]]);
  });
  it('INT64 and STRING from an enum: its number, its name', () => {
    const d = handDescriptor([{ name: 'a', type: 'TYPE_ENUM', typeName: 'E' }, { name: 'b', type: 'TYPE_ENUM', typeName: 'E' }]);
    d.enumType = [{ name: 'E', value: [{ name: 'ZERO', number: 0 }, { name: 'RED', number: 3 }] }];
    expect(decodeWith(d, [{ name: 'a', type: 'INTEGER' }, { name: 'b', type: 'STRING' }], [{ a: 'RED', b: 'RED' }]).rows).toEqual([[3n, 'RED']]);
  });
  it('FLOAT64 from float and double; BOOL from bool and integers (non-zero = true)', () => {
    expect(valueOf(one('TYPE_FLOAT', 'FLOAT', 0.5))).toBe(0.5);
    expect(valueOf(one('TYPE_DOUBLE', 'FLOAT', -Infinity))).toBe(-Infinity);
    expect(valueOf(one('TYPE_INT64', 'BOOLEAN', '2'))).toBe(true);
    expect(valueOf(one('TYPE_UINT32', 'BOOLEAN', 0))).toBe(false);
  });
  it('BYTES from bytes and string (UTF-8)', () => {
    expect(valueOf(one('TYPE_STRING', 'BYTES', 'é'))).toEqual(Uint8Array.from([0xc3, 0xa9]));
  });
  it('NUMERIC / BIGNUMERIC from BigDecimalByteStringEncoder bytes, strings, integers and doubles', () => {
    expect(valueOf(one('TYPE_BYTES', 'NUMERIC', leBytes(1_200_000_000n)))).toBe('1.2');
    expect(Array.from(leBytes(1_200_000_000n))).toEqual([0x00, 0x8c, 0x86, 0x47]);
    expect(valueOf(one('TYPE_BYTES', 'NUMERIC', leBytes(-1_200_000_000n)))).toBe('-1.2');
    expect(valueOf(one('TYPE_BYTES', 'BIGNUMERIC', leBytes(12n * 10n ** 37n)))).toBe('1.2');
    expect(valueOf(one('TYPE_BYTES', 'BIGNUMERIC', leBytes(-(2n ** 255n))))).toBe('-578960446186580977117854925043439539266.34992332820282019728792003956564819968');
    expect(valueOf(one('TYPE_INT64', 'NUMERIC', '-42'))).toBe('-42');
    expect(valueOf(one('TYPE_UINT64', 'BIGNUMERIC', '18446744073709551615'))).toBe('18446744073709551615');
    expect(valueOf(one('TYPE_DOUBLE', 'NUMERIC', 0.25))).toBe('0.25');
    expect(one('TYPE_STRING', 'NUMERIC', '1e30').rowErrors[0].message).toMatch(/Invalid NUMERIC value: 1e30/);
    expect(one('TYPE_BYTES', 'NUMERIC', leBytes(10n ** 38n)).rowErrors).toHaveLength(1);
  });
  it('DATE from int32 / int64 days in [-719162, 2932896] and from a literal', () => {
    expect(valueOf(one('TYPE_INT32', 'DATE', 2932896))).toBe('9999-12-31');
    expect(valueOf(one('TYPE_INT64', 'DATE', '0'))).toBe('1970-01-01');
    expect(valueOf(one('TYPE_STRING', 'DATE', '2024-02-29'))).toBe('2024-02-29');
    expect(one('TYPE_INT32', 'DATE', 2932897).rowErrors[0]).toMatchObject({ index: 0, code: 'FIELDS_ERROR' });
    expect(one('TYPE_INT32', 'DATE', -719163).rowErrors).toHaveLength(1);
    expect(one('TYPE_STRING', 'DATE', '2023-02-29').rowErrors).toHaveLength(1);
  });
  it('DATETIME and TIME from literals and from CivilTimeEncoder int64', () => {
    expect(valueOf(one('TYPE_INT64', 'DATETIME', packDatetime(2024, 3, 5, 12, 34, 56, 789012).toString()))).toBe('2024-03-05T12:34:56.789012');
    expect(valueOf(one('TYPE_INT64', 'DATETIME', packDatetime(1, 1, 1, 0, 0, 0, 0).toString()))).toBe('0001-01-01T00:00:00');
    expect(valueOf(one('TYPE_INT64', 'TIME', packTime(23, 59, 59, 999999).toString()))).toBe('23:59:59.999999');
    expect(valueOf(one('TYPE_STRING', 'TIME', '01:02:03'))).toBe('01:02:03');
    expect(valueOf(one('TYPE_STRING', 'DATETIME', '2024-03-05T01:02:03'))).toBe('2024-03-05T01:02:03');
    expect(one('TYPE_INT64', 'DATETIME', packDatetime(2023, 2, 29, 0, 0, 0, 0).toString()).rowErrors).toHaveLength(1);
    expect(one('TYPE_INT64', 'TIME', packTime(24, 0, 0, 0).toString()).rowErrors).toHaveLength(1);
    expect(one('TYPE_INT64', 'TIME', packTime(1, 0, 0, 1_000_000).toString()).rowErrors).toHaveLength(1);
  });
  it('TIMESTAMP from int64 / int32 / uint32 microseconds and google.protobuf.Timestamp', () => {
    expect(valueOf(one('TYPE_INT64', 'TIMESTAMP', '-62135596800000000'))).toBe(-62135596800000000n);
    expect(valueOf(one('TYPE_INT32', 'TIMESTAMP', -1))).toBe(-1n);
    expect(valueOf(one('TYPE_UINT32', 'TIMESTAMP', 4000000000))).toBe(4000000000n);
    const d = handDescriptor([{ name: 'c', type: 'TYPE_MESSAGE', typeName: '.google.protobuf.Timestamp' }]);
    expect(decodeWith(d, [{ name: 'c', type: 'TIMESTAMP' }], [{ c: { seconds: 1, nanos: 500999 } }]).rows).toEqual([[1000500n]]);
    expect(one('TYPE_INT64', 'TIMESTAMP', '253402300800000000').rowErrors).toHaveLength(1);
  });
  it('GEOGRAPHY from WKT or GeoJSON, validated', () => {
    expect(valueOf(one('TYPE_STRING', 'GEOGRAPHY', '{"type": "Point", "coordinates": [1, 2]}'))).toBe('POINT(1 2)');
    expect(valueOf(one('TYPE_STRING', 'GEOGRAPHY', 'linestring(0 0, 1 1)'))).toBe('LINESTRING(0 0, 1 1)');
    expect(one('TYPE_STRING', 'GEOGRAPHY', 'POINT(1)').rowErrors).toHaveLength(1);
  });
  it('JSON from valid JSON text; INTERVAL from a literal and google.protobuf.Duration', () => {
    expect(one('TYPE_STRING', 'JSON', '{"a":').rowErrors[0].message).toMatch(/Invalid JSON value/);
    expect(valueOf(one('TYPE_STRING', 'INTERVAL', '1-2 3 4:5:6'))).toEqual({ months: 14, days: 3, micros: 14_706_000_000n });
    const d = handDescriptor([{ name: 'c', type: 'TYPE_MESSAGE', typeName: '.google.protobuf.Duration' }]);
    expect(decodeWith(d, [{ name: 'c', type: 'INTERVAL' }], [{ c: { seconds: 90, nanos: 1000 } }]).rows).toEqual([[{ months: 0, days: 0, micros: 90_000_001n }]]);
  });
  it('RANGE<TIMESTAMP> and RANGE<DATETIME> bounds take their element type\'s proto types', () => {
    const d = handDescriptor([{ name: 'r', type: 'TYPE_MESSAGE', typeName: 'R' }], [
      { name: 'R', field: [{ name: 'start', number: 1, type: 'TYPE_INT64', label: 'LABEL_OPTIONAL' }, { name: 'end', number: 2, type: 'TYPE_INT64', label: 'LABEL_OPTIONAL' }] },
    ]);
    expect(decodeWith(d, [{ name: 'r', type: 'RANGE', rangeElementType: { type: 'TIMESTAMP' } }], [{ r: { end: 5 } }, { r: {} }]).rows).toEqual([[{ start: null, end: 5n }], [{ start: null, end: null }]]);
  });
});

describe('proto rows: schema errors of the request', () => {
  it('a field BigQuery does not convert: INVALID_ARGUMENT "The proto field mismatched with BigQuery field at …"', () => {
    const d = handDescriptor([{ name: 'c', type: 'TYPE_STRING' }]);
    expect(() => protoRowDecoder(d, cols([{ name: 'c', type: 'INTEGER' }]))).toThrow(
      'The proto field mismatched with BigQuery field at root.c, the proto field type string, BigQuery field type INTEGER',
    );
    expect(() => protoRowDecoder(handDescriptor([{ name: 'c', type: 'TYPE_UINT64' }]), cols([{ name: 'c', type: 'INTEGER' }]))).toThrow(/proto field type uint64/);
    expect(() => protoRowDecoder(handDescriptor([{ name: 'c', type: 'TYPE_INT64' }]), cols([{ name: 'c', type: 'INTEGER', mode: 'REPEATED' }]))).toThrow(/BigQuery field type INTEGER REPEATED/);
    expect(() => protoRowDecoder(handDescriptor([{ name: 'c', type: 'TYPE_STRING' }]), cols([{ name: 'c', type: 'TIMESTAMP' }]))).toThrow(/mismatched/);
  });
  it('fields the table lacks: "Input schema has more fields than BigQuery schema, extra fields: …"', () => {
    const d = handDescriptor([{ name: 'a', type: 'TYPE_INT64' }, { name: 'zz', type: 'TYPE_STRING' }]);
    let err: unknown;
    try {
      protoRowDecoder(d, cols([{ name: 'a', type: 'INTEGER' }]));
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ reason: 'invalid', message: "Input schema has more fields than BigQuery schema, extra fields: 'zz'" });
    const nested = handDescriptor([{ name: 'rec', type: 'TYPE_MESSAGE', typeName: 'Rec' }], [{ name: 'Rec', field: [{ name: 'q', number: 1, type: 'TYPE_STRING', label: 'LABEL_OPTIONAL' }] }]);
    expect(() => protoRowDecoder(nested, cols([{ name: 'rec', type: 'RECORD', fields: [{ name: 'x', type: 'STRING' }] }]))).toThrow("extra fields: 'rec.q'");
  });
  it('an unusable descriptor: "Invalid proto schema: …"', () => {
    expect(() => protoRowDecoder(handDescriptor([{ name: 'c', type: 'TYPE_MESSAGE', typeName: 'Nope' }]), cols([{ name: 'c', type: 'RECORD', fields: [{ name: 'x', type: 'STRING' }] }]))).toThrow(/^Invalid proto schema: /);
  });
});

describe('proto rows: row errors and missing values', () => {
  const fields: TableFieldSchema[] = [
    { name: 'id', type: 'INTEGER', mode: 'REQUIRED' },
    { name: 'name', type: 'STRING', maxLength: '5' },
    { name: 'price', type: 'NUMERIC', precision: '5', scale: '2' },
    { name: 'dflt', type: 'STRING', defaultValueExpression: "'x'" },
    { name: 'req_dflt', type: 'INTEGER', mode: 'REQUIRED', defaultValueExpression: '1' },
  ];
  const d = managedDescriptor(fields);
  // A writer schema where every field is optional (a proto2 `required` field is always encoded by
  // protobufjs, so only an optional one can be left out of a row).
  const optional = handDescriptor([
    { name: 'id', type: 'TYPE_INT64' }, { name: 'name', type: 'TYPE_STRING' }, { name: 'req_dflt', type: 'TYPE_INT64' },
  ]);
  it('a REQUIRED column without value is a row error; the request keeps the other rows\' indexes', () => {
    const r = decodeWith(optional, fields, [{ id: 1, req_dflt: 1 }, { name: 'a', req_dflt: 1 }, { id: 3 }]);
    expect(r.rowErrors).toEqual([
      { index: 1, code: 'FIELDS_ERROR', message: 'Field value of id cannot be empty.' },
      { index: 2, code: 'FIELDS_ERROR', message: 'Field value of req_dflt cannot be empty.' },
    ]);
  });
  it('DEFAULT_VALUE leaves columns with a DEFAULT undefined (the inserter fills them), NULL otherwise', () => {
    const r = decodeWith(optional, fields, [{ id: 3 }], { defaultMissingValueInterpretation: 'DEFAULT_VALUE' });
    expect(r.rowErrors).toEqual([]);
    expect(r.rows[0]).toEqual([3n, null, null, undefined, undefined]);
    const per = decodeWith(optional, fields, [{ id: 3, req_dflt: 2 }], { missingValueInterpretations: { DFLT: 'DEFAULT_VALUE' }, defaultMissingValueInterpretation: 'NULL_VALUE' });
    expect(per.rows[0]).toEqual([3n, null, null, undefined, 2n]);
  });
  it('type parameters: STRING(L) too long and NUMERIC(P, S) out of range with BigQuery\'s texts; rounding to S', () => {
    const r = decodeWith(d, fields, [{ id: 1, req_dflt: 1, name: 'abcdef' }, { id: 2, req_dflt: 1, price: '1000' }, { id: 3, req_dflt: 1, price: '1.005' }]);
    expect(r.rowErrors).toEqual([
      { index: 0, code: 'FIELDS_ERROR', message: 'Field name: STRING(5) has maximum length 5 but got a value with length 6' },
      { index: 1, code: 'FIELDS_ERROR', message: 'Field price: NUMERIC(5, 2) has precision 5 and scale 2 but got a value that is not in range of [-999.99, 999.99]' },
    ]);
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0][2]).toBe('1.01');
  });
  it('a REQUIRED STRUCT field without value is a row error naming its path', () => {
    const f: TableFieldSchema[] = [{ name: 'rec', type: 'RECORD', fields: [{ name: 'x', type: 'INTEGER', mode: 'REQUIRED' }, { name: 'y', type: 'STRING' }] }];
    const d2 = handDescriptor([{ name: 'rec', type: 'TYPE_MESSAGE', typeName: 'Rec' }], [
      { name: 'Rec', field: [{ name: 'x', number: 1, type: 'TYPE_INT64', label: 'LABEL_OPTIONAL' }, { name: 'y', number: 2, type: 'TYPE_STRING', label: 'LABEL_OPTIONAL' }] },
    ]);
    const r = decodeWith(d2, f, [{ rec: { y: 'a' } }, { rec: { x: 1 } }]);
    expect(r.rowErrors).toEqual([{ index: 0, code: 'FIELDS_ERROR', message: 'Field value of rec.x cannot be empty.' }]);
    expect(r.rows).toEqual([[[1n, null]]]);
  });
  it('bytes that are no message of the writer schema are a row error', () => {
    const dec = protoRowDecoder(handDescriptor([{ name: 'c', type: 'TYPE_STRING' }]), cols([{ name: 'c', type: 'STRING' }]));
    expect(dec.decode([Uint8Array.from([0x0a, 0x05, 0x61])]).rowErrors).toHaveLength(1);
  });
  it('decodeAsync answers what decode answers, across slices', async () => {
    const f: TableFieldSchema[] = [{ name: 'i', type: 'INTEGER' }];
    const enc = encoder(managedDescriptor(f));
    const rows = Array.from({ length: 20_000 }, (_, i) => enc({ i }));
    const dec = protoRowDecoder(managedDescriptor(f), cols(f));
    const a = await dec.decodeAsync(rows);
    expect(a.rows.length).toBe(20_000);
    expect(a.rows[19_999]).toEqual([19_999n]);
    expect(a).toEqual(dec.decode(rows));
  });
});
