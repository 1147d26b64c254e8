/**
 * Date/time functions. Expected values: recorded fixtures standard_functions/dt_*, tz_*, null_*,
 * parse_*; BigQuery docs examples (date_functions, datetime_functions, time_functions,
 * timestamp_functions, interval_functions, format-elements).
 */
import { describe, expect, it } from 'vitest';
import { errorOf, evText, lit, lower, T, text } from './testkit.js';
import type { Arg } from './testkit.js';

const d = lit.date;
const dt = lit.dt;
const ts = lit.ts;
const p = lit.part;
const t = (name: string, ret: Parameters<typeof evText>[1], ...args: Arg[]) => evText(name, ret, args);

describe('constructors and EXTRACT', () => {
  it('DATE/DATETIME/TIME/TIMESTAMP constructors (docs date-1, datetime-1, time-1, dt_*_constructor)', async () => {
    expect(await t('date', T.date, lit.int(2016), lit.int(12), lit.int(25))).toBe('2016-12-25');
    expect(await t('date', T.date, dt('2016-12-25 23:59:59'))).toBe('2016-12-25');
    expect(await t('date', T.date, ts('2016-12-25 05:30:00+07'), lit.str('America/Los_Angeles'))).toBe('2016-12-24');
    expect(await t('datetime', T.dt, lit.int(2024), lit.int(1), lit.int(15), lit.int(12), lit.int(34), lit.int(56))).toBe('2024-01-15 12:34:56');
    expect(await t('datetime', T.dt, ts('2008-12-25 05:30:00+00'), lit.str('America/Los_Angeles'))).toBe('2008-12-24 21:30:00');
    expect(await t('datetime', T.dt, d('2008-12-25'), lit.time('15:30:00'))).toBe('2008-12-25 15:30:00');
    expect(await t('time', T.time, lit.int(12), lit.int(30), lit.int(45))).toBe('12:30:45');
    expect(await t('time', T.time, ts('2008-12-25 15:30:00+08'), lit.str('America/Los_Angeles'))).toBe('23:30:00');
    expect(await t('time', T.time, ts('2024-01-15 12:30:45+00'))).toBe('12:30:45');
    expect(await t('time', T.time, dt('2008-12-25 15:30:00'))).toBe('15:30:00');
    expect(await t('timestamp', T.ts, lit.str('2008-12-25 15:30:00+00'))).toBe('2008-12-25 15:30:00+00');
    expect(await t('timestamp', T.ts, lit.str('2008-12-25 15:30:00'), lit.str('America/Los_Angeles'))).toBe('2008-12-25 23:30:00+00');
    expect(await t('timestamp', T.ts, lit.str('2008-12-25 15:30:00 UTC'))).toBe('2008-12-25 15:30:00+00');
    expect(await t('timestamp', T.ts, lit.str('2008-12-25T15:30:00'), lit.str('+05:30'))).toBe('2008-12-25 10:00:00+00');
    expect(await t('timestamp', T.ts, d('2008-12-25'))).toBe('2008-12-25 00:00:00+00');
    expect(await errorOf(lower('timestamp', T.ts, [lit.str('nope')]))).toBe("Invalid timestamp: 'nope'");
  });

  it('EXTRACT parts (docs extract-*, dt_extract_*, tz_extract_*)', async () => {
    const ex = (x: Arg, part: string, tz?: string) => t('$extract', T.int, x, p(part), ...(tz ? [lit.str(tz)] : []));
    expect(await ex(d('2013-12-25'), 'DAY')).toBe('25');
    expect(await ex(d('2024-04-23'), 'YEAR')).toBe('2024');
    expect(await ex(d('2024-04-23'), 'MONTH')).toBe('4');
    expect(await ex(d('2024-01-01'), 'ISOYEAR')).toBe('2024');
    expect(await ex(ts('2024-01-15 12:00:00.123456+00'), 'MICROSECOND')).toBe('123456');
    expect(await ex(ts('2024-01-15 12:00:07.123456+00'), 'MILLISECOND')).toBe('123');
    expect(await ex(ts('2024-01-15 12:34:56+00'), 'HOUR')).toBe('12');
    expect(await ex(ts('2024-01-15 12:00:00+00'), 'HOUR', 'America/New_York')).toBe('7');
    expect(await ex(ts('2008-12-25 05:30:00+00'), 'DAY', 'America/Los_Angeles')).toBe('24');
    expect(await ex(d('2024-01-14'), 'DAYOFWEEK')).toBe('1');
    expect(await ex(d('2017-11-05'), 'WEEK')).toBe('45');
    expect(await ex(d('2017-11-05'), 'WEEK_MONDAY')).toBe('44');
    const rows: [string, string, string, string][] = [
      ['2015-12-26', '2015', '52', '51'], ['2015-12-27', '2015', '52', '52'], ['2015-12-28', '2015', '53', '52'],
      ['2016-01-01', '2015', '53', '0'], ['2016-01-03', '2015', '53', '1'], ['2016-01-04', '2016', '1', '1'],
    ];
    for (const [day, isoy, isow, w] of rows) {
      expect(await ex(d(day), 'ISOYEAR')).toBe(isoy);
      expect(await ex(d(day), 'ISOWEEK')).toBe(isow);
      expect(await ex(d(day), 'WEEK')).toBe(w);
    }
    expect(await ex(dt('2007-12-31 00:00:00'), 'ISOYEAR')).toBe('2008');
    expect(await ex(dt('2009-01-01 00:00:00'), 'WEEK')).toBe('0');
    expect(await ex(lit.null(T.date), 'YEAR')).toBe(null);
    expect(await t('$extract_date', T.date, ts('2024-01-15 12:34:56+00'))).toBe('2024-01-15');
    expect(await t('$extract_date', T.date, ts('2024-01-15 04:30:00+00'), lit.str('America/New_York'))).toBe('2024-01-14');
  });

  it('EXTRACT from INTERVAL (docs interval_functions extract-1..3)', async () => {
    const iv = (s: string) => lit.sql(`INTERVAL '${s}'`, T.interval);
    const ex = (x: Arg, part: string) => t('$extract', T.int, x, p(part));
    const i1 = iv('1 year 2 months 3 days 04:05:06.789999');
    expect([await ex(i1, 'YEAR'), await ex(i1, 'MONTH'), await ex(i1, 'DAY'), await ex(i1, 'HOUR'), await ex(i1, 'MINUTE'), await ex(i1, 'SECOND'), await ex(i1, 'MILLISECOND'), await ex(i1, 'MICROSECOND')]).toEqual(['1', '2', '3', '4', '5', '6', '789', '789999']);
    const i2 = lit.sql(`(to_months(13) + to_days(370) + to_microseconds(${(48 * 3600 + 61 * 60 + 61) * 1e6}))`, T.interval);
    expect([await ex(i2, 'YEAR'), await ex(i2, 'MONTH'), await ex(i2, 'DAY'), await ex(i2, 'HOUR'), await ex(i2, 'MINUTE'), await ex(i2, 'SECOND')]).toEqual(['1', '1', '370', '49', '2', '1']);
  });
});

