/**
 * FLOAT64 comparisons that are whole conjuncts of a WHERE, HAVING or ON condition are lowered to
 * DuckDB's plain comparison with NaN excluded (src/functions/operators.ts conditionCompare), so
 * DuckDB can push filters and plan hash joins; the rows kept must be BigQuery's. The rule
 * ("Floating point semantics",
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#floating_point_semantics):
 * NaN compared with anything is FALSE, except `!=` which is TRUE; a comparison with NULL is NULL;
 * a WHERE/ON keeps a row only when its condition is TRUE
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/query-syntax#where_clause).
 * Through `@google-cloud/bigquery`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

const XS = [1.0, NaN, null, 2.0];
const YS = [2.0, NaN, null, 1.0, 0.5];
const lit = (v: number | null) => (v === null ? 'NULL' : Number.isNaN(v) ? "CAST('nan' AS FLOAT64)" : v.toFixed(1));
const arr = (vs: (number | null)[]) => `[${vs.map(lit).join(', ')}]`;

/** BigQuery's answer of `x op y` by the documented rule: null for NULL, the IEEE answer otherwise. */
function compare(x: number | null, op: string, y: number | null): boolean | null {
  if (x === null || y === null) return null;
  if (Number.isNaN(x) || Number.isNaN(y)) return op === '!=';
  return { '=': x === y, '!=': x !== y, '<': x < y, '<=': x <= y, '>': x > y, '>=': x >= y }[op]!;
}

/** The (i, j) offset pairs whose comparison is TRUE. */
const truePairs = (op: string) => XS.flatMap((x, i) => YS.flatMap((y, j) => (compare(x, op, y) === true ? [`${i},${j}`] : [])));

const pairs = async (sql: string) => ((await t.bq.query({ query: sql }))[0] as { i: number; j: number }[]).map((r) => `${r.i},${r.j}`);

describe('FLOAT64 comparison of two columns as a condition', () => {
  for (const op of ['=', '<', '<=', '>', '>=', '!=']) {
    it(`WHERE x ${op} y keeps the TRUE pairs only`, async () => {
      const got = await pairs(`SELECT i, j FROM UNNEST(${arr(XS)}) AS x WITH OFFSET i, UNNEST(${arr(YS)}) AS y WITH OFFSET j WHERE x ${op} y AND i >= 0 ORDER BY i, j`);
      expect(got).toEqual(truePairs(op));
    });
  }

  it('JOIN … ON x < y matches the TRUE pairs only', async () => {
    const got = await pairs(`SELECT i, j FROM UNNEST(${arr(XS)}) AS x WITH OFFSET i JOIN UNNEST(${arr(YS)}) AS y WITH OFFSET j ON x < y ORDER BY i, j`);
    expect(got).toEqual(truePairs('<'));
  });

  it('LEFT JOIN … ON x = y keeps every left row; NaN and NULL match nothing', async () => {
    const [rows] = await t.bq.query({ query: `SELECT i, j FROM UNNEST(${arr(XS)}) AS x WITH OFFSET i LEFT JOIN UNNEST(${arr(YS)}) AS y WITH OFFSET j ON x = y ORDER BY i, j` });
    expect((rows as { i: number; j: number | null }[]).map((r) => [r.i, r.j])).toEqual([
      [0, 3],
      [1, null],
      [2, null],
      [3, 0],
    ]);
  });

  it('HAVING SUM(x) > y drops NaN and NULL groups', async () => {
    const [rows] = await t.bq.query({ query: `SELECT g FROM UNNEST(${arr(XS)}) AS x WITH OFFSET g GROUP BY g HAVING SUM(x) > 0.5 ORDER BY g` });
    expect((rows as { g: number }[]).map((r) => r.g)).toEqual([0, 3]);
  });
});

