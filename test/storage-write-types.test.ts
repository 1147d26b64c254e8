/**
 * Every BigQuery type written through the Storage Write API and read back through REST queries
 * (`@google-cloud/bigquery`), cell by cell: through the managed writer's `JSONWriter` (descriptor
 * from the client's `adapt` helpers), through raw proto rows (`managedwriter.Writer` with
 * serialized messages of a hand-built descriptor using the other proto types BigQuery accepts),
 * and through Arrow rows (raw `AppendRows` of the GAPIC client with an apache-arrow record batch).
 * Expected values: "Supported protocol buffer and Arrow data types"
 * (https://cloud.google.com/bigquery/docs/supported-data-types: DATE −719162 = 0001-01-01,
 * TIMESTAMP in microseconds since the epoch, CivilTimeEncoder's DATETIME/TIME bit layout,
 * BigDecimalByteStringEncoder's NUMERIC bytes, RANGE with an unset bound unbounded) and the
 * GoogleSQL conversion rules for the CAST(… AS STRING) forms read back.
 */
import protobuf from 'protobufjs';
import descriptorExt from 'protobufjs/ext/descriptor/index.js';
import { managedwriter } from '@google-cloud/bigquery-storage';
import { Float64, Int64, Table, TimestampMicrosecond, Utf8, makeData, makeVector, tableToIPC, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrowRecordBatchBytes, arrowSchemaBytes, type ArrowField } from '../src/wire/arrow.js';
import type { BqType, Value } from '../src/types/types.js';
import type { TestEmulator } from './helpers/emulator.js';
import { appendArrowIpc, appendArrowRows, descriptorOf, jsonWriter, tableName, startWriteEmulator, stopWriteEmulator, type WriteClient, type WriterClient } from './helpers/storage-write.js';

let t: TestEmulator;
let client: WriterClient;
let gapic: WriteClient;
const P = 'test-project';
const D = 'swtypes';

const q = async (sql: string) => (await t.bq.query({ query: sql }))[0] as Record<string, unknown>[];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const result = async (pw: { getResult(): Promise<any> }) => pw.getResult();

const ALL_TYPES = `i INT64, f FLOAT64, b BOOL, s STRING, bt BYTES, n NUMERIC, bn BIGNUMERIC, d DATE, dt DATETIME, t TIME,
  ts TIMESTAMP, g GEOGRAPHY, j JSON, rec STRUCT<x INT64, tags ARRAY<STRING>>, arr ARRAY<INT64>, r RANGE<DATE>`;

/** Every column as text: CAST(… AS STRING) for scalars, TO_JSON_STRING for composites. */
const READ_BACK = `SELECT CAST(i AS STRING) i, CAST(f AS STRING) f, CAST(b AS STRING) b, s, TO_BASE64(bt) bt, CAST(n AS STRING) n,
  CAST(bn AS STRING) bn, CAST(d AS STRING) d, CAST(dt AS STRING) dt, CAST(t AS STRING) t, CAST(ts AS STRING) ts, ST_ASTEXT(g) g,
  TO_JSON_STRING(j) j, TO_JSON_STRING(rec) rec, TO_JSON_STRING(arr) arr, CAST(RANGE_START(r) AS STRING) r_start, RANGE_END(r) IS NULL r_unbounded`;

beforeAll(async () => {
  ({ t, client, gapic } = await startWriteEmulator(D, P));
}, 60_000);

afterAll(() => stopWriteEmulator({ t, client, gapic }));

