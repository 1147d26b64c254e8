/**
 * DuckDB data chunks → the columns of one Storage Read batch (src/wire/arrow.ts ColumnInput).
 *
 * Two ways per column. Where DuckDB's storage of a BigQuery type is already Arrow's layout
 * (src/types/duckdb-types.ts: INT64 BIGINT, FLOAT64 DOUBLE, DATE DATE (int32 days), TIME TIME,
 * DATETIME TIMESTAMP, TIMESTAMP TIMESTAMPTZ (int64 µs), STRING VARCHAR, BYTES BLOB), the vector's
 * buffers are copied as they are into a RawColumn: DuckDB's validity mask is uint64 words with
 * row i at bit i, which on a little-endian machine is byte for byte Arrow's LSB-first bitmap, and
 * a VARCHAR/BLOB `string_t` is 16 bytes (uint32 length, then ≤ 12 bytes inline or a pointer)
 * whose bytes are the UTF-8 text. Every other column (and any vector of an unexpected class) is
 * decoded into domain values (src/engine/duckdb/values.ts), as query results are.
 *
 * The vectors' buffers are read through fields `@duckdb/node-api` keeps private (`items`,
 * `dataView`, `validity.data`); their presence is checked per chunk and a vector without them is
 * decoded instead, so a version of the library that renames them is slower, never wrong.
 */
import duckdbBindings from '@duckdb/node-bindings';
import { DuckDBBigIntVector, DuckDBBlobVector, DuckDBDateVector, DuckDBDoubleVector, DuckDBTimestampTZVector, DuckDBTimestampVector, DuckDBTimeVector, DuckDBVarCharVector, type DuckDBDataChunk, type DuckDBVector } from '@duckdb/node-api';
import { RAW_LAYOUT, type ColumnInput, type RawColumn } from '../../wire/arrow.js';
import type { BqType, Value } from '../../types/types.js';
import { makeColumnDecoder, type ColumnDecoder } from './values.js';
import { BigQueryError } from '../../errors/errors.js';

/** The vector class holding each raw-layout BigQuery type as DuckDB stores it. */
const RAW_VECTOR: Partial<Record<BqType['kind'], abstract new (...a: never[]) => DuckDBVector>> = {
  INT64: DuckDBBigIntVector,
  FLOAT64: DuckDBDoubleVector,
  DATE: DuckDBDateVector,
  TIME: DuckDBTimeVector,
  DATETIME: DuckDBTimestampVector,
  TIMESTAMP: DuckDBTimestampTZVector,
  STRING: DuckDBVarCharVector,
  BYTES: DuckDBBlobVector,
};

/** The private buffers of a vector (see the module docstring). */
interface VectorBuffers {
  items?: BigInt64Array | Float64Array | Int32Array;
  dataView?: DataView;
  validity?: { data: BigUint64Array | null; offset: number };
}

/** The buffers of `v` when it is a raw vector of type `t` with the expected fields; else undefined. */
function buffersOf(v: DuckDBVector, t: BqType): VectorBuffers | undefined {
  const cls = RAW_VECTOR[t.kind];
  if (!cls || !(v instanceof cls)) return undefined;
  const b = v as unknown as VectorBuffers;
  if (!b.validity || b.validity.offset !== 0) return undefined;
  if (RAW_LAYOUT[t.kind] === 'fixed') return ArrayBuffer.isView(b.items) ? b : undefined;
  return b.dataView instanceof DataView ? b : undefined;
}

/** Whether row `i` of a DuckDB validity mask is valid (no mask: every row is). */
const valid = (mask: BigUint64Array | null, bytes: Uint8Array | null, i: number) => !mask || ((bytes![i >> 3] >> (i & 7)) & 1) === 1;

/** The bytes of a validity mask (null when every row is valid). */
const maskBytes = (mask: BigUint64Array | null) => (mask ? new Uint8Array(mask.buffer, mask.byteOffset, mask.byteLength) : null);

