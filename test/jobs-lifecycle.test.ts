/**
 * The job lifecycle (PENDING → RUNNING → DONE, asynchronous, cancellable, idempotent)
 * and query statistics, through @google-cloud/bigquery and raw HTTP.
 *
 * Texts: a cancelled job's errorResult is `{reason: 'stopped', message: 'Job execution was
 * cancelled: User requested cancellation'}` (as BigQuery reports it; seen in public client tests);
 * a second job with an existing id is `409 duplicate Already Exists: Job p:US.id`. Shapes: Job,
 * JobStatistics, JobStatistics2, ExplainQueryStage, QueryTimelineSample, QueryResponse and JobList
 * of src/server/rest/bigquery-v2-discovery.json. Long-running queries are cross joins of GENERATE_ARRAY.
 */
import { DuckDBConnection } from '@duckdb/node-api';
import type { Job } from '@google-cloud/bigquery';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Interrupter } from '../src/engine/duckdb/interrupts.js';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';

let t: TestEmulator;
let P: string;
const D = 'life_ds';

/** A query of well over 10 seconds here (about 17 s of DuckDB time for 60000 × 60000). */
const LONG = 'SELECT SUM(a * b) AS s FROM UNNEST(GENERATE_ARRAY(1, 60000)) AS a, UNNEST(GENERATE_ARRAY(1, 60000)) AS b';
/** A query of about a second: pairs (a, b) of 1..10000 with 7 dividing a + b. */
const MEDIUM = 'SELECT COUNT(*) AS s FROM UNNEST(GENERATE_ARRAY(1, 10000)) AS a, UNNEST(GENERATE_ARRAY(1, 10000)) AS b WHERE MOD(a + b, 7) = 0';
const MEDIUM_SUM = (() => {
  const byResidue = new Array(7).fill(0);
  for (let i = 1; i <= 10000; i++) byResidue[i % 7]++;
  return String(byResidue.reduce((n, c, r) => n + c * byResidue[(7 - r) % 7], 0));
})();

const api = (path: string) => `/bigquery/v2/projects/${P}${path}`;
const query = (body: Record<string, unknown>) => http(t.emu.url, 'POST', api('/queries'), { useLegacySql: false, ...body });
const insert = (jobId: string, sql: string) =>
  http(t.emu.url, 'POST', api('/jobs'), { jobReference: { projectId: P, jobId }, configuration: { query: { query: sql, useLegacySql: false } } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitDone(jobId: string, limitMs = 60_000): Promise<Record<string, any>> {
  const until = Date.now() + limitMs;
  for (;;) {
    const r = await http(t.emu.url, 'GET', api(`/jobs/${jobId}`));
    if (r.body.status?.state === 'DONE' || Date.now() > until) return r.body;
    await sleep(20);
  }
}

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'life-project' });
  P = t.projectId;
  await t.bq.createDataset(D);
  await t.bq.query({ query: `CREATE TABLE \`${D}.people\` (id INT64, name STRING, score FLOAT64, ok BOOL, born DATE, amount NUMERIC, tags ARRAY<STRING>)` });
  await t.bq.query({
    query: `INSERT INTO \`${D}.people\` (id, name, score, ok, born, amount, tags) VALUES
      (1, 'ann', 1.5, TRUE, DATE '2000-01-01', NUMERIC '1.5', ['a', 'bc']),
      (2, 'bob', NULL, FALSE, NULL, NULL, []),
      (3, 'éclair', 3.0, NULL, DATE '2001-02-03', NUMERIC '3', ['xyz'])`,
  });
});
afterAll(async () => {
  await t?.emu.close();
});

