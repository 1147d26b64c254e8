/**
 * Time travel through the real client (BigQuery "Access historical data"): `FOR SYSTEM_TIME AS OF`
 * reads "the version of the table that was current at that timestamp" after DML, insertAll,
 * TRUNCATE and CREATE OR REPLACE; snapshots and clones `FOR SYSTEM_TIME AS OF` copy that version;
 * a time before the table was created (or before the time-travel window) fails with the
 * documented `Invalid snapshot time … Cannot read before …`; a dropped table is `Not found`.
 * Expected rows follow from the statements each test runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, errorOf, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const P = 'test-project';
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
/** The database clock now, as a TIMESTAMP literal (what CURRENT_TIMESTAMP() reads). */
const now = async () => `TIMESTAMP '${((await q('SELECT CURRENT_TIMESTAMP() AS n'))[0].n as { value: string }).value}'`;
const ids = async (query: string) => (await q(query)).map((r) => r.id);
const versionTables = async () =>
  (await t.emu.engine.db.readAll("SELECT table_name FROM duckdb_tables() WHERE table_name LIKE '%\\_\\_v%' ESCAPE '\\'")).getRowsJS().length;

beforeAll(async () => {
  // These tests change rows right after streaming them; BigQuery refuses that while they are in the
  // streaming buffer (test/streaming-buffer.test.ts), so the buffer is off here: the subject is versions.
  t = await startTestEmulator({ streamingBufferSeconds: 0 });
  await t.bq.createDataset('tt');
});
afterAll(async () => t?.emu.close());

