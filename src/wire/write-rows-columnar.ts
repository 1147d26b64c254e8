/**
 * The Storage Write API's fast path for flat tables: rows of an AppendRows request decoded column by
 * column into typed arrays (`BigInt64Array` for INT64, `Float64Array` for FLOAT64, bytes for BOOL,
 * strings for STRING, or UTF-8 bytes with DuckDB string cells: src/wire/write-rows-cells.ts) instead
 * of one array of domain values per row — no per-row array, no bigint per INT64 value, no boxed
 * double per FLOAT64 value — and appended to DuckDB by memory copies a chunk at a time
 * (src/engine/storage-write-chunks.ts). Per 1M rows of (INT64, FLOAT64, STRING) this saves about
 * half of the row path's main-thread time, most of it garbage collection (bench `--only write`).
 *
 * It applies only where it gives the row path's exact answer (src/wire/write-rows.ts,
 * src/wire/write-arrow-rows.ts): every column INT64, FLOAT64, BOOL or STRING without type
 * parameters, each written from the proto/Arrow types those decoders convert without a check that
 * can fail (proto int32/int64 families but uint64, float/double, bool, string; Arrow int8…int64,
 * uint8…uint32, float32/float64, bool, utf8). A request it cannot decode exactly — a column whose
 * missing value is its DEFAULT, a REQUIRED column left unset, a row that does not parse — gives
 * `undefined` and goes through the row path, which produces the row errors with BigQuery's texts.
 * Values are the same the row decoders produce: a field is present when it is on the wire (proto2
 * presence, see write-rows.ts), a NULL Arrow cell is a missing value.
 */
import { isAscii } from 'node:buffer';
import os from 'node:os';
import protobuf from 'protobufjs';
import { DataType, RecordBatchReader, Type, type Data, type Schema } from 'apache-arrow';
import type { Column } from '../types/schema.js';
import { treeHasParams } from '../types/type-params.js';
import type { Value } from '../types/types.js';
import { WRITE_DECODE_SLICE_ROWS, missingFill, type WriteRowOptions } from './write-rows.js';
import { arrowStringCells, cellStrings, type StringCells } from './write-rows-cells.js';
import { bytesTyped, StringSpans } from './write-proto-string-bytes.js';

/** One column of a {@link WriteColumnBatch}; `valid[i]` = 0 for a NULL (absent: every value set). */
export type WriteColumnValues =
  | { readonly kind: 'INT64'; readonly values: BigInt64Array; readonly valid?: Uint8Array }
  | { readonly kind: 'FLOAT64'; readonly values: Float64Array; readonly valid?: Uint8Array }
  | { readonly kind: 'BOOL'; readonly values: Uint8Array; readonly valid?: Uint8Array }
  | {
      readonly kind: 'STRING';
      /** The values (of a column with `cells`, decoded from them on first use). */
      readonly values: (string | null)[];
      /** UTF-8 bytes of the non-NULL values, when known. */
      readonly utf8Bytes?: number;
      /** The values as UTF-8 bytes and DuckDB string cells (src/wire/write-rows-cells.ts), when decoded so. */
      readonly cells?: StringCells;
    };

/** One request's rows as columns, in the table's column order. */
export interface WriteColumnBatch {
  readonly columnar: true;
  /** Rows. */
  readonly length: number;
  readonly columns: readonly WriteColumnValues[];
}

/**
 * A STRING column held as `cells`: its `values` are decoded from them only if a caller reads them
 * (the DuckDB append copies the cells, src/engine/storage-write-chunks.ts).
 */
export function cellsColumn(cells: StringCells): WriteColumnValues {
  let values: (string | null)[] | undefined;
  return {
    kind: 'STRING',
    cells,
    utf8Bytes: cells.utf8Bytes,
    get values() {
      return (values ??= cellStrings(cells));
    },
  };
}

/** Whether a decoded batch is columnar (else an array of rows). */
export const isWriteColumnBatch = (b: unknown): b is WriteColumnBatch => (b as WriteColumnBatch | undefined)?.columnar === true;

