/**
 * FORMAT's `'` (digit grouping) flag and its signed `%o %x %X` through the real client. Expected
 * values: the ZetaSQL reference evaluator (`EvaluateQuery`, test/differential/evaluator.ts), run
 * on each query here (string_functions#format_string lists the `'` flag).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
/** The single row of `query` as its column values in order. */
const row = async (query: string) => Object.values(((await t.bq.query({ query }))[0] as Record<string, unknown>[])[0]!);

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe("FORMAT's ' flag", () => {
  it('groups integer digits by 3 with commas, hex digits by 4 with colons, octal by 4, before the width', async () => {
    expect(
      await row(`SELECT FORMAT("%'d", 123456789) AS a, FORMAT("%'d", -1234) AS b, FORMAT("%'.2f", 1234567.891) AS c, FORMAT("%'10d|", 12345) AS d,
        FORMAT("%'x", 123456789) AS e, FORMAT("%'g", 1234567.0) AS f, FORMAT("%'X", 255) AS g, FORMAT("%'G", 123456.0) AS h,
        FORMAT("%'-12d|", 1234567) AS i, FORMAT("%'012d|", 1234567) AS j, FORMAT("%'+d", 1234) AS k, FORMAT("%'o", 123456789) AS l`),
    ).toEqual(['123,456,789', '-1,234', '1,234,567.89', '    12,345|', '75b:cd15', '1.23457e+06', 'FF', '123,456', '1,234,567   |', '0001,234,567|', '+1,234', '7,2674,6425']);
  });

  it("keeps prefixes, signs and zero padding ungrouped; %e and %s ignore the flag", async () => {
    expect(
      await row(`SELECT FORMAT("%'#x", 123456789) AS a, FORMAT("%'#o", 123456789) AS b, FORMAT("%'+012d|", 1234567) AS c, FORMAT("%'f", CAST('inf' AS FLOAT64)) AS d,
        FORMAT("%' d", 1234) AS e, FORMAT("%'.3e", 1234567.0) AS f, FORMAT("%'014.2f|", -1234567.891) AS g, FORMAT("%'#.0f", 1234.0) AS h, FORMAT("%'s", 'abc') AS i`),
    ).toEqual(['0x75b:cd15', '07,2674,6425', '+001,234,567|', 'inf', ' 1,234', '1.235e+06', '-01,234,567.89|', '1,234.', 'abc']);
  });
});

describe('FORMAT %o %x %X', () => {
  it('are signed: the magnitude after the sign, padded after the sign and prefix', async () => {
    expect(
      await row(`SELECT FORMAT('%x', -1) AS a, FORMAT('%X', -255) AS b, FORMAT('%8x|', -255) AS c, FORMAT('%08x|', -255) AS d, FORMAT('%#08x|', -255) AS e,
        FORMAT('%-8x|', -255) AS f, FORMAT('%.4x', -255) AS g, FORMAT('%x', -9223372036854775808) AS h, FORMAT('%+x', 255) AS i, FORMAT('%o', -8) AS j, FORMAT('%#08x|', 255) AS k`),
    ).toEqual(['-1', '-FF', '     -ff|', '-00000ff|', '-0x000ff|', '-ff     |', '-00ff', '-8000000000000000', '+ff', '-10', '0x0000ff|']);
  });
});