describe('FOR SYSTEM_TIME AS OF', () => {
  it('reads the version current at each point after INSERT, UPDATE and DELETE', async () => {
    await q('CREATE TABLE tt.dml AS SELECT 1 AS id, 10 AS v UNION ALL SELECT 2, 20');
    const t0 = await now();
    await q('INSERT INTO tt.dml VALUES (3, 30)');
    const t1 = await now();
    await q('UPDATE tt.dml SET v = v + 1 WHERE id >= 2');
    const t2 = await now();
    await q('DELETE FROM tt.dml WHERE id = 1');
    const at = (ts: string) => q(`SELECT id, v FROM tt.dml FOR SYSTEM_TIME AS OF ${ts} ORDER BY id`);
    expect(await at(t0)).toEqual([{ id: 1, v: 10 }, { id: 2, v: 20 }]);
    expect(await at(t1)).toEqual([{ id: 1, v: 10 }, { id: 2, v: 20 }, { id: 3, v: 30 }]);
    expect(await at(t2)).toEqual([{ id: 1, v: 10 }, { id: 2, v: 21 }, { id: 3, v: 31 }]);
    expect(await at('CURRENT_TIMESTAMP()')).toEqual([{ id: 2, v: 21 }, { id: 3, v: 31 }]);
    expect(await q('SELECT id, v FROM tt.dml ORDER BY id')).toEqual([{ id: 2, v: 21 }, { id: 3, v: 31 }]);
    // The same table now and as it was, in one query.
    expect(await q(`SELECT (SELECT COUNT(*) FROM tt.dml) AS now_n, (SELECT COUNT(*) FROM tt.dml FOR SYSTEM_TIME AS OF ${t1}) AS then_n`)).toEqual([{ now_n: 2, then_n: 3 }]);
  });

  it('a MERGE, a TRUNCATE and rows streamed with insertAll keep the previous version', async () => {
    await q('CREATE TABLE tt.more (id INT64, v STRING)');
    await t.bq.dataset('tt').table('more').insert([{ id: 1, v: 'a' }]);
    const t0 = await now();
    await t.bq.dataset('tt').table('more').insert([{ id: 2, v: 'b' }]);
    const t1 = await now();
    await q("MERGE tt.more T USING (SELECT 2 AS id) S ON T.id = S.id WHEN MATCHED THEN UPDATE SET v = 'B'");
    const t2 = await now();
    await q('TRUNCATE TABLE tt.more');
    expect(await ids(`SELECT id FROM tt.more FOR SYSTEM_TIME AS OF ${t0} ORDER BY id`)).toEqual([1]);
    expect(await q(`SELECT id, v FROM tt.more FOR SYSTEM_TIME AS OF ${t1} ORDER BY id`)).toEqual([{ id: 1, v: 'a' }, { id: 2, v: 'b' }]);
    expect(await q(`SELECT id, v FROM tt.more FOR SYSTEM_TIME AS OF ${t2} ORDER BY id`)).toEqual([{ id: 1, v: 'a' }, { id: 2, v: 'B' }]);
    expect(await q('SELECT * FROM tt.more')).toEqual([]);
  });

  it('after CREATE OR REPLACE TABLE, AS OF reads the previous version of the table', async () => {
    await q("CREATE TABLE tt.rep AS SELECT 1 AS id, 'old' AS tag");
    const before = await now();
    await q("CREATE OR REPLACE TABLE tt.rep AS SELECT 7 AS id, 'new' AS tag");
    expect(await q(`SELECT id, tag FROM tt.rep FOR SYSTEM_TIME AS OF ${before}`)).toEqual([{ id: 1, tag: 'old' }]);
    expect(await q('SELECT id, tag FROM tt.rep')).toEqual([{ id: 7, tag: 'new' }]);
  });

  it('CREATE SNAPSHOT TABLE and CREATE TABLE … CLONE copy the version at the given time', async () => {
    await q('CREATE TABLE tt.src AS SELECT 1 AS id');
    await q('INSERT INTO tt.src VALUES (2)');
    const t1 = await now();
    await q('INSERT INTO tt.src VALUES (3)');
    await q(`CREATE SNAPSHOT TABLE tt.src_snap CLONE tt.src FOR SYSTEM_TIME AS OF ${t1}`);
    await q(`CREATE TABLE tt.src_clone CLONE tt.src FOR SYSTEM_TIME AS OF ${t1}`);
    expect(await ids('SELECT id FROM tt.src_snap ORDER BY id')).toEqual([1, 2]);
    expect(await ids('SELECT id FROM tt.src_clone ORDER BY id')).toEqual([1, 2]);
    const [meta] = await t.bq.dataset('tt').table('src_snap').getMetadata();
    expect(meta.snapshotDefinition.baseTableReference).toEqual({ projectId: P, datasetId: 'tt', tableId: 'src' });
  });

  it('a time before the table was created is the documented "Invalid snapshot time" error', async () => {
    await q('CREATE TABLE tt.young (id INT64)');
    const [meta] = await t.bq.dataset('tt').table('young').getMetadata();
    const e = await errorOf(q('SELECT * FROM tt.young FOR SYSTEM_TIME AS OF TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 1 HOUR)'));
    expect(e.code).toBe(400);
    const m = /^Invalid snapshot time (\d+) for table test-project:tt\.young@(\d+)\. Cannot read before (\d+)\.$/.exec(e.message);
    expect(m, e.message).not.toBeNull();
    expect(m![1]).toBe(m![2]);
    expect(Number(m![3])).toBeGreaterThanOrEqual(Number(meta.creationTime));
    expect(Number(m![1])).toBeLessThan(Number(m![3]));
  });

  it('the time-travel window of the dataset (maxTimeTravelHours) bounds the earliest readable time', async () => {
    await t.bq.createDataset('tt48', { maxTimeTravelHours: '48' } as never);
    await q('CREATE TABLE tt48.old AS SELECT 1 AS id');
    // The table is five days old (set in the catalog: a client cannot backdate a table).
    const meta = t.emu.engine.catalog.getTable(P, 'tt48', 'old')!;
    meta.creationTime -= 5 * 86_400_000;
    expect(await ids('SELECT id FROM tt48.old FOR SYSTEM_TIME AS OF TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 1 DAY)')).toEqual([1]);
    const e = await errorOf(q('SELECT id FROM tt48.old FOR SYSTEM_TIME AS OF TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 3 DAY)'));
    const m = /Cannot read before (\d+)\.$/.exec(e.message);
    expect(m, e.message).not.toBeNull();
    // The bound is the window's start (48 hours back), well after the table's creation.
    expect(Number(m![1])).toBeGreaterThan(meta.creationTime + 2 * 86_400_000);
  });

  it('a time in the future is refused', async () => {
    await q('CREATE TABLE tt.fut (id INT64)');
    const e = await errorOf(q('SELECT * FROM tt.fut FOR SYSTEM_TIME AS OF TIMESTAMP_ADD(CURRENT_TIMESTAMP(), INTERVAL 1 HOUR)'));
    expect(e.code).toBe(400);
  });

  it('a dropped table is Not found, and its versions are dropped with it', async () => {
    await q('CREATE TABLE tt.gone AS SELECT 1 AS id');
    const t0 = await now();
    // An UPDATE keeps a copy (an INSERT would keep a row-count prefix of the live table, no table).
    await q('UPDATE tt.gone SET id = 2 WHERE TRUE');
    expect(await versionTables()).toBeGreaterThan(0);
    const before = await versionTables();
    await q('DROP TABLE tt.gone');
    expect(await versionTables()).toBeLessThan(before);
    const e = await errorOf(q(`SELECT * FROM tt.gone FOR SYSTEM_TIME AS OF ${t0}`));
    expect(e.message).toBe('Not found: Table test-project:tt.gone was not found in location US');
    // A new table of the same name starts a new history.
    await q('CREATE TABLE tt.gone AS SELECT 9 AS id');
    expect((await errorOf(q(`SELECT * FROM tt.gone FOR SYSTEM_TIME AS OF ${t0}`))).message).toMatch(/^Invalid snapshot time/);
  });

  it('versions of appends stay exact after a later UPDATE and DELETE rewrite the rows', async () => {
    await q('CREATE TABLE tt.app (id INT64)');
    await q('INSERT INTO tt.app VALUES (1), (2)');
    const t1 = await now();
    await t.bq.dataset('tt').table('app').insert([{ id: 3 }]);
    const t2 = await now();
    await q('INSERT INTO tt.app VALUES (4)');
    const t3 = await now();
    await q('UPDATE tt.app SET id = id * 10 WHERE TRUE');
    await q('DELETE FROM tt.app WHERE id = 20');
    await q('INSERT INTO tt.app VALUES (5)');
    expect(await ids(`SELECT id FROM tt.app FOR SYSTEM_TIME AS OF ${t1} ORDER BY id`)).toEqual([1, 2]);
    expect(await ids(`SELECT id FROM tt.app FOR SYSTEM_TIME AS OF ${t2} ORDER BY id`)).toEqual([1, 2, 3]);
    expect(await ids(`SELECT id FROM tt.app FOR SYSTEM_TIME AS OF ${t3} ORDER BY id`)).toEqual([1, 2, 3, 4]);
    expect(await ids('SELECT id FROM tt.app ORDER BY id')).toEqual([5, 10, 30, 40]);
  });

  it('concurrent writers each leave a version (writes stay serialised)', async () => {
    await q('CREATE TABLE tt.conc (id INT64)');
    await Promise.all(Array.from({ length: 8 }, (_, i) => q(`INSERT INTO tt.conc VALUES (${i})`)));
    const t1 = await now();
    await q('DELETE FROM tt.conc WHERE TRUE');
    expect(await ids(`SELECT id FROM tt.conc FOR SYSTEM_TIME AS OF ${t1} ORDER BY id`)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('appends after deletes keep their versions (in memory and with --data-dir)', () => {
  /** INSERT 1..3, DELETE 1, remember the time, INSERT 4, 5: the version at that time is {2, 3}. */
  async function scenario(e: TestEmulator, table: string): Promise<string> {
    const run = async (query: string) => (await e.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
    await run(`CREATE TABLE tt.${table} (id INT64)`);
    await run(`INSERT tt.${table} VALUES (1), (2), (3)`);
    await run(`DELETE tt.${table} WHERE id = 1`);
    const ts = `TIMESTAMP '${((await run('SELECT CURRENT_TIMESTAMP() AS n'))[0].n as { value: string }).value}'`;
    await run(`INSERT tt.${table} VALUES (4), (5)`);
    return ts;
  }
  const idsAt = async (e: TestEmulator, table: string, ts: string) =>
    ((await e.bq.query({ query: `SELECT id FROM tt.${table} FOR SYSTEM_TIME AS OF ${ts} ORDER BY id`, wrapIntegers: false }))[0] as { id: number }[]).map((r) => r.id);

  it('in memory: the rows before the append, not the first rowids', async () => {
    const ts = await scenario(t, 'gaps');
    expect(await idsAt(t, 'gaps', ts)).toEqual([2, 3]);
    expect(await idsAt(t, 'gaps', 'CURRENT_TIMESTAMP()')).toEqual([2, 3, 4, 5]);
  });

  it('with --data-dir, also after a restart (the file database renumbers rowids when it checkpoints)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-tt-'));
    try {
      let e = await startTestEmulator({ projectId: P, dataDir: dir, grpcPort: 0 });
      let ts: string;
      try {
        await e.bq.createDataset('tt');
        ts = await scenario(e, 'gaps_dd');
        expect(await idsAt(e, 'gaps_dd', ts)).toEqual([2, 3]);
      } finally {
        await e.emu.close();
      }
      e = await startTestEmulator({ projectId: P, dataDir: dir, grpcPort: 0 });
      try {
        expect(await idsAt(e, 'gaps_dd', ts)).toEqual([2, 3]);
        expect(await idsAt(e, 'gaps_dd', 'CURRENT_TIMESTAMP()')).toEqual([2, 3, 4, 5]);
      } finally {
        await e.emu.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
