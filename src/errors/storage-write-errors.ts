/**
 * Errors of the BigQuery Storage Write API (google.cloud.bigquery.storage.v1.BigQueryWrite, served
 * over gRPC by src/server/grpc/). Ordinary BigQueryErrors: src/errors/grpc-status.ts maps each
 * reason to the gRPC code the API answers with (invalid → INVALID_ARGUMENT, notFound → NOT_FOUND,
 * duplicate → ALREADY_EXISTS, outOfRange → OUT_OF_RANGE). BigQuery ends its Write API texts with
 * ` Entity: <stream name>`; texts without a recording or a public quotation are the emulator's own
 * wording and say so.
 */
import { BigQueryError } from './bigquery-error.js';

/**
 * 400 invalid (INVALID_ARGUMENT): a write stream name that is not one of the emulator's streams
 * (`projects/P/datasets/D/tables/T/streams/ID` with an id it never issued, or another shape).
 * Recorded: conformance/grpc/storage_write/sw_get_write_stream_not_found
 * (`Invalid stream name. Entity: projects/…/streams/does-not-exist-12345`).
 */
export function invalidWriteStreamName(name: string): BigQueryError {
  return new BigQueryError('invalid', `Invalid stream name. Entity: ${name}`);
}

/**
 * 404 notFound (NOT_FOUND): an operation the stream does not have, such as FinalizeWriteStream on
 * the implicit `_default` stream. Recorded: conformance/grpc/storage_write/sw_finalize_default_invalid_argument
 * (`Requested entity was not found. Entity: projects/…/streams/_default`).
 */
export function writeStreamEntityNotFound(name: string): BigQueryError {
  return new BigQueryError('notFound', `Requested entity was not found. Entity: ${name}`);
}

/**
 * 400 outOfRange (OUT_OF_RANGE): FlushRows at an offset the BUFFERED stream has not reached.
 * Recorded: conformance/grpc/storage_write/sw_flush_rows_buffered_zero
 * (`Offset 0 is beyond the end of the stream Entity: projects/…/streams/…`).
 */
export function flushOffsetBeyondEnd(offset: number, name: string): BigQueryError {
  return new BigQueryError('outOfRange', `Offset ${offset} is beyond the end of the stream Entity: ${name}`);
}

/**
 * 409 duplicate (ALREADY_EXISTS): AppendRows with an `offset` below the stream's end (rows already
 * written there; a client retrying an acknowledged append gets this). BigQuery's text as its Java
 * client's integration test checks it (googleapis/java-bigquerystorage ITBigQueryWriteManualClientTest
 * testOffsetAlreadyExistsError: `The offset is within stream, expected offset 1, received 0`);
 * https://cloud.google.com/bigquery/docs/write-api#exactly-once
 */
export function appendOffsetAlreadyExists(expected: number, received: number, name: string): BigQueryError {
  return new BigQueryError('duplicate', `The offset is within stream, expected offset ${expected}, received ${received} Entity: ${name}`);
}

/**
 * 400 outOfRange (OUT_OF_RANGE): AppendRows with an `offset` beyond the stream's end. BigQuery's
 * text as its Java client's integration test checks it (ITBigQueryWriteManualClientTest
 * testOffsetOutOfRangeError: `The offset is beyond stream, expected offset 0, received 100`).
 */
export function appendOffsetBeyondEnd(expected: number, received: number, name: string): BigQueryError {
  return new BigQueryError('outOfRange', `The offset is beyond stream, expected offset ${expected}, received ${received} Entity: ${name}`);
}

/**
 * 400 invalid (INVALID_ARGUMENT): AppendRows to a finalized stream. BigQuery's text as its Java
 * client's integration test checks it (ITBigQueryWriteManualClientTest: `INVALID_ARGUMENT: Stream
 * has been finalized and cannot be appended`).
 */
export function writeStreamFinalized(name: string): BigQueryError {
  return new BigQueryError('invalid', `Stream has been finalized and cannot be appended Entity: ${name}`);
}

/**
 * 400 invalid (INVALID_ARGUMENT): the status of an AppendRows response whose `row_errors` reject
 * the request. BigQuery's text as its clients report it
 * (https://github.com/googleapis/python-bigquery-storage/issues/717).
 */
export function appendRowErrors(name: string): BigQueryError {
  return new BigQueryError(
    'invalid',
    `Errors found while processing rows. Please refer to the row_errors field for details. The list may not be complete because of the size limitations. Entity: ${name}`,
  );
}

/**
 * 400 invalid (INVALID_ARGUMENT): an `offset` on an append to the `_default` stream, which
 * storage.proto forbids ("Specifying a value for this field is not allowed when calling AppendRows
 * for the '_default' stream"). The emulator's wording.
 */
export function defaultStreamOffset(name: string): BigQueryError {
  return new BigQueryError('invalid', `An offset cannot be given for the _default stream Entity: ${name}`);
}

/**
 * 400 invalid (INVALID_ARGUMENT): FlushRows on a stream that is not BUFFERED (storage.proto
 * FlushRowsRequest: "Flush is not supported on the _default stream, since it is not BUFFERED").
 * The emulator's wording.
 */
export function flushNotBuffered(name: string): BigQueryError {
  return new BigQueryError('invalid', `FlushRows is supported on BUFFERED streams only Entity: ${name}`);
}

/**
 * 400 invalid (INVALID_ARGUMENT): a malformed Write API request — no stream on the first
 * AppendRows request, no writer schema, no rows, a descriptor that does not describe a message,
 * an unspecified stream type (the REQUIRED fields of storage.proto). The emulator's wording.
 */
export function invalidWriteRequest(message: string): BigQueryError {
  return new BigQueryError('invalid', message);
}
