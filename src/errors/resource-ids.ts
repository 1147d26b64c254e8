/**
 * 400 invalid for a resource id BigQuery does not accept (naming rules:
 * https://cloud.google.com/bigquery/docs/datasets#dataset-naming,
 * https://cloud.google.com/bigquery/docs/tables#table_naming,
 * https://cloud.google.com/bigquery/docs/routines#naming,
 * https://cloud.google.com/bigquery/docs/running-jobs#generate-jobid).
 */
import type { BigQueryError } from './bigquery-error.js';
import { invalid } from './reasons.js';

/**
 * 400 invalid: a table id that is not a table name or longer than 1,024 characters
 * (https://cloud.google.com/bigquery/docs/tables#table_naming), in the text tables.insert answers
 * (src/server/rest/tables.ts).
 */
export function invalidTableId(id: string): BigQueryError {
  return invalid(`Invalid table ID "${id}". Table IDs must be alphanumeric (plus underscores) and must be at most 1024 characters long. Also, Table decorators cannot be used.`);
}

/**
 * 400 invalid: a dataset id that is not a dataset name or longer than 1,024 characters
 * (https://cloud.google.com/bigquery/docs/datasets#dataset-naming; recorded:
 * conformance/fixtures/standard_functions/error_invalid_dataset_id); `location` names the reference at fault in a query.
 */
export function invalidDatasetId(id: string, location?: string): BigQueryError {
  return invalid(`Invalid dataset ID "${id}". Dataset IDs must be alphanumeric (plus underscores and dashes) and must be at most 1024 characters long.`, location);
}

/**
 * 400 invalid: a project id longer than a project id can be — BigQuery's text, as quoted in
 * https://github.com/googleapis/google-api-java-client/issues/684; `location` the reference field.
 */
export function invalidProjectId(id: string, location: string): BigQueryError {
  return invalid(`Invalid project ID '${id}'. Project IDs must contain 6-63 lowercase letters, digits, or dashes. IDs must start with a letter and may not end with a dash.`, location);
}

/**
 * 400 invalid: a job id outside `[A-Za-z0-9_-]{1,1024}` — BigQuery's text, as quoted in
 * https://github.com/apache/airflow/issues/11856 (rule on
 * https://cloud.google.com/bigquery/docs/running-jobs#generate-jobid); `location` the reference field.
 */
export function invalidJobId(id: string, location: string): BigQueryError {
  return invalid(`Invalid job ID "${id}". Job IDs must be alphanumeric (plus underscores and dashes) and must be at most 1024 characters long.`, location);
}

/** 400 invalid at `routineReference.routineId`: a routine id outside BigQuery's routine naming rule (https://cloud.google.com/bigquery/docs/routines#naming). */
export function invalidRoutineId(id: string): BigQueryError {
  return invalid(
    `Invalid routine ID "${id}". Routine IDs must contain only letters, numbers, or underscores, start with a letter or underscore, and be at most 256 characters long.`,
    'routineReference.routineId',
  );
}

/** 400 invalid: a row access policy id outside `[A-Za-z0-9_]{1,256}` (https://cloud.google.com/bigquery/docs/reference/rest/v2/rowAccessPolicies#RowAccessPolicyReference). */
export function invalidRowAccessPolicyId(id: string): BigQueryError {
  return invalid(`Invalid row access policy ID "${id}". Policy IDs must contain only letters, numbers or underscores and be at most 256 characters long.`);
}
