/**
 * Query job configuration (JobConfigurationQuery): script options, jobTimeoutMs, continuous,
 * PENDING jobs and the DDL targets of job statistics, through @google-cloud/bigquery (and raw HTTP
 * for job states).
 *
 * Sources: ScriptOptions in src/server/rest/bigquery-v2-discovery.json (statementTimeoutMs "Timeout period for
 * each statement in a script"; statementByteBudget; keyResultStatement LAST / FIRST_SELECT);
 * the emulator's scope (jobTimeoutMs and byte budgets accepted, not enforced; continuous queries
 * out of scope: src/jobs/query-options.ts); JobStatus.state ("PENDING: the job is scheduled and
 * waiting to be run"); JobStatistics2 ddlTargetRoutine ("Present only for CREATE/DROP
 * FUNCTION/PROCEDURE queries") and ddlTargetDataset ("Present only for CREATE/ALTER/DROP
 * SCHEMA(dataset) queries").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';

let t: TestEmulator;
/** An emulator running one job at a time: the next job waits PENDING. */
let one: TestEmulator;
const D = 'knobs_ds';

/** Well over 10 seconds of DuckDB time (test/jobs-lifecycle.test.ts). */
const LONG = 'SELECT SUM(a * b) AS s FROM UNNEST(GENERATE_ARRAY(1, 60000)) AS a, UNNEST(GENERATE_ARRAY(1, 60000)) AS b';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'knobs-project' });
  one = await startTestEmulator({ projectId: 'one-slot', maxRunningJobs: 1 });
  await t.bq.createDataset(D);
});
afterAll(async () => {
  await t?.emu.close();
  await one?.emu.close();
});

const insert = (e: TestEmulator, jobId: string, query: string) =>
  http(e.emu.url, 'POST', `/bigquery/v2/projects/${e.projectId}/jobs`, { jobReference: { projectId: e.projectId, jobId }, configuration: { query: { query, useLegacySql: false } } });
const getJob = (e: TestEmulator, jobId: string) => http(e.emu.url, 'GET', `/bigquery/v2/projects/${e.projectId}/jobs/${jobId}`);
const cancel = (e: TestEmulator, jobId: string) => http(e.emu.url, 'POST', `/bigquery/v2/projects/${e.projectId}/jobs/${jobId}/cancel`);

async function waitDone(e: TestEmulator, jobId: string): Promise<Record<string, any>> {
  for (let i = 0; i < 3000; i++) {
    const r = await getJob(e, jobId);
    if (r.body.status?.state === 'DONE') return r.body;
    await sleep(20);
  }
  throw new Error(`job ${jobId} did not finish`);
}

describe('scriptOptions', () => {
  it('a statement running past statementTimeoutMs fails the script with reason timeout', async () => {
    // The client raises the job's error from jobs.insert (failed within its wait) or from getQueryResults.
    const run = t.bq.createQueryJob({ query: `SELECT 1 AS x; ${LONG}`, scriptOptions: { statementTimeoutMs: '300' }, jobId: 'timed_out' } as never);
    const e = await errorOf(run.then(([job]) => job.getQueryResults()));
    expect(e.errors?.[0]?.reason).toBe('timeout');
    const [meta] = await t.bq.job('timed_out').getMetadata();
    expect(meta.status.state).toBe('DONE');
    expect(meta.status.errorResult.reason).toBe('timeout');
    expect(meta.configuration.query.scriptOptions).toEqual({ statementTimeoutMs: '300' });
  });

  it('statements within the timeout run; statementByteBudget is accepted', async () => {
    const [job] = await t.bq.createQueryJob({ query: 'SELECT 1 AS x; SELECT 2 AS y', scriptOptions: { statementTimeoutMs: '60000', statementByteBudget: '1' } } as never);
    const [rows] = await job.getQueryResults();
    expect(rows).toEqual([{ y: 2 }]);
  });

  it('keyResultStatement FIRST_SELECT makes the first SELECT the script result', async () => {
    const [job] = await t.bq.createQueryJob({ query: 'SELECT 1 AS a; SELECT 2 AS b', scriptOptions: { keyResultStatement: 'FIRST_SELECT' } } as never);
    const [rows] = await job.getQueryResults();
    expect(rows).toEqual([{ a: 1 }]);
  });

  it('a malformed statementTimeoutMs is 400 invalid', async () => {
    const e = await errorOf(t.bq.createQueryJob({ query: 'SELECT 1', scriptOptions: { statementTimeoutMs: 'soon' } } as never));
    expect(e.code).toBe(400);
    expect(e.errors?.[0]?.reason).toBe('invalid');
  });
});

