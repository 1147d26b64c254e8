/**
 * Load jobs, external tables (tableDefinitions), extract jobs and EXPORT DATA touch local files only
 * inside the emulator's own data: the Cloud Storage stand-in folder (BQEMU_GCS_DIR) and the
 * directories the user allowed (`allowLocalFiles`, the CLI's `--allow-local-files`). Through
 * @google-cloud/bigquery. A path outside them — directly, through `..`, through a wildcard or a
 * symbolic link — is refused with BigQuery's 403 accessDenied text for an object the caller cannot
 * read, `Access Denied: File <uri>: Access Denied`
 * (https://github.com/GoogleCloudPlatform/PerfKitExplorer/issues/1), or for a wildcard
 * `Access Denied: BigQuery BigQuery: Permission denied while globbing file pattern.`
 * (https://github.com/dbt-labs/dbt-core/issues/502); the file's content never reaches the client
 * and no table is written.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

const P = 'files-project';
const DS = 'files';
const SECRET = 'secret-row-content';
const schema = { fields: [{ name: 'id', type: 'INTEGER' }, { name: 'name', type: 'STRING' }] };

let t: TestEmulator;
let bare: TestEmulator; // no allowLocalFiles: only the stand-in folder
let dir: string;
let gcs: string;
let allowed: string;
let outside: string;
let savedGcs: string | undefined;
let n = 0;

function write(p: string, data: string): string {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, data);
  return p;
}

beforeAll(async () => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-files-')));
  gcs = path.join(dir, 'gcs');
  allowed = path.join(dir, 'allowed');
  outside = path.join(dir, 'outside');
  write(path.join(outside, 'secret.csv'), `9,${SECRET}\n`);
  write(path.join(allowed, 'good.csv'), '1,ann\n2,bob\n');
  write(path.join(allowed, 'sub', 'more.csv'), '3,cy\n');
  fs.symlinkSync(path.join(outside, 'secret.csv'), path.join(allowed, 'link.csv'));
  fs.symlinkSync(outside, path.join(allowed, 'linkdir'));
  write(path.join(gcs, 'bkt', 'ok.csv'), '4,dee\n');
  fs.symlinkSync(path.join(outside, 'secret.csv'), path.join(gcs, 'bkt', 'link.csv'));
  fs.symlinkSync(outside, path.join(gcs, 'bkt', 'out'));
  savedGcs = process.env.BQEMU_GCS_DIR;
  process.env.BQEMU_GCS_DIR = gcs;
  t = await startTestEmulator({ projectId: P, allowLocalFiles: [allowed] });
  bare = await startTestEmulator({ projectId: P });
  await t.bq.createDataset(DS);
  await bare.bq.createDataset(DS);
});
afterAll(async () => {
  await t?.emu.close();
  await bare?.emu.close();
  if (savedGcs === undefined) delete process.env.BQEMU_GCS_DIR;
  else process.env.BQEMU_GCS_DIR = savedGcs;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs a CSV load job of `uris` into a new table; resolves with the table name. */
async function load(emu: TestEmulator, uris: string[]): Promise<string> {
  const tableId = `t${++n}`;
  const [job] = await emu.bq.createJob({ configuration: { load: { sourceUris: uris, sourceFormat: 'CSV', schema, destinationTable: { projectId: P, datasetId: DS, tableId } } } });
  await job.promise();
  return tableId;
}

const rowsOf = async (emu: TestEmulator, table: string) => (await emu.bq.query({ query: `SELECT id, name FROM ${DS}.${table} ORDER BY id` }))[0];

/** The failed job's errorResult (read back with jobs.get) and the client's error. */
async function refusedLoad(emu: TestEmulator, uri: string) {
  const tableId = `t${++n}`;
  const jobId = `refused_${tableId}`;
  const insert = emu.bq.createJob({ jobId, configuration: { load: { sourceUris: [uri], sourceFormat: 'CSV', schema, destinationTable: { projectId: P, datasetId: DS, tableId } } } });
  const err = await errorOf(insert.then(([job]) => job.promise()));
  const [meta] = await emu.bq.job(jobId).getMetadata();
  const [exists] = await emu.bq.dataset(DS).table(tableId).exists();
  return { err, errorResult: meta.status?.errorResult, exists };
}

