/**
 * A finished job whose result rows are no longer kept is held as a compact record
 * (src/jobs/persist.ts FinishedJob): every field reads as the full record did, writes are kept, it
 * persists as the full record, and through the real client jobs.get, jobs.list and a jobs.query
 * retried with its requestId answer the same before and after the record was compacted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactJob, FinishedJob, jobFromJson, jobToJson } from '../src/jobs/persist.js';
import type { JobRecord } from '../src/jobs/jobs.js';
import { BigQueryError } from '../src/errors/errors.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

const record = (): JobRecord => ({
  projectId: 'p',
  jobId: 'job_1',
  location: 'EU',
  configuration: {
    query: { query: "SELECT 'é\\u0000' AS s, @n AS n", useLegacySql: false, queryParameters: [{ name: 'n', parameterType: { type: 'INT64' }, parameterValue: { value: '5' } }] },
    labels: { a: 'b' },
  },
  state: 'DONE',
  creationTime: 1_700_000_000_000,
  startTime: 1_700_000_000_001,
  endTime: 1_700_000_000_009,
  result: { statementType: 'SELECT', schema: [{ name: 's', type: { kind: 'STRING' } }], rows: undefined, span: [0, 30], referencedTables: [{ projectId: 'p', datasetId: 'd', tableId: 't' }] },
  resultsExpired: true,
  stats: { bytesProcessed: 10, bytesBilled: 10485760, slotMs: 8, tablesScanned: 1, recordsRead: 3 },
  sessionId: 's1',
  childJobIds: ['c0', 'c1'],
  error: BigQueryError.invalidQuery('Unrecognized name: x at [1:8]'),
});

describe('the compact record of a finished job', () => {
  it('reads every field as the record held it (the byte span aside) and persists the same JSON', () => {
    const full = record();
    const c = compactJob(full);
    expect(c).toBeInstanceOf(FinishedJob);
    for (const k of ['projectId', 'jobId', 'location', 'configuration', 'state', 'creationTime', 'startTime', 'endTime', 'resultsExpired', 'stats', 'sessionId', 'childJobIds', 'error', 'parentJobId', 'encodedRows', 'loadStats'] as const)
      expect(c[k], k).toEqual(full[k]);
    expect(c.result).toEqual({ statementType: 'SELECT', schema: [{ name: 's', type: { kind: 'STRING' } }], referencedTables: [{ projectId: 'p', datasetId: 'd', tableId: 't' }] });
    expect(c.error).toBe(full.error);
    const { span: _span, ...result } = full.result!;
    expect(JSON.parse(jobToJson(c))).toEqual(JSON.parse(jobToJson({ ...full, result })));
    expect(jobFromJson(jobToJson(c)).error?.message).toBe('Unrecognized name: x at [1:8]');
  });

  it('keeps a field written after it was compacted, and reads another job between', () => {
    const a = compactJob(record());
    const b = compactJob({ ...record(), jobId: 'job_2', sessionId: undefined });
    a.result = { ...a.result!, rows: undefined };
    a.sessionId = undefined;
    expect(b.sessionId).toBeUndefined();
    expect(a.sessionId).toBeUndefined();
    expect(a.result?.statementType).toBe('SELECT');
    expect(a.stats?.bytesBilled).toBe(10485760);
    expect(b.jobId).toBe('job_2');
  });

  it('leaves a job that is not DONE or still holds result rows as it is', () => {
    const running = { ...record(), state: 'RUNNING' as const };
    expect(compactJob(running)).toBe(running);
    const withRows = { ...record(), result: { statementType: 'SELECT', schema: [], rows: [] } };
    expect(compactJob(withRows)).toBe(withRows);
  });
});

describe('through the client: jobs.get, jobs.list and requestId before and after compaction', () => {
  let t: TestEmulator;
  beforeAll(async () => {
    // Rows of the most recent job only: an earlier job's record is compacted when its rows go.
    t = await startTestEmulator({ quiet: true, resultLimits: { maxJobs: 1 } });
  });
  afterAll(async () => {
    await t?.emu.close();
  });

  const rest = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${t.emu.url}/bigquery/v2/projects/${t.projectId}${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
    return { status: r.status, json: (await r.json()) as Record<string, any> };
  };

  it('a SELECT job answers jobs.get and jobs.list the same once its rows expired', async () => {
    const [job] = await t.bq.createQueryJob({ query: 'SELECT 1 AS x, "a" AS s', useLegacySql: false });
    await job.getQueryResults();
    const [before] = await job.getMetadata();
    const listed = async () => (await rest('GET', '/jobs?projection=full&maxResults=100')).json.jobs.find((j: { id: string }) => j.id === before.id);
    const listedBefore = await listed();
    // Two more jobs: the first one's rows are dropped and its record compacted.
    for (const sql of ['SELECT 2 AS y', 'SELECT 3 AS z']) await (await t.bq.createQueryJob({ query: sql, useLegacySql: false }))[0].getQueryResults();
    const gone = await rest('GET', `/queries/${job.id}?location=US`);
    expect(gone.status).toBe(404);
    const [after] = await job.getMetadata();
    expect(after).toEqual(before);
    expect(await listed()).toEqual(listedBefore);
  });

  it('DML and failed jobs (compacted when they end) keep their statistics and errors', async () => {
    await t.bq.query({ query: 'CREATE SCHEMA fj; CREATE TABLE fj.t (n INT64)', useLegacySql: false });
    const [dml] = await t.bq.createQueryJob({ query: 'INSERT fj.t (n) VALUES (1), (2)', useLegacySql: false });
    await dml.getQueryResults();
    const [m] = await dml.getMetadata();
    expect(m.statistics.query.statementType).toBe('INSERT');
    expect(m.statistics.query.numDmlAffectedRows).toBe('2');
    expect(m.statistics.query.dmlStats).toEqual({ insertedRowCount: '2' });
    expect(m.status).toEqual({ state: 'DONE' });
    const bad = await rest('POST', '/jobs', { configuration: { query: { query: 'SELECT nope', useLegacySql: false } } });
    const id = bad.json.jobReference.jobId as string;
    let got = await rest('GET', `/jobs/${id}`);
    while (got.json.status.state !== 'DONE') got = await rest('GET', `/jobs/${id}`);
    expect(got.json.status.errorResult).toEqual({ reason: 'invalidQuery', location: 'query', message: 'Unrecognized name: nope at [1:8]' });
  });

  it('a jobs.query retried with its requestId answers the same job after the record was compacted', async () => {
    // A DML job holds no result rows: its record is compacted as soon as it ends.
    await rest('POST', '/queries', { query: 'CREATE TABLE fj.r (n INT64)', useLegacySql: false });
    const body = { query: 'INSERT fj.r (n) VALUES (7)', useLegacySql: false, requestId: 'c0ffee00-1111-4e0b-9d55-0123456789ab' };
    const first = await rest('POST', '/queries', body);
    expect(first.json.numDmlAffectedRows).toBe('1');
    const again = await rest('POST', '/queries', body);
    expect(again.json.jobReference.jobId).toBe(first.json.jobReference.jobId);
    const count = await rest('POST', '/queries', { query: 'SELECT COUNT(*) AS c FROM fj.r', useLegacySql: false });
    expect(count.json.rows).toEqual([{ f: [{ v: '1' }] }]);
  });
});
