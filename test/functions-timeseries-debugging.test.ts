/**
 * DATE_BUCKET / DATETIME_BUCKET / TIMESTAMP_BUCKET and IFERROR / ISERROR / NULLIFERROR through the
 * real client. Expected values: BigQuery's documentation examples (time-series-functions
 * date-bucket-1/-2, datetime-bucket-1/-2, timestamp-bucket-1/-2; debugging_functions iferror-*,
 * iserror-*, nulliferror-*), error texts of ZetaSQL's bucketizers (date_time_util.cc), and month
 * buckets worked out by hand from the documented definition.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
const val = (v: unknown) => (v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v);
const col = async (query: string, name = 'b') => (await q(query)).map((r) => val(r[name]));

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('time series bucket functions', () => {
  it('DATE_BUCKET with the default origin and with an origin (docs date-bucket-1, date-bucket-2)', async () => {
    const dates = `UNNEST([DATE '1949-12-29', '1949-12-30', '1949-12-31', '1950-01-01', '1950-01-02', '1950-01-03']) AS d WITH OFFSET o`;
    expect(await col(`SELECT DATE_BUCKET(d, INTERVAL 2 DAY) AS b FROM ${dates} ORDER BY o`)).toEqual([
      '1949-12-28', '1949-12-30', '1949-12-30', '1950-01-01', '1950-01-01', '1950-01-03',
    ]);
    const dates2 = `UNNEST([DATE '2000-12-20', '2000-12-21', '2000-12-22', '2000-12-23', '2000-12-24', '2000-12-25']) AS d WITH OFFSET o`;
    expect(await col(`SELECT DATE_BUCKET(d, INTERVAL 7 DAY, DATE '2000-12-24') AS b FROM ${dates2} ORDER BY o`)).toEqual([
      '2000-12-17', '2000-12-17', '2000-12-17', '2000-12-17', '2000-12-24', '2000-12-24',
    ]);
  });

  it('DATETIME_BUCKET (docs datetime-bucket-1, datetime-bucket-2)', async () => {
    const dts = `UNNEST([DATETIME '1949-12-30 13:00:00', '1949-12-31 00:00:00', '1949-12-31 13:00:00', '1950-01-01 00:00:00', '1950-01-01 13:00:00', '1950-01-02 00:00:00']) AS d WITH OFFSET o`;
    expect(await col(`SELECT DATETIME_BUCKET(d, INTERVAL 12 HOUR) AS b FROM ${dts} ORDER BY o`)).toEqual([
      '1949-12-30T12:00:00', '1949-12-31T00:00:00', '1949-12-31T12:00:00', '1950-01-01T00:00:00', '1950-01-01T12:00:00', '1950-01-02T00:00:00',
    ]);
    const dts2 = `UNNEST([DATETIME '2000-12-20 00:00:00', '2000-12-21 00:00:00', '2000-12-22 00:00:00', '2000-12-23 00:00:00', '2000-12-24 00:00:00', '2000-12-25 00:00:00']) AS d WITH OFFSET o`;
    expect(await col(`SELECT DATETIME_BUCKET(d, INTERVAL 7 DAY, DATETIME '2000-12-22 12:00:00') AS b FROM ${dts2} ORDER BY o`)).toEqual([
      '2000-12-15T12:00:00', '2000-12-15T12:00:00', '2000-12-15T12:00:00', '2000-12-22T12:00:00', '2000-12-22T12:00:00', '2000-12-22T12:00:00',
    ]);
  });

  it('TIMESTAMP_BUCKET (docs timestamp-bucket-1, timestamp-bucket-2, in UTC)', async () => {
    const ts = `UNNEST([TIMESTAMP '1949-12-30 13:00:00', '1949-12-31 00:00:00', '1949-12-31 13:00:00', '1950-01-01 00:00:00', '1950-01-01 13:00:00', '1950-01-02 00:00:00']) AS d WITH OFFSET o`;
    expect(await col(`SELECT STRING(TIMESTAMP_BUCKET(d, INTERVAL 12 HOUR)) AS b FROM ${ts} ORDER BY o`)).toEqual([
      '1949-12-30 12:00:00+00', '1949-12-31 00:00:00+00', '1949-12-31 12:00:00+00', '1950-01-01 00:00:00+00', '1950-01-01 12:00:00+00', '1950-01-02 00:00:00+00',
    ]);
    const ts2 = `UNNEST([TIMESTAMP '2000-12-20 00:00:00', '2000-12-21 00:00:00', '2000-12-22 00:00:00', '2000-12-23 00:00:00', '2000-12-24 00:00:00', '2000-12-25 00:00:00']) AS d WITH OFFSET o`;
    expect(await col(`SELECT STRING(TIMESTAMP_BUCKET(d, INTERVAL 7 DAY, TIMESTAMP '2000-12-22 12:00:00')) AS b FROM ${ts2} ORDER BY o`)).toEqual([
      '2000-12-15 12:00:00+00', '2000-12-15 12:00:00+00', '2000-12-15 12:00:00+00', '2000-12-22 12:00:00+00', '2000-12-22 12:00:00+00', '2000-12-22 12:00:00+00',
    ]);
  });

  it('MONTH buckets keep the origin day, clamped to short months (DateBucketizer)', async () => {
    // 1950-01-01 + 602 months = 2000-03-01; 2000-04-15 is 603 months after the origin.
    expect(await col(`SELECT DATE_BUCKET(DATE '2000-04-15', INTERVAL 2 MONTH) AS b`)).toEqual(['2000-03-01']);
    // Origin on a month's last day: every month's last day starts a bucket.
    expect(await col(`SELECT DATE_BUCKET(DATE '2000-02-29', INTERVAL 1 MONTH, DATE '2000-01-31') AS b`)).toEqual(['2000-02-29']);
    expect(await col(`SELECT DATE_BUCKET(DATE '2000-02-28', INTERVAL 1 MONTH, DATE '2000-01-31') AS b`)).toEqual(['2000-01-31']);
    expect(await col(`SELECT DATETIME_BUCKET(DATETIME '2001-07-01 05:00:00', INTERVAL 1 QUARTER, DATETIME '2000-01-01 06:00:00') AS b`)).toEqual([
      '2001-04-01T06:00:00',
    ]);
  });

  it('rejects bucket widths as ZetaSQL does, and NULL gives NULL', async () => {
    const err = async (sql: string) => (await errorOf(q(sql))).message;
    expect(await err(`SELECT DATE_BUCKET(DATE '2000-01-01', INTERVAL 1 HOUR)`)).toContain('Only MONTH and DAY parts are allowed in bucket width INTERVAL');
    expect(await err(`SELECT TIMESTAMP_BUCKET(TIMESTAMP '2000-01-01', INTERVAL 1 MONTH)`)).toContain('Bucket width INTERVAL with non-zero MONTH part is not allowed');
    expect(await err(`SELECT TIMESTAMP_BUCKET(TIMESTAMP '2000-01-01', INTERVAL 0 SECOND)`)).toContain('Zero bucket width INTERVAL is not allowed');
    expect(await err(`SELECT DATETIME_BUCKET(DATETIME '2000-01-01', INTERVAL -1 DAY)`)).toContain('Negative bucket width INTERVAL is not allowed');
    expect(await err(`SELECT DATETIME_BUCKET(DATETIME '2000-01-01', INTERVAL '1 2' DAY TO HOUR)`)).toContain(
      'Exactly one non-zero INTERVAL part in bucket width is required',
    );
    expect(await col(`SELECT DATE_BUCKET(NULL, INTERVAL 2 DAY) AS b`)).toEqual([null]);
  });
});

describe('IFERROR, ISERROR, NULLIFERROR', () => {
  it('IFERROR (docs iferror-1, -3, -4, -5)', async () => {
    expect(await col(`SELECT IFERROR('a', 'b') AS b`)).toEqual(['a']);
    expect(await col(`SELECT IFERROR(ERROR('a'), 'b') AS b`)).toEqual(['b']);
    expect(await col(`SELECT IFERROR((SELECT [1,2,3][OFFSET(9)]), -1) AS b`)).toEqual([-1]);
    expect(await col(`SELECT IFERROR((SELECT [1,2,3][OFFSET(0)]), -1) AS b`)).toEqual([1]);
    expect(await col(`SELECT IFERROR(IFERROR(ERROR('a'), 'b'), 'c') AS b`)).toEqual(['b']);
  });

  it("IFERROR raises its catch expression's error (docs: IFERROR(ERROR('a'), ERROR('b')))", async () => {
    expect((await errorOf(q(`SELECT IFERROR(ERROR('a'), ERROR('b')) AS b`))).message).toBe('b');
  });

  it('ISERROR (docs iserror-2, -5, -6) and NULLIFERROR (docs nulliferror-1..-4)', async () => {
    const [r] = await q(
      `SELECT ISERROR('a') a, ISERROR(2/1) b, ISERROR(ERROR('a')) c, ISERROR(2/0) d, ISERROR((SELECT [1,2,3][OFFSET(9)])) e,
              NULLIFERROR('a') f, NULLIFERROR((SELECT [1,2,3][OFFSET(0)])) g, NULLIFERROR(ERROR('a')) h, NULLIFERROR((SELECT [1,2,3][OFFSET(9)])) i`,
    );
    expect(r).toEqual({ a: false, b: false, c: true, d: true, e: true, f: 'a', g: 1, h: null, i: null });
  });

  it('catches per row, tells errors from NULL values, and catches cast errors', async () => {
    const rows = await q(`SELECT x, IFERROR(10 / x, -1) AS r, ISERROR(CAST(NULL AS INT64)) AS n, ISERROR(CAST(s AS INT64)) AS c
      FROM UNNEST([STRUCT(0 AS x, 'a' AS s), (2, '7')]) ORDER BY x`);
    expect(rows).toEqual([
      { x: 0, r: -1, n: false, c: true },
      { x: 2, r: 5, n: false, c: false },
    ]);
  });

  it('rejects try expressions it cannot catch with a clear "not supported" error', async () => {
    const e = await errorOf(q(`SELECT ISERROR((SELECT e FROM UNNEST([1, 2]) AS e)) AS is_error`));
    expect(e.message).toMatch(/ISERROR over an expression with a subquery .* is not supported by bqemu/);
  });
});
