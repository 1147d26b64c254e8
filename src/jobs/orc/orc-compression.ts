/**
 * ORC's compression of the footer, metadata, stripe footers and streams (Apache ORC
 * specification v1, "Compression", https://orc.apache.org/specification/ORCv1/): with a codec
 * other than NONE, a compressed stream is a sequence of chunks, each led by a 3-byte
 * little-endian header `chunkLength * 2 + isOriginal`; an "original" chunk holds its bytes
 * uncompressed, any other is one block of the codec:
 * - ZLIB: raw deflate without a zlib header (node's `inflateRawSync`);
 * - SNAPPY: one raw Snappy block (format description of the Snappy project: a varint of the
 *   uncompressed length, then literal and copy elements), decoded here;
 * - LZ4: one raw LZ4 block (LZ4 block format: sequences of a token, literals and a 2-byte
 *   match offset), decoded here;
 * - ZSTD: one Zstandard frame (`zstd-napi`);
 * - LZO is refused (no maintained decoder for Node).
 * Decoders throw plain Errors; load-orc.ts turns them into the load job's reading error.
 */
import zlib from 'node:zlib';
import { decompress as zstdDecompress } from 'zstd-napi';

/** A malformed ORC file: the decoder's message, turned into BigQuery's reading error by load-orc.ts. */
export class OrcFormatError extends Error {}

/** Throws an OrcFormatError unless `ok`. */
export function orcCheck(ok: unknown, message: string): asserts ok {
  if (!ok) throw new OrcFormatError(message);
}

/** Decodes one raw Snappy block of at most `maxLength` bytes. */
export function snappyDecode(src: Uint8Array, maxLength = 1 << 24): Uint8Array {
  let pos = 0;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    orcCheck(pos < src.length && shift < 35, 'Snappy block: bad length');
    const b = src[pos++];
    length += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  orcCheck(length <= maxLength, `Snappy block: ${length} bytes, more than the compression block size`);
  const out = new Uint8Array(length);
  let o = 0;
  while (pos < src.length) {
    const tag = src[pos++];
    const type = tag & 3;
    if (type === 0) {
      let len = tag >>> 2;
      if (len >= 60) {
        const n = len - 59;
        len = 0;
        for (let k = 0; k < n; k++) len += src[pos++] * 2 ** (8 * k);
      }
      len += 1;
      orcCheck(pos + len <= src.length && o + len <= length, 'Snappy block: literal past the end');
      out.set(src.subarray(pos, pos + len), o);
      pos += len;
      o += len;
      continue;
    }
    let len: number;
    let offset: number;
    if (type === 1) {
      len = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | src[pos++];
    } else if (type === 2) {
      len = (tag >>> 2) + 1;
      offset = src[pos] | (src[pos + 1] << 8);
      pos += 2;
    } else {
      len = (tag >>> 2) + 1;
      offset = (src[pos] | (src[pos + 1] << 8) | (src[pos + 2] << 16)) + src[pos + 3] * 2 ** 24;
      pos += 4;
    }
    orcCheck(offset > 0 && offset <= o && o + len <= length, 'Snappy block: bad copy');
    for (let k = 0; k < len; k++, o++) out[o] = out[o - offset];
  }
  orcCheck(o === length, 'Snappy block: short output');
  return out;
}

/** Decodes one raw LZ4 block whose output is at most `maxLength` bytes. */
export function lz4BlockDecode(src: Uint8Array, maxLength: number): Uint8Array {
  const out = new Uint8Array(maxLength);
  let pos = 0;
  let o = 0;
  while (pos < src.length) {
    const token = src[pos++];
    let lit = token >>> 4;
    if (lit === 15) {
      let b: number;
      do {
        b = src[pos++];
        lit += b;
      } while (b === 255 && pos < src.length);
    }
    orcCheck(pos + lit <= src.length && o + lit <= maxLength, 'LZ4 block: literal past the end');
    out.set(src.subarray(pos, pos + lit), o);
    pos += lit;
    o += lit;
    if (pos >= src.length) break; // the last sequence has literals only
    const offset = src[pos] | (src[pos + 1] << 8);
    pos += 2;
    let len = token & 15;
    if (len === 15) {
      let b: number;
      do {
        b = src[pos++];
        len += b;
      } while (b === 255 && pos < src.length);
    }
    len += 4;
    orcCheck(offset > 0 && offset <= o && o + len <= maxLength, 'LZ4 block: bad match');
    for (let k = 0; k < len; k++, o++) out[o] = out[o - offset];
  }
  return out.subarray(0, o);
}

/** The codec names of PostScript.compression this reader decodes. */
const CODECS = new Set(['NONE', 'ZLIB', 'SNAPPY', 'LZ4', 'ZSTD']);

/** Whether a PostScript compression kind can be read. */
export const supportedCompression = (kind: string): boolean => CODECS.has(kind);

/**
 * The bytes of a compressed ORC stream (the chunk sequence) as one buffer.
 * @param kind PostScript.compression (NONE returns `data` itself)
 * @param blockSize PostScript.compressionBlockSize: the most bytes one chunk decompresses to
 * @throws OrcFormatError for a chunk header past the end or a block that does not decode
 */
export function decompressStream(data: Uint8Array, kind: string, blockSize: number): Uint8Array {
  if (kind === 'NONE') return data;
  // A chunk decompresses to at most the block size (writers' default 256 KiB; 16 MiB at most here).
  const max = Math.min(Math.max(blockSize, 1 << 18), 1 << 24);
  const parts: Uint8Array[] = [];
  let pos = 0;
  while (pos < data.length) {
    orcCheck(pos + 3 <= data.length, 'truncated compression chunk header');
    const header = data[pos] | (data[pos + 1] << 8) | (data[pos + 2] << 16);
    const length = header >>> 1;
    pos += 3;
    orcCheck(pos + length <= data.length, 'compression chunk past the end of its stream');
    const chunk = data.subarray(pos, pos + length);
    pos += length;
    if (header & 1) {
      parts.push(chunk);
      continue;
    }
    try {
      if (kind === 'ZLIB') parts.push(zlib.inflateRawSync(chunk, { maxOutputLength: max }));
      else if (kind === 'SNAPPY') parts.push(snappyDecode(chunk, max));
      else if (kind === 'LZ4') parts.push(lz4BlockDecode(chunk, max));
      else parts.push(zstdDecompress(chunk));
    } catch (e) {
      if (e instanceof OrcFormatError) throw e;
      throw new OrcFormatError(`${kind} chunk does not decompress: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (parts.length === 1) return parts[0];
  return Buffer.concat(parts);
}
