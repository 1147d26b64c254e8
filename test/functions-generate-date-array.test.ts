/**
 * GENERATE_DATE_ARRAY with MONTH / QUARTER / YEAR steps from a day past the 28th, through the real
 * client: each element is the previous one plus the step, so a month-end clamp carries forward.
 * Expected values: the ZetaSQL reference evaluator (test/differential/evaluator.ts), e.g.
 * GENERATE_DATE_ARRAY(DATE '2020-01-31', DATE '2020-05-31', INTERVAL 1 MONTH) =
 * [2020-01-31, 2020-02-29, 2020-03-29, 2020-04-29, 2020-05-29].
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const dates = async (args: string) => {
  const [rows] = await t.bq.query({ query: `SELECT GENERATE_DATE_ARRAY(${args}) AS c` });
  return ((rows[0] as { c: { value: string }[] }).c ?? []).map((d) => d.value);
};

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('GENERATE_DATE_ARRAY month steps (reference evaluator)', () => {
  it('carries a month-end clamp forward', async () => {
    expect(await dates(`DATE '2020-01-31', DATE '2020-05-31', INTERVAL 1 MONTH`)).toEqual(['2020-01-31', '2020-02-29', '2020-03-29', '2020-04-29', '2020-05-29']);
    expect(await dates(`DATE '2020-03-31', DATE '2020-07-31', INTERVAL 1 MONTH`)).toEqual(['2020-03-31', '2020-04-30', '2020-05-30', '2020-06-30', '2020-07-30']);
    expect(await dates(`DATE '2020-01-31', DATE '2021-01-31', INTERVAL 5 MONTH`)).toEqual(['2020-01-31', '2020-06-30', '2020-11-30']);
    expect(await dates(`DATE '9999-10-31', DATE '9999-12-31', INTERVAL 1 MONTH`)).toEqual(['9999-10-31', '9999-11-30', '9999-12-30']);
    // A step far past the end builds no element beyond it (was a DuckDB range error).
    expect(await dates(`DATE '2020-01-31', DATE '2020-05-31', INTERVAL 100000000 MONTH`)).toEqual(['2020-01-31']);
    expect(await dates(`DATE '2020-05-31', DATE '2020-01-31', INTERVAL -10000000000 DAY`)).toEqual(['2020-05-31']);
  });

  it('carries it forward for negative steps', async () => {
    expect(await dates(`DATE '2020-05-31', DATE '2020-01-01', INTERVAL -1 MONTH`)).toEqual(['2020-05-31', '2020-04-30', '2020-03-30', '2020-02-29', '2020-01-29']);
    expect(await dates(`DATE '2020-12-31', DATE '2020-01-01', INTERVAL -3 MONTH`)).toEqual(['2020-12-31', '2020-09-30', '2020-06-30', '2020-03-30']);
    expect(await dates(`DATE '0001-03-31', DATE '0001-01-01', INTERVAL -1 MONTH`)).toEqual(['0001-03-31', '0001-02-28', '0001-01-28']);
  });

  it('carries it forward for QUARTER and YEAR steps', async () => {
    expect(await dates(`DATE '2019-08-31', DATE '2021-12-31', INTERVAL 1 QUARTER`)).toEqual([
      '2019-08-31', '2019-11-30', '2020-02-29', '2020-05-29', '2020-08-29', '2020-11-29', '2021-02-28', '2021-05-28', '2021-08-28', '2021-11-28',
    ]);
    expect(await dates(`DATE '2020-02-29', DATE '2025-03-01', INTERVAL 1 YEAR`)).toEqual(['2020-02-29', '2021-02-28', '2022-02-28', '2023-02-28', '2024-02-28', '2025-02-28']);
  });

  it('keeps unclamped days and WEEK steps; clamps a long month array', async () => {
    expect(await dates(`DATE '2020-01-30', DATE '2020-12-31', INTERVAL 2 MONTH`)).toEqual(['2020-01-30', '2020-03-30', '2020-05-30', '2020-07-30', '2020-09-30', '2020-11-30']);
    expect(await dates(`DATE '2020-01-31', DATE '2020-03-10', INTERVAL 1 WEEK`)).toEqual(['2020-01-31', '2020-02-07', '2020-02-14', '2020-02-21', '2020-02-28', '2020-03-06']);
    // 15,600 monthly elements (under the reference evaluator's 16,000-element limit), all on the 28th.
    const [rows] = await t.bq.query({
      query: `SELECT ARRAY_LENGTH(a) AS n, a[OFFSET(1)] AS second, a[ORDINAL(ARRAY_LENGTH(a))] AS last
        FROM (SELECT GENERATE_DATE_ARRAY(DATE '0001-01-31', DATE '1300-12-31', INTERVAL 1 MONTH) AS a)`,
    });
    const r = rows[0] as { n: number; second: { value: string }; last: { value: string } };
    expect([r.n, r.second.value, r.last.value]).toEqual([15600, '0001-02-28', '1300-12-28']);
  });
});