describe('load jobs read local files only under allowed folders', () => {
  const denied = (uri: string) => ({ reason: 'accessDenied', message: `Access Denied: File ${uri}: Access Denied` });

  it.each([
    'file:///etc/passwd',
    '/etc/passwd',
    'gs://bkt/../../etc/passwd',
    'gs://../etc/passwd',
    'gs://bkt/../../../../../../../etc/passwd',
  ])('refuses %s with accessDenied and writes nothing', async (uri) => {
    const r = await refusedLoad(t, uri);
    expect(r.errorResult).toEqual(denied(uri));
    expect(r.err.message).toBe(`Access Denied: File ${uri}: Access Denied`);
    expect(r.err.message).not.toContain('root:');
    expect(r.exists).toBe(false);
  });

  it('refuses a wildcard over a folder that is not allowed (no listing outside)', async () => {
    const r = await refusedLoad(t, 'file:///etc/pass*');
    expect(r.errorResult).toEqual({ reason: 'accessDenied', message: 'Access Denied: BigQuery BigQuery: Permission denied while globbing file pattern.' });
    expect(r.exists).toBe(false);
    const r2 = await refusedLoad(t, `${outside}/*`);
    expect(r2.errorResult?.reason).toBe('accessDenied');
  });

  it('refuses a relative file:// path as an invalid source URI', async () => {
    const uri = 'file://../../../../etc/passwd';
    const r = await refusedLoad(t, uri);
    expect(r.errorResult?.reason).toBe('invalid');
    expect(r.errorResult?.message).toContain(`Invalid source URI: ${uri}`);
    expect(r.exists).toBe(false);
  });

  it('refuses an existing file outside the allowed folders, also through `..` from an allowed one', async () => {
    const secret = path.join(outside, 'secret.csv');
    expect((await refusedLoad(t, secret)).errorResult).toEqual(denied(secret));
    const dotdot = `${allowed}/../outside/secret.csv`;
    expect((await refusedLoad(t, dotdot)).errorResult).toEqual(denied(dotdot));
    // A missing file outside is refused the same way: no probing for what exists.
    const missing = path.join(outside, 'nothing-here.csv');
    expect((await refusedLoad(t, missing)).errorResult).toEqual(denied(missing));
  });

  it('refuses symbolic links inside allowed folders that point out of them', async () => {
    for (const uri of [`${allowed}/link.csv`, `file://${allowed}/linkdir/secret.csv`, 'gs://bkt/link.csv', 'gs://bkt/out/secret.csv']) {
      const r = await refusedLoad(t, uri);
      expect(r.errorResult, uri).toEqual(denied(uri));
      expect(r.exists).toBe(false);
    }
  });

  it('a wildcard in an allowed folder skips links that point out of it', async () => {
    // allowed/ holds good.csv, sub/more.csv, link.csv → outside/secret.csv and linkdir/ → outside/.
    const table = await load(t, [`file://${allowed}/*.csv`]);
    expect(await rowsOf(t, table)).toEqual([
      { id: 1, name: 'ann' },
      { id: 2, name: 'bob' },
      { id: 3, name: 'cy' },
    ]);
    const gsTable = await load(t, ['gs://bkt/*']);
    expect(await rowsOf(t, gsTable)).toEqual([{ id: 4, name: 'dee' }]);
  });

  it('reads file:// URIs and absolute paths under an allowed folder', async () => {
    const a = await load(t, [`file://${allowed}/good.csv`]);
    expect(await rowsOf(t, a)).toEqual([
      { id: 1, name: 'ann' },
      { id: 2, name: 'bob' },
    ]);
    const b = await load(t, [path.join(allowed, 'sub', 'more.csv'), `${allowed}/sub/../good.csv`]);
    expect((await rowsOf(t, b)).map((r: any) => r.id)).toEqual([1, 2, 3]);
  });

  it('without allowLocalFiles only the Cloud Storage stand-in folder is readable', async () => {
    const uri = `file://${allowed}/good.csv`;
    expect((await refusedLoad(bare, uri)).errorResult).toEqual(denied(uri));
    const table = await load(bare, ['gs://bkt/ok.csv']);
    expect(await rowsOf(bare, table)).toEqual([{ id: 4, name: 'dee' }]);
  });
});

