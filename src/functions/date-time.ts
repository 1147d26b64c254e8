/**
 * Date and time functions (GoogleSQL "Date", "Datetime", "Time", "Timestamp" functions):
 * constructors, EXTRACT, *_ADD/*_SUB, *_DIFF, *_TRUNC, LAST_DAY, UNIX conversions.
 * FORMAT_* and PARSE_* are in date-time-format.ts, GENERATE_DATE_ARRAY / GENERATE_TIMESTAMP_ARRAY in
 * array.ts, the INTERVAL functions in interval.ts, TIMESTAMP(…) and TIMESTAMP_SECONDS/_MILLIS/_MICROS
 * in timestamp-functions.ts; BigQuery's range of each type in datetime-range.ts.
 *
 * Storage: DATE → DATE, DATETIME → TIMESTAMP (civil), TIME → TIME, TIMESTAMP → TIMESTAMPTZ (the
 * session runs in UTC). A TIMESTAMP is viewed in a time zone through `toLocal` (a civil
 * TIMESTAMP) and a civil value is placed in a zone with `fromLocal`. Zones are names or fixed
 * offsets (`+05:30`, `-08`, `UTC+3`); fixed offsets are applied arithmetically.
 *
 * Semantics (ZetaSQL date_time_util.h): DATE_DIFF/DATETIME_DIFF/TIME_DIFF count part boundaries;
 * TIMESTAMP_DIFF counts whole parts elapsed; WEEK is Sunday-based (days before the first Sunday
 * are week 0); WEEK(<weekday>) starts on that weekday; ISOWEEK/ISOYEAR are ISO 8601; TIME
 * arithmetic wraps around midnight; month arithmetic clamps to the month's last day.
 */
import { BigQueryError } from '../errors/errors.js';
import type { FnCall, FnLowering, FnTable } from './registry.js';
import { datePart, fail, floorDiv, intLiteral, stringLiteral } from './util.js';
import { civilText, fullText, zonedText, zoneName } from './datetime-text.js';
import { outOfRange, RANGE, rangeOr } from './datetime-range.js';

// ---------- time zones ----------

/** Minutes east of UTC for a fixed-offset zone text, or undefined for a named zone. */
export function fixedOffset(tz: string): number | undefined {
  const m = /^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(tz.trim());
  if (!m) return /^(UTC|GMT|Z)$/i.test(tz.trim()) ? 0 : undefined;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

/** A TIMESTAMPTZ viewed as a civil TIMESTAMP in zone `tz` (SQL text; default UTC). */
export function toLocal(ts: string, tz?: string): string {
  if (tz === undefined) return `timezone('UTC', ${ts})`;
  const lit = stringLiteral(tz);
  const off = lit !== undefined ? fixedOffset(lit) : undefined;
  if (off !== undefined) return `(timezone('UTC', ${ts}) + to_minutes(${off}))`;
  return `timezone(${tz}, ${ts})`;
}

/** A civil TIMESTAMP placed in zone `tz`, as TIMESTAMPTZ. */
export function fromLocal(local: string, tz?: string): string {
  if (tz === undefined) return `timezone('UTC', ${local})`;
  const lit = stringLiteral(tz);
  const off = lit !== undefined ? fixedOffset(lit) : undefined;
  if (off !== undefined) return `timezone('UTC', ${local} - to_minutes(${off}))`;
  return `timezone(${tz}, ${local})`;
}

// ---------- parts ----------

/** 0 = Sunday … 6 = Saturday: the first day of a WEEK / WEEK_<DAY> / ISOWEEK part. */
export function weekStart(part: string): number | undefined {
  const days = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];
  if (part === 'WEEK') return 0;
  if (part === 'ISOWEEK') return 1;
  const m = /^WEEK_(\w+)$/.exec(part);
  return m ? days.indexOf(m[1]) : undefined;
}

/** Microseconds per fixed-size part. */
export const MICROS: Record<string, number> = {
  MICROSECOND: 1, MILLISECOND: 1000, SECOND: 1e6, MINUTE: 6e7, HOUR: 3.6e9, DAY: 8.64e10,
};

const badPart = (c: FnCall, part: string): never => {
  throw BigQueryError.datePartNotSupported(c.name.toUpperCase(), part);
};

