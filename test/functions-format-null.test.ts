/**
 * FORMAT with NULL arguments through the real client. Expected values: BigQuery's string functions
 * page (https://cloud.google.com/bigquery/docs/reference/standard-sql/string_functions#format_string,
 * "NULL argument handling": a NULL format string gives NULL; a NULL argument gives NULL except for
 * `%t` / `%T`, which print `NULL`, e.g. `FORMAT('00-%t-00', NULL)` = `00-NULL-00`) and the answers
 * of the ZetaSQL reference evaluator (test/differential/evaluator.ts) to each query below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const rows = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
const one = async (query: string) => (await rows(query))[0];

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('FORMAT with NULL arguments', () => {
  it('a NULL argument of %s %d %i %f %F %e %E %g %G %o %x %X (with width, precision, flags) or a NULL format string gives NULL', async () => {
    expect(
      await one(`SELECT FORMAT('-%s-', CAST(NULL AS STRING)) AS s, FORMAT('%d', CAST(NULL AS INT64)) AS d,
        FORMAT('%i', CAST(NULL AS INT64)) AS i, FORMAT('%f', CAST(NULL AS FLOAT64)) AS f, FORMAT('%F', CAST(NULL AS FLOAT64)) AS f2,
        FORMAT('%e', CAST(NULL AS FLOAT64)) AS e, FORMAT('%E', CAST(NULL AS NUMERIC)) AS e2, FORMAT('%g', CAST(NULL AS FLOAT64)) AS g,
        FORMAT('%G', CAST(NULL AS FLOAT64)) AS g2, FORMAT('%o', CAST(NULL AS INT64)) AS o, FORMAT('%x', CAST(NULL AS INT64)) AS x,
        FORMAT('%X', CAST(NULL AS INT64)) AS x2, FORMAT('%5d|', CAST(NULL AS INT64)) AS w, FORMAT('%-08.3f|', CAST(NULL AS FLOAT64)) AS p,
        FORMAT('%%%s', CAST(NULL AS STRING)) AS pct, FORMAT(CAST(NULL AS STRING), 1) AS nf, FORMAT(CAST(NULL AS STRING)) AS nf0`),
    ).toEqual({ s: null, d: null, i: null, f: null, f2: null, e: null, e2: null, g: null, g2: null, o: null, x: null, x2: null, w: null, p: null, pct: null, nf: null, nf0: null });
    expect(await rows(`SELECT FORMAT('%d', x) AS c FROM UNNEST([1, NULL, 3]) AS x WITH OFFSET o ORDER BY o`)).toEqual([{ c: '1' }, { c: null }, { c: '3' }]);
  });

  it('only %t and %T print NULL (padded and cut like any text, also inside arrays and structs); another NULL still nulls the result', async () => {
    expect(
      await one(`SELECT FORMAT('%t', CAST(NULL AS STRING)) AS a, FORMAT('%T', CAST(NULL AS STRING)) AS b,
        FORMAT('%10t|', CAST(NULL AS INT64)) AS c, FORMAT('%-10T|', CAST(NULL AS DATE)) AS d, FORMAT('%.2t|', CAST(NULL AS INT64)) AS e,
        FORMAT('%.2T|', CAST(NULL AS INT64)) AS f, FORMAT('%T', CAST(NULL AS BYTES)) AS g, FORMAT('%t', CAST(NULL AS TIMESTAMP)) AS h,
        FORMAT('00-%t-00', CAST(NULL AS INT64)) AS i`),
    ).toEqual({ a: 'NULL', b: 'NULL', c: '      NULL|', d: 'NULL      |', e: 'NU|', f: 'NU|', g: 'NULL', h: 'NULL', i: '00-NULL-00' });
    expect(
      await one(`SELECT FORMAT('%t', [1, NULL]) AS a, FORMAT('%T', [1, NULL]) AS b,
        FORMAT('%t', STRUCT(1 AS a, CAST(NULL AS STRING) AS b)) AS c, FORMAT('%T', STRUCT(1 AS a, CAST(NULL AS STRING) AS b)) AS d,
        FORMAT('%t', CAST(NULL AS ARRAY<INT64>)) AS e, FORMAT('%T', CAST(NULL AS ARRAY<INT64>)) AS f,
        FORMAT('%T', CAST(NULL AS STRUCT<a INT64>)) AS g`),
    ).toEqual({ a: '[1, NULL]', b: '[1, NULL]', c: '(1, NULL)', d: '(1, NULL)', e: 'NULL', f: 'NULL', g: 'NULL' });
    expect(await one(`SELECT FORMAT('%s %t', CAST(NULL AS STRING), 1) AS a, FORMAT('%t %s', 1, CAST(NULL AS STRING)) AS b`)).toEqual({ a: null, b: null });
  });
});
