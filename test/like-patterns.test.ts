/**
 * LIKE patterns without a backslash are lowered without DuckDB's ESCAPE clause (its fast path);
 * with one, backslash escapes as BigQuery documents (operators "Comparison operators": `\` escapes
 * `%`, `_` and `\` in a LIKE pattern,
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/operators#comparison_operators).
 * Through `@google-cloud/bigquery`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('LIKE with and without escapes', () => {
  it('%, _ and backslash escapes; NULL gives NULL; LIKE ANY takes the same path', async () => {
    const [rows] = await t.bq.query({
      query: String.raw`SELECT 'special deposits requests' LIKE '%special%requests%' AS a, 'abc' LIKE 'a_c' AS b, 'a%c' LIKE 'a\\%c' AS c,
        'abc' LIKE 'a\\%c' AS d, 'forest green' LIKE 'forest%' AS e, 'green forest' LIKE 'forest%' AS f, CAST(NULL AS STRING) LIKE 'x%' AS g,
        'PROMO BRUSHED' LIKE ANY ('STANDARD%', 'PROMO%') AS h, 'a\\b' LIKE 'a\\\\b' AS i`,
    });
    expect(Object.values(rows[0] as object)).toEqual([true, true, true, false, true, false, null, true, true]);
  });
});
