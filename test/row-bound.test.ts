/**
 * rowsAtMost (src/engine/lower/row-bound.ts) on statements resolved by the real analyzer: the row
 * bounds follow BigQuery's query syntax page (no FROM: one row; aggregation without GROUP BY: "a
 * single output row"; LIMIT n: at most n), and no bound is claimed where rows can multiply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvedStatementOf } from '../src/analyzer/client.js';
import { rowsAtMost } from '../src/engine/lower/row-bound.js';
import { startTestAnalyzer, type TestAnalyzer } from './helpers/analyzer.js';

let a: TestAnalyzer;
beforeAll(async () => {
  a = await startTestAnalyzer();
}, 60_000);
afterAll(() => a.client.stop());

async function bound(sql: string): Promise<number | undefined> {
  return rowsAtMost(resolvedStatementOf(await a.analyze(sql)).query);
}

describe('rowsAtMost', () => {
  it('bounds SELECT without FROM, aggregation without GROUP BY and literal LIMITs', async () => {
    expect(await bound('SELECT 1')).toBe(1);
    expect(await bound("SELECT 1 AS a, 'x' AS b")).toBe(1);
    expect(await bound('SELECT * FROM (SELECT x FROM UNNEST([3, 1, 2]) AS x ORDER BY x) LIMIT 2')).toBe(2);
    expect(await bound('SELECT COUNT(*) FROM UNNEST(GENERATE_ARRAY(1, 10)) AS x')).toBe(1);
    expect(await bound('SELECT SUM(x) AS s FROM UNNEST([1, 2, 3]) AS x WHERE x > 1')).toBe(1);
    expect(await bound('SELECT x FROM UNNEST(GENERATE_ARRAY(1, 100)) AS x ORDER BY x LIMIT 5')).toBe(5);
    expect(await bound('SELECT x FROM UNNEST(GENERATE_ARRAY(1, 100)) AS x LIMIT 5 OFFSET 90')).toBe(5);
    expect(await bound('SELECT COUNT(*) AS n FROM UNNEST([1]) AS x LIMIT 10')).toBe(1);
  }, 60_000);

  it('claims no bound where rows can be many', async () => {
    expect(await bound('SELECT x FROM UNNEST(GENERATE_ARRAY(1, 100)) AS x')).toBeUndefined();
    expect(await bound('SELECT x, COUNT(*) FROM UNNEST([1, 1, 2]) AS x GROUP BY x')).toBeUndefined();
    expect(await bound('SELECT 1 UNION ALL SELECT 2')).toBeUndefined();
    expect(await bound('SELECT a FROM UNNEST([1, 2]) AS a CROSS JOIN UNNEST([3, 4]) AS b')).toBeUndefined();
    expect(await bound('SELECT x FROM UNNEST(GENERATE_ARRAY(1, 100)) AS x WHERE x > 3')).toBeUndefined();
  }, 60_000);
});
