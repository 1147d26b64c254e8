/**
 * What a session keeps besides TEMP tables (BigQuery "Write queries in sessions"): variables
 * declared outside BEGIN…END ("session variables"), system variables set with SET (`@@dataset_id`
 * …), temporary functions; `@@session_id`. And the job-id system variables (BigQuery "System
 * variables reference"): `@@script.job_id` is the script's job, `@@current_job_id` the job of the
 * current statement (a script's child job, listed by jobs.list with parentJobId), else the job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, errorOf, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const inSession = (id: string) => [{ key: 'session_id', value: id }];
const q = async (query: string, session?: string) =>
  (await t.bq.query({ query, wrapIntegers: false, ...(session ? { connectionProperties: inSession(session) } : {}) }))[0] as Record<string, unknown>[];

async function newSession(query: string): Promise<string> {
  const [job] = await t.bq.createQueryJob({ query, createSession: true });
  await job.getQueryResults();
  return (await job.getMetadata())[0].statistics.sessionInfo.sessionId as string;
}

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('ss');
  await t.bq.query('CREATE TABLE ss.nums AS SELECT 1 AS n UNION ALL SELECT 2');
});
afterAll(async () => t?.emu.close());

describe('session state', () => {
  it('variables declared in a session job are visible, and settable, in later jobs of the session', async () => {
    const id = await newSession('DECLARE x INT64 DEFAULT 10; DECLARE label STRING DEFAULT "a"');
    expect(await q('SELECT x + 1 AS y, label', id)).toEqual([{ y: 11, label: 'a' }]);
    await q('SET x = x * 3', id);
    expect(await q('SELECT x', id)).toEqual([{ x: 30 }]);
    // A script of the session sees and updates them too.
    expect(await q('SET label = CONCAT(label, "b"); SELECT label, x FROM (SELECT 1)', id)).toEqual([{ label: 'ab', x: 30 }]);
    expect(await q('SELECT n * x AS v FROM ss.nums ORDER BY n', id)).toEqual([{ v: 30 }, { v: 60 }]);
    // Outside the session the names mean nothing.
    expect((await errorOf(q('SELECT x'))).message).toBe('Unrecognized name: x at [1:8]');
    // Declaring the same name again in the session is a redeclaration.
    expect((await errorOf(q('DECLARE x INT64', id))).message).toMatch(/^Variable 'x' redeclaration/);
  });

  it('variables declared inside BEGIN…END are not session variables', async () => {
    const id = await newSession('BEGIN DECLARE inner_v INT64 DEFAULT 1; END');
    expect((await errorOf(q('SELECT inner_v', id))).message).toBe('Unrecognized name: inner_v at [1:8]');
  });

  it('temporary functions persist in the session', async () => {
    const id = await newSession('CREATE TEMP FUNCTION twice(v INT64) AS (v * 2)');
    expect(await q('SELECT twice(21) AS r', id)).toEqual([{ r: 42 }]);
    expect(await q('SELECT twice(n) AS r FROM ss.nums ORDER BY n', id)).toEqual([{ r: 2 }, { r: 4 }]);
    expect((await errorOf(q('SELECT twice(1)'))).message).toMatch(/Function not found: twice/);
  });

  it("a procedure's parameters and variables stay its own inside a session", async () => {
    await q('CREATE PROCEDURE ss.bump(INOUT v INT64) BEGIN DECLARE step INT64 DEFAULT 5; SET v = v + step; END');
    const id = await newSession('DECLARE v INT64 DEFAULT 1');
    await q('CALL ss.bump(v)', id);
    expect(await q('SELECT v', id)).toEqual([{ v: 6 }]);
    expect((await errorOf(q('SELECT step', id))).message).toBe('Unrecognized name: step at [1:8]');
  });

  it('SET @@dataset_id holds for the rest of the session; @@session_id is the session id', async () => {
    const id = await newSession("SET @@dataset_id = 'ss'");
    expect(await q('SELECT n FROM nums ORDER BY n', id)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await q('SELECT @@session_id AS s, @@dataset_id AS d', id)).toEqual([{ s: id, d: 'ss' }]);
  });
});

describe('job id system variables', () => {
  it('@@script.job_id is the script job and @@current_job_id / @@last_job_id its child jobs', async () => {
    const [job] = await t.bq.createQueryJob({
      query: 'CREATE TEMP TABLE ids (s STRING, c STRING); INSERT INTO ids SELECT @@script.job_id, @@current_job_id; SELECT s, c, @@current_job_id AS c2, @@last_job_id AS l FROM ids',
    });
    const [rows] = await job.getQueryResults();
    const [children] = await t.bq.getJobs({ parentJobId: job.id } as never);
    const childIds = children.map((j) => j.id!).sort();
    expect(childIds).toHaveLength(3);
    const [r] = rows as Record<string, string>[];
    expect(r.s).toBe(job.id);
    // The INSERT is the script's second statement, the SELECT its third.
    expect(r.c).toBe(childIds.find((c) => c.endsWith('_1')));
    expect(r.c2).toBe(childIds.find((c) => c.endsWith('_2')));
    expect(r.l).toBe(childIds.find((c) => c.endsWith('_1')));
  });

  it('outside a script @@current_job_id is the job itself', async () => {
    const [job] = await t.bq.createQueryJob({ query: 'SELECT @@current_job_id AS c' });
    const [rows] = await job.getQueryResults();
    expect(rows).toEqual([{ c: job.id }]);
  });
});
