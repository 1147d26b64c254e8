/**
 * DuckDB values ⇄ domain values (src/types/types.ts `Value`), for the storage types of types.ts.
 *
 * Reading: `@duckdb/node-api` (1.5) `getRows()` yields, per DuckDB type, bigint (BIGINT/HUGEINT),
 * number (DOUBLE, small ints), boolean, string (VARCHAR, JSON), DuckDBDecimalValue {value, width,
 * scale}, DuckDBBlobValue {bytes}, DuckDBDateValue {days}, DuckDBTimeValue {micros},
 * DuckDBTimestampValue / DuckDBTimestampTZValue {micros}, DuckDBIntervalValue {months, days, micros},
 * DuckDBListValue / DuckDBArrayValue {items}, DuckDBStructValue {entries}. The JS forms of
 * `getRowsJS()` (Date, plain arrays and objects, decimals as numbers) are accepted too, with the
 * precision they carry (JS Date is milliseconds).
 * Writing: toDuckLiteral gives a self-typed SQL literal for INSERT … VALUES and parameters.
 */
import { DuckDBStructValue } from '@duckdb/node-api';
import type { BqType, IntervalValue, Value } from '../../types/types.js';
import { BigQueryError } from '../../errors/errors.js';
import { normalizeNumeric, numberToDecimalText, scaledToText, NUMERIC_SCALE } from '../../types/decimal.js';
import { formatDateDays, formatDatetimeMicros, formatTimeMicros } from '../../types/temporal.js';
import { duckFieldNames, duckType } from './types.js';

/** A per-column decoder: DuckDB value (or its JS form) → domain value. */
export type ColumnDecoder = (v: unknown) => Value;

const MS_PER_DAY = 86_400_000;

function bad(v: unknown, t: BqType): never {
  const shown = typeof v === 'bigint' ? `${v}n` : typeof v === 'object' && v !== null ? v.constructor?.name ?? 'object' : String(v);
  throw BigQueryError.unexpectedDuckValue(shown, t.kind);
}

interface DecimalLike { value: bigint; scale: number; width: number }
const isDecimal = (v: unknown): v is DecimalLike =>
  typeof v === 'object' && v !== null && typeof (v as DecimalLike).value === 'bigint' && typeof (v as DecimalLike).scale === 'number';
const microsOf = (v: unknown): bigint | undefined =>
  typeof v === 'object' && v !== null && typeof (v as { micros?: unknown }).micros === 'bigint' ? (v as { micros: bigint }).micros : undefined;

function int64(v: unknown, t: BqType): Value {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (isDecimal(v)) {
    const p = 10n ** BigInt(v.scale);
    if (v.value % p === 0n) return v.value / p;
  }
  return bad(v, t);
}

function float64(v: unknown, t: BqType): Value {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (isDecimal(v)) return Number(scaledToText(v.value, v.scale));
  if (typeof v === 'string') return Number(v);
  return bad(v, t);
}

function numeric(v: unknown, t: BqType): Value {
  if (isDecimal(v)) return v.scale <= NUMERIC_SCALE ? scaledToText(v.value, v.scale) : normalizeNumeric(scaledToText(v.value, v.scale)) ?? bad(v, t);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' && Number.isFinite(v)) return normalizeNumeric(numberToDecimalText(v)) ?? bad(v, t);
  if (typeof v === 'string') return normalizeNumeric(v) ?? bad(v, t);
  return bad(v, t);
}

function bigNumeric(v: unknown, t: BqType): Value {
  if (typeof v === 'string') return v;
  if (isDecimal(v)) return scaledToText(v.value, v.scale);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' && Number.isFinite(v)) return numberToDecimalText(v);
  return bad(v, t);
}

function bytes(v: unknown, t: BqType): Value {
  const b = typeof v === 'object' && v !== null && (v as { bytes?: unknown }).bytes instanceof Uint8Array ? (v as { bytes: Uint8Array }).bytes : v;
  if (b instanceof Uint8Array) return b.constructor === Uint8Array ? b : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  return bad(v, t);
}

function date(v: unknown, t: BqType): Value {
  if (typeof v === 'object' && v !== null && typeof (v as { days?: unknown }).days === 'number') return formatDateDays((v as { days: number }).days);
  if (v instanceof Date) return formatDateDays(Math.floor(v.getTime() / MS_PER_DAY));
  if (typeof v === 'string') return v;
  return bad(v, t);
}