/** Decodes one request's rows into columns, or gives `undefined` when only the row path is exact. */
export interface ColumnarWriteDecoder {
  /**
   * Decodes `serialized` (proto: one message per element; Arrow: the record batch bytes as the only
   * element), yielding to the event loop every WRITE_DECODE_SLICE_ROWS rows.
   */
  decode(serialized: Uint8Array[], options?: WriteRowOptions): Promise<WriteColumnBatch | undefined>;
  /**
   * Proto rows only: decodes a serialized `ProtoRows` message (storage.proto: `repeated bytes
   * serialized_rows = 1`) read straight from its bytes, each row message decoded by protobufjs
   * where it lies — no per-row buffer — yielding like `decode`.
   */
  decodeProtoRows?(protoRows: Uint8Array, options?: WriteRowOptions): Promise<WriteColumnBatch | undefined>;
}

type FastKind = WriteColumnValues['kind'];
const FAST_KINDS = new Set<string>(['INT64', 'FLOAT64', 'BOOL', 'STRING']);
/** INT64 cells are written as two int32 words (little-endian order). */
const LITTLE_ENDIAN = os.endianness() === 'LE';

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/** The columns' kinds when every column can take the fast path, else undefined. */
function fastKinds(columns: Column[]): FastKind[] | undefined {
  if (!LITTLE_ENDIAN) return undefined;
  const out: FastKind[] = [];
  for (const c of columns) {
    if (!FAST_KINDS.has(c.type.kind) || treeHasParams(c.type, c)) return undefined;
    out.push(c.type.kind as FastKind);
  }
  return out;
}

/** Empty columns of `n` rows (every cell NULL until set). */
function allocate(kinds: FastKind[], n: number): { cols: WriteColumnValues[]; valid: Uint8Array[] } {
  const valid = kinds.map(() => new Uint8Array(n));
  const cols = kinds.map((k, j): WriteColumnValues => {
    if (k === 'INT64') return { kind: k, values: new BigInt64Array(n), valid: valid[j] };
    if (k === 'FLOAT64') return { kind: k, values: new Float64Array(n), valid: valid[j] };
    if (k === 'BOOL') return { kind: k, values: new Uint8Array(n), valid: valid[j] };
    return { kind: k, values: new Array<string | null>(n).fill(null) };
  });
  return { cols, valid };
}

/** The batch, without validity arrays for the columns that have no NULL. */
function finish(cols: WriteColumnValues[], valid: Uint8Array[], n: number): WriteColumnBatch {
  const out = cols.map((c, j) => (c.kind !== 'STRING' && valid[j]!.indexOf(0) < 0 ? { ...c, valid: undefined } : c));
  return { columnar: true, length: n, columns: out };
}

/**
 * Whether the request's missing values allow the fast path: every column's missing value is NULL
 * (not its DEFAULT); returns the REQUIRED columns (a row leaving one unset needs the row path).
 */
function nullFill(columns: Column[], options: WriteRowOptions | undefined): number[] | undefined {
  const fill = missingFill(columns, options);
  if (fill.values.some((v, i) => v === undefined && !fill.required.includes(i))) return undefined;
  return fill.required;
}

const PROTO_FOR: Record<FastKind, ReadonlySet<string>> = {
  INT64: new Set(['int64', 'sint64', 'sfixed64', 'int32', 'sint32', 'sfixed32', 'uint32', 'fixed32']),
  FLOAT64: new Set(['double', 'float']),
  BOOL: new Set(['bool']),
  STRING: new Set(['string']),
};
/** `ProtoRows.serialized_rows` (field 1, wire type 2: length-delimited) as a tag. */
const SERIALIZED_ROWS_TAG = (1 << 3) | 2;
const INT64_WIRE = new Set(['int64', 'sint64', 'sfixed64']);
const UINT32_WIRE = new Set(['uint32', 'fixed32']);

/** A writer field bound to a column, with how its decoded value is stored. */
interface ProtoSlot {
  key: string;
  col: number;
  /** 0 int64 family, 1 int32 family, 2 uint32 family, 3 float, 4 bool, 5 string. */
  store: number;
}

