/**
 * Storage Write API Arrow rows → domain rows: `AppendRowsRequest.arrow_rows` carries the writer
 * schema (`writer_schema.serialized_schema`, an Arrow IPC schema message) and record batches
 * (`rows.serialized_record_batch`, IPC record-batch messages); they are read with apache-arrow as
 * one IPC stream (schema bytes, then batch bytes), the way the Read API's messages are read.
 *
 * Arrow types accepted per BigQuery type — BigQuery's own Arrow mapping (src/wire/arrow.ts: the
 * types the Read API sends) and the equivalent widths ("Supported protocol buffer and Arrow data
 * types", https://cloud.google.com/bigquery/docs/supported-data-types):
 *   INT64 int8…int64, uint8…uint32 · FLOAT64 float16/32/64 · BOOL bool · STRING utf8, large_utf8
 *   BYTES binary, large_binary, fixed_size_binary · NUMERIC decimal128(P, S ≤ 9)
 *   BIGNUMERIC decimal128 / decimal256 · DATE date32[day] · TIME time32/time64 (any unit)
 *   DATETIME timestamp without zone (any unit) · TIMESTAMP timestamp with or without zone
 *   GEOGRAPHY utf8 (WKT or GeoJSON) · JSON utf8 · INTERVAL interval[month_day_nano] or utf8
 *   DATE, DATETIME, TIME, NUMERIC, BIGNUMERIC also from utf8 literals · ARRAY list, large_list
 *   STRUCT struct (fields by name) · RANGE struct<start, end>
 * Dictionary-encoded columns are read through their dictionary. A NULL cell is a missing value
 * (the request's missing-value interpretation applies, as to an unset proto field); a NULL list
 * element is a row error. Sub-microsecond digits are truncated.
 */
import {
  DateUnit,
  IntervalUnit,
  RecordBatchReader,
  TimeUnit,
  Type,
  type Data,
  type DataType,
  type Field,
  type RecordBatch,
  type Schema,
} from 'apache-arrow';
import { BigQueryError } from '../errors/errors.js';
import { WriteRowValueError, nullRepeatedElementText, requiredValueMissingText, valueOutOfRangeText } from '../errors/write-row-errors.js';
import { MICROS_PER_DAY, formatDatetimeMicros, formatTimeMicros } from '../types/temporal.js';
import type { Column, FieldDetails } from '../types/schema.js';
import type { BqType, ScalarKind, Value } from '../types/types.js';
import { legacyTypeName } from './write-proto-fields.js';
import { WRITE_DECODE_SLICE_ROWS, finishRow, missingFill, paramColumnsOf, type DecodedWriteRows, type MissingFill, type WriteRowDecoder } from './write-rows.js';
import { dateOfDays, decimalOfScaled, fromLiteral, timestampOfMicros } from './write-values.js';

/** A cell that failed to convert: its row gets `message` as RowError. */
class BadCell {
  constructor(readonly message: string) {}
}
type Cell = Value | BadCell;
/** Converts `length` cells of `data` from `from`. */
type ColumnReader = (data: Data, from: number, length: number) => Cell[];

const isValidAt = (data: Data, i: number): boolean => {
  if (!data.nullBitmap || data.nullCount === 0) return true;
  const k = data.offset + i;
  return (data.nullBitmap[k >> 3] & (1 << (k & 7))) !== 0;
};

/** Applies `conv` to each valid cell index; a WriteRowValueError becomes that cell's BadCell. */
function cellsOf(data: Data, from: number, length: number, conv: (k: number) => Value): Cell[] {
  const out: Cell[] = new Array(length);
  for (let i = 0; i < length; i++) {
    if (!isValidAt(data, from + i)) {
      out[i] = null;
      continue;
    }
    try {
      out[i] = conv(data.offset + from + i);
    } catch (e) {
      if (!(e instanceof WriteRowValueError)) throw e;
      out[i] = new BadCell(e.message);
    }
  }
  return out;
}

