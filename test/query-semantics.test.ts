/**
 * Query semantics through the real client, each expectation taken from BigQuery's documented
 * behaviour (GoogleSQL query syntax and data types pages) or a recorded fixture named inline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('qs');
  await q('CREATE TABLE qs.nums AS SELECT n FROM UNNEST([1, 2, 3, 4, 5]) AS n');
});
afterAll(async () => t?.emu.close());

describe('query semantics', () => {
  it('GROUP BY an expression repeated in SELECT, with ORDER BY and HAVING (recorded tpcds_q99 shape)', async () => {
    expect(await q('SELECT MOD(n, 2) AS p, COUNT(*) AS c FROM qs.nums GROUP BY MOD(n, 2) HAVING COUNT(*) > 0 ORDER BY p')).toEqual([
      { p: 0, c: 2 },
      { p: 1, c: 3 },
    ]);
  });

  it('GROUPING SETS of expressions (recorded standard_functions/agg_grouping_sets shape)', async () => {
    const rows = await q('SELECT MOD(n, 2) AS p, COUNT(*) AS c FROM qs.nums GROUP BY GROUPING SETS ((MOD(n, 2)), ()) ORDER BY p NULLS LAST');
    expect(rows).toEqual([{ p: 0, c: 2 }, { p: 1, c: 3 }, { p: null, c: 5 }]);
  });

  it('orders NULL first and NaN next ascending, reversed descending (data-types: floating point ordering)', async () => {
    const asc = await q("SELECT x FROM UNNEST([1.0, CAST('NaN' AS FLOAT64), NULL, -1.0]) AS x ORDER BY x");
    expect(asc.map((r) => r.x)).toEqual([null, NaN, -1, 1]);
    const desc = await q("SELECT x FROM UNNEST([1.0, CAST('NaN' AS FLOAT64), NULL, -1.0]) AS x ORDER BY x DESC");
    expect(desc.map((r) => r.x)).toEqual([1, -1, NaN, null]);
  });

  it('ARRAY(subquery) keeps the subquery order; no rows gives an empty array', async () => {
    const [r] = await q('SELECT ARRAY(SELECT n FROM qs.nums ORDER BY n DESC) AS a, ARRAY(SELECT n FROM qs.nums WHERE n > 9) AS e');
    expect(r).toEqual({ a: [5, 4, 3, 2, 1], e: [] });
  });

  it('LEFT JOIN UNNEST keeps rows whose array is empty', async () => {
    const rows = await q('SELECT id, e FROM (SELECT 1 AS id, [7, 8] AS arr UNION ALL SELECT 2, []) AS s LEFT JOIN UNNEST(s.arr) AS e ORDER BY id, e');
    expect(rows).toEqual([{ id: 1, e: 7 }, { id: 1, e: 8 }, { id: 2, e: null }]);
  });

  it('UNNEST WITH OFFSET counts from zero', async () => {
    expect(await q("SELECT v, o FROM UNNEST(['a', 'b']) AS v WITH OFFSET AS o ORDER BY o")).toEqual([{ v: 'a', o: 0 }, { v: 'b', o: 1 }]);
  });

  it('PIVOT and UNPIVOT (query-syntax pivot/unpivot operators)', async () => {
    const p = await q("SELECT * FROM (SELECT 'a' AS k, 1 AS v, 'x' AS c UNION ALL SELECT 'a', 2, 'y') PIVOT(SUM(v) FOR c IN ('x', 'y'))");
    expect(p).toEqual([{ k: 'a', x: 1, y: 2 }]);
    const u = await q('SELECT * FROM (SELECT 1 AS a, 2 AS b) UNPIVOT(v FOR c IN (a, b)) ORDER BY c');
    expect(u).toEqual([{ v: 1, c: 'a' }, { v: 2, c: 'b' }]);
  });

  it('WITH RECURSIVE', async () => {
    expect(await q('WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT SUM(n) AS s FROM r')).toEqual([{ s: 15 }]);
  });

  it('QUALIFY filters on an analytic function', async () => {
    const rows = await q('SELECT n FROM qs.nums WHERE TRUE QUALIFY ROW_NUMBER() OVER (ORDER BY n DESC) <= 2 ORDER BY n');
    expect(rows).toEqual([{ n: 4 }, { n: 5 }]);
  });

  it('SELECT * EXCEPT / REPLACE', async () => {
    expect(await q('SELECT * EXCEPT (b) REPLACE (a * 10 AS a) FROM (SELECT 1 AS a, 2 AS b, 3 AS c)')).toEqual([{ a: 10, c: 3 }]);
  });

  it('anonymous columns are named f0_, f1_ … (BigQuery answers seen in public client test data)', async () => {
    const [rows, , resp] = (await t.bq.query({ query: 'SELECT 1, 2', wrapIntegers: false })) as unknown as [unknown[], unknown, { schema: { fields: { name: string }[] } }];
    expect(rows).toEqual([{ f0_: 1, f1_: 2 }]);
    expect(resp.schema.fields.map((f) => f.name)).toEqual(['f0_', 'f1_']);
  });
});

describe('result column names', () => {
  it('a repeated output name gets _1 (recorded standard_functions/tpcds_q39)', async () => {
    const [, , resp] = (await t.bq.query({ query: 'SELECT 1 AS x, 2 AS x' })) as unknown as [unknown, unknown, { schema: { fields: { name: string }[] } }];
    expect(resp.schema.fields.map((f) => f.name)).toEqual(['x', 'x_1']);
  });

  it('ORDER BY an expression of an aggregating SELECT (recorded standard_functions/tpcds_q99 shape)', async () => {
    const rows = await q('SELECT MOD(n, 3) AS m, COUNT(*) AS c FROM qs.nums GROUP BY MOD(n, 3) ORDER BY MOD(n, 3) DESC');
    expect(rows).toEqual([{ m: 2, c: 2 }, { m: 1, c: 2 }, { m: 0, c: 1 }]);
  });
});

describe('wildcard tables', () => {
  it('unions the matching tables with _TABLE_SUFFIX (BigQuery "Querying multiple tables using a wildcard table")', async () => {
    await q('CREATE TABLE qs.ev_20240101 AS SELECT 1 AS id');
    await q('CREATE TABLE qs.ev_20240102 AS SELECT 2 AS id');
    await q('CREATE TABLE qs.other AS SELECT 9 AS id');
    expect(await q("SELECT id, _TABLE_SUFFIX AS s FROM `qs.ev_*` ORDER BY id")).toEqual([
      { id: 1, s: '20240101' },
      { id: 2, s: '20240102' },
    ]);
    expect(await q("SELECT COUNT(*) AS n FROM `qs.ev_*` WHERE _TABLE_SUFFIX > '20240101'")).toEqual([{ n: 1 }]);
  });
});

describe('materialized views', () => {
  it('read current data; BQ.REFRESH_MATERIALIZED_VIEW is accepted (recorded versioning/mv_refresh_after_dml)', async () => {
    await q('CREATE TABLE qs.mvsrc (label STRING)');
    await q("INSERT INTO qs.mvsrc VALUES ('a'), ('b')");
    await q('CREATE MATERIALIZED VIEW qs.mv AS SELECT label, COUNT(*) AS n FROM qs.mvsrc GROUP BY label');
    const rows = await q("INSERT INTO qs.mvsrc VALUES ('a'); CALL BQ.REFRESH_MATERIALIZED_VIEW('qs.mv'); SELECT label, n FROM qs.mv ORDER BY label");
    expect(rows).toEqual([{ label: 'a', n: 2 }, { label: 'b', n: 1 }]);
    await expect(q("CALL BQ.REFRESH_MATERIALIZED_VIEW('qs.nope')")).rejects.toThrow(/Not found: Table/);
  });
});
