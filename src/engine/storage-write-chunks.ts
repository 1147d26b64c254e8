/**
 * Columnar write batches (src/wire/write-rows-columnar.ts) into a DuckDB appender, a data chunk of
 * DuckDB's vector size at a time, each column filled by memory copies through
 * `@duckdb/node-bindings` (`copy_data_to_vector`, `copy_data_to_vector_validity`):
 *
 * - INT64 / FLOAT64 / BOOL: the column's typed array is DuckDB's own layout (BIGINT and DOUBLE 8
 *   bytes, BOOLEAN one byte 0/1, little-endian), one copy per chunk;
 * - STRING held as cells (src/wire/write-rows-cells.ts): the 16-byte `duckdb_string_t` cells of the
 *   chunk in one copy; values longer than 12 bytes point into one copy of the chunk's bytes that
 *   DuckDB made in the vector's string heap (pointLongCells), else are assigned one call each;
 *   STRING held as JS strings: one assign call per value;
 * - NULLs: DuckDB's validity mask (uint64 words, row i at bit i) built per chunk, written only for
 *   a chunk with a NULL in that column (and set back to all-valid in the next chunk).
 *
 * Measured on raw DuckDB, 1M rows of (INT64, FLOAT64, short STRING), CPU: per-cell appender calls
 * 0.53 s, node-api's vector setters 0.35 s, these copies 0.13 s (bench/storage-write-chunks.ts).
 */
import os from 'node:os';
import duckdb from '@duckdb/node-bindings';
import { DuckDBDataChunk, DuckDBTypeId, type DuckDBAppender } from '@duckdb/node-api';
import type { WriteColumnBatch } from '../wire/write-rows-columnar.js';
import type { StringCells } from '../wire/write-rows-cells.js';

/** The DuckDB vector type each columnar kind is appended to. */
const VECTOR_TYPE: Record<WriteColumnBatch['columns'][number]['kind'], DuckDBTypeId> = {
  INT64: DuckDBTypeId.BIGINT,
  FLOAT64: DuckDBTypeId.DOUBLE,
  BOOL: DuckDBTypeId.BOOLEAN,
  STRING: DuckDBTypeId.VARCHAR,
};

/** Rows of a DuckDB data chunk (DuckDB's vector size, 2,048 in this build). */
const CHUNK_ROWS = duckdb.vector_size();

/** Data chunks appended between two yields to the event loop (~0.1–0.5 ms each for three columns). */
const CHUNKS_PER_SLICE = 8;

/** The validity words of one chunk: every row valid. */
const ALL_VALID = new BigUint64Array(Math.ceil(CHUNK_ROWS / 64)).fill(0xffffffffffffffffn);

/**
 * Writes the validity of rows [at, at + n) of `valid` (1 = value) to `vec` when one is NULL, or
 * all-valid when `dirty` (a NULL was written in an earlier chunk). Returns whether the vector
 * now holds a NULL.
 */
function writeValidity(vec: duckdb.Vector, valid: Uint8Array | undefined, at: number, n: number, dirty: boolean, mask: BigUint64Array): boolean {
  const hasNull = valid !== undefined && valid.subarray(at, at + n).indexOf(0) >= 0;
  if (!hasNull && !dirty) return false;
  const words = Math.ceil(n / 64);
  let source: BigUint64Array = ALL_VALID;
  if (hasNull) {
    const bytes = new Uint8Array(mask.buffer, 0, words * 8);
    bytes.fill(0);
    for (let i = 0; i < n; i++) if (valid![at + i]) bytes[i >> 3]! |= 1 << (i & 7);
    source = mask;
  }
  duckdb.vector_ensure_validity_writable(vec);
  duckdb.copy_data_to_vector_validity(vec, 0, source.buffer as ArrayBuffer, source.byteOffset, words * 8);
  return hasNull;
}

/** The validity of a STRING column held as JS strings (1 = value), or undefined when it has no NULL. */
function stringValidity(values: readonly (string | null)[]): Uint8Array | undefined {
  if (values.indexOf(null) < 0) return undefined;
  const valid = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) valid[i] = values[i] === null ? 0 : 1;
  return valid;
}

/** Pointers are 8 bytes, little-endian (x64, arm64): the layout pointLongCells writes. */
const POINTERS_64_LE = (process.arch === 'x64' || process.arch === 'arm64') && os.endianness() === 'LE';

/**
 * The long values (rows long[lo..end), all in the chunk of rows [at, at + n)) of `c` as cells
 * pointing into DuckDB's string heap of `vec`, with one binding call for the chunk: the chunk's
 * bytes (its values back to back) are assigned to row 0, which copies them into the vector's
 * string heap; the heap address is read back from row 0's cell, and each long cell is written in
 * `c.inline` as `duckdb_string_t` (duckdb.h) lays out a non-inline value — length, its first 4
 * bytes, then a pointer to its bytes inside that copy. The heap lives until the chunk is reset,
 * after the appender copied the chunk. Row 0's cell is overwritten by the caller's copy of the
 * chunk's cells. Returns false (nothing written) when the layout cannot be used here or DuckDB
 * refused the bytes (row 0 then reads NULL, e.g. bytes that are not UTF-8): the caller assigns
 * the long values one by one.
 */
