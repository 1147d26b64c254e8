/**
 * GROUP BY, DISTINCT and window PARTITION BY honour collation (BigQuery "Collation": operations
 * affected include GROUP BY and WINDOW): under `und:ci` 'a' and 'A' are one group. Which of the
 * equal values a group shows is not documented, so only the grouping is checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t.emu.close());

const q = async (query: string) => (await t.bq.query({ query }))[0] as Record<string, unknown>[];
const INPUT = "UNNEST(['a', 'A', 'b', 'B', 'b']) AS x";

describe('collation in grouping', () => {
  it('GROUP BY a collated key groups case-insensitively under und:ci', async () => {
    const rows = await q(`SELECT COLLATE(x, 'und:ci') AS k, COUNT(*) AS n FROM ${INPUT} GROUP BY 1`);
    const byKey = new Map(rows.map((r) => [String(r.k).toLowerCase(), r.n]));
    expect(rows).toHaveLength(2);
    expect(byKey).toEqual(new Map([['a', 2], ['b', 3]]));
  });

  it('DISTINCT over a collated value keeps one value per collation class', async () => {
    const rows = await q(`SELECT DISTINCT COLLATE(x, 'und:ci') AS k FROM ${INPUT}`);
    expect(rows.map((r) => String(r.k).toLowerCase()).sort()).toEqual(['a', 'b']);
  });

  it('PARTITION BY a collated value partitions case-insensitively; binary stays case-sensitive', async () => {
    const rows = await q(`SELECT x, COUNT(*) OVER (PARTITION BY COLLATE(x, 'und:ci')) AS ci, COUNT(*) OVER (PARTITION BY x) AS cs FROM ${INPUT} ORDER BY x`);
    expect(rows.map((r) => [r.x, r.ci, r.cs])).toEqual([
      ['A', 2, 1],
      ['B', 3, 1],
      ['a', 2, 1],
      ['b', 3, 2],
      ['b', 3, 2],
    ]);
  });
});
