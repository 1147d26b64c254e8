/**
 * docs/ARCHITECTURE.md §7: details the official Node client's own system tests depend on
 * (googleapis/nodejs-bigquery system-test/bigquery.ts), each through @google-cloud/bigquery:
 * `queryId` in jobs.query answers (QueryResponse.queryId), 412 on a stale etag ("should error out
 * for bad etags": /precondition/i), `view=BASIC` on tables.get ("does not include storage
 * statistics such as numRows"), numeric schema settings returned as strings (TableFieldSchema
 * maxLength / precision / scale are int64, which REST writes as strings), insertAll type errors in
 * BigQuery's wording ("should return partial errors").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const D = 'sys_ds';

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'sys-project' });
  await t.bq.createDataset(D);
});
afterAll(async () => {
  await t?.emu.close();
});

describe('official client system-test details', () => {
  it('jobs.query answers carry queryId', async () => {
    const [rows, , response] = (await t.bq.query({ query: 'SELECT 1 AS x' })) as unknown as [unknown[], unknown, { queryId?: string; jobReference?: { jobId: string } }];
    expect(rows).toEqual([{ x: 1 }]);
    expect(typeof response.queryId).toBe('string');
    expect(response.queryId).toBe(response.jobReference?.jobId);
  });

  it('datasets and tables use etags for locking; a stale etag is 412 precondition', async () => {
    const ds = t.bq.dataset(D);
    await ds.getMetadata();
    const etag = ds.metadata.etag;
    await ds.setMetadata({ etag, description: 'another description' });
    expect(ds.metadata.etag).not.toBe(etag);
    const e = await errorOf(ds.setMetadata({ etag: 'a-fake-etag', description: 'oh no!' }));
    expect(e.code).toBe(412);
    expect(e.message).toMatch(/precondition/i);
    const [table] = await ds.createTable('locked', { schema: 'id:INTEGER' });
    const te = await errorOf(table.setMetadata({ etag: 'a-fake-etag', description: 'oh no!' }));
    expect(te.code).toBe(412);
    expect(te.message).toMatch(/precondition/i);
  });

  it('tables.get with view=BASIC leaves storage statistics out', async () => {
    const [table] = await t.bq.dataset(D).createTable('basic_view', { schema: 'id:INTEGER' });
    const [full] = await table.getMetadata();
    expect(full.numRows).toBe('0');
    const [basic] = await table.get({ view: 'BASIC' } as never);
    expect(basic.metadata.numRows).toBeUndefined();
    expect(basic.metadata.numBytes).toBeUndefined();
  });

  it('insertAll type errors use BigQuery wording; the other rows are stopped', async () => {
    const [table] = await t.bq.dataset(D).createTable('kittens', { schema: 'id:INTEGER,name:STRING' });
    const data = { name: 'dave' };
    const improperData = { name: true };
    const e = (await errorOf(table.insert([data, improperData]))) as unknown as { name: string; errors: unknown[] };
    expect(e.name).toBe('PartialFailureError');
    expect(e.errors[0]).toEqual({ errors: [{ message: 'Conversion from bool to std::string is unsupported.', reason: 'invalid' }], row: improperData });
    expect(e.errors[1]).toEqual({ errors: [{ message: '', reason: 'stopped' }], row: data });
  });

  // nodejs-bigquery system test "should create a table with a nested schema": no mode is added.
  it('a table created with a nested schema answers that schema unchanged', async () => {
    const schema = { fields: [{ name: 'id', type: 'INTEGER' }, { name: 'details', type: 'RECORD', fields: [{ name: 'nested_id', type: 'INTEGER' }] }] };
    const [table] = await t.bq.dataset(D).createTable('nested', { schema });
    const [metadata] = await table.getMetadata();
    expect(metadata.schema).toEqual(schema);
  });

  it('numeric schema settings (maxLength, precision, scale) are answered as strings', async () => {
    const schema = { fields: [{ name: 's', type: 'STRING', maxLength: '10' }, { name: 'n', type: 'NUMERIC', precision: '10', scale: '2' }] };
    const [table] = await t.bq.dataset(D).createTable('params', { schema });
    const [metadata] = await table.getMetadata();
    expect(metadata.schema.fields[0]).toMatchObject({ name: 's', type: 'STRING', maxLength: '10' });
    expect(metadata.schema.fields[1]).toMatchObject({ name: 'n', type: 'NUMERIC', precision: '10', scale: '2' });
  });
});
