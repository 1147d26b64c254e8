/**
 * NULL handling of the approximate aggregate functions through the real client. Every expected
 * value is a documented result of BigQuery's "Approximate aggregate functions" page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/approximate_aggregate_functions),
 * named by its docs-examples corpus id (conformance/docs-examples/visible.jsonl) or, for the
 * examples that corpus leaves out, by the page section; the empty and all-NULL cases follow the
 * page's sentences "Returns NULL if there are zero input rows" (all four functions) and "or
 * `expression` evaluates to NULL for all rows" (APPROX_QUANTILES), and "APPROX_TOP_COUNT does not
 * ignore NULLs in the input".
 *
 * An ARRAY holding a NULL element cannot be a column of BigQuery's result ("Array cannot have a
 * null element"), so the RESPECT NULLS quantiles are read through FORMAT('%T', …), whose text is
 * the docs' display of the array.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const one = async (query: string) => ((await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[])[0]!;

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('APPROX_TOP_COUNT', () => {
  it('counts NULL as a value (section APPROX_TOP_COUNT, "NULL handling" and "Examples")', async () => {
    const r = await one(`SELECT APPROX_TOP_COUNT(x, 2) AS n FROM UNNEST([NULL, "pear", "pear", "pear", "apple", NULL]) AS x`);
    expect(r.n).toEqual([{ value: 'pear', count: 3 }, { value: null, count: 2 }]);
    const plain = await one(`SELECT APPROX_TOP_COUNT(x, 2) AS n FROM UNNEST(["apple", "apple", "pear", "pear", "pear", "banana"]) AS x`);
    expect(plain.n).toEqual([{ value: 'pear', count: 3 }, { value: 'apple', count: 2 }]);
  });

  it('an all-NULL input is one NULL value; zero rows give NULL', async () => {
    const r = await one(`SELECT APPROX_TOP_COUNT(x, 2) AS n FROM UNNEST(CAST([NULL, NULL, NULL] AS ARRAY<STRING>)) AS x`);
    expect(r.n).toEqual([{ value: null, count: 3 }]);
    const empty = await one(`SELECT APPROX_TOP_COUNT(x, 2) IS NULL AS n FROM UNNEST(CAST([] AS ARRAY<STRING>)) AS x`);
    expect(empty.n).toBe(true);
  });
});

describe('APPROX_TOP_SUM', () => {
  it('NULL weights add nothing; an all-NULL sum ranks last (approx-top-sum-2, approx-top-sum-4)', async () => {
    const a = await one(`SELECT APPROX_TOP_SUM(x, weight, 2) AS s FROM
      UNNEST([STRUCT("apple" AS x, NULL AS weight), ("pear", 0), ("pear", NULL)])`);
    expect(a.s).toEqual([{ value: 'pear', sum: 0 }, { value: 'apple', sum: null }]);
    const b = await one(`SELECT APPROX_TOP_SUM(x, weight, 2) AS s FROM UNNEST([STRUCT("apple" AS x, 0 AS weight), (NULL, NULL)])`);
    expect(b.s).toEqual([{ value: 'apple', sum: 0 }, { value: null, sum: null }]);
  });

  it('a NULL value is summed like any other (section APPROX_TOP_SUM, "NULL handling" second example, and "Examples")', async () => {
    const r = await one(`SELECT APPROX_TOP_SUM(x, weight, 2) AS s FROM UNNEST([STRUCT("apple" AS x, 0 AS weight), (NULL, 2)])`);
    expect(r.s).toEqual([{ value: null, sum: 2 }, { value: 'apple', sum: 0 }]);
    const plain = await one(`SELECT APPROX_TOP_SUM(x, weight, 2) AS s FROM
      UNNEST([STRUCT("apple" AS x, 3 AS weight), ("pear", 2), ("apple", 0), ("banana", 5), ("pear", 4)])`);
    expect(plain.s).toEqual([{ value: 'pear', sum: 6 }, { value: 'banana', sum: 5 }]);
  });

  it('zero rows give NULL', async () => {
    const r = await one(`SELECT APPROX_TOP_SUM(x, w, 2) IS NULL AS s FROM UNNEST(CAST([] AS ARRAY<STRUCT<x STRING, w INT64>>))`);
    expect(r.s).toBe(true);
  });
});

describe('APPROX_QUANTILES', () => {
  const data = '[NULL, NULL, 1, 1, 1, 4, 5, 6, 7, 8, 9, 10]';

  it('RESPECT NULLS ranks NULL first, with and without DISTINCT (approx-quantiles-4; section APPROX_QUANTILES, DISTINCT … RESPECT NULLS)', async () => {
    const r = await one(`SELECT FORMAT('%T', APPROX_QUANTILES(x, 2 RESPECT NULLS)) AS a,
      FORMAT('%T', APPROX_QUANTILES(DISTINCT x, 2 RESPECT NULLS)) AS d FROM UNNEST(${data}) AS x`);
    expect(r).toEqual({ a: '[NULL, 4, 10]', d: '[NULL, 6, 10]' });
  });

  it('IGNORE NULLS stays the default (approx-quantiles-1, approx-quantiles-3)', async () => {
    const r = await one(`SELECT APPROX_QUANTILES(x, 2) AS a, APPROX_QUANTILES(DISTINCT x, 2 IGNORE NULLS) AS d FROM UNNEST(${data}) AS x`);
    expect(r).toEqual({ a: [1, 5, 10], d: [1, 6, 10] });
  });

  it('all-NULL input and zero rows give NULL, whatever the null handling', async () => {
    const r = await one(`SELECT APPROX_QUANTILES(x, 2 RESPECT NULLS) IS NULL AS r, APPROX_QUANTILES(x, 2) IS NULL AS i
      FROM UNNEST(CAST([NULL, NULL] AS ARRAY<INT64>)) AS x`);
    expect(r).toEqual({ r: true, i: true });
    const empty = await one(`SELECT APPROX_QUANTILES(x, 2 RESPECT NULLS) IS NULL AS r FROM UNNEST(CAST([] AS ARRAY<INT64>)) AS x`);
    expect(empty.r).toBe(true);
  });
});
