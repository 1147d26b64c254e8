/**
 * INTERVAL canonical text and parsing.
 *
 * Behaviour follows ZetaSQL's IntervalValue (google/zetasql zetasql/public/interval_value.cc),
 * which BigQuery uses:
 * - Text form is always fully expanded `[-]Y-M [-]D [-]H:M:S[.fff[fff]]`: the year-month part
 *   carries the sign of the month count, days print with their own sign, the time part carries the
 *   sign of the micro count; fractions print in groups of three digits (`0-0 0 49:0:0`,
 *   `1-2 3 4:5:6.789`, `-1-6 -3 -0:0:1.500`).
 * - Parsing accepts that form and its shorter datetime-part layouts (`Y-M`, `Y-M D`, `D H:M:S`,
 *   `H:M:S`, … — the layout is told apart by counting spaces, colons and dashes after a digit) and
 *   ISO 8601 durations starting with `P` (`P1Y2M3DT4H5M6.5S`, negative parts and `W` allowed,
 *   fractions only on seconds).
 * Limits: |months| ≤ 120 000, |days| ≤ 3 660 000, |time| ≤ 87 840 000 hours.
 */
import type { IntervalValue } from './types.js';

export const INTERVAL_MAX_MONTHS = 120_000;
export const INTERVAL_MAX_DAYS = 3_660_000;
export const INTERVAL_MAX_MICROS = 87_840_000n * 3_600_000_000n;

const MICROS_PER_HOUR = 3_600_000_000n;
const MICROS_PER_MINUTE = 60_000_000n;
const MICROS_PER_SECOND = 1_000_000n;

/** The canonical text of an interval, e.g. `0-0 0 49:0:0`, `-1-2 -3 -4:5:6.789`. */
export function formatInterval(v: IntervalValue): string {
  const months = Math.abs(v.months);
  const neg = v.micros < 0n;
  let rest = neg ? -v.micros : v.micros;
  const hours = rest / MICROS_PER_HOUR;
  rest -= hours * MICROS_PER_HOUR;
  const minutes = rest / MICROS_PER_MINUTE;
  rest -= minutes * MICROS_PER_MINUTE;
  const seconds = rest / MICROS_PER_SECOND;
  const frac = Number(rest - seconds * MICROS_PER_SECOND);
  let out = `${v.months < 0 ? '-' : ''}${Math.floor(months / 12)}-${months % 12} ${v.days} ${neg ? '-' : ''}${hours}:${minutes}:${seconds}`;
  if (frac !== 0) {
    const millis = Math.floor(frac / 1000);
    out += '.' + String(millis).padStart(3, '0');
    if (frac % 1000 !== 0) out += String(frac % 1000).padStart(3, '0');
  }
  return out;
}

/** True when all three parts are within BigQuery's INTERVAL range. */
export function intervalInRange(v: IntervalValue): boolean {
  return (
    Math.abs(v.months) <= INTERVAL_MAX_MONTHS &&
    Math.abs(v.days) <= INTERVAL_MAX_DAYS &&
    v.micros <= INTERVAL_MAX_MICROS &&
    v.micros >= -INTERVAL_MAX_MICROS
  );
}

/** Parses canonical or ISO 8601 interval text; null when malformed or out of range. */
export function parseInterval(text: string): IntervalValue | null {
  const v = text.startsWith('P') ? parseIso(text) : parseCanonical(text);
  return v && intervalInRange(v) ? v : null;
}

function fractionToMicros(digits: string | undefined): bigint | null {
  if (!digits) return 0n;
  if (digits.length > 9) return null;
  return BigInt((digits + '000000').slice(0, 6)); // sub-microsecond digits are dropped
}

