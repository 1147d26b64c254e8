/**
 * BigQuery's Avro mapping for the Storage Read API (`google.cloud.bigquery.storage.v1`): the JSON
 * schema a ReadSession carries in `avroSchema.schema` and the rows ReadRows carries in
 * `avroRows.serializedBinaryRows` — the Avro binary encoding of each row record, back to back,
 * with no object-container header, sync markers or block counts (storage.proto AvroRows: "Binary
 * serialized rows in a block"; readers decode them one record after another with the schema).
 *
 * Type mapping (BigQuery type → Avro type). Sources: the Storage Read API's "Avro schema details"
 * (the top-level record `__root__`, NULLABLE columns as the union ["null", T], REPEATED as a
 * non-null array, logical types below), the Avro 1.8 specification for the binary encoding and the
 * logical types, and Google's Python reader (google-cloud-bigquery-storage `reader.py`, which
 * decodes these rows with fastavro's schemaless reader):
 *   INT64 long · FLOAT64 double · BOOL boolean · STRING string · BYTES bytes
 *   NUMERIC bytes decimal(38, 9) · BIGNUMERIC bytes decimal(77, 38) (two's-complement big-endian)
 *   DATE int date (days since the epoch) · TIME long time-micros
 *   TIMESTAMP long timestamp-micros (µs since the epoch, UTC)
 *   DATETIME string, sqlType DATETIME ('YYYY-MM-DDTHH:MM:SS[.ffffff]')
 *   GEOGRAPHY string, sqlType GEOGRAPHY (WKT) · JSON string, sqlType JSON
 *   INTERVAL string, sqlType INTERVAL (canonical 'Y-M D H:M:S[.F]' text; no page names INTERVAL's
 *     Avro type — to check against a recording)
 *   STRUCT record (named after its field, in the namespace of its parent's path, so every record
 *     name is unique as Avro requires) · RANGE<T> record {start, end} (NULL bound = unbounded)
 *   ARRAY<T> array of T, never NULL (a NULL array is written empty)
 * Nullability: a column is the union ["null", T] unless `required` (mode REQUIRED) or an ARRAY
 * (mode REPEATED); STRUCT sub-fields and RANGE bounds are unions too; array items are not (BigQuery
 * arrays hold no NULL).
 */
import type { BqType, IntervalValue, RangeValue, Value } from '../types/types.js';
import { BIGNUMERIC_SCALE, NUMERIC_SCALE, parseScaled } from '../types/decimal.js';
import { formatInterval } from '../types/interval.js';
import { parseDateText, parseTimeText } from '../types/temporal.js';
import { BigQueryError } from '../errors/errors.js';

/** One top-level column of a read session (the shape of src/wire/arrow.ts's `ArrowField`). */
export interface AvroField {
  name: string;
  type: BqType;
  required?: boolean;
}

/** The name of the top-level record of BigQuery's Avro schemas. */
export const AVRO_ROOT_RECORD = '__root__';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Avro schema JSON is a free-form tree
type AvroType = any;

/** A valid Avro name for field `i` named `name` (anonymous STRUCT fields get `_field_<i+1>`, as BigQuery names them). */
const avroName = (name: string, i: number) => (name === '' ? `_field_${i + 1}` : name);

/** The Avro type of BigQuery type `t` for a field named `name` under `namespace` (see the module docstring). */
function avroTypeOf(t: BqType, name: string, namespace: string): AvroType {
  switch (t.kind) {
    case 'INT64':
      return 'long';
    case 'FLOAT64':
      return 'double';
    case 'BOOL':
      return 'boolean';
    case 'STRING':
      return 'string';
    case 'BYTES':
      return 'bytes';
    case 'NUMERIC':
      return { type: 'bytes', logicalType: 'decimal', precision: 38, scale: NUMERIC_SCALE };
    case 'BIGNUMERIC':
      return { type: 'bytes', logicalType: 'decimal', precision: 77, scale: BIGNUMERIC_SCALE };
    case 'DATE':
      return { type: 'int', logicalType: 'date' };
    case 'TIME':
      return { type: 'long', logicalType: 'time-micros' };
    case 'TIMESTAMP':
      return { type: 'long', logicalType: 'timestamp-micros' };
    case 'DATETIME':
    case 'GEOGRAPHY':
    case 'JSON':
    case 'INTERVAL':
      return { type: 'string', sqlType: t.kind };
    case 'STRUCT': {
      const inner = `${namespace}.${name}`;
      return { type: 'record', name, namespace, fields: t.fields.map((f, i) => avroFieldOf(avroName(f.name, i), f.type, true, inner)) };
    }
    case 'RANGE': {
      const inner = `${namespace}.${name}`;
      return { type: 'record', name, namespace, fields: [avroFieldOf('start', t.element, true, inner), avroFieldOf('end', t.element, true, inner)] };
    }
    case 'ARRAY':
      return { type: 'array', items: avroTypeOf(t.element, name, namespace) };
  }
}

