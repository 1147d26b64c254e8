/**
 * The job manager (src/jobs/jobs.ts `JobManager`) on a fake engine (test/helpers/fake-engine.ts):
 * lifecycle, queueing, cancellation, job-id and requestId idempotency, listing and result
 * retention, without DuckDB or the analyzer. The manager takes its engine as a constructor
 * argument, so the fake is passed in directly.
 *
 * Behaviours and texts, by source (src/server/rest/bigquery-v2-discovery.json is BigQuery's
 * discovery document; https://cloud.google.com/bigquery/docs/reference/rest/v2/jobs):
 * - JobStatus.state: "Valid states include 'PENDING', 'RUNNING', and 'DONE'"; JobStatus.errorResult:
 *   "If present, indicates that the job has completed and was unsuccessful".
 * - jobs.list: "sorted in reverse chronological order, by job creation time"; `stateFilter`
 *   done/pending/running; `minCreationTime`/`maxCreationTime`; `parentJobId` lists a script's
 *   child jobs (top-level jobs otherwise).
 * - QueryRequest.requestId: duplicates are requests with "the same request_id" and the same
 *   parameters that affect the result; "case-sensitive"; "Its lifetime is limited to 15 minutes".
 * - jobs.delete: "Requests the deletion of the metadata of a job".
 * - A cancelled job's errorResult `{reason: 'stopped', message: 'Job execution was cancelled: User
 *   requested cancellation'}` and `409 Already Exists: Job p:US.id` for a reused job id, as
 *   test/jobs-lifecycle.test.ts asserts them through the real client.
 * - An expired result's anonymous table answers 404 `Not found: Table p:d.t was not found in
 *   location US` (recorded conformance/fixtures/rest_crud/error_table_not_found).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JobManager, anonymousTable, type JobRecord, type ResultLimits } from '../src/jobs/jobs.js';
import { BigQueryError } from '../src/errors/errors.js';
import { FakeEngine, selectResult } from './helpers/fake-engine.js';

const P = 'proj';
const query = (sql: string, extra: Record<string, unknown> = {}) => ({ configuration: { query: { query: sql, useLegacySql: false, ...extra } } });
const withId = (jobId: string, sql: string) => ({ jobReference: { jobId }, ...query(sql) });

function manager(fake = new FakeEngine(), limits: Partial<ResultLimits> = {}, maxRunning?: number): { jm: JobManager; fake: FakeEngine } {
  const jm = new JobManager(fake.asEngine(), P, limits, undefined, maxRunning);
  jm.runRequest = (_engine, sql, opts) => fake.execute(sql, opts);
  return { jm, fake };
}

/** The error a call raised (fails the test when it does not raise). */
async function raised(f: () => unknown): Promise<BigQueryError> {
  try {
    await f();
  } catch (e) {
    return e as BigQueryError;
  }
  throw new Error('expected an error');
}

async function finished(jm: JobManager, body: object): Promise<JobRecord> {
  const j = await jm.insert(P, body);
  await jm.waitFor(j, 5000);
  expect(j.state).toBe('DONE');
  return j;
}

const rowsOf = (page: { rows?: unknown[]; encodedRows?: { length: number } }) => (page.rows ?? page.encodedRows ?? []).length;

afterEach(() => {
  vi.useRealTimers();
});

describe('state transitions: PENDING → RUNNING → DONE', () => {
  it('a query job is PENDING when inserted, RUNNING while it executes, DONE with its result after', async () => {
    const { jm, fake } = manager();
    fake.answer('SELECT n', selectResult(1, 2));
    const held = fake.hold('SELECT n');
    // The job exists, PENDING, as soon as insert is called; it runs once it has a slot.
    const inserted = jm.insert(P, query('SELECT n'));
    const [created] = jm.list(P);
    expect([created.state, created.startTime]).toEqual(['PENDING', undefined]);
    const j = await inserted;
    expect(j).toBe(created);
    await held.started;
    expect(j.state).toBe('RUNNING');
    expect(j.startTime).toBeGreaterThanOrEqual(j.creationTime);
    held.release();
    await jm.waitFor(j, 5000);
    expect(j.state).toBe('DONE');
    expect(j.error).toBeUndefined();
    expect(j.endTime).toBeGreaterThanOrEqual(j.startTime!);
    expect(jm.page(j, 0, 10).total).toBe(2);
    expect(fake.calls.map((c) => [c.sql, c.opts.projectId, c.opts.jobId])).toEqual([['SELECT n', P, j.jobId]]);
  });

  it('a failing query ends DONE with the statement error as its errorResult and no result', async () => {
    const { jm, fake } = manager();
    fake.answer('SELECT bad', BigQueryError.invalidQuery('Unrecognized name: bad at [1:8]'));
    const j = await finished(jm, query('SELECT bad'));
    expect(j.error).toMatchObject({ reason: 'invalidQuery', message: 'Unrecognized name: bad at [1:8]', httpStatus: 400 });
    expect(j.result).toBeUndefined();
  });

  it('a dry run is DONE when insert returns and is not kept as a job', async () => {
    const { jm, fake } = manager();
    const j = await jm.insert(P, { jobReference: { jobId: 'dry' }, configuration: { dryRun: true, query: { query: 'SELECT 1', useLegacySql: false } } });
    expect(j.state).toBe('DONE');
    expect(fake.calls[0].opts.dryRun).toBe(true);
    expect((await raised(() => jm.get(P, 'dry'))).message).toBe(`Not found: Job ${P}:US.dry`);
  });
});