describe('asynchronous lifecycle', () => {
  it('cancels a running query: the job ends DONE with the stopped error within 1 s', async () => {
    const [job, inserted] = (await t.bq.createQueryJob({ query: LONG, jobId: 'long_to_cancel' })) as unknown as [
      { cancel(): Promise<unknown>; getMetadata(): Promise<[Record<string, any>]>; getQueryResults(): Promise<unknown> },
      Record<string, any>,
    ];
    expect(inserted.status.state).toBe('RUNNING');
    expect(inserted.statistics.startTime).toMatch(/^\d+$/);
    expect(inserted.statistics.endTime).toBeUndefined();
    const [running] = await job.getMetadata();
    expect(running.status).toEqual({ state: 'RUNNING' });
    const started = Date.now();
    await job.cancel();
    let m: Record<string, any>;
    for (;;) {
      [m] = await job.getMetadata();
      if (m.status.state === 'DONE' || Date.now() - started > 5000) break;
      await sleep(10);
    }
    expect(Date.now() - started).toBeLessThan(1000);
    expect(m.status.state).toBe('DONE');
    expect(m.status.errorResult).toEqual({ reason: 'stopped', message: 'Job execution was cancelled: User requested cancellation' });
    expect(m.status.errors).toEqual([m.status.errorResult]);
    expect(m.statistics.endTime).toMatch(/^\d+$/);
    const e = await errorOf(job.getQueryResults());
    expect(e.message).toBe('Job execution was cancelled: User requested cancellation');
    // The interrupted connection is usable again.
    const [rows] = await t.bq.query({ query: `SELECT COUNT(*) AS n FROM \`${D}.people\`` });
    expect(rows).toEqual([{ n: 3 }]);
  });

  it('cancels a query while its large result is read back from the chunks its run kept: stopped, no table left, connection usable', async () => {
    // A large result whose chunks were kept is appended to a temporary table and its row texts read
    // from there (src/engine/duckdb/kept-chunks.ts). The cancel is sent by the client when that
    // append starts (the spy on createAppender holds it until the job's interrupter has fired), so
    // the interrupt lands in the kept-chunk read and nowhere else.
    const N = 200_000; // ~2.4 MB of row text: over the 128 KB of a small result.
    t.emu.engine.largeResults = 'keep';
    const fired = new Promise<void>((resolve) => {
      const interrupt = Interrupter.prototype.interrupt;
      vi.spyOn(Interrupter.prototype, 'interrupt').mockImplementation(function (this: Interrupter) {
        interrupt.call(this);
        resolve();
      });
    });
    let cancelled: Promise<unknown> | undefined;
    let appenderConnection: DuckDBConnection | undefined;
    let job: Job | undefined;
    const createAppender = DuckDBConnection.prototype.createAppender;
    vi.spyOn(DuckDBConnection.prototype, 'createAppender').mockImplementation(async function (this: DuckDBConnection, ...args: Parameters<DuckDBConnection['createAppender']>) {
      appenderConnection = this;
      while (!job) await sleep(1);
      cancelled = job.cancel();
      await fired;
      return createAppender.apply(this, args);
    });
    try {
      const [created] = await t.bq.createQueryJob({ query: `SELECT n, CONCAT('row ', CAST(n AS STRING)) AS s FROM UNNEST(GENERATE_ARRAY(1, ${N})) AS n ORDER BY n DESC`, jobId: 'kept_to_cancel' });
      job = created as unknown as Job;
      const m = await waitDone('kept_to_cancel', 10_000);
      await cancelled;
      expect(appenderConnection).toBeDefined();
      expect(m.status).toEqual({
        state: 'DONE',
        errorResult: { reason: 'stopped', message: 'Job execution was cancelled: User requested cancellation' },
        errors: [{ reason: 'stopped', message: 'Job execution was cancelled: User requested cancellation' }],
      });
      expect((await errorOf(job.getQueryResults())).message).toBe('Job execution was cancelled: User requested cancellation');
    } finally {
      vi.restoreAllMocks();
      t.emu.engine.largeResults = undefined;
    }
    // The temporary table is gone from the connection that held it, and that connection answers again.
    const left = await appenderConnection!.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE temporary AND table_name LIKE '__bqemu_kept_%'`);
    expect(left.getRows()).toEqual([]);
    const [rows] = await t.bq.query({ query: `SELECT COUNT(*) AS n, MAX(name) AS m FROM \`${D}.people\`` });
    expect(rows).toEqual([{ n: 3, m: 'éclair' }]);
  });

  it('jobs.cancel answers the cancelled job and a finished job unchanged', async () => {
    await insert('cancel_raw', LONG);
    const r = await http(t.emu.url, 'POST', api('/jobs/cancel_raw/cancel'));
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('bigquery#jobCancelResponse');
    expect(r.body.job.status.state).toBe('DONE');
    expect(r.body.job.status.errorResult.reason).toBe('stopped');
    const again = await http(t.emu.url, 'POST', api('/jobs/cancel_raw/cancel'));
    expect(again.body.job.status).toEqual(r.body.job.status);
  });

  it('jobs.query answers jobComplete false after timeoutMs; getQueryResults polls to completion', async () => {
    const r = await query({ query: MEDIUM, timeoutMs: 50 });
    expect(r.status).toBe(200);
    expect(r.body.jobComplete).toBe(false);
    expect(r.body.kind).toBe('bigquery#queryResponse');
    const jobId = r.body.jobReference.jobId;
    expect(r.body.jobReference).toEqual({ projectId: P, jobId, location: 'US' });
    expect(r.body.queryId).toBe(jobId);
    for (const k of ['rows', 'schema', 'totalRows']) expect(k in r.body).toBe(false);
    const meta = await http(t.emu.url, 'GET', api(`/jobs/${jobId}`));
    expect(['PENDING', 'RUNNING']).toContain(meta.body.status.state);
    // A short getQueryResults wait is still incomplete; a long one waits for the job.
    const short = await http(t.emu.url, 'GET', api(`/queries/${jobId}?timeoutMs=10`));
    expect(short.body).toEqual({ kind: 'bigquery#getQueryResultsResponse', etag: '', jobReference: { projectId: P, jobId, location: 'US' }, jobComplete: false });
    const done = await http(t.emu.url, 'GET', api(`/queries/${jobId}?timeoutMs=60000`));
    expect(done.body.jobComplete).toBe(true);
    expect(done.body.rows).toEqual([{ f: [{ v: MEDIUM_SUM }] }]);
    expect((await waitDone(jobId)).status).toEqual({ state: 'DONE' });
  });

  it('the client sees jobComplete false through jobs.query and getQueryResults, then reads the rows', async () => {
    // With an explicit timeoutMs the client reports an incomplete query as an error (it polls only without one).
    const e = await errorOf(t.bq.query({ query: LONG }, { timeoutMs: 20 } as never));
    expect(e.message).toBe('The query did not complete before 20ms');
    const [left] = await t.bq.getJobs({ stateFilter: 'running' } as never);
    expect(left).toHaveLength(1);
    await left[0].cancel();
    const [running] = await t.bq.createQueryJob({ query: LONG, jobId: 'long_polled' });
    const e2 = await errorOf(running.getQueryResults({ timeoutMs: 10 }));
    expect(e2.message).toBe('The query did not complete before 10ms');
    await running.cancel();
    // Without a timeout the client polls getQueryResults (the server waits up to 10 s per call).
    const [job] = await t.bq.createQueryJob({ query: MEDIUM, jobId: 'medium_polled' });
    const [rows] = await job.getQueryResults();
    expect(rows).toEqual([{ s: Number(MEDIUM_SUM) }]);
  });

  it('jobs.insert answers a long query RUNNING; jobs.get polls a job to DONE', async () => {
    const long = await insert('long_running', LONG);
    expect(long.body.status).toEqual({ state: 'RUNNING' });
    expect(long.body.statistics.endTime).toBeUndefined();
    await http(t.emu.url, 'POST', api('/jobs/long_running/cancel'));
    await insert('medium_job', MEDIUM);
    const m = await waitDone('medium_job');
    expect(m.status).toEqual({ state: 'DONE' });
    const [rows] = await t.bq.job('medium_job').getQueryResults();
    expect(rows).toEqual([{ s: Number(MEDIUM_SUM) }]);
  });

  it('a retried jobs.insert with the same id returns the same job and runs it once', async () => {
    await t.bq.query({ query: `CREATE TABLE \`${D}.once\` (n INT64)` });
    const sql = `INSERT INTO \`${D}.once\` (n) VALUES (1)`;
    const [job1, first] = (await t.bq.createQueryJob({ query: sql, jobId: 'retried_insert' })) as unknown as [{ id: string }, Record<string, any>];
    const [job2, second] = (await t.bq.createQueryJob({ query: sql, jobId: 'retried_insert' })) as unknown as [{ id: string }, Record<string, any>];
    expect(job2.id).toBe(job1.id);
    expect(second.id).toBe(first.id);
    expect(second.statistics.creationTime).toBe(first.statistics.creationTime);
    await waitDone('retried_insert');
    const [rows] = await t.bq.query({ query: `SELECT COUNT(*) AS c FROM \`${D}.once\`` });
    expect(rows).toEqual([{ c: 1 }]);
    // Another configuration under the same id: 409 duplicate.
    const e = await errorOf(t.bq.createQueryJob({ query: 'SELECT 2', jobId: 'retried_insert' }));
    expect(e.code).toBe(409);
    expect(e.message).toBe(`Already Exists: Job ${P}:US.retried_insert`);
  });

  it('jobs.query de-duplicates a requestId with the same parameters', async () => {
    await t.bq.query({ query: `CREATE TABLE \`${D}.req\` (n INT64)` });
    const body = { query: `INSERT INTO \`${D}.req\` (n) VALUES (7)`, requestId: 'f3c1a9e2-1111-4e0b-9d55-0123456789ab' };
    const a = await query(body);
    const b = await query(body);
    expect(b.body.jobReference.jobId).toBe(a.body.jobReference.jobId);
    expect(b.body.queryId).toBe(a.body.queryId);
    expect(b.body.numDmlAffectedRows).toBe('1');
    const [rows] = await t.bq.query({ query: `SELECT COUNT(*) AS c FROM \`${D}.req\`` });
    expect(rows).toEqual([{ c: 1 }]);
    // Same requestId, another query: not a duplicate.
    const c = await query({ ...body, query: 'SELECT 1 AS x' });
    expect(c.body.jobReference.jobId).not.toBe(a.body.jobReference.jobId);
  });

  it('getQueryResults reads any page of a finished job', async () => {
    const r = await query({ query: 'SELECT n FROM UNNEST(GENERATE_ARRAY(1, 50)) AS n ORDER BY n', maxResults: 10 });
    const id = r.body.jobReference.jobId;
    const page = await http(t.emu.url, 'GET', api(`/queries/${id}?startIndex=45&maxResults=10`));
    expect(page.body.rows.map((x: { f: { v: string }[] }) => x.f[0].v)).toEqual(['46', '47', '48', '49', '50']);
    expect('pageToken' in page.body).toBe(false);
    const mid = await http(t.emu.url, 'GET', api(`/queries/${id}?pageToken=${encodeURIComponent(r.body.pageToken)}&maxResults=5`));
    expect(mid.body.rows.map((x: { f: { v: string }[] }) => x.f[0].v)).toEqual(['11', '12', '13', '14', '15']);
  });
});