function pointLongCells(vec: duckdb.Vector, c: StringCells, at: number, n: number, lo: number, end: number): boolean {
  if (!POINTERS_64_LE) return false;
  const from = c.offsets[at]!;
  const to = c.offsets[at + n]!;
  duckdb.vector_assign_string_element_len(vec, 0, c.bytes.subarray(from, to));
  const head = duckdb.vector_get_data(vec, 16);
  const view = new DataView(head.buffer, head.byteOffset, 16);
  const baseLo = view.getUint32(8, true);
  const baseHi = view.getUint32(12, true);
  if (view.getUint32(0, true) !== to - from || (baseLo === 0 && baseHi === 0)) return false;
  const words = new Uint32Array(c.inline.buffer, c.inline.byteOffset, c.inline.length >> 2);
  for (let q = lo; q < end; q++) {
    const i = c.long[q]!;
    const start = c.offsets[i]!;
    words[4 * i] = c.offsets[i + 1]! - start;
    for (let k = 0; k < 4; k++) c.inline[16 * i + 4 + k] = c.bytes[start + k]!;
    const low = baseLo + (start - from);
    words[4 * i + 2] = low >>> 0;
    words[4 * i + 3] = baseHi + (low > 0xffffffff ? 1 : 0);
  }
  return true;
}

/**
 * Appends a columnar batch to `a` through DuckDB data chunks (see the module docstring), flushing
 * the appender and yielding to the event loop every CHUNKS_PER_SLICE chunks and flushing at the
 * end. Returns false, appending nothing, when the appender's columns are not the DuckDB types the
 * batch's kinds lower to (the caller appends its rows instead).
 * @throws the binding's or appender's error (the caller rolls back).
 */
export async function appendColumns(a: DuckDBAppender, b: WriteColumnBatch): Promise<boolean> {
  if (a.columnCount !== b.columns.length) return false;
  const types = b.columns.map((c, j) => a.columnType(j));
  if (types.some((t, j) => t.typeId !== VECTOR_TYPE[b.columns[j]!.kind])) return false;
  const chunk = DuckDBDataChunk.create(types);
  const raw = chunk.chunk;
  const mask = new BigUint64Array(Math.ceil(CHUNK_ROWS / 64));
  // Per column: a NULL written in an earlier chunk (its mask is set back to all-valid when the next has none).
  const dirty = b.columns.map(() => false);
  const validity = b.columns.map((c) => (c.kind === 'STRING' ? (c.cells ? c.cells.valid : stringValidity(c.values)) : c.valid));
  // Whether the chunk's string heaps hold values (freed by a reset before the next chunk).
  let heap = false;
  for (let at = 0, k = 0; at < b.length; at += CHUNK_ROWS, k++) {
    if (k > 0 && k % CHUNKS_PER_SLICE === 0) {
      // The appender's rows go into the table's transaction-local storage a slice at a time.
      a.flushSync();
      await new Promise<void>((r) => setImmediate(r));
    }
    if (heap) {
      duckdb.data_chunk_reset(raw);
      heap = false;
      dirty.fill(true);
    }
    const n = Math.min(CHUNK_ROWS, b.length - at);
    duckdb.data_chunk_set_size(raw, n);
    for (let j = 0; j < b.columns.length; j++) {
      const c = b.columns[j]!;
      const vec = duckdb.data_chunk_get_vector(raw, j);
      if (c.kind === 'STRING') {
        const cells = c.cells;
        if (cells) {
          const long = cells.long;
          // The first long row at or after `at` (binary search: `long` is ascending).
          let lo = 0;
          let hi = long.length;
          while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (long[mid]! < at) lo = mid + 1;
            else hi = mid;
          }
          let end = lo;
          while (end < long.length && long[end]! < at + n) end++;
          if (end > lo) {
            heap = true;
            // Row 0 holds the chunk's bytes for a moment (pointLongCells); its validity is written again below.
            dirty[j] = true;
          }
          const pointed = end > lo && pointLongCells(vec, cells, at, n, lo, end);
          duckdb.copy_data_to_vector(vec, 0, cells.inline.buffer as ArrayBuffer, cells.inline.byteOffset + 16 * at, 16 * n);
          for (let q = lo; q < end; q++) {
            const i = long[q]!;
            // The cell back to zeros (never a pointer into a freed heap), or the value assigned on its own.
            if (pointed) cells.inline.fill(0, 16 * i, 16 * i + 16);
            else duckdb.vector_assign_string_element_len(vec, i - at, cells.bytes.subarray(cells.offsets[i]!, cells.offsets[i + 1]!));
          }
        } else {
          const values = c.values;
          for (let i = 0; i < n; i++) {
            const v = values[at + i];
            if (v === null || v === undefined) continue;
            duckdb.vector_assign_string_element(vec, i, v);
            // At most 3 UTF-8 bytes per UTF-16 unit: more than 4 units may exceed the 12 inline bytes.
            if (v.length > 4) heap = true;
          }
        }
      } else {
        const width = c.kind === 'BOOL' ? 1 : 8;
        duckdb.copy_data_to_vector(vec, 0, c.values.buffer as ArrayBuffer, c.values.byteOffset + width * at, width * n);
      }
      dirty[j] = writeValidity(vec, validity[j], at, n, dirty[j]!, mask);
    }
    a.appendDataChunk(chunk);
  }
  a.flushSync();
  return true;
}
