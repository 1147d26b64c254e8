/**
 * Interval functions (BigQuery "Interval functions" page, interval_functions): the INTERVAL
 * constructor (`INTERVAL n part`), MAKE_INTERVAL, JUSTIFY_DAYS, JUSTIFY_HOURS, JUSTIFY_INTERVAL.
 * An INTERVAL is DuckDB's INTERVAL: months (years folded in), days, microseconds.
 */
import { BigQueryError } from '../errors/errors.js';
import { MICROS } from './date-time.js';
import type { FnCall, FnTable } from './registry.js';
import { datePart } from './util.js';

/** Parts of a DuckDB INTERVAL: months (years folded in), days, microseconds (hours … micros). */
export const ivMonths = (i: string) => `(datepart('year', ${i}) * 12 + datepart('month', ${i}))`;
export const ivDays = (i: string) => `datepart('day', ${i})`;
export const ivMicros = (i: string) => `(datepart('hour', ${i}) * 3600000000 + datepart('minute', ${i}) * 60000000 + datepart('microseconds', ${i}))`;
const mkInterval = (m: string, d: string, us: string) => `(to_months(CAST(${m} AS INTEGER)) + to_days(CAST(${d} AS INTEGER)) + to_microseconds(CAST(${us} AS BIGINT)))`;

function interval(c: FnCall): string {
  const part = datePart(c, 1);
  const n = c.args[0];
  const m: Record<string, string> = { YEAR: `${n} * 12`, QUARTER: `${n} * 3`, MONTH: n };
  if (m[part]) return mkInterval(m[part], '0', '0');
  if (part === 'WEEK') return mkInterval('0', `${n} * 7`, '0');
  if (part === 'DAY') return mkInterval('0', n, '0');
  if (MICROS[part]) return mkInterval('0', '0', `${n} * ${MICROS[part]}`);
  throw BigQueryError.datePartNotSupported('INTERVAL', part);
}

function makeInterval(c: FnCall): string {
  const [y, mo, d, h, mi, s] = [0, 1, 2, 3, 4, 5].map((i) => c.args[i] ?? '0');
  return mkInterval(`${y} * 12 + ${mo}`, d, `${h} * 3600000000 + ${mi} * 60000000 + ${s} * 1000000`);
}

/**
 * `body` over `x` evaluated once: the text of `x` appears once, so that nested interval functions
 * (`JUSTIFY_INTERVAL`, `CAST(… AS STRING)`) do not repeat their argument's SQL at every level
 * (a few levels made queries of thousands of copies that took DuckDB seconds to plan).
 */
export const bindOnce = (x: string, body: (v: string) => string): string => `list_extract(list_transform([${x}], bq_iv -> ${body('bq_iv')}), 1)`;

const justifyDays = (i: string) => bindOnce(i, (v) => mkInterval(`${ivMonths(v)} + trunc(${ivDays(v)} / 30)`, `${ivDays(v)} % 30`, ivMicros(v)));
const justifyHours = (i: string) => bindOnce(i, (v) => mkInterval(ivMonths(v), `${ivDays(v)} + trunc(${ivMicros(v)} / 86400000000)`, `${ivMicros(v)} % 86400000000`));

/** The interval_functions page. */
export const INTERVAL_FUNCTIONS: FnTable = {
  $interval: interval,
  make_interval: makeInterval,
  justify_days: (c) => justifyDays(c.args[0]),
  justify_hours: (c) => justifyHours(c.args[0]),
  justify_interval: (c) => justifyDays(justifyHours(c.args[0])),
};
