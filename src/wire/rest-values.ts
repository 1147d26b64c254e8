/**
 * Domain values ⇄ BigQuery REST JSON values (docs/ARCHITECTURE.md §5).
 *
 * Encoding produces the `v` of a tabledata/query cell `{v: …}` (rows are `{f:[{v}]}`):
 * scalars as strings, ARRAY as `[{v}]`, STRUCT as `{f:[{v}]}`, NULL as `null`. Decoding of
 * insertAll rows lives in rest-json.ts and of query parameters in rest-params.ts; both are
 * re-exported here. This module never imports anything under src/engine.
 */
import type { BqType, IntervalValue, RangeValue, Value } from '../types/types.js';
import { formatInterval } from '../types/interval.js';
import { formatTimestampIsoPicos, microsOfPicos, PICOS_PER_MICRO } from '../types/temporal.js';
import { BigQueryError } from '../errors/errors.js';

export { decodeJsonValue, type JsonDecodeOptions } from './rest-json.js';
import { decodeJsonValue } from './rest-json.js';
export { decodeQueryParameter, decodeParameterType, type RestQueryParameter, type RestParameterType, type RestParameterValue } from './rest-params.js';

/** Options of the REST row encoding (`formatOptions` of jobs.query / getQueryResults / tabledata.list). */
export interface CellEncodeOptions {
  /** `formatOptions.useInt64Timestamp`: TIMESTAMP as integer microseconds text instead of float seconds. */
  useInt64Timestamp: boolean;
  /** `formatOptions.timestampOutputFormat` resolved by {@link timestampEncodeOptions}; wins over useInt64Timestamp. */
  timestampOutputFormat?: TimestampOutputFormat;
}

/** How TIMESTAMP cells are written (DataFormatOptions.timestampOutputFormat without its UNSPECIFIED). */
export type TimestampOutputFormat = 'FLOAT64' | 'INT64' | 'ISO8601_STRING';

/**
 * The encoding options of `formatOptions` (jobs.query body; getQueryResults and tabledata.list
 * query parameters `formatOptions.timestampOutputFormat` / `formatOptions.useInt64Timestamp`):
 * INT64 whatever useInt64Timestamp says; FLOAT64 or ISO8601_STRING only without
 * `useInt64Timestamp: true`; unspecified as useInt64Timestamp says (FLOAT64 by default).
 * Source: DataFormatOptions (https://cloud.google.com/bigquery/docs/reference/rest/v2/DataFormatOptions)
 * and the official Node client's system test timestamp_output_format.
 * @throws BigQueryError invalid `Cannot specify both use_int64_timestamp and timestamp_output_format.`
 */
export function timestampEncodeOptions(format: unknown, useInt64: unknown): CellEncodeOptions {
  const int64 = useInt64 === true || String(useInt64) === 'true';
  const f = format === undefined || format === null ? '' : String(format);
  if (f === 'INT64') return { useInt64Timestamp: true, timestampOutputFormat: 'INT64' };
  if (f === 'FLOAT64' || f === 'ISO8601_STRING') {
    if (int64) throw BigQueryError.timestampFormatConflict();
    return { useInt64Timestamp: false, timestampOutputFormat: f };
  }
  return { useInt64Timestamp: int64 };
}

/**
 * An insertAll value of a TIMESTAMP(12) column: the text forms of a TIMESTAMP with up to twelve
 * fractional digits (`2023-01-01T12:00:00.123456789123Z`); digits 7–12 are the picoseconds the
 * column keeps, the rest is decoded as any TIMESTAMP (zones, epoch seconds, BigQuery's errors).
 * @returns the value's microseconds (floored, the column's value) and picoseconds since the epoch.
 * @throws BigQueryError invalid naming the field, as {@link decodeJsonValue}.
 */
export function decodePicosTimestamp(json: unknown, field: string): { micros: bigint; picos: bigint } {
  const m = typeof json === 'string' ? /^([^.]*\.\d{6})(\d{1,6})(?!\d)(.*)$/s.exec(json) : null;
  const micros = decodeJsonValue(m ? m[1] + m[3] : json, { kind: 'TIMESTAMP' }, field, {}) as bigint;
  return { micros, picos: micros * PICOS_PER_MICRO + (m ? BigInt(m[2].padEnd(6, '0')) : 0n) };
}

/**
 * The REST cell text of a TIMESTAMP given in picoseconds since the epoch (a TIMESTAMP(12) column):
 * ISO8601_STRING keeps all twelve digits; INT64 and FLOAT64 carry microseconds (truncated), as
 * their descriptions say ("int64 microseconds since Unix epoch").
 */
export function encodePicosTimestamp(picos: bigint, opts: CellEncodeOptions): string {
  const f = opts.timestampOutputFormat ?? (opts.useInt64Timestamp ? 'INT64' : 'FLOAT64');
  if (f === 'ISO8601_STRING') return formatTimestampIsoPicos(picos);
  const micros = microsOfPicos(picos);
  return f === 'INT64' ? micros.toString() : formatTimestampSeconds(micros);
}

