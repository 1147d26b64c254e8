/**
 * jobs.query, jobs.insert, jobs.get, jobs.getQueryResults, jobs.list, jobs.cancel and jobs.delete
 * through @google-cloud/bigquery (and raw HTTP where the exact wire body matters).
 *
 * Expected bodies come from recorded BigQuery answers (conformance/wire/jobs/{page_*, job_*,
 * dryrun_*}; the recordings use GENERATE_ARRAY, written here as an array literal with the same rows)
 * and the Job / QueryResponse / GetQueryResultsResponse / JobList schemas of
 * src/server/rest/bigquery-v2-discovery.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '@google-cloud/bigquery';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';

let t: TestEmulator;
let P: string;
const D = 'jobs_ds';

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'jobs-project' });
  P = t.projectId;
  await t.bq.createDataset(D);
  await t.bq.query({ query: `CREATE TABLE \`${D}.nums\` (n INT64, s STRING)` });
  await t.bq.query({ query: `INSERT INTO \`${D}.nums\` (n, s) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')` });
});
afterAll(async () => {
  await t?.emu.close();
});

const arr = (from: number, to: number) => `[${Array.from({ length: to - from + 1 }, (_, i) => from + i).join(', ')}]`;
const cells = (rows: { f: { v: string }[] }[] | undefined) => (rows ?? []).map((r) => r.f[0].v);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
const query = (body: Record<string, unknown>) => http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, { useLegacySql: false, ...body });

describe('jobs.query', () => {
  it('answers rows through the client', async () => {
    const [rows] = await t.bq.query({ query: `SELECT n, s FROM \`${D}.nums\` WHERE n > 3 ORDER BY n` });
    expect(rows).toEqual([
      { n: 4, s: 'd' },
      { n: 5, s: 'e' },
    ]);
  });

  it('answers the recorded QueryResponse keys (page_total_rows_in_response)', async () => {
    const r = await query({ query: `SELECT n FROM UNNEST(${arr(1, 7)}) AS n ORDER BY n` });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(
      [
        'kind', 'schema', 'jobReference', 'totalRows', 'rows', 'totalBytesProcessed', 'jobComplete', 'cacheHit', 'queryId',
        'jobCreationReason', 'totalBytesBilled', 'location', 'creationTime', 'startTime', 'endTime',
      ].sort(),
    );
    expect(r.body.kind).toBe('bigquery#queryResponse');
    expect(r.body.schema).toEqual({ fields: [{ name: 'n', type: 'INTEGER', mode: 'NULLABLE' }] });
    expect(r.body.totalRows).toBe('7');
    expect(r.body.jobComplete).toBe(true);
    expect(cells(r.body.rows)).toEqual(range(1, 7));
    expect(Object.keys(r.body.jobReference).sort()).toEqual(['jobId', 'location', 'projectId']);
    expect(r.body.jobReference.projectId).toBe(P);
    for (const k of ['creationTime', 'startTime', 'endTime']) expect(r.body[k]).toMatch(/^\d+$/);
  });

  it('answers the first page and a pageToken with maxResults (recorded page_first_page_only)', async () => {
    const r = await query({ query: `SELECT n FROM UNNEST(${arr(1, 100)}) AS n ORDER BY n`, maxResults: 25 });
    expect(r.body.totalRows).toBe('100');
    expect(cells(r.body.rows)).toEqual(range(1, 25));
    expect(typeof r.body.pageToken).toBe('string');
  });

  it('answers no rows but totalRows and a pageToken for maxResults 0 (recorded page_max_results_zero)', async () => {
    const r = await query({ query: `SELECT n FROM UNNEST(${arr(1, 50)}) AS n ORDER BY n`, maxResults: 0 });
    expect(r.body.totalRows).toBe('50');
    expect('rows' in r.body).toBe(false);
    expect(typeof r.body.pageToken).toBe('string');
  });

  it('answers an empty result without a rows key (recorded page_empty_result_set)', async () => {
    const r = await query({ query: `SELECT n FROM UNNEST(${arr(1, 5)}) AS n WHERE n > 100` });
    expect(r.body.totalRows).toBe('0');
    expect('rows' in r.body).toBe(false);
    expect('pageToken' in r.body).toBe(false);
    expect(r.body.schema).toEqual({ fields: [{ name: 'n', type: 'INTEGER', mode: 'NULLABLE' }] });
  });

  it('dry runs: schema and no job id, rows or totalRows (recorded dryrun_simple_query)', async () => {
    const r = await query({ query: "SELECT 1 AS x, 'hi' AS s", dryRun: true });
    expect(r.status).toBe(200);
    expect(r.body.schema).toEqual({
      fields: [
        { name: 'x', type: 'INTEGER', mode: 'NULLABLE' },
        { name: 's', type: 'STRING', mode: 'NULLABLE' },
      ],
    });
    expect(r.body.jobComplete).toBe(true);
    expect(Object.keys(r.body.jobReference).sort()).toEqual(['location', 'projectId']);
    for (const k of ['rows', 'totalRows', 'queryId', 'pageToken']) expect(k in r.body).toBe(false);
    // jobs.insert dry run: JobStatistics2.schema is "Present only for successful dry run of non-legacy SQL queries".
    const [, apiResponse] = (await t.bq.createQueryJob({ query: 'SELECT 1 AS x', dryRun: true })) as unknown as [
      Job,
      { status: { state: string }; statistics: { query: { schema: { fields: { name: string; type: string }[] } } } },
    ];
    expect(apiResponse.status.state).toBe('DONE');
    expect(apiResponse.statistics.query.schema.fields.map((f) => [f.name, f.type])).toEqual([['x', 'INTEGER']]);
  });

  it('takes named and positional parameters', async () => {
    const [named] = await t.bq.query({ query: `SELECT n FROM \`${D}.nums\` WHERE n >= @lo AND s != @skip ORDER BY n`, params: { lo: 3, skip: 'd' } });
    expect(named).toEqual([{ n: 3 }, { n: 5 }]);
    const [positional] = await t.bq.query({ query: `SELECT n FROM \`${D}.nums\` WHERE n = ? OR s = ? ORDER BY n`, params: [1, 'e'] });
    expect(positional).toEqual([{ n: 1 }, { n: 5 }]);
  });

  it('resolves unqualified tables against defaultDataset', async () => {
    const [rows] = await t.bq.query({ query: 'SELECT COUNT(*) AS c FROM nums', defaultDataset: { projectId: P, datasetId: D } });
    expect(rows).toEqual([{ c: 5 }]);
  });

  it('reports DML affected rows', async () => {
    await t.bq.query({ query: `CREATE TABLE \`${D}.dml\` (n INT64)` });
    const r = await query({ query: `INSERT INTO \`${D}.dml\` (n) VALUES (1), (2), (3)` });
    // QueryResponse.numDmlAffectedRows is an int64 string; dmlStats.insertedRowCount likewise.
    expect(r.body.numDmlAffectedRows).toBe('3');
    expect(r.body.dmlStats).toEqual({ insertedRowCount: '3' });
  });
});

describe('jobs.insert (createQueryJob), jobs.get and getQueryResults', () => {
  let job: Job;
  let inserted: Record<string, any>;

  beforeAll(async () => {
    const res = (await t.bq.createQueryJob({ query: 'SELECT 7 AS lucky', jobId: 'my_fixed_job_id' })) as unknown as [Job, Record<string, any>];
    [job, inserted] = res;
  });

  it('answers the Job resource (recorded job_insert_returns_job_resource)', async () => {
    expect(inserted.kind).toBe('bigquery#job');
    expect(inserted.id).toBe(`${P}:US.my_fixed_job_id`);
    expect(inserted.jobReference).toEqual({ projectId: P, jobId: 'my_fixed_job_id', location: 'US' });
    expect(inserted.status).toEqual({ state: 'DONE' });
    expect(inserted.configuration.jobType).toBe('QUERY');
    expect(inserted.configuration.query.query).toBe('SELECT 7 AS lucky');
    expect(inserted.statistics.query.statementType).toBe('SELECT');
    for (const k of ['creationTime', 'startTime', 'endTime']) expect(inserted.statistics[k]).toMatch(/^\d+$/);
    for (const k of ['kind', 'etag', 'id', 'selfLink', 'user_email', 'configuration', 'jobReference', 'statistics', 'status', 'principal_subject', 'jobCreationReason'])
      expect(Object.keys(inserted)).toContain(k);
  });

  // The recording's configuration.query also carries destinationTable (the anonymous result
  // table), writeDisposition and priority (test/jobs-anonymous-tables.test.ts reads that table).
  it('names the anonymous destination table in configuration.query (as recorded)', async () => {
    expect(Object.keys(inserted.configuration.query)).toEqual(expect.arrayContaining(['query', 'destinationTable', 'writeDisposition', 'priority', 'useLegacySql']));
  });

  it('is idempotent: inserting the same job id again returns the existing job; another configuration is 409 duplicate', async () => {
    // A retry sends the same configuration (the answer echoes it, plus jobType).
    const { jobType: _jobType, ...configuration } = inserted.configuration;
    const same = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/jobs`, { jobReference: { projectId: P, jobId: 'my_fixed_job_id' }, configuration });
    expect(same.status).toBe(200);
    expect(same.body.configuration.query.query).toBe('SELECT 7 AS lucky');
    const r = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/jobs`, {
      jobReference: { jobId: 'my_fixed_job_id' },
      configuration: { query: { query: 'SELECT 8 AS other', useLegacySql: false } },
    });
    expect(r.status).toBe(409);
    expect(r.body.error.errors[0].reason).toBe('duplicate');
    expect(r.body.error.message).toBe(`Already Exists: Job ${P}:US.my_fixed_job_id`);
  });

  it('jobs.get answers the same job (recorded job_get_complete)', async () => {
    const [m] = await job.getMetadata();
    expect(m.kind).toBe('bigquery#job');
    expect(m.jobReference.jobId).toBe('my_fixed_job_id');
    expect(m.status.state).toBe('DONE');
    expect(m.statistics.query.statementType).toBe('SELECT');
    const raw = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/jobs/my_fixed_job_id?location=US`);
    expect(raw.body.id).toBe(`${P}:US.my_fixed_job_id`);
  });

  it('getQueryResults answers the rows (recorded page_get_query_results_after_complete)', async () => {
    const [rows] = await job.getQueryResults();
    expect(rows).toEqual([{ lucky: 7 }]);
    const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/queries/my_fixed_job_id`);
    expect(r.body).toMatchObject({
      kind: 'bigquery#getQueryResultsResponse',
      schema: { fields: [{ name: 'lucky', type: 'INTEGER', mode: 'NULLABLE' }] },
      jobReference: { projectId: P, jobId: 'my_fixed_job_id', location: 'US' },
      totalRows: '1',
      rows: [{ f: [{ v: '7' }] }],
      jobComplete: true,
    });
    for (const k of ['etag', 'totalBytesProcessed', 'cacheHit']) expect(k in r.body).toBe(true);
  });

  it('getQueryResults pages with maxResults/pageToken and startIndex (recorded page_walk_two_pages, page_walk_to_end_no_more_token)', async () => {
    const first = await query({ query: `SELECT n FROM UNNEST(${arr(1, 100)}) AS n ORDER BY n`, maxResults: 25 });
    const jobId = first.body.jobReference.jobId;
    const second = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/queries/${jobId}?maxResults=25&pageToken=${encodeURIComponent(first.body.pageToken)}`);
    expect(second.body.totalRows).toBe('100');
    expect(cells(second.body.rows)).toEqual(range(26, 50));
    expect(typeof second.body.pageToken).toBe('string');
    const last = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/queries/${jobId}?maxResults=20&startIndex=90`);
    expect(cells(last.body.rows)).toEqual(range(91, 100));
    expect('pageToken' in last.body).toBe(false);
    // Through the client: startIndex + maxResults, one page.
    const [rows] = await t.bq.job(jobId).getQueryResults({ startIndex: '40', maxResults: 3, autoPaginate: false } as never);
    expect(rows).toEqual([{ n: 41 }, { n: 42 }, { n: 43 }]);
  });

  it('runs DDL and DML jobs and reports the statement type', async () => {
    const [ddl] = await t.bq.createQueryJob({ query: `CREATE TABLE \`${D}.made_by_job\` (x INT64)` });
    await ddl.getQueryResults();
    const [m] = await ddl.getMetadata();
    expect(m.statistics.query.statementType).toBe('CREATE_TABLE');
    const [dml] = await t.bq.createQueryJob({ query: `INSERT INTO \`${D}.made_by_job\` (x) VALUES (1), (2)` });
    await dml.getQueryResults();
    const [dm] = await dml.getMetadata();
    expect(dm.statistics.query.statementType).toBe('INSERT');
    expect(dm.statistics.query.numDmlAffectedRows).toBe('2');
  });

  it('a failed job reports status.errorResult; getQueryResults answers its error', async () => {
    // Raw jobs.insert: the client's createQueryJob rejects an insert answer that carries status.errors.
    const ins = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/jobs`, {
      jobReference: { jobId: 'failing_job' },
      configuration: { query: { query: 'SELECT no_such_column', useLegacySql: false } },
    });
    expect(ins.status).toBe(200);
    const bad = t.bq.job('failing_job', { location: 'US' });
    const [m] = await bad.getMetadata();
    expect(m.status.state).toBe('DONE');
    expect(m.status.errorResult).toMatchObject({ reason: 'invalidQuery', message: 'Unrecognized name: no_such_column at [1:8]' });
    const e = await errorOf(bad.getQueryResults());
    expect(e.code).toBe(400);
    expect(e.message).toBe('Unrecognized name: no_such_column at [1:8]');
  });

  it('jobs.get of an unknown job is 404 notFound', async () => {
    const e = await errorOf(t.bq.job('no_such_job').getMetadata());
    expect(e.code).toBe(404);
    expect(e.errors?.[0]?.reason).toBe('notFound');
    // "Not found: Job project-id:job_id" (getredash/website#283, googledatalab/pydatalab#732).
    expect(e.message).toMatch(new RegExp(`^Not found: Job ${P}:(US\\.)?no_such_job$`));
  });
});

describe('jobs.list, cancel, delete', () => {
  it('lists jobs newest first in the ListFormatJob shape', async () => {
    const [j1] = await t.bq.createQueryJob({ query: 'SELECT 1 AS a', jobId: 'list_a' });
    await new Promise((r) => setTimeout(r, 3));
    const [j2] = await t.bq.createQueryJob({ query: 'SELECT 2 AS a', jobId: 'list_b' });
    const [jobs] = await t.bq.getJobs();
    const ids = jobs.map((j) => j.id);
    expect(ids).toContain(j1.id);
    expect(ids.indexOf('list_b')).toBeLessThan(ids.indexOf('list_a'));
    expect(j2.id).toBe('list_b');
    const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/jobs?projection=full`);
    expect(r.body.kind).toBe('bigquery#jobList');
    const item = r.body.jobs.find((j: { jobReference: { jobId: string } }) => j.jobReference.jobId === 'list_a');
    expect(item).toMatchObject({ kind: 'bigquery#job', id: `${P}:US.list_a`, state: 'DONE', status: { state: 'DONE' } });
    expect(item.configuration.query.query).toBe('SELECT 1 AS a');
  });

  it('projection=minimal leaves the configuration out (recorded job_list_in_project)', async () => {
    const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/jobs?maxResults=1&stateFilter=done&projection=minimal`);
    expect(r.body.kind).toBe('bigquery#jobList');
    expect(r.body.jobs.length).toBe(1);
    expect(typeof r.body.nextPageToken).toBe('string');
    expect(Object.keys(r.body.jobs[0]).sort()).toEqual(['id', 'jobReference', 'kind', 'state', 'statistics', 'status']);
  });

  it('without projection the list is the minimal one (the Python client asks for projection=full to get configurations)', async () => {
    const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/jobs?maxResults=1&stateFilter=done`);
    expect(Object.keys(r.body.jobs[0]).sort()).toEqual(['id', 'jobReference', 'kind', 'state', 'statistics', 'status']);
    const [jobs] = await t.bq.getJobs({ maxResults: 1, autoPaginate: false });
    expect(jobs[0]!.metadata.configuration).toBeUndefined();
  });

  it('pages with maxResults and pageToken, each job once; stateFilter=running finds none', async () => {
    const all = (await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/jobs`)).body.jobs.map((j: { id: string }) => j.id);
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/jobs?maxResults=3${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
      seen.push(...r.body.jobs.map((j: { id: string }) => j.id));
      token = r.body.nextPageToken;
    } while (token);
    expect(seen).toEqual(all);
    const running = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/jobs?stateFilter=running`);
    expect(running.body.jobs ?? []).toEqual([]);
  });

  it('cancel answers a jobCancelResponse holding the job (recorded job_cancel)', async () => {
    const [job] = await t.bq.createQueryJob({ query: 'SELECT 99 AS x' });
    const [res] = await job.cancel();
    expect(res.kind).toBe('bigquery#jobCancelResponse');
    expect(res.job?.kind).toBe('bigquery#job');
    expect(res.job?.jobReference?.jobId).toBe(job.id);
  });

  it('delete removes the job metadata (recorded job_delete: 200 with an empty object)', async () => {
    const [job] = await t.bq.createQueryJob({ query: 'SELECT 3 AS x' });
    const r = await http(t.emu.url, 'DELETE', `/bigquery/v2/projects/${P}/jobs/${job.id}/delete`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    const e = await errorOf(job.getMetadata());
    expect(e.code).toBe(404);
  });
});
