/**
 * Storage Write API values → domain values (src/types/types.ts): the conversions shared by proto
 * rows (src/wire/write-proto-fields.ts) and Arrow rows (src/wire/write-arrow-rows.ts), as BigQuery
 * documents them in "Supported protocol buffer and Arrow data types"
 * (https://cloud.google.com/bigquery/docs/supported-data-types):
 * - DATE: days since 1970-01-01 in [-719162, 2932896], or a DATE literal;
 * - DATETIME, TIME: a literal, or the packed int64 of `CivilTimeEncoder` (the Java client's
 *   encoder, ported from ZetaSQL's civil_time encoding): TIME = hour << 32 | minute << 26 |
 *   second << 20 | micros; DATETIME = year << 46 | month << 42 | day << 37 | the TIME bits;
 * - TIMESTAMP: microseconds since the Unix epoch;
 * - NUMERIC, BIGNUMERIC: a decimal string, a number, or `BigDecimalByteStringEncoder`'s bytes
 *   (little-endian two's complement of value × 10^9 resp. 10^38);
 * - GEOGRAPHY: WKT or GeoJSON; JSON: JSON text; INTERVAL: an INTERVAL literal.
 * Every converter throws WriteRowValueError (src/errors/write-row-errors.ts) for a value that does
 * not fit; the row loop turns it into that row's RowError.
 */
import { BigQueryError } from '../errors/errors.js';
import {
  fieldValueText,
  invalidCivilTimeText,
  valueOutOfRangeText,
  writeRowValue,
} from '../errors/write-row-errors.js';
import { leBytesToBigInt } from '../analyzer/values.js';
import {
  BIGNUMERIC_MAX_SCALED,
  BIGNUMERIC_MIN_SCALED,
  NUMERIC_MAX_SCALED,
  normalizeBigNumeric,
  normalizeNumeric,
  numberToDecimalText,
  scaledToText,
} from '../types/decimal.js';
import {
  DATE_MAX_DAYS,
  DATE_MIN_DAYS,
  MICROS_PER_DAY,
  TIMESTAMP_MAX_MICROS,
  TIMESTAMP_MIN_MICROS,
  civilFromDays,
  daysFromCivil,
  formatDateDays,
  formatDatetimeMicros,
  formatTimeMicros,
} from '../types/temporal.js';
import { decodeScalarJson } from './rest-json.js';
import { build, parseGeoJson, parseWkt } from '../geo/parse.js';
import { toWkt } from '../geo/write.js';
import type { IntervalValue, ScalarKind, Value } from '../types/types.js';

/** The value's text for an error message (bigint/number/string as is). */
const shown = (v: unknown): string => (v instanceof Uint8Array ? `0x${Buffer.from(v).toString('hex')}` : String(v));

/**
 * A literal (string) of scalar `kind` → domain value, with insertAll's row texts for bad values
 * (src/wire/rest-json.ts `decodeScalarJson`), prefixed with the field.
 * @throws WriteRowValueError
 */
export function fromLiteral(text: string, kind: ScalarKind, field: string): Value {
  if (kind === 'STRING') return text;
  if (kind === 'GEOGRAPHY') return geographyText(text, field);
  try {
    return decodeScalarJson(text, kind, field, 'row');
  } catch (e) {
    if (e instanceof BigQueryError) throw writeRowValue(fieldValueText(field, e.message));
    throw e;
  }
}

/**
 * GEOGRAPHY from WKT or GeoJSON (a text starting with `{`), validated and normalised by the
 * GEOGRAPHY model (src/geo/): the stored value is the WKT BigQuery answers.
 * @throws WriteRowValueError with the geography error's text
 */
