/**
 * 400 invalidQuery errors raised while a query runs (location `query`): overflows, bad casts,
 * function argument errors — in the texts of ZetaSQL's function library, which BigQuery runs
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/functions-and-operators), and
 * DuckDB's errors mapped onto them (src/engine/duckdb/duckdb-errors.ts).
 */
import type { BigQueryError } from './bigquery-error.js';
import { invalidQuery, runtime } from './reasons.js';

/** `int64 overflow[: <a> <op> <b>]` — INT64 arithmetic past its range (ZetaSQL's text). */
export function int64Overflow(expression?: string): BigQueryError {
  return runtime(expression === undefined ? 'int64 overflow' : `int64 overflow: ${expression}`);
}

/** `Bad <int64|double|bool> value: <text>` — CAST of a string that is not a value of the type (ZetaSQL's text). */
export function badCastValue(type: 'int64' | 'double' | 'bool', text: string): BigQueryError {
  return runtime(`Bad ${type} value: ${text}`);
}

/** `Invalid <KIND> value: <text>` — a string that is not a value of a parameterised or NUMERIC type (ZetaSQL's text, e.g. `Invalid NUMERIC value: x`). */
export function invalidTypedValue(kind: string, text: string): BigQueryError {
  return runtime(`Invalid ${kind} value: ${text}`);
}

/** `Interrupted!` — a DuckDB statement interrupted because its job was cancelled or timed out. */
export function interrupted(): BigQueryError {
  return runtime('Interrupted!');
}

/** `Array cannot have a null element; error in writing field <name>` — writing an ARRAY with a NULL element to a table (https://cloud.google.com/bigquery/docs/arrays#constructing_arrays). */
export function arrayNullElement(field: string): BigQueryError {
  return runtime('Array cannot have a null element; error in writing field ' + field);
}

/**
 * `Required field <name> cannot be null` — a DML statement writing NULL to a REQUIRED (NOT NULL)
 * column (BigQuery's text for a NULL in a REQUIRED field, as load jobs report it; DuckDB's own
 * `NOT NULL constraint failed: <table>.<column>` names the internal table).
 */
export function requiredFieldNull(field: string): BigQueryError {
  return runtime(`Required field ${field} cannot be null`);
}

/** 400 invalidQuery `<FN> does not support the <part> date part` (ZetaSQL's text for a date part a function does not take). */
export function datePartNotSupported(fn: string, part: string): BigQueryError {
  return invalidQuery(`${fn} does not support the ${part} date part`);
}

/** 400 invalidQuery `Too few arguments to FORMAT` (https://cloud.google.com/bigquery/docs/reference/standard-sql/string_functions#format_string). */
export function formatTooFewArguments(): BigQueryError {
  return invalidQuery('Too few arguments to FORMAT');
}

/** 400 invalidQuery `Invalid JSONPath: <path>` (https://cloud.google.com/bigquery/docs/reference/standard-sql/json_functions#JSONPath_format). */
export function invalidJsonPath(path: string): BigQueryError {
  return invalidQuery(`Invalid JSONPath: ${path}`);
}

/** 400 invalidQuery `Collation specification <spec> is not supported` (https://cloud.google.com/bigquery/docs/reference/standard-sql/collation-concepts). */
export function collationNotSupported(spec: string): BigQueryError {
  return invalidQuery(`Collation specification ${spec} is not supported`);
}

/** 400 invalidQuery: LIKE with `_` under a collation (https://cloud.google.com/bigquery/docs/reference/standard-sql/collation-concepts#limitations). */
export function collatedLikeUnderscore(): BigQueryError {
  return invalidQuery("LIKE pattern has '_' which is not allowed when its operands have collation");
}

/** 400 invalidQuery: APPROX_QUANTILES with a number of quantiles that is not a positive constant (https://cloud.google.com/bigquery/docs/reference/standard-sql/approximate_aggregate_functions#approx_quantiles). */
export function approxQuantilesNumber(): BigQueryError {
  return invalidQuery('APPROX_QUANTILES requires a positive constant number of quantiles');
}

/** 400 invalidQuery: REGEXP_EXTRACT / REGEXP_EXTRACT_ALL with more than one capturing group (ZetaSQL's text; https://cloud.google.com/bigquery/docs/reference/standard-sql/string_functions#regexp_extract). */
export function regexpTooManyGroups(): BigQueryError {
  return invalidQuery('Regular expressions passed into extraction functions must not have more than 1 capturing group');
}

/**
 * 400 invalidQuery `UPDATE/MERGE must match at most one source row for each target row` — an
 * UPDATE … FROM or MERGE joining a target row to several source rows, which BigQuery refuses
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/dml-syntax#update_statement).
 */
export function multipleSourceRowsMatched(): BigQueryError {
  return runtime('UPDATE/MERGE must match at most one source row for each target row');
}

/** `numeric overflow: <a> <op> <b>` — NUMERIC arithmetic past its 38 digits (ZetaSQL's NumericValue text, which BigQuery runs). */
export function numericOverflow(expression: string): BigQueryError {
  return runtime(`numeric overflow: ${expression}`);
}

/** `Invalid cast of bytes to UTF8 string` — CAST(BYTES AS STRING) of bytes that are not UTF-8 (ZetaSQL's text; https://cloud.google.com/bigquery/docs/reference/standard-sql/conversion_functions#cast_as_string). */
export function invalidUtf8Cast(): BigQueryError {
  return runtime('Invalid cast of bytes to UTF8 string');
}

/**
 * `Scalar subquery produced more than one element` — an expression subquery `(SELECT …)` that
 * returned several rows, a runtime error in BigQuery (Subqueries, "Scalar subqueries",
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/subqueries#scalar_subquery_concepts).
 */
export function scalarSubqueryTooManyRows(): BigQueryError {
  return runtime('Scalar subquery produced more than one element');
}
