/**
 * Dataset and job locations through @google-cloud/bigquery, following the
 * official client's own location system tests (nodejs-bigquery system-test/bigquery.ts,
 * "BigQuery/Dataset location": a dataset in asia-northeast1; jobs.get/cancel with no or a wrong
 * location → 404; a query job run in US over that dataset → notFound; copy/extract naming the
 * wrong location → 404; a job in us-east1 deleted) and BigQuery's documented rules
 * (https://cloud.google.com/bigquery/docs/locations; the `location` parameter of jobs.get in the
 * discovery document: required unless the job is in the US or EU multi-region).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '@google-cloud/bigquery';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { gcsFile } from './helpers/storage-file.js';
import { http } from './helpers/http.js';

let t: TestEmulator;
let dir: string;
let savedGcs: string | undefined;
const P = 'loc-project';
const LOCATION = 'asia-northeast1';
const DS = 'loc_asia';


beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-loc-'));
  savedGcs = process.env.BQEMU_GCS_DIR;
  process.env.BQEMU_GCS_DIR = dir;
  t = await startTestEmulator({ projectId: P });
  await t.bq.dataset(DS, { location: LOCATION }).create();
  await t.bq.dataset(DS).table('people').create({ schema: 'id:integer,name:string' });
});
afterAll(async () => {
  await t?.emu.close();
  if (savedGcs === undefined) delete process.env.BQEMU_GCS_DIR;
  else process.env.BQEMU_GCS_DIR = savedGcs;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('dataset locations', () => {
  it('a dataset keeps its location; its tables report it; US is the default', async () => {
    const [d] = await t.bq.dataset(DS).getMetadata();
    expect(d.location).toBe(LOCATION);
    const [tm] = await t.bq.dataset(DS).table('people').getMetadata();
    expect(tm.location).toBe(LOCATION);
    await t.bq.createDataset('loc_default');
    expect((await t.bq.dataset('loc_default').getMetadata())[0].location).toBe('US');
    const [list] = await t.bq.getDatasets();
    expect(list.find((x) => x.id === DS)?.metadata.location).toBe(LOCATION);
  });

  it('multi-regions are upper case, regions lower case; a name that is no location is a 400', async () => {
    await t.bq.dataset('loc_eu', { location: 'eu' }).create();
    expect((await t.bq.dataset('loc_eu').getMetadata())[0].location).toBe('EU');
    const bad = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/datasets`, { datasetReference: { datasetId: 'loc_bad' }, location: 'not a place' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.errors[0].reason).toBe('invalid');
  });

  it('CREATE SCHEMA takes OPTIONS(location) (else the job location)', async () => {
    await t.bq.query({ query: `CREATE SCHEMA loc_ddl OPTIONS (location = 'EU')` });
    expect((await t.bq.dataset('loc_ddl').getMetadata())[0].location).toBe('EU');
    await t.bq.query({ query: `CREATE SCHEMA loc_ddl_job`, location: 'us-east1' });
    expect((await t.bq.dataset('loc_ddl_job').getMetadata())[0].location).toBe('us-east1');
  });

  it('region-qualified INFORMATION_SCHEMA lists the datasets of that location only', async () => {
    const [asia] = await t.bq.query({ query: `SELECT schema_name, location FROM \`region-${LOCATION}\`.INFORMATION_SCHEMA.SCHEMATA`, location: LOCATION });
    expect(asia).toEqual([{ schema_name: DS, location: LOCATION }]);
    const [us] = await t.bq.query({ query: 'SELECT schema_name FROM `region-us`.INFORMATION_SCHEMA.SCHEMATA' });
    expect(us.map((r) => r.schema_name)).not.toContain(DS);
  });
});

describe('job locations', () => {
  let job: Job;

  beforeAll(async () => {
    const f = path.join(dir, 'people.json');
    fs.writeFileSync(f, '{"id": 1, "name": "ann"}\n{"id": 2, "name": "bob"}\n');
    // dataset(…, {location}) cascades the location to the jobs created through it.
    const table = t.bq.dataset(DS, { location: LOCATION }).table('people');
    [job] = await table.createLoadJob(f, { sourceFormat: 'NEWLINE_DELIMITED_JSON' });
    await job.promise();
  });

  it('a load job runs in its dataset location', () => {
    expect(job.location).toBe(LOCATION);
  });

  it('jobs.get: no location → 404, a wrong location → 404, the right one → the job', async () => {
    expect((await errorOf(t.bq.job(job.id!).getMetadata())).code).toBe(404);
    const wrong = await errorOf(t.bq.job(job.id!, { location: 'US' }).getMetadata());
    expect(wrong.code).toBe(404);
    expect(wrong.message).toBe(`Not found: Job ${P}:US.${job.id}`);
    const [m] = await t.bq.job(job.id!, { location: LOCATION }).getMetadata();
    expect(m.jobReference.location).toBe(LOCATION);
  });

  it('jobs.cancel and getQueryResults with a wrong location → 404; the right one works', async () => {
    const [q] = await t.bq.dataset(DS, { location: LOCATION }).createQueryJob(`SELECT * FROM \`${P}.${DS}.people\``);
    expect(q.location).toBe(LOCATION);
    expect((await errorOf(t.bq.job(q.id!, { location: 'US' }).cancel())).code).toBe(404);
    expect((await errorOf(t.bq.job(q.id!, { location: 'US' }).getQueryResults())).code).toBe(404);
    const [rows] = await q.getQueryResults();
    expect(rows).toHaveLength(2);
  });

  it('a query job in another location fails notFound "…was not found in location US"', async () => {
    const e = await errorOf(t.bq.dataset(DS, { location: 'US' }).createQueryJob({ query: `SELECT * FROM \`${P}.${DS}.people\`` }));
    expect(e.errors?.[0]?.reason).toBe('notFound');
    expect(e.errors?.[0]?.message).toContain(`Not found: Dataset ${P}:${DS} was not found in location US`);
  });

  it('a job that names no location runs where the table it reads lives', async () => {
    const [q] = await t.bq.createQueryJob({ query: `SELECT COUNT(*) AS n FROM \`${P}.${DS}.people\`` });
    await q.getQueryResults();
    const [m] = await t.bq.job(q.id!, { location: LOCATION }).getMetadata();
    expect(m.jobReference.location).toBe(LOCATION);
  });

  it('copy and extract naming the wrong location → 404; the right location runs', async () => {
    const bad = t.bq.dataset(DS, { location: 'US' }).table('people');
    expect((await errorOf(bad.createCopyJob(t.bq.dataset(DS).table('people_copy')))).code).toBe(404);
    const file = gcsFile('bkt', 'people.json');
    expect((await errorOf(bad.createExtractJob(file))).code).toBe(404);
    const good = t.bq.dataset(DS, { location: LOCATION }).table('people');
    const [copy] = await good.createCopyJob(t.bq.dataset(DS, { location: LOCATION }).table('people_copy'));
    expect(copy.location).toBe(LOCATION);
    await copy.promise();
    const [extract] = await good.createExtractJob(file);
    expect(extract.location).toBe(LOCATION);
    await extract.promise();
  });

  it('job ids are unique per project and location: one id in US and in asia-northeast1', async () => {
    // https://cloud.google.com/bigquery/docs/running-jobs#generate-jobid ("unique within a project and location")
    const id = `same_id_${Date.now()}`;
    const [us] = await t.bq.createQueryJob({ query: 'SELECT 1 AS n', jobId: id, location: 'US' });
    const [asia] = await t.bq.createQueryJob({ query: 'SELECT 2 AS n', jobId: id, location: LOCATION });
    expect([us.id, us.location, asia.id, asia.location]).toEqual([id, 'US', id, LOCATION]);
    expect((await t.bq.job(id, { location: 'US' }).getQueryResults())[0]).toEqual([{ n: 1 }]);
    expect((await t.bq.job(id, { location: LOCATION }).getQueryResults())[0]).toEqual([{ n: 2 }]);
    expect((await t.bq.job(id).getMetadata())[0].configuration.query.query).toBe('SELECT 1 AS n');
    const [m] = await t.bq.job(id, { location: LOCATION }).getMetadata();
    expect([m.jobReference.location, m.configuration.query.query]).toEqual([LOCATION, 'SELECT 2 AS n']);
    // The same id again in the same location is a conflict (another configuration) …
    const dup = await errorOf(t.bq.createQueryJob({ query: 'SELECT 3 AS n', jobId: id, location: LOCATION }));
    expect(dup.code).toBe(409);
    expect(dup.message).toBe(`Already Exists: Job ${P}:${LOCATION}.${id}`);
    // … jobs.list shows both, and each region's INFORMATION_SCHEMA.JOBS its own.
    const [jobs] = await t.bq.getJobs({ allUsers: true });
    expect(jobs.filter((j) => j.id === id).map((j) => j.location).sort()).toEqual(['US', LOCATION].sort());
    const [inUs] = await t.bq.query({ query: `SELECT job_id, query FROM \`region-us\`.INFORMATION_SCHEMA.JOBS WHERE job_id = '${id}'` });
    expect(inUs).toEqual([{ job_id: id, query: 'SELECT 1 AS n' }]);
    const [inAsia] = await t.bq.query({ query: `SELECT job_id, query FROM \`region-${LOCATION}\`.INFORMATION_SCHEMA.JOBS WHERE job_id = '${id}'`, location: LOCATION });
    expect(inAsia).toEqual([{ job_id: id, query: 'SELECT 2 AS n' }]);
    // Deleting one leaves the other.
    await t.bq.job(id, { location: LOCATION }).delete();
    expect((await errorOf(t.bq.job(id, { location: LOCATION }).getMetadata())).code).toBe(404);
    expect((await t.bq.job(id, { location: 'US' }).getMetadata())[0].jobReference.location).toBe('US');
  });

  it('a job in a region can be deleted with its location', async () => {
    const [j] = await t.bq.createJob({ configuration: { query: { query: 'SELECT 100 AS foo' } }, location: 'us-east1' } as never);
    await j.getQueryResults();
    expect(j.location).toBe('us-east1');
    const [resp] = await j.delete();
    expect(resp).toEqual({});
    expect((await j.exists())[0]).toBe(false);
  });
});
