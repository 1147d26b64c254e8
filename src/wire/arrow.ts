/**
 * BigQuery's Arrow mapping for the Storage Read API (`google.cloud.bigquery.storage.v1`): the
 * schema message a ReadSession carries in `arrowSchema.serializedSchema` and the record-batch
 * messages ReadRows carries in `arrowRecordBatch.serializedRecordBatch` — each one Arrow IPC
 * encapsulated message (continuation marker, flatbuffer metadata, body), so a reader concatenates
 * the schema bytes and any batch bytes into an IPC stream (what `@google-cloud/bigquery-storage`'s
 * Arrow reader and pyarrow's `read_record_batch` do).
 *
 * Type mapping (BigQuery type → Arrow type, field metadata). Sources: BigQuery's data-type table
 * for Arrow readers (BigQuery DataFrames "data types" page: DATE date32, TIME time64("us"),
 * DATETIME timestamp("us"), TIMESTAMP timestamp("us", tz="UTC"), NUMERIC decimal128(38, 9),
 * BIGNUMERIC decimal256(76, 38), ARRAY<T> list_(T), STRUCT struct); the Storage API's
 * TableFieldSchema reference (TIMESTAMP "64-bit signed usec since UTC epoch"); and Google's Python
 * client, which declares the Arrow schema the Read API sends so its REST and Storage paths agree
 * (python-bigquery `_pandas_helpers.py`: the same scalar table, the field metadata of GEOGRAPHY,
 * JSON and DATETIME below, RANGE as `struct<start, end>`, REPEATED as a non-nullable
 * `list<item>`, nullability from the mode):
 *   INT64 int64 · FLOAT64 float64 · BOOL bool · STRING utf8 · BYTES binary
 *   NUMERIC decimal128(38,9) · BIGNUMERIC decimal256(76,38)
 *   DATE date32[day] · TIME time64[µs] · DATETIME timestamp[µs] (no zone,
 *     `ARROW:extension:name` = `google:sqlType:datetime`) · TIMESTAMP timestamp[µs, tz=UTC]
 *   GEOGRAPHY utf8 WKT (`ARROW:extension:name` = `google:sqlType:geography`,
 *     `ARROW:extension:metadata` = `{"encoding": "WKT"}`) · JSON utf8 (`google:sqlType:json`)
 *   INTERVAL interval[month_day_nano] (months, days, nanoseconds = micros × 1000; no page above
 *     names INTERVAL's Arrow type — this is the one Arrow type holding its three parts without
 *     loss; to check against a recording)
 *   RANGE<T> struct<start: T, end: T> (NULL bound = unbounded; no field metadata on the bounds)
 *     · STRUCT struct<fields…>
 *   ARRAY<T> list<item: T>, never NULL (a NULL array is read as empty)
 * Nullability: a column is nullable unless `required` (mode REQUIRED) or an ARRAY (mode REPEATED);
 * STRUCT sub-fields, RANGE bounds and list items are nullable. The field metadata of an ARRAY
 * column is its element type's (on the column field, as the Python client declares it).
 */
import {
  Binary,
  Bool,
  DateDay,
  Decimal,
  Field,
  Float64,
  Int64,
  IntervalMonthDayNano,
  List,
  RecordBatch,
  RecordBatchStreamWriter,
  Schema,
  Struct,
  TimeMicrosecond,
  TimestampMicrosecond,
  Utf8,
  makeData,
  type DataType,
} from 'apache-arrow';
import type { BqType, Value } from '../types/types.js';
import { arrowColumn, type ColumnInput } from './arrow-columns.js';

export type { ColumnInput, RawColumn } from './arrow-columns.js';
export { RAW_LAYOUT } from './arrow-columns.js';

/** One top-level column of a read session: its name, BigQuery type and mode (REQUIRED when `required`). */
export interface ArrowField {
  name: string;
  type: BqType;
  required?: boolean;
}

/** The Arrow extension metadata BigQuery sets on a field of type `t` (see the module docstring). */
function arrowFieldMetadata(t: BqType): Map<string, string> | undefined {
  switch (t.kind) {
    case 'ARRAY':
      return arrowFieldMetadata(t.element);
    case 'GEOGRAPHY':
      return new Map([
        ['ARROW:extension:name', 'google:sqlType:geography'],
        ['ARROW:extension:metadata', '{"encoding": "WKT"}'],
      ]);
    case 'JSON':
      return new Map([['ARROW:extension:name', 'google:sqlType:json']]);
    case 'DATETIME':
      return new Map([['ARROW:extension:name', 'google:sqlType:datetime']]);
    default:
      return undefined;
  }
}