const SIGN = '([-+])?';
const N = '(\\d+)';
const SDAY = '([-+]?\\d+)';
const FRAC = '(?:\\.(\\d+))?';
/** Layouts keyed by `spaces,colons,dashes-after-digit`; each yields [sm, y, m, d, st, h, mi, s, f]. */
const LAYOUTS: Record<string, { re: RegExp; map: (g: (string | undefined)[]) => (string | undefined)[] }> = {
  '2,2,1': { re: new RegExp(`^${SIGN}${N}-${N} ${SDAY} ${SIGN}${N}:${N}:${N}${FRAC}$`), map: (g) => g },
  '2,1,1': { re: new RegExp(`^${SIGN}${N}-${N} ${SDAY} ${SIGN}${N}:${N}$`), map: (g) => g },
  '2,0,1': { re: new RegExp(`^${SIGN}${N}-${N} ${SDAY} ${SIGN}${N}$`), map: (g) => g },
  '1,0,1': { re: new RegExp(`^${SIGN}${N}-${N} ${SDAY}$`), map: (g) => g },
  '0,0,1': { re: new RegExp(`^${SIGN}${N}-${N}$`), map: (g) => g },
  '2,0,0': { re: new RegExp(`^${SIGN}${N} ${SDAY} ${SIGN}${N}$`), map: ([sm, m, d, st, h]) => [sm, undefined, m, d, st, h] },
  '2,1,0': { re: new RegExp(`^${SIGN}${N} ${SDAY} ${SIGN}${N}:${N}$`), map: ([sm, m, d, st, h, mi]) => [sm, undefined, m, d, st, h, mi] },
  '2,2,0': { re: new RegExp(`^${SIGN}${N} ${SDAY} ${SIGN}${N}:${N}:${N}${FRAC}$`), map: ([sm, m, d, st, h, mi, s, f]) => [sm, undefined, m, d, st, h, mi, s, f] },
  '1,1,0': { re: new RegExp(`^${SDAY} ${SIGN}${N}:${N}$`), map: ([d, st, h, mi]) => [undefined, undefined, undefined, d, st, h, mi] },
  '1,2,0': { re: new RegExp(`^${SDAY} ${SIGN}${N}:${N}:${N}${FRAC}$`), map: ([d, st, h, mi, s, f]) => [undefined, undefined, undefined, d, st, h, mi, s, f] },
  '0,2,0': { re: new RegExp(`^${SIGN}${N}:${N}:${N}${FRAC}$`), map: ([st, h, mi, s, f]) => [undefined, undefined, undefined, undefined, st, h, mi, s, f] },
};

function parseCanonical(text: string): IntervalValue | null {
  let spaces = 0, colons = 0, dashes = 0, prev = '';
  for (const c of text) {
    if (c === ' ') spaces++;
    else if (c === ':') colons++;
    else if (c === '-' && prev >= '0' && prev <= '9') dashes++;
    prev = c;
  }
  const layout = LAYOUTS[`${spaces},${colons},${dashes}`];
  const m = layout?.re.exec(text);
  if (!layout || !m) return null;
  const [sm, y, mo, d, st, h, mi, s, f] = layout.map(m.slice(1));
  const months = Number(y ?? 0) * 12 + Number(mo ?? 0);
  const fracMicros = fractionToMicros(f);
  if (fracMicros === null || !Number.isSafeInteger(months)) return null;
  let micros = BigInt(h ?? 0) * MICROS_PER_HOUR + BigInt(mi ?? 0) * MICROS_PER_MINUTE + BigInt(s ?? 0) * MICROS_PER_SECOND + fracMicros;
  if (st === '-') micros = -micros;
  const days = Number(d ?? 0);
  if (!Number.isSafeInteger(days)) return null;
  return { months: (sm === '-' ? -months : months) || 0, days: days || 0, micros };
}

function parseIso(text: string): IntervalValue | null {
  const re = /(-)?(\d+)(?:[.,](\d*))?([YMWDHS])|(T)/gy;
  let pos = 1;
  if (text.length === 1) return null;
  let inTime = false;
  let months = 0, days = 0, micros = 0n;
  re.lastIndex = 1;
  while (pos < text.length) {
    const m = re.exec(text);
    if (!m || m.index !== pos) return null;
    pos = re.lastIndex;
    if (m[5]) {
      if (inTime) return null;
      inTime = true;
      continue;
    }
    const sign = m[1] ? -1 : 1;
    const unit = m[4];
    if (m[3] !== undefined && unit !== 'S') return null;
    const n = Number(m[2]) * sign;
    if (!Number.isSafeInteger(n)) return null;
    if (!inTime) {
      if (unit === 'Y') months += n * 12;
      else if (unit === 'M') months += n;
      else if (unit === 'W') days += n * 7;
      else if (unit === 'D') days += n;
      else return null;
    } else if (unit === 'H') micros += BigInt(n) * MICROS_PER_HOUR;
    else if (unit === 'M') micros += BigInt(n) * MICROS_PER_MINUTE;
    else if (unit === 'S') {
      const frac = fractionToMicros(m[3]);
      if (frac === null) return null;
      micros += BigInt(n) * MICROS_PER_SECOND + BigInt(sign) * frac;
    } else return null;
  }
  return { months: months || 0, days: days || 0, micros };
}