/** The Avro field `name` of type `t`: a ["null", T] union when nullable, never for an ARRAY. */
function avroFieldOf(name: string, t: BqType, nullable: boolean, namespace: string): AvroType {
  const type = avroTypeOf(t, name, namespace);
  return { name, type: nullable && t.kind !== 'ARRAY' ? ['null', type] : type };
}

/**
 * BigQuery's Avro schema of a read session with columns `fields` — the JSON text of
 * `ReadSession.avroSchema.schema`: a record named `__root__` with one field per column, types and
 * unions per the module docstring.
 */
export function avroSchemaJson(fields: readonly AvroField[]): string {
  return JSON.stringify({
    type: 'record',
    name: AVRO_ROOT_RECORD,
    fields: fields.map((f) => avroFieldOf(f.name, f.type, !f.required, AVRO_ROOT_RECORD)),
  });
}

/** A growable byte buffer with Avro's primitive encoders (Avro 1.8 spec, "Binary Encoding"). */
class AvroWriter {
  private buf = Buffer.allocUnsafe(4096);
  private at = 0;

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  /** A long (or int): zig-zag, then base-128 varint, low group first. */
  long(v: bigint | number): void {
    if (typeof v === 'bigint' && v < 0x40000000n && v > -0x40000000n) v = Number(v);
    if (typeof v === 'number' && Number.isSafeInteger(v) && Math.abs(v) < 2 ** 30) {
      let z = (v << 1) ^ (v >> 31);
      z >>>= 0;
      this.room(5);
      while (z > 0x7f) {
        this.buf[this.at++] = (z & 0x7f) | 0x80;
        z >>>= 7;
      }
      this.buf[this.at++] = z;
      return;
    }
    const b = BigInt(v);
    let z = BigInt.asUintN(64, (b << 1n) ^ (b >> 63n));
    this.room(10);
    while (z > 0x7fn) {
      this.buf[this.at++] = Number(z & 0x7fn) | 0x80;
      z >>= 7n;
    }
    this.buf[this.at++] = Number(z);
  }

  double(v: number): void {
    this.room(8);
    this.buf.writeDoubleLE(v, this.at);
    this.at += 8;
  }

  byte(v: number): void {
    this.room(1);
    this.buf[this.at++] = v;
  }

  bytes(v: Uint8Array): void {
    this.long(v.length);
    this.room(v.length);
    this.buf.set(v, this.at);
    this.at += v.length;
  }

  string(v: string): void {
    const n = Buffer.byteLength(v, 'utf8');
    this.long(n);
    this.room(n);
    this.at += this.buf.write(v, this.at, 'utf8');
  }

  /** The bytes written so far (a copy). */
  result(): Uint8Array {
    return Uint8Array.prototype.slice.call(this.buf, 0, this.at);
  }
}

function fault(v: Value, t: BqType): never {
  const shown = v instanceof Uint8Array ? 'bytes' : JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `${x}n` : x)) ?? String(v);
  throw BigQueryError.cannotEncodeAvroValue(shown.slice(0, 80), t.kind);
}

/** The minimal two's-complement big-endian bytes of `n` (Avro's decimal on bytes). */
/**
 * The minimal big-endian two's-complement bytes of an integer: the body of an Avro `decimal`
 * (https://avro.apache.org/docs/1.11.1/specification/#decimal), used by the Storage Read API's Avro
 * rows here and by EXPORT DATA / extract Avro files (src/engine/export-writers.ts).
 */
