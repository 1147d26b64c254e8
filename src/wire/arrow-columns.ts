/**
 * Domain values (src/types/types.ts) → Apache Arrow column data, one column at a time, in the
 * Arrow types of BigQuery's Storage Read API mapping (the type choice and its sources are in
 * src/wire/arrow.ts, `arrowTypeOf`). Buffers are built directly (no per-value Arrow builders), so
 * microsecond TIME/DATETIME/TIMESTAMP values stay exact 64-bit integers and decimals exact
 * two's-complement words.
 *
 * Value shapes read (as src/types/types.ts defines them): INT64 bigint; FLOAT64 number; BOOL
 * boolean; STRING, JSON, GEOGRAPHY text; BYTES Uint8Array; NUMERIC/BIGNUMERIC decimal text;
 * DATE 'YYYY-MM-DD'; TIME 'HH:MM:SS[.ffffff]'; DATETIME 'YYYY-MM-DDTHH:MM:SS[.ffffff]';
 * TIMESTAMP bigint µs since the epoch; INTERVAL {months, days, micros}; RANGE {start, end};
 * STRUCT Value[] in field order; ARRAY Value[]; NULL null. A value of another shape is an emulator
 * fault: `cannotEncodeArrowValue` (500).
 */
import { makeData, type Data, type DataType, type Field, type List, type Struct } from 'apache-arrow';
import type { BqType, IntervalValue, RangeValue, Value } from '../types/types.js';
import { BIGNUMERIC_SCALE, NUMERIC_SCALE, parseScaled } from '../types/decimal.js';
import { parseDateText, parseDatetimeText, parseTimeText } from '../types/temporal.js';
import { BigQueryError } from '../errors/errors.js';

/**
 * A column already in Arrow's memory layout, as DuckDB hands out its vectors (an emulator-side
 * shortcut around domain values for the types whose storage is Arrow's): `fixed` values one slot
 * per row (INT64 BigInt64Array, FLOAT64 Float64Array, DATE Int32Array of days, TIME/DATETIME/
 * TIMESTAMP BigInt64Array of µs); `varWidth` UTF-8 or binary bytes back to back with int32
 * `offsets` (length + 1). `validity` is an LSB-first bitmap (bit i set = row i not NULL), null
 * when no value is NULL; `nullCount` its zero bits.
 */
export type RawColumn =
  | { layout: 'fixed'; length: number; values: BigInt64Array | Float64Array | Int32Array; validity: Uint8Array | null; nullCount: number }
  | { layout: 'varWidth'; length: number; offsets: Int32Array; bytes: Uint8Array; validity: Uint8Array | null; nullCount: number };

/** The values of one column of a batch: domain values in row order, or a {@link RawColumn}. */
export type ColumnInput = readonly Value[] | RawColumn;

/** The BigQuery types a {@link RawColumn} may hold, with its layout. */
export const RAW_LAYOUT: Partial<Record<BqType['kind'], RawColumn['layout']>> = {
  INT64: 'fixed',
  FLOAT64: 'fixed',
  DATE: 'fixed',
  TIME: 'fixed',
  DATETIME: 'fixed',
  TIMESTAMP: 'fixed',
  STRING: 'varWidth',
  BYTES: 'varWidth',
};

/** The Arrow data of a raw column (its buffers used as they are). */
function rawData(type: DataType, c: RawColumn): Data {
  const nullBitmap = c.validity ?? undefined;
  if (c.layout === 'fixed') return makeData({ type, length: c.length, nullCount: c.nullCount, nullBitmap, data: c.values } as never);
  return makeData({ type, length: c.length, nullCount: c.nullCount, nullBitmap, valueOffsets: c.offsets, data: c.bytes } as never);
}

function fault(v: Value, t: BqType): never {
  const shown = v instanceof Uint8Array ? 'bytes' : JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `${x}n` : x)) ?? String(v);
  throw BigQueryError.cannotEncodeArrowValue(shown.slice(0, 80), t.kind);
}

/** The validity bitmap (bit i set = row i not NULL) and the NULL count of `values`. */
function validity(values: readonly Value[]): { nullBitmap: Uint8Array; nullCount: number } {
  const nullBitmap = new Uint8Array((values.length + 7) >> 3);
  let nullCount = 0;
  for (let i = 0; i < values.length; i++) {
    if (values[i] === null || values[i] === undefined) nullCount++;
    else nullBitmap[i >> 3] |= 1 << (i & 7);
  }
  return { nullBitmap, nullCount };
}