/**
 * The fast decoder of proto rows of `type` (the writer schema the row decoder built, its fields
 * matched to `columns` by name, case-insensitive), or undefined when a column or field is outside
 * the fast path.
 */
export function columnarProtoDecoder(type: protobuf.Type, columns: Column[]): ColumnarWriteDecoder | undefined {
  const kinds = fastKinds(columns);
  if (!kinds) return undefined;
  const byName = new Map(columns.map((c, i) => [c.name.toLowerCase(), i]));
  const slots: ProtoSlot[] = [];
  for (const f of type.fieldsArray) {
    const col = byName.get(f.name.toLowerCase());
    if (col === undefined || f.repeated || f.resolvedType || !PROTO_FOR[kinds[col]!].has(f.type)) return undefined;
    const store = kinds[col] === 'INT64' ? (INT64_WIRE.has(f.type) ? 0 : UINT32_WIRE.has(f.type) ? 2 : 1) : kinds[col] === 'FLOAT64' ? 3 : kinds[col] === 'BOOL' ? 4 : 5;
    slots.push({ key: f.name, col, store });
  }
  const hasOwn = Object.prototype.hasOwnProperty;
  // decodeProtoRows reads STRING fields as bytes (src/wire/write-proto-string-bytes.ts).
  const stringFields = slots.filter((s) => s.store === 5).map((s) => s.key);
  const bytesType = stringFields.length ? bytesTyped(type, stringFields) : undefined;
  /**
   * Decodes `n` rows, the r-th message given by `next(r)` (undefined: unparsable → the row path);
   * with `source`, the messages' STRING fields are byte views into it.
   */
  const run = async (n: number, next: (r: number) => Record<string, unknown> | undefined, options: WriteRowOptions | undefined, source?: Uint8Array): Promise<WriteColumnBatch | undefined> => {
    const fillRequired = nullFill(columns, options);
    if (!fillRequired) return undefined;
    const required = fillRequired;
    const { cols, valid } = allocate(kinds, n);
    const spans = cols.map((c) => (source && c.kind === 'STRING' ? new StringSpans(source, n) : undefined));
    const slotSpans = slots.map((s) => spans[s.col]);
    const words = cols.map((c) => (c.kind === 'INT64' ? new Int32Array(c.values.buffer) : undefined));
    // Per slot: its column's values, validity and int32 words (hoisted out of the row loop).
    const slotValues = slots.map((s) => cols[s.col]!.values as BigInt64Array | Float64Array | Uint8Array | (string | null)[]);
    const slotValid = slots.map((s) => valid[s.col]!);
    const slotWords = slots.map((s) => words[s.col]);
    for (let from = 0; from < n; from += WRITE_DECODE_SLICE_ROWS) {
      if (from > 0) await yieldToLoop();
      if (!decodeRange(from, Math.min(n, from + WRITE_DECODE_SLICE_ROWS))) return undefined;
    }
    for (let j = 0; j < cols.length; j++) {
      const cells = spans[j]?.cells(valid[j]!);
      if (spans[j] && !cells) return undefined;
      if (cells) cols[j] = cellsColumn(cells);
    }
    return finish(cols, valid, n);

    /** Rows [from, to) into the columns; false when one needs the row path. */
    function decodeRange(from: number, to: number): boolean {
      try {
        for (let r = from; r < to; r++) if (!decodeRow(r)) return false;
        return true;
      } catch {
        return false;
      }
    }

    function decodeRow(r: number): boolean {
      const msg = next(r);
      if (!msg) return false;
      for (let k = 0; k < slots.length; k++) {
        const s = slots[k]!;
        if (!hasOwn.call(msg, s.key)) continue;
        const v = msg[s.key];
        if (v === null || v === undefined) continue;
        const values = slotValues[k]!;
        slotValid[k]![r] = 1;
        switch (s.store) {
          case 0:
            if (typeof v === 'object') {
              const w = slotWords[k]!;
              w[2 * r] = (v as { low: number }).low;
              w[2 * r + 1] = (v as { high: number }).high;
            } else (values as BigInt64Array)[r] = BigInt(v as number | string);
            break;
          case 1:
            slotWords[k]![2 * r] = v as number;
            slotWords[k]![2 * r + 1] = (v as number) < 0 ? -1 : 0;
            break;
          case 2:
            slotWords[k]![2 * r] = (v as number) | 0;
            break;
          case 3:
            (values as Float64Array)[r] = v as number;
            break;
          case 4:
            (values as Uint8Array)[r] = v ? 1 : 0;
            break;
          default:
            if (!slotSpans[k]) (values as (string | null)[])[r] = v as string;
            else if (!slotSpans[k]!.set(r, v as Uint8Array)) return false;
        }
      }
      for (let j = 0; j < required.length; j++) if (!valid[required[j]!]![r]) return false;
      return true;
    }
  };
  return {
    decode: (serialized, options) => run(serialized.length, (r) => type.decode(serialized[r]!) as unknown as Record<string, unknown>, options),
    async decodeProtoRows(protoRows, options) {
      // ProtoRows on the wire: field 1 (length-delimited) once per row, read with protobufjs's Reader.
      const reader = protobuf.Reader.create(protoRows);
      let n = 0;
      try {
        while (reader.pos < reader.len) {
          const tag = reader.uint32();
          if (tag !== SERIALIZED_ROWS_TAG) return undefined;
          reader.skip(reader.uint32());
          n++;
        }
      } catch {
        return undefined;
      }
      reader.pos = 0;
      return run(
        n,
        () => {
          reader.uint32();
          const length = reader.uint32();
          const end = reader.pos + length;
          const msg = (bytesType ?? type).decode(reader, length) as unknown as Record<string, unknown>;
          return reader.pos === end ? msg : undefined;
        },
        options,
        bytesType && protoRows,
      );
    },
  };
}

