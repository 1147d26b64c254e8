/**
 * BigQuery's two Avro mappings (src/wire/avro.ts) compared, type by type, with schemas BigQuery
 * itself produced or that Google's and Apache's clients declare for it — never with bqemu's own
 * output:
 * - QUOTED_READ_RESPONSE: the `avroSchema.schema` text of a real ReadRowsResponse quoted verbatim in
 *   a public bug report to the AvroConvert library on GitHub ("this is how the data comes from the
 *   bigquery storage api", titled "Trouble getting this to work with BigQuery"), its first two columns — both NULLABLE STRING, as its rows' bytes show
 *   (`02 06 "695"`, `02 08 "1284"`);
 * - QUOTED_NESTED: a Storage Read schema with a REPEATED RECORD quoted by a Beam user (record
 *   `__root__`, array items record `__s_0`, no namespace), three of its columns;
 * - PYTHON_CLIENT: `BQ_TO_AVRO_TYPES` of googleapis/python-bigquery-storage tests/unit/test_reader_v1.py,
 *   the Avro type Google's reader expects for each scalar BigQuery type of a read session, and its
 *   `_bq_to_avro_schema` (record `__root__`, NULLABLE → ["null", T], REQUIRED → T);
 * - BEAM: apache/beam BigQueryAvroUtils (GEOGRAPHY and JSON as string with sqlType,
 *   BIGNUMERIC decimal(77, 38));
 * - EXPORT_DOCS: BigQuery "Export table data", Avro export details (TIMESTAMP always
 *   timestamp-micros; DATE, TIME, DATETIME as date, time-micros and string `datetime` logical types
 *   with useAvroLogicalTypes, strings without; NULLABLE union, REPEATED array; "Parameterized
 *   NUMERIC(P[, S]) and BIGNUMERIC(P[, S]) data types transfer their precision and scale type
 *   parameters to the Avro decimal logical type").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import avro from 'avsc';
import { afterAll, describe, expect, it } from 'vitest';
import { writeAvro } from '../src/engine/export-writers.js';
import type { Column } from '../src/types/schema.js';
import type { BqType } from '../src/types/types.js';
import { avroRowsBytes, avroSchemaJson, avroSchemaOf, type AvroField } from '../src/wire/avro.js';

const T = (kind: string) => ({ kind }) as BqType;

const QUOTED_READ_RESPONSE_PREFIX =
  '{\n    "type": "record",\n    "name": "__root__",\n    "fields": [\n        {\n            "name": "Property_RentRoll_ID",\n            "type": [\n                "null",\n                "string"\n            ]\n        },\n        {\n            "name": "PropertyID",\n            "type": [\n                "null",\n';

const QUOTED_NESTED = {
  type: 'record',
  name: '__root__',
  fields: [
    { name: 'position', type: ['null', 'long'] },
    {
      name: 'values',
      type: {
        type: 'array',
        items: {
          type: 'record',
          name: '__s_0',
          fields: [
            { name: 'sample', type: ['null', 'string'] },
            { name: 'state', type: ['null', 'string'] },
            { name: 'call_DP', type: ['null', 'long'] },
          ],
        },
      },
    },
  ],
};

/** PYTHON_CLIENT's BQ_TO_AVRO_TYPES, by BigQuery type. */
const PYTHON_CLIENT: Record<string, unknown> = {
  INT64: 'long',
  FLOAT64: 'double',
  BOOL: 'boolean',
  NUMERIC: { type: 'bytes', logicalType: 'decimal', precision: 38, scale: 9 },
  STRING: 'string',
  BYTES: 'bytes',
  DATE: { type: 'int', logicalType: 'date' },
  DATETIME: { type: 'string', sqlType: 'DATETIME' },
  TIME: { type: 'long', logicalType: 'time-micros' },
  TIMESTAMP: { type: 'long', logicalType: 'timestamp-micros' },
};

/** BEAM's types for what the Python client's table leaves out. */
const BEAM: Record<string, unknown> = {
  GEOGRAPHY: { type: 'string', sqlType: 'GEOGRAPHY' },
  JSON: { type: 'string', sqlType: 'JSON' },
  BIGNUMERIC: { type: 'bytes', logicalType: 'decimal', precision: 77, scale: 38 },
};

/** The Storage Read schema (parsed) of one column of type `kind`. */
const readField = (kind: string, required = false) => JSON.parse(avroSchemaJson([{ name: 'c', type: T(kind), required }])).fields[0];

