/**
 * Value parsers and equality primitives behind the corpus tolerances (conformance/README.md "Tolerances").
 * Pure functions over plain values; compare.ts applies them by schema type.
 */
import { isLosslessNumber, parseJsonLossless } from './jsonsafe.js';

export const FLOAT_REL_TOL = 1e-12;
export const FLOAT_ABS_TOL = 1e-15;
/** Temporal tolerance in microseconds (conformance/README.md "Tolerances"). */
export const TEMPORAL_TOL_MICROS = 1n;

/**
 * FLOAT64 equality: rel 1e-12, abs 1e-15, NaN equals NaN, infinities by sign (conformance/README.md
 * "Tolerances").
 */
export function floatsEqual(a: number, b: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= Math.max(FLOAT_REL_TOL * Math.max(Math.abs(a), Math.abs(b)), FLOAT_ABS_TOL);
}

/**
 * Canonical form of a decimal literal ("1.0", "1", "1E+2", "-0.50") for NUMERIC/BIGNUMERIC decimal
 * equality (conformance/README.md "Tolerances"). Returns `undefined` when the text is not a decimal number.
 */
export function canonicalDecimal(text: string): string | undefined {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (!m) return undefined;
  const intPart = m[2] ?? '';
  const frac = m[3] ?? '';
  if (intPart.length + frac.length === 0) return undefined;
  let digits = (intPart + frac).replace(/^0+/, '');
  let exp = BigInt(m[4] ?? '0') - BigInt(frac.length);
  if (digits.length === 0) return '0';
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    exp += 1n;
  }
  return `${m[1] === '-' ? '-' : ''}${digits}e${exp}`;
}

/** Decimal equality after parsing both sides (conformance/README.md "Tolerances" NUMERIC/BIGNUMERIC row). */
export function decimalsEqual(a: string, b: string): boolean {
  const ca = canonicalDecimal(a);
  const cb = canonicalDecimal(b);
  return ca !== undefined && ca === cb;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (valid for years 1..9999 and beyond). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function fractionMicros(frac: string | undefined): bigint {
  if (!frac) return 0n;
  return BigInt(frac.padEnd(6, '0').slice(0, 6));
}

/**
 * Parse TIMESTAMP / DATETIME text to microseconds since the epoch (offset applied when present).
 * Accepts the Python client's ISO form (`2024-01-01T00:00:00+00:00`), the Node client's
 * (`2024-01-01T00:00:00.000Z`) and BigQuery's (`2024-01-01 00:00:00 UTC`, `…+00`).
 */
export function parseTimestampMicros(text: string): bigint | undefined {
  const m = /^\s*(-?\d{1,5})-(\d{1,2})-(\d{1,2})(?:[Tt ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|UTC|[+-]\d{1,2}(?::?\d{2})?)?\s*$/i.exec(text);
  if (!m) return undefined;
  const days = daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3]));
  const secs = Number(m[4] ?? 0) * 3600 + Number(m[5] ?? 0) * 60 + Number(m[6] ?? 0);
  let micros = (BigInt(days) * 86400n + BigInt(secs)) * 1_000_000n + fractionMicros(m[7]);
  const off = m[8];
  if (off && !/^(Z|UTC)$/i.test(off)) {
    const om = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(off)!;
    const offMicros = BigInt(Number(om[2]) * 3600 + Number(om[3] ?? 0) * 60) * 1_000_000n;
    micros += om[1] === '+' ? -offMicros : offMicros;
  }
  return micros;
}

/** Parse TIME text (`HH:MM:SS[.ffffff]`) to microseconds since midnight. */
export function parseTimeMicros(text: string): bigint | undefined {
  const m = /^\s*(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d+))?\s*$/.exec(text);
  if (!m) return undefined;
  return BigInt(Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1_000_000n + fractionMicros(m[4]);
}

/** Temporal equality within 1 µs (conformance/README.md "Tolerances" TIME/DATETIME/TIMESTAMP row). */
export function temporalEqual(a: string, b: string, kind: 'TIMESTAMP' | 'DATETIME' | 'TIME'): boolean {
  if (a === b) return true;
  const parse = kind === 'TIME' ? parseTimeMicros : parseTimestampMicros;
  const x = parse(a);
  const y = parse(b);
  if (x === undefined || y === undefined) return false;
  const d = x > y ? x - y : y - x;
  return d <= TEMPORAL_TOL_MICROS;
}

/** INTERVAL fields in the normalised form of Python's `relativedelta` (days are not carried). */
export interface IntervalFields {
  years: number;
  months: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  microseconds: number;
}

const INTERVAL_KEYS = ['years', 'months', 'days', 'hours', 'minutes', 'seconds', 'microseconds'] as const;

/** Carry like relativedelta: |v| above `limit` moves into the next field, sign preserved. */
function carry(v: number, limit: number): [number, number] {
  if (Math.abs(v) <= limit) return [v, 0];
  const s = Math.sign(v);
  const base = limit + 1;
  const div = Math.floor((v * s) / base);
  return [(v * s - div * base) * s, div * s];
}