describe('queueing: running slots', () => {
  it('beyond the running limit a job stays PENDING until a running job ends, first come first served', async () => {
    const { jm, fake } = manager(undefined, {}, 1);
    const a = fake.hold('SELECT a');
    const b = fake.hold('SELECT b');
    const ja = await jm.insert(P, query('SELECT a'));
    const jb = await jm.insert(P, query('SELECT b'));
    await a.started;
    expect([ja.state, jb.state]).toEqual(['RUNNING', 'PENDING']);
    expect(fake.calls.map((c) => c.sql)).toEqual(['SELECT a']);
    expect(jm.slots.pending).toBe(1);
    a.release();
    await b.started;
    expect([ja.state, jb.state]).toEqual(['DONE', 'RUNNING']);
    b.release();
    await jm.waitFor(jb, 5000);
    expect(jb.state).toBe('DONE');
    expect(fake.calls.map((c) => c.sql)).toEqual(['SELECT a', 'SELECT b']);
  });

  it('a dry run takes no slot: it completes while the only slot is busy', async () => {
    const { jm, fake } = manager(undefined, {}, 1);
    const a = fake.hold('SELECT a');
    const ja = await jm.insert(P, query('SELECT a'));
    await a.started;
    const dry = await jm.insert(P, { configuration: { dryRun: true, query: { query: 'SELECT 1', useLegacySql: false } } });
    expect(dry.state).toBe('DONE');
    expect(ja.state).toBe('RUNNING');
    a.release();
    await jm.waitFor(ja, 5000);
  });
});

describe('cancellation (jobs.cancel)', () => {
  it('a running job ends DONE with the stopped error once cancelled', async () => {
    const { jm, fake } = manager();
    const h = fake.hold('SELECT slow');
    const j = await jm.insert(P, query('SELECT slow'));
    await h.started;
    const answered = await jm.cancel(P, j.jobId);
    expect(answered).toBe(j);
    expect(j.state).toBe('DONE');
    expect(j.error).toMatchObject({ reason: 'stopped', message: 'Job execution was cancelled: User requested cancellation' });
    expect(j.result).toBeUndefined();
  });

  it('a PENDING job cancelled never runs and has no start time', async () => {
    const { jm, fake } = manager(undefined, {}, 1);
    const a = fake.hold('SELECT a');
    const ja = await jm.insert(P, query('SELECT a'));
    await a.started;
    const jb = await jm.insert(P, query('SELECT b'));
    expect(jb.state).toBe('PENDING');
    await jm.cancel(P, jb.jobId);
    expect(jb.state).toBe('DONE');
    expect(jb.error?.reason).toBe('stopped');
    expect(jb.startTime).toBeUndefined();
    expect(jm.slots.pending).toBe(0);
    a.release();
    await jm.waitFor(ja, 5000);
    expect(ja.error).toBeUndefined();
    expect(fake.calls.map((c) => c.sql)).toEqual(['SELECT a']);
  });

  it('cancelling a finished job answers it unchanged; an unknown job is 404', async () => {
    const { jm } = manager();
    const j = await finished(jm, query('SELECT 1'));
    await jm.cancel(P, j.jobId);
    expect(j.state).toBe('DONE');
    expect(j.error).toBeUndefined();
    const e = await raised(() => jm.cancel(P, 'nope'));
    expect([e.httpStatus, e.reason, e.message]).toEqual([404, 'notFound', `Not found: Job ${P}:US.nope`]);
  });
});

