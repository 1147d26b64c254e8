/**
 * 400 invalid errors of JSON values the REST API decodes: tabledata.insertAll `rows[].json` (the
 * `row` dialect, BigQuery's per-row texts) and query parameter values (the `param` dialect), each
 * located at the value's path (`a`, `rec.b`, `arr[2].c`; no location for an empty path). Used by
 * src/wire/rest-json.ts and src/wire/rest-params.ts.
 */
import type { BigQueryError } from './bigquery-error.js';
import { invalid } from './reasons.js';

/** Whose texts: tabledata.insertAll rows or query parameters. */
export type JsonValueDialect = 'row' | 'param';

/**
 * Error texts. `row` = tabledata.insertAll per-row errors (reason `invalid`); `param` = query
 * parameter values. Verified: INT64 row text (recorded fixture http/jobs/insertall_skip_invalid_rows),
 * FLOAT64 row text (Cloud Logging sink errors quoting BigQuery), DATE row text
 * (GoogleCloudPlatform/DataflowTemplates#1345), TIMESTAMP row text (load/insertAll errors quoted in
 * several repositories), BOOL string text (confluentinc/kafka-connect-bigquery#176), `Array
 * specified for non-repeated field` and `no such field` (googleapis/google-cloud-dotnet#8206,
 * google/weather-tools#94, glific#3477), `Conversion from bool to std::string is unsupported.`
 * (googleapis/nodejs-bigquery system-test/bigquery.ts "should return partial errors"; older
 * answers, google-cloud-node#2052, read `bool to string`), `Could not decode base64 string to bytes.` and `Repeated field must be
 * imported as a JSON array.` (JSON load-job texts), param INT64 `Bad int64 value:` (mozilla/bigquery-etl#1490),
 * INTERVAL/DATE/TIMESTAMP param texts from ZetaSQL. Others are the closest analogue.
 */
const MESSAGES: Record<string, Record<JsonValueDialect, (bad: string) => string>> = {
  INT64: { row: (b) => `Cannot convert value to integer (bad value): ${b}`, param: (b) => `Bad int64 value: ${b}` },
  FLOAT64: { row: (b) => `Cannot convert value to floating point (bad value): ${b}`, param: (b) => `Bad double value: ${b}` },
  NUMERIC: { row: (b) => `Invalid NUMERIC value: ${b}`, param: (b) => `Invalid NUMERIC value: ${b}` },
  BIGNUMERIC: { row: (b) => `Invalid BIGNUMERIC value: ${b}`, param: (b) => `Invalid BIGNUMERIC value: ${b}` },
  BOOL: { row: (b) => `Cannot convert value to boolean (bad value): ${b}`, param: (b) => `Bad bool value: ${b}` },
  STRING: { row: (b) => `Cannot convert value to string (bad value): ${b}`, param: (b) => `Invalid STRING value: ${b}` },
  BYTES: { row: () => `Could not decode base64 string to bytes.`, param: (b) => `Invalid BYTES value: ${b}` },
  DATE: { row: (b) => `Invalid date: '${b}'`, param: (b) => `Invalid date: '${b}'` },
  DATETIME: { row: (b) => `Invalid datetime: '${b}'`, param: (b) => `Invalid datetime: '${b}'` },
  TIME: { row: (b) => `Invalid time: '${b}'`, param: (b) => `Invalid time: '${b}'` },
  TIMESTAMP: {
    row: (b) => `Could not parse '${b}' as a timestamp. Required format is YYYY-MM-DD HH:MM[:SS[.SSSSSS]] or YYYY/MM/DD HH:MM[:SS[.SSSSSS]]`,
    param: (b) => `Invalid timestamp: '${b}'`,
  },
  INTERVAL: { row: (b) => `Invalid INTERVAL value '${b}'`, param: (b) => `Invalid INTERVAL value '${b}'` },
  JSON: { row: (b) => `Invalid JSON value: ${b}`, param: (b) => `Invalid JSON value: ${b}` },
  GEOGRAPHY: { row: (b) => `Invalid GEOGRAPHY value: ${b}`, param: (b) => `Invalid GEOGRAPHY value: ${b}` },
};

/** 400 invalid at `path` (no location for an empty path). */
function at(message: string, path: string): BigQueryError {
  return invalid(message, path || undefined);
}

/** The field name a path ends with (`arr[2].c` → `c`, `arr[2]` → `arr`). */
function leafName(path: string): string {
  const p = path.replace(/(\[\d+\])+$/, '');
  return p.slice(p.lastIndexOf('.') + 1);
}

