/**
 * The 400 resourcesExceeded family (`Resources exceeded during query execution: …`) and the 403
 * responseTooLarge answer (reasons on https://cloud.google.com/bigquery/docs/error-messages).
 */
import { BigQueryError } from './bigquery-error.js';

/**
 * 400 resourcesExceeded: a JavaScript UDF exhausted its heap. BigQuery's text as it answers it
 * (`Resources exceeded during query execution: UDF out of memory.`, quoted from a failed job in
 * https://github.com/HTTPArchive/bigquery/pull/114); limits described at
 * https://cloud.google.com/bigquery/docs/user-defined-functions#limits.
 */
export function jsUdfOutOfMemory(): BigQueryError {
  return new BigQueryError('resourcesExceeded', 'Resources exceeded during query execution: UDF out of memory.');
}

/**
 * 400 resourcesExceeded: a JavaScript UDF ran past its time limit. BigQuery documents that "a
 * JavaScript UDF can time out and prevent your query from completing"
 * (https://cloud.google.com/bigquery/docs/user-defined-functions#limits) without publishing the
 * text; this keeps its resources-exceeded family and names the function and the limit.
 * `signature` is `f(INT64)`, `limitMs` the time limit in milliseconds.
 */
export function jsUdfTimeout(signature: string, limitMs: number): BigQueryError {
  return new BigQueryError('resourcesExceeded', `Resources exceeded during query execution: JavaScript UDF ${signature} timed out after ${limitMs} ms.`);
}

/**
 * 400 resourcesExceeded for a statement the analyzer cannot finish (past its deadline, or its
 * resolved form too large): BigQuery's query-planning resources error
 * (https://cloud.google.com/bigquery/docs/troubleshoot-quotas, "Resources exceeded during query
 * execution"; reason resourcesExceeded, https://cloud.google.com/bigquery/docs/error-messages).
 */
export function queryTooComplex(): BigQueryError {
  return new BigQueryError(
    'resourcesExceeded',
    'Resources exceeded during query execution: Not enough resources for query planning - too many subqueries or query is too complex.',
  );
}

/**
 * 400 resourcesExceeded: a query needed more memory than it may use
 * (https://cloud.google.com/bigquery/docs/troubleshoot-queries#query_exceeds_memory_resources).
 */
export function resourcesExceeded(): BigQueryError {
  return new BigQueryError('resourcesExceeded', 'Resources exceeded during query execution: The query could not be executed in the allotted memory');
}

/**
 * 403 responseTooLarge: the result is larger than BigQuery returns without a destination table
 * (https://cloud.google.com/bigquery/docs/error-messages#errortable, reason responseTooLarge).
 */
export function responseTooLarge(): BigQueryError {
  return new BigQueryError('responseTooLarge', 'Response too large to return. Consider specifying a destination table in your job configuration.');
}
