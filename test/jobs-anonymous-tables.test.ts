/**
 * Query results kept in anonymous destination tables, through @google-cloud/bigquery.
 *
 * BigQuery ("Writing query results"): a query without a destination writes its result to a
 * temporary cached results table in a hidden dataset (its id starts with `_`; the table's with
 * `anon`), kept about 24 hours; jobs.get shows it in `configuration.query.destinationTable` with
 * `writeDisposition` (recorded http/jobs/job_get_complete, job_insert_returns_job_resource,
 * job_cancel). tables.get and tabledata.list read it like any table; once the result is gone the
 * table is BigQuery's 404 `Not found: Table p:d.t`. DML and DDL jobs have no destination table
 * (JobConfigurationQuery.destinationTable is set for queries only).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';

let t: TestEmulator;
let small: TestEmulator;
const D = 'anon_ds';
const QUERY = "SELECT n, CONCAT('v', CAST(n AS STRING)) AS s FROM UNNEST(GENERATE_ARRAY(1, 5)) AS n ORDER BY n";

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'anon-project' });
  // Keeps the rows of one finished job only: older results expire.
  small = await startTestEmulator({ projectId: 'anon-small', resultLimits: { maxJobs: 1 } });
  await t.bq.createDataset(D);
  await t.bq.query({ query: `CREATE TABLE \`${D}.t\` (x INT64)` });
});
afterAll(async () => {
  await t?.emu.close();
  await small?.emu.close();
});

/** Runs a query job to completion and answers its configuration.query. */
async function finishedQuery(e: TestEmulator, query: string): Promise<Record<string, any>> {
  const [job] = await e.bq.createQueryJob({ query });
  await job.getQueryResults();
  const [meta] = await job.getMetadata();
  return meta.configuration.query;
}

describe('anonymous destination tables', () => {
  it('a query job names its hidden result table in configuration.query', async () => {
    const q = await finishedQuery(t, QUERY);
    expect(q.destinationTable.projectId).toBe(t.projectId);
    expect(q.destinationTable.datasetId).toMatch(/^_\w+$/);
    expect(q.destinationTable.tableId).toMatch(/^anon\w+$/);
    expect(q.writeDisposition).toBe('WRITE_TRUNCATE');
    // Every job has its own table; the hidden dataset is the project's.
    const other = await finishedQuery(t, 'SELECT 1 AS x');
    expect(other.destinationTable.datasetId).toBe(q.destinationTable.datasetId);
    expect(other.destinationTable.tableId).not.toBe(q.destinationTable.tableId);
  });

  it('tabledata.list and tables.get on the anonymous table answer the job result', async () => {
    const { destinationTable: dt } = await finishedQuery(t, QUERY);
    const table = t.bq.dataset(dt.datasetId).table(dt.tableId);
    const [rows] = await table.getRows();
    expect(rows).toEqual([1, 2, 3, 4, 5].map((n) => ({ n, s: `v${n}` })));
    const [page] = await table.getRows({ startIndex: '3', maxResults: 1, autoPaginate: false } as never);
    expect(page).toEqual([{ n: 4, s: 'v4' }]);
    const [only] = await table.getRows({ selectedFields: 's' } as never);
    expect(only).toEqual([1, 2, 3, 4, 5].map((n) => ({ s: `v${n}` })));
    const [meta] = await table.getMetadata();
    expect(meta.tableReference).toEqual(dt);
    expect(meta.type).toBe('TABLE');
    expect(meta.numRows).toBe('5');
    expect(meta.schema.fields.map((f: { name: string; type: string }) => [f.name, f.type])).toEqual([
      ['n', 'INTEGER'],
      ['s', 'STRING'],
    ]);
    // The results table lives about 24 hours (BigQuery "Writing query results").
    expect(Number(meta.expirationTime) - Number(meta.creationTime)).toBe(24 * 60 * 60 * 1000);
  });

  it('an empty result is an anonymous table without rows', async () => {
    const { destinationTable: dt } = await finishedQuery(t, 'SELECT 1 AS x FROM UNNEST([1]) WHERE FALSE');
    const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${dt.projectId}/datasets/${dt.datasetId}/tables/${dt.tableId}/data`);
    expect(r.status).toBe(200);
    // Recorded tabledata_list_empty_table: no `rows` key on an empty table.
    expect(r.body).toEqual({ kind: 'bigquery#tableDataList', etag: expect.any(String), totalRows: '0' });
  });

  it('DML, DDL and jobs with their own destination have no anonymous table', async () => {
    expect((await finishedQuery(t, `INSERT INTO \`${D}.t\` (x) VALUES (1)`)).destinationTable).toBeUndefined();
    expect((await finishedQuery(t, `CREATE TABLE \`${D}.t2\` (y STRING)`)).destinationTable).toBeUndefined();
    const [job] = await t.bq.createQueryJob({ query: 'SELECT 2 AS y', destination: t.bq.dataset(D).table('dest') });
    await job.getQueryResults();
    const [meta] = await job.getMetadata();
    expect(meta.configuration.query.destinationTable).toEqual({ projectId: t.projectId, datasetId: D, tableId: 'dest' });
  });

  it('an unknown anonymous table is 404 Not found: Table', async () => {
    const { destinationTable: dt } = await finishedQuery(t, 'SELECT 1 AS x');
    const e = await errorOf(t.bq.dataset(dt.datasetId).table('anon0000').getMetadata());
    expect(e.code).toBe(404);
    expect(e.message).toBe(`Not found: Table ${t.projectId}:${dt.datasetId}.anon0000 was not found in location US`);
  });

  it('once the result is no longer kept, its anonymous table is 404', async () => {
    const first = await finishedQuery(small, QUERY);
    await finishedQuery(small, 'SELECT 2 AS y');
    const dt = first.destinationTable;
    const table = small.bq.dataset(dt.datasetId).table(dt.tableId);
    const e = await errorOf(table.getRows());
    expect(e.code).toBe(404);
    expect(e.message).toBe(`Not found: Table ${dt.projectId}:${dt.datasetId}.${dt.tableId} was not found in location US`);
    expect((await errorOf(table.getMetadata())).code).toBe(404);
  });
});
