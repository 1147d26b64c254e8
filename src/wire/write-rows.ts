/**
 * Storage Write API rows → domain rows. `AppendRows` carries either proto rows (a self-contained
 * `DescriptorProto` in `protoRows.writerSchema.protoDescriptor` plus serialized messages in
 * `protoRows.rows.serializedRows`) or Arrow rows (an IPC schema plus serialized record batches,
 * src/wire/write-arrow-rows.ts); both are decoded with maintained libraries (`protobufjs`,
 * `apache-arrow`) and converted to the domain values of src/types/types.ts in the table's column
 * order, with BigQuery's conversions (src/wire/write-values.ts, src/wire/write-proto-fields.ts).
 *
 * Per request: a value that does not fit its column, a REQUIRED column without a value, a string
 * longer than STRING(L), a NUMERIC outside NUMERIC(P, S) → that row's `RowError` (FIELDS_ERROR) and
 * the request appends nothing. A writer schema that does not fit the table (an extra field, a type
 * BigQuery cannot convert) is thrown by the decoder's constructor (INVALID_ARGUMENT).
 *
 * Presence: BigQuery decodes every writer schema as proto2 — a field is set when it is on the wire
 * (java-bigquerystorage#2295: "the binary string will be decoded as proto2 in the service side"),
 * so a proto3 scalar left at its zero value, which proto3 encoders omit, arrives as a missing
 * value (NULL), and a zero that is encoded (proto3 `optional`, proto2, protobufjs) is a value
 * (python-bigquery-storage#918, google-cloud-go#4130).
 *
 * Missing values (AppendRowsRequest.missing_value_interpretations and
 * default_missing_value_interpretation, storage.proto): a column the row does not set is NULL
 * (NULL_VALUE, and UNSPECIFIED), or its DEFAULT (DEFAULT_VALUE; `undefined` in the row, for the
 * inserter to fill; NULL for a column without one). A REPEATED column without a value is `[]`.
 */
import protobuf from 'protobufjs';
// protobufjs's descriptor.proto extension: `DescriptorProto` and `Type.fromDescriptor`.
import descriptorExt from 'protobufjs/ext/descriptor/index.js';
import { BigQueryError } from '../errors/errors.js';
import { WriteRowValueError, requiredValueMissingText, unparsableRowText } from '../errors/write-row-errors.js';
import type { Column } from '../types/schema.js';
import { applyParams, treeHasParams } from '../types/type-params.js';
import type { Value } from '../types/types.js';
import { bindContext, bindMessage, type BoundMessage } from './write-proto-fields.js';

const hasOwn = Object.prototype.hasOwnProperty;

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
  /** `missingValueInterpretations`: column name (any case) → interpretation. */
  missingValueInterpretations?: Record<string, MissingValueInterpretation>;
  /** `defaultMissingValueInterpretation`. */
  defaultMissingValueInterpretation?: MissingValueInterpretation;
}

/**
 * Decodes the serialized rows of one AppendRows request. `decode` runs synchronously (about 1 µs
 * per small row); `decodeAsync` decodes in slices of {@link WRITE_DECODE_SLICE_ROWS} rows and
 * yields to the event loop between slices — use it for large requests.
 */
export interface WriteRowDecoder {
  decode(serializedRows: Uint8Array[], options?: WriteRowOptions): DecodedWriteRows;
  decodeAsync(serializedRows: Uint8Array[], options?: WriteRowOptions): Promise<DecodedWriteRows>;
  /** Proto rows: the writer schema's message type (for src/wire/write-proto-columns.ts). */
  readonly protoType?: protobuf.Type;
}

/** Rows decoded between two yields of `decodeAsync` (about 5-10 ms of work). */
export const WRITE_DECODE_SLICE_ROWS = 8_192;

/** The value a REQUIRED column without value and without default gets before the row check. */
const MISSING_REQUIRED = Symbol('missing required') as unknown as Value;

/** Per request: each column's value when the row does not set it, and the columns that must be set. */
export interface MissingFill {
  values: (Value | undefined)[];
  required: number[];
}

