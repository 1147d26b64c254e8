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
  /** The result is larger than BigQuery returns (https://cloud.google.com/bigquery/docs/error-messages#errortable). */
  responseTooLarge: 403,
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

  // ---------- limits (https://cloud.google.com/bigquery/quotas, src/config/limits.ts) ----------

  /**
   * 400 invalid: the query text is longer than BigQuery's maximum (1,024K characters); checked
   * before analysis. Text as BigQuery answers it (quoted in public reports, e.g.
   * https://github.com/elementary-data/dbt-data-reliability/issues/675).
   */
  static queryTooLarge(): BigQueryError {
    return new BigQueryError('invalid', 'The query is too large. The maximum standard SQL query length is 1024.00K characters, including comments and white space characters.');
  }
  /**
   * 400 invalidQuery: expressions nested deeper than the analyzer's stack allows
   * (https://cloud.google.com/bigquery/docs/troubleshoot-queries#out_of_stack_space); the text
   * exactly as the analyzer itself answers a deep `1+1+…` chain (no final period).
   */
  static outOfStackSpace(): BigQueryError {
    return new BigQueryError('invalidQuery', 'Out of stack space due to deeply nested query expression during query resolution', 'query');
  }
  /**
   * 400 resourcesExceeded: a query needed more memory than it may use
   * (https://cloud.google.com/bigquery/docs/troubleshoot-queries#query_exceeds_memory_resources).
   */
  static resourcesExceeded(): BigQueryError {
    return new BigQueryError('resourcesExceeded', 'Resources exceeded during query execution: The query could not be executed in the allotted memory');
  }
  /**
   * 403 responseTooLarge: the result is larger than BigQuery returns without a destination table
   * (https://cloud.google.com/bigquery/docs/error-messages#errortable, reason responseTooLarge).
   */
  static responseTooLarge(): BigQueryError {
    return new BigQueryError('responseTooLarge', 'Response too large to return. Consider specifying a destination table in your job configuration.');
  }
  /**
   * 400 invalidQuery: the `number` argument of APPROX_QUANTILES / APPROX_TOP_COUNT / APPROX_TOP_SUM
   * is above 100,000 (BigQuery: "The second argument to APPROX_QUANTILES function cannot be
   * greater than 100000").
   */
  static approxNumberTooLarge(fn: string, max: number): BigQueryError {
    return BigQueryError.runtime(`The second argument to ${fn} function cannot be greater than ${max}`);
  }
  /**
   * 400 invalidQuery: a string function's output would pass 1 MB (ZetaSQL's function library, run
   * by BigQuery: "Output of REPEAT exceeds max allowed output size of 1MB"; LPAD and RPAD share
   * "Output of LPAD/RPAD …").
   */
  static outputTooLarge(fn: string): BigQueryError {
    return BigQueryError.runtime(`Output of ${fn} exceeds max allowed output size of 1MB`);
  }
  /**
   * 400 invalidQuery: GENERATE_ARRAY / GENERATE_DATE_ARRAY / GENERATE_TIMESTAMP_ARRAY would build
   * more than `max` elements (ZetaSQL's function library: "Cannot generate arrays with more than
   * N elements.").
   */
  static tooManyArrayElements(max: number): BigQueryError {
    return BigQueryError.runtime(`Cannot generate arrays with more than ${max} elements.`);
  }
  /**
   * 400 invalidQuery: a recursive CTE ran more iterations than BigQuery allows (500,
   * https://cloud.google.com/bigquery/docs/recursive-ctes).
   */
  static recursionLimit(max: number): BigQueryError {
    return BigQueryError.runtime(`Recursive query exceeded the maximum number of iterations (${max}).`);
  }
  /**
   * 400 invalid: a column name longer than BigQuery allows (300 characters,
   * https://cloud.google.com/bigquery/docs/schemas#column_names), in BigQuery's text for invalid
   * field names (tables.insert answers it; quoted in public reports of the error).
   */
  static invalidFieldName(name: string, location?: string): BigQueryError {
    return BigQueryError.invalid(
      `Invalid field name "${name}". Fields must contain the allowed characters, and be at most 300 characters long. For allowed characters, please refer to https://cloud.google.com/bigquery/docs/schemas#column_names`,
      location,
    );
  }
  /**
   * 400 invalid: a table id longer than 1,024 characters (https://cloud.google.com/bigquery/docs/tables#table_naming),
   * in the text tables.insert answers (src/server/rest/tables.ts).
   */
  static invalidTableId(id: string): BigQueryError {
    return BigQueryError.invalid(`Invalid table ID "${id}". Table IDs must be alphanumeric (plus underscores) and must be at most 1024 characters long. Also, Table decorators cannot be used.`);
  }
  /**
   * 400 invalid: a dataset id longer than 1,024 characters (https://cloud.google.com/bigquery/docs/datasets#dataset-naming),
   * in the text datasets.insert answers (src/server/rest/datasets.ts).
   */
  static invalidDatasetId(id: string): BigQueryError {
    return BigQueryError.invalid(`Invalid dataset ID "${id}". Dataset IDs must be alphanumeric (plus underscores and dashes) and must be at most 1024 characters long.`);
  }
}

/** Wraps anything thrown into a BigQueryError (unknown errors become backendError 500). */
export function asBigQueryError(e: unknown): BigQueryError {
  if (e instanceof BigQueryError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return BigQueryError.internal(msg);
}