/** Normalise fields the way relativedelta does on construction (µs→s→min→h→days; months→years). */
export function normaliseInterval(f: IntervalFields): IntervalFields {
  const r = { ...f };
  let c: number;
  [r.microseconds, c] = carry(r.microseconds, 999_999);
  r.seconds += c;
  [r.seconds, c] = carry(r.seconds, 59);
  r.minutes += c;
  [r.minutes, c] = carry(r.minutes, 59);
  r.hours += c;
  [r.hours, c] = carry(r.hours, 23);
  r.days += c;
  [r.months, c] = carry(r.months, 11);
  r.years += c;
  return r;
}

/**
 * Parse BigQuery's canonical INTERVAL text `[-]Y-M [-]D [-]H:M:S[.F]` (the form the emulator
 * returns) into normalised fields, with the sign rules of the Python client's decoder.
 */
export function parseCanonicalInterval(text: string): IntervalFields | undefined {
  const m = /^\s*(-?)(\d+)-(\d+) (-?\d+) (-?)(\d+):(\d+):(\d+)(?:\.(\d*))?\s*$/.exec(text);
  if (!m) return undefined;
  const cal = m[1] === '-' ? -1 : 1;
  const tim = m[5] === '-' ? -1 : 1;
  return normaliseInterval({
    years: cal * Number(m[2]),
    months: cal * Number(m[3]),
    days: Number(m[4]),
    hours: tim * Number(m[6]),
    minutes: tim * Number(m[7]),
    seconds: tim * Number(m[8]),
    microseconds: m[9] ? tim * Number(m[9].padEnd(6, '0').slice(0, 6)) : 0,
  });
}

/** Parse Python `relativedelta(years=+1, days=-2, …)` text (conformance/README.md "Recording notes" 3). */
export function parseRelativedelta(text: string): IntervalFields | undefined {
  const m = /^\s*relativedelta\((.*)\)\s*$/s.exec(text);
  if (!m) return undefined;
  const f: IntervalFields = { years: 0, months: 0, days: 0, hours: 0, minutes: 0, seconds: 0, microseconds: 0 };
  const body = m[1]!.trim();
  if (body === '') return f;
  for (const part of body.split(',')) {
    const kv = /^\s*([a-z]+)\s*=\s*([+-]?[\d.]+(?:e[+-]?\d+)?)\s*$/i.exec(part);
    if (!kv) return undefined;
    const key = kv[1]! as keyof IntervalFields;
    if (key === ('leapdays' as string)) continue;
    if (!(INTERVAL_KEYS as readonly string[]).includes(key)) return undefined;
    f[key] = Number(kv[2]);
  }
  return normaliseInterval(f);
}

/** Parse either INTERVAL spelling. */
export function parseInterval(text: string): IntervalFields | undefined {
  return parseRelativedelta(text) ?? parseCanonicalInterval(text);
}

/**
 * INTERVAL equality by fields (conformance/README.md "Tolerances"; conformance/README.md "Recording
 * notes" 3). A field written by Python's `%+g` with an exponent (≥ 1e6) only carries 6 significant
 * digits, so it is compared at that precision.
 */
export function intervalsEqual(a: string, b: string): boolean {
  if (a === b) return true;
  const x = parseInterval(a);
  const y = parseInterval(b);
  if (!x || !y) return false;
  return INTERVAL_KEYS.every((k) => {
    if (x[k] === y[k]) return true;
    const big = Math.max(Math.abs(x[k]), Math.abs(y[k]));
    return big >= 1e6 && Math.abs(x[k] - y[k]) <= 5e-6 * big;
  });
}

const WKT_SHAPED = /^(POINT|LINESTRING|POLYGON|MULTIPOINT|MULTILINESTRING|MULTIPOLYGON|GEOMETRYCOLLECTION)\s*\(/i;

/** True when a string is WKT-shaped (conformance/README.md "Tolerances" STRING WKT row). */
export function isWktShaped(s: string): boolean {
  return WKT_SHAPED.test(s.trim());
}

/** GEOGRAPHY normalisation: capitalisation and whitespace (none around `(`, `)`, `,`; runs collapsed). */
export function normaliseWkt(s: string): string {
  return s.trim().toUpperCase().replace(/\s+/g, ' ').replace(/\s*([(),])\s*/g, '$1');
}

/**
 * True when a string is JSON-shaped (conformance/README.md "Tolerances" STRING JSON row): stripped
 * value opens with `{` or `[`.
 */
export function isJsonShaped(s: string): boolean {
  const t = s.trim();
  return t.startsWith('{') || t.startsWith('[');
}

/** Parse JSON text for comparison; `undefined` when it does not parse. */
export function tryParseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: parseJsonLossless(text) };
  } catch {
    return undefined;
  }
}

function numericText(v: unknown): string | undefined {
  if (isLosslessNumber(v)) return (v as { value: string }).value;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return undefined;
}

/**
 * Unordered-key JSON equality (conformance/README.md "Tolerances" JSON rows): object key order
 * ignored, arrays ordered, numbers by decimal value (`3` equals `3.0`), everything else exact.
 */
export function jsonValuesEqual(a: unknown, b: unknown): boolean {
  const na = numericText(a);
  const nb = numericText(b);
  if (na !== undefined || nb !== undefined) {
    if (na === undefined || nb === undefined) return false;
    const fa = Number(na);
    const fb = Number(nb);
    return decimalsEqual(na, nb) || (!Number.isFinite(fa) && Object.is(fa, fb));
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonValuesEqual(x, b[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  const ob = b as Record<string, unknown>;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(ob, k) && jsonValuesEqual((a as Record<string, unknown>)[k], ob[k]));
}