describe('interruptions other than jobs.cancel', () => {
  it('a statement running past scriptOptions.statementTimeoutMs ends the job with reason timeout', async () => {
    // ScriptOptions.statementTimeoutMs (discovery): "Timeout period for each statement in a script".
    const { jm, fake } = manager();
    const h = fake.hold('SELECT slow');
    const j = await jm.insert(P, query('SELECT slow', { scriptOptions: { statementTimeoutMs: '50' } }));
    await h.started;
    await jm.waitFor(j, 5000);
    expect(j.state).toBe('DONE');
    expect(j.error?.reason).toBe('timeout');
  });

  it('shutdown stops every running and pending job', async () => {
    const { jm, fake } = manager(undefined, {}, 1);
    const h = fake.hold('SELECT a');
    const ja = await jm.insert(P, query('SELECT a'));
    const jb = await jm.insert(P, query('SELECT b'));
    await h.started;
    await jm.shutdown();
    expect([ja.state, ja.error?.reason, jb.state, jb.error?.reason]).toEqual(['DONE', 'stopped', 'DONE', 'stopped']);
    expect(fake.calls.map((c) => c.sql)).toEqual(['SELECT a']);
  });
});

describe('job id idempotency (jobs.insert)', () => {
  it('inserting an existing id with the same configuration answers the existing job; it runs once', async () => {
    const { jm, fake } = manager();
    const first = await finished(jm, withId('same', 'SELECT 1'));
    const again = await jm.insert(P, withId('same', 'SELECT 1'));
    expect(again).toBe(first);
    expect(fake.calls).toHaveLength(1);
  });

  it('an existing id with another configuration is 409 duplicate', async () => {
    const { jm } = manager();
    await finished(jm, withId('taken', 'SELECT 1'));
    const e = await raised(() => jm.insert(P, withId('taken', 'SELECT 2')));
    expect([e.httpStatus, e.reason, e.message]).toEqual([409, 'duplicate', `Already Exists: Job ${P}:US.taken`]);
  });
});

describe('jobs.query requestId', () => {
  it('the same requestId and parameters give the same job within 15 minutes, not after', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const { jm } = manager();
    const j = await finished(jm, query('INSERT t (n) VALUES (1)'));
    jm.rememberRequest(P, 'req-1', 'fp', j);
    expect(jm.jobOfRequest(P, 'req-1', 'fp')).toBe(j);
    vi.setSystemTime(new Date('2026-01-01T00:15:00Z'));
    expect(jm.jobOfRequest(P, 'req-1', 'fp')).toBe(j);
    vi.setSystemTime(new Date('2026-01-01T00:15:00.001Z'));
    expect(jm.jobOfRequest(P, 'req-1', 'fp')).toBeUndefined();
  });

  it('another parameter set, another project or another case of the id is not a duplicate', async () => {
    const { jm } = manager();
    const j = await finished(jm, query('INSERT t (n) VALUES (1)'));
    jm.rememberRequest(P, 'Req-1', 'fp', j);
    expect(jm.jobOfRequest(P, 'Req-1', 'fp')).toBe(j);
    expect(jm.jobOfRequest(P, 'Req-1', 'other-fp')).toBeUndefined();
    expect(jm.jobOfRequest('other-project', 'Req-1', 'fp')).toBeUndefined();
    expect(jm.jobOfRequest(P, 'req-1', 'fp')).toBeUndefined();
  });
});

describe('jobs.list', () => {
  it('lists a project’s jobs newest first by creation time, with creation-time bounds', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { jm } = manager();
    const at = (s: number) => vi.setSystemTime(new Date(Date.UTC(2026, 0, 1, 0, 0, s)));
    at(1);
    const a = await finished(jm, withId('a', 'SELECT 1'));
    at(3);
    const c = await finished(jm, withId('c', 'SELECT 3'));
    at(2);
    const b = await finished(jm, withId('b', 'SELECT 2'));
    await jm.insert('other', withId('x', 'SELECT 4'));
    expect(jm.list(P).map((j) => j.jobId)).toEqual(['c', 'b', 'a']);
    expect(jm.list(P, { minCreationTime: b.creationTime }).map((j) => j.jobId)).toEqual(['c', 'b']);
    expect(jm.list(P, { maxCreationTime: b.creationTime }).map((j) => j.jobId)).toEqual(['b', 'a']);
    expect(a.creationTime < b.creationTime && b.creationTime < c.creationTime).toBe(true);
  });

  it('filters by state', async () => {
    const { jm, fake } = manager();
    const done = await finished(jm, withId('done', 'SELECT 1'));
    const h = fake.hold('SELECT slow');
    const running = await jm.insert(P, withId('running', 'SELECT slow'));
    await h.started;
    expect(jm.list(P, { states: ['RUNNING'] })).toEqual([running]);
    expect(jm.list(P, { states: ['DONE'] })).toEqual([done]);
    expect(jm.list(P, { states: ['PENDING'] })).toEqual([]);
    h.release();
    await jm.waitFor(running, 5000);
  });

  it('a script’s statements are child jobs: listed under parentJobId only', async () => {
    const { jm, fake } = manager();
    fake.answer('SELECT 1; SELECT 2', [...selectResult(1), ...selectResult(2)]);
    const parent = await finished(jm, withId('script', 'SELECT 1; SELECT 2'));
    expect(parent.childJobIds).toHaveLength(2);
    expect(jm.list(P).map((j) => j.jobId)).toEqual(['script']);
    const children = jm.list(P, { parentJobId: 'script' });
    expect(children.map((j) => j.jobId).sort()).toEqual([...parent.childJobIds!].sort());
    expect(children.every((j) => j.parentJobId === 'script' && j.state === 'DONE')).toBe(true);
  });
});

