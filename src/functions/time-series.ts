/**
 * Time series functions: DATE_BUCKET, DATETIME_BUCKET, TIMESTAMP_BUCKET (BigQuery
 * time-series-functions; semantics and error texts of ZetaSQL's DateBucketizer,
 * DatetimeBucketizer and TimestampBucketizer in zetasql/public/functions/date_time_util.cc).
 *
 * A bucket is `[origin + k·width, origin + (k+1)·width)` for the integer k that contains the
 * input; the result is its lower bound. The origin defaults to 1950-01-01 (00:00:00, UTC for
 * TIMESTAMP). Widths:
 * - DATE: exactly one of MONTH (YEAR, QUARTER) or DAY (WEEK) parts, positive;
 * - DATETIME: exactly one of MONTH, DAY, or a time part (HOUR … MICROSECOND), positive;
 * - TIMESTAMP: DAY (taken as 24 hours) or a time part, never MONTH nor DAY mixed with time.
 * MONTH buckets work on civil months: the bucket starts on the origin's day (clamped to the last
 * day of shorter months; an origin on a month's last day matches every month's last day) and
 * time of day. Results outside the type's range raise `Bucket for <input> is outside of … range`.
 */
import type { FnCall, FnTable } from './registry.js';
import { ivDays, ivMicros, ivMonths } from './interval.js';
import { fail, q } from './util.js';
import { rangeOr } from './datetime-range.js';

const DAY_US = 86400000000n;
/** `a mod b` rounded toward negative infinity (b > 0). */
const modFloor = (a: string, b: string) => `((((${a}) % (${b})) + (${b})) % (${b}))`;

/** The first matching error of `checks` ([condition SQL, message]) or `value`. */
function guarded(c: FnCall, checks: [string, string][], value: string): string {
  const whens = checks.map(([cond, msg]) => `WHEN ${cond} THEN ${fail(c, q(msg))}`).join(' ');
  return `(CASE ${whens} ELSE ${value} END)`;
}

/** Month index (year·12 + month − 1) of a DATE or civil TIMESTAMP. */
const monthIndex = (x: string) => `(year(${x}) * 12 + month(${x}) - 1)`;
/** Whether x falls on the last day of its month. */
const isLastDay = (x: string) => `(day(${x}) = day(last_day(${x})))`;

/**
 * Lower bound of the MONTH bucket of `x` (DATE or civil TIMESTAMP) with origin `o` and width
 * `w` months. `sub(x, day)` gives the sub-month position (day and time) compared with the origin's.
 */
function monthBucket(x: string, o: string, w: string, sub: (v: string, day: string) => string): string {
  const diff = `(${monthIndex(x)} - ${monthIndex(o)})`;
  const rem = modFloor(diff, w);
  const inDay = `(CASE WHEN ${isLastDay(o)} AND ${isLastDay(x)} THEN day(${o}) ELSE day(${x}) END)`;
  const back = `(CASE WHEN ${rem} = 0 AND ${sub(x, inDay)} < ${sub(o, `day(${o})`)} THEN ${w} ELSE 0 END)`;
  // origin + n months keeps the origin's day (clamped to the month's end) and time of day.
  return `(${o} + to_months(CAST(${diff} - ${rem} - ${back} AS INTEGER)))`;
}

/** DATE_BUCKET(date, width[, origin]). */
function dateBucket(c: FnCall): string {
  const [x, w] = c.args;
  const o = c.args[2] ?? `DATE '1950-01-01'`;
  const months = ivMonths(w);
  const days = ivDays(w);
  const byDays = `(${x} - CAST(${modFloor(`(${x} - ${o})`, days)} AS INTEGER))`;
  const byMonths = `CAST(${monthBucket(x, o, months, (_v, day) => day)} AS DATE)`;
  const result = `(CASE WHEN ${months} > 0 THEN ${byMonths} ELSE ${byDays} END)`;
  const out = `Bucket for ' || strftime(${x}, '%Y-%m-%d') || ' is outside of date range`;
  return guarded(
    c,
    [
      [`${ivMicros(w)} > 0`, 'Only MONTH and DAY parts are allowed in bucket width INTERVAL'],
      [`${months} < 0 OR ${days} < 0`, 'Negative bucket width INTERVAL is not allowed'],
      [`(${months} > 0) = (${days} > 0)`, 'Exactly one non-zero INTERVAL part in bucket width is required'],
    ],
    rangeOr(result, 'date', fail(c, `'${out}'`)),
  );
}

