/**
 * Errors of a job's life: cancelled, timed out, a dataset still in use by a DROP, and the
 * Cloud Storage source and destination URIs of load, extract and EXPORT DATA jobs (reasons:
 * https://cloud.google.com/bigquery/docs/error-messages).
 */
import { BigQueryError } from './bigquery-error.js';

/**
 * The `stopped` error of work abandoned because its job was cancelled (HTTP 499 CANCELLED when a
 * call answers it); text as BigQuery reports a cancelled job (test/jobs-lifecycle.test.ts).
 */
export function cancelled(): BigQueryError {
  return new BigQueryError('stopped', 'Job execution was cancelled: User requested cancellation', undefined, 499);
}

/**
 * 400 timeout: a job whose statement ran past `scriptOptions.statementTimeoutMs`
 * (ScriptOptions.statementTimeoutMs in api/bigquery-v2-discovery.json); `ms` the limit.
 */
export function statementTimeout(ms: number): BigQueryError {
  return new BigQueryError('timeout', `Query statement exceeded the statement timeout of ${ms} ms (scriptOptions.statementTimeoutMs)`);
}

/**
 * 400 resourceInUse `Dataset p:d is still in use`: a dataset that still holds tables, views or
 * routines dropped without CASCADE / `deleteContents`
 * (https://cloud.google.com/bigquery/docs/managing-datasets#delete-datasets).
 */
export function datasetInUse(project: string, dataset: string): BigQueryError {
  return new BigQueryError('resourceInUse', `Dataset ${project}:${dataset} is still in use`);
}

/**
 * 400 invalid for a source URI that is neither `gs://bucket/object` nor a local absolute path
 * (`file:///path` or `/path`). JobConfigurationLoad.sourceUris (api/bigquery-v2-discovery.json)
 * names Cloud Storage URIs; the local forms are the emulator's own.
 */
export function invalidSourceUri(uri: string): BigQueryError {
  return new BigQueryError('invalid', `Invalid source URI: ${uri}. Use gs://bucket/path, file:///path or an absolute local path`);
}

/** 400 invalidQuery for an EXPORT DATA / extract destination that is not `gs://bucket/object` (BigQuery EXPORT DATA statement: `uri` is a Cloud Storage URI). */
export function invalidExportUri(uri: string): BigQueryError {
  return new BigQueryError('invalidQuery', `Invalid export URI: ${uri}`);
}

/** 400 invalidQuery `Option 'uri' is missing or empty.` without a location (recorded: conformance/fixtures/export_data/export_missing_uri). */
export function exportUriMissing(): BigQueryError {
  return new BigQueryError('invalidQuery', "Option 'uri' is missing or empty.");
}

/** 400 invalidQuery `Destination <uri> already exists; set overwrite = true` (EXPORT DATA without `overwrite`, https://cloud.google.com/bigquery/docs/reference/standard-sql/export-statements). */
export function exportDestinationExists(uri: string): BigQueryError {
  return new BigQueryError('invalidQuery', `Destination ${uri} already exists; set overwrite = true`);
}

/** 404 `Not found: URI <uri>` for a load source URI that matches no file (https://cloud.google.com/bigquery/docs/batch-loading-data#load-wildcards). */
export function uriNotFound(uri: string): BigQueryError {
  return new BigQueryError('notFound', `Not found: URI ${uri}`);
}