/** A REST cell: `{v: …}`. */
export interface RestCell {
  v: unknown;
}
/** A REST row: `{f: [{v: …}, …]}`. */
export interface RestRow {
  f: RestCell[];
}

/**
 * A FLOAT64 as the REST API writes it, which is Java's `Double.toString`: the shortest digits that
 * round-trip; plain notation with at least one fractional digit for 10^-3 ≤ |x| < 10^7 (`1.5`, `3.0`,
 * `0.001`), otherwise `d.dddE±n` without a `+` (`1.0E20`, `1.0E-4`, `1.7040672E9`); `NaN`,
 * `Infinity`, `-Infinity`, `0.0`, `-0.0`; at least two significant digits are considered, so
 * `Double.MIN_VALUE` is `4.9E-324`.
 * Source: cells such as `"1.447216127E9"` and `"1.561017697269367E9"` returned by the API
 * (tylertreat/BigQuery-Python#72, googleapis/elixir-google-api#1713).
 */
export function formatFloat64(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    // Fast path (paging hot spot): in this range JavaScript's shortest round-trip text is already
    // plain notation; Java adds ".0" to whole numbers.
    const s = String(x);
    return s.includes('.') ? s : `${s}.0`;
  }
  const sign = x < 0 ? '-' : '';
  // The shortest round-trip digits and decimal exponent, read off JavaScript's own text of |x|:
  // `d.ddde±n` from 1e21 and below 1e-6, plain notation between (`71428571428.57143`, `0.000123`).
  // (Through toExponential() and string splits this cost ~1.1 µs a value, twice this.)
  const s = String(abs);
  let digits: string;
  let exp: number;
  const e = s.indexOf('e');
  if (e >= 0) {
    exp = Number(s.slice(e + 1));
    digits = s.charCodeAt(1) === 46 /* . */ ? s[0] + s.slice(2, e) : s.slice(0, e);
  } else if (abs >= 1) {
    const dot = s.indexOf('.');
    exp = (dot < 0 ? s.length : dot) - 1;
    digits = dot < 0 ? s : s.slice(0, dot) + s.slice(dot + 1);
  } else {
    let i = 2;
    while (s.charCodeAt(i) === 48 /* 0 */) i++;
    exp = 1 - i;
    digits = s.slice(i);
  }
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 48) end--;
  if (end === 1) {
    // One significant digit: Java prints at least two and picks the 2-digit decimal nearest to x
    // (Double.MIN_VALUE is "4.9E-324"); it is d.0 whenever x is exactly d×10^n.
    const [m2, e2] = abs.toExponential(1).split('e');
    if (Number(`${m2}e${e2}`) === abs) return `${sign}${m2}E${Number(e2)}`;
    return `${sign}${digits[0]}.0E${exp}`;
  }
  return `${sign}${digits[0]}.${digits.slice(1, end)}E${exp}`;
}

/**
 * A TIMESTAMP (µs since the epoch) as the REST API writes it without `useInt64Timestamp`: seconds
 * as a double in Java notation (`1.7040672E9`, `1.704067200123456E9`). The double is the one
 * nearest to the exact decimal seconds, so @google-cloud/bigquery's float path
 * (`BigQueryTimestamp.fromFloatValue_`) recovers the exact microsecond for non-negative times up
 * to 2242-03-16 (beyond, a double's spacing exceeds 1 µs). For times before 1970 with a fraction
 * that client is off by one µs (it rounds the negative fraction with `trunc(f·1e6 + 0.5)`), as it
 * is against BigQuery itself.
 */
export function formatTimestampSeconds(micros: bigint): string {
  const neg = micros < 0n;
  const abs = neg ? -micros : micros;
  const text = `${neg ? '-' : ''}${abs / 1_000_000n}.${String(abs % 1_000_000n).padStart(6, '0')}`;
  return formatFloat64(Number(text));
}

/**
 * TIME / DATETIME as REST cells: the fraction, when present, is always six digits
 * (`HH:MM:SS` or `HH:MM:SS.ffffff`). google-cloud-python's `_time_from_json` accepts a TIME cell of
 * exactly 8 or 15 characters and `_datetime_from_json` documents `YYYY-MM-DDTHH:MM:SS.ffffff`, so
 * the `.fff` form of the GoogleSQL text (`12:00:00.500`) is not what the API sends.
 */
function restCivilTime(text: string): string {
  return text.replace(/\.(\d{1,6})$/, (_m, f: string) => `.${f.padEnd(6, '0')}`);
}

function bytesToBase64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
}