describe('every type through JSONWriter (the managed writer, descriptor from adapt)', () => {
  it('writes each value as BigQuery documents it and reads it back', async () => {
    await q(`CREATE TABLE ${D}.json_all (${ALL_TYPES})`);
    const w = await jsonWriter(client, t.bq, { projectId: P, dataset: D, table: 'json_all' });
    const r = await result(w.appendRows([{
      i: '9223372036854775807', f: 1.5, b: true, s: 'héllo', bt: 'AP8=', n: '123.456', bn: '1.23456789012345678901234567890123456789',
      d: -719162, dt: '2024-03-05 12:34:56.789012', t: '23:59:59.999999', ts: 1700000000123456, g: 'POINT(1 2)', j: '{"a": [1, 2]}',
      rec: { x: 7, tags: ['a', 'b'] }, arr: [1, 2, 3], r: { start: 19723 },
    }]));
    expect(r.error ?? null).toBeNull();
    expect(await q(`${READ_BACK} FROM ${D}.json_all`)).toEqual([{
      i: '9223372036854775807', f: '1.5', b: 'true', s: 'héllo', bt: 'AP8=', n: '123.456', bn: '1.23456789012345678901234567890123456789',
      d: '0001-01-01', dt: '2024-03-05 12:34:56.789012', t: '23:59:59.999999', ts: '2023-11-14 22:13:20.123456+00', g: 'POINT(1 2)',
      j: '{"a":[1,2]}', rec: '{"x":7,"tags":["a","b"]}', arr: '[1,2,3]', r_start: '2024-01-01', r_unbounded: true,
    }]);
    w.close();
  });

  it('a column whose name is no proto identifier, through the managed writer\'s placeholder field and column_name annotation', async () => {
    await q(`CREATE TABLE ${D}.flex (id INT64, \`my-col\` STRING)`);
    const w = await jsonWriter(client, t.bq, { projectId: P, dataset: D, table: 'flex' });
    expect((await result(w.appendRows([{ id: 1, 'my-col': 'v' }]))).error ?? null).toBeNull();
    expect(await q(`SELECT id, \`my-col\` c FROM ${D}.flex`)).toEqual([{ id: 1, c: 'v' }]);
    w.close();
  });

  it('a row that does not fit is refused with rowErrors and nothing of the request is appended', async () => {
    await q(`CREATE TABLE ${D}.json_bad (id INT64 NOT NULL, name STRING(3), d DATE)`);
    const w = await jsonWriter(client, t.bq, { projectId: P, dataset: D, table: 'json_bad' });
    const r = await result(w.appendRows([{ id: 1, name: 'abc' }, { id: 2, name: 'abcd' }, { id: 3, d: 2932897 }]));
    expect(r.error?.code).toBe(3);
    expect(r.rowErrors.map((e: { index: unknown; code: unknown; message: string }) => [Number(e.index), e.code, e.message])).toEqual([
      [1, 'FIELDS_ERROR', 'Field name: STRING(3) has maximum length 3 but got a value with length 4'],
      [2, 'FIELDS_ERROR', 'Field d: value 2932897 is out of range for DATE'],
    ]);
    expect(await q(`SELECT COUNT(*) n FROM ${D}.json_bad`)).toEqual([{ n: 0 }]);
    w.close();
  });
});

const DP = (descriptorExt as unknown as { DescriptorProto: protobuf.Type }).DescriptorProto;

/** CivilTimeEncoder's packed values (TIME: hour << 32 | minute << 26 | second << 20 | micros; DATETIME adds year << 46 | month << 42 | day << 37). */
const packTime = (h: number, m: number, s: number, us: number) => (BigInt(h) << 32n) | (BigInt(m) << 26n) | (BigInt(s) << 20n) | BigInt(us);
const packDatetime = (y: number, mo: number, d: number, h: number, m: number, s: number, us: number) =>
  (BigInt(y) << 46n) | (BigInt(mo) << 42n) | (BigInt(d) << 37n) | packTime(h, m, s, us);

