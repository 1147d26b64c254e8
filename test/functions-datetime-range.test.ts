/**
 * Date and time functions whose result would fall outside BigQuery's range (DATE/DATETIME
 * 0001-01-01 … 9999-12-31, TIMESTAMP 0001-01-01 00:00:00 … 9999-12-31 23:59:59.999999 UTC), through
 * the real client. Every expected error text and value was taken from the ZetaSQL reference
 * evaluator (test/differential/evaluator.ts), which implements BigQuery's function library; the
 * SAFE. forms give NULL there.
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

const UNIX_RANGE = 'cannot be converted into a TIMESTAMP, because it would be out of the allowed range between -62135596800000000 to 253402300799999999 (microseconds)';

/** [expression, reference evaluator's error]. */
const ERRORS: [string, string][] = [
  ['TIMESTAMP_SECONDS(253402300800)', `Input value 253402300800 ${UNIX_RANGE}`],
  ['TIMESTAMP_SECONDS(-62135596801)', `Input value -62135596801 ${UNIX_RANGE}`],
  ['TIMESTAMP_MILLIS(253402300800000)', `Input value 253402300800000 ${UNIX_RANGE}`],
  ['TIMESTAMP_MICROS(253402300800000000)', `Input value 253402300800000000 ${UNIX_RANGE}`],
  ["TIMESTAMP('9999-12-31 23:59:59.999999', 'America/Los_Angeles')", 'Invalid timestamp string "9999-12-31 23:59:59.999999"'],
  ["TIMESTAMP('0001-01-01 00:00:00+05')", 'Invalid timestamp string "0001-01-01 00:00:00+05"'],
  ["CAST('9999-12-31 23:59:59-08' AS TIMESTAMP)", 'Invalid timestamp string "9999-12-31 23:59:59-08" (scale TIMESTAMP_NANOSECOND)'],
  ["TIMESTAMP(DATETIME '9999-12-31 23:59:59', 'America/Los_Angeles')", 'Cannot convert Datetime 9999-12-31 23:59:59 at timezone America/Los_Angeles to a Timestamp'],
  ["TIMESTAMP(DATETIME '0001-01-01 00:00:00.5', 'UTC+3')", 'Cannot convert Datetime 0001-01-01 00:00:00.500 at timezone Fixed/UTC+03:00:00 to a Timestamp'],
  ["TIMESTAMP(DATE '0001-01-01', 'Asia/Tokyo')", 'Cannot convert date 0001-01-01 to timestamp'],
  ["DATE(TIMESTAMP '0001-01-01 00:00:00 UTC', 'America/Los_Angeles')", 'Invalid date extracted from timestamp 0000-12-31 16:08:00-07:52'],
  ["DATETIME(TIMESTAMP '9999-12-31 23:00:00 UTC', '+05:30')", 'Invalid Datetime [INVALID]extracted from timestamp 10000-01-01 04:30:00+05:30'],
  ["EXTRACT(DATE FROM TIMESTAMP '9999-12-31 23:00:00 UTC' AT TIME ZONE '+05')", 'Invalid date extracted from timestamp 10000-01-01 04:00:00+05'],
  ['DATETIME(9999, 12, 31, 23, 59, 60)', 'Input calculates to invalid datetime: 9999-12-31 0023:59:60'],
  ["LAST_DAY(DATE '9999-12-31', WEEK)", 'Last day of date 9999-12-31 to WEEK resulted in an out of range date value: 2932897'],
  ["LAST_DAY(DATETIME '9999-12-31 10:00:00', WEEK(FRIDAY))", 'Last day of date 9999-12-31 to WEEK(FRIDAY) resulted in an out of range date value: 2932902'],
  ["LAST_DAY(DATE '9999-12-31', ISOYEAR)", 'Last day of date 9999-12-31 to ISOYEAR resulted in an out of range date value: 2932898'],
  ["DATE_TRUNC(DATE '0001-01-02', WEEK)", 'Truncating date 0001-01-02 to WEEK resulted in an out of range date value: -719163'],
  ["DATETIME_TRUNC(DATETIME '0001-01-01 05:00:00', WEEK(SATURDAY))", 'Truncating date 0001-01-01 to WEEK(SATURDAY) resulted in an out of range date value: -719164'],
  ["TIMESTAMP_TRUNC(TIMESTAMP '0001-01-01 00:00:00 UTC', WEEK)", 'Truncating 0001-01-01 00:00:00+00 to the nearest week causes overflow'],
  ["TIMESTAMP_TRUNC(TIMESTAMP '0001-01-01 00:00:00 UTC', WEEK, 'America/Los_Angeles')", 'Truncating 0000-12-31 16:08:00-07:52 to the nearest week causes overflow'],
  ["TIMESTAMP_TRUNC(TIMESTAMP '0001-01-01 00:00:00 UTC', DAY, '+05:30')", 'Truncating to the nearest DAY causes underflow at timezone Fixed/UTC+05:30:00'],
  ["TIMESTAMP_TRUNC(TIMESTAMP '0001-01-01 00:00:00 UTC', MINUTE, 'America/Los_Angeles')", 'Truncating to the nearest MINUTE causes underflow at timezone America/Los_Angeles'],
  ["TIMESTAMP_TRUNC(TIMESTAMP '0001-01-01 00:00:00 UTC', ISOYEAR, '-01')", 'Invalid date value: -719163'],
  ["PARSE_TIMESTAMP('%Y-%m-%d %H:%M:%S%z', '9999-12-31 23:59:59-0800')", 'Invalid result from parsing function'],
  ["PARSE_DATE('%Y-%m-%d', '0000-12-31')", 'Invalid result from parsing function'],
];

