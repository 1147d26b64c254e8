/**
 * Civil-time arithmetic and the canonical texts of DATE, TIME, DATETIME and TIMESTAMP values.
 *
 * Pure functions shared by the wire codecs and the engine (neither imports the other).
 * Ranges and grammars follow GoogleSQL (https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types):
 * DATE 0001-01-01..9999-12-31; TIMESTAMP 0001-01-01 00:00:00 .. 9999-12-31 23:59:59.999999 UTC with
 * microsecond precision. Fractional seconds print in groups of three digits with trailing zero groups
 * dropped (`12:00:00`, `12:00:00.500`, `12:00:00.123456`), as ZetaSQL's datetime-to-string does.
 * Parsers return `null` on any malformed or out-of-range input; callers choose the error text.
 */

export const MICROS_PER_SECOND = 1_000_000n;
export const MICROS_PER_DAY = 86_400_000_000n;
/** Days from 1970-01-01 to 0001-01-01 and to 9999-12-31. */
export const DATE_MIN_DAYS = -719_162;
export const DATE_MAX_DAYS = 2_932_896;
/** 0001-01-01 00:00:00 UTC and 9999-12-31 23:59:59.999999 UTC in microseconds since the epoch. */
export const TIMESTAMP_MIN_MICROS = -62_135_596_800_000_000n;
export const TIMESTAMP_MAX_MICROS = 253_402_300_799_999_999n;

/** Days since 1970-01-01 of a proleptic-Gregorian civil date (month 1..12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12; // March = 0
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The civil date of a day count since 1970-01-01. */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function isValidCivil(year: number, month: number, day: number): boolean {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  const dim = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= dim[month - 1];
}

const pad2 = (n: number): string => (n < 10 ? '0' : '') + n;
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** `YYYY-MM-DD` of a day count since 1970-01-01. */
export function formatDateDays(days: number): string {
  const { year, month, day } = civilFromDays(days);
  return `${pad(year, 4)}-${pad2(month)}-${pad2(day)}`;
}

/** Fraction of a second (0..999999 µs) as '', '.fff' or '.ffffff' (ZetaSQL's groups of three). */
export function formatFraction(micros: number): string {
  if (micros === 0) return '';
  if (micros % 1000 === 0) return '.' + pad(micros / 1000, 3);
  return '.' + pad(micros, 6);
}

/** `HH:MM:SS[.fff[fff]]` of microseconds since midnight (0 ≤ micros < 86 400 000 000). */
export function formatTimeMicros(microsOfDay: bigint): string {
  const secs = Number(microsOfDay / MICROS_PER_SECOND);
  const frac = Number(microsOfDay % MICROS_PER_SECOND);
  return `${pad2(Math.floor(secs / 3600))}:${pad2(Math.floor(secs / 60) % 60)}:${pad2(secs % 60)}${formatFraction(frac)}`;
}

/** Splits micros since the epoch into whole days (floored) and micros of that day. */
export function splitMicros(micros: bigint): { days: number; microsOfDay: bigint } {
  let days = micros / MICROS_PER_DAY;
  let rem = micros % MICROS_PER_DAY;
  if (rem < 0n) {
    rem += MICROS_PER_DAY;
    days -= 1n;
  }
  return { days: Number(days), microsOfDay: rem };
}

/** Domain DATETIME text `YYYY-MM-DDTHH:MM:SS[.fff[fff]]` of a civil datetime given as micros since 1970-01-01T00:00. */
export function formatDatetimeMicros(micros: bigint): string {
  const { days, microsOfDay } = splitMicros(micros);
  return `${formatDateDays(days)}T${formatTimeMicros(microsOfDay)}`;
}

/** `YYYY-MM-DD HH:MM:SS[.fff[fff]]+00` — a TIMESTAMP as GoogleSQL prints it in UTC. */
export function formatTimestampUtc(micros: bigint): string {
  const { days, microsOfDay } = splitMicros(micros);
  return `${formatDateDays(days)} ${formatTimeMicros(microsOfDay)}+00`;
}

