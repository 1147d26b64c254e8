/**
 * ORC's run-length encodings (Apache ORC specification v1, "Run Length Encoding",
 * https://orc.apache.org/specification/ORCv1/):
 * - byte RLE: a control byte 0..127 is a run of control+3 copies of the next byte; -128..-1 is
 *   that many literal bytes;
 * - boolean RLE: byte RLE of bytes whose bits, most significant first, are the values;
 * - integer RLE v1: a control byte 0..127 is a run of control+3 values `base + i * delta`
 *   (delta a signed byte, base a varint); -128..-1 is that many literal varints;
 * - integer RLE v2: the top two bits of the first byte choose SHORT_REPEAT, DIRECT,
 *   PATCHED_BASE or DELTA; values are bit-packed big-endian, each run starting on a byte.
 * Signed integers are zigzag-encoded in varints and in SHORT_REPEAT / DIRECT / DELTA bases;
 * PATCHED_BASE's base is sign-magnitude. Column values are bigint (ORC integers are 64-bit);
 * lengths, indexes, days, seconds and scales are read as numbers (numberRle). Readers are
 * resumable (RunReader), so a stripe's streams are read a slice of rows at a time.
 */
import { OrcFormatError, orcCheck } from './orc-compression.js';

/** A cursor over a decompressed stream. */
export class StreamReader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  /** The next byte. @throws OrcFormatError past the end of the stream. */
  byte(): number {
    if (this.pos >= this.buf.length) throw new OrcFormatError('read past the end of a stream');
    return this.buf[this.pos++];
  }

  /** An unsigned base-128 varint of any length (ORC's decimal values are unbounded varints). */
  varint(): bigint {
    let lo = 0;
    let shift = 0;
    let b: number;
    // Up to 49 bits in a number, the rest in a bigint.
    do {
      b = this.byte();
      lo += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80 && shift < 49);
    if (!(b & 0x80)) return BigInt(lo);
    let v = BigInt(lo);
    let s = BigInt(shift);
    do {
      b = this.byte();
      v |= BigInt(b & 0x7f) << s;
      s += 7n;
    } while (b & 0x80);
    return v;
  }

  /** A zigzag-encoded signed varint. */
  signedVarint(): bigint {
    return unzigzag(this.varint());
  }

  /** `n` bytes as a big-endian unsigned integer. */
  bigEndian(n: number): bigint {
    let v = 0n;
    for (let k = 0; k < n; k++) v = (v << 8n) | BigInt(this.byte());
    return v;
  }

  /** `count` unsigned integers of `width` bits, packed big-endian from the current byte; the last byte's spare bits are skipped. */
  bits(width: number, count: number, out: bigint[]): void {
    let cur = 0;
    let avail = 0;
    for (let i = 0; i < count; i++) {
      let need = width;
      if (width <= 48) {
        let v = 0;
        while (need > 0) {
          if (avail === 0) ((cur = this.byte()), (avail = 8));
          const take = need < avail ? need : avail;
          v = v * 2 ** take + ((cur >>> (avail - take)) & ((1 << take) - 1));
          avail -= take;
          need -= take;
        }
        out.push(BigInt(v));
      } else {
        let v = 0n;
        while (need > 0) {
          if (avail === 0) ((cur = this.byte()), (avail = 8));
          const take = need < avail ? need : avail;
          v = (v << BigInt(take)) | BigInt((cur >>> (avail - take)) & ((1 << take) - 1));
          avail -= take;
          need -= take;
        }
        out.push(v);
      }
    }
  }
}

/** Zigzag decoding: 0, 1, 2, 3 → 0, -1, 1, -2. */
export const unzigzag = (v: bigint): bigint => (v & 1n ? -((v + 1n) >> 1n) : v >> 1n);

/**
 * A resumable reader of a run-length encoded stream: `run` decodes the next whole run; values
 * beyond a request wait for the next one (a stripe's column is read a slice of rows at a time).
 */
export class RunReader<T> {
  private pending: T[] = [];
  private at = 0;
  constructor(private readonly run: (out: T[]) => void) {}