/** EXTRACT(part FROM civil value x) where x is a DATE, civil TIMESTAMP or TIME. */
export function extractPart(c: FnCall, part: string, x: string): string {
  const w = weekStart(part);
  if (w !== undefined && part !== 'ISOWEEK')
    return `CAST((dayofyear(${x}) + 6 - (dayofweek(${x}) - ${w} + 7) % 7) // 7 AS BIGINT)`;
  const simple: Record<string, string> = {
    YEAR: `year(${x})`, MONTH: `month(${x})`, DAY: `day(${x})`, QUARTER: `quarter(${x})`,
    DAYOFWEEK: `dayofweek(${x}) + 1`, DAYOFYEAR: `dayofyear(${x})`, ISOWEEK: `week(${x})`, ISOYEAR: `isoyear(${x})`,
    HOUR: `hour(${x})`, MINUTE: `minute(${x})`, SECOND: `second(${x})`, MILLISECOND: `millisecond(${x}) % 1000`,
    MICROSECOND: `microsecond(${x}) % 1000000`, NANOSECOND: `(microsecond(${x}) % 1000000) * 1000`,
  };
  if (!simple[part]) badPart(c, part);
  return `CAST(${simple[part]} AS BIGINT)`;
}

function extract(c: FnCall): string {
  const part = datePart(c, 1);
  const [x] = c.args;
  switch (c.argTypes[0]?.kind) {
    case 'TIMESTAMP':
      return extractPart(c, part, toLocal(x, c.args[2]));
    case 'INTERVAL': {
      const e: Record<string, string> = {
        YEAR: `datepart('year', ${x})`, MONTH: `datepart('month', ${x})`, DAY: `datepart('day', ${x})`,
        HOUR: `datepart('hour', ${x})`, MINUTE: `datepart('minute', ${x})`, SECOND: `datepart('second', ${x})`,
        MILLISECOND: `datepart('microseconds', ${x}) // 1000 % 1000`, MICROSECOND: `datepart('microseconds', ${x}) % 1000000`,
      };
      if (!e[part]) badPart(c, part);
      return `CAST(${e[part]} AS BIGINT)`;
    }
    default:
      return extractPart(c, part, x);
  }
}

/** A civil value (DATE or civil TIMESTAMP) truncated to a date-or-coarser part, as DATE. */
function truncDate(c: FnCall, part: string, x: string): string {
  const w = weekStart(part);
  if (w !== undefined) return `CAST(CAST(${x} AS DATE) - CAST((dayofweek(${x}) - ${w} + 7) % 7 AS INTEGER) AS DATE)`;
  const duck: Record<string, string> = { DAY: 'day', MONTH: 'month', QUARTER: 'quarter', YEAR: 'year', ISOYEAR: 'isoyear' };
  if (!duck[part]) badPart(c, part);
  return `CAST(date_trunc('${duck[part]}', ${x}) AS DATE)`;
}

/** A part as ZetaSQL names it in errors: `WEEK(SATURDAY)` for WEEK_SATURDAY. */
const partText = (part: string) => part.replace(/^WEEK_(\w+)$/, 'WEEK($1)');

/**
 * DATE `r` computed from civil `x` by `what` (`Truncating` / `Last day of`), or ZetaSQL's error when
 * a week or ISO year carries it outside 0001-01-01 … 9999-12-31 (reference evaluator: `Truncating
 * date 0001-01-01 to WEEK resulted in an out of range date value: -719163`, the value in days since
 * 1970-01-01; `Last day of date 9999-12-31 to WEEK resulted in an out of range date value: 2932897`).
 */
function dateInRange(c: FnCall, what: string, part: string, x: string, r: string): string {
  if (weekStart(part) === undefined && part !== 'ISOYEAR') return r;
  return rangeOr(r, 'date', fail(c, `'${what} date ' || CAST(CAST(${x} AS DATE) AS VARCHAR) || ' to ${partText(part)} resulted in an out of range date value: ' || CAST(${r} - DATE '1970-01-01' AS VARCHAR)`));
}