/** Like cellsOf for conversions that cannot fail (no try/catch per cell; no validity test without nulls). */
function cellsFast(data: Data, from: number, length: number, conv: (k: number) => Value): Cell[] {
  const out: Cell[] = new Array(length);
  const base = data.offset + from;
  if (!data.nullBitmap || data.nullCount === 0) for (let i = 0; i < length; i++) out[i] = conv(base + i);
  else for (let i = 0; i < length; i++) out[i] = isValidAt(data, from + i) ? conv(base + i) : null;
  return out;
}

/** Unscaled value of decimal cell `k` (little-endian 32-bit words, two's complement). */
function decimalAt(words: Uint32Array, k: number, count: number): bigint {
  let v = 0n;
  for (let w = count - 1; w >= 0; w--) v = (v << 32n) | BigInt(words[k * count + w]);
  const bitsN = BigInt(32 * count);
  return v >= 1n << (bitsN - 1n) ? v - (1n << bitsN) : v;
}

/** Microseconds of a timestamp/time value in `unit`, truncated toward −∞ below a microsecond. */
function toMicros(v: bigint, unit: TimeUnit): bigint {
  switch (unit) {
    case TimeUnit.SECOND:
      return v * 1_000_000n;
    case TimeUnit.MILLISECOND:
      return v * 1_000n;
    case TimeUnit.MICROSECOND:
      return v;
    default: {
      const q = v / 1_000n;
      return v < 0n && q * 1_000n !== v ? q - 1n : q;
    }
  }
}

/** The texts of a (large_)utf8 data: cell `k` → its string (one Buffer view per call). */
function textsOf(data: Data): (k: number) => string {
  const o = data.valueOffsets as Int32Array | BigInt64Array;
  const v = data.values as Uint8Array;
  const buf = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return o instanceof Int32Array ? (k) => buf.toString('utf8', o[k], o[k + 1]) : (k) => buf.toString('utf8', Number(o[k]), Number(o[k + 1]));
}

/** Bytes of cell `k` of a binary, large_binary or fixed_size_binary data (a copy). */
function bytesAt(data: Data, k: number): Uint8Array {
  const v = data.values as Uint8Array;
  if (data.type.typeId === Type.FixedSizeBinary) {
    const w = (data.type as unknown as { byteWidth: number }).byteWidth;
    return v.slice(k * w, k * w + w);
  }
  const o = data.valueOffsets as Int32Array | BigInt64Array;
  return v.slice(Number(o[k]), Number(o[k + 1]));
}