/**
 * What each column gets when a row leaves it unset, under the request's interpretations
 * (AppendRowsRequest.MissingValueInterpretation: DEFAULT_VALUE = "column default value if declared
 * in the table schema, NULL otherwise"; NULL_VALUE and UNSPECIFIED = NULL). REQUIRED columns that
 * end NULL must be set by every row.
 */
export function missingFill(columns: Column[], options?: WriteRowOptions): MissingFill {
  let byName: Map<string, MissingValueInterpretation> | undefined;
  if (options?.missingValueInterpretations) {
    byName = new Map();
    for (const [k, v] of Object.entries(options.missingValueInterpretations)) byName.set(k.toLowerCase(), v);
  }
  const values: (Value | undefined)[] = [];
  const required: number[] = [];
  columns.forEach((c, i) => {
    const how = byName?.get(c.name.toLowerCase()) ?? options?.defaultMissingValueInterpretation;
    if (c.type.kind === 'ARRAY') values.push([]);
    else if (how === 'DEFAULT_VALUE' && c.defaultValueExpression !== undefined) values.push(undefined);
    else if (c.required) {
      values.push(MISSING_REQUIRED);
      required.push(i);
    } else values.push(null);
  });
  return { values, required };
}

/**
 * Finishes one decoded row: REQUIRED columns set, type parameters (STRING(L), NUMERIC(P, S)…)
 * applied with BigQuery's texts (src/types/type-params.ts).
 * @throws WriteRowValueError
 */
export function finishRow(row: (Value | undefined)[], columns: Column[], fill: MissingFill, paramColumns: number[]): void {
  for (const i of fill.required) if (row[i] === MISSING_REQUIRED) throw new WriteRowValueError(requiredValueMissingText(columns[i].name));
  for (const i of paramColumns) {
    const v = row[i];
    if (v === undefined || v === null) continue;
    try {
      row[i] = applyParams(v, columns[i].type, columns[i], columns[i].name);
    } catch (e) {
      if (e instanceof BigQueryError) throw new WriteRowValueError(e.message);
      throw e;
    }
  }
}

/** Indexes of the columns with type parameters anywhere in their type. */
export const paramColumnsOf = (columns: Column[]): number[] => columns.flatMap((c, i) => (treeHasParams(c.type, c) ? [i] : []));

/** Option keys of a FieldDescriptorProto that carry BigQuery's `column_name` annotation. */
const COLUMN_NAME_OPTIONS = ['.google.cloud.bigquery.storage.v1.columnName', '.google.cloud.bigquery.storage.v1.column_name', '(google.cloud.bigquery.storage.v1.column_name)', 'columnName'];

/**
 * A copy of the writer's DescriptorProto (object form) prepared for decoding: a field annotated
 * with `google.cloud.bigquery.storage.v1.column_name` (annotations.proto; the managed writer sets it
 * for column names that are no proto identifiers) takes that name; `required` labels become
 * optional, since REQUIRED is the table's to check, with BigQuery's row error.
 */
function prepareDescriptor(d: Record<string, unknown>): Record<string, unknown> {
  const fields = ((d.field as Record<string, unknown>[] | undefined) ?? []).map((f) => {
    const out: Record<string, unknown> = { ...f };
    const opts = f.options as Record<string, unknown> | undefined;
    const colName = opts && COLUMN_NAME_OPTIONS.map((k) => opts[k]).find((v) => typeof v === 'string' && v);
    if (colName) out.name = colName;
    if (out.label === 2 || out.label === 'LABEL_REQUIRED') out.label = 1;
    if (out.label === undefined || out.label === null || out.label === 0) out.label = 1;
    delete out.options;
    return out;
  });
  const nested = ((d.nestedType as Record<string, unknown>[] | undefined) ?? []).map(prepareDescriptor);
  return { ...d, field: fields, nestedType: nested };
}

const descriptorProto = (descriptorExt as unknown as { DescriptorProto: protobuf.Type }).DescriptorProto;
const typeFromDescriptor = (protobuf.Type as unknown as { fromDescriptor(d: unknown): protobuf.Type }).fromDescriptor;

