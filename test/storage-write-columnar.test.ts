/**
 * Tables whose columns are all INT64, FLOAT64, BOOL or STRING take the Storage Write API's columnar
 * path (src/wire/write-rows-columnar.ts, appended by src/engine/storage-write-commit.ts): these
 * tests write such tables through the official clients (`managedwriter.Writer` with raw proto
 * rows, `JSONWriter`, raw `AppendRows` with apache-arrow batches) and read them back through REST
 * queries. Expected values are the rows the tests write, converted as "Supported protocol buffer
 * and Arrow data types" documents (https://cloud.google.com/bigquery/docs/supported-data-types:
 * INT64 from int32/int64/uint32 forms, FLOAT64 from float/double) — with every edge the typed
 * arrays must keep: int64 extremes, negative int32, uint32 above 2^31, explicit zeros (present on
 * the wire = a value, proto2 presence), unset fields (NULL), NULLs in some DuckDB chunks of 2,048
 * rows and not in the next, and a REQUIRED column left unset (the request refused, nothing written).
 * Requests of 8 KB of rows and more are decoded in a worker thread (src/wire/write-rows-offthread.ts):
 * the JSONWriter cases go that way, the small raw ones stay on the main thread.
 */
import protobuf from 'protobufjs';
import descriptorExt from 'protobufjs/ext/descriptor/index.js';
import { managedwriter } from '@google-cloud/bigquery-storage';
import { Bool, Float32, Int64, Int8, Table, Uint32, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestEmulator } from './helpers/emulator.js';
import { appendArrowIpc, jsonWriter, tableName, startWriteEmulator, stopWriteEmulator, type WriteClient, type WriterClient } from './helpers/storage-write.js';

let t: TestEmulator;
let client: WriterClient;
let gapic: WriteClient;
const P = 'test-project';
const D = 'swcols';

const q = async (sql: string) => (await t.bq.query({ query: sql }))[0] as Record<string, unknown>[];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const result = async (pw: { getResult(): Promise<any> }) => pw.getResult();
const DP = (descriptorExt as unknown as { DescriptorProto: protobuf.Type }).DescriptorProto;

beforeAll(async () => {
  ({ t, client, gapic } = await startWriteEmulator(D, P));
}, 60_000);

afterAll(() => stopWriteEmulator({ t, client, gapic }));

/** A raw-proto writer on `table`'s `_default` stream for `descriptor`, and its row type. */
async function protoWriter(table: string, descriptor: Record<string, unknown>) {
  const type = (protobuf.Type as unknown as { fromDescriptor(d: unknown): protobuf.Type }).fromDescriptor(DP.fromObject(descriptor));
  new protobuf.Root().add(type);
  const connection = await client.createStreamConnection({ streamId: managedwriter.DefaultStream, destinationTable: tableName(P, D, table) });
  const writer = new managedwriter.Writer({ connection, protoDescriptor: DP.fromObject(descriptor) as never });
  return { type, writer, encode: (rows: Record<string, unknown>[]) => rows.map((r) => type.encode(type.fromObject(r)).finish()) };
}

const field = (name: string, number: number, type: string) => ({ name, number, type, label: 'LABEL_OPTIONAL' });