/** A reader of scalar `kind` from Arrow `type`, or null when BigQuery refuses the pair. */
function scalarReader(type: DataType, kind: ScalarKind, path: string): ColumnReader | null {
  const id = type.typeId;
  const isText = id === Type.Utf8 || id === Type.LargeUtf8;
  const t = type as unknown as { bitWidth: number; isSigned: boolean; scale: number; unit: number; timezone?: string | null };
  if (isText && (kind === 'STRING' || kind === 'GEOGRAPHY' || kind === 'JSON' || kind === 'INTERVAL' || kind === 'DATE' || kind === 'DATETIME' || kind === 'TIME' || kind === 'NUMERIC' || kind === 'BIGNUMERIC')) {
    if (kind === 'STRING') return (d, from, n) => cellsFast(d, from, n, textsOf(d));
    return (d, from, n) => {
      const text = textsOf(d);
      return cellsOf(d, from, n, (k) => fromLiteral(text(k), kind, path));
    };
  }
  switch (kind) {
    case 'INT64':
      if (id !== Type.Int || (!t.isSigned && t.bitWidth > 32)) return null;
      if (t.bitWidth === 64)
        return (d, from, n) => {
          const v = d.values as BigInt64Array;
          return cellsFast(d, from, n, (k) => v[k]);
        };
      return (d, from, n) => {
        const v = d.values as Int32Array;
        return cellsFast(d, from, n, (k) => BigInt(v[k]));
      };
    case 'FLOAT64':
      if (id !== Type.Float) return null;
      if (t.bitWidth === 16) return (d, from, n) => cellsFast(d, from, n, (k) => halfToNumber((d.values as Uint16Array)[k]));
      return (d, from, n) => {
        const v = d.values as Float64Array;
        return cellsFast(d, from, n, (k) => v[k]);
      };
    case 'BOOL':
      if (id !== Type.Bool) return null;
      return (d, from, n) => cellsFast(d, from, n, (k) => ((d.values as Uint8Array)[k >> 3] & (1 << (k & 7))) !== 0);
    case 'BYTES':
      return id === Type.Binary || id === Type.LargeBinary || id === Type.FixedSizeBinary ? (d, from, n) => cellsFast(d, from, n, (k) => bytesAt(d, k)) : null;
    case 'NUMERIC':
    case 'BIGNUMERIC':
      if (id !== Type.Decimal || (kind === 'NUMERIC' && (t.bitWidth !== 128 || t.scale > 9))) return null;
      return (d, from, n) => cellsOf(d, from, n, (k) => decimalOfScaled(decimalAt(d.values as Uint32Array, k, t.bitWidth / 32), t.scale, kind, path));
    case 'DATE':
      if (id !== Type.Date || t.unit !== DateUnit.DAY) return null;
      return (d, from, n) => cellsOf(d, from, n, (k) => dateOfDays((d.values as Int32Array)[k], path));
    case 'TIME':
      if (id !== Type.Time) return null;
      return (d, from, n) =>
        cellsOf(d, from, n, (k) => {
          const micros = toMicros(BigInt((d.values as Int32Array | BigInt64Array)[k]), t.unit);
          if (micros < 0n || micros >= MICROS_PER_DAY) throw new WriteRowValueError(valueOutOfRangeText(path, 'TIME', micros.toString()));
          return formatTimeMicros(micros);
        });
    case 'DATETIME':
    case 'TIMESTAMP':
      if (id !== Type.Timestamp || (kind === 'DATETIME' && t.timezone)) return null;
      return (d, from, n) =>
        cellsOf(d, from, n, (k) => {
          const micros = timestampOfMicros(toMicros((d.values as BigInt64Array)[k], t.unit), path);
          return kind === 'TIMESTAMP' ? micros : formatDatetimeMicros(micros);
        });
    case 'INTERVAL':
      if (id !== Type.Interval || t.unit !== IntervalUnit.MONTH_DAY_NANO) return null;
      return (d, from, n) =>
        cellsOf(d, from, n, (k) => {
          const w = d.values as Int32Array;
          const nanos = (BigInt(w[4 * k + 3]) << 32n) | BigInt(w[4 * k + 2] >>> 0);
          return { months: w[4 * k], days: w[4 * k + 1], micros: nanos / 1000n };
        });
    default:
      return null;
  }
}

