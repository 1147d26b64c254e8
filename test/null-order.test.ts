/**
 * BigQuery's NULL order (NULLs first on ASC, last on DESC: query-syntax "ORDER BY clause",
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/query-syntax#order_by_clause) kept
 * by the lowering that gives DuckDB its fast plans (src/engine/lower/nullability.ts): keys that
 * cannot be NULL are written NULLS LAST, and a nullable key of a `ROW_NUMBER() … <= n` window is
 * written with NULL mapped below every value. Answers through `@google-cloud/bigquery` with NULL
 * keys; the plans on the lowered SQL itself (DuckDB's grouped top-N replaces the WINDOW operator).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { LoweringHarness } from './lowering/harness.js';

let t: TestEmulator;
let h: LoweringHarness;
beforeAll(async () => {
  t = await startTestEmulator();
  h = await LoweringHarness.start();
  await q('CREATE SCHEMA nullorder');
  // k: partition; id: nullable INT64 (with INT64's minimum next to a NULL); d: nullable DATE.
  await q(`CREATE TABLE nullorder.t AS SELECT * FROM UNNEST([
    STRUCT(1 AS k, 5 AS id, DATE '2020-01-05' AS d), (1, NULL, NULL), (1, 3, DATE '2020-01-03'), (1, -9223372036854775808, DATE '0001-01-01'),
    (2, 7, DATE '2020-01-07'), (2, NULL, NULL), (2, 9, DATE '2020-01-09'),
    (3, 4, DATE '2020-01-04')])`);
  await q('CREATE TABLE nullorder.r (id INT64 NOT NULL, k INT64)');
  await q('INSERT INTO nullorder.r (id, k) VALUES (3, 1), (1, 1), (2, 2), (5, 2), (4, NULL)');
}, 60_000);
afterAll(async () => {
  await h?.stop();
  await t?.emu.close();
});

async function q(query: string): Promise<Record<string, unknown>[]> {
  return (await t.bq.query({ query }))[0] as Record<string, unknown>[];
}
const plain = (rows: Record<string, unknown>[]) => rows.map((r) => Object.values(r).map((v) => (v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v)));

describe('NULL order with DuckDB fast plans', () => {
  it('ROW_NUMBER … <= n over a nullable INT64 key: NULL first on ASC, INT64 minimum right after', async () => {
    const rows = await q(`SELECT k, id, rn FROM (SELECT k, id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY id) AS rn FROM nullorder.t) WHERE rn <= 2 ORDER BY k, rn`);
    // The client answers INT64 as a JS number: INT64's minimum reads as the nearest double.
    expect(plain(rows)).toEqual([[1, null, 1], [1, -9223372036854775808, 2], [2, null, 1], [2, 7, 2], [3, 4, 1]]);
  });

  it('ROW_NUMBER … <= n on DESC: NULL last; with DESC NULLS FIRST: NULL first', async () => {
    const desc = await q(`SELECT k, id FROM (SELECT k, id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY id DESC) AS rn FROM nullorder.t) WHERE rn <= 1 ORDER BY k`);
    expect(plain(desc)).toEqual([[1, 5], [2, 9], [3, 4]]);
    const first = await q(`SELECT k, id FROM (SELECT k, id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY id DESC NULLS FIRST) AS rn FROM nullorder.t) WHERE rn <= 2 ORDER BY k, rn`);
    expect(plain(first)).toEqual([[1, null], [1, 5], [2, null], [2, 9], [3, 4]]);
  });

  it('QUALIFY ROW_NUMBER() = 1 over a nullable DATE key keeps the NULL row', async () => {
    const rows = await q(`SELECT k, d FROM nullorder.t WHERE TRUE QUALIFY ROW_NUMBER() OVER (PARTITION BY k ORDER BY d) = 1 ORDER BY k`);
    expect(plain(rows)).toEqual([[1, null], [2, null], [3, '2020-01-04']]);
  });

  it('keys proven non-NULL (IS NOT NULL filter, REQUIRED column, GENERATE_ARRAY) still sort ascending', async () => {
    const filtered = await q(`SELECT k, id FROM (SELECT k, id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY id) AS rn FROM nullorder.t WHERE id IS NOT NULL) WHERE rn <= 1 ORDER BY k`);
    expect(plain(filtered)).toEqual([[1, -9223372036854775808], [2, 7], [3, 4]]);
    const required = await q('SELECT id, k FROM nullorder.r ORDER BY k, id');
    expect(plain(required)).toEqual([[4, null], [1, 1], [3, 1], [2, 2], [5, 2]]);
    const generated = await q('SELECT ARRAY_AGG(x ORDER BY x DESC LIMIT 3) AS a FROM UNNEST(GENERATE_ARRAY(1, 10)) AS x');
    expect(plain(generated)).toEqual([[[10, 9, 8]]]);
  });

  it('plain ORDER BY and ARRAY_AGG ORDER BY over nullable keys: NULLs first on ASC, last on DESC', async () => {
    expect(plain(await q('SELECT id FROM nullorder.t WHERE k = 2 ORDER BY id'))).toEqual([[null], [7], [9]]);
    expect(plain(await q('SELECT id FROM nullorder.t WHERE k = 2 ORDER BY id DESC'))).toEqual([[9], [7], [null]]);
    const agg = await q('SELECT ARRAY_AGG(STRUCT(id) ORDER BY id) AS a FROM nullorder.t WHERE k = 2');
    expect((agg[0].a as { id: unknown }[]).map((s) => s.id)).toEqual([null, 7, 9]);
  });
});

describe('the lowered SQL and its DuckDB plan', () => {
  const plan = async (sql: string) => (await h.run(`EXPLAIN ${sql}`, [{ kind: 'STRING' }, { kind: 'STRING' }])).map((r) => r[1]).join('\n');

  it('a ROW_NUMBER <= n window over a nullable key becomes a grouped top-N (no WINDOW operator)', async () => {
    const l = await h.lower('SELECT k, rn FROM (SELECT k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY id) AS rn FROM ds.t) WHERE rn <= 3 ORDER BY k, rn');
    expect(l.sql).toContain('NULLS LAST');
    expect(l.sql).not.toMatch(/OVER \(PARTITION BY \w+ ORDER BY \w+ ASC NULLS FIRST\)/);
    expect(await plan(l.sql)).not.toContain('WINDOW');
  });

  it('without the rn filter the window keeps NULLS FIRST on a nullable key', async () => {
    const l = await h.lower('SELECT k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY id) AS rn FROM ds.t');
    expect(l.sql).toMatch(/ORDER BY c\d+ ASC NULLS FIRST/);
  });

  it('a key the analyzer output proves non-NULL is written NULLS LAST', async () => {
    expect((await h.lower('SELECT x FROM UNNEST(GENERATE_ARRAY(1, 5)) AS x ORDER BY x')).sql).toMatch(/ORDER BY c\d+ ASC NULLS LAST/);
    expect((await h.lower('SELECT id FROM ds.t WHERE id > 1 ORDER BY id')).sql).toMatch(/ORDER BY c\d+ ASC NULLS LAST/);
    expect((await h.lower('SELECT k, COUNT(*) AS n FROM ds.t GROUP BY k ORDER BY n')).sql).toMatch(/ORDER BY c\d+ ASC NULLS LAST/);
    expect((await h.lower('SELECT id FROM ds.t ORDER BY id')).sql).toMatch(/ORDER BY c\d+ ASC NULLS FIRST/);
    expect((await h.lower('SELECT a.id FROM ds.t AS a LEFT JOIN ds.t AS b ON a.id = b.id ORDER BY b.id')).sql).toMatch(/ORDER BY c\d+ ASC NULLS FIRST/);
  });
});

describe('NULL literals are nullable keys', () => {
  it('a computed key that is NULL (CONCAT with a NULL literal) still sorts first on ASC', async () => {
    const rows = await q(`SELECT k FROM (SELECT CONCAT('x', NULL) AS k UNION ALL SELECT 'a') ORDER BY k`);
    expect(plain(rows)).toEqual([[null], ['a']]);
    const sub = await q(`SELECT k FROM (SELECT IF(x = 1, CONCAT('b', NULL), CONCAT('a', CAST(x AS STRING))) AS k FROM UNNEST([1, 2]) AS x) ORDER BY k`);
    expect(plain(sub)).toEqual([[null], ['a2']]);
  });
});
