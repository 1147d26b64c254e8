/**
 * The 404 notFound family: `Not found: <Kind> <name>`, BigQuery's text for a resource that does
 * not exist (recorded fixtures conformance/fixtures/rest_crud/error_table_not_found,
 * rest_crud/error_dataset_not_found; reason notFound on
 * https://cloud.google.com/bigquery/docs/error-messages).
 */
import type { BigQueryError } from './bigquery-error.js';
import { notFound } from './reasons.js';

/**
 * 404 `Not found: <kind> <name>` (recorded without the location clause:
 * conformance/fixtures/api_configuration/create_never_missing_destination) — `kind` as BigQuery capitalises it (`Table`, `View`, `Routine`,
 * `Function`, `Procedure`, `Table function`, `URI`, …), `name` the resource as BigQuery spells it
 * (`p:d.t` for tables and routines). Recorded: conformance/fixtures/rest_crud/error_table_not_found.
 */
export function resourceNotFound(kind: string, name: string): BigQueryError {
  return notFound(`Not found: ${kind} ${name}`);
}

/**
 * 404 `Not found: Table p:d.t was not found in location US` (job-time, recorded:
 * conformance/fixtures/rest_crud/error_table_not_found); `inLocation` false drops the location
 * clause (the REST tables.* answers), a string names a location other than US.
 */
export function tableNotFound(project: string, dataset: string, table: string, inLocation: boolean | string = true): BigQueryError {
  const where = inLocation === false ? '' : ` was not found in location ${inLocation === true ? 'US' : inLocation}`;
  return notFound(`Not found: Table ${project}:${dataset}.${table}${where}`);
}

/** 404 `Not found: Dataset p:d was not found in location US` (recorded: conformance/fixtures/rest_crud/error_dataset_not_found); `inLocation` false drops the location clause. */
export function datasetNotFound(project: string, dataset: string, inLocation = true, location = 'US'): BigQueryError {
  return notFound(`Not found: Dataset ${project}:${dataset}${inLocation ? ` was not found in location ${location}` : ''}`);
}

/**
 * 404 `Not found: Job p:LOCATION.jobId` (jobs.get / getQueryResults / cancel / delete of an unknown
 * job, or of a job in another location than the one asked for; no location asked: US).
 */
export function jobNotFound(project: string, jobId: string, location = 'US'): BigQueryError {
  return notFound(`Not found: Job ${project}:${location}.${jobId}`);
}

/**
 * 404 `Not found: Row access policy <id> on table <p:d.t>` (rowAccessPolicies.get/delete, DROP
 * ROW ACCESS POLICY; https://cloud.google.com/bigquery/docs/managing-row-level-security).
 */
export function rowAccessPolicyNotFound(policyId: string, table: string): BigQueryError {
  return resourceNotFound('Row access policy', `${policyId} on table ${table}`);
}