describe('jobs.list and jobs.delete', () => {
  it('filters by state, creation time, parent job; minimal projection; pages', async () => {
    await insert('list_running', LONG);
    const before = Date.now();
    await sleep(5);
    const [j] = await t.bq.createQueryJob({ query: 'SELECT 1 AS one', jobId: 'list_recent' });
    await j.getQueryResults();
    const ids = async (qs: string) => ((await http(t.emu.url, 'GET', api(`/jobs?${qs}`))).body.jobs ?? []).map((x: { jobReference: { jobId: string } }) => x.jobReference.jobId);
    expect(await ids('stateFilter=running')).toEqual(['list_running']);
    expect(await ids('stateFilter=running&stateFilter=pending&allUsers=true')).toEqual(['list_running']);
    const done = await ids('stateFilter=done');
    expect(done).toContain('list_recent');
    expect(done).not.toContain('list_running');
    expect(await ids(`minCreationTime=${before}&stateFilter=done`)).toEqual(['list_recent']);
    expect(await ids(`maxCreationTime=${before}`)).not.toContain('list_recent');
    const minimal = await http(t.emu.url, 'GET', api('/jobs?projection=minimal&stateFilter=running'));
    expect(Object.keys(minimal.body.jobs[0]).sort()).toEqual(['id', 'jobReference', 'kind', 'state', 'statistics', 'status']);
    const full = await http(t.emu.url, 'GET', api('/jobs?projection=full&stateFilter=running'));
    expect(full.body.jobs[0].configuration.query.query).toBe(LONG);
    const bad = await http(t.emu.url, 'GET', api('/jobs?stateFilter=sleeping'));
    expect(bad.status).toBe(400);
    // jobs.delete of a running job stops it and removes it.
    const del = await http(t.emu.url, 'DELETE', api('/jobs/list_running/delete'));
    expect(del.status).toBe(200);
    expect((await http(t.emu.url, 'GET', api('/jobs/list_running'))).status).toBe(404);
    expect(await ids('stateFilter=running')).toEqual([]);
  });

  it('lists the child jobs of a script with parentJobId; deleting the parent deletes them', async () => {
    const r = await query({ query: `SELECT 1 AS a; SELECT name FROM \`${D}.people\` WHERE id = 2` });
    expect(r.body.rows).toEqual([{ f: [{ v: 'bob' }] }]);
    const parent = r.body.jobReference.jobId;
    const top = await http(t.emu.url, 'GET', api('/jobs'));
    const topIds = top.body.jobs.map((x: { jobReference: { jobId: string } }) => x.jobReference.jobId);
    expect(topIds).toContain(parent);
    expect(topIds.some((id: string) => id.startsWith('script_job_'))).toBe(false);
    const meta = await http(t.emu.url, 'GET', api(`/jobs/${parent}`));
    expect(meta.body.statistics.numChildJobs).toBe('2');
    expect(meta.body.statistics.query.statementType).toBe('SCRIPT');
    const kids = (await http(t.emu.url, 'GET', api(`/jobs?parentJobId=${parent}&projection=full`))).body.jobs;
    expect(kids).toHaveLength(2);
    const second = kids.find((k: { configuration: { query: { query: string } } }) => k.configuration.query.query.startsWith('SELECT name'));
    expect(second.configuration.query.query).toBe(`SELECT name FROM \`${D}.people\` WHERE id = 2`);
    expect(second.statistics.parentJobId).toBe(parent);
    expect(second.statistics.query.referencedTables).toEqual([{ projectId: P, datasetId: D, tableId: 'people' }]);
    const child = await http(t.emu.url, 'GET', api(`/queries/${second.jobReference.jobId}`));
    expect(child.body.rows).toEqual([{ f: [{ v: 'bob' }] }]);
    expect((await http(t.emu.url, 'DELETE', api(`/jobs/${second.jobReference.jobId}/delete`))).status).toBe(400);
    expect((await http(t.emu.url, 'DELETE', api(`/jobs/${parent}/delete`))).status).toBe(200);
    expect((await http(t.emu.url, 'GET', api(`/jobs/${second.jobReference.jobId}`))).status).toBe(404);
  });
});

