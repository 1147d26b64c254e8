/**
 * Copy jobs (JobConfigurationTableCopy) and extract jobs (JobConfigurationExtract) through
 * @google-cloud/bigquery: `table.copy(dest)`, `table.copyFrom(sources)`, `table.extract(file)`.
 * Expected values: the source rows; copy's writeDisposition default WRITE_EMPTY and its
 * `duplicate` error (discovery JobConfigurationTableCopy.writeDisposition); snapshots read-only
 * (BigQuery "Introduction to table snapshots"); export text per BigQuery "Export table data"
 * (CSV header, INT64 as JSON strings in JSON exports); the Avro container read back with avsc.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import avro from 'avsc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { gcsFile as storageFile } from './helpers/storage-file.js';

let t: TestEmulator;
let dir: string;
let savedGcs: string | undefined;
const DS = 'cx';
const P = 'cx-project';

const gcsFile = (name: string) => storageFile('bkt', name);
const local = (name: string) => path.join(dir, 'bkt', name);

const rowsOf = async (table: string) => (await t.bq.query({ query: `SELECT * FROM ${DS}.${table} ORDER BY id` }))[0];
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: any) => e);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-cx-'));
  savedGcs = process.env.BQEMU_GCS_DIR;
  process.env.BQEMU_GCS_DIR = dir;
  t = await startTestEmulator({ projectId: P });
  await t.bq.createDataset(DS);
  await t.bq.query(`CREATE TABLE ${DS}.src (id INT64 NOT NULL, name STRING, ts TIMESTAMP)`);
  await t.bq.query(`INSERT ${DS}.src VALUES (1, 'alpha', TIMESTAMP '2019-01-13 00:00:00 UTC'), (2, 'b,"q"', NULL), (3, NULL, TIMESTAMP '2020-05-06 07:08:09 UTC')`);
  await t.bq.query(`CREATE TABLE ${DS}.more (id INT64 NOT NULL, name STRING, ts TIMESTAMP)`);
  await t.bq.query(`INSERT ${DS}.more VALUES (4, 'delta', NULL)`);
});
afterAll(async () => {
  await t?.emu.close();
  if (savedGcs === undefined) delete process.env.BQEMU_GCS_DIR;
  else process.env.BQEMU_GCS_DIR = savedGcs;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('copy jobs', () => {
  it('copies a table to a new table (schema with modes, rows, statistics.copy)', async () => {
    const [job] = await t.bq.dataset(DS).table('src').copy(t.bq.dataset(DS).table('c1'));
    expect(job.configuration?.jobType).toBe('COPY');
    expect(job.statistics?.copy?.copiedRows).toBe('3');
    expect(Number(job.statistics?.copy?.copiedLogicalBytes)).toBeGreaterThan(0);
    expect((await rowsOf('c1')).map((r: any) => [r.id, r.name])).toEqual([
      [1, 'alpha'],
      [2, 'b,"q"'],
      [3, null],
    ]);
    const [meta] = await t.bq.dataset(DS).table('c1').getMetadata();
    const [srcMeta] = await t.bq.dataset(DS).table('src').getMetadata();
    expect(meta.schema).toEqual(srcMeta.schema);
    expect(meta.schema.fields[0].mode).toBe('REQUIRED');
  });

  it('refuses a destination with rows under the default WRITE_EMPTY; appends with WRITE_APPEND', async () => {
    const err = await failure(t.bq.dataset(DS).table('src').copy(t.bq.dataset(DS).table('c1')));
    expect(err?.message).toContain(`Already Exists: Table ${P}:${DS}.c1`);
    await t.bq.dataset(DS).table('more').copy(t.bq.dataset(DS).table('c1'), { writeDisposition: 'WRITE_APPEND' });
    expect((await rowsOf('c1')).map((r: any) => r.id)).toEqual([1, 2, 3, 4]);
    await t.bq.dataset(DS).table('more').copy(t.bq.dataset(DS).table('c1'), { writeDisposition: 'WRITE_TRUNCATE' });
    expect((await rowsOf('c1')).map((r: any) => r.id)).toEqual([4]);
  });

  it('refuses an append whose column types differ, and a missing source (404)', async () => {
    await t.bq.query(`CREATE TABLE ${DS}.other (id STRING)`);
    const mismatch = await failure(t.bq.dataset(DS).table('src').copy(t.bq.dataset(DS).table('other'), { writeDisposition: 'WRITE_APPEND' }));
    expect(mismatch?.message).toContain(`Provided Schema does not match Table ${P}:${DS}.other. Field id has changed type from STRING to INTEGER`);
    const missing = await failure(t.bq.dataset(DS).table('nope').copy(t.bq.dataset(DS).table('c9')));
    expect(missing?.message).toContain(`Not found: Table ${P}:${DS}.nope`);
  });

  it('copies several sources in order into one table', async () => {
    const [job] = await t.bq.dataset(DS).table('multi').copyFrom([t.bq.dataset(DS).table('more'), t.bq.dataset(DS).table('src')]);
    expect(job.statistics?.copy?.copiedRows).toBe('4');
    expect((await rowsOf('multi')).map((r: any) => r.id)).toEqual([1, 2, 3, 4]);
  });

  it('SNAPSHOT makes a read-only table snapshot', async () => {
    const [job] = await t.bq.dataset(DS).table('src').copy(t.bq.dataset(DS).table('snap'), { operationType: 'SNAPSHOT' });
    expect(job.status?.state).toBe('DONE');
    const [meta] = await t.bq.dataset(DS).table('snap').getMetadata();
    expect(meta.snapshotDefinition.baseTableReference).toEqual({ projectId: P, datasetId: DS, tableId: 'src' });
    expect((await rowsOf('snap')).map((r: any) => r.id)).toEqual([1, 2, 3]);
    const err = await failure(t.bq.query(`INSERT ${DS}.snap (id) VALUES (9)`));
    expect(err?.message).toContain(`${P}:${DS}.snap is not allowed for this operation because it is currently a SNAPSHOT.`);
    const [restore] = await t.bq.dataset(DS).table('snap').copy(t.bq.dataset(DS).table('restored'), { operationType: 'RESTORE' });
    expect(restore.status?.state).toBe('DONE');
    await t.bq.query(`INSERT ${DS}.restored (id) VALUES (9)`);
    expect((await rowsOf('restored')).map((r: any) => r.id)).toEqual([1, 2, 3, 9]);
  });
});

describe('extract jobs', () => {
  it('extracts CSV with a header and loads it back', async () => {
    const [job] = await t.bq.dataset(DS).table('src').extract(gcsFile('csv/src-*.csv'));
    expect(job.configuration?.jobType).toBe('EXTRACT');
    expect(job.statistics?.extract?.destinationUriFileCounts).toEqual(['1']);
    const text = fs.readFileSync(local('csv/src-000000000000.csv'), 'utf8');
    expect(text.trim().split('\n')).toEqual(['id,name,ts', '1,alpha,2019-01-13 00:00:00 UTC', '2,"b,""q""",', '3,,2020-05-06 07:08:09 UTC']);
    await t.bq.dataset(DS).table('src').extract(gcsFile('csv/nohead.csv'), { printHeader: false, fieldDelimiter: '|' });
    expect(fs.readFileSync(local('csv/nohead.csv'), 'utf8').split('\n')[0]).toBe('1|alpha|2019-01-13 00:00:00 UTC');
    await t.bq.query(`CREATE TABLE ${DS}.csvback (id INT64, name STRING, ts TIMESTAMP)`);
    await t.bq.createJob({ configuration: { load: { sourceUris: ['gs://bkt/csv/src-*.csv'], sourceFormat: 'CSV', skipLeadingRows: 1, destinationTable: { projectId: P, datasetId: DS, tableId: 'csvback' } } } });
    const back = await rowsOf('csvback');
    expect(back.map((r: any) => [r.id, r.name, r.ts?.value ?? null])).toEqual([
      [1, 'alpha', '2019-01-13T00:00:00.000Z'],
      [2, 'b,"q"', null],
      [3, null, '2020-05-06T07:08:09.000Z'],
    ]);
  });

  it('extracts each scalar type as its documented CSV export text (DuckDB-written CSV and EXPORT DATA alike)', async () => {
    // BigQuery "Exported data formats": TIMESTAMP `YYYY-MM-DD HH:MM:SS[.ffffff] UTC`, BYTES base64,
    // BOOL true/false, FLOAT64 as CAST(x AS STRING); NULL an empty field; RFC 4180 quoting.
    await t.bq.query(`CREATE TABLE ${DS}.scalars (id INT64, f FLOAT64, b BOOL, s STRING, y BYTES, d DATE, ts TIMESTAMP)`);
    await t.bq.query(
      `INSERT ${DS}.scalars VALUES (1, 1e21, true, 'tab\\there', b'\\x00\\xff', DATE '0001-01-01', TIMESTAMP '2019-01-13 00:00:00.5 UTC'), ` +
        `(2, 1.5e-7, false, '', b'', DATE '9999-12-31', TIMESTAMP '2020-01-01 01:02:03.123456 UTC'), (3, -0.0, NULL, 'line\\nbreak "q"', NULL, NULL, NULL), ` +
        `(4, 123456789.125, true, 'x', b'a', DATE '2024-02-29', TIMESTAMP '1970-01-01 00:00:00.001 UTC')`,
    );
    const expected = [
      'id,f,b,s,y,d,ts',
      '1,1e+21,true,tab\there,AP8=,0001-01-01,2019-01-13 00:00:00.500 UTC',
      '2,1.5e-7,false,,,9999-12-31,2020-01-01 01:02:03.123456 UTC',
      '3,0,,"line\nbreak ""q""",,,',
      '4,123456789.125,true,x,YQ==,2024-02-29,1970-01-01 00:00:00.001 UTC',
      '',
    ].join('\n');
    await t.bq.dataset(DS).table('scalars').extract(gcsFile('csv/scalars.csv'));
    expect(fs.readFileSync(local('csv/scalars.csv'), 'utf8')).toBe(expected);
    await t.bq.query(`EXPORT DATA OPTIONS (uri = 'gs://bkt/csv/scalars-export-*.csv', format = 'CSV') AS SELECT * FROM ${DS}.scalars ORDER BY id`);
    expect(fs.readFileSync(local('csv/scalars-export-000000000000.csv'), 'utf8')).toBe(expected);
    // A tab delimiter quotes the tab; no header.
    await t.bq.dataset(DS).table('scalars').extract(gcsFile('csv/tab.tsv'), { printHeader: false, fieldDelimiter: '\t' });
    expect(fs.readFileSync(local('csv/tab.tsv'), 'utf8').split('\n')[0]).toBe('1\t1e+21\ttrue\t"tab\there"\tAP8=\t0001-01-01\t2019-01-13 00:00:00.500 UTC');
    // Two URIs split the rows in order, each file with the header; gzip.
    const [job] = await t.bq.createJob({
      configuration: { extract: { sourceTable: { projectId: P, datasetId: DS, tableId: 'scalars' }, destinationUris: ['gs://bkt/csv/a-*.csv.gz', 'gs://bkt/csv/b-*.csv.gz'], compression: 'GZIP' } },
    });
    await job.promise();
    const gunzip = (f: string) => zlib.gunzipSync(fs.readFileSync(local(f))).toString('utf8');
    const lines = expected.split('\n');
    expect(gunzip('csv/a-000000000000.csv.gz')).toBe([...lines.slice(0, 3), ''].join('\n'));
    expect(gunzip('csv/b-000000000000.csv.gz')).toBe([lines[0], ...lines.slice(3)].join('\n'));
  });

  it('extracts newline-delimited JSON (INT64 as strings, NULL fields left out) and loads it back', async () => {
    await t.bq.dataset(DS).table('src').extract(gcsFile('json/src.json'));
    const lines = fs.readFileSync(local('json/src.json'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { id: '1', name: 'alpha', ts: '2019-01-13 00:00:00 UTC' },
      { id: '2', name: 'b,"q"' },
      { id: '3', ts: '2020-05-06 07:08:09 UTC' },
    ]);
    await t.bq.createJob({
      configuration: { load: { sourceUris: ['gs://bkt/json/src.json'], sourceFormat: 'NEWLINE_DELIMITED_JSON', schema: { fields: [{ name: 'id', type: 'INTEGER' }, { name: 'name', type: 'STRING' }, { name: 'ts', type: 'TIMESTAMP' }] }, destinationTable: { projectId: P, datasetId: DS, tableId: 'jsonback' } } },
    });
    expect((await rowsOf('jsonback')).map((r: any) => [r.id, r.name])).toEqual([
      [1, 'alpha'],
      [2, 'b,"q"'],
      [3, null],
    ]);
  });

  it('INT64 beyond 2^53 survives an Avro extract and load back exactly', async () => {
    await t.bq.query({ query: `CREATE TABLE ${DS}.bigints AS SELECT * FROM UNNEST([9223372036854775807, -9223372036854775808, 9007199254740993]) AS n` });
    const [job] = await t.bq.dataset(DS).table('bigints').extract(gcsFile('avro/bigints.avro'), { format: 'AVRO' } as never);
    expect(job.status?.state).toBe('DONE');
    await t.bq.createJob({ configuration: { load: { sourceUris: ['gs://bkt/avro/bigints.avro'], sourceFormat: 'AVRO', destinationTable: { projectId: P, datasetId: DS, tableId: 'bigintsback' } } } });
    const [back] = await t.bq.query({ query: `SELECT CAST(n AS STRING) AS n FROM ${DS}.bigintsback ORDER BY n` });
    expect(back.map((r: any) => r.n).sort()).toEqual(['-9223372036854775808', '9007199254740993', '9223372036854775807']);
  });

  it('extracts Avro (read back with avsc) and loads it back', async () => {
    const [job] = await t.bq.dataset(DS).table('src').extract(gcsFile('avro/src.avro'), { compression: 'DEFLATE' });
    expect(job.status?.state).toBe('DONE');
    const records: any[] = await new Promise((resolve, reject) => {
      const out: any[] = [];
      avro.createFileDecoder(local('avro/src.avro')).on('data', (r: any) => out.push(r)).on('end', () => resolve(out)).on('error', reject);
    });
    expect(records.map((r) => [r.id, r.name, r.ts])).toEqual([
      [1, 'alpha', Date.UTC(2019, 0, 13) * 1000],
      [2, 'b,"q"', null],
      [3, null, Date.UTC(2020, 4, 6, 7, 8, 9) * 1000],
    ]);
    await t.bq.createJob({ configuration: { load: { sourceUris: ['gs://bkt/avro/src.avro'], sourceFormat: 'AVRO', useAvroLogicalTypes: true, destinationTable: { projectId: P, datasetId: DS, tableId: 'avroback' } } } });
    const [back] = await t.bq.query({ query: `SELECT id, name, CAST(ts AS STRING) AS ts FROM ${DS}.avroback ORDER BY id` });
    expect(back.map((r: any) => [r.id, r.name, r.ts])).toEqual([
      [1, 'alpha', '2019-01-13 00:00:00+00'],
      [2, 'b,"q"', null],
      [3, null, '2020-05-06 07:08:09+00'],
    ]);
  });

  it('round-trips DATE, TIME, DATETIME and NUMERIC through Avro with logical types', async () => {
    await t.bq.query(
      `CREATE TABLE ${DS}.civil AS SELECT DATE '1969-12-31' AS d, TIME '23:59:58.123456' AS tm, DATETIME '2020-02-29 01:02:03.5' AS dt, NUMERIC '-12.5' AS n`,
    );
    await t.bq.dataset(DS).table('civil').extract(gcsFile('avro/civil.avro'), { format: 'AVRO', useAvroLogicalTypes: true } as never);
    await t.bq.createJob({ configuration: { load: { sourceUris: ['gs://bkt/avro/civil.avro'], sourceFormat: 'AVRO', useAvroLogicalTypes: true, destinationTable: { projectId: P, datasetId: DS, tableId: 'civilback' } } } });
    const [back] = await t.bq.query({ query: `SELECT CAST(d AS STRING) AS d, CAST(tm AS STRING) AS tm, CAST(dt AS STRING) AS dt, CAST(n AS STRING) AS n FROM ${DS}.civilback` });
    expect(back).toEqual([{ d: '1969-12-31', tm: '23:59:58.123456', dt: '2020-02-29 01:02:03.500', n: '-12.5' }]);
  });

  it('refuses a model source, Avro SNAPPY and CSV of nested fields', async () => {
    const model = await failure(t.bq.createJob({ configuration: { extract: { sourceModel: { projectId: P, datasetId: DS, modelId: 'm' }, destinationUris: ['gs://bkt/m'] } } }));
    expect(model?.message).toContain('not supported by bqemu');
    const snappy = await failure(t.bq.dataset(DS).table('src').extract(gcsFile('avro/x.avro'), { compression: 'SNAPPY' }));
    expect(snappy?.message).toContain('not supported by bqemu');
    await t.bq.query(`CREATE TABLE ${DS}.nested AS SELECT 1 AS id, [1, 2] AS xs`);
    const nested = await failure(t.bq.dataset(DS).table('nested').extract(gcsFile('n.csv')));
    expect(nested?.message).toContain('Operation cannot be performed on a nested schema. Field: xs');
  });
});
