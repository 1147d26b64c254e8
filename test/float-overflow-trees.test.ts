/**
 * FLOAT64 `+ - *` trees are computed unchecked and checked once at their root
 * (src/functions/operators.ts doubleOverflow); BigQuery's semantics must not change: an operation
 * of finite operands that overflows raises `double overflow: <a> <op> <b>` naming that operation
 * (ZetaSQL's arithmetic, which BigQuery runs: "Floating point semantics",
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#floating_point_semantics),
 * even when the overflow is hidden by a later operation (inf − inf is NaN); non-finite operands give
 * IEEE results; NULL stays NULL. Comparisons with a number literal are written without the
 * NULL/NaN CASE (same page: NaN compared with anything is FALSE, `!=` TRUE; NULL gives NULL).
 * Through `@google-cloud/bigquery`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, withLoweredSql, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

const one = async (query: string) => Object.values(((await t.bq.query({ query }))[0] as Record<string, unknown>[])[0])[0];

describe('FLOAT64 arithmetic trees', () => {
  it('an overflow inside a tree raises the error of the operation that overflowed', async () => {
    const e = await errorOf(t.bq.query({ query: 'SELECT (x * 10) - 1 + x AS v FROM UNNEST([1e308]) AS x' }));
    expect(e.message).toContain('double overflow: 1e+308 * 10');
  });

  it('an overflow hidden by a later operation (inf - inf = NaN) still raises', async () => {
    const e = await errorOf(t.bq.query({ query: 'SELECT (x * 10) - (x * 10) AS v FROM UNNEST([1e308]) AS x' }));
    expect(e.message).toContain('double overflow: 1e+308 * 10');
  });

  it('an overflow in a parenthesised operand (merged into the enclosing tree) raises its own error', async () => {
    const e = await errorOf(t.bq.query({ query: 'SELECT 2 * (x - (0 - x)) AS v FROM UNNEST([1e308]) AS x' }));
    expect(e.message).toContain('double overflow: 1e+308 - -1e+308');
    expect(await one('SELECT 2 * (x - (1 - x)) AS v FROM UNNEST([4.0]) AS x')).toBe(14);
  });

  it('non-finite operands give IEEE results, NULL stays NULL, finite values are exact', async () => {
    expect(await one(`SELECT (x * 2) - 1 AS v FROM UNNEST([CAST('inf' AS FLOAT64)]) AS x`)).toBe(Infinity);
    expect(Number.isNaN(await one(`SELECT (x * 2) - x AS v FROM UNNEST([CAST('inf' AS FLOAT64)]) AS x`))).toBe(true);
    expect(await one('SELECT (x * 2) - 1 AS v FROM UNNEST([CAST(NULL AS FLOAT64)]) AS x')).toBeNull();
    expect(await one('SELECT x * (1 - 0.25) * (1 + 0.5) AS v FROM UNNEST([8.0]) AS x')).toBe(9);
  });
});

describe('a query checked with marks first, then exactly', () => {
  // A query statement is lowered first with checks that only mark an overflowing row (cheaper for
  // DuckDB to plan, src/engine/statements.ts queryStmt); a mark makes it run again with the checks
  // spelled out, whose error or answer the client gets.
  const seen = (query: string) => withLoweredSql(t, async () => (await t.bq.query({ query }))[0]);

  it('runs a query once, with marks only, when nothing overflows', async () => {
    const r = await seen('SELECT x * (1 - y) / 2 AS v FROM UNNEST([8.0]) AS x, UNNEST([0.5]) AS y');
    expect(r.result).toEqual([{ v: 2 }]);
    expect(r.sql).toHaveLength(1);
    expect(r.sql[0]).toContain('__bqemu_recheck__');
    expect(r.sql[0]).not.toContain('double overflow');
  });

  it('runs it again with the exact checks when a mark fires: BigQuery error, or the IEEE answer', async () => {
    for (const [query, message] of [
      ['SELECT x * 10 AS v FROM UNNEST([1e308]) AS x', 'double overflow: 1e+308 * 10'],
      ['SELECT x / 1e-300 AS v FROM UNNEST([1e300]) AS x', 'double overflow: 1e+300 / 1e-300'],
    ]) {
      const r = await seen(query);
      expect((r.result as Error).message).toContain(message);
      expect((r.result as Error).message).not.toContain('__bqemu_recheck__');
      expect(r.sql).toHaveLength(2);
      expect(r.sql[1]).toContain('double overflow');
    }
    const r = await seen(`SELECT x / 2 AS v FROM UNNEST([CAST('-inf' AS FLOAT64)]) AS x`);
    expect(r.result).toEqual([{ v: -Infinity }]);
    expect(r.sql).toHaveLength(2);
  });

  it('a query into a destination table: the exact run writes it, or fails and writes nothing', async () => {
    await t.bq.createDataset('recheck_dest').catch(() => undefined);
    const dest = t.bq.dataset('recheck_dest');
    const [ok] = await t.bq.createQueryJob({ query: `SELECT x * 2 AS v FROM UNNEST([CAST('inf' AS FLOAT64), 1.5]) AS x`, destination: dest.table('ieee') });
    await ok.getQueryResults();
    const [rows] = await dest.table('ieee').getRows();
    expect((rows as { v: number }[]).map((r) => r.v).sort()).toEqual([3, Infinity]);
    const e = await errorOf(t.bq.createQueryJob({ query: 'SELECT x * 10 AS v FROM UNNEST([1e308]) AS x', destination: dest.table('overflow') }).then(([job]) => job.getQueryResults()));
    expect(e.message).toContain('double overflow: 1e+308 * 10');
    const [exists] = await dest.table('overflow').exists();
    expect(exists).toBe(false);
  });

  it('SUM and AVG of a tree mark their result instead of every row; a window keeps the rows marked', async () => {
    const ok = await seen('SELECT SUM(x * 2) AS s, AVG(x * (1 - 0.5)) AS a FROM UNNEST([1.0, 3.0]) AS x');
    expect(ok.result).toEqual([{ s: 8, a: 1 }]);
    expect(ok.sql).toHaveLength(1);
    expect(ok.sql[0]).toContain('isfinite(sum(');
    expect(ok.sql[0]).toContain('isfinite(avg(');
    const bad = await seen('SELECT k, SUM(x * 10) AS s FROM UNNEST([1.0, 1e308]) AS x WITH OFFSET k GROUP BY k');
    expect((bad.result as Error).message).toContain('double overflow: 1e+308 * 10');
    expect(bad.sql).toHaveLength(2);
    const ieee = await seen(`SELECT SUM(x * 2) AS s FROM UNNEST([CAST('inf' AS FLOAT64), 1.0]) AS x`);
    expect(ieee.result).toEqual([{ s: Infinity }]);
    const win = await seen('SELECT SUM(x * 2) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 PRECEDING) AS s FROM UNNEST([1.0, 3.0]) AS x ORDER BY x');
    expect(win.result).toEqual([{ s: null }, { s: 2 }]);
    expect(win.sql[0]).not.toContain('isfinite(sum(');
    // The last row is in no frame, and BigQuery still raises its overflow.
    const lastRow = await seen('SELECT SUM(x * 10) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 PRECEDING) AS s FROM UNNEST([1.0, 1e308]) AS x');
    expect((lastRow.result as Error).message).toContain('double overflow: 1e+308 * 10');
  });

  it('SAFE_MULTIPLY answers NULL on an overflow without a second run', async () => {
    const r = await seen('SELECT SAFE_MULTIPLY(x, 10) AS v FROM UNNEST([1e308]) AS x');
    expect(r.result).toEqual([{ v: null }]);
    expect(r.sql).toHaveLength(1);
  });
});

describe('FLOAT64 comparisons with a number literal', () => {
  it('NaN compares FALSE (TRUE for !=) on either side, NULL gives NULL, numbers compare', async () => {
    const cols = "x > 1.5, x >= 1.5, x < 1.5, x <= 1.5, x = 1.5, x != 1.5, 1.5 < x, 1.5 <= x, 1.5 > x, 1.5 >= x, 1.5 = x, 1.5 != x";
    const rows = (await t.bq.query({ query: `SELECT ${cols.split(', ').map((e, i) => `${e} AS c${i}`).join(', ')} FROM UNNEST([CAST('nan' AS FLOAT64), NULL, 2.0]) AS x WITH OFFSET o ORDER BY o` }))[0] as Record<string, unknown>[];
    expect(rows.map((r) => Object.values(r))).toEqual([
      [false, false, false, false, false, true, false, false, false, false, false, true],
      Array(12).fill(null),
      [true, true, false, false, false, true, true, true, false, false, false, true],
    ]);
  });

  it('a WHERE against a literal drops NaN rows (and keeps them for !=)', async () => {
    const n = async (cond: string) => ((await t.bq.query({ query: `SELECT COUNT(*) AS n FROM UNNEST([CAST('nan' AS FLOAT64), 1.0, 5.0, NULL]) AS x WHERE ${cond}` }))[0] as { n: number }[])[0].n;
    expect(await n('x > 0')).toBe(2);
    expect(await n('0 < x')).toBe(2);
    expect(await n('x >= 5')).toBe(1);
    expect(await n('x != 1')).toBe(2);
  });
});

describe('FLOAT64 comparisons with a scalar subquery', () => {
  it('NaN, NULL and no row from the subquery keep BigQuery semantics; two rows are an error', async () => {
    const nan = "(SELECT MAX(y) FROM UNNEST([CAST('nan' AS FLOAT64)]) AS y)";
    const none = '(SELECT y FROM UNNEST([1.0]) AS y WHERE y > 5)';
    const row = Object.values(((await t.bq.query({ query: `SELECT 1.0 < ${nan} AS a, 1.0 != ${nan} AS b, 1.0 < ${none} AS c, x > (SELECT MIN(y) FROM UNNEST([0.5, 2.0]) AS y WHERE y < x) AS d FROM UNNEST([1.0]) AS x` }))[0] as Record<string, unknown>[])[0]);
    expect(row).toEqual([false, true, null, true]);
    const e = await errorOf(t.bq.query({ query: 'SELECT 1.0 < (SELECT y FROM UNNEST([1.0, 2.0]) AS y) AS v' }));
    // (BigQuery's text is "Scalar subquery produced more than one element"; the emulator still answers
    // DuckDB's "More than one row returned by a subquery…" for every scalar subquery, compared or not.)
    expect(e.message).toMatch(/more than one/i);
  });
});

describe('FLOAT64 = a scalar subquery as a WHERE conjunct', () => {
  // Lowered without a correlated subquery (src/functions/operators.ts cmp): the rows kept must be
  // BigQuery's — NaN equals nothing, NULL equals nothing.
  const kept = async (sub: string, extra = '') =>
    ((await t.bq.query({ query: `SELECT o FROM UNNEST([1.0, CAST('nan' AS FLOAT64), NULL, 2.0]) AS x WITH OFFSET o WHERE x = (${sub})${extra} ORDER BY o` }))[0] as { o: number }[]).map((r) => r.o);

  it('keeps the rows equal to the subquery value, never NaN or NULL ones', async () => {
    expect(await kept('SELECT MAX(y) FROM UNNEST([1.0, 2.0]) AS y')).toEqual([3]);
    expect(await kept("SELECT CAST('nan' AS FLOAT64)")).toEqual([]);
    expect(await kept('SELECT CAST(NULL AS FLOAT64)')).toEqual([]);
    expect(await kept('SELECT 1.0', ' AND o >= 0')).toEqual([0]);
  });

  it('in the select list keeps NULL and FALSE apart', async () => {
    const [rows] = await t.bq.query({ query: `SELECT x = (SELECT CAST(NULL AS FLOAT64)) AS a, x = (SELECT CAST('nan' AS FLOAT64)) AS b FROM UNNEST([CAST('nan' AS FLOAT64)]) AS x` });
    expect(rows).toEqual([{ a: null, b: false }]);
  });
});