export function geographyText(text: string, field: string): string {
  try {
    const geo = /^\s*\{/.test(text) ? build(parseGeoJson(text), { planar: true }) : build(parseWkt(text));
    return toWkt(geo);
  } catch (e) {
    throw writeRowValue(fieldValueText(field, `Invalid GEOGRAPHY value: ${text}: ${(e as Error).message}`));
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** INT64 from a bigint (a uint64 may exceed INT64's range). @throws WriteRowValueError */
export function int64Of(v: bigint, field: string): bigint {
  if (v < INT64_MIN || v > INT64_MAX) throw writeRowValue(valueOutOfRangeText(field, 'INT64', v.toString()));
  return v;
}

/** DATE from days since the epoch, in BigQuery's range. @throws WriteRowValueError */
export function dateOfDays(days: number | bigint, field: string): string {
  const d = Number(days);
  if (!Number.isInteger(d) || d < DATE_MIN_DAYS || d > DATE_MAX_DAYS) throw writeRowValue(valueOutOfRangeText(field, 'DATE', String(days)));
  return formatDateDays(d);
}

/** TIMESTAMP from microseconds since the epoch, in BigQuery's range. @throws WriteRowValueError */
export function timestampOfMicros(micros: bigint, field: string): bigint {
  if (micros < TIMESTAMP_MIN_MICROS || micros > TIMESTAMP_MAX_MICROS) throw writeRowValue(valueOutOfRangeText(field, 'TIMESTAMP', micros.toString()));
  return micros;
}

const bits = (v: bigint, shift: number, width: number): number => Number((v >> BigInt(shift)) & ((1n << BigInt(width)) - 1n));

/** Microseconds of the day of a packed TIME (CivilTimeEncoder, micros precision), or null when invalid. */
function packedTimeMicros(p: bigint): bigint | null {
  if (p < 0n || p >> 37n !== 0n) return null;
  const hour = bits(p, 32, 5), minute = bits(p, 26, 6), second = bits(p, 20, 6), micros = bits(p, 0, 20);
  if (hour > 23 || minute > 59 || second > 59 || micros > 999_999) return null;
  return BigInt((hour * 3600 + minute * 60 + second) * 1_000_000 + micros);
}

/** TIME from CivilTimeEncoder's packed int64. @throws WriteRowValueError */
export function timeOfPacked(p: bigint, field: string): string {
  const micros = packedTimeMicros(p);
  if (micros === null) throw writeRowValue(invalidCivilTimeText(field, 'TIME', p.toString()));
  return formatTimeMicros(micros);
}

/** DATETIME from CivilTimeEncoder's packed int64 (year in [1, 9999], a real calendar day). @throws WriteRowValueError */
export function datetimeOfPacked(p: bigint, field: string): string {
  const fail = () => writeRowValue(invalidCivilTimeText(field, 'DATETIME', p.toString()));
  if (p < 0n || p >> 60n !== 0n) throw fail();
  const year = bits(p, 46, 14), month = bits(p, 42, 4), day = bits(p, 37, 5);
  const time = packedTimeMicros(p & ((1n << 37n) - 1n));
  if (time === null || year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) throw fail();
  const days = daysFromCivil(year, month, day);
  const back = civilFromDays(days);
  if (back.month !== month || back.day !== day) throw fail();
  return formatDatetimeMicros(BigInt(days) * MICROS_PER_DAY + time);
}

/** NUMERIC / BIGNUMERIC from decimal text (a literal, or an integer's or a double's text). @throws WriteRowValueError */
export function decimalOfText(text: string, kind: 'NUMERIC' | 'BIGNUMERIC', field: string): string {
  const v = kind === 'NUMERIC' ? normalizeNumeric(text) : normalizeBigNumeric(text);
  if (v === null) throw writeRowValue(fieldValueText(field, `Invalid ${kind} value: ${text}`));
  return v;
}

/** NUMERIC / BIGNUMERIC from a finite JS number (float/double fields). @throws WriteRowValueError */
export function decimalOfNumber(n: number, kind: 'NUMERIC' | 'BIGNUMERIC', field: string): string {
  if (!Number.isFinite(n)) throw writeRowValue(fieldValueText(field, `Invalid ${kind} value: ${n}`));
  return decimalOfText(numberToDecimalText(n), kind, field);
}

/**
 * NUMERIC / BIGNUMERIC from an already scaled integer (`BigDecimalByteStringEncoder` bytes after
 * leBytesToBigInt, or an Arrow decimal's unscaled value with its `scale`).
 * @throws WriteRowValueError when out of range (or, for another scale, not representable)
 */
export function decimalOfScaled(scaled: bigint, scale: number, kind: 'NUMERIC' | 'BIGNUMERIC', field: string): string {
  const target = kind === 'NUMERIC' ? 9 : 38;
  if (scale !== target) return decimalOfText(scaledToText(scaled, scale), kind, field);
  const ok = kind === 'NUMERIC' ? scaled <= NUMERIC_MAX_SCALED && scaled >= -NUMERIC_MAX_SCALED : scaled <= BIGNUMERIC_MAX_SCALED && scaled >= BIGNUMERIC_MIN_SCALED;
  if (!ok) throw writeRowValue(fieldValueText(field, `Invalid ${kind} value: ${scaledToText(scaled, scale)}`));
  return scaledToText(scaled, scale);
}

/** NUMERIC / BIGNUMERIC from BigDecimalByteStringEncoder's bytes. @throws WriteRowValueError */
export function decimalOfBytes(b: Uint8Array, kind: 'NUMERIC' | 'BIGNUMERIC', field: string): string {
  if (!b.length) throw writeRowValue(fieldValueText(field, `Invalid ${kind} value: ${shown(b)}`));
  return decimalOfScaled(leBytesToBigInt(b), kind === 'NUMERIC' ? 9 : 38, kind, field);
}

/** INTERVAL from a google.protobuf.Duration's seconds and nanos (sub-microsecond nanos dropped). */
export function intervalOfDuration(seconds: bigint, nanos: number): IntervalValue {
  return { months: 0, days: 0, micros: seconds * 1_000_000n + BigInt(Math.trunc(nanos / 1000)) };
}
