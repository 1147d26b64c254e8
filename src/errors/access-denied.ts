/**
 * The 403 accessDenied family: `Access Denied: …` (reason accessDenied,
 * https://cloud.google.com/bigquery/docs/error-messages).
 */
import { BigQueryError } from './bigquery-error.js';

/**
 * 403 accessDenied for a source or destination file the job may not touch: BigQuery's text for a
 * Cloud Storage object the caller cannot read, `Access Denied: File gs://…: Access Denied`
 * (quoted in https://github.com/GoogleCloudPlatform/PerfKitExplorer/issues/1 and
 * https://github.com/GoogleCloudPlatform/data-science-on-gcp/issues/170). The emulator gives it
 * for any path outside the Cloud Storage stand-in folder and the directories the user allowed.
 */
export function accessDeniedFile(uri: string): BigQueryError {
  return new BigQueryError('accessDenied', `Access Denied: File ${uri}: Access Denied`);
}

/**
 * 403 accessDenied for a wildcard source URI whose folder the job may not list: BigQuery's text
 * `Access Denied: BigQuery BigQuery: Permission denied while globbing file pattern.` (quoted in
 * https://github.com/dbt-labs/dbt-core/issues/502).
 */
export function accessDeniedGlob(): BigQueryError {
  return new BigQueryError('accessDenied', 'Access Denied: BigQuery BigQuery: Permission denied while globbing file pattern.');
}

/**
 * 403 accessDenied for a request the emulator refuses to serve for its host's safety (a `Host`
 * it does not serve, a cross-site form content type, a foreign `Origin`); `message` is the
 * emulator's own explanation.
 */
export function forbiddenRequest(message: string): BigQueryError {
  return new BigQueryError('accessDenied', message);
}

/**
 * 403 `Access Denied: Table p:d.t: <what> on a table with row access policies requires a row
 * access policy with the TRUE filter granted to the caller` — BigQuery requires full access for
 * operations that would bypass row-level security
 * (https://cloud.google.com/bigquery/docs/row-level-security-intro#limitations). `table` is
 * `p:d.t`, `what` the operation (e.g. `Copying`).
 */
export function rowAccessFullAccessRequired(table: string, what: string): BigQueryError {
  return new BigQueryError(
    'accessDenied',
    `Access Denied: Table ${table}: ${what} on a table with row access policies requires a row access policy with the TRUE filter granted to the caller`,
  );
}

/**
 * 403 `Access Denied: BigQuery: Time travel on table <name> is forbidden as it has (or has had)
 * row access policies.` — FOR SYSTEM_TIME AS OF on a table with row access policies
 * (https://cloud.google.com/bigquery/docs/row-level-security-intro#limitations).
 */
export function timeTravelForbiddenByRowAccess(name: string): BigQueryError {
  return new BigQueryError('accessDenied', `Access Denied: BigQuery: Time travel on table ${name} is forbidden as it has (or has had) row access policies.`);
}