/** Picoseconds in a microsecond: a TIMESTAMP(12) value is picoseconds since the epoch. */
export const PICOS_PER_MICRO = 1_000_000n;

/** Microseconds (floored) of picoseconds since the epoch. */
export function microsOfPicos(picos: bigint): bigint {
  const q = picos / PICOS_PER_MICRO;
  return picos % PICOS_PER_MICRO < 0n ? q - 1n : q;
}

/**
 * `YYYY-MM-DDTHH:MM:SS.ffffffffffffZ` — a TIMESTAMP given in picoseconds since the epoch, as the
 * REST API writes it with `formatOptions.timestampOutputFormat: ISO8601_STRING` (always twelve
 * fractional digits: "YYYY-MM-DDTHH:MM:SS.FFFFFFFFFFFFZ",
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/tabledata/list#query-parameters).
 */
export function formatTimestampIsoPicos(picos: bigint): string {
  const { days, microsOfDay } = splitMicros(microsOfPicos(picos));
  const sub = picos - microsOfPicos(picos) * PICOS_PER_MICRO;
  const secs = Number(microsOfDay / MICROS_PER_SECOND);
  const frac = String(microsOfDay % MICROS_PER_SECOND).padStart(6, '0') + String(sub).padStart(6, '0');
  return `${formatDateDays(days)}T${pad2(Math.floor(secs / 3600))}:${pad2(Math.floor(secs / 60) % 60)}:${pad2(secs % 60)}.${frac}Z`;
}

// ---------------------------------------------------------------------------------------------
// Parsing. Grammar (ZetaSQL date_time_util): date `YYYY-[M]M-[D]D`; time `[H]H:[M]M:[S]S[.F]`;
// datetime `date[( |T|t)time]`. We also accept a time without seconds (`HH:MM`, the insertAll
// timestamp format `YYYY-MM-DD HH:MM[:SS[.SSSSSS]]`) and, for TIMESTAMP only, `/` as date separator.
// Up to 9 fractional digits are accepted; digits beyond microseconds are truncated.
// ---------------------------------------------------------------------------------------------

const DATE_RE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const TIME_RE = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9}))?)?$/;

function fractionMicros(digits: string | undefined): number {
  if (!digits) return 0;
  return Number((digits + '00000').slice(0, 6));
}

function timeMicros(h: string, m: string, s: string | undefined, f: string | undefined): bigint | null {
  const hh = Number(h), mm = Number(m), ss = s === undefined ? 0 : Number(s);
  if (hh > 23 || mm > 59 || ss > 59) return null;
  return BigInt((hh * 3600 + mm * 60 + ss) * 1_000_000 + fractionMicros(f));
}

/** Days since the epoch of a DATE text, or null. */
export function parseDateText(text: string): number | null {
  const m = DATE_RE.exec(text);
  if (!m) return null;
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  return isValidCivil(y, mo, d) ? daysFromCivil(y, mo, d) : null;
}

/** Microseconds since midnight of a TIME text, or null. */
export function parseTimeText(text: string): bigint | null {
  const m = TIME_RE.exec(text);
  return m ? timeMicros(m[1], m[2], m[3], m[4]) : null;
}

/** Micros since 1970-01-01T00:00 of a DATETIME text (`date` alone means midnight), or null. */
export function parseDatetimeText(text: string): bigint | null {
  const m = /^(\d{4}-\d{1,2}-\d{1,2})(?:[ Tt](.+))?$/.exec(text);
  if (!m) return null;
  const days = parseDateText(m[1]);
  if (days === null) return null;
  let tod = 0n;
  if (m[2] !== undefined) {
    const t = parseTimeText(m[2]);
    if (t === null) return null;
    tod = t;
  }
  return BigInt(days) * MICROS_PER_DAY + tod;
}

/** Result of parsing a TIMESTAMP text: micros, or why it failed (`zone` = unknown time zone name). */
export type TimestampParse = { micros: bigint } | { error: 'syntax' | 'range' } | { error: 'zone'; zone: string };

