/**
 * ALTER SCHEMA … SET OPTIONS through @google-cloud/bigquery: the dataset's metadata (datasets.get)
 * changes as the BigQuery DDL reference describes (alter_schema_set_options_statement); NULL
 * clears an option; IF EXISTS skips a missing dataset; a missing one is BigQuery's 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t.emu.close());

describe('ALTER SCHEMA SET OPTIONS', () => {
  it('sets description, friendly_name, labels and default table expiration', async () => {
    await t.bq.query('CREATE SCHEMA alt_a');
    const [job] = await t.bq.createQueryJob({
      query: `ALTER SCHEMA alt_a SET OPTIONS (description = 'desc', friendly_name = 'Friendly', labels = [('team', 'x'), ('env', 'dev')], default_table_expiration_days = 3.75)`,
    });
    await job.getQueryResults();
    const [meta] = await job.getMetadata();
    expect(meta.statistics.query.statementType).toBe('ALTER_SCHEMA');
    const [ds] = await t.bq.dataset('alt_a').getMetadata();
    expect(ds.description).toBe('desc');
    expect(ds.friendlyName).toBe('Friendly');
    expect(ds.labels).toEqual({ team: 'x', env: 'dev' });
    // 3.75 days in ms (the DDL reference's own example value).
    expect(ds.defaultTableExpirationMs).toBe(String(3.75 * 24 * 3600 * 1000));
  });

  it('clears an option set to NULL', async () => {
    await t.bq.query(`CREATE SCHEMA alt_b OPTIONS (description = 'gone soon')`);
    await t.bq.query('ALTER SCHEMA alt_b SET OPTIONS (description = NULL)');
    const [ds] = await t.bq.dataset('alt_b').getMetadata();
    expect(ds.description).toBeUndefined();
  });

  it('skips a missing dataset with IF EXISTS and answers 404 without it', async () => {
    await t.bq.query(`ALTER SCHEMA IF EXISTS alt_missing SET OPTIONS (description = 'x')`);
    const err = await errorOf(t.bq.query(`ALTER SCHEMA alt_missing SET OPTIONS (description = 'x')`));
    expect(err.code).toBe(404);
    expect(err.message).toMatch(/^Not found: Dataset test-project:alt_missing/);
  });
});
