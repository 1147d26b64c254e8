/**
 * Storage Write API Arrow rows (src/wire/write-arrow-rows.ts). Input is built two ways: with
 * BigQuery's own Arrow mapping (src/wire/arrow.ts, the types the Read API sends: date32,
 * time64[us], timestamp[us] / timestamp[us, UTC], decimal128(38, 9), decimal256(76, 38), list,
 * struct — BigQuery's Arrow data-type table), so every type must come back as written; and with
 * apache-arrow's own builders (narrower ints, float32, dictionary-encoded strings, nanosecond
 * timestamps) as a writer would build it. Expected values from the GoogleSQL data-types page
 * (ranges) and "Supported protocol buffer and Arrow data types"
 * (https://cloud.google.com/bigquery/docs/supported-data-types).
 */
import { describe, expect, it } from 'vitest';
import { DateDay, Decimal, Field, Float32, Int16, List, Schema, Struct, TimeSecond, TimestampMillisecond, TimestampNanosecond, Utf8, makeData, makeVector, RecordBatch, tableToIPC, Table, vectorFromArray, Int64 } from 'apache-arrow';
import { columnFromField, type Column, type TableFieldSchema } from '../types/schema.js';
import type { BqType, Value } from '../types/types.js';
import { arrowRecordBatchBytes, arrowSchemaBytes, type ArrowField } from './arrow.js';
import { arrowRowDecoder } from './write-arrow-rows.js';

const cols = (fields: TableFieldSchema[]): Column[] =>
  fields.map((f) => ({ ...columnFromField(f), ...(f.defaultValueExpression ? { defaultValueExpression: f.defaultValueExpression } : {}) }));

/** An IPC stream split as a writer sends it: the schema message, then the rest without the end marker. */
function split(table: Table): { schema: Uint8Array; batch: Uint8Array } {
  const bytes = tableToIPC(table, 'stream');
  const metadataLength = new DataView(bytes.buffer, bytes.byteOffset).getInt32(4, true);
  const schemaEnd = 8 + metadataLength;
  return { schema: bytes.slice(0, schemaEnd), batch: bytes.slice(schemaEnd, bytes.length - 8) };
}

describe('Arrow rows in BigQuery\'s own Arrow mapping', () => {
  const T = (kind: string) => ({ kind }) as BqType;
  const fields: ArrowField[] = [
    { name: 'i', type: T('INT64') }, { name: 'f', type: T('FLOAT64') }, { name: 'b', type: T('BOOL') }, { name: 's', type: T('STRING') },
    { name: 'by', type: T('BYTES') }, { name: 'n', type: T('NUMERIC') }, { name: 'bn', type: T('BIGNUMERIC') }, { name: 'd', type: T('DATE') },
    { name: 't', type: T('TIME') }, { name: 'dt', type: T('DATETIME') }, { name: 'ts', type: T('TIMESTAMP') }, { name: 'g', type: T('GEOGRAPHY') },
    { name: 'j', type: T('JSON') }, { name: 'iv', type: T('INTERVAL') },
    { name: 'arr', type: { kind: 'ARRAY', element: T('INT64') } },
    { name: 'rec', type: { kind: 'STRUCT', fields: [{ name: 'x', type: T('STRING') }, { name: 'y', type: { kind: 'ARRAY', element: T('DATE') } }] } },
    { name: 'r', type: { kind: 'RANGE', element: T('TIMESTAMP') } },
  ];
  const columns: Column[] = fields.map((f) => ({ name: f.name, type: f.type, required: false }));
  const rows: Value[][] = [
    [
      -(2n ** 63n), -0.5, true, 'héllo', Uint8Array.from([1, 2]), '-99999999999999999999999999999.999999999',
      '578960446186580977117854925043439539266.34992332820282019728792003956564819967', '0001-01-01', '23:59:59.999999',
      '9999-12-31T23:59:59.999999', 253402300799999999n, 'POINT(1 2)', '{"a":1}', { months: 14, days: -3, micros: 5n },
      [1n, 2n], ['x', ['1970-01-01']], { start: 0n, end: null },
    ],
    fields.map((f) => (f.type.kind === 'ARRAY' ? [] : null)),
  ];
  it('every type comes back as written', () => {
    const dec = arrowRowDecoder(arrowSchemaBytes(fields), columns);
    const r = dec.decode([arrowRecordBatchBytes(fields, rows)]);
    expect(r.rowErrors).toEqual([]);
    expect(r.rows).toEqual(rows);
  });
  it('decodeAsync reads the same', async () => {
    const dec = arrowRowDecoder(arrowSchemaBytes(fields), columns);
    expect(await dec.decodeAsync([arrowRecordBatchBytes(fields, rows)])).toEqual(dec.decode([arrowRecordBatchBytes(fields, rows)]));
  });
});

