/**
 * CAST … FORMAT, EDIT_DISTANCE and PARSE_NUMERIC / PARSE_BIGNUMERIC through the real client.
 * Expected values: BigQuery's documentation examples (format-elements: format year/month/day/
 * hour/minute/second/meridian/time zone part as string, format string as month/day/hour/minute/
 * second/meridian part, format bytes as string; string_functions edit-distance-1/-2/-4;
 * conversion_functions parse-numeric-2..-7) and the error texts of ZetaSQL's cast_date_time.cc and
 * PARSE_NUMERIC (the ZetaSQL reference evaluator).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRow, queryError, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const one = (query: string) => firstRow(t, query);
const err = (query: string) => queryError(t, query);

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('CAST … FORMAT', () => {
  it('formats date and time parts as strings (docs format-*-part-as-string)', async () => {
    expect(
      await one(`SELECT CAST(DATE '2018-01-30' AS STRING FORMAT 'YYYY') AS a, CAST(DATE '2018-01-30' AS STRING FORMAT 'MONTH') AS b,
        CAST(DATE '2018-02-15' AS STRING FORMAT 'DD') AS c, CAST(TIME '21:30:00' AS STRING FORMAT 'HH24') AS d,
        CAST(TIME '21:30:00' AS STRING FORMAT 'HH12') AS e, CAST(TIME '21:30:00' AS STRING FORMAT 'MI') AS f,
        CAST(TIME '21:30:25.16' AS STRING FORMAT 'SS') AS g, CAST(TIME '21:30:25.16' AS STRING FORMAT 'FF2') AS h,
        CAST(TIME '21:30:00' AS STRING FORMAT 'AM') AS i, CAST(TIME '01:30:00' AS STRING FORMAT 'PM') AS j,
        CAST(TIMESTAMP '2008-12-25 00:00:00+00:00' AS STRING FORMAT 'TZH' AT TIME ZONE 'Asia/Kolkata') AS k,
        CAST(TIMESTAMP '2008-12-25 00:00:00+00:00' AS STRING FORMAT 'TZM' AT TIME ZONE 'Asia/Kolkata') AS l`),
    ).toEqual({ a: '2018', b: 'JANUARY', c: '15', d: '21', e: '09', f: '30', g: '25', h: '16', i: 'PM', j: 'AM', k: '+05', l: '30' });
  });

  it('applies the element tables and case matching (docs tables: YYY, DDD, SSSSS, Mon, a.m.)', async () => {
    expect(
      await one(`SELECT CAST(DATE '2018-01-30' AS STRING FORMAT 'YYY') AS a, CAST(DATE '2018-02-03' AS STRING FORMAT 'DDD') AS b,
        CAST(TIME '01:02:03' AS STRING FORMAT 'SSSSS') AS c, CAST(DATE '2018-01-30' AS STRING FORMAT 'Mon') AS d,
        CAST(DATE '2018-01-30' AS STRING FORMAT 'mon') AS e, CAST(TIME '16:02:03' AS STRING FORMAT 'A.M.') AS f,
        CAST(TIME '01:02:03' AS STRING FORMAT 'a.M.') AS g, CAST(DATE '2020-12-31' AS STRING FORMAT 'DY "the" DD/MM/YYYY') AS h`),
    ).toEqual({ a: '018', b: '034', c: '03723', d: 'Jan', e: 'jan', f: 'P.M.', g: 'a.m.', h: 'THU the 31/12/2020' });
  });

  it('parses strings as dates and times (docs format-string-as-*)', async () => {
    expect(
      await one(`SELECT CAST('DEC 03, 2018' AS DATE FORMAT 'MON DD, YYYY') AS a, CAST('DECEMBER 03, 2018' AS DATE FORMAT 'MONTH DD, YYYY') AS b,
        CAST('18-12-03' AS DATE FORMAT 'YY-MM-DD') AS c,
        CAST('15:30' AS TIME FORMAT 'HH24:MI') AS e, CAST('03:30 P.M.' AS TIME FORMAT 'HH:MI P.M.') AS f,
        CAST('03:30 P.M.' AS TIME FORMAT 'HH:MI A.M.') AS g, CAST('01:05:07.16' AS TIME FORMAT 'HH24:MI:SS.FF1') AS h,
        CAST('03:30:02 P.M.' AS TIME FORMAT 'HH:MI:SS P.M.') AS i`),
    ).toEqual({ a: '2018-12-03', b: '2018-12-03', c: '2018-12-03', e: '15:30:00', f: '15:30:00', g: '15:30:00', h: '01:05:07.200000', i: '15:30:02' });
    const [ts] = (await t.bq.query({ query: `SELECT STRING(CAST('2020-06-03 12:34:56 +05:30' AS TIMESTAMP FORMAT 'YYYY-MM-DD HH24:MI:SS TZH:TZM')) AS s` }))[0];
    expect(ts).toEqual({ s: '2020-06-03 07:04:56+00' });
  });

  it('formats bytes (docs format-bytes-as-string, format-string-as-bytes and their element tables)', async () => {
    const r = await one(`SELECT CAST(b'\\x48\\x65\\x6c\\x6c\\x6f' AS STRING FORMAT 'ASCII') AS a, TO_HEX(CAST('Hello' AS BYTES FORMAT 'ASCII')) AS b,
      CAST(b'\\x00\\x01\\xEF\\xFF' AS STRING FORMAT 'HEX') AS c, CAST(b'\\xde\\xad\\xbe\\xef' AS STRING FORMAT 'BASE64M') AS d,
      TO_HEX(CAST('3q2+7w==' AS BYTES FORMAT 'base64')) AS e, CAST(b'\\x24' AS STRING FORMAT 'UTF-8') AS f`);
    expect(r).toEqual({ a: 'Hello', b: '48656c6c6f', c: '0001efff', d: '3q2+7w==', e: 'deadbeef', f: '$' });
  });

  it('raises ZetaSQL errors for invalid models and input; SAFE_CAST gives NULL', async () => {
    expect(await err(`SELECT CAST(DATE '2018-01-30' AS STRING FORMAT 'HH24')`)).toBe("DATE does not support 'HH24'");
    expect(await err(`SELECT CAST('2018-13-01' AS DATE FORMAT 'YYYY-MM-DD')`)).toBe("Failed to parse input timestamp string at 5 with format element 'MM'");
    expect(await err(`SELECT CAST('15:30' AS TIME FORMAT 'HH:MI')`)).toBe("Format element in category MERIDIAN_INDICATOR is required when format element 'HH' exists");
    expect(await err(`SELECT CAST('2018-01-30x' AS DATE FORMAT 'YYYY-MM-DD')`)).toBe("Illegal non-space trailing data 'x' in timestamp string");
    expect(await one(`SELECT SAFE_CAST('2018-13-01' AS DATE FORMAT 'YYYY-MM-DD') AS a`)).toEqual({ a: null });
    expect(await err(`SELECT CAST(12 AS STRING FORMAT '999')`)).toMatch(/FORMAT clause is not supported by bqemu/);
  });
});

describe('EDIT_DISTANCE and PARSE_NUMERIC', () => {
  it('EDIT_DISTANCE (docs edit-distance-1, -2, -4; characters, not bytes)', async () => {
    expect(
      await one(`SELECT EDIT_DISTANCE('a', 'b') AS a, EDIT_DISTANCE('aa', 'b') AS b, EDIT_DISTANCE('abcdefg', 'a', max_distance => 2) AS c,
        EDIT_DISTANCE('ä', 'a') AS d, EDIT_DISTANCE(b'\\x01\\x02', b'\\x02') AS e`),
    ).toEqual({ a: 1, b: 2, c: 2, d: 1, e: 1 });
  });

  it('PARSE_NUMERIC accepts spaces, grouping commas, exponents and a trailing sign (docs parse-numeric-2..-7)', async () => {
    const r = await one(`SELECT CAST(PARSE_NUMERIC("12.34E27") AS STRING) AS a, CAST(PARSE_NUMERIC("1.0123456789") AS STRING) AS b,
      CAST(PARSE_NUMERIC("  -  12.34 ") AS STRING) AS c, CAST(PARSE_NUMERIC("12.34e-1-") AS STRING) AS d,
      CAST(PARSE_NUMERIC("  1,2,,3,.45 + ") AS STRING) AS e, CAST(PARSE_NUMERIC(".1234  ") AS STRING) AS f,
      CAST(PARSE_BIGNUMERIC("12.34e-1-") AS STRING) AS g, SAFE.PARSE_NUMERIC("1-2") AS h`);
    expect(r).toEqual({ a: '12340000000000000000000000000', b: '1.012345679', c: '-12.34', d: '-1.234', e: '123.45', f: '0.1234', g: '-1.234', h: null });
  });

  it('PARSE_NUMERIC / PARSE_BIGNUMERIC reject a text with its own wording (the ZetaSQL reference evaluator)', async () => {
    expect(await err(`SELECT PARSE_NUMERIC(' 1 2') AS a`)).toBe('Invalid input to PARSE_NUMERIC: " 1 2"');
    expect(await err(`SELECT PARSE_NUMERIC('1e30') AS a`)).toBe('Invalid input to PARSE_NUMERIC: "1e30"');
    expect(await err(`SELECT PARSE_BIGNUMERIC('123.456E37') AS a`)).toBe('Invalid input to PARSE_BIGNUMERIC: "123.456E37"');
  });
});

describe('CAST of date/time values to STRING', () => {
  it('prints the fraction of a second in groups of three digits for computed values as for literals', async () => {
    // Expected texts are what the ZetaSQL analyzer itself folds `CAST(<literal> AS STRING)` to
    // (e.g. DATETIME '2020-02-29 01:02:03.5' → '2020-02-29 01:02:03.500'); a value read from rows
    // must print the same.
    const [rows] = await t.bq.query(
      `SELECT CAST(dt AS STRING) AS dt, CAST(ts AS STRING) AS ts, CAST(tm AS STRING) AS tm FROM UNNEST([
         STRUCT(DATETIME '2020-02-29 01:02:03.5' AS dt, TIMESTAMP '2020-01-01 00:00:00.25+00' AS ts, TIME '01:02:03.1234' AS tm),
         STRUCT(DATETIME '2020-02-29 01:02:03', TIMESTAMP '2020-01-01 00:00:00+00', TIME '23:59:59.999999')]) ORDER BY dt DESC`,
    );
    expect(rows).toEqual([
      { dt: '2020-02-29 01:02:03.500', ts: '2020-01-01 00:00:00.250+00', tm: '01:02:03.123400' },
      { dt: '2020-02-29 01:02:03', ts: '2020-01-01 00:00:00+00', tm: '23:59:59.999999' },
    ]);
  });
});
