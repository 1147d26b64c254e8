/**
 * Every BigQuery type read through the Storage Read API in ARROW format, with the official GAPIC
 * client (`@google-cloud/bigquery-storage` v1.BigQueryReadClient) and decoded with apache-arrow.
 *
 * Expected Arrow types and field metadata: BigQuery's Arrow mapping as Google's Python client
 * declares it so that its REST path matches what the Storage Read API sends (python-bigquery
 * `_pyarrow_helpers.py` / `_pandas_helpers.py`: INT64 int64, FLOAT64 float64, NUMERIC
 * decimal128(38, 9), BIGNUMERIC decimal256(76, 38), BOOL bool, STRING utf8, BYTES binary, DATE
 * date32, TIME time64[us], DATETIME timestamp[us] without zone, TIMESTAMP timestamp[us, UTC],
 * GEOGRAPHY and JSON utf8; field metadata `ARROW:extension:name` = `google:sqlType:geography` with
 * `ARROW:extension:metadata` = `{"encoding": "WKT"}`, `google:sqlType:datetime`,
 * `google:sqlType:json`; RANGE<T> struct<start: T, end: T>; STRUCT struct; REPEATED a
 * non-nullable list whose field carries the element's metadata), the same scalar table on
 * BigQuery DataFrames' "data types" page, and INTERVAL as Arrow's month_day_nano interval (three
 * independent signed parts, as BigQuery keeps them:
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#interval_type).
 *
 * Expected values: the literals inserted, in the units of those types (DATE days since
 * 1970-01-01; TIME, DATETIME and TIMESTAMP microseconds; NUMERIC/BIGNUMERIC the unscaled
 * integer value × 10^scale; INTERVAL months, days, nanoseconds), computed here from the
 * literals, never read back from the emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableFromIPC, type Data, type Field, type Table } from 'apache-arrow';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { readClient, tableReaderClient, type ReadClient } from './helpers/storage-read.js';

let t: TestEmulator;
let client: ReadClient;
const P = 'test-project';
const q = async (sql: string) => (await t.bq.query({ query: sql }))[0];

const DAY_MS = 86_400_000;
const days = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / DAY_MS;
const micros = (ms: number, extra = 0n) => BigInt(ms) * 1000n + extra;

beforeAll(async () => {
  t = await startTestEmulator({ projectId: P });
  client = readClient(t.emu);
  await q(`CREATE SCHEMA ty`);
  await q(`CREATE TABLE ty.all_types (id INT64 NOT NULL, f FLOAT64, n NUMERIC, bn BIGNUMERIC, b BOOL, s STRING, y BYTES, d DATE, t TIME, dt DATETIME, ts TIMESTAMP,
    g GEOGRAPHY, j JSON, iv INTERVAL, rd RANGE<DATE>, rdt RANGE<DATETIME>, rts RANGE<TIMESTAMP>,
    st STRUCT<a INT64, b ARRAY<STRING>, c STRUCT<x DATE>>, arr ARRAY<INT64>, arrs ARRAY<STRUCT<k STRING, v FLOAT64>>, ga ARRAY<GEOGRAPHY>, sg STRUCT<g GEOGRAPHY, j JSON>)`);
  await q(`INSERT INTO ty.all_types VALUES (1, 2.5, NUMERIC '123.456789012', BIGNUMERIC '-1.5', TRUE, 'héllo', b'\\x00\\xff', DATE '2026-05-20', TIME '12:34:56.5',
    DATETIME '2026-05-20 12:34:56.123456', TIMESTAMP '2026-05-20 12:34:56.789 UTC', ST_GEOGPOINT(1, 2), JSON '{"a":1}', INTERVAL '1-2 3 4:5:6.789' YEAR TO SECOND,
    RANGE(DATE '2024-01-01', NULL), RANGE(DATETIME '2024-01-01 00:00:00', DATETIME '2024-02-01 00:00:00'), RANGE(NULL, TIMESTAMP '2024-01-01 00:00:00 UTC'),
    STRUCT(7, ['p', NULL], STRUCT(DATE '1970-01-02')), [1, 2], [STRUCT('a', 1.5), STRUCT(NULL, NULL)], [ST_GEOGPOINT(3, 4)], STRUCT(ST_GEOGPOINT(5, 6), JSON '[1]'))`);
  await q(`INSERT INTO ty.all_types (id, n, bn, iv, st) VALUES (2, NUMERIC '-0.000000001', BIGNUMERIC '0.00000000000000000000000000000000000001',
    INTERVAL -5 DAY, STRUCT(NULL, NULL, NULL))`);
  await q(`INSERT INTO ty.all_types (id) VALUES (3)`);
});

afterAll(async () => {
  await client?.close();
  await t?.emu.close();
});

/** Reads the whole table through one ARROW stream; the schema bytes prepended to each batch. */
async function readTable(table: string): Promise<Table[]> {
  const [s] = await client.createReadSession({ parent: `projects/${P}`, readSession: { table, dataFormat: 'ARROW' }, maxStreamCount: 1 });
  const schema = s.arrowSchema!.serializedSchema as Uint8Array;
  const out: Table[] = [];
  for await (const r of client.readRows({ readStream: s.streams![0].name!, offset: 0 })) {
    const batch = r.arrowRecordBatch!.serializedRecordBatch as Uint8Array;
    const bytes = new Uint8Array(schema.length + batch.length);
    bytes.set(schema);
    bytes.set(batch, schema.length);
    out.push(tableFromIPC(bytes));
  }
  return out;
}

