/**
 * BigQuery's Avro mappings, one schema builder and one row encoder (the `avsc` library) for both
 * places BigQuery writes Avro:
 * - the Storage Read API (`google.cloud.bigquery.storage.v1`): the JSON schema of
 *   `ReadSession.avro_schema.schema` and `ReadRowsResponse.avro_rows.serialized_binary_rows`, the
 *   Avro binary encoding of each row record back to back, with no object-container header, sync
 *   markers or block counts (storage.proto AvroRows; readers decode one record after another);
 * - Avro object container files of extract jobs and EXPORT DATA (src/engine/export-writers.ts).
 *
 * Type mapping (BigQuery type → Avro type), both targets unless marked:
 *   INT64 long · FLOAT64 double · BOOL boolean · STRING string · BYTES bytes
 *   NUMERIC bytes decimal(38, 9) · BIGNUMERIC bytes decimal(77, 38) (two's-complement big-endian)
 *   TIMESTAMP long timestamp-micros (µs since the epoch, UTC)
 *   DATE int date (days since the epoch) · TIME long time-micros — Storage Read always; export
 *     only with logical types (extract `useAvroLogicalTypes`, EXPORT DATA `use_avro_logical_types`),
 *     else string ('YYYY-MM-DD', 'HH:MM:SS[.ffffff]')
 *   DATETIME string 'YYYY-MM-DDTHH:MM:SS[.ffffff]': Storage Read `{"type":"string","sqlType":"DATETIME"}`;
 *     export with logical types `{"type":"string","logicalType":"datetime"}`, else plain string
 *   GEOGRAPHY (WKT) · JSON: Storage Read string with sqlType GEOGRAPHY / JSON; export plain string
 *   INTERVAL (Storage Read only) string, sqlType INTERVAL, canonical 'Y-M D H:M:S[.F]' text — no
 *     source names INTERVAL's Avro type; RANGE<T> (Storage Read only) record {start, end}, NULL
 *     bound = unbounded — no source names it either; export refuses both (BigQuery: "RANGE types
 *     aren't supported in Avro export")
 *   STRUCT record · ARRAY<T> array of T, never NULL (a NULL array is written empty)
 *   Export only: a parameterized NUMERIC(P[, S]) / BIGNUMERIC(P[, S]) column is decimal(P, S)
 *   (BigQuery: "Parameterized NUMERIC(P[, S]) and BIGNUMERIC(P[, S]) data types transfer their
 *   precision and scale type parameters to the Avro decimal logical type"; S absent = 0).
 * Nullability: a column is the union ["null", T] unless `required` (mode REQUIRED) or an ARRAY
 * (mode REPEATED); STRUCT sub-fields and RANGE bounds are unions too; array items are not
 * (BigQuery arrays hold no NULL). Anonymous STRUCT fields are named `_field_<i+1>`.
 * Record names: Storage Read's top-level record is `__root__` with no namespace and its nested
 * records `__s_0`, `__s_1`… in the order they are written; the schema text is JSON indented by
 * four spaces, keys in the order type, name, fields (a field: name, type). Export files: `Root`,
 * nested records `Root_<column>[_<field>…]` (unchanged from bqemu's earlier files; no source
 * names them).
 *
 * Sources: BigQuery's Storage Read API overview ("Avro schema details": `__root__`, NULLABLE as
 * ["null", T], REPEATED as array, the logical types); a Storage Read response quoted verbatim in a
 * public bug report (the indented `__root__` schema text); Storage Read schemas quoted by users
 * (array items record `__s_0`, no namespace); Google's Python client's reader tests (the scalar
 * table, DATETIME with sqlType); Apache Beam's BigQuery Avro utilities (GEOGRAPHY / JSON sqlType,
 * BIGNUMERIC decimal(77, 38); "slightly different Avro records are produced when exporting data in
 * Avro format and when reading data directly using the read API": DATE/TIME strings in exports);
 * BigQuery "Export table data" (Avro export details: logical types per option, TIMESTAMP always
 * timestamp-micros); the Avro 1.8 specification (binary encoding, logical types).
 */
import avro from 'avsc';
import type { BqType, IntervalValue, RangeValue, Value } from '../types/types.js';
import type { ParamTree } from '../types/type-params.js';
import { BIGNUMERIC_SCALE, NUMERIC_SCALE, parseScaled } from '../types/decimal.js';
import { formatInterval } from '../types/interval.js';
import { parseDateText, parseTimeText } from '../types/temporal.js';
import { BigQueryError } from '../errors/errors.js';

