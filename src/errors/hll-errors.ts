/**
 * 400 invalidQuery errors of the HyperLogLog++ functions (HLL_COUNT.INIT / MERGE / MERGE_PARTIAL /
 * EXTRACT, https://cloud.google.com/bigquery/docs/reference/standard-sql/hll_functions), raised
 * while a query runs. BigQuery's exact texts for these are not published or recorded; the texts
 * are the emulator's, stating the documented rule each input broke.
 */
import type { BigQueryError } from './bigquery-error.js';
import { runtime } from './reasons.js';

/** The INIT `precision` argument is outside 10..24 (the documented range). */
export function hllPrecisionOutOfRange(precision: string): BigQueryError {
  return runtime(`HLL_COUNT.INIT precision must be between 10 and 24, but was ${precision}`);
}

/** BYTES given to MERGE / MERGE_PARTIAL / EXTRACT that are not an HLL++ sketch made by HLL_COUNT.INIT. */
export function hllInvalidSketch(fn: string): BigQueryError {
  return runtime(`${fn}: the input is not a valid HLL++ sketch`);
}

/**
 * Sketches initialised on different input types merged together (the documentation: "Each
 * sketch must be initialized on the same type").
 */
export function hllIncompatibleTypes(fn: string): BigQueryError {
  return runtime(`${fn}: sketches initialized on different input types cannot be merged`);
}

/** Sketches whose normal and sparse precisions cannot both be lowered to a common pair. */
export function hllIncompatiblePrecisions(fn: string, a: [number, number], b: [number, number]): BigQueryError {
  return runtime(`${fn}: precisions (p=${a[0]}, sp=${a[1]}) are not compatible to (p=${b[0]}, sp=${b[1]})`);
}