describe('arithmetic, diff, trunc', () => {
  it('*_ADD / *_SUB (dt_*_add, dt_*_sub, tz_timestamp_add_across_dst_fall)', async () => {
    expect(await t('date_add', T.date, d('2024-01-15'), lit.int(7), p('DAY'))).toBe('2024-01-22');
    expect(await t('date_sub', T.date, d('2024-01-15'), lit.int(7), p('DAY'))).toBe('2024-01-08');
    expect(await t('date_add', T.date, d('2024-01-31'), lit.int(1), p('MONTH'))).toBe('2024-02-29');
    expect(await t('date_add', T.date, d('2024-02-29'), lit.int(1), p('YEAR'))).toBe('2025-02-28');
    expect(await t('date_add', T.date, lit.null(T.date), lit.int(1), p('DAY'))).toBe(null);
    expect(await t('datetime_add', T.dt, dt('2024-01-15 12:00:00'), lit.int(3), p('HOUR'))).toBe('2024-01-15 15:00:00');
    expect(await t('datetime_add', T.dt, dt('2008-12-25 15:30:00'), lit.int(10), p('MINUTE'))).toBe('2008-12-25 15:40:00');
    expect(await t('time_add', T.time, lit.time('12:30:45'), lit.int(90), p('MINUTE'))).toBe('14:00:45');
    expect(await t('time_sub', T.time, lit.time('00:30:00'), lit.int(45), p('MINUTE'))).toBe('23:45:00');
    expect(await t('time_add', T.time, lit.time('23:59:59'), lit.int(2), p('SECOND'))).toBe('00:00:01');
    expect(await t('timestamp_sub', T.ts, ts('2024-01-15 12:00:00+00'), lit.int(60), p('SECOND'))).toBe('2024-01-15 11:59:00+00');
    expect(await t('timestamp_add', T.ts, ts('2024-11-03 05:30:00+00'), lit.int(2), p('HOUR'))).toBe('2024-11-03 07:30:00+00');
  });

  it('*_DIFF (docs date-diff-*, datetime-diff-*, time-diff-1, timestamp-diff-*, dt_*_diff_*)', async () => {
    const dd = (a: string, b: string, part: string) => t('date_diff', T.int, d(a), d(b), p(part));
    expect(await dd('2010-07-07', '2008-12-25', 'DAY')).toBe('559');
    expect(await dd('2017-10-15', '2017-10-14', 'WEEK')).toBe('1');
    expect(await dd('2017-12-30', '2014-12-30', 'YEAR')).toBe('3');
    expect(await dd('2017-12-30', '2014-12-30', 'ISOYEAR')).toBe('2');
    expect(await dd('2017-12-18', '2017-12-17', 'WEEK')).toBe('0');
    expect(await dd('2017-12-18', '2017-12-17', 'WEEK_MONDAY')).toBe('1');
    expect(await dd('2017-12-18', '2017-12-17', 'ISOWEEK')).toBe('1');
    expect(await dd('2024-02-15', '2024-01-15', 'DAY')).toBe('31');
    expect(await dd('2001-02-01', '2002-01-31', 'MONTH')).toBe('-11');
    expect(await t('date_diff', T.int, lit.null(T.date), d('2024-01-01'), p('DAY'))).toBe(null);
    const dtd = (a: string, b: string, part: string) => t('datetime_diff', T.int, dt(a), dt(b), p(part));
    expect(await dtd('2010-07-07 10:20:00', '2008-12-25 15:30:00', 'DAY')).toBe('559');
    expect(await dtd('2024-01-15 14:00:00', '2024-01-15 12:00:00', 'HOUR')).toBe('2');
    expect(await dtd('2001-02-01 00:59:59', '2001-02-01 00:00:00', 'HOUR')).toBe('0');
    expect(await dtd('2001-02-01 01:00:00', '2001-02-01 00:59:59', 'HOUR')).toBe('1');
    expect(await dtd('2001-02-02 01:00:00', '2001-02-01 00:59:59', 'HOUR')).toBe('25');
    expect(await dtd('1969-12-31 23:59:59', '1970-01-01 00:00:00', 'MINUTE')).toBe('-1');
    expect(await t('time_diff', T.int, lit.time('15:30:00'), lit.time('14:35:00'), p('MINUTE'))).toBe('55');
    expect(await t('time_diff', T.int, lit.time('01:00:00'), lit.time('00:59:59'), p('HOUR'))).toBe('1');
    const tsd = (a: string, b: string, part: string) => t('timestamp_diff', T.int, ts(a), ts(b), p(part));
    expect(await tsd('2010-07-07 10:20:00+00', '2008-12-25 15:30:00+00', 'HOUR')).toBe('13410');
    expect(await tsd('2018-08-14 00:00:00+00', '2018-10-14 00:00:00+00', 'DAY')).toBe('-61');
    expect(await tsd('2001-02-01 01:00:00+00', '2001-02-01 00:00:01+00', 'HOUR')).toBe('0');
    expect(await tsd('2024-01-15 12:00:01+00', '2024-01-15 12:00:00+00', 'MILLISECOND')).toBe('1000');
    expect(await tsd('2024-03-10 09:30:00+00', '2024-03-10 06:30:00+00', 'HOUR')).toBe('3');
  });

  it('*_TRUNC and LAST_DAY (docs, dt_date_trunc_*, dt_last_day_*, tz_timestamp_trunc_named_zone_week)', async () => {
    const tr = (x: string, part: string) => t('date_trunc', T.date, d(x), p(part));
    expect(await tr('2024-04-23', 'MONTH')).toBe('2024-04-01');
    expect(await tr('2024-05-15', 'QUARTER')).toBe('2024-04-01');
    expect(await tr('2024-05-15', 'WEEK')).toBe('2024-05-12');
    expect(await tr('2024-04-23', 'YEAR')).toBe('2024-01-01');
    expect(await tr('2024-01-02', 'ISOYEAR')).toBe('2024-01-01');
    expect(await tr('2015-06-15', 'ISOYEAR')).toBe('2014-12-29');
    expect(await tr('2017-11-05', 'WEEK_MONDAY')).toBe('2017-10-30');
    expect(await t('date_trunc', T.date, lit.null(T.date), p('DAY'))).toBe(null);
    expect(await t('datetime_trunc', T.dt, dt('2008-12-25 15:30:00'), p('DAY'))).toBe('2008-12-25 00:00:00');
    expect(await t('datetime_trunc', T.dt, dt('2016-11-02 12:34:56.456789'), p('MILLISECOND'))).toBe('2016-11-02 12:34:56.456');
    expect(await t('datetime_trunc', T.dt, dt('2016-04-20 12:34:56'), p('WEEK'))).toBe('2016-04-17 00:00:00');
    expect(await t('time_trunc', T.time, lit.time('12:30:45'), p('HOUR'))).toBe('12:00:00');
    expect(await t('timestamp_trunc', T.ts, ts('2008-12-25 15:30:00+00'), p('DAY'), lit.str('America/Los_Angeles'))).toBe('2008-12-25 08:00:00+00');
    expect(await t('timestamp_trunc', T.ts, ts('2024-09-30 06:00:00+00'), p('WEEK'), lit.str('America/New_York'))).toBe('2024-09-29 04:00:00+00');
    expect(await t('timestamp_trunc', T.ts, ts('2017-11-06 00:00:00+12'), p('WEEK_MONDAY'), lit.str('Pacific/Auckland'))).toBe('2017-11-05 11:00:00+00');
    expect(await t('timestamp_trunc', T.ts, ts('2015-06-15 00:00:00+00'), p('ISOYEAR'))).toBe('2014-12-29 00:00:00+00');
    expect(await t('last_day', T.date, d('2008-11-25'))).toBe('2008-11-30');
    expect(await t('last_day', T.date, d('2024-02-15'), p('MONTH'))).toBe('2024-02-29');
    expect(await t('last_day', T.date, d('2024-02-15'), p('WEEK'))).toBe('2024-02-17');
    expect(await t('last_day', T.date, d('2008-11-10'), p('WEEK_MONDAY'))).toBe('2008-11-16');
    expect(await t('last_day', T.date, d('0001-01-01'))).toBe('0001-01-31');
    expect(await t('last_day', T.date, d('2001-01-01'), p('YEAR'))).toBe('2001-12-31');
    expect(await t('last_day', T.date, d('2001-01-01'), p('ISOYEAR'))).toBe('2001-12-30');
    expect(await t('last_day', T.date, d('2001-01-01'), p('QUARTER'))).toBe('2001-03-31');
    expect(await t('last_day', T.date, d('2001-12-31'), p('ISOWEEK'))).toBe('2002-01-06');
    expect(await t('last_day', T.date, d('2001-12-31'), p('WEEK_FRIDAY'))).toBe('2002-01-03');
    expect(await t('last_day', T.date, dt('2008-11-10 15:30:00'), p('WEEK_MONDAY'))).toBe('2008-11-16');
  });

  it('UNIX conversions (docs unix-*, dt_unix_*, dt_timestamp_*, dt_date_from_unix_date)', async () => {
    expect(await t('unix_seconds', T.int, ts('2024-01-15 12:00:00+00'))).toBe('1705320000');
    expect(await t('unix_seconds', T.int, ts('1970-01-01 00:00:01.8+00'))).toBe('1');
    expect(await t('unix_seconds', T.int, ts('1969-12-31 23:59:59.5+00'))).toBe('-1');
    expect(await t('unix_millis', T.int, ts('2008-12-25 15:30:00+00'))).toBe('1230219000000');
    expect(await t('unix_micros', T.int, ts('2024-01-15 12:00:00+00'))).toBe('1705320000000000');
    expect(await t('timestamp_seconds', T.ts, lit.int(1705320000))).toBe('2024-01-15 12:00:00+00');
    expect(await t('timestamp_millis', T.ts, lit.int(1705320000000))).toBe('2024-01-15 12:00:00+00');
    expect(await t('timestamp_micros', T.ts, lit.int(1230219000000000))).toBe('2008-12-25 15:30:00+00');
    expect(await t('date_from_unix_date', T.date, lit.int(19737))).toBe('2024-01-15');
    expect(await t('unix_date', T.int, d('2008-12-25'))).toBe('14238');
  });
});