/** Fixed-width column: `put(i, v)` writes each non-NULL value into `data`. */
function fixed<A extends ArrayBufferView>(type: DataType, values: readonly Value[], data: A, put: (i: number, v: Value) => void): Data {
  const { nullBitmap, nullCount } = validity(values);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== null && v !== undefined) put(i, v);
  }
  return makeData({ type, length: values.length, nullCount, nullBitmap, data } as never);
}

/** Variable-width column (utf8 / binary): int32 offsets and one byte buffer. */
function varWidth(type: DataType, t: BqType, values: readonly Value[], text: boolean): Data {
  const { nullBitmap, nullCount } = validity(values);
  const valueOffsets = new Int32Array(values.length + 1);
  const data = text ? utf8Column(t, values, valueOffsets) : binaryColumn(t, values, valueOffsets);
  return makeData({ type, length: values.length, nullCount, nullBitmap, valueOffsets, data } as never);
}

/**
 * The UTF-8 bytes of the non-NULL texts of `values`, back to back, filling `offsets`. All texts are
 * encoded in one call (per-value encoding dominates the cost of a batch); when the byte count equals
 * the UTF-16 length the texts are ASCII and the offsets are the character counts, otherwise each
 * text's UTF-8 length is measured.
 */
function utf8Column(t: BqType, values: readonly Value[], offsets: Int32Array): Uint8Array {
  const texts: string[] = [];
  let chars = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== null && v !== undefined) {
      if (typeof v !== 'string') fault(v, t);
      texts.push(v);
      chars += v.length;
    }
    offsets[i + 1] = chars;
  }
  let bytes = Buffer.from(texts.join(''), 'utf8');
  if (bytes.length !== chars) {
    let at = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v === 'string') at += Buffer.byteLength(v, 'utf8');
      offsets[i + 1] = at;
    }
    // Lone surrogates at the joins of two texts would pair up in the joined text: encode one by one.
    if (at !== bytes.length) bytes = Buffer.concat(texts.map((x) => Buffer.from(x, 'utf8')));
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** The bytes of the non-NULL BYTES values of `values`, back to back, filling `offsets`. */
function binaryColumn(t: BqType, values: readonly Value[], offsets: Int32Array): Uint8Array {
  let total = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== null && v !== undefined) {
      if (!(v instanceof Uint8Array)) fault(v, t);
      total += v.length;
    }
    offsets[i + 1] = total;
  }
  const data = new Uint8Array(total);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v instanceof Uint8Array) data.set(v, offsets[i]);
  }
  return data;
}

/** Little-endian two's-complement 32-bit words of `scaled` (the decimal's unscaled integer). */
function decimalWords(scaled: bigint, words: Uint32Array, at: number, count: number): void {
  let u = scaled < 0n ? (1n << BigInt(32 * count)) + scaled : scaled;
  for (let k = 0; k < count; k++) {
    words[at + k] = Number(u & 0xffffffffn);
    u >>= 32n;
  }
}

function decimalColumn(type: DataType, t: BqType, values: readonly Value[], scale: number, wordCount: number): Data {
  const data = new Uint32Array(values.length * wordCount);
  return fixed(type, values, data, (i, v) => {
    const scaled = typeof v === 'string' ? parseScaled(v, scale) : null;
    if (scaled === null) fault(v, t);
    decimalWords(scaled, data, i * wordCount, wordCount);
  });
}

/** The child values at position `index` of each STRUCT (`Value[]`) or RANGE (`{start,end}`) row. */
function childValues(values: readonly Value[], t: BqType, pick: (v: Value) => Value): Value[] {
  return values.map((v) => (v === null || v === undefined ? null : pick(v)));
}

/**
 * One Arrow column of BigQuery type `t` holding `input` (domain values in row order, or a raw
 * column already in Arrow's layout), typed `type` — the Arrow type `arrowTypeOf(t)` of
 * src/wire/arrow.ts built for it (its children for STRUCT, RANGE and ARRAY). Raises
 * `cannotEncodeArrowValue` (500) for a value that is not of `t`'s domain shape, or a raw column of
 * a layout `t` does not have (RAW_LAYOUT).
 */