/** IEEE half-precision bits → number. */
function halfToNumber(h: number): number {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/** The reader of Arrow field `f` for target type `t` (REQUIRED sub-fields from `details`). @throws BigQueryError arrowFieldMismatch */
function fieldReader(f: Field, t: BqType, details: FieldDetails | undefined, path: string, extra: string[]): ColumnReader {
  const mismatch = () => BigQueryError.arrowFieldMismatch(path, String(f.type), legacyTypeName(t));
  const type = f.type as DataType;
  if (type.typeId === Type.Dictionary) {
    const valueField = { ...f, type: (type as unknown as { dictionary: DataType }).dictionary } as unknown as Field;
    const values = fieldReader(valueField, t, details, path, extra);
    return (d, from, n) => {
      const dict = d.dictionary!.data[0];
      const cells = values(dict, 0, dict.length);
      const idx = d.values as Int32Array;
      const out: Cell[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = isValidAt(d, from + i) ? cells[Number(idx[d.offset + from + i])] : null;
      return out;
    };
  }
  if (t.kind === 'ARRAY') {
    if (type.typeId !== Type.List && type.typeId !== Type.LargeList) throw mismatch();
    const child = (type as unknown as { children: Field[] }).children[0];
    const elements = fieldReader(child, t.element, details, path, extra);
    return (d, from, n) => {
      const o = d.valueOffsets as Int32Array | BigInt64Array;
      const out: Cell[] = new Array(n);
      for (let i = 0; i < n; i++) {
        if (!isValidAt(d, from + i)) {
          out[i] = null;
          continue;
        }
        const a = Number(o[d.offset + from + i]), b = Number(o[d.offset + from + i + 1]);
        const cells = elements(d.children[0], a, b - a);
        const bad = cells.find((c) => c === null || c instanceof BadCell);
        out[i] = bad === undefined ? (cells as Value[]) : bad === null ? new BadCell(nullRepeatedElementText(path)) : bad;
      }
      return out;
    };
  }
  if (t.kind === 'STRUCT' || t.kind === 'RANGE') {
    if (type.typeId !== Type.Struct) throw mismatch();
    const targets = t.kind === 'STRUCT' ? t.fields.map((sf, i) => ({ name: sf.name, type: sf.type, required: !!details?.subfields?.[i]?.required, details: details?.subfields?.[i] })) : [{ name: 'start', type: t.element, required: false, details: undefined }, { name: 'end', type: t.element, required: false, details: undefined }];
    const byName = new Map(targets.map((x, i) => [x.name.toLowerCase(), i]));
    const children = (type as unknown as { children: Field[] }).children;
    const bound: { child: number; index: number; read: ColumnReader }[] = [];
    children.forEach((c, ci) => {
      const index = byName.get(c.name.toLowerCase());
      if (index === undefined) extra.push(`${path}.${c.name}`);
      else bound.push({ child: ci, index, read: fieldReader(c, targets[index].type, targets[index].details, `${path}.${targets[index].name}`, extra) });
    });
    return (d, from, n) => {
      const cols = bound.map((b) => b.read(d.children[b.child], d.offset + from, n));
      const out: Cell[] = new Array(n);
      for (let i = 0; i < n; i++) {
        if (!isValidAt(d, from + i)) {
          out[i] = null;
          continue;
        }
        const v: Value[] = targets.map((x) => (x.type.kind === 'ARRAY' ? [] : null));
        let bad: BadCell | undefined;
        bound.forEach((b, j) => {
          const c = cols[j][i];
          if (c instanceof BadCell) bad ??= c;
          else if (c !== null) v[b.index] = c;
        });
        targets.forEach((x, j) => {
          if (x.required && v[j] === null) bad ??= new BadCell(requiredValueMissingText(`${path}.${x.name}`));
        });
        out[i] = bad ?? (t.kind === 'RANGE' ? { start: v[0], end: v[1] } : v);
      }
      return out;
    };
  }
  const r = scalarReader(type, t.kind, path);
  if (!r) throw mismatch();
  return r;
}

/** Reads an IPC stream (schema bytes then batch bytes). @throws BigQueryError invalidArrowData */
function readStream(bytes: Uint8Array, what: 'schema' | 'record batch'): { schema: Schema; batches: RecordBatch[] } {
  try {
    const reader = RecordBatchReader.from(bytes);
    reader.open();
    const schema = reader.schema;
    if (!schema) throw new Error('no schema message');
    const batches = [...reader] as RecordBatch[];
    return { schema, batches };
  } catch (e) {
    throw BigQueryError.invalidArrowData(what, (e as Error).message);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * A decoder for Arrow rows: `serializedSchema` (the writer schema, Arrow IPC) mapped onto `columns`
 * by field name (case-insensitive); `decode(serializedRecordBatch, options)` reads one request's
 * record batch (the `serializedRows` argument of the decoder interface takes the batch bytes as its
 * only element). Built once per (schema, columns) pair.
 * @throws BigQueryError invalid (gRPC INVALID_ARGUMENT): invalidArrowData for bytes that are not an
 *   Arrow schema, writeExtraFields for fields the table lacks, arrowFieldMismatch for an Arrow type
 *   BigQuery does not convert to its column's type.
 */
export function arrowRowDecoder(
  serializedSchema: Uint8Array,
  columns: Column[],
): WriteRowDecoder & { decodeBatch(serializedRecordBatch: Uint8Array, options?: Parameters<WriteRowDecoder['decode']>[1]): DecodedWriteRows; arrowSchema: Schema } {
  const { schema } = readStream(serializedSchema, 'schema');
  const byName = new Map(columns.map((c, i) => [c.name.toLowerCase(), i]));
  const extra: string[] = [];
  const bound: { field: number; col: number; read: ColumnReader }[] = [];
  schema.fields.forEach((f, fi) => {
    const col = byName.get(f.name.toLowerCase());
    if (col === undefined) extra.push(f.name);
    else bound.push({ field: fi, col, read: fieldReader(f, columns[col].type, columns[col], columns[col].name, extra) });
  });
  if (extra.length) throw BigQueryError.writeExtraFields(extra);
  const paramColumns = paramColumnsOf(columns);

  const decodeRange = (batch: RecordBatch, base: number, from: number, n: number, fill: MissingFill, out: DecodedWriteRows) => {
    const cells = bound.map((b) => b.read(batch.getChildAt(b.field)!.data[0], from, n));
    for (let i = 0; i < n; i++) {
      const row = fill.values.slice();
      let bad: string | undefined;
      for (let j = 0; j < bound.length; j++) {
        const c = cells[j][i];
        if (c instanceof BadCell) {
          bad = c.message;
          break;
        }
        if (c !== null) row[bound[j].col] = c;
      }
      if (bad === undefined && (fill.required.length || paramColumns.length)) {
        try {
          finishRow(row, columns, fill, paramColumns);
        } catch (e) {
          if (!(e instanceof WriteRowValueError)) throw e;
          bad = e.message;
        }
      }
      if (bad !== undefined) out.rowErrors.push({ index: base + from + i, code: 'FIELDS_ERROR', message: bad });
      else out.rows.push(row);
    }
  };

  const run = async (bytes: Uint8Array, options: Parameters<WriteRowDecoder['decode']>[1], sliced: boolean): Promise<DecodedWriteRows> => {
    const out: DecodedWriteRows = { rows: [], rowErrors: [] };
    const fill = missingFill(columns, options);
    const { batches } = readStream(concat(serializedSchema, bytes), 'record batch');
    let base = 0;
    for (const batch of batches) {
      for (let from = 0; from < batch.numRows; from += WRITE_DECODE_SLICE_ROWS) {
        if (sliced && (from > 0 || base > 0)) await new Promise<void>((resolve) => setImmediate(resolve));
        decodeRange(batch, base, from, Math.min(WRITE_DECODE_SLICE_ROWS, batch.numRows - from), fill, out);
      }
      base += batch.numRows;
    }
    return out;
  };
  const syncRun = (bytes: Uint8Array, options: Parameters<WriteRowDecoder['decode']>[1]): DecodedWriteRows => {
    const out: DecodedWriteRows = { rows: [], rowErrors: [] };
    const fill = missingFill(columns, options);
    let base = 0;
    for (const batch of readStream(concat(serializedSchema, bytes), 'record batch').batches) {
      decodeRange(batch, base, 0, batch.numRows, fill, out);
      base += batch.numRows;
    }
    return out;
  };
  return {
    arrowSchema: schema,
    decodeBatch: syncRun,
    decode: (serializedRows, options) => syncRun(serializedRows.length === 1 ? serializedRows[0] : serializedRows.reduce(concat, new Uint8Array(0)), options),
    decodeAsync: (serializedRows, options) => run(serializedRows.length === 1 ? serializedRows[0] : serializedRows.reduce(concat, new Uint8Array(0)), options, true),
  };
}
