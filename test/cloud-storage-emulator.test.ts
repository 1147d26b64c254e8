/**
 * `gs://` URIs through a Cloud Storage emulator named by `STORAGE_EMULATOR_HOST` (the variable the
 * official Cloud Storage clients read): load jobs (CSV, Parquet, a wildcard), extract jobs,
 * EXPORT DATA and external tables go to it through `@google-cloud/storage`, never to the local
 * `--gcs-dir` folder. Driven by @google-cloud/bigquery; the objects are put and read back with
 * @google-cloud/storage against the same emulator (test/helpers/cloud-storage-emulator.ts).
 * Expected values: the rows put into the objects; BigQuery's CSV export text (header line, then
 * one line per row, "Export table data", https://cloud.google.com/bigquery/docs/exporting-data);
 * newline-delimited JSON with INT64 as strings; a URI matching nothing is `Not found: URI <uri>`
 * (https://cloud.google.com/bigquery/docs/batch-loading-data#load-wildcards).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudStorageEmulator, type CloudStorageEmulator } from './helpers/cloud-storage-emulator.js';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator | undefined;
let gcs: CloudStorageEmulator | undefined;
let storage: Storage;
let localDir: string;
const saved = { host: process.env.STORAGE_EMULATOR_HOST, dir: process.env.BQEMU_GCS_DIR };
const BUCKET = `bqemu-gcs-${process.pid}`;
const DS = 'gcs';
const bq = () => t!.bq;

const PEOPLE_CSV = 'id,name,score\n1,ann,1.5\n2,bob,\n3,"c,y",2.25\n';
const PEOPLE_SCHEMA = { fields: [{ name: 'id', type: 'INTEGER' }, { name: 'name', type: 'STRING' }, { name: 'score', type: 'FLOAT' }] };
const PEOPLE_ROWS = [
  { id: 1, name: 'ann', score: 1.5 },
  { id: 2, name: 'bob', score: null },
  { id: 3, name: 'c,y', score: 2.25 },
];

const put = (name: string, data: string | Buffer) => storage.bucket(BUCKET).file(name).save(data);
const get = async (name: string) => (await storage.bucket(BUCKET).file(name).download())[0];
/** A CSV load job of `uri` into a table never created, to its end (its insert or its run may fail). */
const load = async (uri: string) => {
  const [job] = await bq().createJob({ configuration: { load: { sourceUris: [uri], sourceFormat: 'CSV', destinationTable: { projectId: 'gcs-project', datasetId: DS, tableId: 'never' } } } });
  await job.promise();
};
const rows = async (query: string) => (await bq().query({ query }))[0] as Record<string, unknown>[];

/** Files under the local stand-in folder (none may appear: every gs:// URI goes to the emulator). */
function localFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
}

beforeAll(async () => {
  gcs = await startCloudStorageEmulator();
  process.env.STORAGE_EMULATOR_HOST = gcs.url;
  localDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-gcs-unused-'));
  process.env.BQEMU_GCS_DIR = localDir;
  storage = new Storage({ projectId: 'gcs-project' });
  await storage.createBucket(BUCKET);
  t = await startTestEmulator({ projectId: 'gcs-project' });
  await bq().createDataset(DS);
}, 60_000);

