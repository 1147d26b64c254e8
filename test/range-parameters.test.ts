/**
 * RANGE query parameters with an open end, as @google-cloud/bigquery sends them: `bq.range('[2020-01-01,
 * UNBOUNDED)', 'DATE')` becomes `rangeValue: {start: {value: '2020-01-01'}, end: {value: 'UNBOUNDED'}}`
 * (the client's BigQueryRange#value). The bound is unbounded, as UNBOUNDED is in a range's text form
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#range_type); RANGE_START /
 * RANGE_END of an unbounded side are NULL (range_functions#range_end).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('RANGE parameters', () => {
  it('an UNBOUNDED start or end from the client is an open side', async () => {
    const [rows] = await t.bq.query({
      query: 'SELECT CAST(RANGE_START(@a) AS STRING) AS a_start, RANGE_END(@a) IS NULL AS a_open, RANGE_START(@b) IS NULL AS b_open, CAST(RANGE_END(@b) AS STRING) AS b_end',
      params: { a: t.bq.range('[2020-01-01, UNBOUNDED)', 'DATE'), b: t.bq.range('[UNBOUNDED, 2021-06-30)', 'DATE') },
    });
    expect(rows).toEqual([{ a_start: '2020-01-01', a_open: true, b_open: true, b_end: '2021-06-30' }]);
  });
});