describe('jobTimeoutMs and continuous', () => {
  it('jobTimeoutMs is accepted and echoed; the query runs', async () => {
    const [job] = await t.bq.createQueryJob({ query: 'SELECT 7 AS x', jobTimeoutMs: 5000 });
    const [rows] = await job.getQueryResults();
    expect(rows).toEqual([{ x: 7 }]);
    const [meta] = await job.getMetadata();
    expect(meta.configuration.jobTimeoutMs).toBe('5000');
  });

  it('continuous: true is rejected as not supported (jobs.insert and jobs.query)', async () => {
    const a = await errorOf(t.bq.createQueryJob({ query: 'SELECT 1', continuous: true } as never));
    expect(a.code).toBe(400);
    expect(a.errors?.[0]?.reason).toBe('invalid');
    expect(a.message).toMatch(/not supported/);
    const b = await errorOf(t.bq.query({ query: 'SELECT 1', continuous: true } as never));
    expect(b.code).toBe(400);
    expect(b.message).toMatch(/not supported/);
  });
});

describe('PENDING', () => {
  it('a job waits PENDING while every running slot is taken, then runs', async () => {
    expect((await insert(one, 'busy_1', LONG)).body.status.state).toBe('RUNNING');
    const queued = await insert(one, 'queued_1', 'SELECT 5 AS x');
    expect(queued.body.status.state).toBe('PENDING');
    const meta = await getJob(one, 'queued_1');
    expect(meta.body.status).toEqual({ state: 'PENDING' });
    // Not started: statistics carry the creation time only.
    expect(Object.keys(meta.body.statistics)).toEqual(['creationTime']);
    await cancel(one, 'busy_1');
    const done = await waitDone(one, 'queued_1');
    expect(done.status).toEqual({ state: 'DONE' });
    const [rows] = await one.bq.job('queued_1').getQueryResults();
    expect(rows).toEqual([{ x: 5 }]);
  });

  it('a PENDING job cancelled never runs: DONE with the stopped error', async () => {
    await insert(one, 'busy_2', LONG);
    await insert(one, 'queued_2', 'SELECT 6 AS x');
    const r = await cancel(one, 'queued_2');
    expect(r.body.job.status.state).toBe('DONE');
    expect(r.body.job.status.errorResult.reason).toBe('stopped');
    expect(r.body.job.statistics.startTime).toBeUndefined();
    expect((await getJob(one, 'busy_2')).body.status.state).toBe('RUNNING');
    await cancel(one, 'busy_2');
    expect((await waitDone(one, 'busy_2')).status.errorResult.reason).toBe('stopped');
  });
});

describe('DDL targets in statistics.query', () => {
  const stats = async (query: string) => {
    const [job] = await t.bq.createQueryJob({ query });
    await job.getQueryResults();
    const [meta] = await job.getMetadata();
    return meta.statistics.query;
  };

  it('CREATE/DROP FUNCTION, PROCEDURE and TABLE FUNCTION report ddlTargetRoutine', async () => {
    const routine = (routineId: string) => ({ projectId: t.projectId, datasetId: D, routineId });
    expect((await stats(`CREATE FUNCTION \`${D}.plus1\`(x INT64) AS (x + 1)`)).ddlTargetRoutine).toEqual(routine('plus1'));
    expect((await stats(`CREATE PROCEDURE \`${D}.noop\`() BEGIN SELECT 1; END`)).ddlTargetRoutine).toEqual(routine('noop'));
    expect((await stats(`CREATE TABLE FUNCTION \`${D}.tvf\`(n INT64) AS (SELECT n AS v)`)).ddlTargetRoutine).toEqual(routine('tvf'));
    const dropped = await stats(`DROP FUNCTION \`${D}.plus1\``);
    expect(dropped.ddlTargetRoutine).toEqual(routine('plus1'));
    expect(dropped.ddlOperationPerformed).toBe('DROP');
    expect(dropped.ddlTargetTable).toBeUndefined();
  });

  it('CREATE/DROP TABLE report ddlTargetTable; CREATE/DROP SCHEMA ddlTargetDataset', async () => {
    expect((await stats(`CREATE TABLE \`${D}.tt\` (a INT64)`)).ddlTargetTable).toEqual({ projectId: t.projectId, datasetId: D, tableId: 'tt' });
    expect((await stats(`DROP TABLE \`${D}.tt\``)).ddlTargetTable).toEqual({ projectId: t.projectId, datasetId: D, tableId: 'tt' });
    expect((await stats('CREATE SCHEMA knobs_other')).ddlTargetDataset).toEqual({ projectId: t.projectId, datasetId: 'knobs_other' });
    expect((await stats('DROP SCHEMA knobs_other')).ddlTargetDataset).toEqual({ projectId: t.projectId, datasetId: 'knobs_other' });
  });
});
