/**
 * ST_REGIONSTATS of BigQuery's geography functions page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/geography_functions#st_regionstats):
 * statistics of the pixels of an Earth Engine raster image under a GEOGRAPHY. The emulator has no
 * Earth Engine, so the function is refused by name.
 */
import type { FnTable } from './registry.js';

/** ST_REGIONSTATS. */
export const GEOGRAPHY_RASTER_FUNCTIONS: FnTable = {
  st_regionstats: { unsupported: 'it reads Earth Engine raster images, which the emulator does not have' },
};
