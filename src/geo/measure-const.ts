/**
 * The Earth radius BigQuery's spherical measures use: S2Earth's 6,371,010 m (the recorded fixtures
 * match it to the last digit; the mean radius 6,371,008.8 m is off by 1.9e-7 relative).
 */
export const EARTH_RADIUS = 6371010;