/** A protobufjs Type for the writer schema, in a root that also holds the well-known types BigQuery accepts. */
function writerType(descriptor: unknown): protobuf.Type {
  try {
    let obj = descriptor;
    if (descriptor instanceof Uint8Array) obj = descriptorProto.toObject(descriptorProto.decode(descriptor), { enums: Number, longs: Number });
    const message = descriptorProto.fromObject(prepareDescriptor(obj as Record<string, unknown>));
    const type = typeFromDescriptor(message);
    const root = new protobuf.Root();
    for (const file of ['google/protobuf/wrappers.proto', 'google/protobuf/timestamp.proto', 'google/protobuf/duration.proto'])
      root.addJSON((protobuf.common as unknown as Record<string, { nested: protobuf.INamespace['nested'] }>)[file].nested!);
    root.add(type);
    root.resolveAll();
    return type;
  } catch (e) {
    throw BigQueryError.invalidProtoSchema((e as Error).message);
  }
}

/**
 * A decoder for proto rows described by `descriptor` (the `DescriptorProto` as protobufjs or
 * proto-loader decodes it — an object with `name`, `field`, `nestedType`, `enumType`, enums as
 * names or numbers — or its serialized bytes), mapped onto `columns` by field name
 * (case-insensitive). Built once per (descriptor, columns) pair; `decode` is the hot path.
 * @throws BigQueryError invalid (gRPC INVALID_ARGUMENT): `invalidProtoSchema` for a descriptor
 *   that is not a usable message, `writeExtraFields` for fields the table lacks (any depth),
 *   `protoFieldMismatch` for a field whose proto type BigQuery does not convert to its column's.
 */
export function protoRowDecoder(descriptor: unknown, columns: Column[]): WriteRowDecoder {
  const type = writerType(descriptor);
  const ctx = bindContext();
  const bound: BoundMessage = bindMessage(type, columns.map((c) => ({ name: c.name, type: c.type, required: c.required, details: c })), '', ctx);
  if (ctx.extra.length) throw BigQueryError.writeExtraFields(ctx.extra);
  const paramColumns = paramColumnsOf(columns);
  const fields = bound.fields;

  const decodeSlice = (rows: Uint8Array[], from: number, to: number, fill: MissingFill, out: DecodedWriteRows) => {
    for (let r = from; r < to; r++) {
      let msg: Record<string, unknown>;
      try {
        msg = type.decode(rows[r]) as unknown as Record<string, unknown>;
      } catch (e) {
        out.rowErrors.push({ index: r, code: 'FIELDS_ERROR', message: unparsableRowText((e as Error).message) });
        continue;
      }
      const row = fill.values.slice();
      try {
        for (let k = 0; k < fields.length; k++) {
          const f = fields[k];
          // Present = set on the wire (own property of the decoded message); a repeated field non-empty.
          if (!hasOwn.call(msg, f.key)) continue;
          const v = msg[f.key];
          if (v === null || v === undefined || (f.repeated && (v as unknown[]).length === 0)) continue;
          row[f.index] = f.convert(v);
        }
        if (fill.required.length || paramColumns.length) finishRow(row, columns, fill, paramColumns);
      } catch (e) {
        if (!(e instanceof WriteRowValueError)) throw e;
        out.rowErrors.push({ index: r, code: 'FIELDS_ERROR', message: e.message });
        continue;
      }
      out.rows.push(row);
    }
  };

  return {
    protoType: type,
    decode(serializedRows, options) {
      const out: DecodedWriteRows = { rows: [], rowErrors: [] };
      decodeSlice(serializedRows, 0, serializedRows.length, missingFill(columns, options), out);
      return out;
    },
    async decodeAsync(serializedRows, options) {
      const out: DecodedWriteRows = { rows: [], rowErrors: [] };
      const fill = missingFill(columns, options);
      for (let from = 0; from < serializedRows.length; from += WRITE_DECODE_SLICE_ROWS) {
        if (from > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        decodeSlice(serializedRows, from, Math.min(serializedRows.length, from + WRITE_DECODE_SLICE_ROWS), fill, out);
      }
      return out;
    },
  };
}
