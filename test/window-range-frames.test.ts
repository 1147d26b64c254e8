/**
 * RANGE window frames through the real client. BigQuery's window function calls page
 * (window-function-calls#def_window_frame): a RANGE frame with a `n PRECEDING`/`n FOLLOWING`
 * boundary needs exactly one numeric ORDER BY key (the analyzer's errors below); a frame bounded
 * only by UNBOUNDED and CURRENT ROW follows any ORDER BY (the page's default frame for an ordered
 * aggregate, `RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW`, takes the peers of the whole key).
 * Expected values are worked out by hand from tiny inputs: a row's frame holds the rows whose key
 * lies in [key − start, key + end] (NULL keys are peers of each other only; NaN likewise), or, for
 * several keys, all rows up to (or from) the current row's peers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

// (a, b, c): peers on (a, b) are the two (1, 'x') rows.
const ROWS = `UNNEST([STRUCT(1 AS a, 'x' AS b, 1 AS c), (1, 'x', 2), (1, 'y', 4), (2, 'a', 8)])`;
// FLOAT64 keys with NULL and NaN.
const FLOATS = `UNNEST([STRUCT(1.0 AS a, 1 AS c), (1.5, 2), (CAST('nan' AS FLOAT64), 4), (NULL, 8), (3.0, 16)])`;

describe('RANGE frames over several ORDER BY keys', () => {
  it('UNBOUNDED PRECEDING AND CURRENT ROW runs to the last peer of the whole key', async () => {
    const rows = await q(`SELECT a, b, SUM(c) OVER (ORDER BY a, b RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM ${ROWS} ORDER BY a, b, s`);
    expect(rows.map((r) => r.s)).toEqual([3, 3, 7, 15]);
  });

  it('CURRENT ROW AND UNBOUNDED FOLLOWING, CURRENT ROW AND CURRENT ROW, and a DESC key', async () => {
    const rows = await q(`SELECT a, b,
        SUM(c) OVER (ORDER BY a, b RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS f,
        SUM(c) OVER (ORDER BY a, b RANGE BETWEEN CURRENT ROW AND CURRENT ROW) AS p,
        SUM(c) OVER (ORDER BY a DESC, b RANGE UNBOUNDED PRECEDING) AS d
      FROM ${ROWS} ORDER BY a, b`);
    expect(rows.map((r) => [r.f, r.p, r.d])).toEqual([
      [15, 3, 11],
      [15, 3, 11],
      [12, 4, 15],
      [8, 8, 8],
    ]);
  });

  it('with an offset boundary the analyzer asks for exactly one numeric key', async () => {
    const e = await errorOf(q(`SELECT SUM(c) OVER (ORDER BY a, b RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM ${ROWS}`));
    expect(e.message).toMatch(/^A RANGE-based window with OFFSET PRECEDING or OFFSET FOLLOWING boundaries must have exactly one ORDER BY key/);
    const f = await errorOf(q(`SELECT SUM(c) OVER (ORDER BY b RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM ${ROWS}`));
    expect(f.message).toMatch(/^ORDER BY key must be numeric in a RANGE-based window with OFFSET PRECEDING or OFFSET FOLLOWING boundaries/);
  });
});

describe('RANGE frames with an offset over one key', () => {
  it('a FLOAT64 key with NULL and NaN (each its own peers)', async () => {
    const rows = await q(`SELECT a,
        SUM(c) OVER (ORDER BY a RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS back,
        SUM(c) OVER (ORDER BY a DESC RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS around
      FROM ${FLOATS} ORDER BY a`);
    // BigQuery's order: NULL, NaN, 1.0, 1.5, 3.0.
    expect(rows.map((r) => [r.back, r.around])).toEqual([
      [8, 8],
      [4, 4],
      [1, 3],
      [3, 3],
      [16, 16],
    ]);
  });

  it('an UNBOUNDED side over a FLOAT64 key without NaN; NULL rows come first', async () => {
    const rows = await q(`SELECT a, SUM(c) OVER (ORDER BY a RANGE BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING) AS s
      FROM UNNEST([STRUCT(1.0 AS a, 1 AS c), (1.5, 2), (NULL, 8), (3.0, 16)]) ORDER BY a`);
    expect(rows.map((r) => r.s)).toEqual([8, 11, 11, 27]);
  });

  it('INT64 and NUMERIC keys within partitions', async () => {
    const rows = await q(`SELECT p, k, SUM(c) OVER (PARTITION BY p ORDER BY k RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) AS s,
        SUM(c) OVER (PARTITION BY p ORDER BY CAST(k AS NUMERIC) / 2 RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING) AS n
      FROM UNNEST([STRUCT('x' AS p, 1 AS k, 1 AS c), ('x', 2, 2), ('x', 4, 4), ('y', 1, 8), ('y', 5, 16)]) ORDER BY p, k`);
    expect(rows.map((r) => [r.s, r.n])).toEqual([
      [1, 3],
      [3, 6],
      [6, 4],
      [8, 8],
      [16, 16],
    ]);
  });

  it('NaN under an offset frame with an UNBOUNDED side, and a BIGNUMERIC key, are refused by name', async () => {
    const e = await errorOf(q(`SELECT SUM(c) OVER (ORDER BY a RANGE BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING) AS s FROM ${FLOATS}`));
    expect(e.code).toBe(400);
    expect(e.message).toMatch(/FLOAT64 ORDER BY key holding NaN is not supported by bqemu$/);
    const f = await errorOf(q(`SELECT SUM(c) OVER (ORDER BY d RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM UNNEST([STRUCT(BIGNUMERIC '1.5' AS d, 1 AS c)])`));
    expect(f.code).toBe(400);
    expect(f.message).toMatch(/BIGNUMERIC ORDER BY key is not supported by bqemu$/);
  });
});
