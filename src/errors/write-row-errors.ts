/**
 * Errors of the Storage Write API's row decoding (src/wire/write-rows.ts and its siblings): the
 * request-level schema errors (INVALID_ARGUMENT for the whole AppendRows request) and the texts of
 * per-row `RowError`s (`AppendRowsResponse.row_errors`, code FIELDS_ERROR), which BigQuery answers
 * in an INVALID_ARGUMENT "Errors found while processing rows…" response.
 *
 * Sources of the texts:
 * - `Input schema has more fields than BigQuery schema, extra fields: 'f'` and its StorageError
 *   message `Schema mismatch due to extra fields in user schema` (code SCHEMA_MISMATCH_EXTRA_FIELDS):
 *   BigQuery's answers quoted in apache/beam#27892 and memiiso/debezium-server-bigquery#268, and the
 *   system test "send request with mismatched proto descriptor" of googleapis/nodejs-bigquery-storage;
 * - `The proto field mismatched with BigQuery field at M.f, the proto field type t, BigQuery field
 *   type T`: BigQuery's text as Storage Write clients match it (a field whose proto type BigQuery
 *   cannot convert to the column's type, https://cloud.google.com/bigquery/docs/supported-data-types);
 * - `Field value of f cannot be empty.`: the row error of a REQUIRED column without a value, as
 *   Storage Write client fakes reproduce it;
 * - value texts reuse insertAll's row texts (src/errors/value-errors.ts) and the type-parameter
 *   texts (src/types/type-params.ts); the others are the emulator's wording and say so.
 * The caller (the BigQueryWrite service) appends BigQuery's ` Entity: <stream>` suffix.
 */
import type { BigQueryError } from './bigquery-error.js';
import { invalid } from './reasons.js';

/**
 * A value of one row that does not fit its column: becomes that row's `RowError` (FIELDS_ERROR),
 * never an error of the request. Thrown by the value converters and caught by the row loop.
 */
export class WriteRowValueError extends Error {}

/** A row-level value error with `message` (one of the texts below). */
export function writeRowValue(message: string): WriteRowValueError {
  return new WriteRowValueError(message);
}

/** Row error text: a REQUIRED column (or STRUCT field) `field` got no value and has no default. */
export function requiredValueMissingText(field: string): string {
  return `Field value of ${field} cannot be empty.`;
}

/** Row error text (the emulator's wording): a serialized row that is not a message of the writer schema. */
export function unparsableRowText(detail: string): string {
  return `Could not parse the serialized row as the writer schema's message: ${detail}`;
}

/** Row error text (the emulator's wording): `value` is outside the range of `kind` for field `field`. */
export function valueOutOfRangeText(field: string, kind: string, value: string): string {
  return `Field ${field}: value ${value} is out of range for ${kind}`;
}

/** Row error text (the emulator's wording): an invalid packed CivilTimeEncoder value for a DATETIME/TIME field. */
export function invalidCivilTimeText(field: string, kind: string, value: string): string {
  return `Field ${field}: ${value} is not a valid packed ${kind} value`;
}

/** Row error text (the emulator's wording): a NULL element of an Arrow list for a REPEATED field. */
export function nullRepeatedElementText(field: string): string {
  return `Field ${field}: a REPEATED field cannot hold NULL elements`;
}

/** Row error text: `message` (a BigQuery value text) prefixed with the field it concerns. */
export function fieldValueText(field: string, message: string): string {
  return `Field ${field}: ${message}`;
}

/**
 * 400 invalid (gRPC INVALID_ARGUMENT): the writer schema has fields the table does not (BigQuery's
 * text; see the file comment). `fields` are the names as the writer schema spells them.
 */
export function writeExtraFields(fields: string[]): BigQueryError {
  return invalid(`Input schema has more fields than BigQuery schema, extra fields: '${fields.join(',')}'`);
}

/** The `StorageError` BigQuery attaches to {@link writeExtraFields} (code, error_message). */
export const EXTRA_FIELDS_STORAGE_ERROR = {
  code: 'SCHEMA_MISMATCH_EXTRA_FIELDS',
  errorMessage: 'Schema mismatch due to extra fields in user schema',
} as const;

/**
 * 400 invalid (gRPC INVALID_ARGUMENT): a writer-schema field whose proto type does not convert to
 * its column's type, or whose repetition differs (BigQuery's text; see the file comment). `at` is
 * `Message.field`; `bqType` the legacy name (INTEGER, RECORD…), with ` REPEATED` for an array.
 */
export function protoFieldMismatch(at: string, protoType: string, bqType: string): BigQueryError {
  return invalid(`The proto field mismatched with BigQuery field at ${at}, the proto field type ${protoType}, BigQuery field type ${bqType}`);
}

/**
 * 400 invalid (gRPC INVALID_ARGUMENT): an Arrow field whose type does not convert to its column's
 * type (the proto text's Arrow form; the emulator's wording).
 */
export function arrowFieldMismatch(at: string, arrowType: string, bqType: string): BigQueryError {
  return invalid(`The Arrow field mismatched with BigQuery field at ${at}, the Arrow field type ${arrowType}, BigQuery field type ${bqType}`);
}

/**
 * 400 invalid (gRPC INVALID_ARGUMENT): `writer_schema.proto_descriptor` is not a usable
 * self-contained DescriptorProto (an undefined type name, a bad label…). BigQuery's prefix
 * `Invalid proto schema: ` with the decoder's detail (the emulator's wording after the prefix).
 */
export function invalidProtoSchema(detail: string): BigQueryError {
  return invalid(`Invalid proto schema: ${detail}`);
}

/**
 * 400 invalid (gRPC INVALID_ARGUMENT): `writer_schema.serialized_schema` or a serialized record
 * batch is not Arrow IPC the decoder can read (the emulator's wording).
 */
export function invalidArrowData(what: 'schema' | 'record batch', detail: string): BigQueryError {
  return invalid(`Invalid Arrow ${what}: ${detail}`);
}