/** A signed integer from `count` little-endian 32-bit words starting at `at`. */
function words(w: Uint32Array | Int32Array, at: number, count: number): bigint {
  let u = 0n;
  for (let k = count - 1; k >= 0; k--) u = (u << 32n) | BigInt(w[at + k] >>> 0);
  return u >= 1n << BigInt(32 * count - 1) ? u - (1n << BigInt(32 * count)) : u;
}

/** The raw value at row `i` of a fixed-width column (no Arrow JS conversion): days, µs, unscaled decimals, interval parts. */
function raw(data: Data, i: number): unknown {
  if (!data.getValid(i)) return null;
  const v = data.values as ArrayLike<number | bigint> & (Int32Array | Uint32Array | BigInt64Array);
  const id = String(data.type);
  if (id.startsWith('Decimal')) {
    const n = (data.type as unknown as { bitWidth: number }).bitWidth / 32;
    return words(new Uint32Array(v.buffer, v.byteOffset, v.byteLength / 4), i * n, n);
  }
  if (id.startsWith('Interval')) {
    const w = new Int32Array(v.buffer, v.byteOffset, v.byteLength / 4);
    return { months: w[4 * i], days: w[4 * i + 1], nanos: words(w, 4 * i + 2, 2) };
  }
  if (v instanceof BigInt64Array) return v[i];
  if (id.startsWith('Timestamp') || id.startsWith('Time64')) return words(v as Int32Array, 2 * i, 2);
  return v[i];
}

const col = (tb: Table, name: string) => tb.getChild(name)!.data[0];
const meta = (f: Field) => Object.fromEntries(f.metadata);

