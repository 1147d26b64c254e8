/**
 * FLATTEN through the real client: the analyzer's FLATTEN rewrite, lowered end to end (the
 * function-table entry in src/functions/array.ts is never reached). Expected values: BigQuery's
 * documentation examples (array_functions flatten-1, flatten-2, flatten-3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const one = async (query: string) => ((await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[])[0];

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('FLATTEN', () => {
  it('flattens nested array paths (docs flatten-1, flatten-2, flatten-3)', async () => {
    const nested = `WITH t AS (
      SELECT [
        STRUCT([STRUCT([1,2,3] AS quantity), STRUCT([4,5,6] AS quantity)] AS sales),
        STRUCT([STRUCT([7,8] AS quantity), STRUCT([] AS quantity)] AS sales)
      ] AS v)`;
    expect(await one(`${nested} SELECT FLATTEN(v.sales.quantity) AS all_values FROM t`)).toEqual({ all_values: [1, 2, 3, 4, 5, 6, 7, 8] });
    const second = `WITH t AS (
      SELECT [
        STRUCT([STRUCT([1,2,3] AS quantity), STRUCT([4,5,6] AS quantity)] AS sales),
        STRUCT([STRUCT([7,8,9] AS quantity), STRUCT([10,11,12] AS quantity)] AS sales)
      ] AS v)`;
    expect(await one(`${second} SELECT FLATTEN(v.sales.quantity[OFFSET(1)]) AS second_values FROM t`)).toEqual({ second_values: [2, 5, 8, 11] });
    const prices = `WITH t AS (SELECT [STRUCT(1 AS price, 2 AS quantity), STRUCT(10 AS price, 20 AS quantity)] AS v)`;
    expect(await one(`${prices} SELECT FLATTEN(v.price) AS all_prices FROM t`)).toEqual({ all_prices: [1, 10] });
  });
});
