/**
 * Read-only table snapshots, `require_partition_filter`, and dropping datasets that hold routines,
 * through the real client. Expected behaviour follows BigQuery's documentation
 * ("Introduction to table snapshots": snapshots are read-only; "Update table snapshot metadata":
 * metadata changes only; "Set partition filter requirements"; "Manage datasets": DROP SCHEMA
 * without CASCADE / datasets.delete without deleteContents refuse a non-empty dataset), the
 * recorded fixture rest_crud/ddl_drop_schema_non_empty_restrict (resourceInUse, HTTP 400,
 * `Dataset p:d is still in use`) and BigQuery's partition-filter error text as reported in
 * googleapis/google-cloud-go#5013 and mozilla/bigquery-etl#2673.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
const pfError = (table: string, cols: string) =>
  `Cannot query over table '${table}' without a filter over column(s) ${cols} that can be used for partition elimination`;

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('tg');
  await q('CREATE TABLE tg.src (a INT64, b STRING)');
  await q("INSERT INTO tg.src VALUES (1, 'x'), (2, 'y')");
  await q("CREATE SNAPSHOT TABLE tg.snap CLONE tg.src OPTIONS(expiration_timestamp = TIMESTAMP '2099-01-01 00:00:00 UTC', description = 'frozen')");
  await q('CREATE TABLE tg.ev (dt DATE, n INT64) PARTITION BY dt OPTIONS(require_partition_filter = true)');
  await q("INSERT INTO tg.ev VALUES (DATE '2024-01-01', 1), (DATE '2024-01-02', 2)");
});
afterAll(async () => t?.emu.close());

describe('table snapshots are read-only', () => {
  it('reads work and keep the rows of the snapshot time', async () => {
    await q("INSERT INTO tg.src VALUES (3, 'z')");
    expect(await q('SELECT a FROM tg.snap ORDER BY a')).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it.each([
    ["INSERT INTO tg.snap VALUES (9, 'q')"],
    ['UPDATE tg.snap SET a = 0 WHERE TRUE'],
    ['DELETE FROM tg.snap WHERE a = 1'],
    ['MERGE tg.snap T USING tg.src S ON T.a = S.a WHEN MATCHED THEN DELETE'],
    ['TRUNCATE TABLE tg.snap'],
    ['ALTER TABLE tg.snap ADD COLUMN c INT64'],
  ])('%s is refused', async (sql) => {
    const e = await errorOf(q(sql));
    expect(e.errors?.[0]?.reason).toBe('invalidQuery');
    expect(e.message).toBe(`${t.projectId}:tg.snap is not allowed for this operation because it is currently a SNAPSHOT.`);
    expect(await q('SELECT a FROM tg.snap ORDER BY a')).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('tabledata.insertAll into a snapshot is refused with the same text', async () => {
    const e = await errorOf(t.bq.dataset('tg').table('snap').insert([{ a: 9, b: 'q' }]));
    expect(e.message).toBe(`${t.projectId}:tg.snap is not allowed for this operation because it is currently a SNAPSHOT.`);
    expect(await q('SELECT a FROM tg.snap ORDER BY a')).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it.each([['WRITE_APPEND'], ['WRITE_TRUNCATE'], ['WRITE_EMPTY']])('a query job with the snapshot as destinationTable (%s) is refused', async (writeDisposition) => {
    const e = await errorOf(
      t.bq.query({ query: "SELECT 9 AS a, 'q' AS b", destination: t.bq.dataset('tg').table('snap'), writeDisposition }),
    );
    expect(e.message).toBe(`${t.projectId}:tg.snap is not allowed for this operation because it is currently a SNAPSHOT.`);
    expect(await q('SELECT a FROM tg.snap ORDER BY a')).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('CREATE SNAPSHOT TABLE keeps OPTIONS(expiration_timestamp, description) in its metadata', async () => {
    const [meta] = await t.bq.dataset('tg').table('snap').getMetadata();
    expect(meta.type).toBe('SNAPSHOT');
    expect(meta.expirationTime).toBe(String(Date.parse('2099-01-01T00:00:00Z')));
    expect(meta.description).toBe('frozen');
    expect(meta.snapshotDefinition.baseTableReference).toEqual({ projectId: t.projectId, datasetId: 'tg', tableId: 'src' });
  });

  it('the base table and clones stay writable', async () => {
    await q('CREATE TABLE tg.cl CLONE tg.src');
    await q("INSERT INTO tg.cl VALUES (7, 'c')");
    expect(await q('SELECT COUNT(*) AS n FROM tg.cl')).toEqual([{ n: 4 }]);
  });
});

describe('require_partition_filter', () => {
  it('a query without a filter on the partitioning column is refused with BigQuery\'s message', async () => {
    for (const sql of ['SELECT * FROM tg.ev', 'SELECT n FROM tg.ev WHERE n > 0', "SELECT n FROM tg.ev WHERE dt = '2024-01-01' OR n = 2"]) {
      const e = await errorOf(q(sql));
      expect(e.errors?.[0]?.reason).toBe('invalidQuery');
      expect(e.message).toBe(pfError(`${t.projectId}.tg.ev`, "'dt'"));
    }
  });

  it('a WHERE filter on the partitioning column satisfies it, also through a subquery alias or WITH', async () => {
    expect(await q("SELECT n FROM tg.ev WHERE dt = DATE '2024-01-01'")).toEqual([{ n: 1 }]);
    expect(await q("SELECT n FROM tg.ev WHERE n > 0 AND dt >= '2024-01-02'")).toEqual([{ n: 2 }]);
    expect(await q("SELECT n FROM (SELECT dt AS day, n FROM tg.ev) WHERE day = '2024-01-02'")).toEqual([{ n: 2 }]);
    expect(await q("WITH w AS (SELECT * FROM tg.ev) SELECT n FROM w WHERE dt BETWEEN '2024-01-01' AND '2024-01-01'")).toEqual([{ n: 1 }]);
  });

  it('DML: the target needs the filter in its WHERE; INSERT needs none', async () => {
    const e = await errorOf(q('DELETE FROM tg.ev WHERE n = 1'));
    expect(e.message).toBe(pfError(`${t.projectId}.tg.ev`, "'dt'"));
    await q("UPDATE tg.ev SET n = 10 WHERE dt = '2024-01-01'");
    await q("INSERT INTO tg.ev VALUES (DATE '2024-01-03', 3)");
    expect(await q("SELECT n FROM tg.ev WHERE dt IS NOT NULL ORDER BY n")).toEqual([{ n: 2 }, { n: 3 }, { n: 10 }]);
  });

  it('dry runs are checked too', async () => {
    const e = await errorOf(t.bq.createQueryJob({ query: 'SELECT n FROM tg.ev', dryRun: true }));
    expect(e.message).toBe(pfError(`${t.projectId}.tg.ev`, "'dt'"));
  });

  it('ingestion-time partitioning: _PARTITIONTIME / _PARTITIONDATE filters count; the message names the pseudo-columns', async () => {
    await q('CREATE TABLE tg.ing (n INT64) PARTITION BY _PARTITIONDATE OPTIONS(require_partition_filter = true)');
    await q('INSERT INTO tg.ing (n) VALUES (1)');
    const e = await errorOf(q('SELECT n FROM tg.ing'));
    expect(e.message).toBe(pfError(`${t.projectId}.tg.ing`, "'_PARTITION_LOAD_TIME', '_PARTITIONDATE', '_PARTITIONTIME'"));
    expect(await q("SELECT n FROM tg.ing WHERE _PARTITIONTIME > TIMESTAMP '2000-01-01'")).toEqual([{ n: 1 }]);
    expect(await q("SELECT n FROM tg.ing WHERE _PARTITIONDATE > '2000-01-01'")).toEqual([{ n: 1 }]);
  });

  it('the REST field requirePartitionFilter (tables.insert) is enforced the same way', async () => {
    await t.bq.dataset('tg').createTable('rest_pf', {
      schema: [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'v', type: 'INT64' }],
      timePartitioning: { type: 'DAY', field: 'ts' },
      requirePartitionFilter: true,
    });
    const e = await errorOf(q('SELECT v FROM tg.rest_pf'));
    expect(e.message).toBe(pfError(`${t.projectId}.tg.rest_pf`, "'ts'"));
    expect(await q("SELECT v FROM tg.rest_pf WHERE ts > '2000-01-01'")).toEqual([]);
  });

  it('tables without the option need no filter', async () => {
    await q('CREATE TABLE tg.free (dt DATE, n INT64) PARTITION BY dt');
    expect(await q('SELECT COUNT(*) AS c FROM tg.free')).toEqual([{ c: 0 }]);
  });
});

describe('datasets holding routines', () => {
  it('DROP SCHEMA refuses a dataset that holds only a routine; CASCADE drops the routines too', async () => {
    await t.bq.createDataset('tg_r1');
    await q('CREATE FUNCTION tg_r1.f(x INT64) AS (x + 1)');
    const e = await errorOf(q('DROP SCHEMA tg_r1'));
    expect(e.code).toBe(400);
    expect(e.errors?.[0]?.reason).toBe('resourceInUse');
    expect(e.message).toBe(`Dataset ${t.projectId}:tg_r1 is still in use`);
    const e2 = await errorOf(q('DROP SCHEMA tg_r1 RESTRICT'));
    expect(e2.errors?.[0]?.reason).toBe('resourceInUse');
    await q('DROP SCHEMA tg_r1 CASCADE');
    await t.bq.createDataset('tg_r1');
    expect(await q('SELECT routine_name FROM tg_r1.INFORMATION_SCHEMA.ROUTINES')).toEqual([]);
    expect(String(await errorOf(q('SELECT tg_r1.f(1)')))).toMatch(/Function not found/);
  });

  it('datasets.delete refuses a dataset with a routine; deleteContents drops it with its routines', async () => {
    await t.bq.createDataset('tg_r2');
    await q('CREATE PROCEDURE tg_r2.p() BEGIN SELECT 1; END');
    const e = await errorOf(t.bq.dataset('tg_r2').delete());
    expect(e.code).toBe(400);
    expect(e.message).toBe(`Dataset ${t.projectId}:tg_r2 is still in use`);
    await t.bq.dataset('tg_r2').delete({ force: true });
    await t.bq.createDataset('tg_r2');
    const [routines] = await t.bq.dataset('tg_r2').getRoutines();
    expect(routines).toEqual([]);
  });
});
