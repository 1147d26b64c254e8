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
  408: 'DEADLINE_EXCEEDED', 431: 'INVALID_ARGUMENT',
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
   * 403 accessDenied for a source or destination file the job may not touch: BigQuery's text for a
   * Cloud Storage object the caller cannot read, `Access Denied: File gs://…: Access Denied`
   * (quoted in https://github.com/GoogleCloudPlatform/PerfKitExplorer/issues/1 and
   * https://github.com/GoogleCloudPlatform/data-science-on-gcp/issues/170). The emulator gives it
   * for any path outside the Cloud Storage stand-in folder and the directories the user allowed.
   */
  static accessDeniedFile(uri: string): BigQueryError {
    return new BigQueryError('accessDenied', `Access Denied: File ${uri}: Access Denied`);
  }
  /**
   * 403 accessDenied for a wildcard source URI whose folder the job may not list: BigQuery's text
   * `Access Denied: BigQuery BigQuery: Permission denied while globbing file pattern.` (quoted in
   * https://github.com/dbt-labs/dbt-core/issues/502).
   */
  static accessDeniedGlob(): BigQueryError {
    return new BigQueryError('accessDenied', 'Access Denied: BigQuery BigQuery: Permission denied while globbing file pattern.');
  }
  /**
   * 400 invalid for a source URI that is neither `gs://bucket/object` nor a local absolute path
   * (`file:///path` or `/path`). JobConfigurationLoad.sourceUris (api/bigquery-v2-discovery.json)
   * names Cloud Storage URIs; the local forms are the emulator's own.
   */
  static invalidSourceUri(uri: string): BigQueryError {
    return new BigQueryError('invalid', `Invalid source URI: ${uri}. Use gs://bucket/path, file:///path or an absolute local path`);
  }
  /** 400 invalidQuery for an EXPORT DATA / extract destination that is not `gs://bucket/object` (BigQuery EXPORT DATA statement: `uri` is a Cloud Storage URI). */
  static invalidExportUri(uri: string): BigQueryError {
    return new BigQueryError('invalidQuery', `Invalid export URI: ${uri}`);
  }

  // --- REST request errors (the API front end's answers, before a method runs) ---

  /**
   * 400 invalid for a request body the front end cannot map onto the method's request message:
   * `Invalid JSON payload received. <detail>` — e.g. `Unknown name "x" at 'dataset': Cannot find
   * field.` or `Unknown name "type" at 'table.time_partitioning': Proto field is not repeating,
   * cannot start list.` (texts as answered by googleapis.com front ends, e.g.
   * https://github.com/r-dbi/bigrquery/issues/361).
   */
  static invalidJsonPayload(detail: string, location?: string): BigQueryError {
    return new BigQueryError('invalid', `Invalid JSON payload received. ${detail}`, location);
  }
  /**
   * 400 invalid for a body or query-string value of the wrong type: `Invalid value at
   * 'job.job_reference.job_id' (TYPE_STRING), false` (protobuf field path in snake_case, the
   * expected protobuf type, then the value as sent in JSON).
   */
  static invalidFieldValue(path: string, protoType: string, value: string): BigQueryError {
    return new BigQueryError('invalid', `Invalid value at '${path}' (${protoType}), ${value}`, path);
  }
  /**
   * 400 badRequest for a request over BigQuery's maximum request size (10 MB, "Maximum request
   * size" on https://cloud.google.com/bigquery/quotas): `Request payload size exceeds the limit:
   * 10485760 bytes.`
   */
  static requestTooLarge(limitBytes: number): BigQueryError {
    return new BigQueryError('badRequest', `Request payload size exceeds the limit: ${limitBytes} bytes.`);
  }
  /**
   * 403 accessDenied for a request the emulator refuses to serve for its host's safety (a `Host`
   * it does not serve, a cross-site form content type, a foreign `Origin`).
   */
  static forbiddenRequest(message: string): BigQueryError {
    return new BigQueryError('accessDenied', message);
  }
  /**
   * 400 badRequest for a request the front end cannot read at all (a URL with malformed
   * percent-encoding, an unreadable body length) — Google's front ends answer such requests 400
   * "Bad Request" before any API method runs. `httpStatus` for the HTTP-level refusals that have
   * their own status (408 request timeout, 431 header fields too large).
   */
  static badRequest(message: string, httpStatus = 400): BigQueryError {
    return new BigQueryError('badRequest', message, undefined, httpStatus);
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
