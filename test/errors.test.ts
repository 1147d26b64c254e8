/**
 * Errors: exact reason, HTTP status and message, through @google-cloud/bigquery and raw HTTP.
 *
 * Texts come from BigQuery answers recorded in conformance/fixtures (the recorded fixtures)
 * (fixture named at each assertion) or quoted in public reports (cited). Envelope shape:
 * docs/ARCHITECTURE.md §5 and Google's JSON error format (`{error:{code, message, errors:[{message,
 * domain, reason}], status}}`). A client mistake is never a 5xx: the clients retry 5xx for minutes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http, type RawResponse } from './helpers/http.js';

let t: TestEmulator;
let P: string;
const D = 'err_ds';

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'err-project' });
  P = t.projectId;
  await t.bq.createDataset(D);
  await t.bq.query({ query: `CREATE TABLE \`${D}.t\` (p STRING, a INT64, b INT64)` });
  await t.bq.query({ query: `INSERT INTO \`${D}.t\` (p, a, b) VALUES ('north', 1, 0), ('north', 2, 0), ('south', 10, 0)` });
});
afterAll(async () => {
  await t?.emu.close();
});

/** Runs a query with jobs.query and returns the error the client raised. */
const queryError = (sql: string) => errorOf(t.bq.query({ query: sql }));

/** Checks a raw error answer: status, envelope, reason. */
function envelope(r: RawResponse, status: number, reason: string): { message: string; errors: { reason: string; message: string; location?: string; domain: string }[] } {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(r.body.error.code).toBe(status);
  expect(r.body.error.errors[0].reason).toBe(reason);
  expect(r.body.error.errors[0].domain).toBe('global');
  expect(r.body.error.errors[0].message).toBe(r.body.error.message);
  return r.body.error;
}