/**
 * One top-level column (the shape of src/wire/arrow.ts's `ArrowField`); a table column
 * (src/types/schema.ts `Column`) also carries its type parameters (`precision`, `scale`,
 * `subfields`), which export files honour.
 */
export interface AvroField extends ParamTree {
  name: string;
  type: BqType;
  required?: boolean;
}

/** The name of the top-level record of BigQuery's Storage Read Avro schemas. */
export const AVRO_ROOT_RECORD = '__root__';
/** The name of the top-level record of bqemu's Avro export files. */
export const AVRO_EXPORT_ROOT_RECORD = 'Root';

/** Which of BigQuery's Avro mappings (module docstring): the Storage Read API's, or export files' with or without logical types. */
export type AvroMapping = { target: 'storage-read' } | { target: 'export'; logicalTypes: boolean };

/** The Storage Read API's mapping. */
export const STORAGE_READ_AVRO: AvroMapping = { target: 'storage-read' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Avro schema JSON is a free-form tree
type AvroType = any;

/** One BigQuery type mapped: its Avro schema and the conversion of a non-NULL domain value to avsc's value. */
interface Mapped {
  schema: AvroType;
  conv: (v: Value) => unknown;
}

/** The mapping being built: its target and how nested records are named. */
interface Build {
  mapping: AvroMapping;
  /** The name of a nested record for the field at `path` (column name first). */
  recordName: (path: readonly string[]) => string;
}

/** A valid Avro name for field `i` named `name` (anonymous STRUCT fields get `_field_<i+1>`, as BigQuery names them). */
const avroName = (name: string, i: number) => (name === '' ? `_field_${i + 1}` : name);

function fault(v: Value, t: BqType): never {
  const shown = v instanceof Uint8Array ? 'bytes' : (JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `${x}n` : x)) ?? String(v));
  throw BigQueryError.cannotEncodeAvroValue(shown.slice(0, 80), t.kind);
}

/**
 * The minimal big-endian two's-complement bytes of an integer: the body of an Avro `decimal`
 * (Avro specification, "Decimal"), used for NUMERIC and BIGNUMERIC values.
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

const isInteger = (v: Value): v is bigint | number => typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
const text = (t: BqType) => (v: Value) => (typeof v === 'string' ? v : fault(v, t));
const decimal = (t: BqType, scale: number) => (v: Value) => {
  const scaled = typeof v === 'string' ? parseScaled(v, scale) : null;
  return scaled === null ? fault(v, t) : Buffer.from(twosComplement(scaled));
};

/** The Avro decimal of a NUMERIC/BIGNUMERIC: BigQuery's fixed precision and scale, or an export's type parameters. */
function decimalType(t: BqType, params: ParamTree | undefined, b: Build): Mapped {
  const [precision, scale] =
    b.mapping.target === 'export' && params?.precision !== undefined
      ? [params.precision, params.scale ?? 0]
      : t.kind === 'NUMERIC'
        ? [38, NUMERIC_SCALE]
        : [77, BIGNUMERIC_SCALE];
  return { schema: { type: 'bytes', logicalType: 'decimal', precision, scale }, conv: decimal(t, scale) };
}

