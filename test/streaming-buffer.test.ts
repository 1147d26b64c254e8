/**
 * The streaming buffer of tabledata.insertAll, through @google-cloud/bigquery (`table.insert`,
 * `getMetadata`, `copy`, `extract`, queries) and the `bq` CLI. Expected behaviour and texts:
 * - Table.numRows "excluding any data in the streaming buffer"; Table.streamingBuffer absent "if
 *   there is no data in the streaming buffer" (discovery document);
 * - "Rows that were recently written using the tabledata.insertall streaming method can't be
 *   modified with … UPDATE, DELETE, MERGE, or TRUNCATE statements … All other rows in the table
 *   remain modifiable" and "The streamed data can take up to 90 minutes to become available for
 *   copy operations" (https://cloud.google.com/bigquery/docs/data-manipulation-language#limitations);
 * - the error text and reason from https://cloud.google.com/bigquery/docs/error-messages (badRequest);
 * - the official client's copy system test (system-test/bigquery.ts "copying"): one streamed row,
 *   then two WRITE_EMPTY copies to the same destination both succeed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { gcsFile } from './helpers/storage-file.js';
import { bqRunner, findBq } from './helpers/bq-cli.js';
import { noteStreamedRows } from '../src/engine/streaming-buffer.js';
import { insertValues } from '../src/engine/dml-values.js';
import { ConfigError, parseFlags, resolveConfig } from '../src/config/config.js';

const P = 'sb-project';
const DS = 'sb';
const SCHEMA = { fields: [{ name: 'id', type: 'INTEGER' }, { name: 'name', type: 'STRING' }] };


const count = async (t: TestEmulator, table: string) => Number((await t.bq.query({ query: `SELECT count(*) AS n FROM ${DS}.${table}` }))[0][0].n);
const dml = (t: TestEmulator, sql: string) => t.bq.query({ query: sql, defaultDataset: { projectId: P, datasetId: DS } } as never);
const streamingMessage = (table: string) => `UPDATE or DELETE statement over table ${P}.${DS}.${table} would affect rows in the streaming buffer, which is not supported`;

describe('streaming buffer (default window)', () => {
  let t: TestEmulator;
  let gcs: string;

  beforeAll(async () => {
    gcs = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-sb-'));
    t = await startTestEmulator({ projectId: P, grpcPort: 0, gcsDir: gcs });
    await t.bq.createDataset(DS);
  });
  afterAll(async () => {
    await t?.emu.close();
    fs.rmSync(gcs, { recursive: true, force: true });
  });

  it('queries and tabledata.list see streamed rows at once; tables.get reports them as streamingBuffer, not numRows', async () => {
    const [table] = await t.bq.dataset(DS).createTable('seen', { schema: SCHEMA });
    const before = Date.now();
    await table.insert([{ id: 1, name: 'a' }, { id: 2, name: 'bb' }, { id: 3, name: null }]);
    expect(await count(t, 'seen')).toBe(3);
    const [rows] = await table.getRows();
    expect(rows.map((r: any) => r.id).sort()).toEqual([1, 2, 3]);
    const [meta] = await table.getMetadata();
    expect(meta.numRows).toBe('0');
    expect(meta.streamingBuffer.estimatedRows).toBe('3');
    // Logical sizes (BigQuery data size rules): 3 INT64 × 8 + STRING 'a' (2 + 1) + 'bb' (2 + 2).
    expect(meta.streamingBuffer.estimatedBytes).toBe('31');
    expect(typeof meta.streamingBuffer.oldestEntryTime).toBe('string');
    const oldest = Number(meta.streamingBuffer.oldestEntryTime);
    expect(oldest).toBeGreaterThanOrEqual(before - 1000);
    expect(oldest).toBeLessThanOrEqual(Date.now());
    // A second batch adds to the estimate; the oldest entry stays the first batch's.
    await table.insert([{ id: 4, name: 'c' }]);
    const [meta2] = await table.getMetadata();
    expect(meta2.streamingBuffer.estimatedRows).toBe('4');
    expect(meta2.streamingBuffer.oldestEntryTime).toBe(meta.streamingBuffer.oldestEntryTime);
  });

  it('a table that was never streamed to has no streamingBuffer; rows written by DML count in numRows', async () => {
    await t.bq.dataset(DS).createTable('dmlonly', { schema: SCHEMA });
    await dml(t, 'INSERT INTO dmlonly (id, name) VALUES (1, "x"), (2, "y")');
    const [meta] = await t.bq.dataset(DS).table('dmlonly').getMetadata();
    expect(meta.streamingBuffer).toBeUndefined();
    expect(meta.numRows).toBe('2');
  });

  it('copy jobs leave buffered rows out: two WRITE_EMPTY copies of a streamed table to one destination succeed (client system test "copying")', async () => {
    const ds = t.bq.dataset(DS);
    const [src] = await ds.createTable('copy_src', { schema: SCHEMA });
    const [dst] = await ds.createTable('copy_dst', { schema: SCHEMA });
    await src.insert([{ id: 1, name: 'streamed' }]);
    const [job] = await src.createCopyJob(dst);
    await job.promise();
    const [resp] = await src.copy(dst);
    expect(resp.status?.state).toBe('DONE');
    expect(resp.status?.errorResult).toBeUndefined();
    expect(await count(t, 'copy_dst')).toBe(0);
    expect(resp.statistics?.copy?.copiedRows).toBe('0');
    // Rows written by DML are not buffered: they are copied, the buffered one is not.
    await dml(t, 'INSERT INTO copy_src (id, name) VALUES (2, "dml")');
    await src.copy(ds.table('copy_dst2'));
    const [rows] = await t.bq.query(`SELECT id, name FROM ${DS}.copy_dst2`);
    expect(rows).toEqual([{ id: 2, name: 'dml' }]);
  });

  it('extract jobs leave buffered rows out', async () => {
    const [table] = await t.bq.dataset(DS).createTable('extract_src', { schema: SCHEMA });
    await dml(t, 'INSERT INTO extract_src (id, name) VALUES (1, "stored")');
    await table.insert([{ id: 2, name: 'buffered' }]);
    const [job] = await table.extract(gcsFile('bkt', 'out.json'), { format: 'JSON' });
    expect(job.status?.state).toBe('DONE');
    const text = fs.readFileSync(path.join(gcs, 'bkt', 'out.json'), 'utf8');
    expect(text.trim().split('\n').map((l) => JSON.parse(l))).toEqual([{ id: '1', name: 'stored' }]);
  });

  it('UPDATE, DELETE and MERGE that would change buffered rows fail with BigQuery\'s text; other rows stay modifiable', async () => {
    const [table] = await t.bq.dataset(DS).createTable('mut', { schema: SCHEMA });
    await dml(t, 'INSERT INTO mut (id, name) VALUES (1, "old"), (2, "old")');
    await table.insert([{ id: 10, name: 'new' }, { id: 11, name: 'new' }]);
    for (const sql of [
      'UPDATE mut SET name = "changed" WHERE TRUE',
      'UPDATE mut SET name = "changed" WHERE id = 10',
      'DELETE FROM mut WHERE id >= 2',
      'MERGE mut T USING (SELECT 11 AS id) S ON T.id = S.id WHEN MATCHED THEN UPDATE SET name = "m"',
      'MERGE mut T USING (SELECT 11 AS id) S ON T.id = S.id WHEN MATCHED THEN DELETE',
    ]) {
      const err = await errorOf(dml(t, sql));
      expect(err.message, sql).toBe(streamingMessage('mut'));
      expect(err.errors?.[0]?.reason, sql).toBe('badRequest');
    }
    // Nothing changed.
    const [rows] = await t.bq.query(`SELECT id, name FROM ${DS}.mut ORDER BY id`);
    expect(rows).toEqual([{ id: 1, name: 'old' }, { id: 2, name: 'old' }, { id: 10, name: 'new' }, { id: 11, name: 'new' }]);
    // Rows outside the buffer, an inserting MERGE and DML INSERT are allowed.
    await dml(t, 'UPDATE mut SET name = "upd" WHERE id = 1');
    await dml(t, 'DELETE FROM mut WHERE id = 2');
    await dml(t, 'MERGE mut T USING (SELECT 12 AS id) S ON T.id = S.id WHEN NOT MATCHED THEN INSERT (id, name) VALUES (S.id, "merged")');
    await dml(t, 'INSERT INTO mut (id, name) VALUES (13, "ins")');
    await dml(t, 'MERGE mut T USING (SELECT 13 AS id) S ON T.id = S.id WHEN MATCHED THEN UPDATE SET name = "m13"');
    const [after] = await t.bq.query(`SELECT id, name FROM ${DS}.mut ORDER BY id`);
    expect(after).toEqual([
      { id: 1, name: 'upd' },
      { id: 10, name: 'new' },
      { id: 11, name: 'new' },
      { id: 12, name: 'merged' },
      { id: 13, name: 'm13' },
    ]);
    // Streaming again after the deletes: the new batch is buffered too, the DML rows are not.
    await table.insert([{ id: 20, name: 'later' }]);
    expect((await errorOf(dml(t, 'DELETE FROM mut WHERE id = 20'))).message).toBe(streamingMessage('mut'));
    await dml(t, 'DELETE FROM mut WHERE id = 13');
    const [meta] = await table.getMetadata();
    expect(meta.streamingBuffer.estimatedRows).toBe('3');
    expect(meta.numRows).toBe('2');
  });

  it('on a partitioned table, DML over partitions without buffered rows runs', async () => {
    const [table] = await t.bq.dataset(DS).createTable('parted', {
      schema: { fields: [{ name: 'd', type: 'DATE' }, { name: 'v', type: 'INTEGER' }] },
      timePartitioning: { type: 'DAY', field: 'd' },
    });
    await dml(t, 'INSERT INTO parted (d, v) VALUES ("2024-01-01", 1), ("2024-01-01", 2)');
    await table.insert([{ d: '2024-02-01', v: 3 }]);
    await dml(t, 'DELETE FROM parted WHERE d = "2024-01-01" AND v = 1');
    const err = await errorOf(dml(t, 'UPDATE parted SET v = 0 WHERE d = "2024-02-01"'));
    expect(err.message).toBe(streamingMessage('parted'));
    expect(await count(t, 'parted')).toBe(2);
  });

  it('TRUNCATE TABLE of a table with buffered rows fails', async () => {
    const [table] = await t.bq.dataset(DS).createTable('trunc', { schema: SCHEMA });
    await table.insert([{ id: 1, name: 'a' }]);
    const err = await errorOf(dml(t, 'TRUNCATE TABLE trunc'));
    expect(err.message).toBe(`TRUNCATE DML statement over table ${P}.${DS}.trunc would affect rows in the streaming buffer, which is not supported`);
    expect(await count(t, 'trunc')).toBe(1);
  });

  it('buffered rows whose rowids changed underneath count as flushed (no wrong refusals)', async () => {
    const [table] = await t.bq.dataset(DS).createTable('renumbered', { schema: SCHEMA });
    await table.insert([{ id: 1, name: 'a' }, { id: 2, name: 'b' }]);
    // Remove one buffered row behind the emulator's back: the batch's rowid range no longer holds its rows.
    const duck = t.emu.engine.catalog.getTable(P, DS, 'renumbered')!.duckName;
    await t.emu.engine.db.run(`DELETE FROM "${duck}" WHERE id = 1`);
    const [meta] = await table.getMetadata();
    expect(meta.streamingBuffer).toBeUndefined();
    expect(meta.numRows).toBe('1');
    await dml(t, 'DELETE FROM renumbered WHERE id = 2');
    expect(await count(t, 'renumbered')).toBe(0);
  });

  it('rows noted by the Storage Write API hook are buffered, but UPDATE/DELETE/MERGE may change them (not TRUNCATE)', async () => {
    await t.bq.dataset(DS).createTable('write_api', { schema: SCHEMA });
    // What the `_default` stream does: append, then note the rows in the same write turn.
    const e = t.emu.engine;
    const meta0 = e.catalog.getTable(P, DS, 'write_api')!;
    await e.db.serializeWrite(async () => {
      await insertValues(e, meta0, [[1n, 'a'], [2n, 'b']]);
      await noteStreamedRows(e, meta0, 2, 19, { dmlAllowed: true });
    });
    const table = t.bq.dataset(DS).table('write_api');
    const [meta] = await table.getMetadata();
    expect(meta.streamingBuffer.estimatedRows).toBe('2');
    expect(meta.streamingBuffer.estimatedBytes).toBe('19');
    expect(meta.numRows).toBe('0');
    await table.copy(t.bq.dataset(DS).table('write_api_copy'));
    expect(await count(t, 'write_api_copy')).toBe(0);
    expect((await errorOf(dml(t, 'TRUNCATE TABLE write_api'))).message).toMatch(/^TRUNCATE DML statement over table .* would affect rows in the streaming buffer/);
    await dml(t, 'UPDATE write_api SET name = "u" WHERE id = 1');
    const [rows] = await t.bq.query(`SELECT id, name FROM ${DS}.write_api ORDER BY id`);
    expect(rows).toEqual([{ id: 1, name: 'u' }, { id: 2, name: 'b' }]);
  });

  it('a replaced table starts with an empty buffer', async () => {
    const [table] = await t.bq.dataset(DS).createTable('replaced', { schema: SCHEMA });
    await table.insert([{ id: 1, name: 'a' }]);
    await dml(t, 'CREATE OR REPLACE TABLE replaced AS SELECT 5 AS id, "r" AS name');
    const [meta] = await t.bq.dataset(DS).table('replaced').getMetadata();
    expect(meta.streamingBuffer).toBeUndefined();
    expect(meta.numRows).toBe('1');
    await dml(t, 'DELETE FROM replaced WHERE TRUE');
  });
});

describe('streaming buffer window', () => {
  it('--streaming-buffer-seconds / BQEMU_STREAMING_BUFFER_SECONDS: default 1800 (30 minutes), 0 allowed, negative refused', () => {
    expect(resolveConfig({}, { env: {} }).streamingBufferSeconds).toBe(1800);
    expect(resolveConfig({}, { env: { BQEMU_STREAMING_BUFFER_SECONDS: '0' }, allEnv: true }).streamingBufferSeconds).toBe(0);
    expect(resolveConfig(parseFlags({ streamingBufferSeconds: '2.5' }), { env: { BQEMU_STREAMING_BUFFER_SECONDS: '0' }, allEnv: true }).streamingBufferSeconds).toBe(2.5);
    expect(() => parseFlags({ streamingBufferSeconds: '-1' })).toThrow(new ConfigError('--streaming-buffer-seconds: expected a number of 0 or more, got "-1"'));
  });

  it('after the window the rows count as stored: numRows, copy and DML include them', async () => {
    const t = await startTestEmulator({ projectId: P, grpcPort: 0, streamingBufferSeconds: 1 });
    try {
      await t.bq.createDataset(DS);
      const [table] = await t.bq.dataset(DS).createTable('w', { schema: SCHEMA });
      await table.insert([{ id: 1, name: 'a' }, { id: 2, name: 'b' }]);
      expect((await table.getMetadata())[0].streamingBuffer.estimatedRows).toBe('2');
      await new Promise((r) => setTimeout(r, 1100));
      const [meta] = await table.getMetadata();
      expect(meta.streamingBuffer).toBeUndefined();
      expect(meta.numRows).toBe('2');
      await table.copy(t.bq.dataset(DS).table('w_copy'));
      expect(await count(t, 'w_copy')).toBe(2);
      await dml(t, 'UPDATE w SET name = "z" WHERE id = 1');
      await dml(t, 'TRUNCATE TABLE w');
      expect(await count(t, 'w')).toBe(0);
    } finally {
      await t.emu.close();
    }
  });

  it('--streaming-buffer-seconds 0 turns the buffer off', async () => {
    const t = await startTestEmulator({ projectId: P, grpcPort: 0, streamingBufferSeconds: 0 });
    try {
      await t.bq.createDataset(DS);
      const [table] = await t.bq.dataset(DS).createTable('off', { schema: SCHEMA });
      await table.insert([{ id: 1, name: 'a' }]);
      const [meta] = await table.getMetadata();
      expect(meta.streamingBuffer).toBeUndefined();
      expect(meta.numRows).toBe('1');
      await dml(t, 'DELETE FROM off WHERE id = 1');
      expect(await count(t, 'off')).toBe(0);
    } finally {
      await t.emu.close();
    }
  });

  it('with --data-dir, buffered rows are stored rows: they survive a restart (and then count as flushed)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-sb-data-'));
    try {
      let t = await startTestEmulator({ projectId: P, grpcPort: 0, dataDir: dir });
      try {
        await t.bq.createDataset(DS);
        const [table] = await t.bq.dataset(DS).createTable('durable', { schema: SCHEMA });
        await table.insert([{ id: 1, name: 'a' }]);
        expect((await table.getMetadata())[0].streamingBuffer.estimatedRows).toBe('1');
      } finally {
        await t.emu.close();
      }
      t = await startTestEmulator({ projectId: P, grpcPort: 0, dataDir: dir });
      try {
        const [meta] = await t.bq.dataset(DS).table('durable').getMetadata();
        expect(meta.streamingBuffer).toBeUndefined();
        expect(meta.numRows).toBe('1');
        expect(await count(t, 'durable')).toBe(1);
      } finally {
        await t.emu.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

const BQ = findBq();

describe.skipIf(!BQ)('bq CLI: bq insert, then bq show', () => {
  it('bq show --format=prettyjson shows streamingBuffer after bq insert', async () => {
    const t = await startTestEmulator({ projectId: P, grpcPort: 0 });
    const bq = bqRunner(BQ!, t.emu.url, P);
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-sb-cli-'));
    try {
      await t.bq.createDataset(DS);
      await t.bq.dataset(DS).createTable('cli', { schema: SCHEMA });
      const file = path.join(work, 'rows.json');
      fs.writeFileSync(file, '{"id": 1, "name": "a"}\n{"id": 2, "name": "b"}\n');
      const ins = await bq.run('insert', `${P}:${DS}.cli`, file);
      expect(ins.code, ins.stderr + ins.stdout).toBe(0);
      const show = await bq.run('show', '--format=prettyjson', `${DS}.cli`);
      expect(show.code, show.stderr + show.stdout).toBe(0);
      const resource = JSON.parse(show.stdout);
      expect(resource.streamingBuffer.estimatedRows).toBe('2');
      expect(resource.numRows).toBe('0');
    } finally {
      bq.cleanup();
      fs.rmSync(work, { recursive: true, force: true });
      await t.emu.close();
    }
  });
});
