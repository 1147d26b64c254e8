/**
 * Errors of BigQuery's quotas and limits (https://cloud.google.com/bigquery/quotas; the numbers
 * live in src/config/limits.ts) and of ZetaSQL's function-library limits.
 */
import { BigQueryError } from './bigquery-error.js';
import { invalid, runtime } from './reasons.js';

/**
 * 400 invalid: the query text is longer than BigQuery's maximum (1,024K characters); checked
 * before analysis. Text as BigQuery answers it (quoted in public reports, e.g.
 * https://github.com/elementary-data/dbt-data-reliability/issues/675).
 */
export function queryTooLarge(): BigQueryError {
  return new BigQueryError('invalid', 'The query is too large. The maximum standard SQL query length is 1024.00K characters, including comments and white space characters.');
}

/**
 * 400 invalidQuery: expressions nested deeper than the analyzer's stack allows
 * (https://cloud.google.com/bigquery/docs/troubleshoot-queries#out_of_stack_space); the text
 * exactly as the analyzer itself answers a deep `1+1+…` chain (no final period).
 */
export function outOfStackSpace(): BigQueryError {
  return new BigQueryError('invalidQuery', 'Out of stack space due to deeply nested query expression during query resolution', 'query');
}

/**
 * 400 invalidQuery: the `number` argument of APPROX_QUANTILES / APPROX_TOP_COUNT / APPROX_TOP_SUM
 * is above 100,000 (BigQuery: "The second argument to APPROX_QUANTILES function cannot be
 * greater than 100000").
 */
export function approxNumberTooLarge(fn: string, max: number): BigQueryError {
  return runtime(`The second argument to ${fn} function cannot be greater than ${max}`);
}

/**
 * 400 invalidQuery: a string function's output would pass 1 MB (ZetaSQL's function library, run
 * by BigQuery: "Output of REPEAT exceeds max allowed output size of 1MB"; LPAD and RPAD share
 * "Output of LPAD/RPAD …").
 */
export function outputTooLarge(fn: string): BigQueryError {
  return runtime(`Output of ${fn} exceeds max allowed output size of 1MB`);
}

/**
 * 400 invalidQuery: GENERATE_ARRAY / GENERATE_DATE_ARRAY / GENERATE_TIMESTAMP_ARRAY would build
 * more than `max` elements (ZetaSQL's function library: "Cannot generate arrays with more than
 * N elements.").
 */
export function tooManyArrayElements(max: number): BigQueryError {
  return runtime(`Cannot generate arrays with more than ${max} elements.`);
}

/**
 * 400 invalidQuery: a recursive CTE ran more iterations than BigQuery allows (500,
 * https://cloud.google.com/bigquery/docs/recursive-ctes).
 */
export function recursionLimit(max: number): BigQueryError {
  return runtime(`Recursive query exceeded the maximum number of iterations (${max}).`);
}

/**
 * 400 invalid: a column name longer than BigQuery allows (300 characters,
 * https://cloud.google.com/bigquery/docs/schemas#column_names), in BigQuery's text for invalid
 * field names (tables.insert answers it; quoted in public reports of the error).
 */
export function invalidFieldName(name: string, location?: string): BigQueryError {
  return invalid(
    `Invalid field name "${name}". Fields must contain the allowed characters, and be at most 300 characters long. For allowed characters, please refer to https://cloud.google.com/bigquery/docs/schemas#column_names`,
    location,
  );
}