describe('Storage Read API Avro schema (avroSchema.schema)', () => {
  it('is the text BigQuery sends: indented by four spaces, record __root__, no namespace, keys type/name/fields (QUOTED_READ_RESPONSE)', () => {
    const text = avroSchemaJson([
      { name: 'Property_RentRoll_ID', type: T('STRING') },
      { name: 'PropertyID', type: T('STRING') },
    ]);
    expect(text.startsWith(QUOTED_READ_RESPONSE_PREFIX)).toBe(true);
    expect(text).toBe(`${QUOTED_READ_RESPONSE_PREFIX}                "string"\n            ]\n        }\n    ]\n}`);
  });

  it.each(Object.keys(PYTHON_CLIENT))('%s: NULLABLE → ["null", T] and REQUIRED → T with the Python client’s Avro type (PYTHON_CLIENT)', (kind) => {
    expect(readField(kind)).toEqual({ name: 'c', type: ['null', PYTHON_CLIENT[kind]] });
    expect(readField(kind, true)).toEqual({ name: 'c', type: PYTHON_CLIENT[kind] });
  });

  it.each(Object.keys(BEAM))('%s: string with sqlType / decimal(77, 38) (BEAM)', (kind) => {
    expect(readField(kind)).toEqual({ name: 'c', type: ['null', BEAM[kind]] });
  });

  it('REPEATED is a non-null array; a STRUCT is a record named __s_0 with nullable fields, no namespace (QUOTED_NESTED)', () => {
    const fields: AvroField[] = [
      { name: 'position', type: T('INT64') },
      {
        name: 'values',
        type: {
          kind: 'ARRAY',
          element: { kind: 'STRUCT', fields: [{ name: 'sample', type: T('STRING') }, { name: 'state', type: T('STRING') }, { name: 'call_DP', type: T('INT64') }] },
        },
      },
    ];
    expect(JSON.parse(avroSchemaJson(fields))).toEqual(QUOTED_NESTED);
  });

  it('numbers nested records __s_0, __s_1… so every name is unique, and avsc accepts the schema', () => {
    const inner: BqType = { kind: 'STRUCT', fields: [{ name: 'x', type: T('INT64') }] };
    const outer: BqType = { kind: 'STRUCT', fields: [{ name: 'in', type: inner }] };
    const s = JSON.parse(avroSchemaJson([{ name: 'p', type: outer }, { name: 'q', type: outer }]));
    const names = JSON.stringify(s).match(/"name":"__s_\d+"/g);
    expect(names).toEqual(['"name":"__s_0"', '"name":"__s_1"', '"name":"__s_2"', '"name":"__s_3"']);
    expect(() => avro.Type.forSchema(s)).not.toThrow();
  });

  it('rows decode with the schema as PYTHON_CLIENT’s values: DATETIME as its text, TIME µs, DATE days, INT64 to ±2^63', () => {
    const fields: AvroField[] = ['INT64', 'DATETIME', 'TIME', 'DATE'].map((k) => ({ name: k.toLowerCase(), type: T(k) }));
    const rows = [
      [2n ** 63n - 1n, '2005-10-26T19:49:41', '16:24:51', '1995-03-17'],
      [-(2n ** 63n), null, null, null],
    ];
    const bigLong = avro.types.LongType.__with({
      fromBuffer: (b: Buffer) => b.readBigInt64LE(),
      toBuffer: (n: bigint) => Buffer.from(new BigInt64Array([n]).buffer),
      fromJSON: BigInt,
      toJSON: String,
      isValid: (n: unknown) => typeof n === 'bigint',
      compare: () => 0,
    });
    const type = avro.Type.forSchema(JSON.parse(avroSchemaJson(fields)), { registry: { long: bigLong } });
    const buf = Buffer.from(avroRowsBytes(fields, rows));
    const first = type.decode(buf, 0);
    const second = type.decode(buf, first.offset);
    expect(second.offset).toBe(buf.length);
    expect(first.value).toEqual({ int64: 2n ** 63n - 1n, datetime: '2005-10-26T19:49:41', time: (16 * 3600 + 24 * 60 + 51) * 1_000_000, date: Date.UTC(1995, 2, 17) / 86_400_000 });
    expect(second.value).toEqual({ int64: -(2n ** 63n), datetime: null, time: null, date: null });
  });
});