/** A civil TIMESTAMP truncated to any part, as civil TIMESTAMP (`checked`: DATETIME_TRUNC's range error). */
function truncCivil(c: FnCall, part: string, x: string, checked = false): string {
  if (part === 'MICROSECOND' || part === 'NANOSECOND') return x;
  if (['MILLISECOND', 'SECOND', 'MINUTE', 'HOUR'].includes(part)) return `date_trunc('${part.toLowerCase()}', ${x})`;
  const d = truncDate(c, part, x);
  return `CAST(${checked ? dateInRange(c, 'Truncating', part, x, d) : d} AS TIMESTAMP)`;
}

const dateTrunc = (c: FnCall) => dateInRange(c, 'Truncating', datePart(c, 1), c.args[0], truncDate(c, datePart(c, 1), c.args[0]));
const datetimeTrunc = (c: FnCall) => truncCivil(c, datePart(c, 1), c.args[0], true);
function timeTrunc(c: FnCall): string {
  const part = datePart(c, 1);
  if (!(part in MICROS) || part === 'DAY') badPart(c, part);
  return `CAST(${truncCivil(c, part, `(DATE '1970-01-01' + ${c.args[0]})`)} AS TIME)`;
}
/**
 * TIMESTAMP_TRUNC of a TIMESTAMP, in `zone` (default UTC). A result before 0001-01-01 UTC is an
 * error (reference evaluator): for a week `Truncating 0001-01-01 00:00:00+00 to the nearest week
 * causes overflow` (the timestamp in the zone), for ISOYEAR `Invalid date value: -719163` (the
 * civil date in days since 1970-01-01), else `Truncating to the nearest DAY causes underflow at
 * timezone America/Los_Angeles`.
 */
function timestampTrunc(c: FnCall): string {
  const part = datePart(c, 1);
  const [ts, , tz] = c.args;
  if (['MICROSECOND', 'MILLISECOND', 'SECOND'].includes(part)) return `date_trunc('${part.toLowerCase()}', ${ts})`;
  const local = toLocal(ts, tz);
  const lit = tz === undefined ? undefined : stringLiteral(tz);
  const msg =
    weekStart(part) !== undefined
      ? `'Truncating ' || ${zonedText(ts, local)} || ' to the nearest week causes overflow'`
      : part === 'ISOYEAR'
        ? `'Invalid date value: ' || CAST(CAST(${local} AS DATE) - DATE '1970-01-01' AS VARCHAR)`
        : `'Truncating to the nearest ${part} causes underflow at timezone ' || ${tz === undefined ? `'UTC'` : zoneName(tz, lit === undefined ? undefined : fixedOffset(lit))}`;
  return rangeOr(fromLocal(truncCivil(c, part, local), tz), 'timestamp', fail(c, msg));
}

/** The interval of `n` parts (for *_ADD/*_SUB). */
function partInterval(c: FnCall, part: string, n: string): string {
  switch (part) {
    case 'YEAR':
      return `to_months(${n} * 12)`;
    case 'QUARTER':
      return `to_months(${n} * 3)`;
    case 'MONTH':
      return `to_months(${n})`;
    case 'WEEK':
      return `to_days(${n} * 7)`;
    case 'DAY':
      return `to_days(${n})`;
    default:
      if (MICROS[part]) return `to_microseconds(${n} * ${MICROS[part]})`;
      return badPart(c, part);
  }
}

/** Microseconds between 0001-01-01 and 10000-01-01: an amount past it leaves every type's range. */
const SPAN_MICROS = 315537897600000000n;
const SPAN_MONTHS: Record<string, bigint> = { YEAR: 10000n, QUARTER: 40000n, MONTH: 120000n, WEEK: 521723n };

/** The largest |amount| of `part` that may still stay in range: more always overflows (and would overflow DuckDB's arithmetic first). */
const maxAmount = (part: string): bigint => SPAN_MONTHS[part] ?? SPAN_MICROS / BigInt(MICROS[part] ?? 1);

/** The amount `n` with every |n| past {@link maxAmount} replaced by 0 (its error is raised first). */
const clamped = (n: string, part: string) => `CASE WHEN abs(CAST(${n} AS HUGEINT)) > ${maxAmount(part)} THEN 0 ELSE ${n} END`;

