/**
 * Query job configuration (JobConfigurationQuery,
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/Job#JobConfigurationQuery) through
 * @google-cloud/bigquery: dryRun (schema of INSERT
 * targets and CREATE TABLE; an erroring dry run reports location `q`), schemaUpdateOptions
 * (ALLOW_FIELD_ADDITION / ALLOW_FIELD_RELAXATION on append; rejected with a whole-table
 * WRITE_TRUNCATE; relaxation without the option rejected) and destination timePartitioning /
 * clusteringFields validated against the result schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const D = 'qcfg_ds';

/** Runs a query job to completion; answers its rows. */
async function run(opts: Record<string, unknown>): Promise<unknown[]> {
  const [job] = await t.bq.createQueryJob(opts as never);
  const [rows] = await job.getQueryResults();
  return rows;
}
async function fields(table: string): Promise<{ name: string; type: string; mode?: string }[]> {
  const [m] = await t.bq.dataset(D).table(table).getMetadata();
  return m.schema.fields.map((f: Record<string, string>) => ({ name: f.name, type: f.type, mode: f.mode }));
}

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'qcfg-project' });
  await t.bq.createDataset(D);
});
afterAll(async () => {
  await t?.emu.close();
});

describe('dryRun', () => {
  it('an INSERT dry run answers the target schema and writes nothing', async () => {
    await t.bq.query({ query: `CREATE TABLE ${D}.dry (id INT64, label STRING); INSERT INTO ${D}.dry VALUES (1, 'a')` });
    const [job] = await t.bq.createQueryJob({ query: `INSERT INTO ${D}.dry (id, label) VALUES (2, 'b')`, dryRun: true });
    const schema = job.metadata.statistics.query.schema.fields.map((f: Record<string, string>) => [f.name, f.type]);
    expect(schema).toEqual([['id', 'INTEGER'], ['label', 'STRING']]);
    const [rows] = await t.bq.query({ query: `SELECT COUNT(*) AS n FROM ${D}.dry` });
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('a CREATE TABLE AS SELECT dry run answers the schema and creates nothing', async () => {
    const [job] = await t.bq.createQueryJob({ query: `CREATE TABLE ${D}.never AS SELECT 1 AS a, 'x' AS b`, dryRun: true });
    expect(job.metadata.statistics.query.schema.fields.map((f: Record<string, string>) => f.name)).toEqual(['a', 'b']);
    const [exists] = await t.bq.dataset(D).table('never').exists();
    expect(exists).toBe(false);
  });

  it('an erroring dry run reports location q and keeps the identifier as written', async () => {
    const e = await errorOf(t.bq.createQueryJob({ query: 'SELECT BQEMU_NONEXISTENT_FUNCTION(1) AS x', dryRun: true }));
    expect(e.errors?.[0]?.reason).toBe('invalidQuery');
    expect(e.errors?.[0]?.location).toBe('q');
    expect(e.message).toMatch(/^Function not found: BQEMU_NONEXISTENT_FUNCTION at \[1:8\]/);
  });
});

describe('schemaUpdateOptions', () => {
  it('ALLOW_FIELD_ADDITION on WRITE_APPEND adds the new column', async () => {
    await t.bq.query({ query: `CREATE TABLE ${D}.add_t (a INT64, b STRING); INSERT INTO ${D}.add_t VALUES (1, 'seed')` });
    const rows = await run({
      query: "SELECT 2 AS a, 'second' AS b, FALSE AS c",
      destination: t.bq.dataset(D).table('add_t'),
      writeDisposition: 'WRITE_APPEND',
      schemaUpdateOptions: ['ALLOW_FIELD_ADDITION'],
    });
    expect(rows).toEqual([{ a: 1, b: 'seed', c: null }, { a: 2, b: 'second', c: false }]);
    // DDL columns answer without `mode` (recorded http/jobs/tables_get_basic); the appended one with it.
    expect(await fields('add_t')).toEqual([
      { name: 'a', type: 'INTEGER', mode: undefined },
      { name: 'b', type: 'STRING', mode: undefined },
      { name: 'c', type: 'BOOLEAN', mode: 'NULLABLE' },
    ]);
  });

  it('a new column without ALLOW_FIELD_ADDITION is rejected', async () => {
    await t.bq.query({ query: `CREATE TABLE ${D}.noadd (a INT64)` });
    const e = await errorOf(run({ query: 'SELECT 1 AS a, 2 AS extra', destination: t.bq.dataset(D).table('noadd'), writeDisposition: 'WRITE_APPEND' }));
    expect(e.errors?.[0]?.reason).toBe('invalid');
    expect(e.message).toMatch(/^Provided Schema does not match Table qcfg-project:qcfg_ds\.noadd\. Cannot add fields \(field: extra\)/);
  });

  it('the options with a whole-table WRITE_TRUNCATE are rejected', async () => {
    await t.bq.query({ query: `CREATE TABLE ${D}.trunc (a INT64)` });
    const e = await errorOf(
      run({ query: 'SELECT 1 AS a, TRUE AS c', destination: t.bq.dataset(D).table('trunc'), writeDisposition: 'WRITE_TRUNCATE', schemaUpdateOptions: ['ALLOW_FIELD_ADDITION'] }),
    );
    expect(e.errors?.[0]?.reason).toBe('invalid');
    expect(e.message).toBe('Schema update options should only be specified with WRITE_APPEND disposition, or with WRITE_TRUNCATE disposition on a table partition.');
  });

  it('relaxing a REQUIRED column needs ALLOW_FIELD_RELAXATION', async () => {
    await t.bq.query({ query: `CREATE TABLE ${D}.req (id INT64 NOT NULL, label STRING)` });
    const q = { query: "SELECT CAST(NULL AS INT64) AS id, 'relaxed' AS label", destination: t.bq.dataset(D).table('req'), writeDisposition: 'WRITE_APPEND' };
    const e = await errorOf(run(q));
    expect(e.errors?.[0]?.reason).toBe('invalid');
    expect(e.message).toMatch(/^Provided Schema does not match Table qcfg-project:qcfg_ds\.req\. Field id has changed mode from REQUIRED to NULLABLE/);
    expect((await fields('req'))[0].mode).toBe('REQUIRED');
    const rows = await run({ ...q, schemaUpdateOptions: ['ALLOW_FIELD_RELAXATION'] });
    expect(rows).toEqual([{ id: null, label: 'relaxed' }]);
    expect((await fields('req'))[0].mode).toBe('NULLABLE');
  });
});

describe('destination partitioning and clustering', () => {
  it('rejects a partitioning field missing from the result', async () => {
    const e = await errorOf(run({ query: "SELECT 1 AS id, 'x' AS label", destination: t.bq.dataset(D).table('p_bad'), timePartitioning: { type: 'DAY', field: 'nonexistent_field' } }));
    expect(e.errors?.[0]?.reason).toBe('invalid');
    expect(e.message).toBe('The field specified for partitioning cannot be found in the schema.');
  });

  it('rejects a clustering field missing from the result', async () => {
    const e = await errorOf(run({ query: "SELECT 1 AS id, 'x' AS label", destination: t.bq.dataset(D).table('c_bad'), clusteringFields: ['nonexistent_column'] }));
    expect(e.errors?.[0]?.reason).toBe('invalid');
    expect(e.message).toBe('The field specified for clustering cannot be found in the schema. Invalid field: nonexistent_column');
  });

  it('applies valid partitioning and clustering to the created table', async () => {
    await run({
      query: "SELECT DATE '2024-01-01' AS d, 'x' AS label",
      destination: t.bq.dataset(D).table('p_ok'),
      timePartitioning: { type: 'DAY', field: 'd' },
      clusteringFields: ['label'],
    });
    const [m] = await t.bq.dataset(D).table('p_ok').getMetadata();
    expect(m.timePartitioning).toMatchObject({ type: 'DAY', field: 'd' });
    expect(m.clustering).toEqual({ fields: ['label'] });
  });
});