/** Whether Arrow `type` is read by the fast path into a column of `kind`. */
function arrowFits(type: DataType, kind: FastKind): boolean {
  const t = type as unknown as { bitWidth: number; isSigned: boolean };
  switch (kind) {
    case 'INT64':
      return type.typeId === Type.Int && (t.isSigned || t.bitWidth <= 32);
    case 'FLOAT64':
      return type.typeId === Type.Float && t.bitWidth !== 16;
    case 'BOOL':
      return type.typeId === Type.Bool;
    default:
      return type.typeId === Type.Utf8;
  }
}

/** Marks the valid cells of `data` (one Arrow column of a record batch) in `valid` from `base`. */
function readArrowValidity(data: Data, valid: Uint8Array, base: number): void {
  const n = data.length;
  const bitmap = data.nullCount > 0 ? data.nullBitmap : undefined;
  for (let i = 0; i < n; i++) {
    const k = data.offset + i;
    valid[base + i] = !bitmap || (bitmap[k >> 3]! & (1 << (k & 7))) !== 0 ? 1 : 0;
  }
}

/** Copies `data` (one Arrow column of a record batch) into column `c`, marking valid cells. */
function readArrowColumn(data: Data, c: WriteColumnValues, valid: Uint8Array, base: number): void {
  const n = data.length;
  readArrowValidity(data, valid, base);
  const start = data.offset;
  if (c.kind === 'INT64') {
    const v = data.values as BigInt64Array | Int32Array | Int16Array | Int8Array | Uint32Array | Uint16Array | Uint8Array;
    if (v instanceof BigInt64Array) c.values.set(v.subarray(start, start + n), base);
    else {
      const w = new Int32Array(c.values.buffer);
      for (let i = 0; i < n; i++) {
        const x = v[start + i]!;
        w[2 * (base + i)] = x | 0;
        w[2 * (base + i) + 1] = x < 0 ? -1 : 0;
      }
    }
  } else if (c.kind === 'FLOAT64') {
    const v = data.values as Float64Array | Float32Array;
    if (v instanceof Float64Array) c.values.set(v.subarray(start, start + n), base);
    else for (let i = 0; i < n; i++) c.values[base + i] = v[start + i]!;
  } else if (c.kind === 'BOOL') {
    const v = data.values as Uint8Array;
    for (let i = 0; i < n; i++) c.values[base + i] = (v[(start + i) >> 3]! >> ((start + i) & 7)) & 1;
  } else {
    const o = data.valueOffsets as Int32Array;
    const bytes = data.values as Uint8Array;
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const from = o[start]!;
    const to = o[start + n]!;
    if (isAscii(buf.subarray(from, to))) {
      // ASCII: byte offsets are character offsets, so one decoded string is cut into the cells.
      const text = buf.toString('latin1', from, to);
      for (let i = 0; i < n; i++) if (valid[base + i]) c.values[base + i] = text.substring(o[start + i]! - from, o[start + i + 1]! - from);
    } else for (let i = 0; i < n; i++) if (valid[base + i]) c.values[base + i] = buf.toString('utf8', o[start + i]!, o[start + i + 1]!);
  }
}

