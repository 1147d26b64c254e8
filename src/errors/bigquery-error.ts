/**
 * The `BigQueryError` class: a reason, an HTTP status and a message exactly as BigQuery answers
 * them, and the two wire forms they take — the `ErrorProto` of a job's `status.errorResult` /
 * `errors[]`, and the REST error envelope `{error:{code, message, errors:[{message,
 * domain:"global", reason, location?, locationType?}], status}}`
 * (https://cloud.google.com/bigquery/docs/error-messages). A client mistake is never a 5xx (the
 * clients retry 5xx).
 *
 * Only the catalogue (the other files of src/errors/) constructs errors; the rest of src/ calls
 * its factories (test/error-catalogue.test.ts enforces it).
 */

/** BigQuery error reasons (https://cloud.google.com/bigquery/docs/error-messages) with their HTTP status. */
export const REASON_STATUS = {
  invalidQuery: 400,
  invalid: 400,
  badRequest: 400,
  outOfRange: 400,
  notFound: 404,
  duplicate: 409,
  accessDenied: 403,
  conditionNotMet: 412,
  stopped: 200,
  backendError: 500,
  notImplemented: 501,
  resourcesExceeded: 400,
  resourceInUse: 400,
  jobInternalError: 400,
  /** A job or statement ran past its time limit (scriptOptions.statementTimeoutMs). */
  timeout: 400,
  /** The result is larger than BigQuery returns (https://cloud.google.com/bigquery/docs/error-messages#errortable). */
  responseTooLarge: 403,
  /** A concurrent change won (IAM setIamPolicy with a stale etag): HTTP 409, status ABORTED. */
  aborted: 409,
  /** No credentials where the caller must authenticate: HTTP 401, status UNAUTHENTICATED (src/errors/auth-errors.ts). */
  required: 401,
  /** Credentials that are not valid: HTTP 401, status UNAUTHENTICATED (src/errors/auth-errors.ts). */
  authError: 401,
} as const;

/** A BigQuery error reason (a key of REASON_STATUS). */
export type Reason = keyof typeof REASON_STATUS;

/** The `status` string of the REST envelope for each HTTP status (google.rpc.Code names). */
const STATUS_NAME: Record<number, string> = {
  200: 'OK', 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ALREADY_EXISTS',
  412: 'FAILED_PRECONDITION', 499: 'CANCELLED', 500: 'INTERNAL', 501: 'UNIMPLEMENTED',
  408: 'DEADLINE_EXCEEDED', 431: 'INVALID_ARGUMENT',
};

/**
 * One BigQuery error. `httpStatus` defaults to the reason's status in REASON_STATUS; `location`
 * is the ErrorProto's `location` (`query` for analysis errors, a field path for request errors).
 * Construct it through the catalogue's factories (src/errors/index.ts), not directly.
 */
export class BigQueryError extends Error {
  readonly reason: Reason;
  readonly httpStatus: number;
  readonly location?: string;
  /**
   * How the envelope's `errors[0]` differs from the top-level error, when it does: its own message
   * (BigQuery's 401s say `Login Required.` there) and `locationType` (`header` for a header's fault).
   */
  readonly item?: { message?: string; locationType?: string };

  constructor(reason: Reason, message: string, location?: string, httpStatus?: number, item?: { message?: string; locationType?: string }) {
    const status = httpStatus ?? REASON_STATUS[reason];
    // A client's mistake (4xx) carries no stack trace: it is an answer, not a fault, and capturing
    // one cost ~7 µs a time — 1.8 s of the event loop's 3 minutes in a fuzz run's CPU profile.
    // Server-side errors (5xx) keep theirs for the logs.
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.reason = reason;
    this.httpStatus = status;
    this.location = location;
    if (item) this.item = item;
  }

  /** The `ErrorProto` of a job's `status.errorResult` / `errors[]`. */
  toErrorProto(): { reason: string; message: string; location?: string } {
    const e: { reason: string; message: string; location?: string } = { reason: this.reason, message: this.message };
    if (this.location !== undefined) e.location = this.location;
    return e;
  }

  /** The REST error envelope. */
  toEnvelope(): object {
    const item: Record<string, string> = { message: this.item?.message ?? this.message, domain: 'global', reason: this.reason };
    if (this.location !== undefined) {
      item.location = this.location;
      item.locationType = this.item?.locationType ?? 'other';
    }
    return {
      error: { code: this.httpStatus, message: this.message, errors: [item], status: this.reason === 'aborted' ? 'ABORTED' : (STATUS_NAME[this.httpStatus] ?? 'UNKNOWN') },
    };
  }
}

/** Wraps anything thrown into a BigQueryError (unknown errors become backendError 500). */
export function asBigQueryError(e: unknown): BigQueryError {
  if (e instanceof BigQueryError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new BigQueryError('backendError', msg);
}
