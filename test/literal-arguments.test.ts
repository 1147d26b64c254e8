/**
 * Functions whose literal arguments settle their checks at lowering time (src/functions/util.ts
 * nullIfAnyNull, src/functions/string.ts SUBSTR): the answers stay BigQuery's — the GoogleSQL docs'
 * SUBSTR examples (string_functions.md: SUBSTR('apple', 2, 2) is 'pp', position 0 counts as 1, a
 * length past the end stops at it, a negative length is an error) and NULL for a NULL value —
 * and the SQL handed to DuckDB has no check left for them. Through `@google-cloud/bigquery`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, withLoweredSql, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('SUBSTR with literal position and length', () => {
  it('answers as the docs say, NULL for a NULL value, and lowers without the checks', async () => {
    const { result, sql } = await withLoweredSql(t, async () => {
      const [rows] = await t.bq.query({
        query: `SELECT SUBSTR(s, 2, 2) AS a, SUBSTR(s, 0, 2) AS b, SUBSTR(s, 4, 100) AS c, SUBSTR(s, 1, 0) AS d FROM UNNEST(['apple', NULL]) AS s WITH OFFSET o ORDER BY o`,
      });
      return rows;
    });
    expect(result).toEqual([
      { a: 'pp', b: 'ap', c: 'le', d: '' },
      { a: null, b: null, c: null, d: null },
    ]);
    expect(sql[0]).not.toContain('cannot be negative');
    expect(sql[0]).not.toContain('CAST(2 AS BIGINT) IS NULL');
    const e = await errorOf(t.bq.query({ query: `SELECT SUBSTR(s, 1, -1) AS a FROM UNNEST(['apple']) AS s` }));
    expect(e.message).toContain('Third argument in SUBSTR() cannot be negative');
  });
});
