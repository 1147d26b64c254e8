/**
 * Errors of the BigQuery Storage Read API (google.cloud.bigquery.storage.v1.BigQueryRead, served
 * over gRPC by src/server/grpc/). They are ordinary BigQueryErrors; src/errors/grpc-status.ts maps
 * each to the gRPC status code the API answers with. Texts without a recording are the emulator's
 * own wording and say so.
 */
import { BigQueryError } from './bigquery-error.js';

/**
 * 400 invalid (gRPC INVALID_ARGUMENT): a resource name that does not have the shape the API
 * expects, e.g. a read stream that is not `projects/P/locations/L/sessions/S/streams/T`
 * (the emulator's wording; the shapes are the resource patterns of storage.proto and stream.proto).
 */
export function malformedResourceName(kind: string, name: string, pattern: string): BigQueryError {
  return new BigQueryError('invalid', `Invalid ${kind} name '${name}': expected ${pattern}`);
}

/**
 * 404 notFound (gRPC NOT_FOUND): a well-formed session or stream name this emulator never issued
 * or has forgotten (sessions expire 6 hours after creation: ReadSession.expire_time in
 * storage.proto). The emulator's wording.
 */
export function readSessionNotFound(kind: 'session' | 'stream', name: string): BigQueryError {
  return new BigQueryError('notFound', `Not found: read ${kind} ${name}`);
}

/**
 * 400 invalid (gRPC INVALID_ARGUMENT): `readOptions.selectedFields` names a column the table
 * does not have (the official client's system test expects code 3 for it). The emulator's wording.
 */
export function selectedFieldNotFound(field: string, table: string): BigQueryError {
  return new BigQueryError('invalid', `Field ${field} in selected_fields was not found in the schema of table ${table}`);
}

/**
 * 400 invalid (gRPC INVALID_ARGUMENT): `readOptions.rowRestriction` is not a filter the API can
 * apply to `table` (`project.dataset.table`). BigQuery's text, as its clients report it for a
 * restriction with a subquery (https://github.com/GoogleCloudDataproc/spark-bigquery-connector/issues/278,
 * https://github.com/GoogleCloudDataproc/spark-bigquery-connector/issues/543):
 * `request failed: Row filter for p.d.t is invalid. Filter is '(<restriction>)'`. When the ZetaSQL
 * analyzer rejected the restriction (it is analyzed like a query's WHERE clause), its text follows
 * as `detail` (the emulator's addition, so the reader learns which name or type is wrong).
 */
export function invalidRowRestriction(table: string, filter: string, detail?: string): BigQueryError {
  return new BigQueryError('invalid', `request failed: Row filter for ${table} is invalid. Filter is '(${filter})'${detail ? `. ${detail}` : ''}`);
}

/**
 * 400 invalidQuery: the statement a read session lowers is not a query (an internal guard; the
 * session builds a SELECT itself). The emulator's wording.
 */
export function readSessionNotAQuery(): BigQueryError {
  return new BigQueryError('invalidQuery', 'A Storage Read API session reads the rows of one query statement');
}

/**
 * 400 invalid (gRPC INVALID_ARGUMENT): a row restriction longer than 1 MB (TableReadOptions.row_restriction
 * in stream.proto: "Restricted to a maximum length for 1 MB"). BigQuery's text, as its clients
 * report it (https://github.com/GoogleCloudDataproc/spark-bigquery-connector/issues/1301).
 */
export function rowRestrictionTooLong(maxBytes: number): BigQueryError {
  return new BigQueryError('invalid', `read_session.read_options.row_restriction exceeded maximum allowed length. Maximum bytes allowed: ${maxBytes}`);
}

/**
 * 400 outOfRange (gRPC OUT_OF_RANGE): ReadRows at an `offset` past the end of the stream
 * (ReadRowsRequest.offset in storage.proto). The emulator's wording.
 */
export function readOffsetOutOfRange(offset: number, rows: number, stream: string): BigQueryError {
  return new BigQueryError('outOfRange', `The offset ${offset} is beyond the end of stream ${stream} (${rows} rows)`);
}

/**
 * 400 invalid (gRPC INVALID_ARGUMENT): a request field outside its documented range
 * (maxStreamCount < preferredMinStreamCount, SplitReadStream fraction outside (0, 1), a negative
 * offset: the field comments of storage.proto). The emulator's wording.
 */
export function invalidReadArgument(message: string): BigQueryError {
  return new BigQueryError('invalid', message);
}

/**
 * 400 invalid (gRPC INVALID_ARGUMENT): CreateReadSession on a view — the Storage Read API reads
 * tables only (https://cloud.google.com/bigquery/docs/reference/storage#limitations). BigQuery's
 * text, as quoted in public reports (https://github.com/coiled/dask-bigquery/issues/41):
 * `non-table entities cannot be read with the storage API`.
 */
export function storageReadNonTable(): BigQueryError {
  return new BigQueryError('invalid', 'non-table entities cannot be read with the storage API');
}

/**
 * 412 conditionNotMet (gRPC FAILED_PRECONDITION): ReadRows or SplitReadStream on a stream whose
 * session's `expireTime` has passed (sessions live 6 hours: ReadSession.expire_time in
 * storage.proto). BigQuery's text, as its clients report it
 * (https://github.com/GoogleCloudDataproc/spark-bigquery-connector/issues/1316):
 * `there was an error operating on 'projects/…/streams/…': session expired at 2024-11-23T09:59:13+00:00`.
 */
export function readSessionExpired(stream: string, expireMs: number): BigQueryError {
  const at = new Date(expireMs).toISOString().slice(0, 19) + '+00:00';
  return new BigQueryError('conditionNotMet', `there was an error operating on '${stream}': session expired at ${at}`);
}
