/**
 * gRPC answers of the Storage Write API handlers (write-service.ts, append-rows.ts): a handler's
 * error as the call's status, and google.protobuf.Timestamp values.
 */
import * as grpc from '@grpc/grpc-js';
import type { Logger } from '../../config/logger.js';
import { BigQueryError, grpcCodeOf } from '../../errors/errors.js';

/** A google.protobuf.Timestamp of epoch milliseconds. */
export const timestampOf = (ms: number) => ({ seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 });

/** The gRPC status of a handler's error (BigQueryError → its code and text; anything else INTERNAL, logged as a bug). */
export function writeStatusOf(e: unknown, log: Logger): grpc.ServiceError {
  const err = e instanceof BigQueryError ? e : undefined;
  if (!err) log.error({ err: e }, 'bug: a Storage Write API handler failed unexpectedly');
  const code = err ? grpcCodeOf(err) : grpc.status.INTERNAL;
  const details = err ? err.message : String((e as Error)?.message ?? e);
  return Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });
}
