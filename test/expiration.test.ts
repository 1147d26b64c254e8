/**
 * Table and partition expiration through the real client (BigQuery "Manage tables": updating a
 * table's expiration time; "Manage partitioned tables": partition expiration; "Manage datasets":
 * default table expiration). An expired table is gone for REST and SQL alike (tables.get 404,
 * left out of tables.list, queries say `Not found`); rows of expired partitions are not returned;
 * a dataset's defaults apply to tables created afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, errorOf, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const listed = async (dataset: string) => (await t.bq.dataset(dataset).getTables())[0].map((x) => x.id);

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('ex');
});
afterAll(async () => t?.emu.close());

describe('table expiration', () => {
  it('a table past its expirationTime (REST) is not found by get, list or queries', async () => {
    const [table] = await t.bq.dataset('ex').createTable('soon', { schema: [{ name: 'x', type: 'INT64' }], expirationTime: String(Date.now() + 4000) });
    const expiresAt = Number(table.metadata.expirationTime ?? Date.now() + 4000);
    await table.insert([{ x: 1 }]);
    expect(await q('SELECT x FROM ex.soon')).toEqual([{ x: 1 }]);
    expect(await listed('ex')).toContain('soon');
    // Wait until just past the expiration (4 s leaves room for a loaded machine before it).
    await sleep(Math.max(0, expiresAt - Date.now()) + 300);
    const e = await errorOf(table.getMetadata());
    expect(e.code).toBe(404);
    expect(e.message).toBe('Not found: Table test-project:ex.soon');
    expect(await listed('ex')).not.toContain('soon');
    expect((await errorOf(q('SELECT x FROM ex.soon'))).message).toBe('Not found: Table test-project:ex.soon was not found in location US');
    // The name is free again.
    await q('CREATE TABLE ex.soon (y STRING)');
    expect(await q('SELECT * FROM ex.soon')).toEqual([]);
  });

  it('OPTIONS(expiration_timestamp = constant expression) and ALTER TABLE SET OPTIONS set and clear it', async () => {
    await q('CREATE TABLE ex.opt (x INT64) OPTIONS(expiration_timestamp = TIMESTAMP_ADD(CURRENT_TIMESTAMP(), INTERVAL 48 HOUR))');
    const [m1] = await t.bq.dataset('ex').table('opt').getMetadata();
    expect(Number(m1.expirationTime) - Number(m1.creationTime)).toBeGreaterThan(47 * 3_600_000);
    await q('ALTER TABLE ex.opt SET OPTIONS(expiration_timestamp = NULL)');
    const [m2] = await t.bq.dataset('ex').table('opt').getMetadata();
    expect(m2.expirationTime).toBeUndefined();
    await q(`ALTER TABLE ex.opt SET OPTIONS(expiration_timestamp = TIMESTAMP '2000-01-01 00:00:00 UTC')`);
    expect((await errorOf(t.bq.dataset('ex').table('opt').getMetadata())).code).toBe(404);
  });

  it("a dataset's defaultTableExpirationMs applies to the tables created in it afterwards", async () => {
    await t.bq.createDataset('exdef', { defaultTableExpirationMs: '3600000' } as never);
    await q('CREATE TABLE exdef.a (x INT64)');
    await t.bq.dataset('exdef').createTable('b', { schema: [{ name: 'x', type: 'INT64' }] });
    for (const id of ['a', 'b']) {
      const [m] = await t.bq.dataset('exdef').table(id).getMetadata();
      expect(Number(m.expirationTime) - Number(m.creationTime)).toBe(3_600_000);
    }
    // A table's own expiration wins over the default.
    await q(`CREATE TABLE exdef.c (x INT64) OPTIONS(expiration_timestamp = TIMESTAMP '2999-01-01 00:00:00 UTC')`);
    const [c] = await t.bq.dataset('exdef').table('c').getMetadata();
    expect(c.expirationTime).toBe(String(Date.UTC(2999, 0, 1)));
  });

  it("the dataset's default table expiration applies to views too; a view's own expiration wins", async () => {
    // BigQuery "Manage logical views": the dataset default "affects both tables and views"; an
    // expiration set when the view is created makes the default ignored.
    await t.bq.createDataset('exview', { defaultTableExpirationMs: '7200000' } as never);
    await q('CREATE TABLE exview.base (x INT64)');
    await q('CREATE VIEW exview.v1 AS SELECT x FROM exview.base');
    await t.bq.dataset('exview').createTable('v2', { view: { query: 'SELECT x FROM exview.base', useLegacySql: false } });
    for (const id of ['v1', 'v2']) {
      const [m] = await t.bq.dataset('exview').table(id).getMetadata();
      expect(m.type).toBe('VIEW');
      expect(Number(m.expirationTime) - Number(m.creationTime)).toBe(7_200_000);
    }
    await q(`CREATE VIEW exview.v3 OPTIONS(expiration_timestamp = TIMESTAMP '2999-01-01 00:00:00 UTC') AS SELECT x FROM exview.base`);
    const [v3] = await t.bq.dataset('exview').table('v3').getMetadata();
    expect(v3.expirationTime).toBe(String(Date.UTC(2999, 0, 1)));
    await q('CREATE VIEW exview.v4 OPTIONS(expiration_timestamp = TIMESTAMP_ADD(CURRENT_TIMESTAMP(), INTERVAL 48 HOUR)) AS SELECT x FROM exview.base');
    const [v4] = await t.bq.dataset('exview').table('v4').getMetadata();
    expect(Number(v4.expirationTime) - Number(v4.creationTime)).toBeGreaterThan(7_200_000);
  });

  it('CREATE SCHEMA OPTIONS(default_table_expiration_days, default_partition_expiration_days)', async () => {
    await q('CREATE SCHEMA exddl OPTIONS(default_table_expiration_days = 1, default_partition_expiration_days = 2)');
    const [d] = await t.bq.dataset('exddl').getMetadata();
    expect(d.defaultTableExpirationMs).toBe('86400000');
    expect(d.defaultPartitionExpirationMs).toBe('172800000');
    await q('CREATE TABLE exddl.p (d DATE) PARTITION BY d');
    const [m] = await t.bq.dataset('exddl').table('p').getMetadata();
    expect(Number(m.expirationTime) - Number(m.creationTime)).toBe(86_400_000);
    expect(m.timePartitioning).toEqual({ type: 'DAY', field: 'd', expirationMs: '172800000' });
  });
});

describe('partition expiration', () => {
  it('rows of expired partitions are not returned by queries, tabledata.list or numRows', async () => {
    await q('CREATE TABLE ex.parts (ts TIMESTAMP, v INT64) PARTITION BY DATE(ts) OPTIONS(partition_expiration_days = 1)');
    const [m] = await t.bq.dataset('ex').table('parts').getMetadata();
    expect(m.timePartitioning).toEqual({ type: 'DAY', field: 'ts', expirationMs: '86400000' });
    // Today's partition is kept; one three days old ended more than a day ago, so it has expired;
    // the NULL partition never expires.
    await q(`INSERT INTO ex.parts VALUES (CURRENT_TIMESTAMP(), 1), (TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 3 DAY), 2), (NULL, 3)`);
    expect(await q('SELECT v FROM ex.parts ORDER BY v')).toEqual([{ v: 1 }, { v: 3 }]);
    const [rows] = await t.bq.dataset('ex').table('parts').getRows({ wrapIntegers: false } as never);
    expect(rows.map((r) => r.v).sort()).toEqual([1, 3]);
    const [meta] = await t.bq.dataset('ex').table('parts').getMetadata();
    expect(meta.numRows).toBe('2');
  });

  it('timePartitioning.expirationMs set over REST applies to DATE partitions', async () => {
    await t.bq.dataset('ex').createTable('restparts', {
      schema: [{ name: 'd', type: 'DATE' }, { name: 'v', type: 'INT64' }],
      timePartitioning: { type: 'DAY', field: 'd', expirationMs: String(2 * 86_400_000) },
    });
    await q('INSERT INTO ex.restparts VALUES (CURRENT_DATE(), 1), (DATE_SUB(CURRENT_DATE(), INTERVAL 10 DAY), 2)');
    expect(await q('SELECT v FROM ex.restparts ORDER BY v')).toEqual([{ v: 1 }]);
  });
});
