/**
 * Load jobs (JobConfigurationLoad, src/server/rest/bigquery-v2-discovery.json) through @google-cloud/bigquery:
 * `table.load(localFile, metadata)` uses the media upload (multipart/related on
 * /upload/bigquery/v2/projects/{p}/jobs), `table.createLoadJob(storageFile)` a gs:// source URI
 * (mapped to BQEMU_GCS_DIR). Expected values: the files' contents typed by the schema (BigQuery
 * "Loading CSV data", "Loading JSON data", "Loading Parquet data", "Loading Avro data";
 * writeDisposition WRITE_APPEND default for load jobs, WRITE_TRUNCATE, WRITE_EMPTY "Already
 * Exists"; maxBadRecords).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import avro from 'avsc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
let dir: string;
let savedGcs: string | undefined;
const DS = 'loads';

function write(rel: string, data: string | Buffer): string {
  const p = path.join(dir, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, data);
  return p;
}

const rowsOf = async (table: string, order = '1') => (await t.bq.query({ query: `SELECT * FROM ${DS}.${table} ORDER BY ${order}` }))[0];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-load-'));
  savedGcs = process.env.BQEMU_GCS_DIR;
  process.env.BQEMU_GCS_DIR = path.join(dir, 'gcs');
  t = await startTestEmulator({ projectId: 'load-project' });
  await t.bq.createDataset(DS);
});
afterAll(async () => {
  await t?.emu.close();
  if (savedGcs === undefined) delete process.env.BQEMU_GCS_DIR;
  else process.env.BQEMU_GCS_DIR = savedGcs;
  fs.rmSync(dir, { recursive: true, force: true });
});

const schema = { fields: [{ name: 'id', type: 'INTEGER', mode: 'REQUIRED' }, { name: 'name', type: 'STRING' }, { name: 'born', type: 'DATE' }] };

describe('load jobs', () => {
  it('loads a local CSV file with a schema and skipLeadingRows (media upload)', async () => {
    const f = write('people.csv', 'id,name,born\n1,ann,2000-01-02\n2,,2001-03-04\n');
    const [job] = await t.bq.dataset(DS).table('people').load(f, { sourceFormat: 'CSV', schema, skipLeadingRows: 1 });
    expect(job.status?.state).toBe('DONE');
    expect(job.configuration?.jobType).toBe('LOAD');
    expect(job.statistics?.load?.outputRows).toBe('2');
    expect(job.statistics?.load?.inputFiles).toBe('1');
    const rows = await rowsOf('people');
    expect(rows.map((r: any) => [r.id, r.name, r.born.value])).toEqual([
      [1, 'ann', '2000-01-02'],
      [2, null, '2001-03-04'],
    ]);
    const [meta] = await t.bq.dataset(DS).table('people').getMetadata();
    expect(meta.schema.fields.map((f: any) => [f.name, f.type, f.mode])).toEqual([
      ['id', 'INTEGER', 'REQUIRED'],
      ['name', 'STRING', 'NULLABLE'],
      ['born', 'DATE', 'NULLABLE'],
    ]);
  });

  it('appends by default, truncates with WRITE_TRUNCATE, refuses a non-empty table with WRITE_EMPTY', async () => {
    const f = write('more.csv', '3,cy,2002-05-06\n');
    const table = t.bq.dataset(DS).table('people');
    await table.load(f, { sourceFormat: 'CSV' });
    expect((await rowsOf('people')).map((r: any) => r.id)).toEqual([1, 2, 3]);
    await table.load(f, { sourceFormat: 'CSV', writeDisposition: 'WRITE_TRUNCATE' });
    expect((await rowsOf('people')).map((r: any) => r.id)).toEqual([3]);
    const err = await table.load(f, { sourceFormat: 'CSV', writeDisposition: 'WRITE_EMPTY' }).then(
      () => undefined,
      (e: any) => e,
    );
    expect(err?.message).toContain('Already Exists: Table load-project:loads.people');
  });

  it('loads newline-delimited JSON with nested records and autodetect', async () => {
    const f = write('events.json', '{"id": 1, "info": {"city": "NYC", "age": 30}, "tags": ["a", "b"]}\n{"id": 2, "info": {"city": "LA", "age": 25}, "tags": []}\n');
    await t.bq.dataset(DS).table('events').load(f, { sourceFormat: 'NEWLINE_DELIMITED_JSON', autodetect: true });
    const rows = await rowsOf('events', 'id');
    expect(rows).toEqual([
      { id: 1, info: { city: 'NYC', age: 30 }, tags: ['a', 'b'] },
      { id: 2, info: { city: 'LA', age: 25 }, tags: [] },
    ]);
  });

  it('loads Parquet written by DuckDB, from a gs:// wildcard URI (jobs.insert)', async () => {
    const out = path.join(process.env.BQEMU_GCS_DIR!, 'bkt', 'pq', 'part-1.parquet');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    await t.emu.engine.db.run(`COPY (SELECT 7::BIGINT AS k, 'seven' AS v, 1.5::DOUBLE AS x) TO '${out}' (FORMAT parquet)`);
    const [j] = await t.bq.createJob({ configuration: { load: { sourceUris: ['gs://bkt/pq/*.parquet'], sourceFormat: 'PARQUET', destinationTable: { projectId: 'load-project', datasetId: DS, tableId: 'pq' } } } });
    await j.promise();
    expect(await rowsOf('pq')).toEqual([{ k: 7, v: 'seven', x: 1.5 }]);
  });

  it('loads Avro written by avsc (nullable union, nested record)', async () => {
    const type = avro.Type.forSchema({
      type: 'record',
      name: 'P',
      fields: [
        { name: 'id', type: 'long' },
        { name: 'name', type: ['null', 'string'] },
        { name: 'addr', type: { type: 'record', name: 'A', fields: [{ name: 'city', type: 'string' }] } },
        { name: 'amount', type: 'double' },
      ],
    });
    const f = path.join(dir, 'p.avro');
    await new Promise<void>((resolve, reject) => {
      const enc = avro.createFileEncoder(f, type);
      enc.on('error', reject);
      enc.write({ id: 1, name: 'ann', addr: { city: 'Oslo' }, amount: 12.5 });
      enc.write({ id: 2, name: null, addr: { city: 'Rome' }, amount: -1 });
      enc.end();
      enc.on('finish', () => setTimeout(resolve, 50));
    });
    await t.bq.dataset(DS).table('av').load(f, { sourceFormat: 'AVRO' });
    const rows = await rowsOf('av');
    expect(rows.map((r: any) => [r.id, r.name, r.addr.city, r.amount])).toEqual([
      [1, 'ann', 'Oslo', 12.5],
      [2, null, 'Rome', -1],
    ]);
    const [meta] = await t.bq.dataset(DS).table('av').getMetadata();
    expect(meta.schema.fields.map((x: any) => x.type)).toEqual(['INTEGER', 'STRING', 'RECORD', 'FLOAT']);
  });

  it('fails on a bad row, and skips it within maxBadRecords', async () => {
    const f = write('bad.csv', '1,ok,2000-01-01\nx,bad,2000-01-01\n3,ok,2000-01-03\n');
    const table = t.bq.dataset(DS).table('strict');
    const err = await table.load(f, { sourceFormat: 'CSV', schema }).then(
      () => undefined,
      (e: any) => e,
    );
    expect(err?.message).toContain('Error while reading data, error message: CSV table encountered too many errors, giving up. Rows: 2; errors: 1.');
    const [job] = await table.load(f, { sourceFormat: 'CSV', schema, maxBadRecords: 1 });
    expect(job.status?.errorResult).toBeUndefined();
    expect(job.status?.errors?.length).toBe(1);
    expect(job.statistics?.load?.badRecords).toBe('1');
    expect((await rowsOf('strict')).map((r: any) => r.id)).toEqual([1, 3]);
  });
});