export function arrowColumn(t: BqType, type: DataType, input: ColumnInput): Data {
  if (!Array.isArray(input)) {
    const raw = input as RawColumn;
    if (RAW_LAYOUT[t.kind] !== raw.layout) throw BigQueryError.cannotEncodeArrowValue(`a ${raw.layout} column`, t.kind);
    return rawData(type, raw);
  }
  const values = input as readonly Value[];
  switch (t.kind) {
    case 'INT64': {
      const data = new BigInt64Array(values.length);
      return fixed(type, values, data, (i, v) => {
        if (typeof v === 'bigint') data[i] = v;
        else if (typeof v === 'number' && Number.isSafeInteger(v)) data[i] = BigInt(v);
        else fault(v, t);
      });
    }
    case 'FLOAT64': {
      const data = new Float64Array(values.length);
      return fixed(type, values, data, (i, v) => {
        if (typeof v !== 'number') fault(v, t);
        data[i] = v;
      });
    }
    case 'BOOL': {
      const data = new Uint8Array((values.length + 7) >> 3);
      return fixed(type, values, data, (i, v) => {
        if (typeof v !== 'boolean') fault(v, t);
        if (v) data[i >> 3] |= 1 << (i & 7);
      });
    }
    case 'STRING':
    case 'JSON':
    case 'GEOGRAPHY':
      return varWidth(type, t, values, true);
    case 'BYTES':
      return varWidth(type, t, values, false);
    case 'NUMERIC':
      return decimalColumn(type, t, values, NUMERIC_SCALE, 4);
    case 'BIGNUMERIC':
      return decimalColumn(type, t, values, BIGNUMERIC_SCALE, 8);
    case 'DATE': {
      const data = new Int32Array(values.length);
      return fixed(type, values, data, (i, v) => {
        const days = typeof v === 'string' ? parseDateText(v) : null;
        if (days === null) fault(v, t);
        data[i] = days;
      });
    }
    case 'TIME':
    case 'DATETIME': {
      const parse = t.kind === 'TIME' ? parseTimeText : parseDatetimeText;
      const data = new BigInt64Array(values.length);
      return fixed(type, values, data, (i, v) => {
        const micros = typeof v === 'string' ? parse(v) : null;
        if (micros === null) fault(v, t);
        data[i] = micros;
      });
    }
    case 'TIMESTAMP': {
      const data = new BigInt64Array(values.length);
      return fixed(type, values, data, (i, v) => {
        if (typeof v !== 'bigint') fault(v, t);
        data[i] = v;
      });
    }
    case 'INTERVAL': {
      // month_day_nano: int32 months, int32 days, int64 nanoseconds per value (16 bytes).
      const data = new Int32Array(values.length * 4);
      const nanos = new BigInt64Array(data.buffer);
      return fixed(type, values, data, (i, v) => {
        const iv = v as IntervalValue;
        if (typeof iv !== 'object' || typeof iv.micros !== 'bigint') fault(v, t);
        data[4 * i] = iv.months;
        data[4 * i + 1] = iv.days;
        nanos[2 * i + 1] = iv.micros * 1000n;
      });
    }
    case 'STRUCT': {
      const { nullBitmap, nullCount } = validity(values);
      const children = t.fields.map((f, j) =>
        arrowColumn(f.type, (type as Struct).children[j].type, childValues(values, t, (v) => (Array.isArray(v) ? v[j] : fault(v, t)))),
      );
      return makeData({ type: type as Struct, length: values.length, nullCount, nullBitmap, children });
    }
    case 'RANGE': {
      const { nullBitmap, nullCount } = validity(values);
      const bound = (v: Value, key: 'start' | 'end'): Value => {
        const r = v as RangeValue;
        return typeof r === 'object' && !Array.isArray(r) && key in r ? r[key] : fault(v, t);
      };
      const [startType, endType] = (type as Struct).children.map((c: Field) => c.type);
      const children = [
        arrowColumn(t.element, startType, childValues(values, t, (v) => bound(v, 'start'))),
        arrowColumn(t.element, endType, childValues(values, t, (v) => bound(v, 'end'))),
      ];
      return makeData({ type: type as Struct, length: values.length, nullCount, nullBitmap, children });
    }
    case 'ARRAY': {
      // A NULL ARRAY is read as an empty one: BigQuery stores no NULL arrays (REPEATED mode).
      const valueOffsets = new Int32Array(values.length + 1);
      const flat: Value[] = [];
      for (let i = 0; i < values.length; i++) {
        const v = values[i];
        if (v !== null && v !== undefined) {
          if (!Array.isArray(v)) fault(v, t);
          for (const e of v) flat.push(e);
        }
        valueOffsets[i + 1] = flat.length;
      }
      const child = arrowColumn(t.element, (type as List).children[0].type, flat);
      return makeData({ type: type as List, length: values.length, nullCount: 0, valueOffsets, child });
    }
  }
}
