/**
 * Set operations matched by column name (src/analyzer/set-by-name.ts) through `@google-cloud/bigquery`:
 * `CORRESPONDING`, `CORRESPONDING BY (…)`, `BY NAME [ON (…)]` and the `INNER`/`FULL`/`LEFT [OUTER]`/
 * `STRICT` modes over UNION, INTERSECT and EXCEPT, ALL and DISTINCT (BigQuery query-syntax "BY NAME or
 * CORRESPONDING", https://cloud.google.com/bigquery/docs/reference/standard-sql/query-syntax#by_name_or_corresponding).
 * Expected rows are hand-computed from the one-row inputs by the rules of that section (output
 * columns: the first input's common ones for INNER, the first input's for LEFT, the first input's
 * then the others' new ones for FULL, the listed ones for BY / ON; a missing column is NULL). Error
 * texts that this analyzer also produces itself for plain CORRESPONDING are compared with its text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
/** Rows as arrays in column order (the column order is part of what the modes decide). */
const rows = async (query: string) => (await q(query)).map((r) => Object.entries(r));

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

const abc = 'SELECT 1 AS a, 2 AS b, 3 AS c';

describe('column matching modes', () => {
  it('CORRESPONDING (INNER): the columns of the first input that every input has, in its order', async () => {
    expect(await rows(`${abc} UNION ALL CORRESPONDING SELECT 20 AS b, 10 AS a ORDER BY a`)).toEqual([
      [['a', 1], ['b', 2]],
      [['a', 10], ['b', 20]],
    ]);
  });

  it('CORRESPONDING BY (…) and BY NAME ON (…): the listed columns, in the listed order', async () => {
    expect(await rows(`${abc} UNION ALL CORRESPONDING BY (b, a) SELECT 20 AS b, 10 AS a ORDER BY a`)).toEqual([
      [['b', 2], ['a', 1]],
      [['b', 20], ['a', 10]],
    ]);
    expect(await rows(`${abc} UNION ALL BY NAME ON (c) SELECT 30 AS c, 9 AS d ORDER BY c`)).toEqual([[['c', 3]], [['c', 30]]]);
  });

  it('FULL OUTER: every input column, NULL where an input lacks it (UNION DISTINCT, INTERSECT ALL, EXCEPT ALL)', async () => {
    expect(await rows('SELECT 1 AS a, 2 AS b FULL OUTER UNION DISTINCT CORRESPONDING SELECT 3 AS c, 1 AS a ORDER BY b')).toEqual([
      [['a', 1], ['b', null], ['c', 3]],
      [['a', 1], ['b', 2], ['c', null]],
    ]);
    expect(await rows('SELECT 1 AS a, 2 AS b FULL INTERSECT ALL CORRESPONDING SELECT 2 AS b, 1 AS a')).toEqual([[['a', 1], ['b', 2]]]);
    expect(await rows('SELECT 1 AS a, 2 AS b FULL EXCEPT ALL CORRESPONDING SELECT 1 AS a, 9 AS c')).toEqual([[['a', 1], ['b', 2], ['c', null]]]);
    expect(await rows('SELECT 1 AS a, 2 AS b FULL UNION ALL CORRESPONDING BY (c, a) SELECT 1 AS a, 3 AS c ORDER BY c')).toEqual([
      [['c', null], ['a', 1]],
      [['c', 3], ['a', 1]],
    ]);
  });

  it("LEFT OUTER: the first input's columns, NULL where another input lacks one", async () => {
    expect(await rows('SELECT 1 AS a, 2 AS b LEFT OUTER UNION DISTINCT CORRESPONDING SELECT 1 AS a, 7 AS c ORDER BY b')).toEqual([
      [['a', 1], ['b', null]],
      [['a', 1], ['b', 2]],
    ]);
    expect(await q('SELECT 1 AS a, 2 AS b LEFT EXCEPT DISTINCT CORRESPONDING SELECT 2 AS b, 1 AS a')).toEqual([]);
    expect(await rows('SELECT 1 AS a, 2 AS b LEFT INTERSECT DISTINCT CORRESPONDING SELECT 1 AS a')).toEqual([]);
  });

  it('STRICT CORRESPONDING and BY NAME: the same names in every input, matched by name', async () => {
    expect(await rows('SELECT 1 AS a, 2 AS b INTERSECT ALL STRICT CORRESPONDING SELECT 2 AS b, 1 AS a')).toEqual([[['a', 1], ['b', 2]]]);
    expect(await rows('SELECT 1 AS a, 2 AS b EXCEPT DISTINCT BY NAME SELECT 2 AS b, 1 AS a')).toEqual([]);
    expect(await rows('SELECT * FROM (SELECT 1 AS a, 2 AS b) UNION ALL BY NAME SELECT 20 AS b, 10 AS a ORDER BY a')).toEqual([
      [['a', 1], ['b', 2]],
      [['a', 10], ['b', 20]],
    ]);
  });
});

describe('errors (400 invalidQuery)', () => {
  const fails = async (sql: string) => {
    const e = await errorOf(q(sql));
    expect(e.code).toBe(400);
    expect(e.errors?.[0]?.reason).toBe('invalidQuery');
    return e.message;
  };

  it("duplicate columns: the analyzer's text for CORRESPONDING, also in the modes it cannot resolve", async () => {
    const native = await fails('SELECT 1 AS a UNION ALL CORRESPONDING SELECT 2 AS b, 3 AS b');
    expect(native).toBe('Duplicate columns found when using CORRESPONDING in set operations: b in query 2 at [1:39]');
    expect(await fails('SELECT 1 AS a FULL UNION ALL CORRESPONDING SELECT 2 AS b, 3 AS b')).toBe('Duplicate columns found when using CORRESPONDING in set operations: b in query 2 at [1:44]');
    expect(await fails('SELECT 1 AS a, 1 AS a UNION ALL BY NAME SELECT 1 AS a')).toBe('Duplicate columns found when using CORRESPONDING in set operations: a in query 1 at [1:1]');
  });

  it('no column in common (INNER, LEFT)', async () => {
    const native = await fails('SELECT 1 AS a UNION ALL CORRESPONDING SELECT 1 AS b');
    expect(native).toBe('Queries of the set operation using CORRESPONDING do not have any columns in common at [1:15]');
    expect(await fails('SELECT 1 AS a LEFT UNION ALL CORRESPONDING SELECT 2 AS b')).toMatch(/^Queries of the set operation using CORRESPONDING do not have any columns in common at \[1:\d+\]$/);
  });

  it('missing columns: STRICT / BY NAME names differ; a listed column an input lacks', async () => {
    expect(await fails('SELECT 1 AS a, 2 AS b UNION ALL BY NAME SELECT 1 AS a')).toMatch(/STRICT CORRESPONDING/);
    expect(await fails(`${abc} UNION ALL BY NAME ON (c) SELECT 1 AS a`)).toMatch(/\bc\b/);
    expect(await fails('SELECT 1 AS a LEFT UNION ALL CORRESPONDING BY (a, c) SELECT 1 AS a, 3 AS c')).toMatch(/\bc\b/);
  });
});