describe('every BigQuery type through the GAPIC client in ARROW', () => {
  it("answers BigQuery's Arrow types, nullability and field metadata", async () => {
    const [tb] = await readTable(`projects/${P}/datasets/ty/tables/all_types`);
    const fields = Object.fromEntries(tb.schema.fields.map((f) => [f.name, f]));
    const types = Object.fromEntries(tb.schema.fields.map((f) => [f.name, String(f.type)]));
    expect(types).toEqual({
      id: 'Int64', f: 'Float64', n: 'Decimal[38e+9]', bn: 'Decimal[76e+38]', b: 'Bool', s: 'Utf8', y: 'Binary',
      d: 'Date32<DAY>', t: 'Time64<MICROSECOND>', dt: 'Timestamp<MICROSECOND>', ts: 'Timestamp<MICROSECOND, UTC>',
      g: 'Utf8', j: 'Utf8', iv: 'Interval<MONTH_DAY_NANO>',
      rd: 'Struct<{start:Date32<DAY>, end:Date32<DAY>}>',
      rdt: 'Struct<{start:Timestamp<MICROSECOND>, end:Timestamp<MICROSECOND>}>',
      rts: 'Struct<{start:Timestamp<MICROSECOND, UTC>, end:Timestamp<MICROSECOND, UTC>}>',
      st: 'Struct<{a:Int64, b:List<Utf8>, c:Struct<{x:Date32<DAY>}>}>',
      arr: 'List<Int64>', arrs: 'List<Struct<{k:Utf8, v:Float64}>>', ga: 'List<Utf8>', sg: 'Struct<{g:Utf8, j:Utf8}>',
    });
    // Decimal precision and scale as BigQuery declares them (decimal128(38, 9), decimal256(76, 38)).
    expect(fields.n.type).toMatchObject({ precision: 38, scale: 9, bitWidth: 128 });
    expect(fields.bn.type).toMatchObject({ precision: 76, scale: 38, bitWidth: 256 });
    // Mode → nullability: REQUIRED and REPEATED columns are not nullable, NULLABLE ones are.
    expect(fields.id.nullable).toBe(false);
    expect(fields.arr.nullable).toBe(false);
    expect(fields.f.nullable).toBe(true);
    expect(fields.st.nullable).toBe(true);
    const stChildren = Object.fromEntries(fields.st.type.children.map((c: Field) => [c.name, c.nullable]));
    expect(stChildren).toEqual({ a: true, b: false, c: true });
    expect(fields.arr.type.children[0].name).toBe('item');
    // Extension metadata: GEOGRAPHY (WKT), JSON, DATETIME; a REPEATED column carries its element's.
    expect(meta(fields.g)).toEqual({ 'ARROW:extension:name': 'google:sqlType:geography', 'ARROW:extension:metadata': '{"encoding": "WKT"}' });
    expect(meta(fields.j)).toEqual({ 'ARROW:extension:name': 'google:sqlType:json' });
    expect(meta(fields.dt)).toEqual({ 'ARROW:extension:name': 'google:sqlType:datetime' });
    expect(meta(fields.ga)).toEqual({ 'ARROW:extension:name': 'google:sqlType:geography', 'ARROW:extension:metadata': '{"encoding": "WKT"}' });
    for (const name of ['id', 'f', 'n', 'bn', 'b', 's', 'y', 'd', 't', 'ts', 'iv', 'rd', 'rdt', 'rts', 'st', 'arr', 'sg']) expect(meta(fields[name]), name).toEqual({});
    // RANGE bounds are bare element types: no DATETIME metadata on RANGE<DATETIME>'s start and end
    // (python-bigquery `bq_to_arrow_range_data_type`: `struct([("start", T), ("end", T)])`).
    for (const name of ['rd', 'rdt', 'rts']) for (const c of fields[name].type.children as Field[]) expect(meta(c), `${name}.${c.name}`).toEqual({});
    // STRUCT sub-fields carry their own type's metadata (each sub-field is a field of its own type).
    const nested = Object.fromEntries((fields.sg.type.children as Field[]).map((c) => [c.name, meta(c)]));
    expect(nested).toEqual({ g: meta(fields.g), j: meta(fields.j) });
    expect(meta(fields.sg)).toEqual({});
  });

  it('reads every value in its Arrow representation, and NULLs at every depth', async () => {
    const tables = await readTable(`projects/${P}/datasets/ty/tables/all_types`);
    const rows = tables.flatMap((tb) => tb.toArray().map((r, i) => ({ tb, i, json: r.toJSON() as Record<string, unknown> })));
    rows.sort((a, b) => Number(a.json.id) - Number(b.json.id));
    expect(rows.map((r) => r.json.id)).toEqual([1n, 2n, 3n]);
    const [one, two, three] = rows;
    const at = (r: (typeof rows)[number], name: string) => raw(col(r.tb, name), r.i);

    expect(one.json).toMatchObject({ f: 2.5, b: true, s: 'héllo', g: 'POINT(1 2)', j: '{"a":1}' });
    expect([...(one.json.y as Uint8Array)]).toEqual([0, 255]);
    expect(at(one, 'n')).toBe(123_456_789_012n); // 123.456789012 × 10^9
    expect(at(one, 'bn')).toBe(-15n * 10n ** 37n); // -1.5 × 10^38
    expect(at(one, 'd')).toBe(days(2026, 5, 20));
    expect(at(one, 't')).toBe(((12n * 60n + 34n) * 60n + 56n) * 1_000_000n + 500_000n);
    expect(at(one, 'dt')).toBe(micros(Date.UTC(2026, 4, 20, 12, 34, 56), 123_456n));
    expect(at(one, 'ts')).toBe(micros(Date.UTC(2026, 4, 20, 12, 34, 56, 789)));
    // INTERVAL '1-2 3 4:5:6.789' YEAR TO SECOND: 14 months, 3 days, 4:05:06.789 in nanoseconds.
    expect(at(one, 'iv')).toEqual({ months: 14, days: 3, nanos: (4n * 3600n + 5n * 60n + 6n) * 1_000_000_000n + 789_000_000n });

    // RANGE bounds: a NULL bound is an unbounded end (https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#range_type).
    const bounds = (r: (typeof rows)[number], name: string) => {
      const d = col(r.tb, name);
      return d.getValid(r.i) ? { start: raw(d.children[0], r.i), end: raw(d.children[1], r.i) } : null;
    };
    expect(bounds(one, 'rd')).toEqual({ start: days(2024, 1, 1), end: null });
    expect(bounds(one, 'rdt')).toEqual({ start: micros(Date.UTC(2024, 0, 1)), end: micros(Date.UTC(2024, 1, 1)) });
    expect(bounds(one, 'rts')).toEqual({ start: null, end: micros(Date.UTC(2024, 0, 1)) });

    // STRUCT with an ARRAY holding a NULL element and a nested STRUCT; ARRAYs of scalars and of STRUCTs with NULL fields.
    const st = one.json.st as { a: bigint; b: unknown; c: { x: unknown } };
    expect(st.a).toBe(7n);
    expect([...(st.b as Iterable<unknown>)]).toEqual(['p', null]);
    expect(raw(col(one.tb, 'st').children[2].children[0], one.i)).toBe(1);
    expect([...(one.json.arr as Iterable<unknown>)]).toEqual([1n, 2n]);
    expect([...(one.json.arrs as Iterable<{ toJSON(): unknown }>)].map((x) => x.toJSON())).toEqual([{ k: 'a', v: 1.5 }, { k: null, v: null }]);
    expect([...(one.json.ga as Iterable<unknown>)]).toEqual(['POINT(3 4)']);
    expect((one.json.sg as { toJSON(): unknown }).toJSON()).toEqual({ g: 'POINT(5 6)', j: '[1]' });

    // Row 2: the smallest NUMERIC and BIGNUMERIC steps, a negative INTERVAL, a STRUCT whose fields are all NULL.
    expect(at(two, 'n')).toBe(-1n);
    expect(at(two, 'bn')).toBe(1n);
    expect(at(two, 'iv')).toEqual({ months: 0, days: -5, nanos: 0n });
    const st2 = col(two.tb, 'st');
    expect(st2.getValid(two.i)).toBe(true);
    expect(raw(st2.children[0], two.i)).toBeNull();
    expect(st2.children[2].getValid(two.i)).toBe(false);
    expect([...(two.json.st as { b: Iterable<unknown> }).b]).toEqual([]); // a NULL ARRAY is read as empty (REPEATED)

    // Row 3: NULL in every NULLABLE column, empty REPEATED columns.
    for (const name of ['f', 'n', 'bn', 'b', 's', 'y', 'd', 't', 'dt', 'ts', 'g', 'j', 'iv', 'rd', 'rdt', 'rts', 'st', 'sg']) {
      expect(col(three.tb, name).getValid(three.i), name).toBe(false);
    }
    for (const name of ['arr', 'arrs', 'ga']) expect([...(three.json[name] as Iterable<unknown>)], name).toEqual([]);
  });

  it('the high-level reader.ReadClient reads the same table: every type through its Arrow record batches', async () => {
    const rc = tableReaderClient(t.emu);
    try {
      const reader = await rc.createArrowTableReader({ table: { projectId: P, datasetId: 'ty', tableId: 'all_types' } });
      const ids: bigint[] = [];
      let names: string[] = [];
      for await (const batch of await reader.getRecordBatchStream()) {
        names = batch.schema.fields.map((f: Field) => f.name);
        for (let i = 0; i < batch.numRows; i++) ids.push(batch.getChild('id')!.get(i) as bigint);
        expect(String(batch.getChild('iv')!.type)).toBe('Interval<MONTH_DAY_NANO>');
      }
      expect(names).toEqual(['id', 'f', 'n', 'bn', 'b', 's', 'y', 'd', 't', 'dt', 'ts', 'g', 'j', 'iv', 'rd', 'rdt', 'rts', 'st', 'arr', 'arrs', 'ga', 'sg']);
      expect(ids.sort()).toEqual([1n, 2n, 3n]);
    } finally {
      rc.close();
    }
  });
});
