/**
 * BigQuery errors: reason, HTTP status and message exactly as BigQuery answers them.
 *
 * Envelope (DESIGN §4): `{error:{code, message, errors:[{message, domain:"global", reason,
 * location?, locationType?}], status}}`. A client mistake is never a 5xx (the clients retry 5xx).
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
} as const;

export type Reason = keyof typeof REASON_STATUS;

const STATUS_NAME: Record<number, string> = {
  200: 'OK', 400: 'INVALID_ARGUMENT', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ALREADY_EXISTS',
  412: 'FAILED_PRECONDITION', 499: 'CANCELLED', 500: 'INTERNAL', 501: 'UNIMPLEMENTED',
};

export class BigQueryError extends Error {
  readonly reason: Reason;
  readonly httpStatus: number;
  readonly location?: string;

  constructor(reason: Reason, message: string, location?: string, httpStatus?: number) {
    super(message);
    this.reason = reason;
    this.httpStatus = httpStatus ?? REASON_STATUS[reason];
    this.location = location;
  }

  /** The `ErrorProto` of a job's `status.errorResult` / `errors[]`. */
  toErrorProto(): { reason: string; message: string; location?: string } {
    const e: { reason: string; message: string; location?: string } = { reason: this.reason, message: this.message };
    if (this.location !== undefined) e.location = this.location;
    return e;
  }

  /** The REST error envelope. */
  toEnvelope(): object {
    const item: Record<string, string> = { message: this.message, domain: 'global', reason: this.reason };
    if (this.location !== undefined) {
      item.location = this.location;
      item.locationType = 'other';
    }
    return {
      error: { code: this.httpStatus, message: this.message, errors: [item], status: STATUS_NAME[this.httpStatus] ?? 'UNKNOWN' },
    };
  }

  /** 400 invalidQuery, location `query` (syntax and analysis errors). */
  static invalidQuery(message: string): BigQueryError {
    return new BigQueryError('invalidQuery', message, 'query');
  }
  /** 400 invalid naming the field at fault. */
  static invalid(message: string, location?: string): BigQueryError {
    return new BigQueryError('invalid', message, location);
  }
  /** 404 notFound with BigQuery's text, e.g. `Not found: Table p:d.t`. */
  static notFound(message: string): BigQueryError {
    return new BigQueryError('notFound', message);
  }
  static tableNotFound(project: string, dataset: string, table: string, inLocation = true): BigQueryError {
    return BigQueryError.notFound(`Not found: Table ${project}:${dataset}.${table}${inLocation ? ' was not found in location US' : ''}`);
  }
  static datasetNotFound(project: string, dataset: string, inLocation = true): BigQueryError {
    return BigQueryError.notFound(`Not found: Dataset ${project}:${dataset}${inLocation ? ' was not found in location US' : ''}`);
  }
  static jobNotFound(project: string, jobId: string): BigQueryError {
    return BigQueryError.notFound(`Not found: Job ${project}:US.${jobId}`);
  }
  /** 409 duplicate, e.g. `Already Exists: Table p:d.t`. */
  static duplicate(message: string): BigQueryError {
    return new BigQueryError('duplicate', message);
  }
  /** 400 invalidQuery for a statement or function the emulator does not implement. */
  static notSupported(what: string): BigQueryError {
    return new BigQueryError('invalidQuery', `${what} is not supported by bqemu`, 'query');
  }
  /** A runtime error raised while executing a query (division by zero, overflow, bad cast …). */
  static runtime(message: string): BigQueryError {
    return new BigQueryError('invalidQuery', message, 'query');
  }
  static outOfRange(message: string): BigQueryError {
    return new BigQueryError('outOfRange', message);
  }
  static preconditionFailed(): BigQueryError {
    return new BigQueryError('conditionNotMet', 'Precondition check failed.');
  }
  static internal(message: string): BigQueryError {
    return new BigQueryError('backendError', message);
  }
  /**
   * 400 resourcesExceeded for a statement the analyzer cannot finish (past its deadline, or its
   * resolved form too large): BigQuery's query-planning resources error
   * (https://cloud.google.com/bigquery/docs/troubleshoot-quotas, "Resources exceeded during query
   * execution"; reason resourcesExceeded, https://cloud.google.com/bigquery/docs/error-messages).
   */
  static queryTooComplex(): BigQueryError {
    return new BigQueryError(
      'resourcesExceeded',
      'Resources exceeded during query execution: Not enough resources for query planning - too many subqueries or query is too complex.',
    );
  }
  /**
   * The `stopped` error of work abandoned because its job was cancelled (HTTP 499 CANCELLED when a
   * call answers it); text as BigQuery reports a cancelled job (test/jobs-lifecycle.test.ts).
   */
  static cancelled(): BigQueryError {
    return new BigQueryError('stopped', 'Job execution was cancelled: User requested cancellation', undefined, 499);
  }
}

/** Wraps anything thrown into a BigQueryError (unknown errors become backendError 500). */
export function asBigQueryError(e: unknown): BigQueryError {
  if (e instanceof BigQueryError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return BigQueryError.internal(msg);
}
