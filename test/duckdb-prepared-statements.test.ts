/**
 * Kept prepared statements (src/engine/duckdb/prepared-statements.ts) after a write: DuckDB plans a
 * prepared statement with the tables' statistics of its preparation and does not re-plan it when
 * rows change, so a kept plan over stale statistics answered wrong rows — an INT64 appended beyond
 * the range seen at preparation read back as 256 through ORDER BY (compressed materialization),
 * and a filter beyond that range still counted 0 (statistics propagation). The same query text run
 * again after insertAll must see the new rows exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('ps');
  await t.bq.query({ query: 'CREATE TABLE ps.t (id INT64)' });
}, 60_000);

afterAll(async () => {
  await t?.emu.close();
});

describe('a repeated query after a write', () => {
  it('reads values beyond the range the kept plan saw, and filters on them', async () => {
    const q = async (sql: string) => (await t.bq.query({ query: sql }))[0] as Record<string, unknown>[];
    await t.bq.dataset('ps').table('t').insert([1, 2, 3, 4].map((id) => ({ id })));
    const sorted = 'SELECT id FROM ps.t ORDER BY id';
    const filtered = 'SELECT COUNT(*) AS n FROM ps.t WHERE id > 10';
    // Run twice so the statements are prepared and kept.
    for (let i = 0; i < 2; i++) {
      expect((await q(sorted)).map((r) => Number(r.id))).toEqual([1, 2, 3, 4]);
      expect(await q(filtered)).toEqual([{ n: 0 }]);
    }
    await t.bq.dataset('ps').table('t').insert([{ id: 100000000000 }]);
    expect((await q(sorted)).map((r) => Number(r.id))).toEqual([1, 2, 3, 4, 100000000000]);
    expect(await q(filtered)).toEqual([{ n: 1 }]);
  });
});
