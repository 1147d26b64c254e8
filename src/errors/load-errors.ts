/**
 * Errors of load jobs reading their source files: BigQuery's `Error while reading data, error
 * message: …` family (reason invalid; e.g. `… Could not parse 'x' as INT64 for field a (position
 * 0) starting at location 0`, https://cloud.google.com/bigquery/docs/loading-data-cloud-storage-csv#troubleshoot_parsing_errors).
 */
import type { BigQueryError } from './bigquery-error.js';
import { invalid } from './reasons.js';

/** The prefix BigQuery puts before every error of reading a load job's data. */
const READING_DATA = 'Error while reading data, error message: ';

/** 400 invalid `Error while reading data, error message: <detail>`. */
export function readError(detail: string): BigQueryError {
  return invalid(`${READING_DATA}${detail}`);
}

/**
 * 400 invalid: more bad records than `maxBadRecords` allows — `Error while reading data, error
 * message: <CSV|JSON> table encountered too many errors, giving up. Rows: <n>; errors: <n>. Please
 * look into the errors[] collection for more details.` (JobConfigurationLoad.maxBadRecords,
 * src/server/rest/bigquery-v2-discovery.json). `rows` counts the rows read so far (1-based),
 * `errors` the bad ones.
 */
export function tooManyBadRecords(kind: string, rows: number, errors: number): BigQueryError {
  return readError(`${kind} table encountered too many errors, giving up. Rows: ${rows}; errors: ${errors}. Please look into the errors[] collection for more details.`);
}

/**
 * 400 invalid: a load source that is not an Avro container file — BigQuery's text `Error while
 * reading data, error message: The Apache Avro library failed to parse the header with the
 * following error: Invalid data file. Magic does not match.`; `file` and `detail` (the decoder's
 * message) are appended as ` File: <file>; <detail>` when the header read but the data did not.
 */
export function avroInvalid(file?: string, detail?: string): BigQueryError {
  const text = 'The Apache Avro library failed to parse the header with the following error: Invalid data file. Magic does not match.';
  return readError(file === undefined ? text : `${text} File: ${file}; ${detail}`);
}

/** 400 invalid `Error while reading table: <name>, error message: <detail>` — an external table (tableDefinitions) whose files cannot be read. */
export function externalReadError(name: string, detail: string): BigQueryError {
  return invalid(`Error while reading table: ${name}, error message: ${detail}`);
}

/** 400 invalid: a CSV external table whose schema has RECORD or REPEATED fields (CSV holds flat rows, https://cloud.google.com/bigquery/docs/loading-data-cloud-storage-csv#limitations). */
export function csvCannotHoldNested(): BigQueryError {
  return invalid('CSV files cannot hold nested or repeated data');
}

/** 400 invalid: CSV data for a schema with RECORD or REPEATED fields, naming the formats that hold them. */
export function csvNestedNotSupported(): BigQueryError {
  return invalid('CSV files do not support nested or repeated data (RECORD or REPEATED fields); use NEWLINE_DELIMITED_JSON or PARQUET');
}

/** 400 invalid at `tableDefinitions`: an external table name that is not a table name. */
export function invalidExternalTableName(name: string): BigQueryError {
  return invalid(`Invalid table name in tableDefinitions: ${name}`, 'tableDefinitions');
}

/** 400 invalid at `tableDefinitions`: an external table name already used by a temporary table of the session. */
export function externalTableNameTaken(name: string): BigQueryError {
  return invalid(`tableDefinitions name ${name} is already a temporary table of the session`, 'tableDefinitions');
}