/**
 * A *_ADD/*_SUB result outside its type's range is an error (NULL under SAFE), with ZetaSQL's text
 * (checked against the reference evaluator): `Adding 1 DAY to date 9999-12-31 causes overflow`,
 * `Subtracting 3 DAY from datetime … causes overflow`, `Adding -1 SECOND to timestamp
 * 0001-01-01 00:00:00.000000+00 causes overflow`, and for a TIMESTAMP amount past INT64 microseconds
 * `TIMESTAMP_ADD interval value  <n> at HOUR precision causes overflow`.
 */
function rangeChecked(c: FnCall, kind: 'date' | 'datetime' | 'timestamp', sign: 1 | -1, part: string, r: string): string {
  const [x, n] = c.args;
  const [lo, hi] = RANGE[kind];
  const shown = kind === 'date' ? `CAST(${x} AS VARCHAR)` : kind === 'timestamp' ? `${fullText(x!)} || '+00'` : civilText(x!);
  // A TIMESTAMP adds days as 24-hour steps and names them so (`Adding 312 HOUR to timestamp …`).
  const [k, shownPart] = kind === 'timestamp' && part === 'DAY' ? [' * 24', 'HOUR'] : ['', part];
  const verb = sign > 0 || kind !== 'datetime' ? `'Adding ' || CAST(${sign > 0 ? `CAST(${n} AS HUGEINT)` : `(- CAST(${n} AS HUGEINT))`}${k} AS VARCHAR) || ' ${shownPart} to ${kind} '` : `'Subtracting ' || CAST(${n} AS VARCHAR) || ' ${part} from ${kind} '`;
  const err = fail(c, `${verb} || ${shown} || ' causes overflow'`);
  // The amount's negation overflows INT64 (reference evaluator: `Subtracting -9223372036854775808 DAY from date …`).
  const minSub = sign < 0 ? `WHEN ${n} = -9223372036854775808 THEN ${fail(c, `'Subtracting ' || CAST(${n} AS VARCHAR) || ' ${part} from ${kind} ' || ${shown} || ' causes overflow'`)} ` : '';
  // A TIMESTAMP amount past INT64 in microseconds: `TIMESTAMP_ADD interval value  <±n> at <part> precision …` (DAY counts at HOUR precision).
  const signed = sign > 0 ? `CAST(${n} AS HUGEINT)` : `(- CAST(${n} AS HUGEINT))`;
  const wide = kind === 'timestamp' && (MICROS[part] ?? 1) > 1 ? `WHEN ${signed} * ${MICROS[part]} NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN ${fail(c, `'TIMESTAMP_ADD interval value  ' || CAST(${signed} AS VARCHAR) || ' at ${part === 'DAY' ? 'HOUR' : part} precision causes overflow'`)} ` : '';
  return `CASE ${minSub}${wide}WHEN abs(CAST(${n} AS HUGEINT)) > ${maxAmount(part)} OR ${r} < ${lo} OR ${r} > ${hi} THEN ${err} ELSE ${r} END`;
}

/**
 * True when DATE `x` ± `n` `part`s cannot leave 0001-01-01 … 9999-12-31: both are literals
 * (src/engine/duckdb/values.ts toDuckLiteral: `'1998-12-01'::DATE`, `CAST(-90 AS BIGINT)`), the
 * year is within 1000–9000 and the amount within ~750 years. The range check is then dead code,
 * and leaving it out spares DuckDB its planning (TPC-H q12 and q20's PREPARE −1.3 to −1.6 ms).
 */
function dateLiteralInRange(x: string, n: string, part: string): boolean {
  const date = /^'(\d{4})-\d\d-\d\d'::DATE$/.exec(x);
  const amount = intLiteral(n);
  if (!date || amount === undefined || Number(date[1]) < 1000 || Number(date[1]) > 9000) return false;
  const months = ({ YEAR: 12, QUARTER: 3, MONTH: 1 } as Record<string, number>)[part];
  const days = ({ WEEK: 7, DAY: 1 } as Record<string, number>)[part];
  const size = amount < 0n ? -amount : amount;
  return months ? size * BigInt(months) <= 9_000n : days ? size * BigInt(days) <= 300_000n : false;
}