export function twosComplement(n: bigint): Uint8Array {
  let len = 1;
  while (n < -(1n << BigInt(8 * len - 1)) || n >= 1n << BigInt(8 * len - 1)) len++;
  let u = BigInt.asUintN(8 * len, n);
  const out = new Uint8Array(len);
  for (let i = len - 1; i >= 0; i--) {
    out[i] = Number(u & 0xffn);
    u >>= 8n;
  }
  return out;
}

/** Writes non-NULL value `v` of type `t` (value shapes: src/types/types.ts). */
function writeValue(w: AvroWriter, t: BqType, v: Value): void {
  switch (t.kind) {
    case 'INT64':
    case 'TIMESTAMP':
      if (typeof v !== 'bigint' && !(typeof v === 'number' && Number.isInteger(v))) fault(v, t);
      return w.long(v);
    case 'FLOAT64':
      if (typeof v !== 'number') fault(v, t);
      return w.double(v);
    case 'BOOL':
      if (typeof v !== 'boolean') fault(v, t);
      return w.byte(v ? 1 : 0);
    case 'STRING':
    case 'JSON':
    case 'GEOGRAPHY':
    case 'DATETIME':
      if (typeof v !== 'string') fault(v, t);
      return w.string(v);
    case 'BYTES':
      if (!(v instanceof Uint8Array)) fault(v, t);
      return w.bytes(v);
    case 'NUMERIC':
    case 'BIGNUMERIC': {
      const scaled = typeof v === 'string' ? parseScaled(v, t.kind === 'NUMERIC' ? NUMERIC_SCALE : BIGNUMERIC_SCALE) : null;
      if (scaled === null) fault(v, t);
      return w.bytes(twosComplement(scaled));
    }
    case 'DATE': {
      const days = typeof v === 'string' ? parseDateText(v) : null;
      if (days === null) fault(v, t);
      return w.long(days);
    }
    case 'TIME': {
      const micros = typeof v === 'string' ? parseTimeText(v) : null;
      if (micros === null) fault(v, t);
      return w.long(micros);
    }
    case 'INTERVAL':
      if (typeof v !== 'object' || v === null || !('months' in v)) fault(v, t);
      return w.string(formatInterval(v as IntervalValue));
    case 'STRUCT':
      if (!Array.isArray(v)) fault(v, t);
      t.fields.forEach((f, i) => writeNullable(w, f.type, v[i]));
      return;
    case 'RANGE': {
      if (typeof v !== 'object' || v === null || !('start' in v)) fault(v, t);
      const r = v as RangeValue;
      writeNullable(w, t.element, r.start);
      writeNullable(w, t.element, r.end);
      return;
    }
    case 'ARRAY':
      if (!Array.isArray(v)) fault(v, t);
      if (v.length > 0) {
        w.long(v.length);
        for (const x of v) {
          if (x === null || x === undefined) fault(x ?? null, t);
          writeValue(w, t.element, x);
        }
      }
      return w.long(0);
  }
}

/** Writes a value of a nullable field: union branch 0 for NULL, branch 1 and the value otherwise. */
function writeNullable(w: AvroWriter, t: BqType, v: Value | undefined): void {
  if (t.kind === 'ARRAY') return writeValue(w, t, v ?? []);
  if (v === null || v === undefined) return w.long(0);
  w.long(1);
  writeValue(w, t, v);
}

/**
 * The Avro binary encoding of `rows` under `avroSchemaJson(fields)`, one record after another with
 * no container header — the bytes of `ReadRowsResponse.avroRows.serializedBinaryRows`. `rows[i][j]`
 * is the domain value (src/types/types.ts) of column `fields[j]` in row i. Raises
 * `cannotEncodeAvroValue` (500) for a value that does not have its column type's domain shape.
 */
export function avroRowsBytes(fields: readonly AvroField[], rows: readonly (readonly Value[])[]): Uint8Array {
  const w = new AvroWriter();
  for (const row of rows) {
    fields.forEach((f, j) => {
      const v = row[j];
      if (f.required && f.type.kind !== 'ARRAY') {
        if (v === null || v === undefined) fault(null, f.type);
        writeValue(w, f.type, v);
      } else writeNullable(w, f.type, v);
    });
  }
  return w.result();
}
