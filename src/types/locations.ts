/**
 * BigQuery locations (https://cloud.google.com/bigquery/docs/locations): the multi-regions `US` and
 * `EU` (upper case) and regions such as `asia-northeast1` or `us-east1` (lower case). A dataset
 * lives in one location (default US); a job runs in one location and sees only datasets of that
 * location ("Not found: Dataset P:D was not found in location L").
 */

/** Where datasets and jobs live when nobody says: BigQuery's default, the US multi-region. */
export const DEFAULT_LOCATION = 'US';

/** The canonical spelling of a location: `US`/`EU` upper case, regions lower case. */
export function normalizeLocation(location: string): string {
  const l = location.trim();
  return /^(us|eu)$/i.test(l) ? l.toUpperCase() : l.toLowerCase();
}

/** Whether `location` is spelled like a BigQuery location (`US`, `EU`, `asia-northeast1`, `us-east1` …). */
export function isLocationName(location: string): boolean {
  return /^(us|eu|[a-z]+(-[a-z]+)+\d+)$/i.test(location.trim());
}

/** Whether two location names are the same location (case-insensitive, as BigQuery compares them). */
export function sameLocation(a: string, b: string): boolean {
  return normalizeLocation(a) === normalizeLocation(b);
}

/**
 * Whether a job in `location` is found without naming its location: jobs.get and friends look in
 * the US and EU multi-regions only ("location … required … if the job is not in the US or EU
 * multi-regional location", https://cloud.google.com/bigquery/docs/reference/rest/v2/jobs/get).
 */
export function foundWithoutLocation(location: string): boolean {
  const l = normalizeLocation(location);
  return l === 'US' || l === 'EU';
}