describe('result retention', () => {
  /** The 404 a page of an evicted result answers (its anonymous table is gone). */
  const expiredText = (j: JobRecord) => {
    const t = anonymousTable(j.projectId, j.jobId);
    return `Not found: Table ${t.projectId}:${t.datasetId}.${t.tableId} was not found in location US`;
  };

  it('keeps the rows of the most recent jobs up to the job limit; older results are 404, their metadata stays', async () => {
    const { jm, fake } = manager(undefined, { maxJobs: 2 });
    fake.answer('SELECT 1', selectResult(1)).answer('SELECT 2', selectResult(2)).answer('SELECT 3', selectResult(3));
    const j1 = await finished(jm, query('SELECT 1'));
    const j2 = await finished(jm, query('SELECT 2'));
    const j3 = await finished(jm, query('SELECT 3'));
    const e = await raised(() => jm.page(j1, 0, 10));
    expect([e.httpStatus, e.reason, e.message]).toEqual([404, 'notFound', expiredText(j1)]);
    expect(jm.get(P, j1.jobId).state).toBe('DONE');
    expect(rowsOf(jm.page(j2, 0, 10))).toBe(1);
    expect(rowsOf(jm.page(j3, 0, 10))).toBe(1);
  });

  it('reading a result keeps it: the least recently read result goes first', async () => {
    const { jm, fake } = manager(undefined, { maxJobs: 2 });
    fake.answer('SELECT 1', selectResult(1)).answer('SELECT 2', selectResult(2));
    const j1 = await finished(jm, query('SELECT 1'));
    const j2 = await finished(jm, query('SELECT 2'));
    jm.page(j1, 0, 10);
    await finished(jm, query('SELECT 3'));
    expect(rowsOf(jm.page(j1, 0, 10))).toBe(1);
    expect((await raised(() => jm.page(j2, 0, 10))).message).toBe(expiredText(j2));
  });

  it('a cell budget evicts older results too (the newest result is always kept)', async () => {
    const { jm, fake } = manager(undefined, { maxCells: 3 });
    fake.answer('SELECT a', selectResult(1, 2)).answer('SELECT b', selectResult(3, 4, 5, 6));
    const a = await finished(jm, query('SELECT a'));
    const b = await finished(jm, query('SELECT b'));
    expect((await raised(() => jm.page(a, 0, 10))).reason).toBe('notFound');
    expect(rowsOf(jm.page(b, 0, 10))).toBe(4);
  });

  it('pages a result by startIndex and maxResults', async () => {
    const { jm, fake } = manager();
    fake.answer('SELECT n', selectResult(1, 2, 3));
    const j = await finished(jm, query('SELECT n'));
    const first = jm.page(j, 0, 2);
    expect([rowsOf(first), first.total, first.next]).toEqual([2, 3, 2]);
    const last = jm.page(j, 2, 2);
    expect([rowsOf(last), last.total, last.next]).toEqual([1, 3, undefined]);
  });
});

describe('jobs.delete and persistence', () => {
  it('delete removes a job’s metadata (a running job is cancelled first)', async () => {
    const { jm, fake } = manager();
    const h = fake.hold('SELECT slow');
    const j = await jm.insert(P, withId('gone', 'SELECT slow'));
    await h.started;
    await jm.delete(P, 'gone');
    expect(j.error?.reason).toBe('stopped');
    expect((await raised(() => jm.get(P, 'gone'))).httpStatus).toBe(404);
  });

  it('with a persistent database, finished jobs and their results load into a new manager', async () => {
    const fake = new FakeEngine(true);
    fake.answer('SELECT n', selectResult(7, 8));
    const { jm } = manager(fake);
    const j = await finished(jm, withId('kept', 'SELECT n'));
    fake.answer('SELECT bad', BigQueryError.invalidQuery('Syntax error'));
    await finished(jm, withId('failed', 'SELECT bad'));
    const { jm: reopened } = manager(fake);
    await reopened.load();
    const back = reopened.get(P, 'kept');
    expect([back.state, back.creationTime, back.configuration]).toEqual(['DONE', j.creationTime, j.configuration]);
    expect(rowsOf(reopened.page(back, 0, 10))).toBe(2);
    expect(reopened.get(P, 'failed').error).toMatchObject({ reason: 'invalidQuery', message: 'Syntax error' });
  });
});
