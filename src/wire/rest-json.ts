/**
 * JSON values (insertAll `rows[].json`, query parameter values) → domain values.
 *
 * Accepted input, as BigQuery's REST API accepts it: numbers or strings for INT64, FLOAT64,
 * NUMERIC, BIGNUMERIC (numbers may arrive as lossless-json `LosslessNumber`s, whose text is used
 * exactly); booleans or `"true"`/`"false"` for BOOL; base64 (standard or URL-safe) for BYTES;
 * TIMESTAMP as `YYYY-MM-DD[( |T)HH:MM[:SS[.F]]][zone]` (also with `/`), ISO with `T`/`Z`, or epoch
 * seconds (number or numeric string); DATETIME `YYYY-MM-DD[( |T)HH:MM[:SS[.F]]]`; DATE; TIME;
 * INTERVAL canonical text or ISO 8601 duration; JSON as any JSON value or JSON text; GEOGRAPHY as
 * WKT text (not validated here); RANGE as `[a, b)` text (`UNBOUNDED`/`NULL` bounds) or
 * `{start, end}`; ARRAY as a JSON array; STRUCT as an object keyed by field name (case-insensitive).
 *
 * Errors are BigQueryError.invalid with `location` = the value's path (`a`, `rec.b`, `arr[2].c`).
 * Message texts, and where each comes from, are in src/errors/value-errors.ts.
 */