/** The Arrow data type of BigQuery type `t` (see the module docstring for the mapping and its sources). */
function arrowTypeOf(t: BqType): DataType {
  switch (t.kind) {
    case 'INT64':
      return new Int64();
    case 'FLOAT64':
      return new Float64();
    case 'BOOL':
      return new Bool();
    case 'STRING':
    case 'JSON':
    case 'GEOGRAPHY':
      return new Utf8();
    case 'BYTES':
      return new Binary();
    case 'NUMERIC':
      return new Decimal(9, 38, 128);
    case 'BIGNUMERIC':
      return new Decimal(38, 76, 256);
    case 'DATE':
      return new DateDay();
    case 'TIME':
      return new TimeMicrosecond();
    case 'DATETIME':
      return new TimestampMicrosecond();
    case 'TIMESTAMP':
      return new TimestampMicrosecond('UTC');
    case 'INTERVAL':
      return new IntervalMonthDayNano();
    case 'STRUCT':
      return new Struct(t.fields.map((f) => arrowFieldOf(f.name, f.type, true)));
    case 'RANGE':
      // Bare bounds: no extension metadata on `start`/`end`, even for RANGE<DATETIME> (the Python client's range struct).
      return new Struct([new Field('start', arrowTypeOf(t.element), true), new Field('end', arrowTypeOf(t.element), true)]);
    case 'ARRAY':
      return new List(new Field('item', arrowTypeOf(t.element), true));
  }
}

/** An Arrow field named `name` of BigQuery type `t`; ARRAY fields are never nullable. */
function arrowFieldOf(name: string, t: BqType, nullable: boolean): Field {
  return new Field(name, arrowTypeOf(t), nullable && t.kind !== 'ARRAY', arrowFieldMetadata(t) ?? null);
}

/** The Arrow schema of a session's columns, in order. */
function arrowSchemaOf(fields: readonly ArrowField[]): Schema {
  return new Schema(fields.map((f) => arrowFieldOf(f.name, f.type, !f.required)));
}

/** The IPC stream of one batch of `rowCount` rows given column by column (`columns[j]` the values of `fields[j]`). */
function ipcStream(schema: Schema, fields: readonly ArrowField[], columns: readonly ColumnInput[], rowCount: number): Uint8Array {
  const children = fields.map((f, j) => arrowColumn(f.type, schema.fields[j].type, columns[j]));
  const data = makeData({ type: new Struct(schema.fields), length: rowCount, nullCount: 0, children });
  return RecordBatchStreamWriter.writeAll([new RecordBatch(schema, data)]).toUint8Array(true);
}

/** The byte length of the schema message at the start of an IPC stream (continuation, length, metadata; no body). */
function schemaMessageLength(stream: Uint8Array): number {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  return 8 + view.getInt32(4, true);
}

/** The length of the end-of-stream marker the stream writer appends (continuation + zero length). */
const EOS_BYTES = 8;

/**
 * The Arrow IPC schema message of a read session with columns `fields` — the bytes of
 * `ReadSession.arrowSchema.serializedSchema` (an encapsulated message: 0xFFFFFFFF, int32 metadata
 * length, Schema flatbuffer padded to 8 bytes). Types and field metadata per the module docstring.
 */
export function arrowSchemaBytes(fields: ArrowField[]): Uint8Array {
  const stream = ipcStream(arrowSchemaOf(fields), fields, fields.map(() => []), 0);
  return stream.slice(0, schemaMessageLength(stream));
}

/**
 * One Arrow IPC record-batch message (no schema, no end-of-stream marker) holding `rows` — the
 * bytes of `ReadRowsResponse.arrowRecordBatch.serializedRecordBatch`. `rows[i][j]` is the domain
 * value (src/types/types.ts) of column `fields[j]` in row i. Readers decode it after the bytes of
 * `arrowSchemaBytes(fields)`. Raises `cannotEncodeArrowValue` (500) for a value that does not have
 * its column type's domain shape.
 */
export function arrowRecordBatchBytes(fields: ArrowField[], rows: Value[][]): Uint8Array {
  return arrowRecordBatchBytesFromColumns(
    fields,
    fields.map((_, j) => rows.map((r) => r[j])),
    rows.length,
  );
}

/**
 * `arrowRecordBatchBytes` for values already held column by column (`columns[j][i]` the value of
 * column `fields[j]` in row i, each column `rowCount` long), as DuckDB hands out a chunk; skips the
 * row → column transposition. A column may also be a RawColumn (buffers already in Arrow's layout,
 * src/wire/arrow-columns.ts), used without copying. Same bytes, same errors. This is the one
 * function that encodes a ReadRows batch: wrap it to post-process the bytes.
 */
export function arrowRecordBatchBytesFromColumns(fields: ArrowField[], columns: readonly ColumnInput[], rowCount: number): Uint8Array {
  const stream = ipcStream(arrowSchemaOf(fields), fields, columns, rowCount);
  return stream.subarray(schemaMessageLength(stream), stream.length - EOS_BYTES);
}
