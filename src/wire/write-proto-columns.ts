/**
 * The columnar fast path (src/wire/write-rows-columnar.ts) for proto rows: each row message of an
 * AppendRows request decoded by protobufjs's generated decoder for the writer schema and its
 * fields stored into the columns — INT64 as two int32 words, FLOAT64 and BOOL as they are. A
 * request's serialized `ProtoRows` is read where it lies (no per-row buffer), its fields written
 * by the decoder straight into the columns through a message sink (src/wire/write-proto-sink.ts),
 * STRING from the UTF-8 bytes on the wire (src/wire/write-proto-string-bytes.ts); rows given one
 * buffer each (`decode`) are decoded to messages and read back, STRING as JS strings.
 */
import protobuf from 'protobufjs';
import type { Column } from '../types/schema.js';
import { WRITE_DECODE_SLICE_ROWS, type WriteRowOptions } from './write-rows.js';
import { allocate, cellsColumn, fastKinds, finish, nullFill, yieldToLoop, type ColumnarWriteDecoder, type FastKind, type WriteColumnBatch } from './write-rows-columnar.js';
import { bytesTyped, SpanReader, StringSpans } from './write-proto-string-bytes.js';
import { ProtoRowSink, type SinkStore } from './write-proto-sink.js';

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
  /** How the value is stored (write-proto-sink.ts SinkStore). */
  store: SinkStore;
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
  // Requests' ProtoRows decode into the columns through a message sink (write-proto-sink.ts), given
  // a copy of the type whose STRING fields are read as bytes (src/wire/write-proto-string-bytes.ts).
  const stringFields = slots.filter((s) => s.store === 5).map((s) => s.key);
  const own = bytesTyped(type, stringFields);
  const sink = own && ProtoRowSink.on(own, slots.map((s, slot) => ({ key: s.key, slot, store: s.store })));
  /** Decodes `n` rows, the r-th message given by `next(r)` (undefined: unparsable → the row path). */
  const run = async (n: number, next: (r: number) => Record<string, unknown> | undefined, options: WriteRowOptions | undefined): Promise<WriteColumnBatch | undefined> => {
    const fillRequired = nullFill(columns, options);
    if (!fillRequired) return undefined;
    const required = fillRequired;
    const { cols, valid } = allocate(kinds, n, true);
    const words = cols.map((c) => (c.kind === 'INT64' ? new Int32Array(c.values.buffer) : undefined));
    // Per slot: its column's values, validity and int32 words (hoisted out of the row loop).
    const slotValues = slots.map((s) => cols[s.col]!.values as BigInt64Array | Float64Array | Uint8Array | (string | null)[]);
    const slotValid = slots.map((s) => valid[s.col]!);
    const slotWords = slots.map((s) => words[s.col]);
    for (let from = 0; from < n; from += WRITE_DECODE_SLICE_ROWS) {
      if (from > 0) await yieldToLoop();
      if (!decodeRange(from, Math.min(n, from + WRITE_DECODE_SLICE_ROWS))) return undefined;
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
            (values as (string | null)[])[r] = v as string;
        }
      }
      for (let j = 0; j < required.length; j++) if (!valid[required[j]!]![r]) return false;
      return true;
    }
  };
  /**
   * Decodes the `n` row messages of `protoRows` (each a field 1 of the ProtoRows, as counted) through
   * the sink: undefined when a row needs the row path (unparsable, a REQUIRED column missing).
   */
  const runSink = async (sink: ProtoRowSink, n: number, reader: protobuf.Reader, protoRows: Uint8Array, options: WriteRowOptions | undefined): Promise<WriteColumnBatch | undefined> => {
    const required = nullFill(columns, options);
    if (!required) return undefined;
    const { cols, valid } = allocate(kinds, n, false);
    const spans = cols.map((c) => (c.kind === 'STRING' ? new StringSpans(protoRows, n) : undefined));
    const targets = slots.map((s) => {
      const c = cols[s.col]!;
      return ProtoRowSink.target({
        valid: valid[s.col]!,
        words: c.kind === 'INT64' ? new Int32Array(c.values.buffer, c.values.byteOffset, 2 * n) : undefined,
        f64: c.kind === 'FLOAT64' ? c.values : undefined,
        u8: c.kind === 'BOOL' ? c.values : undefined,
        spans: spans[s.col],
      });
    });
    const spanReader = reader instanceof SpanReader ? reader : undefined;
    for (let from = 0; from < n; from += WRITE_DECODE_SLICE_ROWS) {
      if (from > 0) await yieldToLoop();
      // Another batch may have used the sink during the yield: this batch's arrays again.
      sink.use(targets, spanReader);
      const to = Math.min(n, from + WRITE_DECODE_SLICE_ROWS);
      try {
        for (let r = from; r < to; r++) {
          reader.uint32();
          const length = reader.uint32();
          const end = reader.pos + length;
          spanReader?.nextMessage();
          sink.row = r;
          sink.decode(reader, length);
          if (reader.pos !== end) return undefined;
          for (let j = 0; j < required.length; j++) if (!valid[required[j]!]![r]) return undefined;
        }
      } catch {
        return undefined;
      }
    }
    for (let j = 0; j < cols.length; j++) {
      if (!spans[j]) continue;
      const cells = spans[j]!.cells(valid[j]!);
      if (!cells) return undefined;
      cols[j] = cellsColumn(cells);
    }
    return finish(cols, valid, n);
  };
  return {
    decode: (serialized, options) => run(serialized.length, (r) => type.decode(serialized[r]!) as unknown as Record<string, unknown>, options),
    // Only through the sink: without one, requests decode one message at a time (`decode`).
    decodeProtoRows: sink
      ? async (protoRows, options) => {
          // ProtoRows on the wire: field 1 (length-delimited) once per row, read with protobufjs's Reader
          // (a SpanReader when STRING fields are read as bytes: write-proto-string-bytes.ts).
          const reader = stringFields.length ? new SpanReader(protoRows) : protobuf.Reader.create(protoRows);
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
          return runSink(sink, n, reader, protoRows, options);
        }
      : undefined,
  };
}