describe('proto rows into a flat table', () => {
  it('every int form, float and double, bool and string, explicit zeros and unset fields read back exactly', async () => {
    await q(`CREATE TABLE ${D}.forms (k INT64, i64 INT64, i32 INT64, u32 INT64, s32 INT64, sf64 INT64, f32 FLOAT64, f64 FLOAT64, b BOOL, s STRING)`);
    const { writer, encode } = await protoWriter('forms', {
      name: 'Row',
      field: [
        field('k', 1, 'TYPE_SINT64'), field('i64', 2, 'TYPE_INT64'), field('i32', 3, 'TYPE_INT32'), field('u32', 4, 'TYPE_UINT32'),
        field('s32', 5, 'TYPE_SINT32'), field('sf64', 6, 'TYPE_SFIXED64'), field('f32', 7, 'TYPE_FLOAT'), field('f64', 8, 'TYPE_DOUBLE'),
        field('b', 9, 'TYPE_BOOL'), field('s', 10, 'TYPE_STRING'),
      ],
    });
    const rows = encode([
      { k: 1, i64: '-9223372036854775808', i32: -2147483648, u32: 4294967295, s32: -7, sf64: '-3', f32: 0.5, f64: -1e300, b: true, s: 'héllo ✓ — longer than twelve bytes' },
      { k: 2, i64: '9223372036854775807', i32: 2147483647, u32: 2147483648, s32: 7, sf64: '4294967296', f32: -2.25, f64: 1.5, b: false, s: 'short' },
      { k: 3, i64: 0, i32: 0, u32: 0, s32: 0, sf64: 0, f32: 0, f64: 0, b: false, s: '' },
      { k: 4 },
    ]);
    const r = await result(writer.appendRows({ serializedRows: rows }));
    expect(r.error ?? null).toBeNull();
    expect(await q(`SELECT k, CAST(i64 AS STRING) i64, i32, u32, s32, CAST(sf64 AS STRING) sf64, f32, f64, b, s FROM ${D}.forms ORDER BY k`)).toEqual([
      { k: 1, i64: '-9223372036854775808', i32: -2147483648, u32: 4294967295, s32: -7, sf64: '-3', f32: 0.5, f64: -1e300, b: true, s: 'héllo ✓ — longer than twelve bytes' },
      { k: 2, i64: '9223372036854775807', i32: 2147483647, u32: 2147483648, s32: 7, sf64: '4294967296', f32: -2.25, f64: 1.5, b: false, s: 'short' },
      { k: 3, i64: '0', i32: 0, u32: 0, s32: 0, sf64: '0', f32: 0, f64: 0, b: false, s: '' },
      { k: 4, i64: null, i32: null, u32: null, s32: null, sf64: null, f32: null, f64: null, b: null, s: null },
    ]);
    writer.close();
  });

  it('a field sent twice in one row keeps its last value (protobuf merges concatenated messages: last one wins), in small and large requests', async () => {
    // Protocol Buffers encoding guide, "Last One Wins": a non-repeated scalar field that appears
    // more than once takes the last value; concatenating two encoded messages merges them.
    await q(`CREATE TABLE ${D}.merged (k INT64, v INT64, f FLOAT64, s STRING)`);
    const { writer, encode } = await protoWriter('merged', {
      name: 'Row',
      field: [field('k', 1, 'TYPE_INT64'), field('v', 2, 'TYPE_INT64'), field('f', 3, 'TYPE_DOUBLE'), field('s', 4, 'TYPE_STRING')],
    });
    const rowOf = (k: number) => {
      const [first, second] = encode([
        { k, v: 1, f: 0.5, s: k % 2 ? 'a first value longer than twelve bytes' : 'first' },
        { v: -k, s: k % 3 ? `second ${k}` : 'a second value longer than twelve bytes' },
      ]);
      return Buffer.concat([first!, second!]);
    };
    // 3 rows (decoded on the main thread), then 2,000 (≥ 8 KB: decoded in the worker thread).
    for (const [from, to] of [[0, 3], [3, 2003]]) {
      const rows = Array.from({ length: to! - from! }, (_, i) => rowOf(from! + i));
      expect((await result(writer.appendRows({ serializedRows: rows }))).error ?? null).toBeNull();
    }
    const expected = (k: number) => ({ k, v: k ? -k : 0, f: 0.5, s: k % 3 ? `second ${k}` : 'a second value longer than twelve bytes' });
    expect(await q(`SELECT k, v, f, s FROM ${D}.merged WHERE k IN (0, 1, 2, 3, 1000, 2002) ORDER BY k`)).toEqual([0, 1, 2, 3, 1000, 2002].map(expected));
    expect(await q(`SELECT COUNT(*) n, COUNTIF(v != -k) vbad, COUNTIF(s != IF(MOD(k, 3) = 0, 'a second value longer than twelve bytes', CONCAT('second ', CAST(k AS STRING)))) sbad FROM ${D}.merged`)).toEqual([
      { n: 2003, vbad: 0, sbad: 0 },
    ]);
    writer.close();
  });

  it('a REQUIRED column left unset refuses the request with its row error; nothing of it is written', async () => {
    await q(`CREATE TABLE ${D}.req (k INT64 NOT NULL, s STRING)`);
    const { writer, encode } = await protoWriter('req', { name: 'Row', field: [field('k', 1, 'TYPE_INT64'), field('s', 2, 'TYPE_STRING')] });
    const r = await result(writer.appendRows({ serializedRows: encode([{ k: 1, s: 'a' }, { s: 'b' }]) }));
    expect(r.rowErrors?.map((e: { index: unknown; code: unknown }) => [String(e.index), e.code])).toEqual([['1', 'FIELDS_ERROR']]);
    expect(await q(`SELECT COUNT(*) n FROM ${D}.req`)).toEqual([{ n: 0 }]);
    writer.close();
  });
});

