/**
 * Avro object container files of load jobs (sourceFormat AVRO), read with the `avsc` package.
 *
 * Type mapping (BigQuery "Loading Avro data", conversions table): null unions → NULLABLE (other
 * unions are not supported); boolean → BOOL; int / long → INT64; float / double → FLOAT64;
 * string / enum → STRING; bytes / fixed → BYTES; record → STRUCT (RECORD); array → ARRAY
 * (REPEATED); logical `decimal` → NUMERIC (BIGNUMERIC beyond NUMERIC's precision/scale), always;
 * with `useAvroLogicalTypes`: `date` → DATE, `time-micros` / `time-millis` → TIME,
 * `timestamp-micros` / `timestamp-millis` → TIMESTAMP, `local-timestamp-*` and string `datetime`
 * → DATETIME (without it these stay their underlying INT64 / STRING). Maps are not supported.
 *
 * Each record becomes a JSON object in the REST row form (int64 as text, bytes base64, numeric
 * text, civil times as text) so that it is decoded like NEWLINE_DELIMITED_JSON rows.
 */
import fs from 'node:fs';
import avro from 'avsc';
import { BigIntLong } from '../wire/avro.js';
import { BigQueryError } from '../errors/errors.js';
import type { Column } from '../types/schema.js';
import type { BqType } from '../types/types.js';
import { scaledToText } from '../types/decimal.js';
import { formatDateDays, formatDatetimeMicros, formatTimeMicros } from '../types/temporal.js';

type Conv = (v: unknown) => unknown;
interface Mapped {
  type: BqType;
  required: boolean;
  conv: Conv;
}

const notSupported = (what: string) => BigQueryError.notSupported(`Avro ${what}`, { in: 'request' });

/** A two's-complement big-endian byte string as a decimal text with `scale` fraction digits. */
function decimalText(b: Uint8Array, scale: number): string {
  let n = 0n;
  for (const x of b) n = (n << 8n) | BigInt(x);
  if (b.length && b[0] & 0x80) n -= 1n << BigInt(8 * b.length);
  return scaledToText(n, scale);
}

/** Microseconds since the epoch → REST TIMESTAMP text `YYYY-MM-DD HH:MM:SS[.ffffff] UTC`. */
const timestampText = (micros: bigint) => `${formatDatetimeMicros(micros).replace('T', ' ')} UTC`;

