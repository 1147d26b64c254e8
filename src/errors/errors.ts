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
   * 400 resourcesExceeded: a JavaScript UDF exhausted its heap. BigQuery's text as it answers it
   * (`Resources exceeded during query execution: UDF out of memory.`, quoted from a failed job in
   * https://github.com/HTTPArchive/bigquery/pull/114); limits described at
   * https://cloud.google.com/bigquery/docs/user-defined-functions#limits.
   */
  static jsUdfOutOfMemory(): BigQueryError {
    return new BigQueryError('resourcesExceeded', 'Resources exceeded during query execution: UDF out of memory.');
  }
  /**
   * 400 resourcesExceeded: a JavaScript UDF ran past its time limit. BigQuery documents that "a
   * JavaScript UDF can time out and prevent your query from completing"
   * (https://cloud.google.com/bigquery/docs/user-defined-functions#limits) without publishing the
   * text; this keeps its resources-exceeded family and names the function and the limit.
   * `signature` is `f(INT64)`, `limitMs` the time limit in milliseconds.
   */
  static jsUdfTimeout(signature: string, limitMs: number): BigQueryError {
    return new BigQueryError('resourcesExceeded', `Resources exceeded during query execution: JavaScript UDF ${signature} timed out after ${limitMs} ms.`);
  }
}

/** Wraps anything thrown into a BigQueryError (unknown errors become backendError 500). */
export function asBigQueryError(e: unknown): BigQueryError {
  if (e instanceof BigQueryError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return BigQueryError.internal(msg);
}