import { isLosslessNumber, parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import type { BqType, ScalarKind, Value } from '../types/types.js';
import { BigQueryError } from '../errors/errors.js';
import { normalizeBigNumeric, normalizeNumeric, numberToDecimalText, parseScaled } from '../types/decimal.js';
import { formatDateDays, formatDatetimeMicros, formatTimeMicros, parseDateText, parseDatetimeText, parseTimeText, parseTimestampText, TIMESTAMP_MAX_MICROS, TIMESTAMP_MIN_MICROS } from '../types/temporal.js';
import { parseInterval } from '../types/interval.js';

/** Options of decodeJsonValue. */
export interface JsonDecodeOptions {
  /** insertAll `ignoreUnknownValues`: drop unknown STRUCT keys instead of failing. */
  ignoreUnknownValues?: boolean;
  /** Whose error texts to use: insertAll rows (default) or query parameters. */
  dialect?: 'row' | 'param';
}

type Dialect = 'row' | 'param';

function show(json: unknown): string {
  if (typeof json === 'string') return json;
  if (isLosslessNumber(json)) return (json as { value: string }).value;
  if (typeof json === 'object' && json !== null) return stringifyLossless(json) ?? String(json);
  return String(json);
}

function fail(kind: ScalarKind, json: unknown, path: string, d: Dialect): never {
  throw BigQueryError.invalidJsonValue(kind, d, show(json), path);
}

/** The decimal text of a JSON number (JS number or LosslessNumber), else undefined. */
function numberText(json: unknown): string | undefined {
  if (typeof json === 'number') return Number.isFinite(json) ? numberToDecimalText(json) : undefined;
  if (isLosslessNumber(json)) return (json as { value: string }).value;
  return undefined;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const FLOAT_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SPECIAL_FLOATS: Record<string, number> = { nan: NaN, '+nan': NaN, '-nan': NaN, inf: Infinity, '+inf': Infinity, '-inf': -Infinity, infinity: Infinity, '+infinity': Infinity, '-infinity': -Infinity };
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

function decodeInt64(json: unknown, path: string, d: Dialect): bigint {
  // Fast paths (insertAll hot loop): safe integers, and short plain digit strings.
  if (typeof json === 'number' && Number.isSafeInteger(json)) return BigInt(json);
  if (typeof json === 'string' && json.length <= 15 && /^-?\d+$/.test(json)) return BigInt(json);
  let text = numberText(json);
  if (text === undefined && typeof json === 'string' && /^[+-]?\d+$/.test(json)) text = json;
  if (text !== undefined) {
    const v = parseScaled(text, 0);
    if (v !== null && v >= INT64_MIN && v <= INT64_MAX && parseScaled(text, 30) === v * 10n ** 30n) return v;
  }
  return fail('INT64', json, path, d);
}

function decodeFloat64(json: unknown, path: string, d: Dialect): number {
  if (typeof json === 'number') return json;
  const text = isLosslessNumber(json) ? (json as { value: string }).value : typeof json === 'string' ? json : undefined;
  if (text !== undefined) {
    if (FLOAT_RE.test(text)) return Number(text);
    const special = SPECIAL_FLOATS[text.toLowerCase()];
    if (special !== undefined) return special;
  }
  return fail('FLOAT64', json, path, d);
}

function decodeBool(json: unknown, path: string, d: Dialect): boolean {
  if (typeof json === 'boolean') return json;
  if (typeof json === 'string') {
    const low = json.toLowerCase();
    if (low === 'true') return true;
    if (low === 'false') return false;
    if (d === 'row') throw BigQueryError.rowStringNotBoolean(json, path);
  }
  return fail('BOOL', json, path, d);
}

function decodeBytes(json: unknown, path: string, d: Dialect): Uint8Array {
  if (typeof json === 'string') {
    const std = json.replace(/-/g, '+').replace(/_/g, '/');
    if (BASE64_RE.test(std)) {
      const buf = Buffer.from(std, 'base64');
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    }
  }
  return fail('BYTES', json, path, d);
}

function decodeTimestamp(json: unknown, path: string, d: Dialect): bigint {
  let epochText = numberText(json);
  if (typeof json === 'string') {
    const r = parseTimestampText(json);
    if ('micros' in r) return r.micros;
    if (r.error === 'zone') throw BigQueryError.invalidTimeZone(r.zone, d, path);
    if (r.error === 'range') throw BigQueryError.timestampOutOfRange(path);
    if (d === 'row' && FLOAT_RE.test(json)) epochText = json;
  }
  if (epochText !== undefined) {
    const micros = parseScaled(epochText, 6);
    if (micros !== null) {
      if (micros < TIMESTAMP_MIN_MICROS || micros > TIMESTAMP_MAX_MICROS) throw BigQueryError.timestampOutOfRange(path);
      return micros;
    }
  }
  return fail('TIMESTAMP', json, path, d);
}

function decodeJsonText(json: unknown, path: string, d: Dialect): string {
  if (json === undefined) return fail('JSON', json, path, d);
  if (typeof json !== 'string') return stringifyLossless(json) ?? 'null';
  try {
    return stringifyLossless(parseLossless(json)) ?? 'null';
  } catch {
    return fail('JSON', json, path, d);
  }
}

/**
 * One scalar JSON value → its domain value (null for JSON null/undefined).
 * @throws BigQueryError invalid with the dialect's text for the type.
 */
export function decodeScalarJson(json: unknown, kind: ScalarKind, path: string, d: Dialect): Value {
  if (json === null || json === undefined) return null;
  if (typeof json === 'object' && !isLosslessNumber(json) && kind !== 'JSON') {
    if (Array.isArray(json)) throw BigQueryError.arrayForNonRepeated(path);
    throw BigQueryError.notARecord(path);
  }
  switch (kind) {
    case 'INT64':
      return decodeInt64(json, path, d);
    case 'FLOAT64':
      return decodeFloat64(json, path, d);
    case 'NUMERIC':
    case 'BIGNUMERIC': {
      const text = numberText(json) ?? (typeof json === 'string' ? json : undefined);
      const v = text === undefined ? null : kind === 'NUMERIC' ? normalizeNumeric(text) : normalizeBigNumeric(text);
      return v ?? fail(kind, json, path, d);
    }
    case 'BOOL':
      return decodeBool(json, path, d);
    case 'STRING': {
      if (typeof json === 'string') return json;
      const text = numberText(json) ?? (typeof json === 'number' ? String(json) : undefined);
      if (text !== undefined) return text;
      if (typeof json === 'boolean' && d === 'row') throw BigQueryError.boolToString(path);
      return fail('STRING', json, path, d);
    }
    case 'BYTES':
      return decodeBytes(json, path, d);
    case 'DATE': {
      const days = typeof json === 'string' ? parseDateText(json) : null;
      return days === null ? fail('DATE', json, path, d) : formatDateDays(days);
    }
    case 'DATETIME': {
      const micros = typeof json === 'string' ? parseDatetimeText(json) : null;
      return micros === null ? fail('DATETIME', json, path, d) : formatDatetimeMicros(micros);
    }
    case 'TIME': {
      const micros = typeof json === 'string' ? parseTimeText(json) : null;
      return micros === null ? fail('TIME', json, path, d) : formatTimeMicros(micros);
    }
    case 'TIMESTAMP':
      return decodeTimestamp(json, path, d);
    case 'INTERVAL': {
      const iv = typeof json === 'string' ? parseInterval(json) : null;
      return iv ?? fail('INTERVAL', json, path, d);
    }
    case 'JSON':
      return decodeJsonText(json, path, d);
    case 'GEOGRAPHY':
      return typeof json === 'string' ? json : fail('GEOGRAPHY', json, path, d);
  }
}

/** `[a, b)` range text → `[a, b]` bound texts (null = UNBOUNDED), or null when malformed. */
export function splitRangeText(text: string): [string | null, string | null] | null {
  const m = /^\[\s*([^,]*?)\s*,\s*([^,]*?)\s*\)$/.exec(text);
  if (!m) return null;
  const bound = (s: string): string | null => (/^(UNBOUNDED|NULL)$/i.test(s) ? null : s);
  return [bound(m[1]), bound(m[2])];
}

function decodeRange(json: unknown, t: Extract<BqType, { kind: 'RANGE' }>, path: string, opts: JsonDecodeOptions, d: Dialect): Value {
  let start: unknown, end: unknown;
  if (typeof json === 'string') {
    const parts = splitRangeText(json);
    if (!parts) throw BigQueryError.invalidJsonRange(json, path);
    [start, end] = parts;
  } else if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const o = json as Record<string, unknown>;
    start = o.start;
    end = o.end;
  } else throw BigQueryError.invalidJsonRange(show(json), path);
  return { start: decodeJsonValue(start ?? null, t.element, `${path}.start`, { ...opts, dialect: d }), end: decodeJsonValue(end ?? null, t.element, `${path}.end`, { ...opts, dialect: d }) };
}

const fieldIndexCache = new WeakMap<BqType, Map<string, number>>();

/** Lower-cased field name → index of a STRUCT type (cached per type object). */
function fieldIndex(t: Extract<BqType, { kind: 'STRUCT' }>): Map<string, number> {
  let m = fieldIndexCache.get(t);
  if (!m) {
    m = new Map();
    for (let i = t.fields.length - 1; i >= 0; i--) if (t.fields[i].name) m.set(t.fields[i].name.toLowerCase(), i);
    fieldIndexCache.set(t, m);
  }
  return m;
}

/**
 * A JSON value (insertAll row cell, or a query parameter's JSON value) → the domain value of type `t`.
 * `path` is the value's location, reported as the error `location` (`col`, `rec.sub`, `arr[2].x`).
 * JSON null/undefined → null (NOT NULL checks are the caller's). ARRAY elements may not be null
 * in the row dialect (`Only optional fields can be set to NULL. Field: x; Value: NULL`, the JSON
 * load-job text).
 * @throws BigQueryError invalid (400) with BigQuery's text (src/errors/value-errors.ts).
 */
export function decodeJsonValue(json: unknown, t: BqType, path: string, opts: JsonDecodeOptions = {}): Value {
  const d: Dialect = opts.dialect ?? 'row';
  if (json === null || json === undefined) return null;
  switch (t.kind) {
    case 'ARRAY': {
      if (!Array.isArray(json)) throw BigQueryError.repeatedNotArray(path);
      const out: Value[] = new Array(json.length);
      for (let i = 0; i < json.length; i++) {
        const e = json[i];
        if ((e === null || e === undefined) && d === 'row') throw BigQueryError.nullInRepeated(path, i);
        out[i] = decodeJsonValue(e, t.element, `${path}[${i}]`, opts);
      }
      return out;
    }
    case 'STRUCT': {
      if (Array.isArray(json)) throw BigQueryError.arrayForNonRepeated(path);
      if (typeof json !== 'object' || isLosslessNumber(json)) throw BigQueryError.notConvertibleToRecord(show(json), path);
      const byName = fieldIndex(t);
      const out: Value[] = new Array(t.fields.length).fill(null);
      for (const [key, val] of Object.entries(json as Record<string, unknown>)) {
        const i = byName.get(key.toLowerCase());
        const sub = path ? `${path}.${key}` : key;
        if (i === undefined) {
          if (opts.ignoreUnknownValues) continue;
          throw BigQueryError.recordNoSuchField(key, sub);
        }
        out[i] = decodeJsonValue(val, t.fields[i].type, sub, opts);
      }
      return out;
    }
    case 'RANGE':
      return decodeRange(json, t, path, opts, d);
    default:
      return decodeScalarJson(json, t.kind, path, d);
  }
}
