/**
 * ORC's compression of the footer, metadata, stripe footers and streams (Apache ORC
 * specification v1, "Compression", https://orc.apache.org/specification/ORCv1/): with a codec
 * other than NONE, a compressed stream is a sequence of chunks, each led by a 3-byte
 * little-endian header `chunkLength * 2 + isOriginal`; an "original" chunk holds its bytes
 * uncompressed, any other is one block of the codec:
 * - ZLIB: raw deflate without a zlib header (node's `inflateRawSync`);
 * - SNAPPY: one raw Snappy block (`snappyjs`);
 * - LZ4: one raw LZ4 block, no frame (`lz4js`'s block decoder);
 * - ZSTD: one Zstandard frame (`zstd-napi`);
 * - LZO is refused (no maintained decoder for Node).
 * Decoders throw plain Errors; load-orc.ts turns them into the load job's reading error.
 */
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import * as snappy from 'snappyjs';
import * as lz4 from 'lz4js';

const require = createRequire(import.meta.url);
let zstdNapi: typeof import('zstd-napi') | undefined;
/**
 * Zstandard's decoder (`zstd-napi`, a native addon), loaded at the first ZSTD chunk: only ORC
 * files compressed with it need it, and loading it cost ~5 ms of every cold start
 * (bench/results/2026-11-27-cold-start-2.md). A package of its own (not in the command-line
 * bundle): the same instance an import would give.
 */
const zstdDecompress = (chunk: Uint8Array) => (zstdNapi ??= require('zstd-napi') as typeof import('zstd-napi')).decompress(chunk);

/** A malformed ORC file: the decoder's message, turned into BigQuery's reading error by load-orc.ts. */
export class OrcFormatError extends Error {}

/** Throws an OrcFormatError unless `ok`. */
export function orcCheck(ok: unknown, message: string): asserts ok {
  if (!ok) throw new OrcFormatError(message);
}

/**
 * Decodes one raw Snappy block of at most `maxLength` bytes (`snappyjs`).
 * @throws OrcFormatError for a block that does not decode or is larger than `maxLength`
 */
export function snappyDecode(src: Uint8Array, maxLength = 1 << 24): Uint8Array {
  try {
    return snappy.uncompress(src, maxLength);
  } catch (e) {
    throw new OrcFormatError(`Snappy block: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Decodes one raw LZ4 block whose output is at most `maxLength` bytes (`lz4js`).
 * @throws OrcFormatError for a block that decodes to more than `maxLength` bytes
 */
export function lz4BlockDecode(src: Uint8Array, maxLength: number): Uint8Array {
  const out = new Uint8Array(maxLength);
  const end = lz4.decompressBlock(src, out, 0, src.length, 0);
  // lz4js does not bound its writes: a block that would overrun the output is a corrupt chunk.
  orcCheck(Number.isInteger(end) && end >= 0 && end <= maxLength, 'LZ4 block: output past the compression block size');
  return out.subarray(0, end);
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