/** DATETIME_BUCKET(datetime, width[, origin]) on civil TIMESTAMPs. */
function datetimeBucket(c: FnCall): string {
  const [x, w] = c.args;
  const o = c.args[2] ?? `TIMESTAMP '1950-01-01 00:00:00'`;
  const [months, days, micros] = [ivMonths(w), ivDays(w), ivMicros(w)];
  const width = `(CASE WHEN ${days} > 0 THEN ${days} * ${DAY_US} ELSE ${micros} END)`;
  const byMicros = `make_timestamp(epoch_us(${x}) - ${modFloor(`epoch_us(${x}) - epoch_us(${o})`, width)})`;
  const sub = (v: string, day: string) => `(${day} * ${DAY_US} + epoch_us(${v}) - epoch_us(date_trunc('day', ${v})))`;
  const result = `(CASE WHEN ${months} > 0 THEN ${monthBucket(x, o, months, sub)} ELSE ${byMicros} END)`;
  const out = `Bucket for ' || strftime(${x}, '%Y-%m-%d %H:%M:%S.%f') || ' is outside of datetime range`;
  const set = (e: string) => `(CASE WHEN ${e} > 0 THEN 1 ELSE 0 END)`;
  return guarded(
    c,
    [
      [`${months} < 0 OR ${days} < 0 OR ${micros} < 0`, 'Negative bucket width INTERVAL is not allowed'],
      [`${set(months)} + ${set(days)} + ${set(micros)} <> 1`, 'Exactly one non-zero INTERVAL part in bucket width is required'],
    ],
    rangeOr(result, 'datetime', fail(c, `'${out}'`)),
  );
}

/** TIMESTAMP_BUCKET(timestamp, width[, origin]): DAY is 24 hours. */
function timestampBucket(c: FnCall): string {
  const [x, w] = c.args;
  const o = c.args[2] ?? `TIMESTAMPTZ '1950-01-01 00:00:00+00'`;
  const [months, days, micros] = [ivMonths(w), ivDays(w), ivMicros(w)];
  const width = `(CASE WHEN ${days} > 0 THEN ${days} * ${DAY_US} ELSE ${micros} END)`;
  const us = `(epoch_us(${x}) - ${modFloor(`epoch_us(${x}) - epoch_us(${o})`, width)})`;
  const out = `Bucket for ' || strftime(timezone('UTC', ${x}), '%Y-%m-%d %H:%M:%S.%f') || '+00 is outside of timestamp range`;
  return guarded(
    c,
    [
      [`${months} <> 0`, 'Bucket width INTERVAL with non-zero MONTH part is not allowed'],
      [`${days} < 0 OR ${micros} < 0`, 'Negative bucket width INTERVAL is not allowed'],
      [`${days} <> 0 AND ${micros} <> 0`, 'Bucket width INTERVAL with mixed DAY and MICROSECOND parts is not allowed'],
      [`${days} = 0 AND ${micros} = 0`, 'Zero bucket width INTERVAL is not allowed'],
    ],
    `CASE WHEN ${us} < -62135596800000000 THEN ${fail(c, `'${out}'`)} ELSE make_timestamptz(${us}) END`,
  );
}

/** The time_series_functions page. */
export const TIME_SERIES_FUNCTIONS: FnTable = {
  date_bucket: dateBucket,
  datetime_bucket: datetimeBucket,
  timestamp_bucket: timestampBucket,
  // The change-history table functions need each row's append and change times
  // (time-series-functions#appends, #changes), which the emulator does not record.
  appends: { unsupported: 'it reads the change history of a table (when each row was appended), which the emulator does not record' },
  changes: { unsupported: 'it reads the change history of a table (when each row was appended, updated or deleted), which the emulator does not record' },
  // time-series-functions#gap_fill: a table-valued function whose output columns follow its arguments.
  gap_fill: { unsupported: 'the GAP_FILL table-valued function is not implemented by the emulator' },
};