describe('query errors (jobs.query)', () => {
  it('syntax error: 400 invalidQuery at location query (recorded error_syntax_invalid_keyword)', async () => {
    const e = await queryError('SLECT 1 AS n');
    expect(e.code).toBe(400);
    expect(e.errors?.[0]).toMatchObject({ reason: 'invalidQuery', location: 'query' });
    expect(e.message).toBe('Syntax error: Unexpected identifier "SLECT" at [1:1]');
  });

  it('syntax error positions are [line:column] of the offending token', async () => {
    const e = await queryError('SELECT 1\n  FROM FROM');
    expect(e.code).toBe(400);
    expect(e.errors?.[0]?.reason).toBe('invalidQuery');
    expect(e.message).toBe('Syntax error: Unexpected keyword FROM at [2:8]');
  });

  it('unknown name: "Unrecognized name: x at [1:8]"', async () => {
    const e = await queryError('SELECT x');
    expect(e.code).toBe(400);
    expect(e.errors?.[0]).toMatchObject({ reason: 'invalidQuery', location: 'query' });
    expect(e.message).toBe('Unrecognized name: x at [1:8]');
    const e2 = await queryError(`SELECT a, nope FROM \`${D}.t\``);
    expect(e2.message).toBe('Unrecognized name: nope at [1:11]');
  });

  it('unknown function: "Function not found: f at [1:8]" (recorded error_unqualified_routine_in_global_scope)', async () => {
    const e = await queryError('SELECT my_undefined_global_routine_xyz(1) AS r');
    expect(e.code).toBe(400);
    expect(e.errors?.[0]).toMatchObject({ reason: 'invalidQuery', location: 'query' });
    expect(e.message).toBe('Function not found: my_undefined_global_routine_xyz at [1:8]');
  });

  it('unknown table: 404 "Not found: Table p:d.t was not found in location US" (recorded error_table_not_found)', async () => {
    const e = await queryError(`SELECT * FROM \`${D}.t_does_not_exist_xyz\``);
    expect(e.code).toBe(404);
    expect(e.errors?.[0]?.reason).toBe('notFound');
    expect(e.message).toBe(`Not found: Table ${P}:${D}.t_does_not_exist_xyz was not found in location US`);
  });

  it('unknown dataset: 404 "Not found: Dataset p:d was not found in location US" (recorded error_dataset_not_found)', async () => {
    const e = await queryError(`SELECT * FROM \`${D}_no_such_sibling.any_table\``);
    expect(e.code).toBe(404);
    expect(e.errors?.[0]?.reason).toBe('notFound');
    expect(e.message).toBe(`Not found: Dataset ${P}:${D}_no_such_sibling was not found in location US`);
  });

  it('ALTER of a missing table: 404 (recorded error_alter_nonexistent_table)', async () => {
    const e = await queryError(`ALTER TABLE \`${D}.t_never_created\` ADD COLUMN x INT64`);
    expect(e.code).toBe(404);
    expect(e.errors?.[0]?.reason).toBe('notFound');
    expect(e.message).toBe(`Not found: Table ${P}:${D}.t_never_created was not found in location US`);
  });

  it('CREATE TABLE of an existing table: 409 duplicate (recorded error_create_table_already_exists)', async () => {
    await t.bq.query({ query: `CREATE TABLE \`${D}.t_dup\` (x INT64)` });
    const e = await queryError(`CREATE TABLE \`${D}.t_dup\` (x INT64)`);
    expect(e.code).toBe(409);
    expect(e.errors?.[0]?.reason).toBe('duplicate');
    expect(e.message).toBe(`Already Exists: Table ${P}:${D}.t_dup`);
  });

  it('division by zero: 400 invalidQuery "division by zero: 1 / 0" (recorded div_zero_*)', async () => {
    const e = await queryError('SELECT 1 / 0');
    expect(e.code).toBe(400);
    expect(e.errors?.[0]).toMatchObject({ reason: 'invalidQuery', location: 'query' });
    expect(e.message).toBe('division by zero: 1 / 0');
    // The operands are the runtime values (div_zero_select_column_zero: "division by zero: 10 / 0").
    const e2 = await queryError(`SELECT a / b AS quotient FROM \`${D}.t\` WHERE p = 'south'`);
    expect(e2.message).toBe('division by zero: 10 / 0');
  });

  it('a failed jobs.insert job shows the error in status.errorResult (HTTP 200), getQueryResults answers it', async () => {
    const r = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/jobs`, {
      jobReference: { jobId: 'err_job_1' },
      configuration: { query: { query: `SELECT * FROM \`${D}.missing_table\``, useLegacySql: false } },
    });
    expect(r.status).toBe(200);
    expect(r.body.status.state).toBe('DONE');
    expect(r.body.status.errorResult).toMatchObject({ reason: 'notFound', message: `Not found: Table ${P}:${D}.missing_table was not found in location US` });
    const g = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/queries/err_job_1`);
    const env = envelope(g, 404, 'notFound');
    expect(env.message).toBe(`Not found: Table ${P}:${D}.missing_table was not found in location US`);
  });
});

describe('REST resource errors', () => {
  it('missing dataset / table on get: 404 "Not found: Dataset p:d" / "Not found: Table p:d.t"', async () => {
    const ds = envelope(await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/nope_ds`), 404, 'notFound');
    expect(ds.message).toBe(`Not found: Dataset ${P}:nope_ds`);
    const tb = envelope(await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}/tables/nope_t`), 404, 'notFound');
    expect(tb.message).toBe(`Not found: Table ${P}:${D}.nope_t`);
    const td = envelope(await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}/tables/nope_t/data`), 404, 'notFound');
    expect(td.message).toBe(`Not found: Table ${P}:${D}.nope_t`);
  });

  it('existing dataset / table on insert: 409 duplicate "Already Exists: …"', async () => {
    const ds = envelope(await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/datasets`, { datasetReference: { projectId: P, datasetId: D } }), 409, 'duplicate');
    expect(ds.message).toBe(`Already Exists: Dataset ${P}:${D}`);
    const tb = envelope(
      await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/datasets/${D}/tables`, { tableReference: { projectId: P, datasetId: D, tableId: 't' }, schema: { fields: [{ name: 'x', type: 'INTEGER' }] } }),
      409,
      'duplicate',
    );
    expect(tb.message).toBe(`Already Exists: Table ${P}:${D}.t`);
  });

  it('malformed JSON body: 400 invalid "Invalid JSON payload received. …"', async () => {
    // Google APIs answer a body that is not JSON with 400 INVALID_ARGUMENT, "Invalid JSON payload
    // received. …", reason invalid (google-wallet/rest-samples#22, googlecodelabs/feedback#441).
    for (const path of [`/bigquery/v2/projects/${P}/datasets`, `/bigquery/v2/projects/${P}/queries`, `/bigquery/v2/projects/${P}/datasets/${D}/tables/t/insertAll`]) {
      const r = await http(t.emu.url, 'POST', path, '{"datasetReference": {', { 'content-type': 'application/json' });
      const env = envelope(r, 400, 'invalid');
      expect(env.message.startsWith('Invalid JSON payload received.')).toBe(true);
      expect(r.body.error.status).toBe('INVALID_ARGUMENT');
    }
  });

  it('missing required fields: 400 invalid naming the field', async () => {
    const cases: [string, string, unknown, string][] = [
      ['POST', `/bigquery/v2/projects/${P}/datasets`, {}, 'datasetId'],
      ['POST', `/bigquery/v2/projects/${P}/datasets/${D}/tables`, { schema: { fields: [] } }, 'tableId'],
      ['POST', `/bigquery/v2/projects/${P}/queries`, { useLegacySql: false }, 'query'],
      ['POST', `/bigquery/v2/projects/${P}/jobs`, { configuration: {} }, 'query'],
    ];
    for (const [method, path, body, field] of cases) {
      const env = envelope(await http(t.emu.url, method, path, body), 400, 'invalid');
      expect(env.message, path).toContain(field);
    }
  });
});