describe('Avro export files (extract jobs, EXPORT DATA)', () => {
  const exportField = (kind: string, logicalTypes: boolean, required = false) =>
    (avroSchemaOf([{ name: 'c', type: T(kind), required }], { target: 'export', logicalTypes }).fields as unknown[])[0];

  it.each([
    ['TIMESTAMP', { type: 'long', logicalType: 'timestamp-micros' }, { type: 'long', logicalType: 'timestamp-micros' }],
    ['DATE', 'string', { type: 'int', logicalType: 'date' }],
    ['TIME', 'string', { type: 'long', logicalType: 'time-micros' }],
    ['DATETIME', 'string', { type: 'string', logicalType: 'datetime' }],
    ['INT64', 'long', 'long'],
    ['NUMERIC', { type: 'bytes', logicalType: 'decimal', precision: 38, scale: 9 }, { type: 'bytes', logicalType: 'decimal', precision: 38, scale: 9 }],
  ])('%s: without logical types %j, with them %j (EXPORT_DOCS)', (kind, plain, logical) => {
    expect(exportField(kind, false)).toEqual({ name: 'c', type: ['null', plain] });
    expect(exportField(kind, true)).toEqual({ name: 'c', type: ['null', logical] });
    expect(exportField(kind, true, true)).toEqual({ name: 'c', type: logical });
  });

  it('REPEATED is a non-null array (EXPORT_DOCS); RANGE and INTERVAL are refused', () => {
    expect(exportField('INT64', false)).toEqual({ name: 'c', type: ['null', 'long'] });
    const arr = avroSchemaOf([{ name: 'a', type: { kind: 'ARRAY', element: T('STRING') } }], { target: 'export', logicalTypes: false });
    expect(arr.fields).toEqual([{ name: 'a', type: { type: 'array', items: 'string' } }]);
    expect(() => avroSchemaOf([{ name: 'r', type: { kind: 'RANGE', element: T('DATE') } }], { target: 'export', logicalTypes: true })).toThrow(/not supported/);
    expect(() => avroSchemaOf([{ name: 'i', type: T('INTERVAL') }], { target: 'export', logicalTypes: true })).toThrow(/not supported/);
  });

  it('parameterized NUMERIC(P, S) / BIGNUMERIC(P) columns, sub-fields and elements are decimal(P, S), values at scale S (EXPORT_DOCS)', () => {
    const dec = (precision: number, scale: number) => ({ type: 'bytes', logicalType: 'decimal', precision, scale });
    const s = avroSchemaOf(
      [
        { name: 'n', type: T('NUMERIC'), precision: 10, scale: 2 },
        { name: 'b', type: T('BIGNUMERIC'), precision: 40, required: true },
        { name: 'st', type: { kind: 'STRUCT', fields: [{ name: 'x', type: T('NUMERIC') }] }, subfields: [{ precision: 5, scale: 1 }] },
        { name: 'a', type: { kind: 'ARRAY', element: T('NUMERIC') }, precision: 6, scale: 3 },
        { name: 'plain', type: T('NUMERIC') },
      ],
      { target: 'export', logicalTypes: false },
    );
    expect(s.fields).toEqual([
      { name: 'n', type: ['null', dec(10, 2)] },
      { name: 'b', type: dec(40, 0) },
      { name: 'st', type: ['null', { type: 'record', name: 'Root_st', fields: [{ name: 'x', type: ['null', dec(5, 1)] }] }] },
      { name: 'a', type: { type: 'array', items: dec(6, 3) } },
      { name: 'plain', type: ['null', dec(38, 9)] },
    ]);
  });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-avro-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the container file header carries the schema with its logical types, and INT64 beyond 2^53 is exact', async () => {
    const columns: Column[] = [
      { name: 'id', type: T('INT64'), required: true },
      { name: 'ts', type: T('TIMESTAMP'), required: false },
      { name: 'd', type: T('DATE'), required: false },
      { name: 'n', type: T('NUMERIC'), required: false, precision: 10, scale: 2 },
    ];
    const file = path.join(dir, 'x.avro');
    await writeAvro(file, columns, [[2n ** 63n - 1n, 253402300799999999n, '9999-12-31', '-12345678.9'], [-(2n ** 53n) - 1n, null, null, null]], 'deflate', true);
    let headerSchema = '';
    const records: unknown[] = [];
    const typeHook = (x: unknown) => (x === 'long' || (x as { type?: string })?.type === 'long' ? bigLongReader : undefined);
    await new Promise<void>((resolve, reject) =>
      avro
        .createFileDecoder(file, { parseHook: (schema: avro.Schema) => avro.Type.forSchema(schema, { typeHook } as never) } as never)
        .on('metadata', (_type: unknown, _codec: unknown, header: { meta: Record<string, Buffer> }) => (headerSchema = header.meta['avro.schema'].toString('utf8')))
        .on('data', (r: unknown) => records.push({ ...(r as object) }))
        .on('end', resolve)
        .on('error', reject),
    );
    const raw = JSON.parse(headerSchema);
    expect(raw).toEqual({
      type: 'record',
      name: 'Root',
      fields: [
        { name: 'id', type: 'long' },
        { name: 'ts', type: ['null', { type: 'long', logicalType: 'timestamp-micros' }] },
        { name: 'd', type: ['null', { type: 'int', logicalType: 'date' }] },
        { name: 'n', type: ['null', { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 }] },
      ],
    });
    // -1234567890 (= -12345678.90 at scale 2) in big-endian two's complement: 0xB6 0x69 0xFD 0x2E.
    expect(records).toEqual([
      { id: 2n ** 63n - 1n, ts: 253402300799999999n, d: 2_932_896, n: Buffer.from([0xb6, 0x69, 0xfd, 0x2e]) },
      { id: -(2n ** 53n) - 1n, ts: null, d: null, n: null },
    ]);
  });
});

/** A bigint long for reading files back (avsc's own refuses longs beyond 2^53). */
const bigLongReader = avro.types.LongType.__with({
  fromBuffer: (b: Buffer) => b.readBigInt64LE(),
  toBuffer: (n: bigint) => Buffer.from(new BigInt64Array([n]).buffer),
  fromJSON: BigInt,
  toJSON: String,
  isValid: (n: unknown) => typeof n === 'bigint',
  compare: () => 0,
});