const TS_RE = /^(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?:[ Tt](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9}))?)?)?(.*)$/;

/**
 * Parses a TIMESTAMP text: `YYYY-MM-DD[( |T)HH:MM[:SS[.F]]][zone]` (or with `/` in the date) where
 * zone is empty (UTC), `Z`, ` UTC`, `[ UTC]±H[H][[:]MM]` (no space before the sign), or ` Area/City`
 * (an IANA name, resolved through the ICU data of Intl).
 */
export function parseTimestampText(text: string): TimestampParse {
  const m = TS_RE.exec(text);
  if (!m) return { error: 'syntax' };
  const y = Number(m[1]), mo = Number(m[3]), d = Number(m[4]);
  if (!isValidCivil(y, mo, d)) return { error: 'syntax' };
  let tod = 0n;
  if (m[5] !== undefined) {
    const t = timeMicros(m[5], m[6], m[7], m[8]);
    if (t === null) return { error: 'syntax' };
    tod = t;
  }
  const local = BigInt(daysFromCivil(y, mo, d)) * MICROS_PER_DAY + tod;
  const zone = parseZone(m[9]);
  if (zone === null) return { error: 'syntax' };
  let utc: bigint;
  if (typeof zone === 'number') utc = local - BigInt(zone) * 60_000_000n;
  else {
    const off = zoneOffsetMinutesForLocal(zone, local);
    if (off === null) return { error: 'zone', zone };
    utc = local - BigInt(off) * 60_000_000n;
  }
  if (utc < TIMESTAMP_MIN_MICROS || utc > TIMESTAMP_MAX_MICROS) return { error: 'range' };
  return { micros: utc };
}

/** Offset in minutes east of UTC, an IANA zone name, or null when malformed. */
function parseZone(z: string): number | string | null {
  if (z === '' || z === 'Z' || z === 'z' || z === ' UTC') return 0;
  let s = z.startsWith(' UTC') ? z.slice(4) : z.startsWith('UTC') ? z.slice(3) : z;
  const off = /^([+-])(\d{1,2})(?::?(\d{1,2}))?$/.exec(s);
  if (off) {
    const h = Number(off[2]), mi = off[3] === undefined ? 0 : Number(off[3]);
    if (h > 14 || mi > 59 || h * 60 + mi > 14 * 60) return null;
    return (off[1] === '-' ? -1 : 1) * (h * 60 + mi);
  }
  if (z.length < 2 || z[0] !== ' ' || z[1] === '+' || z[1] === '-') return null;
  s = z.slice(1);
  return /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(s) ? s : null;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();

function zoneFormat(zone: string): Intl.DateTimeFormat | null {
  let f = zoneFormats.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
        hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short',
      });
    } catch {
      // Intl rejects the zone (unknown to its tz database): remembered as unknown, the caller's error follows.
      f = null;
    }
    zoneFormats.set(zone, f);
  }
  return f;
}

/** The zone's offset (minutes east of UTC) at an instant given in epoch milliseconds. */
function offsetAtInstant(fmt: Intl.DateTimeFormat, ms: number): number {
  const parts: Record<string, string> = {};
  for (const p of fmt.formatToParts(new Date(ms))) parts[p.type] = p.value;
  let year = Number(parts.year);
  if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
  const localMs = daysFromCivil(year, Number(parts.month), Number(parts.day)) * 86_400_000 +
    (Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second)) * 1000;
  const instantSecondMs = Math.floor(ms / 1000) * 1000;
  return Math.round((localMs - instantSecondMs) / 60_000);
}

/** Offset to apply to a local civil time in `zone` (the earlier offset at a DST overlap), or null. */
function zoneOffsetMinutesForLocal(zone: string, localMicros: bigint): number | null {
  const fmt = zoneFormat(zone);
  if (!fmt) return null;
  const localMs = Number(localMicros / 1000n);
  const first = offsetAtInstant(fmt, localMs);
  const second = offsetAtInstant(fmt, localMs - first * 60_000);
  return first === second ? first : Math.max(first, second);
}
