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
 * (ScriptOptions.statementTimeoutMs in src/server/rest/bigquery-v2-discovery.json); `ms` the limit.
 */
export function statementTimeout(ms: number): BigQueryError {
  return new BigQueryError('timeout', `Query statement exceeded the statement timeout of ${ms} ms (scriptOptions.statementTimeoutMs)`);
}

/**
 * 400 resourceInUse `Dataset p:d is still in use`: a dataset that still holds tables, views or
 * routines dropped without CASCADE / `deleteContents` (recorded:
 * conformance/fixtures/rest_crud/ddl_drop_schema_non_empty_restrict).
 */
export function datasetInUse(project: string, dataset: string): BigQueryError {
  return new BigQueryError('resourceInUse', `Dataset ${project}:${dataset} is still in use`);
}

/**
 * 400 invalid for a source URI that is neither `gs://bucket/object` nor a local absolute path
 * (`file:///path` or `/path`). JobConfigurationLoad.sourceUris (src/server/rest/bigquery-v2-discovery.json)
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

/** 400 invalid at `sourceTables`: a SNAPSHOT, CLONE or RESTORE copy job with more than one source (https://cloud.google.com/bigquery/docs/table-snapshots-create). */
export function copySingleSource(operation: string): BigQueryError {
  return new BigQueryError('invalid', `A ${operation} copy job takes a single source table`, 'sourceTables');
}

/** 400 invalid: a RESTORE copy job whose source is not a table snapshot (https://cloud.google.com/bigquery/docs/table-snapshots-restore); `name` p:d.t. */
export function notATableSnapshot(name: string): BigQueryError {
  return new BigQueryError('invalid', `${name} is not a table snapshot; RESTORE copies a snapshot into a table.`);
}

/**
 * 400 invalid at `destinationUris`: `Invalid extract destination URI '<uri>'. <why>` — not a
 * Cloud Storage path, or more than one wildcard (https://cloud.google.com/bigquery/docs/exporting-data#exporting_data_into_one_or_more_files).
 */
export function invalidExtractUri(uri: string, why: string): BigQueryError {
  return new BigQueryError('invalid', `Invalid extract destination URI '${uri}'. ${why}`, 'destinationUris');
}

/** 400 invalid `Only one wildcard is allowed in a source URI: <uri>` (https://cloud.google.com/bigquery/docs/batch-loading-data#load-wildcards). */
export function sourceUriWildcards(uri: string): BigQueryError {
  return new BigQueryError('invalid', `Only one wildcard is allowed in a source URI: ${uri}`);
}

/** 400 invalid: jobs.delete of a script's child job (https://cloud.google.com/bigquery/docs/reference/rest/v2/jobs/delete: "If the job is a script, its child jobs are deleted"); `job` p:LOC.id. */
export function childJobDelete(job: string, parent: string): BigQueryError {
  return new BigQueryError('invalid', `Job ${job} is a child job of ${parent}; delete the parent job instead.`);
}

/** 400 invalid: a query with both a `session_id` connection property and `createSession` (https://cloud.google.com/bigquery/docs/sessions-create). */
export function sessionIdWithCreate(): BigQueryError {
  return new BigQueryError('invalid', 'Cannot set both session_id and create_session.');
}

/** 400 invalid `Invalid input session id.` — a `session_id` the emulator holds no session for (recorded: conformance/fixtures/api_configuration/session_invalid_session_id). */
export function invalidSessionId(): BigQueryError {
  return new BigQueryError('invalid', 'Invalid input session id.');
}

/**
 * 400 invalid: schemaUpdateOptions with a write disposition other than WRITE_APPEND (or
 * WRITE_TRUNCATE on a partition) — recorded: conformance/fixtures/api_configuration/schema_update_addition_with_truncate
 * (JobConfigurationQuery.schemaUpdateOptions, src/server/rest/bigquery-v2-discovery.json).
 */
export function schemaUpdateDisposition(): BigQueryError {
  return new BigQueryError(
    'invalid',
    'Schema update options should only be specified with WRITE_APPEND disposition, or with WRITE_TRUNCATE disposition on a table partition.',
  );
}

/**
 * 500 backendError when the Cloud Storage service behind `gs://` URIs (the emulator named by
 * `STORAGE_EMULATOR_HOST`) fails or cannot be reached: not a client mistake, so BigQuery's reason
 * for a failure on its side (https://cloud.google.com/bigquery/docs/error-messages: backendError),
 * with the storage service's own message. The text is the emulator's own.
 */
export function cloudStorageFailed(uri: string, detail: string): BigQueryError {
  return new BigQueryError('backendError', `Error while reading or writing ${uri} in Cloud Storage: ${detail}`);
}