describe('JSONWriter into a flat table', () => {
  it('5,000 rows with NULLs in some chunks of 2,048 rows and not in others read back row for row', async () => {
    await q(`CREATE TABLE ${D}.chunks (k INT64, v INT64, f FLOAT64, s STRING)`);
    const w = await jsonWriter(client, t.bq, { projectId: P, dataset: D, table: 'chunks' });
    const rows = Array.from({ length: 5000 }, (_, k) => ({
      k,
      // NULL only inside the second chunk (rows 2,048–4,095), so the third must read as set again.
      v: k >= 2100 && k < 2200 ? null : k * 2,
      f: k % 7 === 0 ? null : k / 4,
      s: k % 3 === 0 ? null : k % 5 === 0 ? `a longer string value number ${k}` : `s${k}`,
    }));
    for (let i = 0; i < rows.length; i += 1000) expect((await result(w.appendRows(rows.slice(i, i + 1000) as never))).error ?? null).toBeNull();
    expect(await q(`SELECT COUNT(*) n, COUNTIF(v IS NULL) vn, COUNTIF(v != k * 2) vbad, COUNTIF(f IS NULL) fn, COUNTIF(f != k / 4) fbad,
      COUNTIF(s IS NULL) sn, COUNTIF(s != IF(MOD(k, 5) = 0, CONCAT('a longer string value number ', CAST(k AS STRING)), CONCAT('s', CAST(k AS STRING)))) sbad
      FROM ${D}.chunks`)).toEqual([{
      n: 5000,
      vn: 100,
      vbad: 0,
      fn: rows.filter((r) => r.f === null).length,
      fbad: 0,
      sn: rows.filter((r) => r.s === null).length,
      sbad: 0,
    }]);
    expect(await q(`SELECT k, v, f, s FROM ${D}.chunks WHERE k IN (2099, 2100, 4201, 4999) ORDER BY k`)).toEqual([
      { k: 2099, v: 4198, f: 2099 / 4, s: 's2099' },
      { k: 2100, v: null, f: null, s: null },
      { k: 4201, v: 8402, f: 4201 / 4, s: 's4201' },
      { k: 4999, v: 9998, f: 4999 / 4, s: 's4999' },
    ]);
    w.close();
  });
});

