/**
 * Storage Write API rows → domain rows. `AppendRows` carries either proto rows (a self-contained
 * `DescriptorProto` in `protoRows.writerSchema.protoDescriptor` plus serialized messages in
 * `protoRows.rows.serializedRows`) or Arrow rows (an IPC schema plus serialized record batches);
 * both are decoded with maintained libraries (`protobufjs`, `apache-arrow`) and converted to the
 * domain values of src/types/types.ts in the table's column order.
 *
 * FIRST SLICE: INT64/FLOAT64/BOOL/STRING/BYTES scalar fields of proto rows only; the conversions
 * BigQuery documents for every other type (docs "Supported protocol buffer and Arrow data types"
 * of the Storage Write API) and Arrow rows come next.
 */
import protobuf from 'protobufjs';
// protobufjs's descriptor.proto extension: `DescriptorProto` and `Type.fromDescriptor`.
import descriptorExt from 'protobufjs/ext/descriptor/index.js';
import type { Column } from '../types/schema.js';
import type { Value } from '../types/types.js';

/** One rejected row: BigQuery's `RowError` (index in the request's rows, code, message). */
export interface WriteRowError {
  index: number;
  /** `RowError.RowErrorCode`: FIELDS_ERROR for a value that does not fit its column. */
  code: 'FIELDS_ERROR' | 'ROW_ERROR_CODE_UNSPECIFIED';
  message: string;
}

/** The result of decoding one request's rows: all rows, or the errors that reject the request. */
export interface DecodedWriteRows {
  /** Values in the table's column order; `undefined` = the column's DEFAULT (DEFAULT_VALUE). */
  rows: (Value | undefined)[][];
  /** Non-empty → the whole request is rejected (BigQuery appends no row of it). */
  rowErrors: WriteRowError[];
}

/** How a field absent from a row is filled (`AppendRowsRequest.MissingValueInterpretation`). */
export type MissingValueInterpretation = 'MISSING_VALUE_INTERPRETATION_UNSPECIFIED' | 'NULL_VALUE' | 'DEFAULT_VALUE';

/** Options of one AppendRows request that affect decoding. */
export interface WriteRowOptions {
  /** `missingValueInterpretations`: column name (lower case) → interpretation. */
  missingValueInterpretations?: Record<string, MissingValueInterpretation>;
  /** `defaultMissingValueInterpretation`. */
  defaultMissingValueInterpretation?: MissingValueInterpretation;
}

/** Decodes the serialized rows of one AppendRows request. */
export interface WriteRowDecoder {
  decode(serializedRows: Uint8Array[], options?: WriteRowOptions): DecodedWriteRows;
}

/**
 * A decoder for proto rows described by `descriptor` (the `DescriptorProto` as protobufjs or
 * proto-loader decodes it: an object with `name`, `field`, `nestedType`, `enumType`), mapped onto
 * `columns` by field name (case-insensitive).
 * @throws Error (the caller maps it to INVALID_ARGUMENT) when the descriptor is not a valid message.
 */
export function protoRowDecoder(descriptor: unknown, columns: Column[]): WriteRowDecoder {
  const root = new protobuf.Root();
  // fromObject accepts enum names (proto-loader's `enums: String`) as well as numbers.
  const message = (descriptorExt as unknown as { DescriptorProto: protobuf.Type }).DescriptorProto.fromObject(descriptor as object);
  const type = (protobuf.Type as unknown as { fromDescriptor(d: unknown): protobuf.Type }).fromDescriptor(message);
  root.add(type);
  const byName = new Map(columns.map((c, i) => [c.name.toLowerCase(), i]));
  return {
    decode(serializedRows, options) {
      const rows: (Value | undefined)[][] = [];
      const rowErrors: WriteRowError[] = [];
      serializedRows.forEach((bytes, index) => {
        const msg = type.toObject(type.decode(bytes), { longs: String, bytes: Array }) as Record<string, unknown>;
        const row: (Value | undefined)[] = columns.map((c) => {
          const how = options?.missingValueInterpretations?.[c.name.toLowerCase()] ?? options?.defaultMissingValueInterpretation;
          return how === 'DEFAULT_VALUE' ? undefined : null;
        });
        for (const [k, v] of Object.entries(msg)) {
          const i = byName.get(k.toLowerCase());
          if (i === undefined) {
            rowErrors.push({ index, code: 'FIELDS_ERROR', message: `Field ${k} not found in the table schema` });
            continue;
          }
          const kind = columns[i].type.kind;
          row[i] = kind === 'INT64' ? BigInt(v as string) : kind === 'BYTES' ? Uint8Array.from(v as number[]) : (v as Value);
        }
        rows.push(row);
      });
      return { rows, rowErrors };
    },
  };
}
