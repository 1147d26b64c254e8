/**
 * BigQuery's limits on resource metadata, checked before a dataset, table or job is stored (so a
 * 2 MB "description" or label is a 400, not a stored value every later list serialises): labels
 * (https://cloud.google.com/bigquery/docs/labels-intro#requirements) and descriptions
 * (https://cloud.google.com/bigquery/quotas#table_limits). Texts: src/errors/metadata-limits.ts.
 */
import { BigQueryError } from '../../errors/errors.js';

/** Most labels on one resource. */
export const MAX_LABELS = 64;
/** Longest label key or value, in characters. */
export const MAX_LABEL_CHARS = 63;
/** Longest table or dataset description, in characters. */
export const MAX_DESCRIPTION_CHARS = 16_384;
/** Longest column (field) description, in characters. */
export const MAX_FIELD_DESCRIPTION_CHARS = 1_024;

// Lowercase letters, digits, underscores, dashes; international characters (letters without case,
// marks). Keys start with a lowercase letter or an international character.
const LABEL_CHARS = /^[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{Nd}_-]*$/u;
const KEY_START = /^[\p{Ll}\p{Lo}]/u;

const length = (s: string) => (s.length > MAX_LABEL_CHARS * 2 ? s.length : [...s].length);

/**
 * Checks a `labels` map (null values — removals in a patch — are skipped).
 * @throws BigQueryError invalid `Label key/value "…" has invalid characters.`, or too many labels.
 */
export function checkLabels(labels: unknown): void {
  if (!labels || typeof labels !== 'object' || Array.isArray(labels)) return; // the request validator answers wrong types
  const entries = Object.entries(labels as Record<string, unknown>);
  if (entries.length > MAX_LABELS) throw BigQueryError.tooManyLabels(entries.length);
  for (const [k, v] of entries) {
    if (!k || length(k) > MAX_LABEL_CHARS || !KEY_START.test(k) || !LABEL_CHARS.test(k)) throw BigQueryError.invalidLabelKey(k);
    if (v === null || v === undefined) continue;
    const value = String(v);
    if (length(value) > MAX_LABEL_CHARS || !LABEL_CHARS.test(value)) throw BigQueryError.invalidLabelValue(value);
  }
}

/**
 * Checks a table's or dataset's `description`.
 * @throws BigQueryError invalid `Descriptions can be at most 16384 characters long.`
 */
export function checkDescription(description: unknown): void {
  if (typeof description === 'string' && description.length > MAX_DESCRIPTION_CHARS && [...description].length > MAX_DESCRIPTION_CHARS)
    throw BigQueryError.descriptionTooLong();
}

/** Checks the labels and description of a dataset or table body. */
export function checkResourceMetadata(body: { labels?: unknown; description?: unknown }): void {
  checkLabels(body.labels);
  checkDescription(body.description);
}