/** BigQuery type `t` of the field at `path` (type parameters `params`) mapped per `b` (module docstring). */
function mapType(t: BqType, path: readonly string[], b: Build, params?: ParamTree): Mapped {
  const read = b.mapping.target === 'storage-read';
  const logical = b.mapping.target === 'storage-read' || b.mapping.logicalTypes;
  switch (t.kind) {
    case 'INT64':
      return { schema: 'long', conv: (v) => (isInteger(v) ? v : fault(v, t)) };
    case 'TIMESTAMP':
      return { schema: { type: 'long', logicalType: 'timestamp-micros' }, conv: (v) => (isInteger(v) ? v : fault(v, t)) };
    case 'FLOAT64':
      return { schema: 'double', conv: (v) => (typeof v === 'number' ? v : fault(v, t)) };
    case 'BOOL':
      return { schema: 'boolean', conv: (v) => (typeof v === 'boolean' ? v : fault(v, t)) };
    case 'STRING':
      return { schema: 'string', conv: text(t) };
    case 'BYTES':
      return { schema: 'bytes', conv: (v) => (v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : fault(v, t)) };
    case 'NUMERIC':
    case 'BIGNUMERIC':
      return decimalType(t, params, b);
    case 'DATE':
      if (!logical) return { schema: 'string', conv: text(t) };
      return { schema: { type: 'int', logicalType: 'date' }, conv: (v) => (typeof v === 'string' ? parseDateText(v) : null) ?? fault(v, t) };
    case 'TIME':
      if (!logical) return { schema: 'string', conv: text(t) };
      return { schema: { type: 'long', logicalType: 'time-micros' }, conv: (v) => (typeof v === 'string' ? parseTimeText(v) : null) ?? fault(v, t) };
    case 'DATETIME':
      return { schema: read ? { type: 'string', sqlType: 'DATETIME' } : logical ? { type: 'string', logicalType: 'datetime' } : 'string', conv: text(t) };
    case 'GEOGRAPHY':
    case 'JSON':
      return { schema: read ? { type: 'string', sqlType: t.kind } : 'string', conv: text(t) };
    case 'INTERVAL':
      if (!read) throw BigQueryError.notSupported(`Extracting ${t.kind} columns to AVRO`, { in: 'request' });
      return {
        schema: { type: 'string', sqlType: 'INTERVAL' },
        conv: (v) => (typeof v === 'object' && v !== null && 'months' in v ? formatInterval(v as IntervalValue) : fault(v, t)),
      };
    case 'STRUCT': {
      const fields = t.fields.map((f, i) => ({ name: avroName(f.name, i), type: f.type }));
      const name = b.recordName(path);
      const mapped = fields.map((f, i) => ({ name: f.name, m: mapField(f.type, true, [...path, f.name], b, params?.subfields?.[i]) }));
      return {
        schema: { type: 'record', name, fields: mapped.map((f) => ({ name: f.name, type: f.m.schema })) },
        conv: (v) => {
          if (!Array.isArray(v)) fault(v, t);
          const o: Record<string, unknown> = {};
          mapped.forEach((f, i) => (o[f.name] = f.m.conv(v[i] ?? null)));
          return o;
        },
      };
    }
    case 'RANGE': {
      if (!read) throw BigQueryError.notSupported(`Extracting ${t.kind} columns to AVRO`, { in: 'request' });
      const name = b.recordName(path);
      const start = mapField(t.element, true, [...path, 'start'], b);
      const end = mapField(t.element, true, [...path, 'end'], b);
      return {
        schema: { type: 'record', name, fields: [{ name: 'start', type: start.schema }, { name: 'end', type: end.schema }] },
        conv: (v) => {
          if (typeof v !== 'object' || v === null || !('start' in v)) fault(v, t);
          const r = v as RangeValue;
          return { start: start.conv(r.start), end: end.conv(r.end) };
        },
      };
    }
    case 'ARRAY': {
      const item = mapType(t.element, path, b, params); // a REPEATED field's parameters are its elements'
      return {
        schema: { type: 'array', items: item.schema },
        conv: (v) => {
          if (!Array.isArray(v)) fault(v, t);
          return v.map((x) => (x === null || x === undefined ? fault(null, t) : item.conv(x)));
        },
      };
    }
  }
}

/** A field of type `t`: a ["null", T] union when nullable, never for an ARRAY (NULL written as an empty array). */
function mapField(t: BqType, nullable: boolean, path: readonly string[], b: Build, params?: ParamTree): Mapped {
  const m = mapType(t, path, b, params);
  if (t.kind === 'ARRAY') return { schema: m.schema, conv: (v) => m.conv(v ?? []) };
  if (!nullable) return { schema: m.schema, conv: (v) => (v === null || v === undefined ? fault(null, t) : m.conv(v)) };
  return { schema: ['null', m.schema], conv: (v) => (v === null || v === undefined ? null : m.conv(v)) };
}

/** The schema and row conversions of a whole row of `fields` under `mapping`. */
function mapRow(fields: readonly AvroField[], mapping: AvroMapping) {
  let next = 0;
  const b: Build = {
    mapping,
    recordName: mapping.target === 'storage-read' ? () => `__s_${next++}` : (path) => [AVRO_EXPORT_ROOT_RECORD, ...path].join('_'),
  };
  const columns = fields.map((f) => ({ name: f.name, m: mapField(f.type, !f.required, [f.name], b, f) }));
  const schema = {
    type: 'record',
    name: mapping.target === 'storage-read' ? AVRO_ROOT_RECORD : AVRO_EXPORT_ROOT_RECORD,
    fields: columns.map((c) => ({ name: c.name, type: c.m.schema })),
  };
  const record = (row: readonly Value[]) => {
    const o: Record<string, unknown> = {};
    for (let j = 0; j < columns.length; j++) o[columns[j].name] = columns[j].m.conv(row[j] ?? null);
    return o;
  };
  return { schema, record };
}