describe('statistics', () => {
  // Logical bytes of `people` (BigQuery's data size rules; NULL is 0 bytes):
  //   id 3×8 = 24; name (2+3) + (2+3) + (2+7) = 19 ('éclair' is 7 UTF-8 bytes); score 2×8 = 16;
  //   ok 2×1 = 2; born 2×8 = 16; amount 2×16 = 32; tags (2+1)+(2+2) + 0 + (2+3) = 12.
  it('reports bytes of the scanned columns, the 10 MB minimum, referenced tables, plan and timeline', async () => {
    const [job] = await t.bq.createQueryJob({ query: `SELECT id, name FROM \`${D}.people\` WHERE ok IS NOT NULL` });
    await job.getQueryResults();
    const [m] = await job.getMetadata();
    const s = m.statistics;
    expect(s.totalBytesProcessed).toBe(String(24 + 19 + 2));
    expect(s.query.totalBytesProcessed).toBe('45');
    expect(s.query.totalBytesBilled).toBe(String(10 * 1024 * 1024));
    expect(s.query.cacheHit).toBe(false);
    expect(s.query.statementType).toBe('SELECT');
    expect(s.query.referencedTables).toEqual([{ projectId: P, datasetId: D, tableId: 'people' }]);
    for (const k of ['totalSlotMs', 'estimatedBytesProcessed', 'totalPartitionsProcessed', 'transferredBytes']) expect(s.query[k]).toMatch(/^\d+$/);
    expect(s.totalSlotMs).toMatch(/^\d+$/);
    expect(s.finalExecutionDurationMs).toMatch(/^\d+$/);
    expect(Number(s.creationTime)).toBeLessThanOrEqual(Number(s.startTime));
    expect(Number(s.startTime)).toBeLessThanOrEqual(Number(s.endTime));
    const [stage] = s.query.queryPlan;
    expect(stage).toMatchObject({ id: '0', status: 'COMPLETE', recordsRead: '3', recordsWritten: '2', computeMode: 'BIGQUERY' });
    expect(stage.steps[0]).toEqual({ kind: 'READ', substeps: [`FROM ${P}.${D}.people`] });
    expect(typeof stage.waitRatioAvg).toBe('number');
    expect(s.query.timeline[0].totalSlotMs).toMatch(/^\d+$/);
    expect('schema' in s.query).toBe(false);
  });

  it('counts every column type by its data size; COUNT(*) scans nothing and bills nothing', async () => {
    const all = await query({ query: `SELECT * FROM \`${D}.people\`` });
    expect(all.body.totalBytesProcessed).toBe(String(24 + 19 + 16 + 2 + 16 + 32 + 12));
    expect(all.body.totalBytesBilled).toBe(String(10 * 1024 * 1024));
    expect(all.body.totalSlotMs).toMatch(/^\d+$/);
    const count = await query({ query: `SELECT COUNT(*) AS c FROM \`${D}.people\`` });
    expect(count.body.totalBytesProcessed).toBe('0');
    expect(count.body.totalBytesBilled).toBe('0');
    // A self-join scans each column once; the minimum is per table.
    const self = await query({ query: `SELECT a.id FROM \`${D}.people\` a JOIN \`${D}.people\` b ON a.id = b.id` });
    expect(self.body.totalBytesProcessed).toBe('24');
  });

  it('reports a dry run estimate, DML and DDL statistics', async () => {
    const dry = await query({ query: `SELECT name FROM \`${D}.people\``, dryRun: true });
    expect(dry.body.totalBytesProcessed).toBe('19');
    expect(dry.body.totalBytesBilled).toBe('0');
    await t.bq.query({ query: `CREATE TABLE \`${D}.copy\` (id INT64, name STRING)` });
    const [ins] = await t.bq.createQueryJob({ query: `INSERT INTO \`${D}.copy\` (id, name) SELECT id, name FROM \`${D}.people\`` });
    await ins.getQueryResults();
    const [im] = await ins.getMetadata();
    expect(im.statistics.query).toMatchObject({ statementType: 'INSERT', numDmlAffectedRows: '3', dmlStats: { insertedRowCount: '3' }, totalBytesProcessed: '43' });
    expect(im.statistics.query.referencedTables).toEqual([{ projectId: P, datasetId: D, tableId: 'people' }]);
    expect(im.statistics.query.queryPlan).toHaveLength(1);
    // UPDATE bills every column of its target (id 24 + name 19).
    const [upd] = await t.bq.createQueryJob({ query: `UPDATE \`${D}.copy\` SET name = 'x' WHERE id = 1` });
    await upd.getQueryResults();
    const [um] = await upd.getMetadata();
    expect(um.statistics.query).toMatchObject({ statementType: 'UPDATE', numDmlAffectedRows: '1', totalBytesProcessed: '43' });
    const [ddl] = await t.bq.createQueryJob({ query: `CREATE TABLE IF NOT EXISTS \`${D}.copy\` (id INT64)` });
    await ddl.getQueryResults();
    const [dm] = await ddl.getMetadata();
    expect(dm.statistics.query).toMatchObject({ statementType: 'CREATE_TABLE', ddlOperationPerformed: 'SKIP', totalBytesProcessed: '0' });
    expect('queryPlan' in dm.statistics.query).toBe(false);
  });

  it('a query without tables reports no plan (recorded http/jobs/job_get_complete)', async () => {
    const r = await query({ query: 'SELECT 1 AS x' });
    const m = await http(t.emu.url, 'GET', api(`/jobs/${r.body.jobReference.jobId}`));
    expect(Object.keys(m.body.statistics).sort()).toEqual(['creationTime', 'endTime', 'query', 'startTime', 'totalBytesProcessed']);
    expect(Object.keys(m.body.statistics.query).sort()).toEqual(['cacheHit', 'statementType', 'totalBytesBilled', 'totalBytesProcessed']);
  });
});
