/**
 * The protobuf messages of an ORC file's tail and stripe footers, decoded with `protobufjs`.
 *
 * The schema below is written from the Apache ORC specification v1 (https://orc.apache.org/specification/ORCv1/,
 * sections "PostScript", "Footer", "Stripe Footer" and "Column Encodings", which quote the
 * messages of the ORC project's `orc_proto.proto`, package `orc.proto`). Only the fields a
 * reader needs are declared; protobufjs skips the others (statistics, bloom filters,
 * encryption). Field numbers and enum values are the specification's.
 */
import protobuf from 'protobufjs';

const ORC_PROTO = `
syntax = "proto2";
package orc.proto;

enum CompressionKind { NONE = 0; ZLIB = 1; SNAPPY = 2; LZO = 3; LZ4 = 4; ZSTD = 5; }

message PostScript {
  optional uint64 footerLength = 1;
  optional CompressionKind compression = 2;
  optional uint64 compressionBlockSize = 3;
  repeated uint32 version = 4 [packed = true];
  optional uint64 metadataLength = 5;
  optional uint32 writerVersion = 6;
  optional uint64 stripeStatisticsLength = 7;
  optional string magic = 8000;
}

message StripeInformation {
  optional uint64 offset = 1;
  optional uint64 indexLength = 2;
  optional uint64 dataLength = 3;
  optional uint64 footerLength = 4;
  optional uint64 numberOfRows = 5;
}

message Type {
  enum Kind {
    BOOLEAN = 0; BYTE = 1; SHORT = 2; INT = 3; LONG = 4; FLOAT = 5; DOUBLE = 6; STRING = 7;
    BINARY = 8; TIMESTAMP = 9; LIST = 10; MAP = 11; STRUCT = 12; UNION = 13; DECIMAL = 14;
    DATE = 15; VARCHAR = 16; CHAR = 17; TIMESTAMP_INSTANT = 18;
  }
  optional Kind kind = 1;
  repeated uint32 subtypes = 2 [packed = true];
  repeated string fieldNames = 3;
  optional uint32 maximumLength = 4;
  optional uint32 precision = 5;
  optional uint32 scale = 6;
}

enum CalendarKind { UNKNOWN_CALENDAR = 0; JULIAN_GREGORIAN = 1; PROLEPTIC_GREGORIAN = 2; }

message Footer {
  optional uint64 headerLength = 1;
  optional uint64 contentLength = 2;
  repeated StripeInformation stripes = 3;
  repeated Type types = 4;
  optional uint64 numberOfRows = 6;
  optional uint32 rowIndexStride = 8;
  optional uint32 writer = 9;
  optional CalendarKind calendar = 11;
}

message Stream {
  enum Kind {
    PRESENT = 0; DATA = 1; LENGTH = 2; DICTIONARY_DATA = 3; DICTIONARY_COUNT = 4; SECONDARY = 5;
    ROW_INDEX = 6; BLOOM_FILTER = 7; BLOOM_FILTER_UTF8 = 8; ENCRYPTED_INDEX = 9; ENCRYPTED_DATA = 10;
    STRIPE_STATISTICS = 100; FILE_STATISTICS = 101;
  }
  optional Kind kind = 1;
  optional uint32 column = 2;
  optional uint64 length = 3;
}

message ColumnEncoding {
  enum Kind { DIRECT = 0; DICTIONARY = 1; DIRECT_V2 = 2; DICTIONARY_V2 = 3; }
  optional Kind kind = 1;
  optional uint32 dictionarySize = 2;
}

message StripeFooter {
  repeated Stream streams = 1;
  repeated ColumnEncoding columns = 2;
  optional string writerTimezone = 3;
}
`;

/** PostScript: the uncompressed message just before the file's last byte. */
export interface PostScript {
  footerLength: number;
  compression: string;
  compressionBlockSize: number;
  version: number[];
  metadataLength: number;
  magic: string;
}

/** One stripe's place in the file (byte offsets and lengths) and its row count. */
export interface StripeInformation {
  offset: number;
  indexLength: number;
  dataLength: number;
  footerLength: number;
  numberOfRows: number;
}

/** One node of the file's type tree (column id = index in Footer.types; 0 is the root). */
export interface OrcType {
  kind: string;
  subtypes: number[];
  fieldNames: string[];
  maximumLength: number;
  precision: number;
  scale: number;
}

/** The file footer: stripes, the flattened type tree and the row count. */
export interface Footer {
  stripes: StripeInformation[];
  types: OrcType[];
  numberOfRows: number;
  calendar: string;
}

/** A stream of a stripe: its kind, column and length in bytes (streams follow one another in this order). */
export interface OrcStream {
  kind: string;
  column: number;
  length: number;
}

/** How one column of a stripe is encoded. */
export interface ColumnEncoding {
  kind: string;
  dictionarySize: number;
}

/** A stripe's footer: its streams in file order, each column's encoding and the writer's time zone. */
export interface StripeFooter {
  streams: OrcStream[];
  columns: ColumnEncoding[];
  writerTimezone: string;
}

let root: protobuf.Root | undefined;
const lookup = (name: string): protobuf.Type => {
  root ??= protobuf.parse(ORC_PROTO, { keepCase: true }).root;
  return root.lookupType(`orc.proto.${name}`);
};

/** The protobufjs type of message `name` of package orc.proto (tests encode files with it). */
export const orcMessageType = (name: 'PostScript' | 'Footer' | 'StripeFooter'): protobuf.Type => lookup(name);

/** Decodes `bytes` as message `name` into a plain object: enums as names, 64-bit integers as numbers, defaults filled in. */
function decode<T>(name: string, bytes: Uint8Array): T {
  const type = lookup(name);
  return type.toObject(type.decode(bytes), { enums: String, longs: Number, defaults: true, arrays: true }) as T;
}

/**
 * Decodes an ORC PostScript.
 * @throws Error from protobufjs when the bytes are not a PostScript message.
 */
export const decodePostScript = (bytes: Uint8Array): PostScript => decode<PostScript>('PostScript', bytes);

/**
 * Decodes an ORC Footer (already decompressed).
 * @throws Error from protobufjs when the bytes are not a Footer message.
 */
export const decodeFooter = (bytes: Uint8Array): Footer => decode<Footer>('Footer', bytes);

/**
 * Decodes a StripeFooter (already decompressed).
 * @throws Error from protobufjs when the bytes are not a StripeFooter message.
 */
export const decodeStripeFooter = (bytes: Uint8Array): StripeFooter => decode<StripeFooter>('StripeFooter', bytes);
