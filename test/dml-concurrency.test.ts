/**
 * Concurrent DML: 16 clients running DML on one table at once end with exact counts and no
 * error (BigQuery queues DML on a table; it never fails a job with a storage conflict).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('conc');
  await t.bq.query('CREATE TABLE conc.counter (client INT64, n INT64)');
});
afterAll(async () => t?.emu.close());

describe('concurrent DML on one table', () => {
  it('16 clients × (INSERT, UPDATE, INSERT, DELETE, MERGE) end with exact counts', async () => {
    const clients = Array.from({ length: 16 }, () => new BigQuery({ projectId: t.projectId, apiEndpoint: t.emu.url, authClient: new PassThroughClient() as never }));
    await Promise.all(
      clients.map(async (bq, i) => {
        await bq.query(`INSERT INTO conc.counter VALUES (${i}, 1)`);
        await bq.query(`UPDATE conc.counter SET n = n + 1 WHERE client = ${i}`);
        await bq.query(`INSERT INTO conc.counter VALUES (${i}, 100)`);
        await bq.query(`DELETE FROM conc.counter WHERE client = ${i} AND n = 100`);
        await bq.query(`MERGE conc.counter T USING (SELECT ${i} AS client) S ON T.client = S.client WHEN MATCHED THEN UPDATE SET n = n * 10`);
      }),
    );
    const [rows] = await t.bq.query({ query: 'SELECT COUNT(*) AS c, SUM(n) AS s, COUNT(DISTINCT client) AS k FROM conc.counter', wrapIntegers: false });
    // Each client leaves one row with n = (1 + 1) × 10.
    expect(rows).toEqual([{ c: 16, s: 16 * 20, k: 16 }]);
  }, 120_000);
});