/**
 * A JSON value that is not a value of scalar type `kind` (a ScalarKind of src/types/types.ts), in the dialect's text (table above);
 * `shown` is the value as sent. A row's BYTES names the field and value.
 */
export function invalidJsonValue(kind: string, dialect: JsonValueDialect, shown: string, path: string): BigQueryError {
  const text = kind === 'BYTES' && dialect === 'row' ? `Could not decode base64 string to bytes. Field: ${leafName(path)}; Value: ${shown}` : MESSAGES[kind][dialect](shown);
  return at(text, path);
}

/** A row's BOOL string that is neither `true` nor `false`. */
export function rowStringNotBoolean(json: string, path: string): BigQueryError {
  return at(`Cannot convert string value to boolean: ${json}`, path);
}

/** A TIMESTAMP with a time zone that is not a zone name or offset (row: `Unrecognized timezone`, param: `Invalid time zone`). */
export function invalidTimeZone(zone: string, dialect: JsonValueDialect, path: string): BigQueryError {
  return at(dialect === 'row' ? `Unrecognized timezone: ${zone}` : `Invalid time zone: ${zone}`, path);
}

/** A TIMESTAMP outside 0001-01-01 .. 9999-12-31 (https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#timestamp_type). */
export function timestampOutOfRange(path: string): BigQueryError {
  return at('Timestamp value is out of allowed range: from 0001-01-01 00:00:00.000000+00 to 9999-12-31 23:59:59.999999+00.', path);
}

/** A JSON array for a field that is not REPEATED (`Array specified for non-repeated field: x.`). */
export function arrayForNonRepeated(path: string): BigQueryError {
  return at(`Array specified for non-repeated field: ${leafName(path)}.`, path);
}

/** A non-object value where a RECORD is expected, or an object for a non-RECORD field (`This field: x is not a record.`). */
export function notARecord(path: string): BigQueryError {
  return at(`This field: ${leafName(path)} is not a record.`, path);
}

/** A row's JSON boolean for a STRING field (`Conversion from bool to std::string is unsupported.`). */
export function boolToString(path: string): BigQueryError {
  return at('Conversion from bool to std::string is unsupported.', path);
}

/** A RANGE value that is not `[start, end)` text or a `{start, end}` object; `shown` as sent. */
export function invalidJsonRange(shown: string, path: string): BigQueryError {
  return at(`Invalid RANGE value: ${shown}`, path);
}

/** A REPEATED field whose value is not a JSON array. */
export function repeatedNotArray(path: string): BigQueryError {
  return at(`Repeated field must be imported as a JSON array. Field: ${leafName(path)}.`, path);
}

/** A NULL element of a REPEATED field in a row (`path` the field, `index` the element). */
export function nullInRepeated(path: string, index: number): BigQueryError {
  return at(`Only optional fields can be set to NULL. Field: ${leafName(path)}; Value: NULL`, `${path}[${index}]`);
}

/** A RECORD field whose value is not an object; `shown` as sent. */
export function notConvertibleToRecord(shown: string, path: string): BigQueryError {
  return at(`Cannot convert value to record (bad value): ${shown}`, path);
}

/** A row key the RECORD does not have (`no such field: key.`), at the key's path. */
export function recordNoSuchField(key: string, path: string): BigQueryError {
  return at(`no such field: ${key}.`, path);
}

/**
 * A query parameter's type (QueryParameterType, src/server/rest/bigquery-v2-discovery.json;
 * https://cloud.google.com/bigquery/docs/parameterized-queries) that cannot be decoded, at
 * `location` (the parameter name).
 */
export const queryParameterType = {
  /** No `type`. */
  required: (location?: string): BigQueryError => invalid('Query parameter type is required', location),
  /** An ARRAY without `arrayType`. */
  arrayTypeRequired: (location?: string): BigQueryError => invalid('Array query parameter must specify arrayType', location),
  /** An ARRAY of ARRAY (https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#array_type: no ARRAY<ARRAY>). */
  arrayOfArray: (location?: string): BigQueryError => invalid('Array query parameters of type ARRAY<ARRAY> are not supported', location),
  /** A STRUCT without `structTypes`. */
  structTypesRequired: (location?: string): BigQueryError => invalid('Struct query parameter must specify structTypes', location),
  /** A RANGE whose element type is not DATE, DATETIME or TIMESTAMP. */
  rangeElementType: (location?: string): BigQueryError => invalid('Range query parameter must specify rangeElementType DATE, DATETIME or TIMESTAMP', location),
  /** A type name that is not a BigQuery type (`type` as sent). */
  unsupported: (type: string, location?: string): BigQueryError => invalid(`Unsupported query parameter type: ${type}`, location),
};