afterAll(async () => {
  await t?.emu.close();
  await gcs?.stop();
  for (const [k, v] of [['STORAGE_EMULATOR_HOST', saved.host], ['BQEMU_GCS_DIR', saved.dir]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  fs.rmSync(localDir, { recursive: true, force: true });
});

describe('STORAGE_EMULATOR_HOST: gs:// through a Cloud Storage emulator', () => {
  it('loads a CSV object (table.load with a @google-cloud/storage File)', async () => {
    await put('csv/people.csv', PEOPLE_CSV);
    const [job] = await bq().dataset(DS).table('people').load(storage.bucket(BUCKET).file('csv/people.csv'), { sourceFormat: 'CSV', skipLeadingRows: 1, schema: PEOPLE_SCHEMA });
    expect(job.status?.state).toBe('DONE');
    expect(job.configuration?.load?.sourceUris).toEqual([`gs://${BUCKET}/csv/people.csv`]);
    expect(await rows(`SELECT * FROM ${DS}.people ORDER BY id`)).toEqual(PEOPLE_ROWS);
  });

  it('loads a Parquet object', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-gcs-pq-'));
    const file = path.join(dir, 'part.parquet');
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    await conn.run(`COPY (SELECT * FROM (VALUES (7::BIGINT, 'seven', DATE '2020-05-06'), (8::BIGINT, 'eight', NULL)) v(k, v, d)) TO '${file}' (FORMAT parquet)`);
    conn.closeSync();
    await storage.bucket(BUCKET).upload(file, { destination: 'pq/part-1.parquet' });
    fs.rmSync(dir, { recursive: true, force: true });
    const [job] = await bq().createJob({ configuration: { load: { sourceUris: [`gs://${BUCKET}/pq/part-1.parquet`], sourceFormat: 'PARQUET', destinationTable: { projectId: 'gcs-project', datasetId: DS, tableId: 'pq' } } } });
    await job.promise();
    expect(await rows(`SELECT k, v, CAST(d AS STRING) AS d FROM ${DS}.pq ORDER BY k`)).toEqual([
      { k: 7, v: 'seven', d: '2020-05-06' },
      { k: 8, v: 'eight', d: null },
    ]);
  });

  it('loads every object a wildcard URI matches (listing pages through the emulator), and only those', async () => {
    await put('shards/part-1.csv', 'id,name\n1,a\n');
    await put('shards/part-2.csv', 'id,name\n2,b\n');
    await put('shards/sub/part-3.csv', 'id,name\n3,c\n');
    await put('shards/part-4.txt', 'id,name\n4,d\n');
    await put('shardsX/part-5.csv', 'id,name\n5,e\n');
    const [job] = await bq().createJob({
      configuration: { load: { sourceUris: [`gs://${BUCKET}/shards/part*.csv`, `gs://${BUCKET}/shards/sub/*`], sourceFormat: 'CSV', skipLeadingRows: 1, schema: { fields: [{ name: 'id', type: 'INTEGER' }, { name: 'name', type: 'STRING' }] }, destinationTable: { projectId: 'gcs-project', datasetId: DS, tableId: 'shards' } } },
    });
    await job.promise();
    expect(await rows(`SELECT id, name FROM ${DS}.shards ORDER BY id`)).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
      { id: 3, name: 'c' },
    ]);
  });

  it('a URI matching no object, or in a bucket that does not exist, is "Not found: URI …"', async () => {
    for (const uri of [`gs://${BUCKET}/csv/missing.csv`, `gs://${BUCKET}/nothing/*.csv`, `gs://no-such-bucket-${process.pid}/a.csv`]) {
      const err = await errorOf(load(uri));
      expect(err.message).toBe(`Not found: URI ${uri}`);
      expect(err.errors?.[0]?.reason).toBe('notFound');
    }
  });

  it('an external table (tableDefinitions) reads the object, sees it replaced, and reads a wildcard', async () => {
    await put('ext/people.csv', PEOPLE_CSV);
    const people = { sourceFormat: 'CSV', sourceUris: [`gs://${BUCKET}/ext/people.csv`], csvOptions: { skipLeadingRows: '1' }, schema: PEOPLE_SCHEMA };
    const query = async (def: Record<string, unknown>) => {
      const [job] = await bq().createQueryJob({ query: 'SELECT id, name, score FROM people ORDER BY id', tableDefinitions: { people: def } } as never);
      return (await job.getQueryResults())[0];
    };
    expect(await query(people)).toEqual(PEOPLE_ROWS);
    // The object replaced (a new generation): the next query reads the new bytes.
    await put('ext/people.csv', 'id,name,score\n9,zed,0.5\n');
    expect(await query(people)).toEqual([{ id: 9, name: 'zed', score: 0.5 }]);
    await put('ext/more.csv', 'id,name,score\n10,ten,\n');
    expect(await query({ ...people, sourceUris: [`gs://${BUCKET}/ext/*.csv`] })).toEqual([
      { id: 9, name: 'zed', score: 0.5 },
      { id: 10, name: 'ten', score: null },
    ]);
  });

  it('an extract job writes its CSV object to the emulator (table.extract with a @google-cloud/storage File)', async () => {
    await bq().query(`CREATE TABLE ${DS}.src AS SELECT * FROM UNNEST([STRUCT(1 AS id, 'alpha' AS name), (2, 'b,"q"'), (3, NULL)])`);
    const [job] = await bq().dataset(DS).table('src').extract(storage.bucket(BUCKET).file('out/src-*.csv'));
    expect(job.statistics?.extract?.destinationUriFileCounts).toEqual(['1']);
    expect((await get('out/src-000000000000.csv')).toString('utf8')).toBe('id,name\n1,alpha\n2,"b,""q"""\n3,\n');
    await bq().dataset(DS).table('src').extract(storage.bucket(BUCKET).file('out/src.json'), { format: 'JSON' });
    expect((await get('out/src.json')).toString('utf8').trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { id: '1', name: 'alpha' },
      { id: '2', name: 'b,"q"' },
      { id: '3' },
    ]);
  });

  it('EXPORT DATA writes to the emulator; an existing object needs overwrite = true', async () => {
    const sql = (overwrite: boolean) =>
      `EXPORT DATA OPTIONS (uri = 'gs://${BUCKET}/export/*.json', format = 'JSON', overwrite = ${overwrite}) AS SELECT x AS n, CONCAT('v', CAST(x AS STRING)) AS s FROM UNNEST([1, 2]) AS x ORDER BY x`;
    await bq().query(sql(false));
    const text = (await get('export/000000000000.json')).toString('utf8');
    expect(text.trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { n: '1', s: 'v1' },
      { n: '2', s: 'v2' },
    ]);
    const err = await errorOf(bq().query(sql(false)));
    expect(err.message).toContain(`gs://${BUCKET}/export/*.json`);
    await bq().query(sql(true));
    // The export read back: a load of the exported object.
    const [job] = await bq().createJob({ configuration: { load: { sourceUris: [`gs://${BUCKET}/export/*.json`], sourceFormat: 'NEWLINE_DELIMITED_JSON', schema: { fields: [{ name: 'n', type: 'INTEGER' }, { name: 's', type: 'STRING' }] }, destinationTable: { projectId: 'gcs-project', datasetId: DS, tableId: 'back' } } } });
    await job.promise();
    expect(await rows(`SELECT n, s FROM ${DS}.back ORDER BY n`)).toEqual([
      { n: 1, s: 'v1' },
      { n: 2, s: 'v2' },
    ]);
  });

  it('a URI leaving its bucket is refused as for the local folder; nothing was written to the local folder', async () => {
    const err = await errorOf(load(`gs://${BUCKET}/../other/a.csv`));
    expect(err.message).toBe(`Access Denied: File gs://${BUCKET}/../other/a.csv: Access Denied`);
    expect(localFiles(localDir)).toEqual([]);
  });

  it('a Cloud Storage emulator that cannot be reached fails the job with a 500 backendError naming the URI', async () => {
    // Last: the object store is process-wide, and this emulator points it at a closed port.
    const other = await startTestEmulator({ projectId: 'gcs-project', storageEmulatorHost: 'http://127.0.0.1:9' });
    try {
      await other.bq.createDataset(DS);
      const [job] = await other.bq.createJob({ configuration: { load: { sourceUris: [`gs://${BUCKET}/csv/people.csv`], sourceFormat: 'CSV', destinationTable: { projectId: 'gcs-project', datasetId: DS, tableId: 'never' } } } }).catch((e) => [e]);
      const err = job instanceof Error ? (job as any) : await errorOf(job.promise());
      expect(err.errors?.[0]?.reason).toBe("backendError");
      expect(err.message).toContain(`gs://${BUCKET}/csv/people.csv`);
    } finally {
      await other.emu.close();
    }
  }, 60_000);
});