describe('raw proto rows with the other documented proto types', () => {
  it('NUMERIC bytes, packed DATETIME/TIME, google.protobuf.Timestamp, enum, wrappers, sint64, string BYTES', async () => {
    await q(`CREATE TABLE ${D}.raw_all (i INT64, n NUMERIC, dt DATETIME, t TIME, ts TIMESTAMP, s STRING, bt BYTES, w INT64, b BOOL)`);
    const descriptor = {
      name: 'Row',
      field: [
        { name: 'i', number: 1, type: 'TYPE_SINT64', label: 'LABEL_OPTIONAL' },
        { name: 'n', number: 2, type: 'TYPE_BYTES', label: 'LABEL_OPTIONAL' },
        { name: 'dt', number: 3, type: 'TYPE_INT64', label: 'LABEL_OPTIONAL' },
        { name: 't', number: 4, type: 'TYPE_INT64', label: 'LABEL_OPTIONAL' },
        { name: 'ts', number: 5, type: 'TYPE_MESSAGE', typeName: '.google.protobuf.Timestamp', label: 'LABEL_OPTIONAL' },
        { name: 's', number: 6, type: 'TYPE_ENUM', typeName: 'Color', label: 'LABEL_OPTIONAL' },
        { name: 'bt', number: 7, type: 'TYPE_STRING', label: 'LABEL_OPTIONAL' },
        { name: 'w', number: 8, type: 'TYPE_MESSAGE', typeName: '.google.protobuf.Int64Value', label: 'LABEL_OPTIONAL' },
        { name: 'b', number: 9, type: 'TYPE_INT32', label: 'LABEL_OPTIONAL' },
      ],
      enumType: [{ name: 'Color', value: [{ name: 'NONE', number: 0 }, { name: 'GREEN', number: 2 }] }],
    };
    const root = new protobuf.Root();
    for (const f of ['google/protobuf/wrappers.proto', 'google/protobuf/timestamp.proto'])
      root.addJSON((protobuf.common as unknown as Record<string, { nested: protobuf.INamespace['nested'] }>)[f].nested!);
    const type = (protobuf.Type as unknown as { fromDescriptor(d: unknown): protobuf.Type }).fromDescriptor(DP.fromObject(descriptor));
    root.add(type);
    root.resolveAll();
    // 1.2 as BigDecimalByteStringEncoder writes it: 1.2 × 10^9 = 0x47868C00, little-endian.
    const row = type.encode(type.fromObject({
      i: '-9000000000000000000', n: Buffer.from([0x00, 0x8c, 0x86, 0x47]), dt: packDatetime(2024, 2, 29, 1, 2, 3, 4).toString(),
      t: packTime(12, 0, 0, 500000).toString(), ts: { seconds: 1700000000, nanos: 123456000 }, s: 'GREEN', bt: 'é', w: { value: 5 }, b: 2,
    })).finish();
    const connection = await client.createStreamConnection({ streamId: managedwriter.DefaultStream, destinationTable: tableName(P, D, 'raw_all') });
    const writer = new managedwriter.Writer({ connection, protoDescriptor: DP.fromObject(descriptor) as never });
    const r = await result(writer.appendRows({ serializedRows: [row] }));
    expect(r.error ?? null).toBeNull();
    expect(await q(`SELECT CAST(i AS STRING) i, CAST(n AS STRING) n, CAST(dt AS STRING) dt, CAST(t AS STRING) t, CAST(ts AS STRING) ts, s,
      TO_HEX(bt) bt, w, b FROM ${D}.raw_all`)).toEqual([{
      i: '-9000000000000000000', n: '1.2', dt: '2024-02-29 01:02:03.000004', t: '12:00:00.500', ts: '2023-11-14 22:13:20.123456+00', s: 'GREEN',
      bt: 'c3a9', w: 5, b: true,
    }]);
    writer.close();
  });
});

describe('missing values and writer schemas that do not fit', () => {
  it('DEFAULT_VALUE fills unset columns with their DEFAULT (NULL without one); NULL_VALUE per column keeps NULL', async () => {
    await q(`CREATE TABLE ${D}.dflt (id INT64, s STRING DEFAULT 'dflt', n INT64 DEFAULT 7 NOT NULL, plain STRING)`);
    const connection = await client.createStreamConnection({ streamId: managedwriter.DefaultStream, destinationTable: tableName(P, D, 'dflt') });
    const protoDescriptor = await descriptorOf(t.bq, D, 'dflt');
    const w = new managedwriter.JSONWriter({ connection, protoDescriptor, defaultMissingValueInterpretation: 'DEFAULT_VALUE' });
    expect((await result(w.appendRows([{ id: 1 }]))).error ?? null).toBeNull();
    const w2 = new managedwriter.JSONWriter({ connection, protoDescriptor, defaultMissingValueInterpretation: 'DEFAULT_VALUE', missingValueInterpretations: { s: 'NULL_VALUE' } });
    expect((await result(w2.appendRows([{ id: 2 }]))).error ?? null).toBeNull();
    expect(await q(`SELECT id, s, n, plain FROM ${D}.dflt ORDER BY id`)).toEqual([
      { id: 1, s: 'dflt', n: 7, plain: null },
      { id: 2, s: null, n: 7, plain: null },
    ]);
    connection.close();
  });

  it('a writer field the table lacks ends the connection: INVALID_ARGUMENT "Input schema has more fields than BigQuery schema, extra fields: …"', async () => {
    await q(`CREATE TABLE ${D}.extra (id INT64)`);
    const connection = await client.createStreamConnection({ streamId: managedwriter.DefaultStream, destinationTable: tableName(P, D, 'extra') });
    const errors: { code?: number; message: string }[] = [];
    connection.onConnectionError((e) => errors.push(e as { code?: number; message: string }));
    const protoDescriptor = await descriptorOf(t.bq, D, 'extra');
    protoDescriptor.field = [...(protoDescriptor.field ?? []), { name: 'customer_email', number: 2, type: 9 as never, label: 1 as never }];
    const w = new managedwriter.JSONWriter({ connection, protoDescriptor });
    await result(w.appendRows([{ id: 1, customer_email: 'x@example.com' }])).catch(() => undefined);
    expect(errors.map((e) => [e.code, e.message])).toEqual([[3, "3 INVALID_ARGUMENT: Input schema has more fields than BigQuery schema, extra fields: 'customer_email'"]]);
    expect(await q(`SELECT COUNT(*) n FROM ${D}.extra`)).toEqual([{ n: 0 }]);
    connection.close();
  });
});