  /** The next `n` values. @throws OrcFormatError when the stream ends early or a run is malformed. */
  next(n: number): T[] {
    const out = new Array<T>(n);
    let i = 0;
    while (i < n) {
      if (this.at >= this.pending.length) {
        this.pending = [];
        this.at = 0;
        this.run(this.pending);
        orcCheck(this.pending.length > 0, 'an empty run');
      }
      const end = Math.min(n, i + this.pending.length - this.at);
      while (i < end) out[i++] = this.pending[this.at++];
    }
    return out;
  }
}

/** A byte-RLE stream (tinyint columns, union tags, and under boolean RLE). */
export function byteRle(r: StreamReader): RunReader<number> {
  return new RunReader<number>((out) => {
    const c = r.byte();
    if (c < 128) {
      const v = r.byte();
      for (let k = c + 3; k > 0; k--) out.push(v);
    } else for (let k = 256 - c; k > 0; k--) out.push(r.byte());
  });
}

/** A boolean-RLE stream (PRESENT streams, boolean columns): byte RLE, eight values a byte, most significant bit first. */
export function booleanRle(r: StreamReader): RunReader<boolean> {
  const bytes = byteRle(r);
  return new RunReader<boolean>((out) => {
    const b = bytes.next(1)[0];
    for (let k = 7; k >= 0; k--) out.push(((b >>> k) & 1) === 1);
  });
}

/** Reads `n` bytes of a byte-RLE stream. @throws OrcFormatError when the stream ends early. */
export function readByteRle(r: StreamReader, n: number): Uint8Array {
  return Uint8Array.from(byteRle(r).next(n));
}

/** Reads `n` booleans of a boolean-RLE stream. */
export function readBooleans(r: StreamReader, n: number): boolean[] {
  return booleanRle(r).next(n);
}

/** RLE v2 bit widths by their 5-bit code. */
const WIDTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 28, 30, 32, 40, 48, 56, 64];

/** The smallest RLE v2 bit width that holds `n` bits. */
const closestFixedBits = (n: number): number => WIDTHS.find((w) => w >= n) ?? 64;

/** One integer RLE v1 run (a repeat of control+3 values, or -control literals). */
function readV1Run<T>(r: StreamReader, signed: boolean, out: T[], conv: (v: bigint) => T): void {
  const c = r.byte();
  if (c < 128) {
    const delta = BigInt((r.byte() << 24) >> 24);
    const base = signed ? r.signedVarint() : r.varint();
    for (let k = 0; k < c + 3; k++) out.push(conv(base + BigInt(k) * delta));
  } else {
    for (let k = 256 - c; k > 0; k--) out.push(conv(signed ? r.signedVarint() : r.varint()));
  }
}

const asBigint = (v: bigint): bigint => v;

function readV2Run(r: StreamReader, signed: boolean, out: bigint[]): void {
  const b0 = r.byte();
  const kind = b0 >>> 6;
  if (kind === 0) {
    // SHORT_REPEAT
    const width = ((b0 >>> 3) & 7) + 1;
    const count = (b0 & 7) + 3;
    let v = r.bigEndian(width);
    if (signed) v = unzigzag(v);
    for (let k = 0; k < count; k++) out.push(v);
    return;
  }
  const length = (((b0 & 1) << 8) | r.byte()) + 1;
  const code = (b0 >>> 1) & 0x1f;
  if (kind === 1) {
    // DIRECT
    const start = out.length;
    r.bits(WIDTHS[code], length, out);
    if (signed) for (let k = start; k < out.length; k++) out[k] = unzigzag(out[k]);
    return;
  }
  if (kind === 2) {
    // PATCHED_BASE
    const width = WIDTHS[code];
    const b2 = r.byte();
    const b3 = r.byte();
    const baseBytes = ((b2 >>> 5) & 7) + 1;
    const patchWidth = WIDTHS[b2 & 0x1f];
    const gapWidth = ((b3 >>> 5) & 7) + 1;
    const patchCount = b3 & 0x1f;
    let base = r.bigEndian(baseBytes);
    const sign = 1n << BigInt(baseBytes * 8 - 1);
    if (base & sign) base = -(base & (sign - 1n));
    const values: bigint[] = [];
    r.bits(width, length, values);
    const patches: bigint[] = [];
    r.bits(closestFixedBits(gapWidth + patchWidth), patchCount, patches);
    const pw = BigInt(patchWidth);
    const mask = (1n << pw) - 1n;
    let idx = 0;
    for (const p of patches) {
      const gap = Number(p >> pw);
      const patch = p & mask;
      idx += gap;
      if (gap === 255 && patch === 0n) continue;
      orcCheck(idx < length, 'RLE v2 patch past the end of its run');
      values[idx] |= patch << BigInt(width);
    }
    for (const v of values) out.push(base + v);
    return;
  }
  // DELTA
  const width = code === 0 ? 0 : WIDTHS[code];
  let v = signed ? r.signedVarint() : r.varint();
  const delta = r.signedVarint();
  out.push(v);
  if (length === 1) return;
  v += delta;
  out.push(v);
  if (width === 0) {
    for (let k = 2; k < length; k++) out.push((v += delta));
    return;
  }
  const deltas: bigint[] = [];
  r.bits(width, length - 2, deltas);
  for (const d of deltas) out.push((v += delta < 0n ? -d : d));
}