function addSub(kind: 'date' | 'datetime' | 'time' | 'timestamp', sign: 1 | -1) {
  return (c: FnCall) => {
    const part = datePart(c, 2);
    const [x, n1] = c.args;
    if (kind === 'date' && dateLiteralInRange(x!, n1!, part)) return `CAST((${x} + ${partInterval(c, part, sign < 0 ? `(- ${n1})` : n1!)}) AS DATE)`;
    const n0 = kind === 'time' ? n1 : clamped(n1!, part);
    const n = sign < 0 ? `(- ${n0})` : n0;
    if (kind === 'timestamp') {
      if (!MICROS[part]) badPart(c, part);
      return rangeChecked(c, kind, sign, part, `(${x} + to_microseconds(${n} * ${MICROS[part]}))`);
    }
    if (kind === 'time') {
      if (!MICROS[part] || part === 'DAY') badPart(c, part);
      return `(${x} + to_microseconds((${n} * ${MICROS[part]}) % 86400000000))`;
    }
    if (kind === 'date' && MICROS[part] && part !== 'DAY') badPart(c, part);
    const r = `(${x} + ${partInterval(c, part, n)})`;
    return rangeChecked(c, kind, sign, part, kind === 'date' ? `CAST(${r} AS DATE)` : r);
  };
}

/** DATE_DIFF / DATETIME_DIFF: boundaries of `part` between two civil values. */
function civilDiff(c: FnCall, part: string, a: string, b: string): string {
  const w = weekStart(part);
  if (w !== undefined) return `CAST((${truncDate(c, part, a)} - ${truncDate(c, part, b)}) // 7 AS BIGINT)`;
  switch (part) {
    case 'DAY':
      return `CAST(CAST(${a} AS DATE) - CAST(${b} AS DATE) AS BIGINT)`;
    case 'MONTH':
      return `CAST((year(${a}) * 12 + month(${a})) - (year(${b}) * 12 + month(${b})) AS BIGINT)`;
    case 'QUARTER':
      return `CAST((year(${a}) * 4 + quarter(${a})) - (year(${b}) * 4 + quarter(${b})) AS BIGINT)`;
    case 'YEAR':
      return `CAST(year(${a}) - year(${b}) AS BIGINT)`;
    case 'ISOYEAR':
      return `CAST(isoyear(${a}) - isoyear(${b}) AS BIGINT)`;
  }
  if (!MICROS[part]) badPart(c, part);
  const u = MICROS[part];
  return `(${floorDiv(`epoch_us(${a})`, String(u))} - ${floorDiv(`epoch_us(${b})`, String(u))})`;
}

const dateDiff = (c: FnCall) => civilDiff(c, datePart(c, 2), c.args[0], c.args[1]);

function timeDiff(c: FnCall): string {
  const part = datePart(c, 2);
  if (!MICROS[part] || part === 'DAY') badPart(c, part);
  const [a, b] = c.args;
  return `(epoch_us(${a}) // ${MICROS[part]} - epoch_us(${b}) // ${MICROS[part]})`;
}

function timestampDiff(c: FnCall): string {
  const part = datePart(c, 2);
  if (!MICROS[part]) badPart(c, part);
  const [a, b] = c.args;
  return `((epoch_us(${a}) - epoch_us(${b})) // ${MICROS[part]})`;
}

/**
 * TIMESTAMP_ADD/_SUB/_DIFF/_TRUNC of a DATETIME (or DATE, coerced) answer as DATETIME_ADD/… (ZetaSQL
 * reference evaluator): DIFF counts boundaries (`TIMESTAMP_DIFF(DATETIME '2024-03-25', DATETIME
 * '2024-03-24 23:00:00', DAY)` = 1), WEEK…YEAR are allowed, overflow names the datetime.
 */
function civilWhenDatetime(datetime: FnLowering, timestamp: FnLowering): FnLowering {
  return (c) => (c.argTypes[0]?.kind === 'DATETIME' ? datetime(c) : timestamp(c));
}

