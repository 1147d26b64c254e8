/**
 * 400 invalid errors of resource metadata beyond BigQuery's limits: labels
 * (https://cloud.google.com/bigquery/docs/labels-intro#requirements: keys 1–63 characters starting
 * with a lowercase letter or an international character, values 0–63 characters; lowercase
 * letters, digits, underscores, dashes and international characters only), descriptions (tables
 * and datasets at most 16,384 characters, column descriptions at most 1,024,
 * https://cloud.google.com/bigquery/quotas#table_limits). Texts as BigQuery answers them, quoted in
 * public issue threads: `Label value "…" has invalid characters.` (apache/airflow#39567, a 64-character
 * value), `Descriptions can be at most 16384 characters long.` (cloudquery/cloudquery#19208), `The
 * description for field x is too long. The maximum length is 1024 characters.`
 * (mozilla/mozilla-schema-generator#188).
 */
import type { BigQueryError } from './bigquery-error.js';
import { invalid } from './reasons.js';

/** Longest text shown of an offending label key or value (a hostile 2 MB value is not echoed). */
const SHOWN_CHARS = 256;

const shown = (s: string) => (s.length > SHOWN_CHARS ? `${s.slice(0, SHOWN_CHARS)}…` : s);

/** 400 invalid `Label key "k" has invalid characters.` */
export function invalidLabelKey(key: string): BigQueryError {
  return invalid(`Label key "${shown(key)}" has invalid characters.`);
}

/** 400 invalid `Label value "v" has invalid characters.` (also for one longer than 63 characters). */
export function invalidLabelValue(value: string): BigQueryError {
  return invalid(`Label value "${shown(value)}" has invalid characters.`);
}

/** 400 invalid: more labels on one resource than BigQuery allows (64). */
export function tooManyLabels(count: number): BigQueryError {
  return invalid(`Too many labels: ${count}. At most 64 labels can be set on a resource.`);
}

/** 400 invalid `Descriptions can be at most 16384 characters long.` (a table's or a dataset's). */
export function descriptionTooLong(): BigQueryError {
  return invalid('Descriptions can be at most 16384 characters long.');
}

/** 400 invalid `The description for field x is too long. The maximum length is 1024 characters.` */
export function fieldDescriptionTooLong(field: string): BigQueryError {
  return invalid(`The description for field ${field} is too long. The maximum length is 1024 characters.`);
}