/** Number of set bits in the first `n` bits of `bitmap`. */
function countValid(bitmap: Uint8Array, n: number): number {
  let c = 0;
  for (let i = 0; i < n >> 3; i++) {
    let b = bitmap[i];
    b = b - ((b >> 1) & 0x55);
    b = (b & 0x33) + ((b >> 2) & 0x33);
    c += (b + (b >> 4)) & 0x0f;
  }
  for (let i = n & ~7; i < n; i++) c += (bitmap[i >> 3] >> (i & 7)) & 1;
  return c;
}

/**
 * The Arrow validity bitmap of `parts` (each chunk's validity bytes, LSB first, `rows` long; null
 * when all valid) put end to end, and its NULL count; null bitmap when no row is NULL.
 */
function joinValidity(parts: { mask: Uint8Array | null; rows: number }[], total: number): { validity: Uint8Array | null; nullCount: number } {
  if (parts.every((p) => !p.mask)) return { validity: null, nullCount: 0 };
  const out = new Uint8Array((total + 7) >> 3);
  let at = 0;
  for (const p of parts) {
    const bytes = p.mask;
    if (!bytes) {
      for (let i = 0; i < p.rows; i++) out[(at + i) >> 3] |= 1 << ((at + i) & 7);
    } else if ((at & 7) === 0) {
      out.set(bytes.subarray(0, (p.rows + 7) >> 3), at >> 3);
      // Bits past the chunk's last row are not ours: clear them (the next part ORs its own in).
      if (p.rows & 7) out[(at + p.rows) >> 3] &= (1 << ((at + p.rows) & 7)) - 1;
    } else {
      for (let i = 0; i < p.rows; i++) if ((bytes[i >> 3] >> (i & 7)) & 1) out[(at + i) >> 3] |= 1 << ((at + i) & 7);
    }
    at += p.rows;
  }
  return { validity: out, nullCount: total - countValid(out, total) };
}

/** The `string_t` bytes of row `i` (inline, or behind the pointer) of a VARCHAR/BLOB vector's data. */
function stringBytes(view: DataView, i: number, len: number): Uint8Array {
  const at = view.byteOffset + i * 16;
  if (len <= 12) return new Uint8Array(view.buffer, at + 4, len);
  return duckdbBindings.get_data_from_pointer(view.buffer as ArrayBuffer, at + 8, len);
}

/** One chunk's share of a column, copied out of the chunk: raw buffers, or domain values. */
type ColumnPart =
  | { kind: 'fixed'; rows: number; values: BigInt64Array | Float64Array | Int32Array; mask: Uint8Array | null }
  | { kind: 'varWidth'; rows: number; offsets: Int32Array; bytes: Uint8Array; mask: Uint8Array | null }
  | { kind: 'values'; rows: number; values: Value[] };

/** The first `rows` rows of a raw vector (buffers `b`) copied out as a part. */
function rawPart(t: BqType, b: VectorBuffers, rows: number): ColumnPart {
  const m = b.validity!.data;
  const mb = maskBytes(m);
  const mask = mb ? mb.slice(0, (rows + 7) >> 3) : null;
  if (RAW_LAYOUT[t.kind] === 'fixed') return { kind: 'fixed', rows, values: b.items!.slice(0, rows), mask };
  const view = b.dataView!;
  const offsets = new Int32Array(rows + 1);
  let bytes = 0;
  for (let i = 0; i < rows; i++) {
    if (valid(m, mb, i)) bytes += view.getUint32(i * 16, true);
    offsets[i + 1] = bytes;
  }
  const data = new Uint8Array(bytes);
  // Inline texts (≤ 12 bytes) are copied byte by byte from the string_t array: no view per value.
  const src = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < rows; i++) {
    const at = offsets[i];
    const len = offsets[i + 1] - at;
    if (len === 0) continue;
    if (len <= 12) {
      const from = i * 16 + 4;
      for (let k = 0; k < len; k++) data[at + k] = src[from + k];
    } else data.set(stringBytes(view, i, len), at);
  }
  return { kind: 'varWidth', rows, offsets, bytes: data, mask };
}

