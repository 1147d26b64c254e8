/**
 * The columnar fast path (src/wire/write-rows-columnar.ts) for Arrow rows: an AppendRows request's
 * record batch (read by apache-arrow after the writer schema's IPC message) copied column by
 * column — INT64 and FLOAT64 values as memory copies or widened, BOOL unpacked from its bitmap,
 * utf8 as DuckDB string cells over the batch's own buffers (src/wire/write-rows-cells.ts).
 */
import { isAscii } from 'node:buffer';
import { DataType, RecordBatchReader, Type, type Data, type Schema } from 'apache-arrow';
import type { Column } from '../types/schema.js';
import { arrowStringCells } from './write-rows-cells.js';
import { allocate, cellsColumn, fastKinds, finish, nullFill, stringColumn, yieldToLoop, type ColumnarWriteDecoder, type FastKind, type WriteColumnValues } from './write-rows-columnar.js';

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
      const { cols, valid } = allocate(kinds, n, batches.length !== 1);
      let base = 0;
      for (const batch of batches) {
        if (base > 0) await yieldToLoop();
        for (const b of bound) {
          const chunks = batch.getChildAt(b.field)!.data;
          if (chunks.length !== 1) return undefined;
          const cells = batches.length === 1 && kinds[b.col] === 'STRING' ? arrowStringCells(chunks[0]!, valid[b.col]!) : undefined;
          if (cells) cols[b.col] = cellsColumn(cells);
          else {
            // A single batch's STRING column without cells (bytes not valid UTF-8) reads its strings.
            if (batches.length === 1 && kinds[b.col] === 'STRING') cols[b.col] = stringColumn(n);
            readArrowColumn(chunks[0]!, cols[b.col]!, valid[b.col]!, base);
          }
        }
        base += batch.numRows;
      }
      for (const j of required) if (valid[j]!.indexOf(0) >= 0) return undefined;
      return finish(cols, valid, n);
    },
  };
}