function datetime(v: unknown, t: BqType): Value {
  const m = microsOf(v);
  if (m !== undefined) return formatDatetimeMicros(m);
  if (v instanceof Date) return formatDatetimeMicros(BigInt(v.getTime()) * 1000n);
  if (typeof v === 'string') return v.replace(' ', 'T');
  return bad(v, t);
}

function time(v: unknown, t: BqType): Value {
  const m = typeof v === 'bigint' ? v : microsOf(v);
  if (m !== undefined) return formatTimeMicros(m);
  if (typeof v === 'string') return v;
  return bad(v, t);
}

function timestamp(v: unknown, t: BqType): Value {
  const m = typeof v === 'bigint' ? v : microsOf(v);
  if (m !== undefined) return m;
  if (v instanceof Date) return BigInt(v.getTime()) * 1000n;
  return bad(v, t);
}

function interval(v: unknown, t: BqType): Value {
  if (typeof v === 'object' && v !== null && 'months' in v && 'days' in v && 'micros' in v) {
    const iv = v as { months: number; days: number; micros: bigint | number };
    return { months: iv.months, days: iv.days, micros: BigInt(iv.micros) } satisfies IntervalValue;
  }
  return bad(v, t);
}

function text(v: unknown, t: BqType): Value {
  if (typeof v === 'string') return v;
  return bad(v, t);
}

function items(v: unknown): readonly unknown[] | undefined {
  if (Array.isArray(v)) return v;
  const it = typeof v === 'object' && v !== null ? (v as { items?: unknown }).items : undefined;
  return Array.isArray(it) ? it : undefined;
}

function entries(v: unknown): Record<string, unknown> | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  return v instanceof DuckDBStructValue ? (v.entries as Record<string, unknown>) : (v as Record<string, unknown>);
}

/**
 * A decoder for one column of BigQuery type `t`: all type dispatch happens here, once, so the
 * per-row loop only calls the returned closure. NULL (null/undefined) decodes to null.
 * @throws BigQueryError backendError when a value does not fit the column type (an engine bug).
 */
export function makeColumnDecoder(t: BqType): ColumnDecoder {
  let conv: (v: unknown) => Value;
  switch (t.kind) {
    case 'INT64': conv = (v) => int64(v, t); break;
    case 'FLOAT64': conv = (v) => float64(v, t); break;
    case 'NUMERIC': conv = (v) => numeric(v, t); break;
    case 'BIGNUMERIC': conv = (v) => bigNumeric(v, t); break;
    case 'BOOL': conv = (v) => (typeof v === 'boolean' ? v : bad(v, t)); break;
    case 'STRING': case 'JSON': case 'GEOGRAPHY': conv = (v) => text(v, t); break;
    case 'BYTES': conv = (v) => bytes(v, t); break;
    case 'DATE': conv = (v) => date(v, t); break;
    case 'DATETIME': conv = (v) => datetime(v, t); break;
    case 'TIME': conv = (v) => time(v, t); break;
    case 'TIMESTAMP': conv = (v) => timestamp(v, t); break;
    case 'INTERVAL': conv = (v) => interval(v, t); break;
    case 'ARRAY': {
      const el = makeColumnDecoder(t.element);
      conv = (v) => {
        const xs = items(v);
        if (!xs) return bad(v, t);
        const out: Value[] = new Array(xs.length);
        for (let i = 0; i < xs.length; i++) out[i] = el(xs[i]);
        return out;
      };
      break;
    }
    case 'STRUCT': {
      const names = duckFieldNames(t);
      const decs = t.fields.map((f) => makeColumnDecoder(f.type));
      conv = (v) => {
        const e = entries(v);
        if (!e) return bad(v, t);
        const out: Value[] = new Array(names.length);
        for (let i = 0; i < names.length; i++) out[i] = decs[i](e[names[i]]);
        return out;
      };
      break;
    }
    case 'RANGE': {
      const el = makeColumnDecoder(t.element);
      conv = (v) => {
        const e = entries(v);
        return e ? { start: el(e.start), end: el(e.end) } : bad(v, t);
      };
      break;
    }
  }
  return (v) => (v === null || v === undefined ? null : conv(v));
}

