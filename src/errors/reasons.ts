/**
 * One factory per BigQuery error reason, for messages whose text comes from elsewhere: the
 * analyzer's and DuckDB's own messages passed through, and the family factories of the other
 * catalogue files, which build BigQuery's text and call these. Reasons and statuses:
 * https://cloud.google.com/bigquery/docs/error-messages.
 */
import { BigQueryError } from './bigquery-error.js';

/** 400 invalidQuery, location `query` (syntax and analysis errors). */
export function invalidQuery(message: string): BigQueryError {
  return new BigQueryError('invalidQuery', message, 'query');
}
/** 400 invalid naming the field at fault. */
export function invalid(message: string, location?: string): BigQueryError {
  return new BigQueryError('invalid', message, location);
}
/** 404 notFound with BigQuery's text, e.g. `Not found: Table p:d.t`. */
export function notFound(message: string): BigQueryError {
  return new BigQueryError('notFound', message);
}
/** 409 duplicate, e.g. `Already Exists: Table p:d.t`. */
export function duplicate(message: string): BigQueryError {
  return new BigQueryError('duplicate', message);
}
/** A runtime error raised while executing a query (division by zero, overflow, bad cast …): 400 invalidQuery, location `query`. */
export function runtime(message: string): BigQueryError {
  return new BigQueryError('invalidQuery', message, 'query');
}
/** 400 outOfRange (a value outside its type's domain, https://cloud.google.com/bigquery/docs/error-messages). */
export function outOfRange(message: string): BigQueryError {
  return new BigQueryError('outOfRange', message);
}
/** 412 conditionNotMet: `Precondition check failed.` (an `If-Match` etag that does not match). */
export function preconditionFailed(): BigQueryError {
  return new BigQueryError('conditionNotMet', 'Precondition check failed.');
}
/** 500 backendError: a fault of the emulator itself, never a client mistake. */
export function internal(message: string): BigQueryError {
  return new BigQueryError('backendError', message);
}
/**
 * 400 badRequest for a request the front end cannot read at all (a URL with malformed
 * percent-encoding, an unreadable body length) — Google's front ends answer such requests 400
 * "Bad Request" before any API method runs. `httpStatus` for the HTTP-level refusals that have
 * their own status (408 request timeout, 431 header fields too large).
 */
export function badRequest(message: string, httpStatus = 400): BigQueryError {
  return new BigQueryError('badRequest', message, undefined, httpStatus);
}