describe('FLOAT64 comparison with a scalar subquery as a WHERE conjunct', () => {
  const kept = async (cond: string) => ((await t.bq.query({ query: `SELECT i FROM UNNEST(${arr(XS)}) AS x WITH OFFSET i WHERE ${cond} ORDER BY i` }))[0] as { i: number }[]).map((r) => r.i);

  it('a NaN or NULL subquery value keeps no row; a number compares', async () => {
    expect(await kept("x < (SELECT MAX(y) FROM UNNEST([CAST('nan' AS FLOAT64)]) AS y)")).toEqual([]);
    expect(await kept("(SELECT MAX(y) FROM UNNEST([CAST('nan' AS FLOAT64)]) AS y) <= x")).toEqual([]);
    expect(await kept('x >= (SELECT CAST(NULL AS FLOAT64))')).toEqual([]);
    expect(await kept('x > (SELECT MIN(y) FROM UNNEST([1.5, 3.0]) AS y)')).toEqual([3]);
    expect(await kept('(SELECT MIN(y) FROM UNNEST([1.5, 3.0]) AS y) > x')).toEqual([0]);
    // No row from the subquery: NULL.
    expect(await kept('x < (SELECT y FROM UNNEST([1.0]) AS y WHERE y > 5)')).toEqual([]);
  });

  // One operand a number (a literal, or a subquery's value): the NaN row of x compares FALSE on
  // either side, whichever operand the lowering leaves unguarded.
  for (const op of ['=', '<', '<=', '>', '>=']) {
    it(`x ${op} 1.5, 1.5 ${op} x and the same with (SELECT 1.5) keep the TRUE rows only`, async () => {
      const rows = (f: (x: number | null) => boolean | null) => XS.flatMap((x, i) => (f(x) === true ? [i] : []));
      expect(await kept(`x ${op} 1.5`)).toEqual(rows((x) => compare(x, op, 1.5)));
      expect(await kept(`1.5 ${op} x`)).toEqual(rows((x) => compare(1.5, op, x)));
      expect(await kept(`x ${op} (SELECT 1.5)`)).toEqual(rows((x) => compare(x, op, 1.5)));
      expect(await kept(`(SELECT 1.5) ${op} x`)).toEqual(rows((x) => compare(1.5, op, x)));
      expect(await kept(`x ${op} (SELECT MAX(y) FROM UNNEST([1.0, 1.5]) AS y)`)).toEqual(rows((x) => compare(x, op, 1.5)));
    });
  }

  it('x BETWEEN two number literals: NaN FALSE, NULL NULL, as a value and as a condition', async () => {
    // BigQuery: x BETWEEN lo AND hi is x >= lo AND x <= hi (NaN compares FALSE, NULL gives NULL).
    const between = (x: number | null) => (x === null ? null : compare(x, '>=', 0.5)! && compare(x, '<=', 1.5)!);
    const [rows] = await t.bq.query({ query: `SELECT i, x BETWEEN 0.5 AND 1.5 AS b, NOT (x BETWEEN 0.5 AND 1.5) AS nb FROM UNNEST(${arr(XS)}) AS x WITH OFFSET i ORDER BY i` });
    expect(rows).toEqual(XS.map((x, i) => ({ i, b: between(x), nb: between(x) === null ? null : !between(x) })));
    expect(await kept('x BETWEEN 0.5 AND 1.5')).toEqual(XS.flatMap((x, i) => (between(x) === true ? [i] : [])));
    expect(await kept('x NOT BETWEEN 0.5 AND 1.5')).toEqual(XS.flatMap((x, i) => (between(x) === false ? [i] : [])));
  });

  it('a correlated subquery: NaN and NULL values on either side keep no row', async () => {
    expect(await kept('x > (SELECT MIN(y) FROM UNNEST([0.5, 1.5]) AS y WHERE y < x)')).toEqual([0, 3]);
    expect(await kept("x > (SELECT IF(x > 1.5, CAST('nan' AS FLOAT64), 0.0))")).toEqual([0]);
    expect(await kept('x <= (SELECT 2 * AVG(y) FROM UNNEST([0.5, 1.5]) AS y WHERE y <= x)')).toEqual([0, 3]);
    expect(await kept('x < (SELECT 2 * AVG(y) FROM UNNEST([0.5, 1.5]) AS y WHERE y <= x)')).toEqual([]);
  });
});
