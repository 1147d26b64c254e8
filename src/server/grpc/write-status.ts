/**
 * gRPC answers of the Storage Write API handlers (write-service.ts, append-rows.ts): a handler's
 * error as the call's status or as an AppendRows response's `error`, with its StorageError
 * (storage.proto) when it has one, and google.protobuf.Timestamp values.
 */
import * as grpc from '@grpc/grpc-js';
import type { Logger } from '../../config/logger.js';
import { BigQueryError, grpcCodeOf } from '../../errors/errors.js';
import { encodeStorageError } from './protos.js';

/** The `google.protobuf.Any` type URL of a StorageError detail. */
const STORAGE_ERROR_TYPE_URL = 'type.googleapis.com/google.cloud.bigquery.storage.v1.StorageError';

/** The StorageError of a Write API error (code, entity, its message), if it carries one. */
function storageErrorMessage(e: BigQueryError): { code: string; entity: string; errorMessage: string } | undefined {
  const s = BigQueryError.storageErrorOf(e);
  return s && { code: s.code, entity: s.entity, errorMessage: e.message };
}

/**
 * The `error` (google.rpc.Status) of an AppendRows response: code, message and, for an error with
 * a StorageError code, that StorageError as a detail.
 */
export function rpcStatusOf(e: BigQueryError): { code: number; message: string; details: { type_url: string; value: Buffer }[] } {
  const s = storageErrorMessage(e);
  // `type_url` as named in any.proto: protobufjs's google.protobuf.Any wrapper reads that key.
  return { code: grpcCodeOf(e), message: e.message, details: s ? [{ type_url: STORAGE_ERROR_TYPE_URL, value: encodeStorageError(s) }] : [] };
}

/** A google.protobuf.Timestamp of epoch milliseconds. */
export const timestampOf = (ms: number) => ({ seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 });

/** The gRPC status of a handler's error (BigQueryError → its code and text; anything else INTERNAL, logged as a bug). */
export function writeStatusOf(e: unknown, log: Logger): grpc.ServiceError {
  const err = e instanceof BigQueryError ? e : undefined;
  if (!err) log.error({ err: e }, 'bug: a Storage Write API handler failed unexpectedly');
  const code = err ? grpcCodeOf(err) : grpc.status.INTERNAL;
  const details = err ? err.message : String((e as Error)?.message ?? e);
  const metadata = new grpc.Metadata();
  // The trailer the Node client's managedwriter.parseStorageErrors reads.
  const s = err && storageErrorMessage(err);
  if (s) metadata.add('google.cloud.bigquery.storage.v1.storageerror-bin', encodeStorageError(s));
  return Object.assign(new Error(details), { code, details, metadata });
}
