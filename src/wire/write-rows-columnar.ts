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
 *
 * This module holds the batch's shape and what both decoders share; the decoders are
 * src/wire/write-proto-columns.ts (proto rows) and src/wire/write-arrow-columns.ts (Arrow record
 * batches).
 */
import os from 'node:os';
import type { Column } from '../types/schema.js';
import { treeHasParams } from '../types/type-params.js';
import type { Value } from '../types/types.js';
import { missingFill, type WriteRowOptions } from './write-rows.js';
import { cellStrings, type StringCells } from './write-rows-cells.js';

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

/** The column kinds the fast path takes. */
export type FastKind = WriteColumnValues['kind'];
const FAST_KINDS = new Set<string>(['INT64', 'FLOAT64', 'BOOL', 'STRING']);
/** INT64 cells are written as two int32 words (little-endian order). */
const LITTLE_ENDIAN = os.endianness() === 'LE';

/** Lets the event loop run (between slices of rows). */
export const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/** The columns' kinds when every column can take the fast path, else undefined. */
export function fastKinds(columns: Column[]): FastKind[] | undefined {
  if (!LITTLE_ENDIAN) return undefined;
  const out: FastKind[] = [];
  for (const c of columns) {
    if (!FAST_KINDS.has(c.type.kind) || treeHasParams(c.type, c)) return undefined;
    out.push(c.type.kind as FastKind);
  }
  return out;
}

/**
 * Empty columns of `n` rows (every cell NULL until set). A STRING column's `values` are allocated
 * only with `stringValues` (a decoder that builds string cells instead gives its column later).
 */
export function allocate(kinds: FastKind[], n: number, stringValues: boolean): { cols: WriteColumnValues[]; valid: Uint8Array[] } {
  const valid = kinds.map(() => new Uint8Array(n));
  const cols = kinds.map((k, j): WriteColumnValues => {
    if (k === 'INT64') return { kind: k, values: new BigInt64Array(n), valid: valid[j] };
    if (k === 'FLOAT64') return { kind: k, values: new Float64Array(n), valid: valid[j] };
    if (k === 'BOOL') return { kind: k, values: new Uint8Array(n), valid: valid[j] };
    return stringValues ? stringColumn(n) : { kind: k, values: [] };
  });
  return { cols, valid };
}

/** A STRING column of `n` NULL values. */
export const stringColumn = (n: number): WriteColumnValues => ({ kind: 'STRING', values: new Array<string | null>(n).fill(null) });

/** The batch, without validity arrays for the columns that have no NULL. */
export function finish(cols: WriteColumnValues[], valid: Uint8Array[], n: number): WriteColumnBatch {
  const out = cols.map((c, j) => (c.kind !== 'STRING' && valid[j]!.indexOf(0) < 0 ? { ...c, valid: undefined } : c));
  return { columnar: true, length: n, columns: out };
}

/**
 * Whether the request's missing values allow the fast path: every column's missing value is NULL
 * (not its DEFAULT); returns the REQUIRED columns (a row leaving one unset needs the row path).
 */
export function nullFill(columns: Column[], options: WriteRowOptions | undefined): number[] | undefined {
  const fill = missingFill(columns, options);
  if (fill.values.some((v, i) => v === undefined && !fill.required.includes(i))) return undefined;
  return fill.required;
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
