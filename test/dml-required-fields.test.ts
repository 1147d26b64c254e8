/**
 * DML writing NULL to a REQUIRED (NOT NULL) column through the real client: the statement fails
 * with a client error (400, reason invalidQuery) naming the column — not DuckDB's
 * `NOT NULL constraint failed: t40.a`, which names the emulator's internal table — and the table
 * keeps its rows (a DML statement is atomic: https://cloud.google.com/bigquery/docs/data-manipulation-language).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('dml_required');
  await t.bq.query({ query: `CREATE TABLE dml_required.r (a INT64 NOT NULL, b STRING); INSERT dml_required.r (a, b) VALUES (1, 'x'), (2, 'y')` });
});
afterAll(async () => t?.emu.close());

describe('NULL into a REQUIRED column', () => {
  for (const [what, sql] of [
    ['INSERT', `INSERT dml_required.r (a, b) VALUES (3, 'z'), (NULL, 'w')`],
    ['UPDATE', `UPDATE dml_required.r SET a = NULL WHERE a = 2`],
    ['MERGE', `MERGE dml_required.r t USING (SELECT 1 AS k) s ON t.a = s.k WHEN MATCHED THEN UPDATE SET a = NULL`],
  ])
    it(`${what} fails naming the column, and changes nothing`, async () => {
      const e = await errorOf(t.bq.query({ query: sql }));
      expect(e.message).toMatch(/\ba\b/);
      expect(e.message).not.toMatch(/constraint|\bt\d+\./i);
      expect(e.errors?.[0]?.reason).toBe('invalidQuery');
      const [rows] = await t.bq.query({ query: 'SELECT a, b FROM dml_required.r ORDER BY a' });
      expect(rows).toEqual([{ a: 1, b: 'x' }, { a: 2, b: 'y' }]);
    });
});
