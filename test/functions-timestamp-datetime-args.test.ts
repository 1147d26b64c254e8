/**
 * TIMESTAMP_DIFF / TIMESTAMP_ADD / TIMESTAMP_SUB / TIMESTAMP_TRUNC called with DATETIME (or DATE,
 * coerced to DATETIME) arguments through the real client: they answer as DATETIME_DIFF / _ADD /
 * _SUB / _TRUNC. Expected values: the answers of the ZetaSQL reference evaluator
 * (test/differential/evaluator.ts) to each query below.
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

describe('TIMESTAMP_* functions with DATETIME arguments', () => {
  it('TIMESTAMP_DIFF of DATETIMEs counts part boundaries crossed, as DATETIME_DIFF', async () => {
    expect(
      await one(`SELECT TIMESTAMP_DIFF(DATETIME '2024-03-25 00:00:00', DATETIME '2024-03-24 23:00:00', DAY) AS day,
        TIMESTAMP_DIFF(DATETIME '2024-03-24 23:00:00', DATETIME '2024-03-25 00:00:00', DAY) AS neg,
        TIMESTAMP_DIFF(DATETIME '2024-03-25 00:00:00', DATETIME '2024-03-24 23:30:00', HOUR) AS hour,
        TIMESTAMP_DIFF(DATETIME '2024-03-25 00:00:00', DATETIME '2024-03-24 23:59:30', MINUTE) AS minute,
        TIMESTAMP_DIFF(DATETIME '2024-03-25 00:00:00', DATETIME '2024-03-24 23:59:59.5', SECOND) AS second,
        TIMESTAMP_DIFF(DATETIME '2024-03-25 00:00:00.001', DATETIME '2024-03-24 23:59:59.9995', MILLISECOND) AS ms,
        TIMESTAMP_DIFF(DATETIME '2024-03-25 00:00:00', DATETIME '2024-03-24 23:59:30', MICROSECOND) AS us,
        TIMESTAMP_DIFF(DATETIME '2024-03-25 00:00:00', CAST(NULL AS DATETIME), DAY) AS nul`),
    ).toEqual({ day: 1, neg: -1, hour: 1, minute: 1, second: 1, ms: 2, us: 30000000, nul: null });
    // TIMESTAMPs keep counting whole parts elapsed, and refuse WEEK.
    expect(await one(`SELECT TIMESTAMP_DIFF(TIMESTAMP '2024-03-25 00:00:00', TIMESTAMP '2024-03-24 23:00:00', DAY) AS c`)).toEqual({ c: 0 });
    expect(await err(`SELECT TIMESTAMP_DIFF(TIMESTAMP '2024-03-25', TIMESTAMP '2024-03-19', WEEK) AS c`)).toContain(
      'TIMESTAMP_DIFF does not support the WEEK date part when the argument is TIMESTAMP type',
    );
  });

  it('TIMESTAMP_DIFF of DATETIMEs or DATEs takes WEEK, ISOWEEK, MONTH, QUARTER, YEAR and ISOYEAR', async () => {
    expect(
      await one(`SELECT TIMESTAMP_DIFF(DATETIME '2024-03-25', DATETIME '2024-03-19', WEEK) AS week,
        TIMESTAMP_DIFF(DATETIME '2024-03-25', DATETIME '2024-03-19', WEEK(MONDAY)) AS monday,
        TIMESTAMP_DIFF(DATETIME '2024-03-25', DATETIME '2024-03-19', ISOWEEK) AS isoweek,
        TIMESTAMP_DIFF(DATETIME '2024-03-25', DATETIME '2023-12-31', MONTH) AS month,
        TIMESTAMP_DIFF(DATETIME '2024-03-25', DATETIME '2023-12-31', QUARTER) AS quarter,
        TIMESTAMP_DIFF(DATETIME '2024-01-01', DATETIME '2023-12-31 23:59:59', YEAR) AS year,
        TIMESTAMP_DIFF(DATETIME '2024-01-01', DATETIME '2023-12-31 23:59:59', ISOYEAR) AS isoyear,
        TIMESTAMP_DIFF(DATE '2024-03-25', DATE '2024-03-19', WEEK) AS date_week,
        TIMESTAMP_DIFF(DATE '2024-03-25', DATE '2024-03-19', DAY) AS date_day,
        (SELECT TIMESTAMP_DIFF(d, DATE '2023-12-19', MONTH) FROM UNNEST([DATE '2024-03-25']) AS d) AS date_month`),
    ).toEqual({ week: 1, monday: 1, isoweek: 1, month: 3, quarter: 1, year: 1, isoyear: 1, date_week: 1, date_day: 6, date_month: 3 });
  });

  it('TIMESTAMP_ADD / TIMESTAMP_SUB of a DATETIME or DATE take calendar parts and overflow as a datetime', async () => {
    expect(
      await one(`SELECT TIMESTAMP_ADD(DATETIME '2024-03-25 10:00:00', INTERVAL 1 MONTH) AS month,
        TIMESTAMP_SUB(DATETIME '2024-03-31 10:00:00', INTERVAL 1 MONTH) AS clamp,
        TIMESTAMP_ADD(DATETIME '2024-03-25 10:00:00', INTERVAL 1 WEEK) AS week,
        TIMESTAMP_ADD(DATETIME '2024-03-25 10:00:00', INTERVAL 1 QUARTER) AS quarter,
        TIMESTAMP_ADD(DATETIME '2024-02-29 10:00:00', INTERVAL 1 YEAR) AS year,
        TIMESTAMP_SUB(DATETIME '2024-03-25 10:00:00', INTERVAL 90 MINUTE) AS minute,
        TIMESTAMP_SUB(DATE '2024-03-31', INTERVAL 1 MONTH) AS date_month,
        SAFE.TIMESTAMP_ADD(DATETIME '9999-12-31 10:00:00', INTERVAL 1 DAY) AS safe`),
    ).toEqual({
      month: '2024-04-25T10:00:00', clamp: '2024-02-29T10:00:00', week: '2024-04-01T10:00:00', quarter: '2024-06-25T10:00:00',
      year: '2025-02-28T10:00:00', minute: '2024-03-25T08:30:00', date_month: '2024-02-29T00:00:00', safe: null,
    });
    expect(await err(`SELECT TIMESTAMP_ADD(DATETIME '9999-12-31 10:00:00', INTERVAL 1 DAY) AS c`)).toBe('Adding 1 DAY to datetime 9999-12-31 10:00:00 causes overflow');
    expect(await err(`SELECT TIMESTAMP_SUB(DATETIME '0001-01-01 00:00:00', INTERVAL 3 DAY) AS c`)).toBe('Subtracting 3 DAY from datetime 0001-01-01 00:00:00 causes overflow');
  });
});