/**
 * BigQuery's Avro schema of a row of `fields` under `mapping` (module docstring), as a JSON object
 * (the schema a container file's header or a read session carries).
 */
export function avroSchemaOf(fields: readonly AvroField[], mapping: AvroMapping): Record<string, unknown> {
  return mapRow(fields, mapping).schema;
}

/**
 * BigQuery's Avro schema of a read session with columns `fields` — the JSON text of
 * `ReadSession.avroSchema.schema`: a record named `__root__` with one field per column, indented
 * by four spaces as BigQuery sends it.
 */
export function avroSchemaJson(fields: readonly AvroField[]): string {
  return JSON.stringify(avroSchemaOf(fields, STORAGE_READ_AVRO), null, 4);
}

const longScratch = Buffer.alloc(8);

/**
 * avsc's long carrying INT64 values as bigint (avsc's own long refuses values beyond 2^53): the
 * writer hands it a bigint or a safe integer and it writes the 8 little-endian bytes avsc then
 * zig-zag encodes (avsc `LongType.__with`).
 */
export const BigIntLong = avro.types.LongType.__with({
  fromBuffer: (b: Buffer) => b.readBigInt64LE(),
  toBuffer: (n: bigint | number) => {
    longScratch.writeBigInt64LE(BigInt(n));
    return longScratch;
  },
  fromJSON: (x: unknown) => BigInt(x as string),
  toJSON: (n: bigint) => String(n),
  isValid: (n: unknown) => typeof n === 'bigint' || (typeof n === 'number' && Number.isSafeInteger(n)),
  compare: (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0),
});

/** An avsc writer for rows of `fields`: the BigQuery schema (JSON object), avsc's Type, and the row → record conversion. */
export interface AvroRowWriter {
  schema: Record<string, unknown>;
  type: avro.Type;
  /**
   * The avsc record of `row` (`row[j]` the domain value of `fields[j]`, src/types/types.ts).
   * @throws BigQueryError cannotEncodeAvroValue (500) for a value without its column type's domain shape.
   */
  record(row: readonly Value[]): Record<string, unknown>;
}

/**
 * The avsc writer of rows of `fields` under `mapping`: the schema of `avroSchemaOf`, read by avsc
 * with every long (INT64, TIMESTAMP, TIME) as a bigint-capable long; logicalType and sqlType
 * attributes do not change the binary encoding (Avro specification), so avsc ignores them.
 * @throws BigQueryError notSupported for INTERVAL and RANGE columns in an export mapping.
 */
export function avroRowWriter(fields: readonly AvroField[], mapping: AvroMapping): AvroRowWriter {
  const { schema, record } = mapRow(fields, mapping);
  const type = avro.Type.forSchema(schema as avro.Schema, {
    typeHook: (s) => (s === 'long' || (typeof s === 'object' && s !== null && (s as { type?: unknown }).type === 'long') ? BigIntLong : undefined),
  });
  return { schema, type, record };
}

/** Storage Read writers by session columns (a session's `fields` array is reused for every response). */
const storageReadWriters = new WeakMap<readonly AvroField[], AvroRowWriter>();

/**
 * The Avro binary encoding of `rows` under `avroSchemaJson(fields)`, one record after another with
 * no container header — the bytes of `ReadRowsResponse.avroRows.serializedBinaryRows`. `rows[i][j]`
 * is the domain value (src/types/types.ts) of column `fields[j]` in row i. Raises
 * `cannotEncodeAvroValue` (500) for a value that does not have its column type's domain shape.
 */
export function avroRowsBytes(fields: readonly AvroField[], rows: readonly (readonly Value[])[]): Uint8Array {
  let w = storageReadWriters.get(fields);
  if (!w) storageReadWriters.set(fields, (w = avroRowWriter(fields, STORAGE_READ_AVRO)));
  let buf = Buffer.allocUnsafe(Math.max(1024, rows.length * 32));
  let pos = 0;
  for (const row of rows) {
    const rec = w.record(row);
    for (;;) {
      const end = w.type.encode(rec, buf, pos);
      if (end >= 0) {
        pos = end;
        break;
      }
      const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, buf.length - end + 1024)); // encode answered -(bytes missing)
      buf.copy(bigger, 0, 0, pos);
      buf = bigger;
    }
  }
  return Uint8Array.prototype.slice.call(buf, 0, pos);
}
