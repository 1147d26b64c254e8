/**
 * An ORC file's layout (Apache ORC specification v1, "File Tail" and "Stripes",
 * https://orc.apache.org/specification/ORCv1/): the file starts with the magic `ORC`; its last
 * byte is the PostScript's length, the PostScript (never compressed) precedes it, the Footer
 * (compressed with the PostScript's codec) precedes that. Each stripe is its index streams,
 * its data streams and its StripeFooter, at the offsets the Footer lists; the StripeFooter
 * lists the streams in the order they are stored, each compressed on its own.
 */
import { decodeFooter, decodePostScript, decodeStripeFooter, type ColumnEncoding, type Footer, type PostScript, type StripeInformation } from './orc-proto.js';
import { BigQueryError } from '../../errors/errors.js';
import { OrcFormatError, decompressStream, orcCheck, supportedCompression } from './orc-compression.js';

/** A parsed file tail. */
export interface OrcFile {
  buf: Uint8Array;
  postScript: PostScript;
  footer: Footer;
}

/** A stripe's decompressed streams (by `column:KIND`), its column encodings and the writer's time zone. */
export interface OrcStripe {
  rows: number;
  streams: Map<string, Uint8Array>;
  encodings: ColumnEncoding[];
  writerTimezone: string;
}

/** protobufjs's decode of bytes that are not the message: turned into the decoder's error. */
function decodeOr<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof OrcFormatError) throw e;
    throw new OrcFormatError(`malformed ${what}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Reads the tail of an ORC file.
 * @throws OrcFormatError when the file is not ORC (no `ORC` magic), is truncated, declares a
 *   format version other than 0.x / 1.x, or has a malformed PostScript / Footer;
 *   BigQueryError invalid for a codec this reader does not decode (LZO)
 */
export function openOrc(buf: Uint8Array): OrcFile {
  orcCheck(buf.length > 4, buf.length === 0 ? 'the file is empty' : 'the file is too short to be ORC');
  orcCheck(buf[0] === 0x4f && buf[1] === 0x52 && buf[2] === 0x43, 'the file does not start with the ORC magic');
  const psLength = buf[buf.length - 1];
  orcCheck(psLength > 0 && psLength + 1 < buf.length, `invalid postscript length ${psLength}`);
  const psStart = buf.length - 1 - psLength;
  const postScript = decodeOr('postscript', () => decodePostScript(buf.subarray(psStart, buf.length - 1)));
  orcCheck(postScript.magic === 'ORC', 'the postscript does not end with the ORC magic');
  if (!supportedCompression(postScript.compression)) throw BigQueryError.orcCompressionNotSupported(postScript.compression);
  const major = postScript.version[0] ?? 0;
  orcCheck(major <= 1, `unsupported ORC file version ${postScript.version.join('.')}`);
  const footerStart = psStart - postScript.footerLength - postScript.metadataLength;
  orcCheck(postScript.footerLength > 0 && footerStart >= 3, 'the footer lies outside the file');
  const footerBytes = buf.subarray(psStart - postScript.footerLength, psStart);
  const footer = decodeOr('footer', () => decodeFooter(decompressStream(footerBytes, postScript.compression, postScript.compressionBlockSize)));
  orcCheck(footer.types.length > 0, 'the footer has no types');
  // Hive 0.11 wrote decimals without a precision or scale (each value has its own): they are read
  // at scale 6, extra digits truncated — what the ORC project's expected output of its 0.11
  // example file (orc-file-11-format) shows.
  for (const t of footer.types) if (t.kind === 'DECIMAL' && !t.precision) Object.assign(t, { precision: 38, scale: 6 });
  for (const s of footer.stripes)
    orcCheck(s.offset >= 3 && s.offset + s.indexLength + s.dataLength + s.footerLength <= footerStart, 'a stripe lies outside the file');
  return { buf, postScript, footer };
}

/**
 * Reads one stripe's footer and streams.
 * @throws OrcFormatError for a malformed StripeFooter, streams past the stripe, or a column
 *   encoding list shorter than the type tree
 */
export function readStripe(file: OrcFile, info: StripeInformation): OrcStripe {
  const { buf, postScript: ps } = file;
  const footerStart = info.offset + info.indexLength + info.dataLength;
  const sf = decodeOr('stripe footer', () =>
    decodeStripeFooter(decompressStream(buf.subarray(footerStart, footerStart + info.footerLength), ps.compression, ps.compressionBlockSize)),
  );
  orcCheck(sf.columns.length >= file.footer.types.length, `the stripe footer has ${sf.columns.length} column encodings for ${file.footer.types.length} columns`);
  const streams = new Map<string, Uint8Array>();
  let pos = info.offset;
  for (const s of sf.streams) {
    orcCheck(pos + s.length <= footerStart, 'a stream lies outside its stripe');
    // Index streams (row indexes, bloom filters) are not needed to read every row.
    if (s.kind !== 'ROW_INDEX' && s.kind !== 'BLOOM_FILTER' && s.kind !== 'BLOOM_FILTER_UTF8') {
      const raw = buf.subarray(pos, pos + s.length);
      streams.set(`${s.column}:${s.kind}`, decompressStream(raw, ps.compression, ps.compressionBlockSize));
    }
    pos += s.length;
  }
  return { rows: info.numberOfRows, streams, encodings: sf.columns, writerTimezone: sf.writerTimezone };
}
