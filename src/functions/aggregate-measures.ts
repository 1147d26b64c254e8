/**
 * AGG of BigQuery's aggregate functions page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/aggregate_functions#agg):
 * aggregates a MEASURE column of a view. Measure types are newer than the bundled analyzer and the
 * emulator has none, so AGG is refused by name.
 */
import type { FnTable } from './registry.js';

/** AGG. */
export const AGGREGATE_MEASURE_FUNCTIONS: FnTable = {
  agg: { unsupported: 'measure types (MEASURE columns of views) are not supported by the emulator' },
};
