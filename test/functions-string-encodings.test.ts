/**
 * FROM_BASE64 / CAST … FORMAT 'BASE64' and 'BASE8', FROM_HEX, SOUNDEX, INITCAP with delimiters,
 * SPLIT (BYTES, NULL delimiter) and CONCAT under REPEAT through the real client.
 * Expected values and error texts: the ZetaSQL reference evaluator (`EvaluateQuery`,
 * test/differential/evaluator.ts), run on each query here — absl's base64 rules (white space
 * skipped, `=` or `.` padding that must complete the last group, no padding needed), the offset in
 * FROM_HEX's error — and string_functions#repeat (REPEAT of NULL is NULL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
/** The single row of `query`, BYTES as base64 text. */
const one = async (query: string) => {
  const [rows] = await t.bq.query({ query });
  const r = rows[0] as Record<string, unknown>;
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Buffer.isBuffer(v) ? v.toString('base64') : v]));
};
const err = async (query: string) => (await errorOf(t.bq.query({ query }))).message;

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('FROM_BASE64 and CAST … FORMAT BASE64', () => {
  it('skips white space, takes `=` or `.` as padding and needs none', async () => {
    expect(
      await one(`SELECT FROM_BASE64('YWJ') AS a, FROM_BASE64('YW..') AS b, FROM_BASE64('YW.=') AS c, FROM_BASE64(' Y W J j ') AS d,
        FROM_BASE64('YW\\tI=') AS e, FROM_BASE64('A bc.') AS f, FROM_BASE64('') AS g, CAST(' A bc.' AS BYTES FORMAT 'BASE64M') AS h,
        CAST('YWJjZA' AS BYTES FORMAT 'BASE64') AS i`),
    ).toEqual({ a: 'YWI=', b: 'YQ==', c: 'YQ==', d: 'YWJj', e: 'YWI=', f: 'Abc=', g: '', h: 'Abc=', i: 'YWJjZA==' });
  });

  it('rejects padding that does not complete the last group, a 1-character tail and text after the padding', async () => {
    for (const text of ['YWJj=', 'YQ=', 'YWJjZA===', 'Y', 'YW=I', 'YQ==YQ==', '==', '-_'])
      expect(await err(`SELECT FROM_BASE64('${text}') AS b`), text).toBe('Failed to decode invalid base64 string');
    expect(await err(`SELECT CAST('YWJjZA=' AS BYTES FORMAT 'BASE64') AS b`)).toBe('Failed to decode invalid base64 string');
    expect(await one(`SELECT SAFE.FROM_BASE64('YQ=') AS a`)).toEqual({ a: null });
  });
});

describe('FROM_HEX', () => {
  it("names the offset of the first character that is not a hex digit", async () => {
    expect(await err(`SELECT FROM_HEX('ab cd') AS b`)).toBe('Failed to decode invalid hexadecimal string due to character at offset 2: ab cd');
    expect(await err(`SELECT FROM_HEX('zz') AS b`)).toBe('Failed to decode invalid hexadecimal string due to character at offset 0: zz');
    expect(await one(`SELECT FROM_HEX('abc') AS a, SAFE.FROM_HEX('0g') AS b`)).toEqual({ a: 'Crw=', b: null });
  });
});

describe('CAST … FORMAT BASE8', () => {
  it('keeps the low bits of a leading group too large for its bytes', async () => {
    expect(await one(`SELECT CAST('616263' AS BYTES FORMAT 'BASE8') AS a, CAST('777' AS BYTES FORMAT 'BASE8') AS b, CAST('712345670' AS BYTES FORMAT 'BASE8') AS c`)).toEqual({
      a: 'HLM=',
      b: '/w==',
      c: 'BynLuA==',
    });
  });
});

describe('SOUNDEX and INITCAP', () => {
  it('SOUNDEX keeps the first letter as written; INITCAP keeps its delimiters as written', async () => {
    expect(await one(`SELECT SOUNDEX('apple') AS a, SOUNDEX('Apple') AS b, SOUNDEX('1apple') AS c, SOUNDEX('ashcraft') AS d`)).toEqual({ a: 'a140', b: 'A140', c: 'a140', d: 'a261' });
    expect(await one(`SELECT INITCAP('aEb', 'E') AS a, INITCAP('tHisEisEaESentence', 'E') AS b, INITCAP('hello-WORLD foo', '-') AS c`)).toEqual({
      a: 'AEB',
      b: 'ThisEIsEAESentence',
      c: 'Hello-World foo',
    });
  });
});

describe('SPLIT', () => {
  it('splits BYTES at byte boundaries only, into bytes for an empty delimiter', async () => {
    const [rows] = await t.bq.query({
      query: `SELECT SPLIT(b',a,,b,', b',') AS a, SPLIT(b'a::b', b'::') AS b, SPLIT(b'\\x12\\x34', b'\\x23') AS c, SPLIT(b'abc', b'') AS d, SPLIT(b'', b',') AS e`,
    });
    const b64 = (xs: Buffer[]) => xs.map((x) => x.toString('base64'));
    const r = rows[0] as Record<string, Buffer[]>;
    expect([b64(r.a!), b64(r.b!), b64(r.c!), b64(r.d!), b64(r.e!)]).toEqual([['', 'YQ==', '', 'Yg==', ''], ['YQ==', 'Yg=='], ['EjQ='], ['YQ==', 'Yg==', 'Yw=='], ['']]);
  });

  it('is NULL for a NULL delimiter', async () => {
    expect(await one(`SELECT ARRAY_LENGTH(SPLIT('a,b', CAST(NULL AS STRING))) IS NULL AS a, ARRAY_LENGTH(SPLIT(b'a,b', NULL)) IS NULL AS b`)).toEqual({ a: true, b: true });
  });
});

describe('CONCAT as an argument', () => {
  it('keeps its STRING type when an argument is a NULL literal (REPEAT of it is NULL, not a DuckDB error)', async () => {
    expect(
      await one(`SELECT REPEAT(CONCAT('a', CAST(NULL AS STRING)), 2) AS a, REPEAT(CAST(NULL AS STRING) || 'x', 2) AS b,
        REPEAT(CONCAT('a', 'b'), 2) AS c, TO_HEX(REPEAT(CONCAT(b'a', CAST(NULL AS BYTES)), 2)) AS d`),
    ).toEqual({ a: null, b: null, c: 'abab', d: null });
  });
});