describe('large requests (decoded in the worker thread)', () => {
  it('non-ASCII strings and NULLs of a large JSONWriter append read back row for row', async () => {
    await q(`CREATE TABLE ${D}.wide (k INT64, s STRING)`);
    const w = await jsonWriter(client, t.bq, { projectId: P, dataset: D, table: 'wide' });
    const rows = Array.from({ length: 2000 }, (_, k) => ({ k, s: k % 10 === 0 ? null : `ünïcödé ✓ ${k}` }));
    expect((await result(w.appendRows(rows as never))).error ?? null).toBeNull();
    expect(await q(`SELECT COUNT(*) n, COUNTIF(s IS NULL) sn, COUNTIF(s != CONCAT('ünïcödé ✓ ', CAST(k AS STRING))) sbad, SUM(k) ks FROM ${D}.wide`)).toEqual([
      { n: 2000, sn: 200, sbad: 0, ks: 1999000 },
    ]);
    // The streaming buffer's estimate by BigQuery's data sizes (INT64 8 bytes; STRING 2 + its UTF-8 bytes,
    // https://cloud.google.com/bigquery/docs/storage_overview#data_size_calculation).
    const [meta] = await t.bq.dataset(D).table('wide').getMetadata();
    const expected = 2000 * 8 + rows.reduce((n, r) => n + (r.s === null ? 0 : 2 + Buffer.byteLength(r.s)), 0);
    expect(meta.streamingBuffer?.estimatedBytes).toBe(String(expected));
    w.close();
  });
});

describe('large requests with a REQUIRED column (the worker leaves the refusal to the row path)', () => {
  it('a large append whose row 1,500 leaves the REQUIRED column unset is refused with that row error; the next append is written', async () => {
    await q(`CREATE TABLE ${D}.req_large (k INT64 NOT NULL, s STRING)`);
    const w = await jsonWriter(client, t.bq, { projectId: P, dataset: D, table: 'req_large' });
    const rows: Record<string, unknown>[] = Array.from({ length: 2000 }, (_, k) => ({ k, s: `row ${k}` }));
    rows[1500] = { s: 'no k' };
    const r = await result(w.appendRows(rows as never));
    expect(r.rowErrors?.map((e: { index: unknown; code: unknown }) => [String(e.index), e.code])).toEqual([['1500', 'FIELDS_ERROR']]);
    rows[1500] = { k: 1500, s: 'row 1500' };
    expect((await result(w.appendRows(rows as never))).error ?? null).toBeNull();
    expect(await q(`SELECT COUNT(*) n, SUM(k) ks, COUNTIF(s != CONCAT('row ', CAST(k AS STRING))) sbad FROM ${D}.req_large`)).toEqual([{ n: 2000, ks: 1999000, sbad: 0 }]);
    w.close();
  });
});

describe('Arrow rows into a flat table', () => {
  it('int8, uint32, int64, float32, bool and utf8 (ASCII and not) columns with NULL cells read back exactly', async () => {
    await q(`CREATE TABLE ${D}.arrow_flat (i INT64, i8 INT64, u32 INT64, f32 FLOAT64, b BOOL, s STRING, a STRING)`);
    const ipc = tableToIPC(
      new Table({
        i: vectorFromArray([-9223372036854775808n, null, 5n], new Int64()),
        i8: vectorFromArray([-128, 127, null], new Int8()),
        u32: vectorFromArray([4294967295, null, 0], new Uint32()),
        f32: vectorFromArray([0.25, null, -8], new Float32()),
        b: vectorFromArray([true, false, null], new Bool()),
        s: vectorFromArray(['é', null, 'a string longer than twelve bytes'], new Utf8()),
        // ASCII only (decoded once and cut into cells), with a NULL and an empty string.
        a: vectorFromArray(['plain ascii text', null, ''], new Utf8()),
      }),
      'stream',
    );
    const responses = await appendArrowIpc(gapic, `${tableName(P, D, 'arrow_flat')}/streams/_default`, ipc);
    expect(responses.map((r) => r.error ?? null)).toEqual([null]);
    expect(await q(`SELECT CAST(i AS STRING) i, i8, u32, f32, b, s, a FROM ${D}.arrow_flat ORDER BY i8 NULLS LAST`)).toEqual([
      { i: '-9223372036854775808', i8: -128, u32: 4294967295, f32: 0.25, b: true, s: 'é', a: 'plain ascii text' },
      { i: null, i8: 127, u32: null, f32: null, b: false, s: null, a: null },
      { i: '5', i8: null, u32: 0, f32: -8, b: null, s: 'a string longer than twelve bytes', a: '' },
    ]);
  });
});