describe('Arrow rows built with apache-arrow', () => {
  it('narrow ints, float32, dictionary strings and nanosecond timestamps (truncated to microseconds)', () => {
    const table = new Table({
      a: vectorFromArray([1, -2, null], new Int16()),
      f: vectorFromArray([0.5, 1.25, 2], new Float32()),
      s: vectorFromArray(['x', 'y', 'x']),
      ts: makeVector(makeData({ type: new TimestampNanosecond('UTC'), length: 3, nullCount: 0, data: BigInt64Array.from([1_999n, -1n, 0n]) })),
    });
    const { schema, batch } = split(table);
    const fields: TableFieldSchema[] = [{ name: 'A', type: 'INTEGER' }, { name: 'f', type: 'FLOAT' }, { name: 's', type: 'STRING' }, { name: 'ts', type: 'TIMESTAMP' }];
    const r = arrowRowDecoder(schema, cols(fields)).decode([batch]);
    expect(r.rowErrors).toEqual([]);
    expect(r.rows).toEqual([[1n, 0.5, 'x', 1n], [-2n, 1.25, 'y', -1n], [null, 2, 'x', 0n]]);
  });
  it('other units and scales: timestamp[ms] DATETIME, time32[s] TIME, decimal128(10, 2) NUMERIC, date32 DATE, utf8 literals', () => {
    const table = new Table({
      dt: makeVector(makeData({ type: new TimestampMillisecond(), length: 1, nullCount: 0, data: BigInt64Array.from([1_700_000_000_123n]) })),
      t: makeVector(makeData({ type: new TimeSecond(), length: 1, nullCount: 0, data: Int32Array.from([3_723]) })),
      // decimal128 words, little-endian: -12345 at scale 2 = -123.45.
      n: makeVector(makeData({ type: new Decimal(2, 10, 128), length: 1, nullCount: 0, data: Uint32Array.from([0xffffcfc7, 0xffffffff, 0xffffffff, 0xffffffff]) })),
      d: makeVector(makeData({ type: new DateDay(), length: 1, nullCount: 0, data: Int32Array.from([2_932_896]) })),
      lit: vectorFromArray(['2024-02-29 23:59:59.5'], new Utf8()),
    });
    const { schema, batch } = split(table);
    const fields: TableFieldSchema[] = [{ name: 'dt', type: 'DATETIME' }, { name: 't', type: 'TIME' }, { name: 'n', type: 'NUMERIC' }, { name: 'd', type: 'DATE' }, { name: 'lit', type: 'DATETIME' }];
    const r = arrowRowDecoder(schema, cols(fields)).decode([batch]);
    expect(r.rowErrors).toEqual([]);
    expect(r.rows).toEqual([['2023-11-14T22:13:20.123', '01:02:03', '-123.45', '9999-12-31', '2024-02-29T23:59:59.500']]);
  });

  it('a NULL cell is a missing value: REQUIRED → row error, DEFAULT_VALUE → the column DEFAULT', () => {
    const table = new Table({ id: vectorFromArray([1n, null], new Int64()), s: vectorFromArray([null, 'b'], new Utf8()) });
    const { schema, batch } = split(table);
    const fields: TableFieldSchema[] = [{ name: 'id', type: 'INTEGER', mode: 'REQUIRED' }, { name: 's', type: 'STRING', defaultValueExpression: "'d'" }];
    const dec = arrowRowDecoder(schema, cols(fields));
    expect(dec.decode([batch]).rowErrors).toEqual([{ index: 1, code: 'FIELDS_ERROR', message: 'Field value of id cannot be empty.' }]);
    expect(dec.decode([batch], { defaultMissingValueInterpretation: 'DEFAULT_VALUE' }).rows[0]).toEqual([1n, undefined]);
  });
  it('a NULL element of a list is a row error', () => {
    const item = new Field('item', new Int64(), true);
    const child = makeData({ type: new Int64(), length: 3, nullCount: 1, nullBitmap: Uint8Array.from([0b101]), data: BigInt64Array.from([1n, 0n, 3n]) });
    const list = makeData({ type: new List(item), length: 2, nullCount: 0, valueOffsets: Int32Array.from([0, 1, 3]), child });
    const schema = new Schema([new Field('arr', new List(item), true)]);
    const table = new Table(new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: 2, nullCount: 0, children: [list] })));
    const { schema: s, batch } = split(table);
    const r = arrowRowDecoder(s, cols([{ name: 'arr', type: 'INTEGER', mode: 'REPEATED' }])).decode([batch]);
    expect(r.rowErrors).toEqual([{ index: 1, code: 'FIELDS_ERROR', message: 'Field arr: a REPEATED field cannot hold NULL elements' }]);
  });
  it('schema errors: a type BigQuery does not convert, fields the table lacks', () => {
    const { schema } = split(new Table({ a: vectorFromArray(['x'], new Utf8()), zz: vectorFromArray([1], new Int16()) }));
    expect(() => arrowRowDecoder(schema, cols([{ name: 'a', type: 'INTEGER' }, { name: 'zz', type: 'INTEGER' }]))).toThrow(
      'The Arrow field mismatched with BigQuery field at a, the Arrow field type Utf8, BigQuery field type INTEGER',
    );
    expect(() => arrowRowDecoder(schema, cols([{ name: 'a', type: 'STRING' }]))).toThrow("Input schema has more fields than BigQuery schema, extra fields: 'zz'");
    expect(() => arrowRowDecoder(Uint8Array.from([1, 2, 3]), cols([{ name: 'a', type: 'STRING' }]))).toThrow(/^Invalid Arrow schema: /);
  });
});
