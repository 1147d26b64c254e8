/**
 * Datasets named like a builtin function namespace (`net`, `keys`, `aead`, `hll_count`) through
 * @google-cloud/bigquery: their tables are created, written and read like any other (BigQuery
 * dataset names allow letters, digits and underscores:
 * https://cloud.google.com/bigquery/docs/datasets#dataset-naming). Before, the analyzer process
 * aborted on the statement's catalog (a `net` sub-catalog next to the NET.* functions' own) and the
 * query failed after its retries. A statement that does not read such a dataset keeps the
 * namespace's functions (NET.HOST's documented example: `NET.HOST('http://abc.xyz')` = 'abc.xyz').
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const rows = async (query: string) => (await t.bq.query({ query }))[0];

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('datasets named like function namespaces', () => {
  for (const ds of ['net', 'keys', 'aead', 'hll_count'])
    it(`dataset ${ds}: CREATE TABLE, INSERT and SELECT`, async () => {
      await t.bq.createDataset(ds);
      await rows(`CREATE TABLE ${ds}.events (id INT64, what STRING); INSERT ${ds}.events VALUES (1, 'a'), (2, 'b')`);
      expect(await rows(`SELECT id, what FROM ${ds}.events ORDER BY id`)).toEqual([
        { id: 1, what: 'a' },
        { id: 2, what: 'b' },
      ]);
    }, 60_000);

  it('the namespace functions still answer in statements that do not read such a dataset', async () => {
    expect(await rows(`SELECT NET.HOST('http://abc.xyz') AS h`)).toEqual([{ h: 'abc.xyz' }]);
  });
});