function mapType(s: any, logical: boolean): Mapped {
  if (Array.isArray(s)) {
    const rest = s.filter((x) => x !== 'null' && x?.type !== 'null');
    if (rest.length !== 1) throw notSupported(`union ${JSON.stringify(s)}`);
    const m = mapType(rest[0], logical);
    // avsc decodes a one-branch nullable union to the bare value (wrapUnions: false).
    return { ...m, required: false };
  }
  if (typeof s === 'string') s = { type: s };
  const lt = s.logicalType;
  if (lt === 'decimal' && (s.type === 'bytes' || s.type === 'fixed')) {
    const [p, sc] = [Number(s.precision), Number(s.scale ?? 0)];
    const kind = sc <= 9 && p - sc <= 29 ? 'NUMERIC' : 'BIGNUMERIC';
    return { type: { kind }, required: true, conv: (v) => decimalText(v as Uint8Array, sc) };
  }
  if (logical && lt) {
    const big = (v: unknown) => BigInt(v as number);
    if (lt === 'date' && s.type === 'int') return { type: { kind: 'DATE' }, required: true, conv: (v) => formatDateDays(Number(v)) };
    if (lt === 'time-micros') return { type: { kind: 'TIME' }, required: true, conv: (v) => formatTimeMicros(big(v)) };
    if (lt === 'time-millis') return { type: { kind: 'TIME' }, required: true, conv: (v) => formatTimeMicros(big(v) * 1000n) };
    if (lt === 'timestamp-micros') return { type: { kind: 'TIMESTAMP' }, required: true, conv: (v) => timestampText(big(v)) };
    if (lt === 'timestamp-millis') return { type: { kind: 'TIMESTAMP' }, required: true, conv: (v) => timestampText(big(v) * 1000n) };
    if (lt === 'local-timestamp-micros') return { type: { kind: 'DATETIME' }, required: true, conv: (v) => formatDatetimeMicros(big(v)) };
    if (lt === 'local-timestamp-millis') return { type: { kind: 'DATETIME' }, required: true, conv: (v) => formatDatetimeMicros(big(v) * 1000n) };
    // BigQuery's own logical type for DATETIME (what its Avro export writes with useAvroLogicalTypes).
    if (lt === 'datetime' && s.type === 'string') return { type: { kind: 'DATETIME' }, required: true, conv: (v) => v };
  }
  switch (s.type) {
    case 'boolean':
      return { type: { kind: 'BOOL' }, required: true, conv: (v) => v };
    case 'int':
    case 'long':
      return { type: { kind: 'INT64' }, required: true, conv: (v) => String(v) };
    case 'float':
    case 'double':
      return { type: { kind: 'FLOAT64' }, required: true, conv: (v) => v };
    case 'string':
    case 'enum':
      return { type: { kind: 'STRING' }, required: true, conv: (v) => v };
    case 'bytes':
    case 'fixed':
      return { type: { kind: 'BYTES' }, required: true, conv: (v) => Buffer.from(v as Uint8Array).toString('base64') };
    case 'array': {
      const m = mapType(s.items, logical);
      if (m.type.kind === 'ARRAY') throw notSupported('arrays of arrays');
      return { type: { kind: 'ARRAY', element: m.type }, required: false, conv: (v) => (v as unknown[]).map((x) => (x === null ? null : m.conv(x))) };
    }
    case 'record': {
      const fields = (s.fields as any[]).map((f) => ({ name: String(f.name), m: mapType(f.type, logical) }));
      return {
        type: { kind: 'STRUCT', fields: fields.map((f) => ({ name: f.name, type: f.m.type })) },
        required: true,
        conv: (v) => {
          const o = v as Record<string, unknown>;
          return Object.fromEntries(fields.map((f) => [f.name, o[f.name] === null || o[f.name] === undefined ? null : f.m.conv(o[f.name])]));
        },
      };
    }
    default:
      throw notSupported(`type ${JSON.stringify(s.type)}`);
  }
}

/**
 * Reads Avro container files: the columns of the first file's record schema and every record as
 * a REST-form JSON object.
 * @throws BigQueryError invalid when a file is not an Avro container file (the text BigQuery
 *   reports for it is BigQueryError.avroInvalid, src/errors/load-errors.ts); not supported for a top-level non-record schema.
 */
export async function readAvro(files: string[], useLogicalTypes: boolean): Promise<{ columns: Column[]; rows: Record<string, unknown>[] }> {
  let columns: Column[] | undefined;
  const rows: Record<string, unknown>[] = [];
  for (const f of files) {
    let conv: Conv | undefined;
    await new Promise<void>((resolve, reject) => {
      // Longs as bigint: INT64 beyond 2^53 (avsc's own long refuses them) loads exactly.
      const dec = avro.createFileDecoder(f, { parseHook: (schema: avro.Schema) => avro.Type.forSchema(schema, { registry: { long: BigIntLong } }) } as never);
      dec.on('metadata', (_type: unknown, _codec: unknown, header: { meta: Record<string, Buffer> }) => {
        try {
          const schema = JSON.parse(header.meta['avro.schema'].toString('utf8'));
          const m = mapType(schema, useLogicalTypes);
          if (m.type.kind !== 'STRUCT') throw notSupported('files whose schema is not a record');
          conv = m.conv;
          columns ??= m.type.fields.map((fd, i) => ({ name: fd.name!, type: fd.type, required: mapType(schema.fields[i].type, useLogicalTypes).required }));
        } catch (e) {
          dec.destroy();
          reject(e);
        }
      });
      dec.on('data', (r: unknown) => rows.push(conv!(r) as Record<string, unknown>));
      dec.on('error', (e: Error) => reject(e instanceof BigQueryError ? e : BigQueryError.avroInvalid(f, e.message)));
      dec.on('end', () => resolve());
    });
  }
  return { columns: columns ?? [], rows };
}

/** Whether a file starts with the Avro container magic `Obj\x01`. */
export function isAvroFile(f: string): boolean {
  const fd = fs.openSync(f, 'r');
  try {
    const b = Buffer.alloc(4);
    return fs.readSync(fd, b, 0, 4, 0) === 4 && b.toString('latin1') === 'Obj\x01';
  } finally {
    fs.closeSync(fd);
  }
}