describe('date and time functions past the range', () => {
  it.each(ERRORS)('%s is an error', async (expr, message) => {
    expect(await err(`SELECT ${expr} AS c`)).toBe(message);
  });

  it('gives NULL under SAFE, and keeps the values at the ends of the range', async () => {
    expect(
      await one(`SELECT SAFE.TIMESTAMP_SECONDS(253402300800) AS a, SAFE.TIMESTAMP(DATETIME '9999-12-31 23:59:59', '-08') AS b,
        SAFE.LAST_DAY(DATE '9999-12-31', WEEK) AS c, SAFE.DATE_TRUNC(DATE '0001-01-01', WEEK) AS d,
        SAFE.TIMESTAMP_TRUNC(TIMESTAMP '0001-01-01 00:00:00 UTC', WEEK) AS e, SAFE.DATE(TIMESTAMP '0001-01-01 00:00:00 UTC', '-05:30') AS f,
        SAFE.PARSE_TIMESTAMP('%Y-%m-%d %H:%M:%S%z', '9999-12-31 23:59:59-0800') AS g, SAFE_CAST('0001-01-01 00:00:00 Asia/Tokyo' AS TIMESTAMP) AS h`),
    ).toEqual({ a: null, b: null, c: null, d: null, e: null, f: null, g: null, h: null });
    expect(
      await one(`SELECT CAST(TIMESTAMP_MICROS(253402300799999999) AS STRING) AS a, CAST(TIMESTAMP_SECONDS(-62135596800) AS STRING) AS b,
        CAST(TIMESTAMP('9999-12-31 15:59:59.999999', 'America/Los_Angeles') AS STRING) AS c, LAST_DAY(DATE '9999-12-31', WEEK(SATURDAY)) AS d,
        DATE_TRUNC(DATE '0001-01-01', ISOWEEK) AS e, CAST(TIMESTAMP_TRUNC(TIMESTAMP '0001-01-07 10:00:00 UTC', WEEK) AS STRING) AS f,
        DATE(TIMESTAMP '9999-12-31 23:00:00 UTC', '-05') AS g, CAST(DATETIME(2020, 1, 1, 0, 0, 60) AS STRING) AS h`),
    ).toEqual({ a: '9999-12-31 23:59:59.999999+00', b: '0001-01-01 00:00:00+00', c: '9999-12-31 23:59:59.999999+00', d: '9999-12-31', e: '0001-01-01', f: '0001-01-07 00:00:00+00', g: '9999-12-31', h: '2020-01-01 00:01:00' });
  });

  it('gives NULL for a NULL TIMESTAMP plus an interval with months', async () => {
    // Reference evaluator: NULL; the month part is refused only for a timestamp that is there.
    expect(await one(`SELECT CAST(NULL AS TIMESTAMP) + JUSTIFY_HOURS(INTERVAL '1-2' YEAR TO MONTH) AS a, CAST(NULL AS TIMESTAMP) - INTERVAL 1 MONTH AS b`)).toEqual({ a: null, b: null });
  });
});
