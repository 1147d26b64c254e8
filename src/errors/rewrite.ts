/**
 * Errors re-stated from another error: the same reason and HTTP status with a reworded message or
 * another location (a script's statement error re-anchored in the script text, a dry run's
 * `location` as BigQuery reports it, an error revived from the job store).
 */
import { BigQueryError } from './bigquery-error.js';

/** A copy of `e` with `message` in place of its text (reason, location and HTTP status kept). */
export function withMessage(e: BigQueryError, message: string): BigQueryError {
  return new BigQueryError(e.reason, message, e.location, e.httpStatus);
}

/** A copy of `e` at ErrorProto location `location` (reason, text and HTTP status kept). */
export function withLocation(e: BigQueryError, location: string | undefined): BigQueryError {
  return new BigQueryError(e.reason, e.message, location, e.httpStatus);
}

/** A stored error's fields (`reason`, `message`, `location`, `httpStatus`), as a job store keeps them. */
export interface StoredError {
  reason: BigQueryError['reason'];
  message: string;
  location?: string;
  httpStatus?: number;
}

/** The BigQueryError of a stored error's fields (the job store's JSON form, src/jobs/persist.ts). */
export function revive(e: StoredError): BigQueryError {
  return new BigQueryError(e.reason, e.message, e.location, e.httpStatus);
}