describe('FORMAT_* / PARSE_*', () => {
  it('formats (docs format-*, dt_format_*)', async () => {
    const f = (fmt: string, x: Arg, ...more: Arg[]) => t(x[1].kind === 'TIMESTAMP' ? 'format_timestamp' : 'format_datetime', T.str, lit.str(fmt), x, ...more);
    expect(await t('format_date', T.str, lit.str('%x'), d('2008-12-25'))).toBe('12/25/08');
    expect(await t('format_date', T.str, lit.str('%b-%d-%Y'), d('2008-12-25'))).toBe('Dec-25-2008');
    expect(await t('format_date', T.str, lit.str('%Y/%m/%d'), d('2024-01-15'))).toBe('2024/01/15');
    expect(await t('format_date', T.str, lit.str('%Y-%m-%d'), d('0001-01-01'))).toBe('1-01-01');
    expect(await t('format_date', T.str, lit.str('%B'), d('2024-01-15'))).toBe('January');
    expect(await t('format_date', T.str, lit.str('%Y-%m-%d'), lit.null(T.date))).toBe(null);
    expect(await f('%c', dt('2008-12-25 15:30:00'))).toBe('Thu Dec 25 15:30:00 2008');
    expect(await f('%G-W%V-%u', dt('2024-01-15 12:30:45'))).toBe('2024-W03-1');
    expect(await f('%Y-%m-%d %H:%M:%S', dt('2024-01-15 12:30:45'))).toBe('2024-01-15 12:30:45');
    expect(await t('format_time', T.str, lit.str('%R'), lit.time('15:30:00'))).toBe('15:30');
    expect(await f('%c', ts('2050-12-25 15:30:55+00'), lit.str('UTC'))).toBe('Sun Dec 25 15:30:55 2050');
    expect(await f('%b %Y %Ez', ts('2008-12-25 15:30:00+00'))).toBe('Dec 2008 +00:00');
    expect(await f('%Y-%m-%d %H:%M:%S%z', ts('2008-12-25 15:30:00+00'), lit.str('America/Los_Angeles'))).toBe('2008-12-25 07:30:00-0800');
    expect(await f('%E3S|%E*S|%j|%e|%I %p', dt('2024-01-05 15:04:05.25'))).toBe('05.250|05.25|005| 5|03 PM');
  });

  it('parses (docs parse-*, parse_*_format, dt_parse_datetime_iso, tz_parse_timestamp_with_offset)', async () => {
    expect(await t('parse_date', T.date, lit.str('%Y/%m/%d'), lit.str('2024/01/15'))).toBe('2024-01-15');
    expect(await t('parse_date', T.date, lit.str('%Y%m%d'), lit.str('20081225'))).toBe('2008-12-25');
    expect(await t('parse_datetime', T.dt, lit.str('%Y-%m-%dT%H:%M:%S'), lit.str('2024-01-15T12:30:45'))).toBe('2024-01-15 12:30:45');
    expect(await t('parse_datetime', T.dt, lit.str('%m/%d/%Y %I:%M:%S %p'), lit.str('8/30/2018 2:23:38 pm'))).toBe('2018-08-30 14:23:38');
    expect(await t('parse_datetime', T.dt, lit.str('%A, %B %e, %Y'), lit.str('Wednesday, December 19, 2018'))).toBe('2018-12-19 00:00:00');
    expect(await t('parse_time', T.time, lit.str('%H:%M:%S'), lit.str('12:34:56'))).toBe('12:34:56');
    expect(await t('parse_time', T.time, lit.str('%H'), lit.str('15'))).toBe('15:00:00');
    expect(await t('parse_time', T.time, lit.str('%I:%M:%S %p'), lit.str('2:23:38 pm'))).toBe('14:23:38');
    expect(await t('parse_timestamp', T.ts, lit.str('%Y-%m-%d %H:%M:%S'), lit.str('2024-01-15 12:34:56'))).toBe('2024-01-15 12:34:56+00');
    expect(await t('parse_timestamp', T.ts, lit.str('%Y-%m-%dT%H:%M:%S%Ez'), lit.str('2024-01-15T12:34:56+05:30'))).toBe('2024-01-15 07:04:56+00');
    expect(await t('parse_datetime', T.dt, lit.str('%H:%M'), lit.str('10:30'))).toBe('1970-01-01 10:30:00');
    expect(await t('parse_timestamp', T.ts, lit.str('%F %E*S'), lit.str('2024-01-15 12.5'))).toBe('2024-01-15 00:00:12.5+00');
    expect(await errorOf(lower('parse_date', T.date, [lit.str('%Y %A %b %e'), lit.str('Thursday Dec 25 2008')]))).toBe('Failed to parse input string "Thursday Dec 25 2008"');
  });
});