/**
 * An integer-RLE stream of 64-bit values.
 * @param v2 RLE v2 (column encodings DIRECT_V2 / DICTIONARY_V2), else v1
 * @param signed zigzag-decoded values (signed columns), else unsigned (lengths, indexes)
 */
export function integerRle(r: StreamReader, v2: boolean, signed: boolean): RunReader<bigint> {
  return new RunReader<bigint>(v2 ? (out) => readV2Run(r, signed, out) : (out) => readV1Run(r, signed, out, asBigint));
}

/** Reads `n` integers of an integer-RLE stream (integerRle). */
export function readIntegers(r: StreamReader, n: number, v2: boolean, signed: boolean): bigint[] {
  return integerRle(r, v2, signed).next(n);
}

/** Zigzag decoding of a number below 2^53. */
const unzigzagNumber = (v: number): number => (v % 2 ? -(v + 1) / 2 : v / 2);

/** `count` unsigned integers of `width` bits as numbers (wider than 48 bits: through bigint). */
function bitNumbers(r: StreamReader, width: number, count: number, out: number[]): void {
  if (width > 48) {
    const big: bigint[] = [];
    r.bits(width, count, big);
    for (const v of big) out.push(Number(v));
    return;
  }
  let cur = 0;
  let avail = 0;
  const { buf } = r;
  for (let i = 0; i < count; i++) {
    let need = width;
    let v = 0;
    while (need > 0) {
      if (avail === 0) {
        if (r.pos >= buf.length) throw new OrcFormatError('read past the end of a stream');
        cur = buf[r.pos++];
        avail = 8;
      }
      const take = need < avail ? need : avail;
      v = v * 2 ** take + ((cur >>> (avail - take)) & ((1 << take) - 1));
      avail -= take;
      need -= take;
    }
    out.push(v);
  }
}

/** One RLE v2 run as numbers (the same layouts as readV2Run). */
function readV2RunNumbers(r: StreamReader, signed: boolean, out: number[]): void {
  const b0 = r.byte();
  const kind = b0 >>> 6;
  if (kind !== 1) {
    // SHORT_REPEAT, PATCHED_BASE and DELTA: rare in the streams read as numbers, decoded as bigint.
    r.pos--;
    const big: bigint[] = [];
    readV2Run(r, signed, big);
    for (const v of big) out.push(Number(v));
    return;
  }
  const length = (((b0 & 1) << 8) | r.byte()) + 1;
  const start = out.length;
  bitNumbers(r, WIDTHS[(b0 >>> 1) & 0x1f], length, out);
  if (signed) for (let k = start; k < out.length; k++) out[k] = unzigzagNumber(out[k]);
}

/**
 * An integer-RLE stream read as numbers, for values well within 2^53: lengths, dictionary
 * indexes, days, seconds, nanoseconds, decimal scales.
 */
export function numberRle(r: StreamReader, v2: boolean, signed: boolean): RunReader<number> {
  return new RunReader<number>(v2 ? (out) => readV2RunNumbers(r, signed, out) : (out) => readV1Run(r, signed, out, Number));
}

/** Reads `n` integers of an integer-RLE stream as numbers (numberRle). */
export function readNumbers(r: StreamReader, n: number, v2: boolean, signed: boolean): number[] {
  return numberRle(r, v2, signed).next(n);
}
