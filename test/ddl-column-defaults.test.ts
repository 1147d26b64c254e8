/**
 * Column DEFAULTs set after CREATE TABLE, through @google-cloud/bigquery: ALTER TABLE ADD COLUMN …
 * DEFAULT, ALTER COLUMN SET DEFAULT and DROP DEFAULT (BigQuery's "Specify default column values",
 * https://cloud.google.com/bigquery/docs/default-values: a default is written to new rows that
 * leave the column out; rows already in the table keep NULL in an added column; the schema's
 * `defaultValueExpression` shows the expression).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('col_defaults');
});
afterAll(async () => t?.emu.close());

describe('column defaults set by ALTER TABLE', () => {
  it('ADD COLUMN … DEFAULT fills rows written later; SET DEFAULT replaces it; DROP DEFAULT removes it', async () => {
    const q = (query: string) => t.bq.query({ query });
    await q(`CREATE TABLE col_defaults.simple_table (a STRING); INSERT col_defaults.simple_table (a) VALUES ('val1')`);
    await q(`ALTER TABLE col_defaults.simple_table ADD COLUMN b STRING DEFAULT 'hello'`);
    await q(`INSERT col_defaults.simple_table (a) VALUES ('val2')`);
    const [meta] = await t.bq.dataset('col_defaults').table('simple_table').getMetadata();
    expect(meta.schema.fields.find((f: { name: string }) => f.name === 'b').defaultValueExpression).toBe("'hello'");
    await q(`ALTER TABLE col_defaults.simple_table ALTER COLUMN b SET DEFAULT 'goodbye'`);
    await q(`INSERT col_defaults.simple_table (a) VALUES ('val3')`);
    await q(`ALTER TABLE col_defaults.simple_table ALTER COLUMN b DROP DEFAULT`);
    await q(`INSERT col_defaults.simple_table (a) VALUES ('val4')`);
    const [after] = await t.bq.dataset('col_defaults').table('simple_table').getMetadata();
    expect(after.schema.fields.find((f: { name: string }) => f.name === 'b').defaultValueExpression).toBeUndefined();
    const [rows] = await q(`SELECT a, b FROM col_defaults.simple_table ORDER BY a`);
    expect(rows).toEqual([
      { a: 'val1', b: null },
      { a: 'val2', b: 'hello' },
      { a: 'val3', b: 'goodbye' },
      { a: 'val4', b: null },
    ]);
  });
});
