/**
 * Long chains of arithmetic keep their SQL linear in their length: a lowering that names an operand
 * several times (an overflow or division-by-zero check and then the value) used to copy it at every
 * level, so `SELECT 0.5 + 0 + 1 + … + 10` was 92 MB of SQL and eleven terms answered 500 "Invalid
 * string length" (src/engine/lower/repeated-arguments.ts, src/functions/operators.ts nestedCheck); twelve nested
 * SAFE_CASTs were 67 MB.
 * The answers and error texts are BigQuery's: exact sums of small integers in FLOAT64, `double
 * overflow: <a> <op> <b>` and `division by zero: <a> / <b>` naming the operation that failed
 * (ZetaSQL's arithmetic, "Floating point semantics",
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#floating_point_semantics;
 * "Mathematical functions", DIV). Through `@google-cloud/bigquery`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

const one = async (query: string) => Object.values(((await t.bq.query({ query }))[0] as Record<string, unknown>[])[0])[0];
/** `0 + 1 + … + (n - 1)` as SQL. */
const terms = (n: number) => Array.from({ length: n }, (_, i) => i).join(' + ');

describe('long arithmetic chains', () => {
  it('a FLOAT64 sum of 61 terms answers (sum of 0..60 is 1830)', async () => {
    expect(await one(`SELECT 0.5 + ${terms(61)} AS v`)).toBe(1830.5);
  });

  it('an overflow at the start of a long FLOAT64 chain raises its own error', async () => {
    const e = await errorOf(t.bq.query({ query: `SELECT x * 10 + ${terms(40)} AS v FROM UNNEST([1e308]) AS x` }));
    expect(e.message).toContain('double overflow: 1e+308 * 10');
  });

  it('an overflow of a long operand names both operands', async () => {
    const e = await errorOf(t.bq.query({ query: `SELECT (x + ${terms(40)}) * 1e308 AS v FROM UNNEST([1e10]) AS x` }));
    expect(e.message).toContain('double overflow: 1e+10 * 1e+308');
  });

  it('a chain of 24 FLOAT64 divisions answers, and a division by zero after it names its operands', async () => {
    const chain = `1.5${' / 2'.repeat(24)}`;
    expect(await one(`SELECT ${chain} AS v`)).toBe(1.5 / 2 ** 24);
    const e = await errorOf(t.bq.query({ query: `SELECT (${chain}) / x AS v FROM UNNEST([0.0]) AS x` }));
    expect(e.message).toContain('division by zero: 8.9407e-08 / 0');
  });

  it('30 nested INT64 DIV calls answer, and a zero divisor deep inside raises', async () => {
    const nest = (inner: string) => `${'DIV('.repeat(30)}${inner}${', 1)'.repeat(30)}`;
    expect(await one(`SELECT ${nest('123456789')} AS v`)).toBe(123456789);
    const e = await errorOf(t.bq.query({ query: `SELECT ${nest('DIV(x, 0)')} AS v FROM UNNEST([123456789]) AS x` }));
    expect(e.message).toContain('division by zero: 123456789 / 0');
  });

  it('twelve nested SAFE_CASTs answer (NULL where a cast fails)', async () => {
    let e = 's';
    for (let i = 0; i < 6; i++) e = `SAFE_CAST(SAFE_CAST(${e} AS INT64) AS STRING)`;
    const rows = (await t.bq.query({ query: `SELECT ${e} AS v FROM UNNEST(['42', '4x']) AS s WITH OFFSET o ORDER BY o` }))[0] as { v: string | null }[];
    expect(rows.map((r) => r.v)).toEqual(['42', null]);
  });
});
