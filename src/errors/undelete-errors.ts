/**
 * datasets.undelete / UNDROP SCHEMA refusals beyond the 404 and 409 families
 * (https://cloud.google.com/bigquery/docs/reference/rest/v2/datasets/undelete).
 */
import type { BigQueryError } from './bigquery-error.js';
import { invalid } from './reasons.js';

/**
 * 400 invalid `Undeleting a dataset using deletion time is not supported.` — an
 * UndeleteDatasetRequest with `deletionTime` (the field's description in the discovery document:
 * "Undeleting a dataset using deletion time is not supported."), located at the field.
 */
export function undeleteByDeletionTimeNotSupported(): BigQueryError {
  return invalid('Undeleting a dataset using deletion time is not supported.', 'deletionTime');
}
