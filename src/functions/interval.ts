/**
 * Interval functions (BigQuery "Interval functions" page, interval_functions): the INTERVAL
 * constructor (`INTERVAL n part`), MAKE_INTERVAL, JUSTIFY_DAYS, JUSTIFY_HOURS, JUSTIFY_INTERVAL.
 * An INTERVAL is DuckDB's INTERVAL: months (years folded in), days, microseconds.
 */
import { BigQueryError } from '../errors/errors.js';
import { MICROS } from './date-time.js';
import { raise, type FnCall, type FnTable } from './registry.js';
import { datePart } from './util.js';

/**
 * BigQuery's INTERVAL ranges (Data types, "Interval type",
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#interval_type):
 * ±10,000 years (±120,000 months), ±3,660,000 days, ±87,840,000 hours (in microseconds here).
 */
const MAX_MONTHS = 120000;
const MAX_DAYS = 3660000;
const MAX_MICROS = '316224000000000000';

/**
 * An INTERVAL from its months, days and microseconds (SQL expressions, computed wide, e.g. in
 * HUGEINT), each checked against BigQuery's range first: past it ZetaSQL's
 * `Interval field months '120012' is out of range -120000 to 120000` (`days`, and `nanoseconds`
 * for the time part, printed in nanoseconds), NULL under SAFE; texts checked against the ZetaSQL
 * reference evaluator (test/differential/families-text.ts). Each part's SQL is written once.
 */
export function checkedInterval(c: FnCall, months: string, days: string, micros: string): string {
  return checkedParts(c, partsOf(months, days, micros));
}

/** The struct `{m, d, u}` (HUGEINT months, days, microseconds) of an interval's parts. */
const partsOf = (months: string, days: string, micros: string) => `struct_pack(m := CAST(${months} AS HUGEINT), d := CAST(${days} AS HUGEINT), u := CAST(${micros} AS HUGEINT))`;

/** {@link checkedInterval} over a `{m, d, u}` struct expression (see `partsOf`). */
function checkedParts(c: FnCall, parts: string): string {
  const out = (field: string, v: string, max: string) => raise(c, `'Interval field ${field} ''' || ${v} || ''' is out of range -${max} to ${max}'`);
  const body = (p: string) =>
    `CASE WHEN abs(${p}.m) > ${MAX_MONTHS} THEN ${out('months', `CAST(${p}.m AS VARCHAR)`, String(MAX_MONTHS))} ` +
    `WHEN abs(${p}.d) > ${MAX_DAYS} THEN ${out('days', `CAST(${p}.d AS VARCHAR)`, String(MAX_DAYS))} ` +
    `WHEN abs(${p}.u) > ${MAX_MICROS} THEN ${out('nanoseconds', `CAST(${p}.u AS VARCHAR) || '000'`, MAX_MICROS + '000')} ` +
    `ELSE to_months(CAST(${p}.m AS INTEGER)) + to_days(CAST(${p}.d AS INTEGER)) + to_microseconds(CAST(${p}.u AS BIGINT)) END`;
  return `list_extract(list_transform([${parts}], bq_ivc -> ${body('bq_ivc')}), 1)`;
}

/**
 * INTERVAL ± INTERVAL and INTERVAL × INT64 (operators, "Interval arithmetic operators"): field by
 * field, range-checked by {@link checkedInterval}; a product past INT64 (before the range check)
 * raises ZetaSQL's `Interval overflow during multiplication`.
 */
export function intervalArithmetic(c: FnCall, op: '+' | '-' | '*'): string {
  const [a, b] = [c.args[0]!, c.args[1]!];
  if (op === '*') {
    const [i, n] = c.argTypes[0]?.kind === 'INTERVAL' ? [a, b] : [b, a];
    return bindOnce(i, (v) => {
      const big = (x: string) => `(CAST(${x} AS HUGEINT) * ${n})`;
      // Months and days multiply in INT64, nanoseconds in 128 bits (here: microseconds × n against (2^127 − 1) / 1000).
      const over = [...[ivMonths(v), ivDays(v)].map((x) => `abs(${big(x)}) > 9223372036854775807`), `abs(${big(ivMicros(v))}) > 170141183460469231731687303715884105`].join(' OR ');
      return `CASE WHEN ${over} THEN ${raise(c, `'Interval overflow during multiplication'`)} ELSE ${checkedInterval(c, big(ivMonths(v)), big(ivDays(v)), big(ivMicros(v)))} END`;
    });
  }
  return `list_extract(list_transform([struct_pack(a := ${a}, b := ${b})], bq_ivp -> ${checkedInterval(c, `${ivMonths('bq_ivp.a')} ${op} ${ivMonths('bq_ivp.b')}`, `${ivDays('bq_ivp.a')} ${op} ${ivDays('bq_ivp.b')}`, `CAST(${ivMicros('bq_ivp.a')} AS HUGEINT) ${op} ${ivMicros('bq_ivp.b')}`)}), 1)`;
}

/** Parts of a DuckDB INTERVAL: months (years folded in), days, microseconds (hours … micros). */
export const ivMonths = (i: string) => `(datepart('year', ${i}) * 12 + datepart('month', ${i}))`;
export const ivDays = (i: string) => `datepart('day', ${i})`;
export const ivMicros = (i: string) => `(datepart('hour', ${i}) * 3600000000 + datepart('minute', ${i}) * 60000000 + datepart('microseconds', ${i}))`;
/**
 * `INTERVAL n part`: YEAR/QUARTER/WEEK multiply in INT64 (`12 * n` past INT64 raises ZetaSQL's
 * `int64 overflow: 12 * 9223372036854775807`), the time parts in HUGEINT; then the range check.
 */
