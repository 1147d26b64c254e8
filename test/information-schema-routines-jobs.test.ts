/**
 * INFORMATION_SCHEMA.ROUTINES, ROUTINE_OPTIONS, PARAMETERS and JOBS / JOBS_BY_PROJECT through the
 * real client. Expected values follow BigQuery's documentation: the "ROUTINES view",
 * "ROUTINE_OPTIONS view", "PARAMETERS view" and "JOBS view" pages (column sets and order, the
 * documented example rows for `myproject.mydataset.myroutine1`, region and dataset scopes, JOBS
 * and JOBS_BY_PROJECT being synonyms, SCRIPT parents and their child jobs' `parent_job_id`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string, opts: Record<string, unknown> = {}) => (await t.bq.query({ query, wrapIntegers: false, ...opts }))[0] as Record<string, unknown>[];
const names = (rows: Record<string, unknown>[]) => rows.map((r) => Object.keys(r));

beforeAll(async () => {
  // The documented examples use project `myproject` and dataset `mydataset`.
  t = await startTestEmulator({ projectId: 'myproject' });
  await t.bq.createDataset('mydataset');
  await t.bq.createDataset('other');
  await q('CREATE FUNCTION mydataset.myroutine1(x FLOAT64) AS (x + 3)');
  await q('CREATE FUNCTION mydataset.myroutine2(x INT64) RETURNS INT64 OPTIONS(description="a description") AS (x * 2)');
  await q("CREATE FUNCTION mydataset.jsroutine(x INT64) RETURNS INT64 LANGUAGE js AS 'return x * 2;'");
  await q('CREATE PROCEDURE mydataset.proc1(IN a INT64, OUT b STRING) BEGIN SET b = CAST(a AS STRING); END');
  await q('CREATE TABLE FUNCTION mydataset.tvf1(n INT64) AS SELECT n AS v');
  await q('CREATE FUNCTION other.anyf(y ANY TYPE) AS (y)');
});
afterAll(async () => t?.emu.close());

describe('INFORMATION_SCHEMA.ROUTINES', () => {
  it('has the documented columns, in order', async () => {
    const rows = await q("SELECT * FROM mydataset.INFORMATION_SCHEMA.ROUTINES WHERE routine_name = 'myroutine1'");
    expect(names(rows)[0]).toEqual([
      'specific_catalog', 'specific_schema', 'specific_name', 'routine_catalog', 'routine_schema', 'routine_name', 'routine_type',
      'data_type', 'routine_body', 'routine_definition', 'external_language', 'is_deterministic', 'security_type', 'created',
      'last_altered', 'ddl', 'connection',
    ]);
  });

  it('answers the documented example row for a SQL function without RETURNS', async () => {
    const [r] = await q("SELECT * EXCEPT(created, last_altered) FROM mydataset.INFORMATION_SCHEMA.ROUTINES WHERE routine_name = 'myroutine1'");
    expect(r).toEqual({
      specific_catalog: 'myproject', specific_schema: 'mydataset', specific_name: 'myroutine1', routine_catalog: 'myproject',
      routine_schema: 'mydataset', routine_name: 'myroutine1', routine_type: 'FUNCTION', data_type: null, routine_body: 'SQL',
      routine_definition: 'x + 3', external_language: null, is_deterministic: null, security_type: null,
      ddl: 'CREATE FUNCTION myproject.mydataset.myroutine1(x FLOAT64)\nAS (\nx + 3\n);', connection: null,
    });
    const [times] = await q("SELECT created IS NOT NULL AND last_altered >= created AS ok FROM mydataset.INFORMATION_SCHEMA.ROUTINES WHERE routine_name = 'myroutine1'");
    expect(times.ok).toBe(true);
  });

  it('routine_type, data_type, routine_body and external_language per routine kind', async () => {
    expect(await q('SELECT routine_name, routine_type, data_type, routine_body, external_language FROM mydataset.INFORMATION_SCHEMA.ROUTINES ORDER BY routine_name')).toEqual([
      { routine_name: 'jsroutine', routine_type: 'FUNCTION', data_type: 'INT64', routine_body: 'EXTERNAL', external_language: 'JAVASCRIPT' },
      { routine_name: 'myroutine1', routine_type: 'FUNCTION', data_type: null, routine_body: 'SQL', external_language: null },
      { routine_name: 'myroutine2', routine_type: 'FUNCTION', data_type: 'INT64', routine_body: 'SQL', external_language: null },
      { routine_name: 'proc1', routine_type: 'PROCEDURE', data_type: null, routine_body: 'SQL', external_language: null },
      { routine_name: 'tvf1', routine_type: 'TABLE FUNCTION', data_type: 'TABLE<v INT64>', routine_body: 'SQL', external_language: null },
    ]);
  });

  it('region scope lists the routines of every dataset of the project, with or without the project', async () => {
    const want = [
      { routine_schema: 'mydataset', routine_name: 'jsroutine' }, { routine_schema: 'mydataset', routine_name: 'myroutine1' },
      { routine_schema: 'mydataset', routine_name: 'myroutine2' }, { routine_schema: 'mydataset', routine_name: 'proc1' },
      { routine_schema: 'mydataset', routine_name: 'tvf1' }, { routine_schema: 'other', routine_name: 'anyf' },
    ];
    const sql = (from: string) => `SELECT routine_schema, routine_name FROM ${from} ORDER BY routine_schema, routine_name`;
    expect(await q(sql('`region-us`.INFORMATION_SCHEMA.ROUTINES'))).toEqual(want);
    expect(await q(sql('`myproject`.`region-us`.INFORMATION_SCHEMA.ROUTINES'))).toEqual(want);
    expect(await q(sql('region-us.INFORMATION_SCHEMA.ROUTINES'))).toEqual(want);
  });

  it('follows CREATE OR REPLACE and DROP', async () => {
    await q('CREATE FUNCTION other.tmp(x INT64) AS (x)');
    await q('CREATE OR REPLACE FUNCTION other.tmp(x INT64) AS (x + 100)');
    expect(await q("SELECT routine_definition FROM other.INFORMATION_SCHEMA.ROUTINES WHERE routine_name = 'tmp'")).toEqual([{ routine_definition: 'x + 100' }]);
    await q('DROP FUNCTION other.tmp');
    expect(await q("SELECT routine_name FROM other.INFORMATION_SCHEMA.ROUTINES WHERE routine_name = 'tmp'")).toEqual([]);
  });
});

describe('INFORMATION_SCHEMA.ROUTINE_OPTIONS', () => {
  it('one row per option: description as a STRING literal', async () => {
    const rows = await q('SELECT * FROM mydataset.INFORMATION_SCHEMA.ROUTINE_OPTIONS');
    expect(rows).toEqual([
      { specific_catalog: 'myproject', specific_schema: 'mydataset', specific_name: 'myroutine2', option_name: 'description', option_type: 'STRING', option_value: '"a description"' },
    ]);
  });
});

describe('INFORMATION_SCHEMA.PARAMETERS', () => {
  it('has the documented columns; the return value is ordinal 0 with is_result YES (documented example)', async () => {
    const rows = await q("SELECT * FROM mydataset.INFORMATION_SCHEMA.PARAMETERS WHERE specific_name = 'myroutine2' ORDER BY ordinal_position");
    expect(rows).toEqual([
      { specific_catalog: 'myproject', specific_schema: 'mydataset', specific_name: 'myroutine2', ordinal_position: 0, parameter_mode: null, is_result: 'YES', parameter_name: null, data_type: 'INT64', parameter_default: null, is_aggregate: null },
      { specific_catalog: 'myproject', specific_schema: 'mydataset', specific_name: 'myroutine2', ordinal_position: 1, parameter_mode: null, is_result: 'NO', parameter_name: 'x', data_type: 'INT64', parameter_default: null, is_aggregate: null },
    ]);
  });

  it('procedure parameters carry their mode; ANY TYPE parameters say so', async () => {
    expect(await q("SELECT ordinal_position, parameter_mode, parameter_name, data_type FROM mydataset.INFORMATION_SCHEMA.PARAMETERS WHERE specific_name = 'proc1' ORDER BY ordinal_position")).toEqual([
      { ordinal_position: 1, parameter_mode: 'IN', parameter_name: 'a', data_type: 'INT64' },
      { ordinal_position: 2, parameter_mode: 'OUT', parameter_name: 'b', data_type: 'STRING' },
    ]);
    expect(await q("SELECT specific_name, parameter_name, data_type FROM `region-us`.INFORMATION_SCHEMA.PARAMETERS WHERE specific_schema = 'other'")).toEqual([
      { specific_name: 'anyf', parameter_name: 'y', data_type: 'ANY TYPE' },
    ]);
  });
});

describe('INFORMATION_SCHEMA.JOBS / JOBS_BY_PROJECT', () => {
  it('one row per job with its query, type, state, statistics and referenced tables', async () => {
    await q('CREATE TABLE other.jt (a INT64)');
    await q('INSERT INTO other.jt VALUES (1), (2)');
    const [job] = await t.bq.createQueryJob({ query: 'SELECT SUM(a) AS s FROM other.jt', jobId: 'jobs_view_select', labels: { team: 'data' } });
    await job.getQueryResults();
    const [r] = await q("SELECT * FROM `region-us`.INFORMATION_SCHEMA.JOBS WHERE job_id = 'jobs_view_select'");
    expect(Object.keys(r).slice(0, 24)).toEqual([
      'creation_time', 'project_id', 'project_number', 'user_email', 'principal_subject', 'job_id', 'job_type', 'statement_type',
      'priority', 'start_time', 'end_time', 'query', 'state', 'reservation_id', 'total_bytes_processed', 'total_slot_ms',
      'error_result', 'cache_hit', 'destination_table', 'referenced_tables', 'labels', 'timeline', 'job_stages', 'total_bytes_billed',
    ]);
    expect(r).toMatchObject({
      project_id: 'myproject', job_id: 'jobs_view_select', job_type: 'QUERY', statement_type: 'SELECT', priority: 'INTERACTIVE',
      query: 'SELECT SUM(a) AS s FROM other.jt', state: 'DONE', error_result: null, cache_hit: false, parent_job_id: null,
      referenced_tables: [{ project_id: 'myproject', dataset_id: 'other', table_id: 'jt' }],
      labels: [{ key: 'team', value: 'data' }],
    });
    expect(typeof r.user_email).toBe('string');
    const [times] = await q("SELECT start_time >= creation_time AND end_time >= start_time AS ordered, total_bytes_processed >= 0 AS bytes FROM `region-us`.INFORMATION_SCHEMA.JOBS_BY_PROJECT WHERE job_id = 'jobs_view_select'");
    expect(times).toEqual({ ordered: true, bytes: true });
  });

  it('JOBS and JOBS_BY_PROJECT are synonyms; the project may be named', async () => {
    const a = await q("SELECT job_id FROM `region-us`.INFORMATION_SCHEMA.JOBS WHERE job_id = 'jobs_view_select'");
    const b = await q("SELECT job_id FROM `myproject`.`region-us`.INFORMATION_SCHEMA.JOBS_BY_PROJECT WHERE job_id = 'jobs_view_select'");
    expect(a).toEqual([{ job_id: 'jobs_view_select' }]);
    expect(b).toEqual(a);
  });

  it('a failed job has error_result (ErrorProto fields)', async () => {
    await errorOf(t.bq.createQueryJob({ query: "SELECT ERROR('boom') AS x", jobId: 'jobs_view_failed' }).then(([job]) => job.getQueryResults()));
    // The view's error_result is the job's status.errorResult (jobs.get).
    const [meta] = await t.bq.job('jobs_view_failed').getMetadata();
    const [r] = await q("SELECT state, error_result.reason AS reason, error_result.message AS message FROM `region-us`.INFORMATION_SCHEMA.JOBS WHERE job_id = 'jobs_view_failed'");
    expect(r).toEqual({ state: 'DONE', reason: meta.status.errorResult.reason, message: meta.status.errorResult.message });
    expect(r.message).toContain('boom');
  });

  it('a script job is statement_type SCRIPT; its child jobs point at it with parent_job_id', async () => {
    const [job] = await t.bq.createQueryJob({ query: 'SELECT 1 AS x; SELECT 2 AS y;', jobId: 'jobs_view_script' });
    await job.getQueryResults();
    expect(await q("SELECT statement_type, cache_hit FROM `region-us`.INFORMATION_SCHEMA.JOBS WHERE job_id = 'jobs_view_script'")).toEqual([{ statement_type: 'SCRIPT', cache_hit: null }]);
    expect(await q("SELECT statement_type, parent_job_id FROM `region-us`.INFORMATION_SCHEMA.JOBS WHERE parent_job_id = 'jobs_view_script'")).toEqual([
      { statement_type: 'SELECT', parent_job_id: 'jobs_view_script' },
      { statement_type: 'SELECT', parent_job_id: 'jobs_view_script' },
    ]);
  });

  it('a DML job has dml_statistics', async () => {
    const [job] = await t.bq.createQueryJob({ query: 'INSERT INTO other.jt VALUES (3), (4), (5)', jobId: 'jobs_view_dml' });
    await job.getQueryResults();
    expect(await q("SELECT statement_type, dml_statistics FROM `region-us`.INFORMATION_SCHEMA.JOBS WHERE job_id = 'jobs_view_dml'")).toEqual([
      { statement_type: 'INSERT', dml_statistics: { inserted_row_count: 3, deleted_row_count: 0, updated_row_count: 0 } },
    ]);
  });

  it('exists at region scope only: another region holds no jobs; a dataset qualifier is refused', async () => {
    expect(await q('SELECT COUNT(*) AS n FROM `region-eu`.INFORMATION_SCHEMA.JOBS')).toEqual([{ n: 0 }]);
    const e = await errorOf(q('SELECT job_id FROM mydataset.INFORMATION_SCHEMA.JOBS'));
    expect(e.errors?.[0]?.reason).toBe('invalidQuery');
    expect(e.message).toMatch(/region/);
  });
});