/** LAST_DAY(date_or_datetime[, part]): a week or ISO year ending past 9999-12-31 is an error ({@link dateInRange}). */
function lastDay(c: FnCall): string {
  const part = c.args[1] ? datePart(c, 1) : 'MONTH';
  const x = c.args[0];
  const w = weekStart(part);
  if (w !== undefined) return dateInRange(c, 'Last day of', part, x, `CAST(${truncDate(c, part, x)} + 6 AS DATE)`);
  switch (part) {
    case 'MONTH':
      return `last_day(CAST(${x} AS DATE))`;
    case 'QUARTER':
      return `CAST(date_trunc('quarter', ${x}) + INTERVAL 3 MONTH - INTERVAL 1 DAY AS DATE)`;
    case 'YEAR':
      return `make_date(year(${x}), 12, 31)`;
    case 'ISOYEAR':
      return dateInRange(c, 'Last day of', part, x, `CAST(date_trunc('isoyear', CAST(date_trunc('isoyear', ${x}) AS DATE) + 371) - INTERVAL 1 DAY AS DATE)`);
  }
  return badPart(c, part);
}

/** UNIX_SECONDS / UNIX_MILLIS: whole units since the epoch, rounded down. */
const unixUnits = (u: number) => (c: FnCall) => floorDiv(`epoch_us(${c.args[0]})`, String(u));

/**
 * DATE/DATETIME/TIME from parts: parts outside the calendar are errors, never carried (ZetaSQL:
 * `Input calculates to invalid date: 0000-01-01`; DuckDB would accept year 0 or hour 24).
 */
function checkedParts(c: FnCall, kind: 'date' | 'datetime' | 'time', ok: string, fmt: string, value: string): string {
  const err = fail(c, `'Input calculates to invalid ${kind}: ' || printf('${fmt}', ${c.args.join(', ')})`);
  // Seconds past 59 carry (DATETIME(2020, 1, 1, 0, 0, 60) is 00:01:00), but not past 9999-12-31.
  const past = kind === 'datetime' ? `WHEN ${outOfRange(value, 'datetime')} THEN ${err} ` : '';
  return `CASE WHEN ${c.args.map((x) => `${x} IS NULL`).join(' OR ')} THEN NULL WHEN NOT (${ok}) THEN ${err} ${past}ELSE ${value} END`;
}

/**
 * The civil view of TIMESTAMP `ts` in zone `tz` (DATE / DATETIME(ts, zone), EXTRACT(DATE / DATETIME
 * FROM ts AT TIME ZONE zone)); a zone that
 * carries it outside the range is an error (reference evaluator): `Invalid date extracted from
 * timestamp 10000-01-01 04:00:00+05`, `Invalid Datetime [INVALID]extracted from timestamp …`.
 */
function zonedCivil(c: FnCall, ts: string, tz: string | undefined, message: string): string {
  const local = toLocal(ts, tz);
  return tz === undefined ? local : rangeOr(local, 'datetime', fail(c, `'${message}' || ${zonedText(ts, local)}`));
}

/**
 * The year, month and day arguments name a day of the calendar: a month or day outside it is an
 * invalid date (ZetaSQL's `Input calculates to invalid date: 2020-02-30`), not DuckDB's own
 * `Date out of range` from make_date / make_timestamp.
 */
const onCalendar = (a: string[]) =>
  `${a[1]} BETWEEN 1 AND 12 AND ${a[2]} BETWEEN 1 AND 31 AND TRY_CAST(printf('%04d-%02d-%02d', ${a[0]}, ${a[1]}, ${a[2]}) AS DATE) IS NOT NULL`;

function dateCtor(c: FnCall): string {
  const a = c.args;
  if (a.length === 3) return checkedParts(c, 'date', `${a[0]} BETWEEN 1 AND 9999 AND ${onCalendar(a)}`, '%04d-%02d-%02d', `make_date(${a[0]}, ${a[1]}, ${a[2]})`);
  if (c.argTypes[0]?.kind === 'TIMESTAMP') return `CAST(${zonedCivil(c, a[0], a[1], 'Invalid date extracted from timestamp ')} AS DATE)`;
  return `CAST(${a[0]} AS DATE)`;
}

