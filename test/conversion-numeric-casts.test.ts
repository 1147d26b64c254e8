/**
 * Casts between the numeric types through the real client, where DuckDB's own casts are not
 * BigQuery's: FLOAT64 → NUMERIC from the double's exact binary value (DuckDB multiplies in double
 * precision), BIGNUMERIC → INT64 past DECIMAL(38,0)'s range. Expected values and error texts: the
 * ZetaSQL reference evaluator (`EvaluateQuery`, test/differential/evaluator.ts), run on each query
 * here; conversion_rules ("The floating point number will round half away from zero").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const err = async (query: string) => (await errorOf(t.bq.query({ query }))).message;
/** The first column of every row, in order, as text (INT64 wrapped by the client, NUMERIC a Big). */
const column = async (query: string) => {
  const [rows] = await t.bq.query({ query, wrapIntegers: true });
  return (rows as Record<string, unknown>[]).map((r) => {
    const v = Object.values(r)[0] as { value?: string; toFixed?: () => string } | null;
    if (v === null) return null;
    return v.value ?? v.toFixed!();
  });
};

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('FLOAT64 → NUMERIC', () => {
  it("rounds the double's exact value half away from zero at 9 digits", async () => {
    // Both paths of the lowering: values DuckDB's own cast gets right (1234.5, -0.25, 4499999.123456789,
    // an integer past 2^52) and values only the exact conversion gets right (the rest).
    const values = '[1.0000000005, 0.0000000015, 12345678.123456789, 43499999.99999991, 0.0009765625, 123.4567890125, 1e29, -1e-300, 1234.5, -0.25, 4499999.123456789, 4503599627370496.0]';
    expect(await column(`SELECT CAST(x * 1 AS NUMERIC) AS a FROM UNNEST(${values}) x WITH OFFSET o ORDER BY o`)).toEqual([
      '1.000000001',
      '0.000000001',
      '12345678.123456789',
      '43499999.999999911',
      '0.000976563',
      '123.456789012',
      '99999999999999991433150857216',
      '0',
      '1234.5',
      '-0.25',
      '4499999.123456789',
      '4503599627370496',
    ]);
  });
});

describe('BIGNUMERIC → INT64', () => {
  it('rounds half away from zero and names the value past the INT64 range, however large', async () => {
    expect(await column(`SELECT CAST(x AS INT64) FROM UNNEST([BIGNUMERIC '2.5', BIGNUMERIC '-2.5', BIGNUMERIC '-9223372036854775808.4']) x WITH OFFSET o ORDER BY o`)).toEqual([
      '3',
      '-3',
      '-9223372036854775808',
    ]);
    expect(await err(`SELECT CAST(BIGNUMERIC '1e38' AS INT64) AS a`)).toBe('int64 out of range: 100000000000000000000000000000000000000');
    expect(await err(`SELECT CAST(BIGNUMERIC '9223372036854775807.5' AS INT64) AS a`)).toBe('int64 out of range: 9223372036854775807.5');
    expect(await err(`SELECT CAST(NUMERIC '9223372036854775807.5' AS INT64) AS a`)).toBe('int64 out of range: 9223372036854775807.5');
    expect(await column(`SELECT SAFE_CAST(-BIGNUMERIC '1e38' AS INT64) AS a`)).toEqual([null]);
  });
});
