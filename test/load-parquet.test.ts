/**
 * Load jobs of Parquet files (src/jobs/load.ts → src/jobs/destination.ts: `INSERT … SELECT … FROM
 * read_parquet(…)` inside DuckDB) through @google-cloud/bigquery. Expected values: BigQuery's
 * Parquet type conversions ("Load Parquet data from Cloud Storage",
 * https://cloud.google.com/bigquery/docs/loading-data-cloud-storage-parquet: INT64 → INTEGER,
 * DOUBLE → FLOAT, UTF8 strings → STRING, unannotated BYTE_ARRAY → BYTES, BOOLEAN, DATE, DECIMAL →
 * NUMERIC, a timestamp adjusted to UTC → TIMESTAMP, one not adjusted → DATETIME, a group →
 * RECORD); load dispositions as for the other formats (WRITE_APPEND matches columns by name,
 * WRITE_TRUNCATE replaces the rows); files only under the allowed folders.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
let dir: string;
let gcs: string;
let savedGcs: string | undefined;
const DS = 'pq_loads';

/** Writes `select`'s rows as gs://bkt/<name> (a Parquet file written by DuckDB). */
async function parquet(name: string, select: string): Promise<string> {
  const out = path.join(gcs, 'bkt', name);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await t.emu.engine.db.run(`COPY (${select}) TO '${out}' (FORMAT parquet)`);
  return `gs://bkt/${name}`;
}

async function load(uri: string, tableId: string, extra: Record<string, unknown> = {}) {
  const [j] = await t.bq.createJob({ configuration: { load: { sourceUris: [uri], sourceFormat: 'PARQUET', destinationTable: { projectId: 'pq-project', datasetId: DS, tableId }, ...extra } } });
  await j.promise();
  const [meta] = await j.getMetadata();
  return meta;
}