function datetimeCtor(c: FnCall): string {
  const a = c.args;
  if (a.length === 6)
    return checkedParts(c, 'datetime', `${a[0]} BETWEEN 1 AND 9999 AND ${onCalendar(a)} AND ${a[3]} BETWEEN 0 AND 23 AND ${a[4]} BETWEEN 0 AND 59`, '%04d-%02d-%02d %04d:%02d:%02d', `make_timestamp(${a[0]}, ${a[1]}, ${a[2]}, ${a[3]}, ${a[4]}, ${a[5]})`);
  if (a.length === 2 && c.argTypes[1]?.kind === 'TIME') return `(${a[0]} + ${a[1]})`;
  if (c.argTypes[0]?.kind === 'TIMESTAMP') return zonedCivil(c, a[0], a[1], 'Invalid Datetime [INVALID]extracted from timestamp ');
  return `CAST(${a[0]} AS TIMESTAMP)`;
}

function timeCtor(c: FnCall): string {
  const a = c.args;
  if (a.length === 3) return checkedParts(c, 'time', `${a[0]} BETWEEN 0 AND 23 AND ${a[1]} BETWEEN 0 AND 59`, '%02d:%02d:%02d', `make_time(${a[0]}, ${a[1]}, ${a[2]})`);
  if (c.argTypes[0]?.kind === 'TIMESTAMP') return `CAST(${toLocal(a[0], a[1])} AS TIME)`;
  return `CAST(${a[0]} AS TIME)`;
}

/** The date, datetime, time and timestamp functions pages, except formatting and parsing. */
export const DATE_TIME_FUNCTIONS: FnTable = {
  current_date: (c) => `CAST(${toLocal('current_timestamp', c.args[0])} AS DATE)`,
  current_datetime: (c) => `CAST(${toLocal('current_timestamp', c.args[0])} AS TIMESTAMP)`,
  current_time: (c) => `CAST(${toLocal('current_timestamp', c.args[0])} AS TIME)`,
  current_timestamp: () => 'current_timestamp',
  date: dateCtor,
  datetime: datetimeCtor,
  time: timeCtor,
  $extract: extract,
  $extract_date: (c) => (c.argTypes[0]?.kind === 'TIMESTAMP' ? `CAST(${zonedCivil(c, c.args[0], c.args[1], 'Invalid date extracted from timestamp ')} AS DATE)` : `CAST(${c.args[0]} AS DATE)`),
  $extract_time: (c) => (c.argTypes[0]?.kind === 'TIMESTAMP' ? `CAST(${toLocal(c.args[0], c.args[1])} AS TIME)` : `CAST(${c.args[0]} AS TIME)`),
  $extract_datetime: (c) => zonedCivil(c, c.args[0], c.args[1], 'Invalid Datetime [INVALID]extracted from timestamp '),
  date_add: addSub('date', 1),
  date_sub: addSub('date', -1),
  datetime_add: addSub('datetime', 1),
  datetime_sub: addSub('datetime', -1),
  time_add: addSub('time', 1),
  time_sub: addSub('time', -1),
  timestamp_add: civilWhenDatetime(addSub('datetime', 1), addSub('timestamp', 1)),
  timestamp_sub: civilWhenDatetime(addSub('datetime', -1), addSub('timestamp', -1)),
  date_diff: dateDiff,
  datetime_diff: dateDiff,
  time_diff: timeDiff,
  timestamp_diff: civilWhenDatetime(dateDiff, timestampDiff),
  date_trunc: dateTrunc,
  datetime_trunc: datetimeTrunc,
  time_trunc: timeTrunc,
  timestamp_trunc: civilWhenDatetime(datetimeTrunc, timestampTrunc),
  last_day: lastDay,
  unix_date: (c) => `CAST(${c.args[0]} - DATE '1970-01-01' AS BIGINT)`,
  date_from_unix_date: (c) =>
    `CASE WHEN ${c.args[0]} NOT BETWEEN -719162 AND 2932896 THEN ${fail(c, `'DATE_FROM_UNIX_DATE range is -719162 to 2932896 but saw ' || CAST(${c.args[0]} AS VARCHAR)`)} ELSE CAST(DATE '1970-01-01' + to_days(CAST(${c.args[0]} AS INTEGER)) AS DATE) END`,
  unix_seconds: unixUnits(1e6),
  unix_millis: unixUnits(1e3),
  unix_micros: (c) => `epoch_us(${c.args[0]})`,
};
