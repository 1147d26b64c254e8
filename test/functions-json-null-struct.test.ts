/**
 * TO_JSON_STRING / TO_JSON of NULL STRUCT values — as literals, array elements, nested fields and
 * values read back from a table — through the real client. DuckDB reads a NULL STRUCT's fields
 * as NULL, so the STRUCT itself must be tested: `null`, not an object of nulls.
 * Expected values: the ZetaSQL reference evaluator (test/differential/evaluator.ts), e.g.
 * `TO_JSON_STRING(STRUCT(CAST(NULL AS STRUCT<a INT64>) AS s))` = `{"s":null}` and
 * `TO_JSON_STRING(CAST(NULL AS STRUCT<a INT64>))` = `null`; FORMAT('%t|%T', …) = `(NULL)|STRUCT(NULL)`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const col = async (query: string) => ((await t.bq.query({ query }))[0] as { c: unknown }[]).map((r) => r.c);
/** The values of a one-row result, in column order. */
const row = async (query: string) => Object.values(((await t.bq.query({ query }))[0] as Record<string, unknown>[])[0]);

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('njs');
  await t.bq.query({
    query: `CREATE TABLE njs.t AS SELECT * FROM UNNEST([STRUCT(1 AS id, STRUCT(1 AS a, [STRUCT('x' AS y)] AS b) AS s),
      STRUCT(2, NULL), STRUCT(3, STRUCT(NULL, [STRUCT<y STRING>(NULL), NULL]))])`,
  });
});
afterAll(async () => t?.emu.close());

describe('JSON of a NULL STRUCT', () => {
  it('is null at top level and as a field; FORMAT %t / %T unchanged (reference evaluator)', async () => {
    expect(
      await row(`SELECT TO_JSON_STRING(STRUCT(CAST(NULL AS STRUCT<a INT64>) AS s)) AS c0,
        TO_JSON_STRING(CAST(NULL AS STRUCT<a INT64>)) AS c1,
        TO_JSON_STRING(STRUCT(CAST(NULL AS STRUCT<a INT64>) AS s), true) AS c2,
        FORMAT('%t|%T', STRUCT(CAST(NULL AS STRUCT<a INT64>) AS s), STRUCT(CAST(NULL AS STRUCT<a INT64>) AS s)) AS c3`),
    ).toEqual(['{"s":null}', 'null', '{\n  "s": null\n}', '(NULL)|STRUCT(NULL)']);
  });

  it('is null inside arrays, unlike a STRUCT of NULL fields (reference evaluator)', async () => {
    expect(
      await row(`SELECT TO_JSON_STRING([STRUCT(1 AS a), NULL, STRUCT(NULL AS a)]) AS c0,
        TO_JSON_STRING(STRUCT([STRUCT(STRUCT(1 AS x) AS a), STRUCT(NULL)] AS arr)) AS c1`),
    ).toEqual(['[{"a":1},null,{"a":null}]', '{"arr":[{"a":{"x":1}},{"a":null}]}']);
  });

  it('is null for TO_JSON and JSON_ARRAY (reference evaluator)', async () => {
    expect(
      await row(`SELECT TO_JSON_STRING(TO_JSON(CAST(NULL AS STRUCT<a INT64>))) AS c0,
        TO_JSON_STRING(TO_JSON(STRUCT(CAST(NULL AS STRUCT<a INT64, b STRING>) AS s, 1 AS t))) AS c1,
        TO_JSON_STRING(JSON_ARRAY(CAST(NULL AS STRUCT<a INT64>), STRUCT(2 AS a))) AS c2`),
    ).toEqual(['null', '{"s":null,"t":1}', '[null,{"a":2}]']);
  });

  it('is null for NULL STRUCT values stored in a table (reference evaluator, same rows via UNNEST)', async () => {
    const rows = ['{"id":1,"s":{"a":1,"b":[{"y":"x"}]}}', '{"id":2,"s":null}', '{"id":3,"s":{"a":null,"b":[{"y":null},null]}}'];
    expect(await col(`SELECT TO_JSON_STRING(t) AS c FROM njs.t AS t ORDER BY id`)).toEqual(rows);
    expect(await col(`SELECT TO_JSON_STRING(TO_JSON(t)) AS c FROM njs.t AS t ORDER BY id`)).toEqual(rows);
    expect(await col(`SELECT TO_JSON_STRING(ARRAY_AGG(s ORDER BY id)) AS c FROM njs.t`)).toEqual([
      '[{"a":1,"b":[{"y":"x"}]},null,{"a":null,"b":[{"y":null},null]}]',
    ]);
  });

});
