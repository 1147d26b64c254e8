/**
 * BigQuery's NULL order (NULLs first on ASC: query-syntax "ORDER BY clause",
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/query-syntax#order_by_clause) when
 * the lowering writes a NULLABLE column's window key NULLS LAST because DuckDB's statistics show
 * the column holds no NULL (src/engine/column-stats.ts): the answer stays BigQuery's once a NULL
 * is written, including by a write that lands while the query runs (the query runs again).
 * Through `@google-cloud/bigquery` against an in-process emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
/** SQL the engine read rows with, in order (the lowered queries). */
const lowered: string[] = [];

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('nos');
  // id is NULLABLE (CREATE TABLE AS SELECT), and holds no NULL yet.
  await q('CREATE TABLE nos.w AS SELECT id, MOD(id, 3) AS k FROM UNNEST(GENERATE_ARRAY(1, 30)) AS id');
  const db = t.emu.engine.db;
  const readChunks = db.readChunks.bind(db);
  db.readChunks = (sql, visit, restart) => (lowered.push(sql), readChunks(sql, visit, restart));
}, 60_000);

afterAll(async () => {
  await t?.emu.close();
});

async function q(query: string): Promise<Record<string, unknown>[]> {
  return (await t.bq.query({ query, useQueryCache: false }))[0] as Record<string, unknown>[];
}

const TOP2 = 'SELECT k, id, rn FROM (SELECT k, id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY id) AS rn FROM nos.w) WHERE rn <= 2 ORDER BY k, rn';
const rows = (r: Record<string, unknown>[]) => r.map((x) => [x.k, x.id, x.rn]);

describe('window keys known non-NULL from column statistics', () => {
  it('orders by the plain key while the column holds no NULL, and NULL first once it does', async () => {
    for (let i = 0; i < 3; i++) {
      expect(rows(await q(TOP2))).toEqual([[0, 3, 1], [0, 6, 2], [1, 1, 1], [1, 4, 2], [2, 2, 1], [2, 5, 2]]);
      // No NULL to place: the key is the column itself (DuckDB's grouped top-N), not a widened one.
      expect(lowered.at(-1)).toMatch(/ORDER BY c\d+ ASC NULLS LAST\) AS c\d+/);
    }
    await q('INSERT INTO nos.w (id, k) VALUES (NULL, 1)');
    expect(rows(await q(TOP2))).toEqual([[0, 3, 1], [0, 6, 2], [1, null, 1], [1, 1, 2], [2, 2, 1], [2, 5, 2]]);
    expect(lowered.at(-1)).not.toMatch(/ORDER BY c\d+ ASC NULLS LAST\) AS c\d+/);
  });

  it('runs the query again when a NULL is written while it runs', async () => {
    await q('CREATE TABLE nos.v AS SELECT id, MOD(id, 3) AS k FROM UNNEST(GENERATE_ARRAY(1, 30)) AS id');
    const sql = TOP2.replace('nos.w', 'nos.v');
    expect(rows(await q(sql))).toEqual([[0, 3, 1], [0, 6, 2], [1, 1, 1], [1, 4, 2], [2, 2, 1], [2, 5, 2]]);
    const db = t.emu.engine.db;
    const duckName = t.emu.engine.catalog.getTable(t.projectId, 'nos', 'v')!.duckName;
    const readChunks = db.readChunks;
    let armed = true;
    // A write lands after the query was lowered (with "id has no NULL") and before DuckDB runs it.
    db.readChunks = async (s, visit, restart) => {
      if (armed && s.includes(`"${duckName}"`)) {
        armed = false;
        await db.run(`INSERT INTO "${duckName}" (id, k) VALUES (NULL, 2)`);
      }
      return readChunks(s, visit, restart);
    };
    try {
      const n = lowered.length;
      expect(rows(await q(sql))).toEqual([[0, 3, 1], [0, 6, 2], [1, 1, 1], [1, 4, 2], [2, null, 1], [2, 2, 2]]);
      expect(armed).toBe(false);
      expect(lowered.length).toBe(n + 2);
    } finally {
      db.readChunks = readChunks;
    }
  });
});
