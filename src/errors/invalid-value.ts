/**
 * The 400 invalid `Invalid value for <field>[: <detail>]` family: a request, job configuration or
 * schema field whose value BigQuery does not accept (field names as in
 * src/server/rest/bigquery-v2-discovery.json; reason invalid,
 * https://cloud.google.com/bigquery/docs/error-messages).
 */
import type { BigQueryError } from './bigquery-error.js';
import { invalid } from './reasons.js';

/**
 * 400 invalid `Invalid value for <field>: <detail>` (just `Invalid value for <field>` when
 * `detail` is undefined) — `detail` is the value as sent or what was expected of it
 * (`expected an object`, `x is not a valid value`); `location` the field at fault, none by default.
 */
export function invalidValue(field: string, detail?: string, location?: string): BigQueryError {
  return invalid(detail === undefined ? `Invalid value for ${field}` : `Invalid value for ${field}: ${detail}`, location);
}