function badValue(v: Value, t: BqType): BigQueryError {
  const shown = typeof v === 'bigint' ? `${v}n` : typeof v === 'object' ? JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}` : x)) : String(v);
  return BigQueryError.cannotEncodeRestCell(shown, t.kind);
}

/**
 * The REST value of one cell (the `v` of `{v: …}`) for a domain value of type `t`.
 *
 * INT64 decimal text; FLOAT64 per formatFloat64; NUMERIC/BIGNUMERIC, STRING, DATE, JSON and GEOGRAPHY
 * as the domain text; DATETIME and TIME as the domain text with a six-digit fraction (restCivilTime); BOOL `"true"`/`"false"`; BYTES base64; TIMESTAMP per
 * formatTimestampSeconds, or integer microseconds text when `opts.useInt64Timestamp`; INTERVAL
 * `Y-M D H:M:S[.F]` (formatInterval); RANGE `[start, end)` with each bound written as a cell of
 * the element type and `UNBOUNDED` for a missing bound (the form @google-cloud/bigquery's
 * `BigQueryRange.fromSchemaValue_` parses); ARRAY `[{v}]` (a NULL array as `[]`); STRUCT `{f:[{v}]}`; NULL `null`.
 * @throws BigQueryError backendError (500) when the value does not match the type (an engine bug).
 */
export function encodeCell(v: Value, t: BqType, opts: CellEncodeOptions): unknown {
  // BigQuery has no NULL array: a NULL ARRAY value is written as the empty array.
  if ((v === null || v === undefined) && t.kind === 'ARRAY') return [];
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'INT64':
      if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) return String(v);
      break;
    case 'FLOAT64':
      if (typeof v === 'number') return formatFloat64(v);
      break;
    case 'BOOL':
      if (typeof v === 'boolean') return v ? 'true' : 'false';
      break;
    case 'DATETIME':
    case 'TIME':
      if (typeof v === 'string') return restCivilTime(v);
      break;
    case 'NUMERIC':
    case 'BIGNUMERIC':
    case 'STRING':
    case 'DATE':
    case 'JSON':
    case 'GEOGRAPHY':
      if (typeof v === 'string') return v;
      break;
    case 'BYTES':
      if (v instanceof Uint8Array) return bytesToBase64(v);
      break;
    case 'TIMESTAMP':
      if (typeof v === 'bigint') {
        if (opts.timestampOutputFormat === 'ISO8601_STRING') return formatTimestampIsoPicos(v * PICOS_PER_MICRO);
        return opts.timestampOutputFormat === 'INT64' || opts.useInt64Timestamp ? v.toString() : formatTimestampSeconds(v);
      }
      break;
    case 'INTERVAL':
      if (typeof v === 'object' && !Array.isArray(v) && 'months' in v) return formatInterval(v as IntervalValue);
      break;
    case 'RANGE':
      if (typeof v === 'object' && !Array.isArray(v) && 'start' in v) {
        const r = v as RangeValue;
        const bound = (b: Value): string => (b === null ? 'UNBOUNDED' : String(encodeCell(b, t.element, opts)));
        return `[${bound(r.start)}, ${bound(r.end)})`;
      }
      break;
    case 'ARRAY':
      if (Array.isArray(v)) return v.map((e) => ({ v: encodeCell(e, t.element, opts) }));
      break;
    case 'STRUCT':
      if (Array.isArray(v) && v.length === t.fields.length) return { f: t.fields.map((f, i) => ({ v: encodeCell(v[i], f.type, opts) })) };
      break;
  }
  throw badValue(v, t);
}

/**
 * The JSON text of the REST cell value `v` of a column of type `t` (`"12"`, `null`, `[{"v":…}]`),
 * specialised once per column: the scalar types that dominate large results skip the generic
 * {@link encodeCell} switch and `JSON.stringify` of digits. Same text as
 * `JSON.stringify(encodeCell(v, t, opts))`.
 * @throws BigQueryError internal for a value that does not fit the type (via encodeCell).
 */
export function cellJsonEncoder(t: BqType, opts: CellEncodeOptions): (v: Value) => string {
  const generic = (v: Value): string => {
    const c = encodeCell(v, t, opts);
    return c === null ? 'null' : JSON.stringify(c);
  };
  switch (t.kind) {
    case 'INT64':
      return (v) => (v === null || v === undefined ? 'null' : typeof v === 'bigint' ? `"${v}"` : generic(v));
    case 'FLOAT64':
      return (v) => (v === null || v === undefined ? 'null' : typeof v === 'number' ? `"${formatFloat64(v)}"` : generic(v));
    case 'BOOL':
      return (v) => (v === true ? '"true"' : v === false ? '"false"' : generic(v));
    case 'STRING':
    case 'DATE':
    case 'NUMERIC':
    case 'BIGNUMERIC':
      return (v) => (v === null || v === undefined ? 'null' : typeof v === 'string' ? JSON.stringify(v) : generic(v));
    default:
      return generic;
  }
}

/** One REST row `{f:[{v}]}` from the values of a row and the column types (same length). */
export function encodeRow(values: Value[], types: BqType[], opts: CellEncodeOptions): RestRow {
  const f: RestCell[] = new Array(types.length);
  for (let i = 0; i < types.length; i++) f[i] = { v: encodeCell(values[i], types[i], opts) };
  return { f };
}