describe('no client mistake answers 5xx', () => {
  it('every malformed request gets a 4xx error envelope', async () => {
    const base = `/bigquery/v2/projects/${P}`;
    const cases: [string, string, unknown?][] = [
      ['GET', `${base}/datasets?maxResults=abc`],
      ['GET', `${base}/datasets?maxResults=-1`],
      ['GET', `${base}/datasets/${D}/tables/t/data?startIndex=xyz`],
      ['GET', `${base}/datasets/${D}/tables/t/data?maxResults=1.5`],
      ['GET', `${base}/queries/no_such_job`],
      ['GET', `${base}/jobs/no_such_job`],
      ['POST', `${base}/jobs/no_such_job/cancel`],
      ['DELETE', `${base}/jobs/no_such_job/delete`],
      ['GET', `${base}/no_such_resource`],
      ['GET', '/totally/unknown/path'],
      ['POST', `${base}/datasets`, '[1, 2, 3]'],
      ['POST', `${base}/datasets`, '"just a string"'],
      ['POST', `${base}/datasets`, { datasetReference: { datasetId: 'has-dash and space' } }],
      ['POST', `${base}/datasets/${D}/tables`, { tableReference: { tableId: 'bad_type' }, schema: { fields: [{ name: 'x', type: 'NOT_A_TYPE' }] } }],
      ['POST', `${base}/datasets/${D}/tables`, { tableReference: { tableId: 'no_type' }, schema: { fields: [{ name: 'x' }] } }],
      ['POST', `${base}/datasets/${D}/tables`, { tableReference: { tableId: 'empty_rec' }, schema: { fields: [{ name: 'r', type: 'RECORD' }] } }],
      ['POST', `${base}/datasets/${D}/tables`, { tableReference: { tableId: 'dup_cols' }, schema: { fields: [{ name: 'x', type: 'INTEGER' }, { name: 'X', type: 'STRING' }] } }],
      ['POST', `${base}/datasets/${D}/tables`, { tableReference: { tableId: 'bad_view' }, view: { query: 'SELEC 1' } }],
      ['POST', `${base}/datasets/${D}/tables/t/insertAll`, { rows: 'not an array' }],
      ['POST', `${base}/datasets/${D}/tables/t/insertAll`, { rows: [] }],
      ['POST', `${base}/queries`, { query: 12345 }],
      ['POST', `${base}/queries`, { query: 'SELECT @x', queryParameters: [{ name: 'x', parameterType: { type: 'NOT_A_TYPE' }, parameterValue: { value: '1' } }] }],
      ['POST', `${base}/queries`, { query: 'SELECT @x', queryParameters: [{ name: 'x', parameterType: { type: 'INT64' }, parameterValue: { value: 'abc' } }] }],
      ['POST', `${base}/queries`, { query: 'SELECT @x', useLegacySql: false }],
      ['POST', `${base}/queries`, { query: 'SELECT 1', useLegacySql: true }],
      ['POST', `${base}/queries`, { query: '' }],
      ['PATCH', `${base}/datasets/${D}/tables/t`, { schema: { fields: [{ name: 'p', type: 'STRING' }] } }],
      ['PATCH', `${base}/datasets/nope_ds`, { description: 'x' }],
      ['PUT', `${base}/datasets/${D}/tables/nope_t`, { description: 'x' }],
      ['DELETE', `${base}/datasets/nope_ds`],
    ];
    const failures: string[] = [];
    for (const [method, path, body] of cases) {
      const r = await http(t.emu.url, method, path, body);
      if (r.status < 400 || r.status >= 500 || !r.body?.error?.errors?.[0]?.reason) failures.push(`${method} ${path} ${JSON.stringify(body) ?? ''} → ${r.status} ${r.text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it('mistakes reported in-band answer 200 with the error in the body, never 5xx', async () => {
    const base = `/bigquery/v2/projects/${P}`;
    // insertAll: per-row insertErrors (tabledata.insertAll response); jobs.insert: the job fails
    // with status.errorResult (JobStatus in the discovery document).
    const rows = await http(t.emu.url, 'POST', `${base}/datasets/${D}/tables/t/insertAll`, { rows: [{ json: { a: { nested: 1 } } }, { json: { zzz: 1 } }] });
    expect(rows.status).toBe(200);
    expect(rows.body.insertErrors.map((e: { errors: { reason: string }[] }) => e.errors[0].reason).sort()).toEqual(['invalid', 'invalid']);
    const job = await http(t.emu.url, 'POST', `${base}/jobs`, {
      configuration: { query: { query: 'SELECT 1 AS x', useLegacySql: false, destinationTable: { projectId: P, datasetId: 'no_such_ds', tableId: 'x' } } },
    });
    expect(job.status).toBe(200);
    expect(job.body.status.errorResult.reason).toBe('notFound');
    expect(job.body.status.errorResult.message.startsWith(`Not found: Dataset ${P}:no_such_ds`)).toBe(true);
  });
});
