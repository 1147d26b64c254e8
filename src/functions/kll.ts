/**
 * The KLL quantile sketch functions of BigQuery's kll_functions page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/kll_functions). BigQuery's KLL
 * sketches are BYTES in a serialized format and with a compaction BigQuery does not publish, so the
 * emulator can neither build sketches BigQuery reads nor read BigQuery's; each is refused by name
 * (APPROX_QUANTILES remains for exact-input quantiles).
 */
import type { FnTable } from './registry.js';

const reason = 'KLL sketches use a serialized format BigQuery does not publish, so the emulator cannot build or read them compatibly';

/** KLL_QUANTILES.INIT_*, MERGE_*, MERGE_PARTIAL, EXTRACT_*, MERGE_POINT_*, EXTRACT_POINT_*. */
export const KLL_FUNCTIONS: FnTable = Object.fromEntries(
  [
    'init_int64', 'init_float64', 'merge_partial', 'merge_int64', 'merge_float64', 'merge_point_int64', 'merge_point_float64',
    'extract_int64', 'extract_float64', 'extract_point_int64', 'extract_point_float64',
  ].map((n) => [`kll_quantiles.${n}`, { unsupported: reason }]),
);
