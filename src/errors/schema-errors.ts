/**
 * 400 invalid errors of a table schema (TableSchema / TableFieldSchema in
 * src/server/rest/bigquery-v2-discovery.json; https://cloud.google.com/bigquery/docs/schemas) and its
 * parameterised types (https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#parameterized_data_types).
 * Location `schema` unless stated.
 */
import type { BigQueryError } from './bigquery-error.js';
import { invalid } from './reasons.js';

/** `Empty field name` — a schema field without a name. */
export function emptyFieldName(): BigQueryError {
  return invalid('Empty field name', 'schema');
}

/** `Invalid field type: <type>` — a field type that is not a BigQuery type. */
export function invalidFieldType(type: string): BigQueryError {
  return invalid(`Invalid field type: ${type}`, 'schema');
}

/** `Field <name> is type RECORD but has no schema.` */
export function recordWithoutFields(name: string): BigQueryError {
  return invalid(`Field ${name} is type RECORD but has no schema.`, 'schema');
}

/** A RANGE field without a DATE, DATETIME or TIMESTAMP `rangeElementType`. */
export function rangeElementTypeRequired(name: string): BigQueryError {
  return invalid(`Field ${name} of type RANGE needs rangeElementType DATE, DATETIME or TIMESTAMP.`, 'schema');
}

/** `Field <name>: <detail>` — a type parameter (maxLength, precision, scale, roundingMode) the field's type does not take or in a form it does not take. */
export function fieldTypeParameter(name: string, detail: string): BigQueryError {
  return invalid(`Field ${name}: ${detail}`, 'schema');
}

/** 400 invalid `Invalid RANGE value: <text>` — a RANGE query parameter or cell that is not `[start, end)`; `location` the parameter path. */
export function invalidRangeValue(text: string, location?: string): BigQueryError {
  return invalid(`Invalid RANGE value: ${text}`, location);
}