const rowsOf = async (table: string, order = '1') => (await t.bq.query({ query: `SELECT * FROM ${DS}.${table} ORDER BY ${order}` }))[0];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-pq-'));
  gcs = path.join(dir, 'gcs');
  savedGcs = process.env.BQEMU_GCS_DIR;
  process.env.BQEMU_GCS_DIR = gcs;
  t = await startTestEmulator({ projectId: 'pq-project' });
  await t.bq.createDataset(DS);
});
afterAll(async () => {
  await t?.emu.close();
  if (savedGcs === undefined) delete process.env.BQEMU_GCS_DIR;
  else process.env.BQEMU_GCS_DIR = savedGcs;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('Parquet load jobs', () => {
  it("maps Parquet's types to BigQuery's and keeps every value", async () => {
    const uri = await parquet(
      'types.parquet',
      `SELECT * FROM (VALUES
        (1::BIGINT, 2.5::DOUBLE, 'x', true, DATE '2020-01-02', TIMESTAMPTZ '2020-01-02 03:04:05.123456+00', TIMESTAMP '2021-05-06 07:08:09.5', 12.34::DECIMAL(10,2), '\\xAA\\x01'::BLOB, {'a': 7::BIGINT, 'b': 'z'}),
        (-9007199254740993::BIGINT, NULL, NULL, false, NULL, NULL, NULL, -0.01::DECIMAL(10,2), NULL, NULL)
      ) v(k, f, s, b, d, ts, dt, n, bt, st)`,
    );
    const meta = await load(uri, 'types');
    expect(meta.statistics.load.outputRows).toBe('2');
    expect(meta.statistics.load.inputFiles).toBe('1');
    const [tmeta] = await t.bq.dataset(DS).table('types').getMetadata();
    expect(tmeta.schema.fields.map((f: any) => [f.name, f.type])).toEqual([
      ['k', 'INTEGER'],
      ['f', 'FLOAT'],
      ['s', 'STRING'],
      ['b', 'BOOLEAN'],
      ['d', 'DATE'],
      ['ts', 'TIMESTAMP'],
      ['dt', 'DATETIME'],
      ['n', 'NUMERIC'],
      ['bt', 'BYTES'],
      ['st', 'RECORD'],
    ]);
    const [rows] = await t.bq.query({
      query: `SELECT CAST(k AS STRING) k, f, s, b, CAST(d AS STRING) d, FORMAT_TIMESTAMP('%FT%H:%M:%E6S', ts) ts, FORMAT_DATETIME('%F %H:%M:%E6S', dt) dt, CAST(n AS STRING) n, TO_HEX(bt) bt, st.a AS sa, st.b AS sb FROM ${DS}.types AS x ORDER BY x.b DESC`,
    });
    expect(rows).toEqual([
      { k: '1', f: 2.5, s: 'x', b: true, d: '2020-01-02', ts: '2020-01-02T03:04:05.123456', dt: '2021-05-06 07:08:09.500000', n: '12.34', bt: 'aa01', sa: 7, sb: 'z' },
      { k: '-9007199254740993', f: null, s: null, b: false, d: null, ts: null, dt: null, n: '-0.01', bt: null, sa: null, sb: null },
    ]);
  });

  it('appends by column name (columns the file lacks are NULL), truncates with WRITE_TRUNCATE', async () => {
    await t.bq.dataset(DS).createTable('target', { schema: { fields: [{ name: 'id', type: 'INTEGER' }, { name: 'name', type: 'STRING' }, { name: 'note', type: 'STRING' }] } });
    await t.bq.query({ query: `INSERT ${DS}.target (id, name, note) VALUES (1, 'one', 'kept')` });
    const uri = await parquet('reordered.parquet', `SELECT 'two' AS name, 2::BIGINT AS id UNION ALL SELECT 'three', 3`);
    const meta = await load(uri, 'target');
    expect(meta.statistics.load.outputRows).toBe('2');
    expect(await rowsOf('target')).toEqual([
      { id: 1, name: 'one', note: 'kept' },
      { id: 2, name: 'two', note: null },
      { id: 3, name: 'three', note: null },
    ]);
    await load(uri, 'target', { writeDisposition: 'WRITE_TRUNCATE' });
    expect(await rowsOf('target', 'id')).toEqual([
      { id: 2, name: 'two' },
      { id: 3, name: 'three' },
    ]);
    const [tmeta] = await t.bq.dataset(DS).table('target').getMetadata();
    expect(tmeta.schema.fields.map((f: any) => f.name)).toEqual(['name', 'id']);
  });

  it("refuses a file column the table lacks without ALLOW_FIELD_ADDITION (BigQuery's schema error), adds it with the option", async () => {
    await t.bq.dataset(DS).createTable('narrow', { schema: { fields: [{ name: 'id', type: 'INTEGER' }] } });
    const uri = await parquet('wider.parquet', `SELECT 5::BIGINT AS id, 'extra' AS more`);
    const err = await load(uri, 'narrow').catch((e: Error) => e);
    expect((err as Error).message).toBe('Provided Schema does not match Table pq-project:pq_loads.narrow. Cannot add fields (field: more)');
    expect(await rowsOf('narrow')).toEqual([]);
    await load(uri, 'narrow', { schemaUpdateOptions: ['ALLOW_FIELD_ADDITION'] });
    expect(await rowsOf('narrow')).toEqual([{ id: 5, more: 'extra' }]);
  });

  it('loads 100,000 rows from several files of one wildcard', async () => {
    for (const part of [0, 1, 2, 3]) await parquet(`many/part-${part}.parquet`, `SELECT ${part} * 25000 + range AS id, 'row' || (${part} * 25000 + range) AS label FROM range(25000)`);
    const meta = await load('gs://bkt/many/*.parquet', 'many');
    expect(meta.statistics.load.outputRows).toBe('100000');
    expect(meta.statistics.load.inputFiles).toBe('4');
    const [rows] = await t.bq.query({ query: `SELECT COUNT(*) n, COUNT(DISTINCT id) ids, SUM(id) total, MAX(label) top FROM ${DS}.many` });
    expect(rows).toEqual([{ n: 100000, ids: 100000, total: 4999950000, top: 'row99999' }]);
  });

  it('reads no file outside the allowed folders', async () => {
    const outside = path.join(dir, 'outside.parquet');
    await t.emu.engine.db.run(`COPY (SELECT 1 AS x) TO '${outside}' (FORMAT parquet)`);
    const err = await load(outside, 'never').catch((e: Error) => e);
    expect((err as Error).message).toBe(`Access Denied: File ${outside}: Access Denied`);
    const [exists] = await t.bq.dataset(DS).table('never').exists();
    expect(exists).toBe(false);
  });
});