/** Parts of one column (all raw of the same layout) joined into one RawColumn. */
function joinRaw(parts: ColumnPart[], total: number): RawColumn {
  const { validity, nullCount } = joinValidity(parts.map((p) => ({ mask: p.kind === 'values' ? null : p.mask, rows: p.rows })), total);
  if (parts[0].kind === 'fixed') {
    const fixed = parts as Extract<ColumnPart, { kind: 'fixed' }>[];
    const values = new (fixed[0].values.constructor as new (n: number) => BigInt64Array | Float64Array | Int32Array)(total);
    let at = 0;
    for (const p of fixed) {
      values.set(p.values as never, at);
      at += p.rows;
    }
    return { layout: 'fixed', length: total, values, validity, nullCount };
  }
  const vars = parts as Extract<ColumnPart, { kind: 'varWidth' }>[];
  const offsets = new Int32Array(total + 1);
  const bytes = new Uint8Array(vars.reduce((n, p) => n + p.bytes.length, 0));
  let row = 0;
  let base = 0;
  for (const p of vars) {
    for (let i = 1; i <= p.rows; i++) offsets[row + i] = base + p.offsets[i];
    bytes.set(p.bytes, base);
    row += p.rows;
    base += p.bytes.length;
  }
  return { layout: 'varWidth', length: total, offsets, bytes, validity, nullCount };
}

/**
 * Collects DuckDB chunks into the columns of one batch. `types[j]` is the BigQuery type of column
 * j; `raw[j]` whether column j may be a RawColumn (false: always domain values, e.g. for Avro or
 * for a column pruned in JS afterwards). Each chunk is copied out when added (one chunk's work at
 * a time, between the awaits of the read), so take() only joins buffers.
 */
export class ColumnBatchBuilder {
  private parts: ColumnPart[][];
  private rows = 0;
  /** Per column, whether its chunks are copied raw (decided on the first chunk: a result's vector classes are fixed by its types). */
  private rawMode: (boolean | undefined)[] = [];
  private readonly decoders: ColumnDecoder[];

  constructor(
    private readonly types: readonly BqType[],
    private readonly raw: readonly boolean[],
  ) {
    this.decoders = types.map((t) => makeColumnDecoder(t));
    this.parts = types.map(() => []);
  }

  /** Rows collected so far. */
  get rowCount(): number {
    return this.rows;
  }

  /** Copies the first `rows` rows of a chunk (default all) out of it. */
  add(chunk: DuckDBDataChunk, rows = chunk.rowCount): void {
    this.types.forEach((t, j) => {
      const v = chunk.getColumnVector(j);
      const b = this.rawMode[j] !== false && this.raw[j] && RAW_LAYOUT[t.kind] ? buffersOf(v, t) : undefined;
      this.rawMode[j] ??= !!b;
      if (this.rawMode[j]) {
        if (!b) throw BigQueryError.cannotEncodeArrowValue(`a ${v.constructor.name} chunk after raw ones`, t.kind);
        this.parts[j].push(rawPart(t, b, rows));
        return;
      }
      const values: Value[] = new Array(rows);
      const dec = this.decoders[j];
      for (let i = 0; i < rows; i++) values[i] = dec(v.getItem(i));
      this.parts[j].push({ kind: 'values', rows, values });
    });
    this.rows += rows;
  }

  /** The collected rows, column by column; the builder is empty afterwards. */
  take(): { rowCount: number; columns: ColumnInput[] } {
    const total = this.rows;
    const parts = this.parts;
    this.parts = this.types.map(() => []);
    this.rows = 0;
    const columns = parts.map((ps, j): ColumnInput => {
      if (this.rawMode[j]) return joinRaw(ps, total);
      if (ps.length === 1) return (ps[0] as Extract<ColumnPart, { kind: 'values' }>).values;
      const out: Value[] = [];
      for (const p of ps) for (const v of (p as Extract<ColumnPart, { kind: 'values' }>).values) out.push(v);
      return out;
    });
    return { rowCount: total, columns };
  }
}