describe('external tables (tableDefinitions) read local files only under allowed folders', () => {
  const query = (emu: TestEmulator, uri: string) =>
    emu.bq.createQueryJob({ query: 'SELECT * FROM ext', tableDefinitions: { ext: { sourceFormat: 'CSV', sourceUris: [uri], schema } } } as never).then(([j]) => j.getQueryResults());

  it('refuses /etc/passwd, file:///etc/passwd and a link out of an allowed folder', async () => {
    for (const uri of ['/etc/passwd', 'file:///etc/passwd', `${allowed}/link.csv`]) {
      const err = await errorOf(query(t, uri));
      expect(err.errors?.[0]?.reason, uri).toBe('accessDenied');
      expect(err.message).toBe(`Access Denied: File ${uri}: Access Denied`);
      expect(JSON.stringify(err)).not.toContain(SECRET);
    }
  });

  it('reads a file in an allowed folder', async () => {
    const [rows] = await query(t, `${allowed}/good.csv`);
    expect(rows).toEqual([
      { id: 1, name: 'ann' },
      { id: 2, name: 'bob' },
    ]);
  });
});

describe('extract jobs and EXPORT DATA write only inside the Cloud Storage stand-in folder', () => {
  beforeAll(async () => {
    await t.bq.query({ query: `CREATE TABLE ${DS}.src AS SELECT 1 AS id, 'x' AS name` });
  });

  it('refuses an extract destination that leaves the folder, directly or through a link', async () => {
    for (const uri of ['gs://bkt/../../escaped.csv', 'gs://bkt/out/extracted.csv']) {
      const insert = t.bq.createJob({
        configuration: { extract: { sourceTable: { projectId: P, datasetId: DS, tableId: 'src' }, destinationUris: [uri], destinationFormat: 'CSV' } },
      });
      const err = await errorOf(insert.then(([job]) => job.promise()));
      expect(err.errors?.[0], uri).toMatchObject({ reason: 'accessDenied', message: `Access Denied: File ${uri}: Access Denied` });
    }
    expect(fs.existsSync(path.join(dir, 'escaped.csv'))).toBe(false);
    expect(fs.readdirSync(outside)).toEqual(['secret.csv']);
  });

  it('refuses an EXPORT DATA uri that leaves the folder', async () => {
    const uri = 'gs://bkt/../../exported-*.csv';
    const err = await errorOf(t.bq.query({ query: `EXPORT DATA OPTIONS(uri = '${uri}', format = 'CSV') AS SELECT 1 AS x` }));
    expect(err.errors?.[0]?.reason).toBe('accessDenied');
    expect(err.code).toBe(403);
    expect(err.message).toBe(`Access Denied: File ${uri}: Access Denied`);
    expect(fs.readdirSync(dir).sort()).toEqual(['allowed', 'gcs', 'outside']);
  });

  it('still writes inside the folder', async () => {
    const [job] = await t.bq.createJob({
      configuration: { extract: { sourceTable: { projectId: P, datasetId: DS, tableId: 'src' }, destinationUris: ['gs://bkt/x/out-*.csv'], destinationFormat: 'CSV' } },
    });
    await job.promise();
    expect(fs.readFileSync(path.join(gcs, 'bkt', 'x', 'out-000000000000.csv'), 'utf8')).toBe('id,name\n1,x\n');
  });
});
