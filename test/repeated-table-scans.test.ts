/**
 * A table a query scans more than once (a self join, a correlated subquery over the same table) is
 * read as a bare DuckDB table reference whose column alias list follows the table's stored column
 * order (src/engine/stored-columns.ts, src/engine/lower/table-scans.ts). The stored order is not
 * the BigQuery schema's: dropped and added columns, the companion column of a TIMESTAMP(12) field,
 * and ingestion-time pseudo-columns are stored too. Every answer below follows from the rows
 * written (BigQuery's semantics of joins, scalar subqueries and SUM), through `@google-cloud/bigquery`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const D = 'rts';
const q = async (sql: string) => (await t.bq.query({ query: sql }))[0] as Record<string, unknown>[];

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset(D);
});
afterAll(async () => t?.emu.close());

describe('a table scanned twice in one query', () => {
  it('after DROP COLUMN and ADD COLUMN, each column answers its own values', async () => {
    await q(`CREATE TABLE ${D}.t (a INT64, b STRING, c FLOAT64)`);
    await q(`INSERT INTO ${D}.t (a, b, c) VALUES (1, 'x', 1.5), (2, 'y', 2.5), (3, NULL, 4.0)`);
    await q(`ALTER TABLE ${D}.t DROP COLUMN b`);
    await q(`ALTER TABLE ${D}.t ADD COLUMN d STRING`);
    await q(`UPDATE ${D}.t SET d = CONCAT('d', CAST(a AS STRING)) WHERE TRUE`);
    const running = `SELECT t1.a, t1.d, (SELECT SUM(t2.c) FROM ${D}.t AS t2 WHERE t2.a <= t1.a) AS s FROM ${D}.t AS t1 ORDER BY t1.a`;
    expect(await q(running)).toEqual([
      { a: 1, d: 'd1', s: 1.5 },
      { a: 2, d: 'd2', s: 4 },
      { a: 3, d: 'd3', s: 8 },
    ]);
    expect(await q(`SELECT x.a, y.d, y.c FROM ${D}.t AS x JOIN ${D}.t AS y ON x.a + 1 = y.a ORDER BY x.a`)).toEqual([
      { a: 1, d: 'd2', c: 2.5 },
      { a: 2, d: 'd3', c: 4 },
    ]);
    // A write in between: the next read sees the new row (the stored list is read again).
    await q(`INSERT INTO ${D}.t (a, c, d) VALUES (4, 0.5, 'd4')`);
    expect(await q(running)).toEqual([
      { a: 1, d: 'd1', s: 1.5 },
      { a: 2, d: 'd2', s: 4 },
      { a: 3, d: 'd3', s: 8 },
      { a: 4, d: 'd4', s: 8.5 },
    ]);
    // A column renamed keeps its values.
    await q(`ALTER TABLE ${D}.t RENAME COLUMN c TO c2`);
    expect(await q(`SELECT x.a, x.c2 FROM ${D}.t AS x WHERE x.c2 > (SELECT MIN(y.c2) FROM ${D}.t AS y) ORDER BY x.a`)).toEqual([
      { a: 1, c2: 1.5 },
      { a: 2, c2: 2.5 },
      { a: 3, c2: 4 },
    ]);
  });

  it('a table with a TIMESTAMP(12) field (stored with a companion column)', async () => {
    await t.bq.dataset(D).createTable('ts12', {
      schema: { fields: [{ name: 'ts', type: 'TIMESTAMP', timestampPrecision: '12' } as never, { name: 'n', type: 'INTEGER' }, { name: 's', type: 'STRING' }] },
    });
    await q(`INSERT INTO ${D}.ts12 (ts, n, s) VALUES (TIMESTAMP '2023-01-01 00:00:00.123456', 1, 'a'), (TIMESTAMP '2023-01-02 00:00:00', 2, 'b')`);
    expect(await q(`SELECT x.n, x.s, (SELECT COUNT(*) FROM ${D}.ts12 AS z WHERE z.ts <= x.ts) AS k FROM ${D}.ts12 AS x ORDER BY x.n`)).toEqual([
      { n: 1, s: 'a', k: 1 },
      { n: 2, s: 'b', k: 2 },
    ]);
    expect(await q(`SELECT x.s AS xs, y.s AS ys FROM ${D}.ts12 AS x JOIN ${D}.ts12 AS y ON y.ts > x.ts ORDER BY xs`)).toEqual([{ xs: 'a', ys: 'b' }]);
  });

  it('an ingestion-time partitioned table (pseudo-columns stored)', async () => {
    await q(`CREATE TABLE ${D}.p (a INT64, b STRING) PARTITION BY _PARTITIONDATE`);
    await q(`INSERT INTO ${D}.p (a, b) VALUES (1, 'one'), (2, 'two'), (3, 'three')`);
    expect(await q(`SELECT x.b, (SELECT COUNT(*) FROM ${D}.p AS y WHERE y.a > x.a) AS later FROM ${D}.p AS x ORDER BY x.a`)).toEqual([
      { b: 'one', later: 2 },
      { b: 'two', later: 1 },
      { b: 'three', later: 0 },
    ]);
  });
});