function interval(c: FnCall): string {
  const part = datePart(c, 1);
  const n = c.args[0]!;
  const m: Record<string, string> = { YEAR: `(12 * ${n})`, QUARTER: `(3 * ${n})`, MONTH: n };
  if (m[part]) return checkedInterval(c, m[part], '0', '0');
  if (part === 'WEEK') return checkedInterval(c, '0', `(7 * ${n})`, '0');
  if (part === 'DAY') return checkedInterval(c, '0', n, '0');
  if (MICROS[part]) return checkedInterval(c, '0', '0', `CAST(${n} AS HUGEINT) * ${MICROS[part]}`);
  throw BigQueryError.datePartNotSupported('INTERVAL', part);
}

function makeInterval(c: FnCall): string {
  const [y, mo, d, h, mi, s] = [0, 1, 2, 3, 4, 5].map((i) => `CAST(${c.args[i] ?? '0'} AS HUGEINT)`);
  return checkedInterval(c, `${y} * 12 + ${mo}`, d, `${h} * 3600000000 + ${mi} * 60000000 + ${s} * 1000000`);
}

/**
 * `body` over `x` evaluated once: the text of `x` appears once, so that nested interval functions
 * (`JUSTIFY_INTERVAL`, `CAST(… AS STRING)`) do not repeat their argument's SQL at every level
 * (a few levels made queries of thousands of copies that took DuckDB seconds to plan).
 */
export const bindOnce = (x: string, body: (v: string) => string): string => `list_extract(list_transform([${x}], bq_iv -> ${body('bq_iv')}), 1)`;

/** `f` over the struct `x` (one step of a justification), `x` written once. */
const step = (x: string, f: (p: string) => string) => `list_extract(list_transform([${x}], bq_js -> ${f('bq_js')}), 1)`;
const DAY_US = '86400000000';
/** Whole days of the time part moved into the days (truncating toward zero). */
const hoursToDays = (s: string) => step(s, (p) => partsOf(`${p}.m`, `${p}.d + ${p}.u // ${DAY_US}`, `${p}.u % ${DAY_US}`));
/** Whole 30-day months of the days moved into the months. */
const daysToMonths = (s: string) => step(s, (p) => partsOf(`${p}.m + ${p}.d // 30`, `${p}.d % 30`, `${p}.u`));
/** Days and time part of one sign: a day borrowed from (lent to) the days. */
const alignTime = (s: string) => step(s, (p) => `CASE WHEN ${p}.d > 0 AND ${p}.u < 0 THEN ${partsOf(`${p}.m`, `${p}.d - 1`, `${p}.u + ${DAY_US}`)} WHEN ${p}.d < 0 AND ${p}.u > 0 THEN ${partsOf(`${p}.m`, `${p}.d + 1`, `${p}.u - ${DAY_US}`)} ELSE ${p} END`);
/** Months and days of one sign (`withTime`: a zero day count takes the time part's sign). */
const alignDays = (s: string, withTime: boolean) =>
  step(s, (p) => {
    const [neg, pos] = withTime ? [`(${p}.d < 0 OR (${p}.d = 0 AND ${p}.u < 0))`, `(${p}.d > 0 OR (${p}.d = 0 AND ${p}.u > 0))`] : [`${p}.d < 0`, `${p}.d > 0`];
    return `CASE WHEN ${p}.m > 0 AND ${neg} THEN ${partsOf(`${p}.m - 1`, `${p}.d + 30`, `${p}.u`)} WHEN ${p}.m < 0 AND ${pos} THEN ${partsOf(`${p}.m + 1`, `${p}.d - 30`, `${p}.u`)} ELSE ${p} END`;
  });
const partsOfInterval = (i: string) => bindOnce(i, (v) => partsOf(ivMonths(v), ivDays(v), ivMicros(v)));

/**
 * JUSTIFY_HOURS / JUSTIFY_DAYS / JUSTIFY_INTERVAL (interval_functions): whole days out of the time
 * part, whole 30-day months out of the days, then the parts brought to one sign by borrowing a day
 * (a month) — `JUSTIFY_HOURS('0-0 -5 12:55:01')` is `0-0 -4 -11:4:59`,
 * `JUSTIFY_INTERVAL('1-0 0 -1:0:0')` is `0-11 29 23:0:0` (the reference evaluator's answers);
 * the range is checked on the result only.
 */
const justifyHours = (c: FnCall, i: string) => checkedParts(c, alignTime(hoursToDays(partsOfInterval(i))));
const justifyDays = (c: FnCall, i: string) => checkedParts(c, alignDays(daysToMonths(partsOfInterval(i)), false));
const justifyInterval = (c: FnCall, i: string) => checkedParts(c, alignTime(alignDays(daysToMonths(hoursToDays(partsOfInterval(i))), true)));

/** The interval_functions page. */
export const INTERVAL_FUNCTIONS: FnTable = {
  $interval: interval,
  make_interval: makeInterval,
  justify_days: (c) => justifyDays(c, c.args[0]!),
  justify_hours: (c) => justifyHours(c, c.args[0]!),
  justify_interval: (c) => justifyInterval(c, c.args[0]!),
};