describe('arrays of dates, intervals, STRING(timestamp)', () => {
  it('GENERATE_DATE_ARRAY / GENERATE_TIMESTAMP_ARRAY (dt_generate_timestamp_array_basic)', async () => {
    expect(await text(lower('generate_date_array', T.arr(T.date), [d('2016-10-05'), d('2016-10-08')]))).toBe('[2016-10-05, 2016-10-06, 2016-10-07, 2016-10-08]');
    expect(await text(lower('generate_date_array', T.arr(T.date), [d('2016-10-05'), d('2016-10-09'), lit.int(2), p('DAY')]))).toBe('[2016-10-05, 2016-10-07, 2016-10-09]');
    expect(await text(lower('generate_date_array', T.arr(T.date), [d('2016-10-05'), d('2016-10-01'), lit.int(-3), p('DAY')]))).toBe('[2016-10-05, 2016-10-02]');
    expect(await text(lower('generate_date_array', T.arr(T.date), [d('2016-10-05'), d('2016-10-05')]))).toBe('[2016-10-05]');
    expect(await text(lower('generate_date_array', T.arr(T.date), [d('2016-10-05'), d('2016-10-01')]))).toBe('[]');
    expect(await text(lower('generate_date_array', T.arr(T.date), [d('2016-01-01'), d('2016-12-31'), lit.int(2), p('MONTH')]))).toBe('[2016-01-01, 2016-03-01, 2016-05-01, 2016-07-01, 2016-09-01, 2016-11-01]');
    expect((await text(lower('generate_timestamp_array', T.arr(T.ts), [ts('2024-01-15 00:00:00+00'), ts('2024-01-15 02:00:00+00'), lit.int(1), p('HOUR')])))?.replace(/'/g, '')).toBe('[2024-01-15 00:00:00+00, 2024-01-15 01:00:00+00, 2024-01-15 02:00:00+00]');
    expect(await errorOf(lower('generate_date_array', T.arr(T.date), [d('2016-10-05'), d('2016-10-08'), lit.int(0), p('DAY')]))).toBe('Sequence step cannot be 0.');
  });

  it('INTERVAL functions (docs justify-*, cast-as-string-5)', async () => {
    const iv = (s: string) => lit.sql(`INTERVAL '${s}'`, T.interval);
    const asText = async (sql: string) => (await import('./text.js')).intervalText(sql);
    const j = async (fn: string, s: string) => text(await asText(`(${lower(fn, T.interval, [iv(s)])})`));
    expect(await j('justify_days', '29 days')).toBe('0-0 29 0:0:0');
    expect(await j('justify_days', '-30 days')).toBe('-0-1 0 0:0:0');
    expect(await j('justify_days', '31 days')).toBe('0-1 1 0:0:0');
    expect(await j('justify_days', '-65 days')).toBe('-0-2 -5 0:0:0');
    expect(await j('justify_days', '370 days')).toBe('1-0 10 0:0:0');
    expect(await j('justify_hours', '23 hours')).toBe('0-0 0 23:0:0');
    expect(await j('justify_hours', '-24 hours')).toBe('0-0 -1 0:0:0');
    expect(await j('justify_hours', '47 hours')).toBe('0-0 1 23:0:0');
    expect(await j('justify_hours', '-12345 minutes')).toBe('0-0 -8 -13:45:0');
    expect(await j('justify_interval', '29 days 49:00:00')).toBe('0-1 1 1:0:0');
    expect(await text(await asText(`(${lower('$interval', T.interval, [lit.int(3), p('DAY')])})`))).toBe('0-0 3 0:0:0');
    expect(await text(await asText(`INTERVAL '1 year 2 months 3 days 04:05:06.789'`))).toBe('1-2 3 4:5:6.789');
  });
});
