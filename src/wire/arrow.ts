/**
 * BigQuery values → Arrow IPC messages, the payload of the Storage Read API's `arrowSchema` and
 * `arrowRecordBatch` (google.cloud.bigquery.storage.v1 ArrowSchema / ArrowRecordBatch).
 *
 * MINIMAL placeholder of part N's encoder (same path, same two functions): INT64 → int64,
 * FLOAT64 → float64, STRING → utf8, BOOL → bool, every field nullable unless `required`. Other
 * types raise `notSupported`. Built with apache-arrow's IPC stream writer (`tableToIPC`).
 */
import { Bool, Field, Float64, Int64, Schema, Table, Utf8, tableToIPC, vectorFromArray, type DataType } from 'apache-arrow';
import { BigQueryError } from '../errors/errors.js';
import type { BqType, Value } from '../types/types.js';

/** One column of a read session: its name, BigQuery type and mode. */
export interface ArrowFieldSpec {
  name: string;
  type: BqType;
  required?: boolean;
}

/** The end-of-stream marker of the Arrow IPC stream format (continuation token + zero length). */
const EOS_BYTES = 8;

function arrowType(t: BqType): DataType {
  switch (t.kind) {
    case 'INT64':
      return new Int64();
    case 'FLOAT64':
      return new Float64();
    case 'STRING':
      return new Utf8();
    case 'BOOL':
      return new Bool();
    default:
      throw BigQueryError.notSupported(`Arrow encoding of ${t.kind}`, { in: 'request' });
  }
}

function arrowSchema(fields: ArrowFieldSpec[]): Schema {
  return new Schema(fields.map((f) => new Field(f.name, arrowType(f.type), !f.required)));
}

/**
 * The Arrow IPC schema message of `fields` (encapsulated: continuation, length, flatbuffer,
 * padding), as BigQuery sends it in `ReadSession.arrowSchema.serializedSchema`.
 * @throws BigQueryError invalid for a type this encoder does not support yet.
 */
export function arrowSchemaBytes(fields: ArrowFieldSpec[]): Uint8Array {
  const bytes = tableToIPC(new Table(arrowSchema(fields)), 'stream');
  return bytes.subarray(0, bytes.length - EOS_BYTES);
}

/**
 * One Arrow IPC record batch message (no schema, no end-of-stream) holding `rows` (row-major,
 * one Value per field), as BigQuery sends it in `ArrowRecordBatch.serializedRecordBatch`.
 * @throws BigQueryError invalid for a type this encoder does not support yet.
 */
export function arrowRecordBatchBytes(fields: ArrowFieldSpec[], rows: Value[][]): Uint8Array {
  const schema = arrowSchema(fields);
  const columns: Record<string, ReturnType<typeof vectorFromArray>> = {};
  fields.forEach((f, i) => {
    const type = schema.fields[i].type;
    const values = rows.map((r) => {
      const v = r[i];
      if (v === null || v === undefined) return null;
      if (f.type.kind === 'INT64') return BigInt(v as bigint | number);
      return v;
    });
    columns[f.name] = vectorFromArray(values as never[], type);
  });
  const table = new Table(schema, columns as never);
  const all = tableToIPC(table, 'stream');
  const head = arrowSchemaBytes(fields).length;
  return all.subarray(head, all.length - EOS_BYTES);
}