const decoderCache = new WeakMap<BqType, ColumnDecoder>();

/** One DuckDB value → domain value of type `t` (decoders are cached per type object). */
export function fromDuckValue(v: unknown, t: BqType): Value {
  let d = decoderCache.get(t);
  if (!d) decoderCache.set(t, (d = makeColumnDecoder(t)));
  return d(v);
}

/** A single-quoted DuckDB string literal (quotes doubled; NUL characters via chr(0)). */
export function quoteString(s: string): string {
  const q = `'${s.replace(/'/g, "''")}'`;
  return s.includes('\u0000') ? `(${q.split('\u0000').join("' || chr(0) || '")})` : q;
}

function float64Text(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  return Object.is(n, -0) ? '-0.0' : String(n);
}

/**
 * A DuckDB SQL expression of the storage type of `t` holding the domain value `v`, with an
 * explicit type: `NULL::T`, `CAST(n AS BIGINT)`, `'NaN'::DOUBLE`, `'1.5'::DECIMAL(38,9)`,
 * `from_base64('…')`, `'2024-01-01'::DATE`, `make_timestamptz(µs)` (independent of the session
 * time zone), `'14 months 3 days -5 microseconds'::INTERVAL`, `[…]::T[]`, `{'name': …}::STRUCT(…)`.
 * Microsecond precision is kept everywhere.
 * @throws BigQueryError backendError when `v` does not match `t`.
 */
export function toDuckLiteral(v: Value, t: BqType): string {
  if (v === null || v === undefined) return `NULL::${duckType(t)}`;
  switch (t.kind) {
    case 'INT64':
      if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) return `CAST(${v} AS BIGINT)`;
      break;
    case 'FLOAT64':
      if (typeof v === 'number') return `'${float64Text(v)}'::DOUBLE`;
      break;
    case 'NUMERIC':
      if (typeof v === 'string') return `${quoteString(v)}::DECIMAL(38,9)`;
      break;
    case 'BOOL':
      if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
      break;
    case 'BIGNUMERIC':
    case 'STRING':
    case 'GEOGRAPHY':
      if (typeof v === 'string') return `${quoteString(v)}::VARCHAR`;
      break;
    case 'JSON':
      if (typeof v === 'string') return `${quoteString(v)}::JSON`;
      break;
    case 'BYTES':
      if (v instanceof Uint8Array) return `from_base64('${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')}')`;
      break;
    case 'DATE':
      if (typeof v === 'string') return `${quoteString(v)}::DATE`;
      break;
    case 'DATETIME':
      if (typeof v === 'string') return `${quoteString(v.replace('T', ' '))}::TIMESTAMP`;
      break;
    case 'TIME':
      if (typeof v === 'string') return `${quoteString(v)}::TIME`;
      break;
    case 'TIMESTAMP':
      if (typeof v === 'bigint') return `make_timestamptz(CAST(${v} AS BIGINT))`;
      break;
    case 'INTERVAL':
      if (typeof v === 'object' && !Array.isArray(v) && 'months' in v) {
        const iv = v as IntervalValue;
        return `'${iv.months} months ${iv.days} days ${iv.micros} microseconds'::INTERVAL`;
      }
      break;
    case 'ARRAY':
      if (Array.isArray(v)) return `[${v.map((e) => toDuckLiteral(e, t.element)).join(', ')}]::${duckType(t)}`;
      break;
    case 'STRUCT':
      if (Array.isArray(v) && v.length === t.fields.length) {
        const names = duckFieldNames(t);
        return `{${t.fields.map((f, i) => `${quoteString(names[i])}: ${toDuckLiteral(v[i], f.type)}`).join(', ')}}::${duckType(t)}`;
      }
      break;
    case 'RANGE':
      if (typeof v === 'object' && !Array.isArray(v) && 'start' in v) {
        return `{'start': ${toDuckLiteral(v.start, t.element)}, 'end': ${toDuckLiteral(v.end, t.element)}}::${duckType(t)}`;
      }
      break;
  }
  const shown = typeof v === 'bigint' ? `${v}n` : typeof v === 'object' ? JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}` : x)) : String(v);
  throw BigQueryError.cannotWriteDuckLiteral(shown, t.kind);
}