describe('Arrow rows (raw AppendRows with an apache-arrow record batch)', () => {
  it('every type in BigQuery\'s own Arrow mapping (the Read API\'s types) reads back as through JSONWriter', async () => {
    await q(`CREATE TABLE ${D}.arrow_types (${ALL_TYPES})`);
    const T = (kind: string) => ({ kind }) as BqType;
    const fields: ArrowField[] = [
      { name: 'i', type: T('INT64') }, { name: 'f', type: T('FLOAT64') }, { name: 'b', type: T('BOOL') }, { name: 's', type: T('STRING') },
      { name: 'bt', type: T('BYTES') }, { name: 'n', type: T('NUMERIC') }, { name: 'bn', type: T('BIGNUMERIC') }, { name: 'd', type: T('DATE') },
      { name: 'dt', type: T('DATETIME') }, { name: 't', type: T('TIME') }, { name: 'ts', type: T('TIMESTAMP') }, { name: 'g', type: T('GEOGRAPHY') },
      { name: 'j', type: T('JSON') },
      { name: 'rec', type: { kind: 'STRUCT', fields: [{ name: 'x', type: T('INT64') }, { name: 'tags', type: { kind: 'ARRAY', element: T('STRING') } }] } },
      { name: 'arr', type: { kind: 'ARRAY', element: T('INT64') } }, { name: 'r', type: { kind: 'RANGE', element: T('DATE') } },
    ];
    const row: Value[] = [
      9223372036854775807n, 1.5, true, 'héllo', Uint8Array.from([0, 255]), '123.456', '1.23456789012345678901234567890123456789', '0001-01-01',
      '2024-03-05T12:34:56.789012', '23:59:59.999999', 1700000000123456n, 'POINT(1 2)', '{"a":[1,2]}', [7n, ['a', 'b']], [1n, 2n, 3n],
      { start: '2024-01-01', end: null },
    ];
    const responses = await appendArrowRows(gapic, `${tableName(P, D, 'arrow_types')}/streams/_default`, arrowSchemaBytes(fields), arrowRecordBatchBytes(fields, [row]));
    expect(responses.map((r) => r.error ?? null)).toEqual([null]);
    expect(await q(`${READ_BACK} FROM ${D}.arrow_types`)).toEqual([{
      i: '9223372036854775807', f: '1.5', b: 'true', s: 'héllo', bt: 'AP8=', n: '123.456', bn: '1.23456789012345678901234567890123456789',
      d: '0001-01-01', dt: '2024-03-05 12:34:56.789012', t: '23:59:59.999999', ts: '2023-11-14 22:13:20.123456+00', g: 'POINT(1 2)',
      j: '{"a":[1,2]}', rec: '{"x":7,"tags":["a","b"]}', arr: '[1,2,3]', r_start: '2024-01-01', r_unbounded: true,
    }]);
  });

  it('appends an Arrow batch and reads it back', async () => {
    await q(`CREATE TABLE ${D}.arrow_all (i INT64, f FLOAT64, s STRING, ts TIMESTAMP)`);
    const table = new Table({
      i: vectorFromArray([1n, -2n], new Int64()),
      f: vectorFromArray([0.5, 2], new Float64()),
      s: vectorFromArray(['x', null], new Utf8()),
      ts: makeVector(makeData({ type: new TimestampMicrosecond('UTC'), length: 2, nullCount: 0, data: BigInt64Array.from([1700000000123456n, 0n]) })),
    });
    const ipc = tableToIPC(table, 'stream');
    const responses = await appendArrowIpc(gapic, `${tableName(P, D, 'arrow_all')}/streams/_default`, ipc);
    expect(responses).toHaveLength(1);
    expect(responses[0].error ?? null).toBeNull();
    expect(await q(`SELECT i, f, s, CAST(ts AS STRING) ts FROM ${D}.arrow_all ORDER BY i`)).toEqual([
      { i: -2, f: 2, s: null, ts: '1970-01-01 00:00:00+00' },
      { i: 1, f: 0.5, s: 'x', ts: '2023-11-14 22:13:20.123456+00' },
    ]);
  });
});
