/**
 * projects.list, the discovery document, and both REST base paths: `/bigquery/v2/projects/...`
 * (what `apiEndpoint` produces) and `/projects/...` (what `BIGQUERY_EMULATOR_HOST` produces,
 * docs/ARCHITECTURE.md §7), each exercised through a real @google-cloud/bigquery client.
 *
 * Shapes: ProjectList / ProjectListProjects and RestDescription in src/server/rest/bigquery-v2-discovery.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { clientRequest, http } from './helpers/http.js';

let t: TestEmulator;
let P: string;

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'proj-main' });
  P = t.projectId;
});
afterAll(async () => {
  await t?.emu.close();
});

describe('projects.list', () => {
  it('lists the default project in the ProjectList shape', async () => {
    const res = await clientRequest(t.bq, { uri: `${t.emu.url}/bigquery/v2/projects` });
    expect(res.kind).toBe('bigquery#projectList');
    // ProjectList.totalItems is an int32 (a JSON number, unlike the int64 strings).
    expect(typeof res.totalItems).toBe('number');
    expect(res.totalItems).toBe(res.projects.length);
    const p = res.projects.find((x: { id: string }) => x.id === P);
    expect(p).toMatchObject({ kind: 'bigquery#project', id: P, projectReference: { projectId: P } });
    expect(p.numericId).toMatch(/^\d+$/);
  });

  it('lists every project that holds a dataset', async () => {
    await t.bq.createDataset('ds_in_other', { projectId: 'proj-other' } as never);
    const res = await clientRequest(t.bq, { uri: `${t.emu.url}/bigquery/v2/projects` });
    const ids = res.projects.map((x: { id: string }) => x.id);
    expect(ids).toEqual(expect.arrayContaining([P, 'proj-other']));
    const raw = await http(t.emu.url, 'GET', '/projects');
    expect(raw.status).toBe(200);
    expect(raw.body.projects.map((x: { id: string }) => x.id)).toEqual(expect.arrayContaining([P, 'proj-other']));
  });
  it('lists no project named only by failed requests', async () => {
    const ghost = 'proj-ghost';
    expect((await http(t.emu.url, 'GET', `/bigquery/v2/projects/${ghost}/datasets/no_such_ds`)).status).toBe(404);
    const long = 'x'.repeat(2000);
    expect((await http(t.emu.url, 'GET', `/bigquery/v2/projects/${long}/datasets/no_such_ds`)).status).toBeGreaterThanOrEqual(400);
    const res = await clientRequest(t.bq, { uri: `${t.emu.url}/bigquery/v2/projects` });
    const ids = res.projects.map((x: { id: string }) => x.id);
    expect(ids).not.toContain(ghost);
    expect(ids).not.toContain(long);
    expect(ids).toContain(P);
  });
});

describe('discovery document', () => {
  it('serves the BigQuery v2 discovery document rooted at the emulator', async () => {
    const r = await http(t.emu.url, 'GET', '/$discovery/rest?version=v2');
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('bigquery');
    expect(r.body.version).toBe('v2');
    expect(r.body.rootUrl).toBe(`${t.emu.url}/`);
    expect(r.body.baseUrl).toBe(`${t.emu.url}/bigquery/v2/`);
    for (const res of ['datasets', 'tables', 'tabledata', 'jobs', 'projects']) expect(Object.keys(r.body.resources)).toContain(res);
    expect(r.body.resources.jobs.methods.query.httpMethod).toBe('POST');
  });
});

describe('both base paths', () => {
  it('serves every resource under /bigquery/v2/projects and /projects alike', async () => {
    const [ds] = await t.bq.createDataset('paths_ds');
    const [table] = await ds.createTable('paths_t', { schema: 'n:integer' });
    await table.insert([{ n: 1 }, { n: 2 }], { partialRetries: 0 } as never);
    const [job] = await t.bq.createQueryJob({ query: 'SELECT 5 AS five', jobId: 'paths_job' });
    expect(job.id).toBe('paths_job');
    for (const prefix of ['/bigquery/v2', '']) {
      const get = (p: string) => http(t.emu.url, 'GET', `${prefix}/projects/${P}${p}`);
      expect((await get('/datasets/paths_ds')).body.id).toBe(`${P}:paths_ds`);
      expect((await get('/datasets')).body.datasets.map((d: { id: string }) => d.id)).toContain(`${P}:paths_ds`);
      // Just-streamed rows are in the streaming buffer: numRows excludes them (Table.numRows in the discovery document).
      const tbl = (await get('/datasets/paths_ds/tables/paths_t')).body;
      expect(tbl.numRows).toBe('0');
      expect(tbl.streamingBuffer.estimatedRows).toBe('2');
      expect((await get('/datasets/paths_ds/tables')).body.tables.length).toBe(1);
      expect((await get('/datasets/paths_ds/tables/paths_t/data')).body.rows).toEqual([{ f: [{ v: '1' }] }, { f: [{ v: '2' }] }]);
      expect((await get('/jobs/paths_job')).body.status.state).toBe('DONE');
      expect((await get('/queries/paths_job')).body.rows).toEqual([{ f: [{ v: '5' }] }]);
      expect((await get('/jobs')).body.kind).toBe('bigquery#jobList');
      const q = await http(t.emu.url, 'POST', `${prefix}/projects/${P}/queries`, { query: 'SELECT 6 AS six', useLegacySql: false });
      expect(q.body.rows).toEqual([{ f: [{ v: '6' }] }]);
    }
  });

  it('works end to end through a client built with BIGQUERY_EMULATOR_HOST (requests go to /projects/...)', async () => {
    const saved = process.env.BIGQUERY_EMULATOR_HOST;
    process.env.BIGQUERY_EMULATOR_HOST = t.emu.url;
    let bq: BigQuery;
    try {
      bq = new BigQuery({ projectId: P, authClient: new PassThroughClient() as never });
    } finally {
      if (saved === undefined) delete process.env.BIGQUERY_EMULATOR_HOST;
      else process.env.BIGQUERY_EMULATOR_HOST = saved;
    }
    const uris: string[] = [];
    bq.interceptors.push({
      request: (reqOpts: { uri: string }) => {
        uris.push(reqOpts.uri);
        return reqOpts;
      },
    } as never);

    const [ds] = await bq.createDataset('envhost_ds', { description: 'via env' });
    const [m] = await ds.getMetadata();
    expect(m.description).toBe('via env');
    const [table] = await ds.createTable('t', { schema: 'n:integer,s:string' });
    await table.insert([{ n: 1, s: 'x' }, { n: 2, s: 'y' }], { partialRetries: 0 } as never);
    expect((await table.getRows())[0]).toEqual([
      { n: 1, s: 'x' },
      { n: 2, s: 'y' },
    ]);
    await table.setMetadata({ description: 'patched' });
    const [rows] = await bq.query({ query: 'SELECT SUM(n) AS total FROM `envhost_ds.t`' });
    expect(rows).toEqual([{ total: 3 }]);
    const [job] = await bq.createQueryJob({ query: 'SELECT s FROM `envhost_ds.t` ORDER BY s DESC' });
    const [jobRows] = await job.getQueryResults();
    expect(jobRows).toEqual([{ s: 'y' }, { s: 'x' }]);
    const [jobs] = await bq.getJobs();
    expect(jobs.map((j) => j.id)).toContain(job.id);
    const [datasets] = await bq.getDatasets();
    expect(datasets.map((d) => d.id)).toContain('envhost_ds');
    await ds.delete({ force: true });
    expect((await ds.exists())[0]).toBe(false);

    expect(uris.length).toBeGreaterThan(10);
    for (const u of uris) expect(u.startsWith(`${t.emu.url}/projects/${P}/`)).toBe(true);
  });
});
