/**
 * CreateReadSession options of the Storage Read API beyond projection and restriction, through the
 * official Node client (`@google-cloud/bigquery-storage` GAPIC v1.BigQueryReadClient, Arrow decoded
 * with apache-arrow): `tableModifiers.snapshotTime` (stream.proto: "The snapshot time of the table.
 * If not set, interpreted as now."), `readOptions.samplePercentage` (stream.proto: TABLESAMPLE SYSTEM
 * (sample_percentage PERCENT)) and nested `selectedFields` `s.f` (stream.proto: "Specifying
 * struct_field.string_field1 … will result in a read session schema" holding only that sub-field).
 * Expected rows are the rows the test inserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { readAvroStream, readClient, readStream, type ReadClient, grpcErrorOf } from './helpers/storage-read.js';

let t: TestEmulator;
let client: ReadClient;
const P = 'test-project';
const tablePath = (tb: string) => `projects/${P}/datasets/so/tables/${tb}`;
const q = async (sql: string) => (await t.bq.query({ query: sql }))[0];

interface Extra {
  snapshotTime?: { seconds: number; nanos: number };
  samplePercentage?: number;
  selectedFields?: string[];
  maxStreamCount?: number;
}

async function readAll(table: string, extra: Extra = {}) {
  const [s] = await client.createReadSession({
    parent: `projects/${P}`,
    readSession: {
      table,
      dataFormat: 'ARROW',
      tableModifiers: extra.snapshotTime ? { snapshotTime: extra.snapshotTime } : undefined,
      readOptions: { selectedFields: extra.selectedFields ?? [], samplePercentage: extra.samplePercentage },
    },
    maxStreamCount: extra.maxStreamCount ?? 1,
  });
  const schema = s.arrowSchema!.serializedSchema as Uint8Array;
  const rows: Record<string, unknown>[] = [];
  for (const st of s.streams ?? []) rows.push(...(await readStream(client, schema, st.name!)).rows);
  return { s, rows };
}


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tsOf = (ms: number) => ({ seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 });

beforeAll(async () => {
  t = await startTestEmulator({ projectId: P });
  client = readClient(t.emu);
  await q(`CREATE SCHEMA so`);
});

afterAll(async () => {
  await client?.close();
  await t?.emu.close();
});

describe('tableModifiers.snapshotTime', () => {
  it('reads the table as of the snapshot time: rows inserted later are not read', async () => {
    await q(`CREATE TABLE so.hist (id INT64)`);
    await q(`INSERT INTO so.hist VALUES (1), (2)`);
    await sleep(50);
    const noted = Date.now();
    await sleep(50);
    await q(`INSERT INTO so.hist VALUES (3)`);
    const old = await readAll(tablePath('hist'), { snapshotTime: tsOf(noted) });
    expect(old.rows.map((r) => r.id).sort()).toEqual([1n, 2n]);
    expect(Number(old.s.estimatedRowCount)).toBe(2);
    const now = await readAll(tablePath('hist'));
    expect(now.rows.map((r) => r.id).sort()).toEqual([1n, 2n, 3n]);
  });

  it('a snapshot time before the table existed is INVALID_ARGUMENT', async () => {
    await q(`CREATE TABLE so.young (id INT64)`);
    const e = await grpcErrorOf(readAll(tablePath('young'), { snapshotTime: tsOf(Date.now() - 3_600_000) }));
    expect(e.code).toBe(3);
    expect(e.details).toContain('Cannot read before');
  });

  it('with a row restriction too, a bad snapshot time is still the snapshot error, not the restriction', async () => {
    const e = await grpcErrorOf(
      client.createReadSession({
        parent: `projects/${P}`,
        readSession: { table: tablePath('young'), dataFormat: 'ARROW', tableModifiers: { snapshotTime: tsOf(Date.now() + 3_600_000) }, readOptions: { rowRestriction: 'id > 0' } },
        maxStreamCount: 1,
      }),
    );
    expect(e.code).toBe(3);
    expect(e.details).toContain('Cannot read from a timestamp in the future');
    expect(e.details).not.toContain('row restriction');
  });
});

describe('readOptions.samplePercentage', () => {
  beforeAll(async () => {
    await q(`CREATE TABLE so.many AS SELECT x AS id FROM UNNEST(GENERATE_ARRAY(1, 10000)) AS x`);
  });

  it('100 reads every row; unset reads every row', async () => {
    expect((await readAll(tablePath('many'), { samplePercentage: 100, maxStreamCount: 4 })).rows).toHaveLength(10_000);
    expect((await readAll(tablePath('many'))).rows).toHaveLength(10_000);
  });

  it('0 reads no row (TABLESAMPLE SYSTEM (0 PERCENT))', async () => {
    const { s, rows } = await readAll(tablePath('many'), { samplePercentage: 0 });
    expect(rows).toHaveLength(0);
    expect(s.streams ?? []).toHaveLength(0);
  });

  it('50 on 10,000 rows reads between 3,000 and 7,000 distinct table rows', async () => {
    const { rows } = await readAll(tablePath('many'), { samplePercentage: 50, maxStreamCount: 3 });
    expect(rows.length).toBeGreaterThan(3000);
    expect(rows.length).toBeLessThan(7000);
    const ids = rows.map((r) => Number(r.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((i) => i >= 1 && i <= 10_000)).toBe(true);
  });

  it('outside 0..100 is INVALID_ARGUMENT', async () => {
    expect((await grpcErrorOf(readAll(tablePath('many'), { samplePercentage: 101 }))).code).toBe(3);
    expect((await grpcErrorOf(readAll(tablePath('many'), { samplePercentage: -1 }))).code).toBe(3);
  });
});

describe('nested readOptions.selectedFields', () => {
  beforeAll(async () => {
    await q(`CREATE TABLE so.nested (id INT64, s STRUCT<a STRING, b INT64, c STRUCT<x INT64, y STRING>>, arr ARRAY<STRUCT<p INT64, q STRING>>)`);
    await q(`INSERT INTO so.nested VALUES
      (1, STRUCT('one', 10, STRUCT(100, 'c1')), [STRUCT(1, 'q1'), STRUCT(2, 'q2')]),
      (2, NULL, [])`);
  });

  const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => Number(a.id) - Number(b.id);

  it('s.a returns the struct with only the selected sub-field', async () => {
    const { rows } = await readAll(tablePath('nested'), { selectedFields: ['id', 's.a'] });
    expect(rows.sort(byId).map((r) => ({ id: r.id, s: r.s === null ? null : JSON.parse(JSON.stringify(r.s)) }))).toEqual([
      { id: 1n, s: { a: 'one' } },
      { id: 2n, s: null },
    ]);
  });

  it('sub-fields keep the table order, nested paths go deeper, the list order does not matter', async () => {
    const { rows } = await readAll(tablePath('nested'), { selectedFields: ['s.c.y', 's.a'] });
    expect(rows).toHaveLength(2);
    const one = rows.find((r) => r.s !== null)!;
    expect(Object.keys(one)).toEqual(['s']);
    expect(Object.keys(JSON.parse(JSON.stringify(one.s)))).toEqual(['a', 'c']);
    expect(JSON.parse(JSON.stringify(one.s))).toEqual({ a: 'one', c: { y: 'c1' } });
  });

  it('naming the struct and a sub-field keeps the whole struct', async () => {
    const { rows } = await readAll(tablePath('nested'), { selectedFields: ['s', 's.a'] });
    const one = rows.find((r) => r.s !== null)!;
    expect(JSON.parse(JSON.stringify(one.s, (_, v) => (typeof v === 'bigint' ? Number(v) : v)))).toEqual({ a: 'one', b: 10, c: { x: 100, y: 'c1' } });
  });

  it('a path through an ARRAY of STRUCTs prunes each element', async () => {
    const { rows } = await readAll(tablePath('nested'), { selectedFields: ['id', 'arr.q'] });
    const arrs = rows.sort(byId).map((r) => JSON.parse(JSON.stringify(r.arr)));
    expect(arrs).toEqual([[{ q: 'q1' }, { q: 'q2' }], []]);
  });

  it('AVRO sessions prune the struct the same way (schema and rows)', async () => {
    const [s] = await client.createReadSession({
      parent: `projects/${P}`,
      readSession: { table: tablePath('nested'), dataFormat: 'AVRO', readOptions: { selectedFields: ['id', 's.b'] } },
      maxStreamCount: 1,
    });
    const schema = s.avroSchema!.schema as string;
    const rows = (await readAvroStream(client, schema, s.streams![0].name!)).rows.map((r) => JSON.parse(JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? Number(v) : v))));
    expect(rows.sort((a, b) => a.id - b.id)).toEqual([
      { id: 1, s: { b: 10 } },
      { id: 2, s: null },
    ]);
  });

  it('an unknown sub-field is INVALID_ARGUMENT', async () => {
    const e = await grpcErrorOf(readAll(tablePath('nested'), { selectedFields: ['s.nope'] }));
    expect(e.code).toBe(3);
    expect(e.details).toContain('s.nope');
  });
});
