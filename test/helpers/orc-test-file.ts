/**
 * A minimal ORC file builder for tests, following the layout of the Apache ORC specification v1
 * (https://orc.apache.org/specification/ORCv1/, "File Tail", "Stripes"): `ORC`, one stripe of
 * uncompressed streams (no index streams), its StripeFooter, the Footer, the PostScript and the
 * PostScript's length byte. The callers give the streams' bytes, encoded by hand from the
 * specification's encodings, so the decoder under test is checked against the specification
 * rather than against itself. Messages are encoded with the decoder's own protobuf schema
 * (src/jobs/orc/orc-proto.ts orcMessageType).
 */
import { orcMessageType } from '../../src/jobs/orc/orc-proto.js';

/** One stream of the stripe. */
export interface TestStream {
  column: number;
  kind: 'PRESENT' | 'DATA' | 'LENGTH' | 'DICTIONARY_DATA' | 'SECONDARY';
  bytes: number[];
}

/** A file description: the type tree (Footer.types), encodings per column, streams, rows. */
export interface TestFile {
  types: { kind: string; subtypes?: number[]; fieldNames?: string[]; precision?: number; scale?: number }[];
  encodings: { kind: string; dictionarySize?: number }[];
  streams: TestStream[];
  rows: number;
  writerTimezone?: string;
  /** PostScript.compression (the streams are stored uncompressed whatever it says). */
  compression?: string;
}

/** An unsigned base-128 varint. */
export function varint(v: bigint | number): number[] {
  let x = BigInt(v);
  const out: number[] = [];
  do {
    const b = Number(x & 0x7fn);
    x >>= 7n;
    out.push(x ? b | 0x80 : b);
  } while (x);
  return out;
}

/** A zigzag-encoded signed varint. */
export const signedVarint = (v: bigint | number): number[] => {
  const x = BigInt(v);
  return varint(x < 0n ? -2n * x - 1n : 2n * x);
};

/** The bytes of an ORC file. */
export function buildOrcFile(f: TestFile): Buffer {
  const enc = (name: 'PostScript' | 'Footer' | 'StripeFooter', obj: object) => {
    const t = orcMessageType(name);
    return Buffer.from(t.encode(t.fromObject(obj)).finish());
  };
  const data = Buffer.from(f.streams.flatMap((s) => s.bytes));
  const stripeFooter = enc('StripeFooter', {
    streams: f.streams.map((s) => ({ kind: s.kind, column: s.column, length: s.bytes.length })),
    columns: f.encodings,
    writerTimezone: f.writerTimezone ?? 'UTC',
  });
  const footer = enc('Footer', {
    headerLength: 3,
    contentLength: 3 + data.length + stripeFooter.length,
    stripes: [{ offset: 3, indexLength: 0, dataLength: data.length, footerLength: stripeFooter.length, numberOfRows: f.rows }],
    types: f.types,
    numberOfRows: f.rows,
  });
  const postScript = enc('PostScript', { footerLength: footer.length, compression: f.compression ?? 'NONE', compressionBlockSize: 262144, version: [0, 12], metadataLength: 0, magic: 'ORC' });
  return Buffer.concat([Buffer.from('ORC'), data, stripeFooter, footer, postScript, Buffer.from([postScript.length])]);
}
