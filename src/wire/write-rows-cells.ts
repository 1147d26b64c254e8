/**
 * A STRING column of a columnar write batch (src/wire/write-rows-columnar.ts) kept as UTF-8 bytes
 * instead of JS strings, with its cells already in the layout DuckDB's C API gives a VARCHAR
 * vector's data (`duckdb_string_t` in duckdb.h: 16 bytes per row, a uint32 length, then the value
 * inline when it is at most 12 bytes, else a 4-byte prefix and a pointer). The inline cells are
 * built here — in the decoding worker (write-rows-worker.ts) or from an Arrow batch's buffers — so
 * the thread that appends to DuckDB (src/engine/storage-write-chunks.ts) copies a chunk's cells in
 * one memory copy and assigns only the longer values one by one.
 *
 * Only for little-endian machines (the columnar path requires it, write-rows-columnar.ts) and
 * valid UTF-8 (a caller whose bytes may not be checks first: DuckDB stores what it is given).
 */
import { isAscii, isUtf8 } from 'node:buffer';
import type { Data } from 'apache-arrow';

/** The longest value DuckDB keeps inline in its 16-byte string cell (duckdb.h `duckdb_string_t`). */
export const INLINE_STRING_BYTES = 12;

/** A STRING column as UTF-8 bytes and DuckDB string cells. */
export interface StringCells {
  /** UTF-8 bytes of the values, back to back. */
  readonly bytes: Uint8Array;
  /** Rows + 1 byte offsets into `bytes` (row i is bytes[offsets[i], offsets[i + 1])). */
  readonly offsets: Int32Array;
  /** Per row: 1 = a value, 0 = NULL. */
  readonly valid: Uint8Array;
  /**
   * 16 bytes per row: the row's length (uint32, little-endian) and, for a value of at most
   * INLINE_STRING_BYTES bytes, the value, zero-padded (DuckDB compares inline cells as whole
   * words). A longer value's cell is zeros (an empty inline string, never a length without its
   * pointer): it is assigned by the appending side. A NULL row's cell is zeros.
   */
  readonly inline: Uint8Array;
  /** The rows (ascending) whose value is longer than INLINE_STRING_BYTES. */
  readonly long: Int32Array;
  /** UTF-8 bytes of the non-NULL values. */
  readonly utf8Bytes: number;
  /** Non-NULL rows. */
  readonly set: number;
}

/**
 * The string cells of `rows` values given as UTF-8 `bytes` with `offsets` (rows + 1) and `valid`
 * (1 per set row). Cost: one pass over the rows, copying at most 12 bytes each.
 */
export function stringCells(bytes: Uint8Array, offsets: Int32Array, valid: Uint8Array): StringCells {
  const n = valid.length;
  const inline = new Uint8Array(16 * n);
  const lengths = new Uint32Array(inline.buffer, 0, 4 * n);
  const long: number[] = [];
  let utf8Bytes = 0;
  let set = 0;
  for (let i = 0; i < n; i++) {
    if (!valid[i]) continue;
    const from = offsets[i]!;
    const length = offsets[i + 1]! - from;
    utf8Bytes += length;
    set++;
    if (length > INLINE_STRING_BYTES) {
      long.push(i);
      continue;
    }
    lengths[4 * i] = length;
    const at = 16 * i + 4;
    for (let k = 0; k < length; k++) inline[at + k] = bytes[from + k]!;
  }
  return { bytes, offsets, valid, inline, long: Int32Array.from(long), utf8Bytes, set };
}

/**
 * The string cells of JS string `values` (null/undefined = NULL), in one pass: an ASCII value is
 * written byte by byte from its char codes, any other through Buffer's UTF-8 encoder. Per 1M
 * short ASCII values about a third of Buffer.byteLength + write + stringCells.
 */
export function stringCellsOf(values: readonly (string | null | undefined)[]): StringCells {
  const n = values.length;
  let units = 0;
  for (let i = 0; i < n; i++) units += values[i]?.length ?? 0;
  let bytes = Buffer.allocUnsafeSlow(units + 64);
  const offsets = new Int32Array(n + 1);
  const valid = new Uint8Array(n);
  const inline = new Uint8Array(16 * n);
  const lengths = new Uint32Array(inline.buffer, 0, 4 * n);
  const long: number[] = [];
  let pos = 0;
  let set = 0;
  for (let i = 0; i < n; i++) {
    offsets[i] = pos;
    const v = values[i];
    if (v === null || v === undefined) continue;
    valid[i] = 1;
    set++;
    const length = v.length;
    let k = 0;
    if (pos + length <= bytes.length)
      for (; k < length; k++) {
        const ch = v.charCodeAt(k);
        if (ch >= 0x80) break;
        bytes[pos + k] = ch;
      }
    let written = length;
    if (k < length) {
      if (pos + 3 * length > bytes.length) {
        const grown = Buffer.allocUnsafeSlow(Math.max(2 * bytes.length, pos + 3 * length));
        bytes.copy(grown, 0, 0, pos);
        bytes = grown;
      }
      written = bytes.write(v, pos, 'utf8');
    }
    if (written > INLINE_STRING_BYTES) long.push(i);
    else {
      lengths[4 * i] = written;
      const at = 16 * i + 4;
      for (let b = 0; b < written; b++) inline[at + b] = bytes[pos + b]!;
    }
    pos += written;
  }
  offsets[n] = pos;
  return { bytes: bytes.subarray(0, pos), offsets, valid, inline, long: Int32Array.from(long), utf8Bytes: pos, set };
}

/** The values of `c` as JS strings (NULL = null), decoded once when a caller needs rows. */
export function cellStrings(c: StringCells): (string | null)[] {
  const n = c.valid.length;
  const out = new Array<string | null>(n);
  const buf = Buffer.from(c.bytes.buffer, c.bytes.byteOffset, c.bytes.byteLength);
  if (isAscii(buf)) {
    // ASCII: byte offsets are character offsets, so one decoded string is cut into the cells.
    const text = buf.toString('latin1');
    for (let i = 0; i < n; i++) out[i] = c.valid[i] ? text.substring(c.offsets[i]!, c.offsets[i + 1]!) : null;
  } else for (let i = 0; i < n; i++) out[i] = c.valid[i] ? buf.toString('utf8', c.offsets[i]!, c.offsets[i + 1]!) : null;
  return out;
}

/**
 * An Arrow utf8 column (the only record batch of a request) as string cells over its own buffers,
 * marking `valid`; undefined when its bytes are not valid UTF-8 (the caller then decodes them to
 * JS strings as before: DuckDB would store invalid bytes as they are). Cost: one UTF-8
 * check of the bytes and one pass over the rows.
 */
export function arrowStringCells(data: Data, valid: Uint8Array): StringCells | undefined {
  const n = data.length;
  const o = data.valueOffsets as Int32Array;
  const all = data.values as Uint8Array;
  const from = o[data.offset]!;
  const bytes = all.subarray(from, o[data.offset + n]!);
  if (!isUtf8(bytes)) return undefined;
  const bitmap = data.nullCount > 0 ? data.nullBitmap : undefined;
  for (let i = 0; i < n; i++) {
    const k = data.offset + i;
    valid[i] = !bitmap || (bitmap[k >> 3]! & (1 << (k & 7))) !== 0 ? 1 : 0;
  }
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) offsets[i] = o[data.offset + i]! - from;
  return stringCells(bytes, offsets, valid);
}
