/**
 * Proto STRING fields of the columnar fast path (src/wire/write-rows-columnar.ts) read as their
 * UTF-8 bytes instead of JS strings: protobufjs decodes the rows with a copy of the writer schema
 * whose `string` fields are `bytes` — the same wire format (length-delimited, protobuf encoding
 * guide https://protobuf.dev/programming-guides/encoding/#length-types) — read by a
 * {@link SpanReader}, which notes where each value lies in the request's buffer instead of making
 * a view of it, and the column's DuckDB string cells (src/wire/write-rows-cells.ts) are built from
 * those bytes. Reading a string to a JS string and writing it back to UTF-8 for
 * DuckDB cost about 0.6 s of the decoding worker's CPU per 1M rows of (INT64, FLOAT64, STRING)
 * (bench --only write, --cpu-prof: utf8_read, read_string, stringCellsOf).
 *
 * A value whose bytes are not valid UTF-8 leaves the batch to the path that reads strings
 * ({@link StringSpans.cells} gives undefined), as proto3 requires `string` fields to be valid UTF-8
 * and DuckDB would store the bytes as they are.
 */
import { isUtf8 } from 'node:buffer';
import protobuf from 'protobufjs';
import { INLINE_STRING_BYTES, type StringCells } from './write-rows-cells.js';

/**
 * A copy of the message type `type` whose fields named in `names` (`string` fields) are `bytes`,
 * in a root of its own; undefined when `type` cannot be copied so (a field referring to another
 * type: the fast path takes none).
 */
export function bytesTyped(type: protobuf.Type, names: readonly string[]): protobuf.Type | undefined {
  try {
    const json = type.toJSON() as protobuf.IType;
    for (const n of names) json.fields[n]!.type = 'bytes';
    const copy = protobuf.Type.fromJSON(type.name, json);
    new protobuf.Root().add(copy);
    copy.resolveAll();
    return copy;
  } catch {
    return undefined;
  }
}

/**
 * A protobufjs Reader whose `bytes()` — what protobufjs's generated decoder calls for a `bytes`
 * field — reads the length and checks the bounds as protobufjs's `Reader#bytes` does, but instead
 * of a view of the value (a Uint8Array per value, and its garbage) it notes where the value lies
 * and returns the span's number: the decoded message's field holds that number, read back with
 * {@link SpanReader.start} and {@link SpanReader.length}. Numbers restart at 0 with
 * {@link SpanReader.nextMessage}, before each row message.
 */
export class SpanReader extends protobuf.Reader {
  private starts = new Int32Array(16);
  private lengths = new Int32Array(16);
  private count = 0;

  /** Forgets the spans of the message before (call before decoding each row message). */
  nextMessage(): void {
    this.count = 0;
  }

  /** Where span `k` starts in the reader's buffer (bytes). */
  start(k: number): number {
    return this.starts[k]!;
  }

  /** Span `k`'s length (bytes). */
  length(k: number): number {
    return this.lengths[k]!;
  }

  /** The next length-delimited value's span number (typed as protobufjs declares the method). */
  override bytes(): Uint8Array {
    const length = this.uint32();
    const start = this.pos;
    const end = start + length;
    if (end > this.len) throw RangeError(`index out of range: ${start} + ${length} > ${this.len}`);
    this.pos = end;
    if (this.count === this.starts.length) {
      const starts = new Int32Array(2 * this.count);
      const lengths = new Int32Array(2 * this.count);
      starts.set(this.starts);
      lengths.set(this.lengths);
      this.starts = starts;
      this.lengths = lengths;
    }
    this.starts[this.count] = start;
    this.lengths[this.count] = length;
    return this.count++ as unknown as Uint8Array;
  }
}

/** Where the values of one STRING column lie in a request's buffer, row by row. */
export class StringSpans {
  private readonly starts: Int32Array;
  private readonly lengths: Int32Array;
  private bytes = 0;

  /** Spans of `rows` rows of values inside `source` (the buffer a {@link SpanReader} reads). */
  constructor(
    private readonly source: Uint8Array,
    rows: number,
  ) {
    this.starts = new Int32Array(rows);
    this.lengths = new Int32Array(rows);
  }

  /** Notes row `r`'s value: `length` bytes at `start` of the source (a second value of a row replaces the first). */
  set(r: number, start: number, length: number): void {
    this.bytes += length - this.lengths[r]!;
    this.starts[r] = start;
    this.lengths[r] = length;
  }

  /**
   * The column's string cells (`valid`: 1 per row with a value): the values copied back to back,
   * and each value of at most INLINE_STRING_BYTES bytes into its inline cell in the same pass;
   * undefined when they are not valid UTF-8.
   */
  cells(valid: Uint8Array): StringCells | undefined {
    const n = valid.length;
    const src = this.source;
    const bytes = new Uint8Array(this.bytes);
    const offsets = new Int32Array(n + 1);
    const inline = new Uint8Array(16 * n);
    const lengths = new Uint32Array(inline.buffer, 0, 4 * n);
    const long: number[] = [];
    let set = 0;
    let pos = 0;
    for (let i = 0; i < n; i++) {
      offsets[i] = pos;
      if (!valid[i]) continue;
      set++;
      const from = this.starts[i]!;
      const length = this.lengths[i]!;
      // A value starting inside a character is not valid UTF-8 (and could make the values' bytes
      // back to back valid, which is checked once below).
      if (length && (src[from]! & 0xc0) === 0x80) return undefined;
      if (length > INLINE_STRING_BYTES) {
        bytes.set(src.subarray(from, from + length), pos);
        long.push(i);
      } else {
        // Short values byte by byte (a subarray per value costs more than the copy), also into the cell.
        lengths[4 * i] = length;
        const at = 16 * i + 4;
        for (let k = 0; k < length; k++) {
          const b = src[from + k]!;
          bytes[pos + k] = b;
          inline[at + k] = b;
        }
      }
      pos += length;
    }
    offsets[n] = pos;
    if (!isUtf8(bytes)) return undefined;
    return { bytes, offsets, valid, inline, long: Int32Array.from(long), utf8Bytes: pos, set };
  }
}
