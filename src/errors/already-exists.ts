/**
 * The 409 duplicate family: `Already Exists: <Kind> <name>`, BigQuery's text for creating a
 * resource that exists (recorded fixture
 * conformance/fixtures/rest_crud/error_create_table_already_exists; reason duplicate on
 * https://cloud.google.com/bigquery/docs/error-messages).
 */
import type { BigQueryError } from './bigquery-error.js';
import { duplicate } from './reasons.js';

/**
 * 409 `Already Exists: <kind> <name>` — `kind` as BigQuery capitalises it (`Table`, `Dataset`,
 * `Routine`, `Job`, `View`, …), `name` as BigQuery spells it (`p:d.t`, `p:d`, `p:US.jobId`).
 * Recorded: conformance/fixtures/rest_crud/error_create_table_already_exists.
 */
export function alreadyExists(kind: string, name: string): BigQueryError {
  return duplicate(`Already Exists: ${kind} ${name}`);
}

/** 409 `Already Exists: Row access policy <id> on table <p:d.t>` (rowAccessPolicies.insert, CREATE ROW ACCESS POLICY). */
export function rowAccessPolicyAlreadyExists(policyId: string, table: string): BigQueryError {
  return alreadyExists('Row access policy', `${policyId} on table ${table}`);
}
