/**
 * Sessions (JobConfigurationQuery createSession / connectionProperties; BigQuery "Introduction to
 * sessions") through @google-cloud/bigquery and raw HTTP —
 * createSession mints a URL-safe id (statistics.sessionInfo.sessionId, QueryResponse.sessionInfo);
 * connectionProperties session_id shows the session's TEMP tables to later jobs; an unknown id is
 * BigQuery's 400 `invalid` `Invalid input session id.`; CALL BQ.ABORT_SESSION() and idle expiry
 * end a session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';

let t: TestEmulator;
let short: TestEmulator;
const D = 'sess_ds';

const inSession = (id: string) => [{ key: 'session_id', value: id }];

async function newSession(sql: string): Promise<string> {
  const [job] = await t.bq.createQueryJob({ query: sql, createSession: true } as never);
  await job.getQueryResults();
  const [meta] = await job.getMetadata();
  return meta.statistics.sessionInfo.sessionId as string;
}

/** The hidden datasets holding TEMP tables. */
async function hidden(): Promise<string[]> {
  const [datasets] = await t.bq.getDatasets({ all: true } as never);
  return datasets.map((d) => d.id ?? '').filter((x) => x.startsWith('_script')).sort();
}

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'sess-project' });
  short = await startTestEmulator({ projectId: 'sess-short', sessionIdleMs: 200 });
  await t.bq.createDataset(D);
});
afterAll(async () => {
  await t?.emu.close();
  await short?.emu.close();
});

describe('sessions', () => {
  it('createSession answers a URL-safe session id and later jobs see its TEMP tables', async () => {
    const id = await newSession("CREATE TEMP TABLE t AS SELECT 1 AS id, 'session-bound' AS shape");
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    const [rows] = await t.bq.query({ query: 'SELECT id, shape FROM t ORDER BY id', connectionProperties: inSession(id) } as never);
    expect(rows).toEqual([{ id: 1, shape: 'session-bound' }]);
    // DML on the TEMP table within the session.
    await t.bq.query({ query: "INSERT INTO t (id, shape) VALUES (2, 'more')", connectionProperties: inSession(id) } as never);
    const [after] = await t.bq.query({ query: 'SELECT COUNT(*) AS n FROM t', connectionProperties: inSession(id) } as never);
    expect(after).toEqual([{ n: 2 }]);
    // Outside the session the name means nothing.
    const e = await errorOf(t.bq.query({ query: 'SELECT * FROM t' }));
    expect(e.message).toMatch(/must be qualified with a dataset/);
  });

  it('answers sessionInfo in jobs.query responses and job statistics', async () => {
    const r = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${t.projectId}/queries`, { query: 'SELECT 1 AS n', useLegacySql: false, createSession: true });
    expect(r.status).toBe(200);
    const id = r.body.sessionInfo.sessionId as string;
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    const r2 = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${t.projectId}/queries`, {
      query: 'SELECT 2 AS n',
      useLegacySql: false,
      connectionProperties: inSession(id),
    });
    expect(r2.body.sessionInfo).toEqual({ sessionId: id });
    const job = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${t.projectId}/jobs/${r2.body.jobReference.jobId}`);
    expect(job.body.statistics.sessionInfo).toEqual({ sessionId: id });
  });

  it('a TEMP table created in a session script is visible to the same script and later jobs', async () => {
    const [rows] = await t.bq.query({ query: "CREATE TEMP TABLE t AS SELECT 1 AS id, 'x' AS s; SELECT id, s FROM t", createSession: true } as never);
    expect(rows).toEqual([{ id: 1, s: 'x' }]);
  });

  it('a script without a session has its own TEMP tables, dropped when it ends', async () => {
    const before = await hidden();
    const [rows] = await t.bq.query({ query: 'CREATE TEMP TABLE tmp AS SELECT 5 AS v; SELECT v FROM tmp' });
    expect(rows).toEqual([{ v: 5 }]);
    expect(await hidden()).toEqual(before);
  });

  it('an unknown or malformed session id is 400 invalid "Invalid input session id."', async () => {
    for (const bad of ['bqemu-nonexistent-session-1234', '', 'not a session!']) {
      const e = await errorOf(t.bq.query({ query: 'SELECT 1 AS n', connectionProperties: inSession(bad) } as never));
      expect(e.code).toBe(400);
      expect(e.errors?.[0]?.reason).toBe('invalid');
      expect(e.message).toBe('Invalid input session id.');
    }
  });

  it('CALL BQ.ABORT_SESSION() ends the session and drops its TEMP tables', async () => {
    const before = await hidden();
    const id = await newSession('CREATE TEMP TABLE gone AS SELECT 1 AS x');
    expect((await hidden()).length).toBe(before.length + 1);
    await t.bq.query({ query: 'CALL BQ.ABORT_SESSION()', connectionProperties: inSession(id) } as never);
    const e = await errorOf(t.bq.query({ query: 'SELECT * FROM gone', connectionProperties: inSession(id) } as never));
    expect(e.message).toBe('Invalid input session id.');
    expect(await hidden()).toEqual(before);
  });

  it('CALL BQ.ABORT_SESSION(id) ends a named session from outside it; without an id outside a session it is an error', async () => {
    const id = await newSession('CREATE TEMP TABLE gone2 AS SELECT 1 AS x');
    await t.bq.query(`CALL BQ.ABORT_SESSION('${id}')`);
    const e = await errorOf(t.bq.query({ query: 'SELECT 1', connectionProperties: inSession(id) } as never));
    expect(e.message).toBe('Invalid input session id.');
    const e2 = await errorOf(t.bq.query('CALL BQ.ABORT_SESSION()'));
    expect(e2.code).toBe(400);
  });

  it('an idle session expires', async () => {
    const [job] = await short.bq.createQueryJob({ query: 'SELECT 1', createSession: true } as never);
    await job.getQueryResults();
    const id = (await job.getMetadata())[0].statistics.sessionInfo.sessionId as string;
    await short.bq.query({ query: 'SELECT 1', connectionProperties: inSession(id) } as never);
    await new Promise((r) => setTimeout(r, 400));
    const e = await errorOf(short.bq.query({ query: 'SELECT 1', connectionProperties: inSession(id) } as never));
    expect(e.message).toBe('Invalid input session id.');
  });
});
