/**
 * Errors of routines (user-defined functions, procedures): routines.insert bodies and CREATE
 * FUNCTION statements (https://cloud.google.com/bigquery/docs/routines,
 * https://cloud.google.com/bigquery/docs/user-defined-functions).
 */
import type { BigQueryError } from './bigquery-error.js';
import { invalid, invalidQuery } from './reasons.js';

/** 400 invalid at `<where>`: a routine argument or return type whose `typeKind` is not a type (`kind` as sent, empty when missing). */
export function invalidTypeKind(where: string, kind: string): BigQueryError {
  return invalid(`Invalid value for ${where}.typeKind: ${kind || '(missing)'}`, where);
}

/**
 * 400 invalid at `definitionBody`: routines.insert without a body (Routine.definitionBody is
 * required, src/server/rest/bigquery-v2-discovery.json).
 */
export function routineBodyRequired(): BigQueryError {
  return invalid('Routine definition body is required.', 'definitionBody');
}

/** 400 invalid at `language`: a JavaScript routine that is not a scalar function (https://cloud.google.com/bigquery/docs/user-defined-functions#javascript-udf-structure). */
export function javascriptOnlyScalar(): BigQueryError {
  return invalid('Only scalar functions may be written in JavaScript', 'language');
}

/** 400 invalid at `returnType`: a JavaScript function without a return type (JavaScript UDFs declare RETURNS). */
export function javascriptReturnTypeRequired(): BigQueryError {
  return invalid('Return type is required for JavaScript functions.', 'returnType');
}

/** 400 invalid at `arguments`: a routine argument without a name; `position` 1-based. */
export function argumentNameRequired(position: number): BigQueryError {
  return invalid(`Argument name is required (argument ${position}).`, 'arguments');
}

/** 400 invalid at `filter`: a routines.list `filter` other than `routineType:<TYPE>` (https://cloud.google.com/bigquery/docs/reference/rest/v2/routines/list). */
export function invalidRoutineFilter(filter: string): BigQueryError {
  return invalid(`Invalid filter: ${filter}`, 'filter');
}

/** 400 invalidQuery: CREATE FUNCTION … LANGUAGE js without argument types or RETURNS (https://cloud.google.com/bigquery/docs/user-defined-functions#javascript-udf-structure). */
export function javascriptTypesRequired(): BigQueryError {
  return invalidQuery('A JavaScript function must declare its argument types and RETURNS type');
}

/** 400 invalidQuery: CREATE TEMP FUNCTION outside a script or before a query (https://cloud.google.com/bigquery/docs/user-defined-functions#temporary-udf). */
export function tempFunctionOutsideScript(): BigQueryError {
  return invalidQuery('CREATE TEMP FUNCTION is only valid in a script or before a query');
}

/** 400 invalidQuery `Function <name> already exists` — CREATE TEMP FUNCTION of a name the script already holds. */
export function tempFunctionExists(name: string): BigQueryError {
  return invalidQuery(`Function ${name} already exists`);
}

/**
 * 400 invalid at `routineType`: `Invalid value for routineType: <type>`, or `Routine type is
 * required.` when empty (Routine.routineType, src/server/rest/bigquery-v2-discovery.json).
 */
export function invalidRoutineType(routineType: string): BigQueryError {
  return invalid(routineType ? `Invalid value for routineType: ${routineType}` : 'Routine type is required.', 'routineType');
}