/**
 * The fast decoder of Arrow record batches whose writer schema is `schema` (its IPC bytes
 * `serializedSchema`), fields matched to `columns` by name (case-insensitive), or undefined when a
 * column or field is outside the fast path (dictionary-encoded, large_utf8, float16, uint64…).
 */
export function columnarArrowDecoder(serializedSchema: Uint8Array, schema: Schema, columns: Column[]): ColumnarWriteDecoder | undefined {
  const kinds = fastKinds(columns);
  if (!kinds) return undefined;
  const byName = new Map(columns.map((c, i) => [c.name.toLowerCase(), i]));
  const bound: { field: number; col: number }[] = [];
  for (let fi = 0; fi < schema.fields.length; fi++) {
    const f = schema.fields[fi]!;
    const col = byName.get(f.name.toLowerCase());
    if (col === undefined || DataType.isDictionary(f.type) || !arrowFits(f.type, kinds[col]!)) return undefined;
    bound.push({ field: fi, col });
  }
  return {
    async decode(serialized, options) {
      const required = nullFill(columns, options);
      if (!required || serialized.length !== 1) return undefined;
      const bytes = new Uint8Array(serializedSchema.length + serialized[0]!.length);
      bytes.set(serializedSchema, 0);
      bytes.set(serialized[0]!, serializedSchema.length);
      let batches;
      try {
        const reader = RecordBatchReader.from(bytes);
        reader.open();
        batches = [...reader];
      } catch {
        return undefined;
      }
      const n = batches.reduce((s, b) => s + b.numRows, 0);
      const { cols, valid } = allocate(kinds, n);
      let base = 0;
      for (const batch of batches) {
        if (base > 0) await yieldToLoop();
        for (const b of bound) {
          const chunks = batch.getChildAt(b.field)!.data;
          if (chunks.length !== 1) return undefined;
          const cells = batches.length === 1 && kinds[b.col] === 'STRING' ? arrowStringCells(chunks[0]!, valid[b.col]!) : undefined;
          if (cells) cols[b.col] = cellsColumn(cells);
          else readArrowColumn(chunks[0]!, cols[b.col]!, valid[b.col]!, base);
        }
        base += batch.numRows;
      }
      for (const j of required) if (valid[j]!.indexOf(0) >= 0) return undefined;
      return finish(cols, valid, n);
    },
  };
}

/** The rows of a columnar batch (values as the row decoders give them), for the paths that need rows. */
export function columnBatchRows(b: WriteColumnBatch): Value[][] {
  const rows: Value[][] = new Array(b.length);
  for (let i = 0; i < b.length; i++) {
    const row: Value[] = new Array(b.columns.length);
    for (let j = 0; j < b.columns.length; j++) {
      const c = b.columns[j]!;
      if (c.kind === 'STRING') row[j] = c.values[i]!;
      else if (c.valid && !c.valid[i]) row[j] = null;
      else row[j] = c.kind === 'BOOL' ? c.values[i] === 1 : c.values[i]!;
    }
    rows[i] = row;
  }
  return rows;
}
