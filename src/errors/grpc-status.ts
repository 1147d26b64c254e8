/**
 * BigQuery errors → gRPC status codes (google.rpc.Code) for the Storage Read API. The code
 * follows the HTTP status of the error the way Google's APIs map the two (google/rpc/code.proto:
 * 400 INVALID_ARGUMENT, 403 PERMISSION_DENIED, 404 NOT_FOUND, 409 ALREADY_EXISTS, 412
 * FAILED_PRECONDITION, 499 CANCELLED, 501 UNIMPLEMENTED, 500 INTERNAL), except reason
 * `outOfRange`, which is OUT_OF_RANGE (the code ReadRows answers for an offset past the end).
 */
import type { BigQueryError } from './bigquery-error.js';

/** google.rpc.Code values used here (google/rpc/code.proto). */
export const GRPC_CODE = {
  CANCELLED: 1,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
} as const;

const BY_HTTP: Record<number, number> = {
  400: GRPC_CODE.INVALID_ARGUMENT,
  403: GRPC_CODE.PERMISSION_DENIED,
  404: GRPC_CODE.NOT_FOUND,
  408: GRPC_CODE.DEADLINE_EXCEEDED,
  409: GRPC_CODE.ALREADY_EXISTS,
  412: GRPC_CODE.FAILED_PRECONDITION,
  499: GRPC_CODE.CANCELLED,
  501: GRPC_CODE.UNIMPLEMENTED,
};

/** The gRPC status code of `e` (INTERNAL only for a 5xx, which is the emulator's own failure). */
export function grpcCodeOf(e: BigQueryError): number {
  if (e.reason === 'outOfRange') return GRPC_CODE.OUT_OF_RANGE;
  if (e.reason === 'resourcesExceeded') return GRPC_CODE.RESOURCE_EXHAUSTED;
  return BY_HTTP[e.httpStatus] ?? (e.httpStatus >= 500 ? GRPC_CODE.INTERNAL : GRPC_CODE.INVALID_ARGUMENT);
}
