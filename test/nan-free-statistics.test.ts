/**
 * FLOAT64 columns known NaN-free from DuckDB's statistics (src/engine/column-stats.ts,
 * src/engine/lower/nan-free.ts): MIN, ORDER BY and comparisons on them are lowered without their
 * NaN handling, and answer BigQuery's way again once a NaN is written (BigQuery docs, "Floating
 * point semantics": NaN sorts right after NULL on ASC, compares FALSE with anything, `!=` TRUE;
 * aggregate functions MIN: NaN when an input is NaN; NULL compared with anything is NULL).
 * Through `@google-cloud/bigquery` against an in-process emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, withLoweredSql, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('nf');
  await q(`CREATE TABLE nf.f AS SELECT id, CAST(id AS FLOAT64) / 2 AS x, IF(id = 2, NULL, CAST(id AS FLOAT64)) AS y FROM UNNEST(GENERATE_ARRAY(1, 4)) AS id`);
}, 60_000);

afterAll(async () => {
  await t?.emu.close();
});

async function q(query: string): Promise<Record<string, unknown>[]> {
  return (await t.bq.query({ query, useQueryCache: false }))[0] as Record<string, unknown>[];
}

/** The rows of `query` and whether its lowered SQL tests for NaN. */
async function run(query: string): Promise<{ rows: Record<string, unknown>[]; nanTests: boolean }> {
  const { result, sql } = await withLoweredSql(t, () => q(query));
  if (result instanceof Error) throw result;
  return { rows: result, nanTests: sql.some((s) => s.includes('isnan')) };
}

const MIN = 'SELECT MIN(x) AS m, MIN(y) AS n FROM nf.f';
const ORDER = 'SELECT id FROM nf.f ORDER BY x DESC';
const CMP = 'SELECT id, x < y AS lt, x = y AS eq FROM nf.f WHERE x <= y ORDER BY id';

describe('FLOAT64 columns whose statistics show no NaN', () => {
  it('MIN, ORDER BY and comparisons lower without NaN tests and answer as before', async () => {
    expect(await run(MIN)).toEqual({ rows: [{ m: 0.5, n: 1 }], nanTests: false });
    expect(await run(ORDER)).toEqual({ rows: [{ id: 4 }, { id: 3 }, { id: 2 }, { id: 1 }], nanTests: false });
    expect(await run(CMP)).toEqual({ rows: [{ id: 1, lt: true, eq: false }, { id: 3, lt: true, eq: false }, { id: 4, lt: true, eq: false }], nanTests: false });
  });

  it("a NULL against a NaN stays NULL when only one side's statistics are known", async () => {
    const r = await run(`SELECT id, y < z AS lt, y >= z AS ge FROM nf.f, UNNEST([CAST('nan' AS FLOAT64)]) AS z ORDER BY id`);
    expect(r.rows).toEqual([
      { id: 1, lt: false, ge: false },
      { id: 2, lt: null, ge: null },
      { id: 3, lt: false, ge: false },
      { id: 4, lt: false, ge: false },
    ]);
  });

  it('a NaN-free column against a scalar subquery: the subquery is planned once', async () => {
    const r = await withLoweredSql(t, () => q('SELECT id FROM nf.f WHERE x < (SELECT MAX(y) / 4 FROM nf.f) ORDER BY id'));
    expect(r.result).toEqual([{ id: 1 }]);
    expect(r.sql.join('\n').match(/\bmax\(/gi)).toHaveLength(1);
  });

  it('queries into a destination table run once (statistics facts would need a second run)', async () => {
    // A FLOAT64 scan, a window (NULL-free facts), a table scanned twice (stored column order).
    for (const [name, query, n] of [
      ['d1', 'SELECT id, x FROM nf.f WHERE x > 1 ORDER BY x', 2],
      ['d2', 'SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS rn FROM nf.f', 4],
      ['d3', 'SELECT a.id FROM nf.f AS a JOIN nf.f AS b ON a.id = b.id', 4],
    ] as const) {
      const [job] = await t.bq.createQueryJob({ query, destination: t.bq.dataset('nf').table(name) });
      await job.getQueryResults();
      const [rows] = await t.bq.dataset('nf').table(name).getRows();
      expect(rows).toHaveLength(n);
    }
  });

  it('once a NaN is written, the same queries answer with BigQuery NaN semantics', async () => {
    await q(`INSERT INTO nf.f (id, x, y) VALUES (5, CAST('nan' AS FLOAT64), CAST('nan' AS FLOAT64))`);
    const min = await run(MIN);
    expect(Number.isNaN(min.rows[0]!.m) && Number.isNaN(min.rows[0]!.n)).toBe(true);
    expect(min.nanTests).toBe(true);
    // DESC: numbers high to low, then NaN (NaN sorts right after NULL on ASC).
    expect((await run(ORDER)).rows).toEqual([{ id: 4 }, { id: 3 }, { id: 2 }, { id: 1 }, { id: 5 }]);
    // NaN compares FALSE: row 5 is not kept.
    expect((await run(CMP)).rows).toEqual([{ id: 1, lt: true, eq: false }, { id: 3, lt: true, eq: false }, { id: 4, lt: true, eq: false }]);
  });
});
