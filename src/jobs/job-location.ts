/**
 * Where a job runs (https://cloud.google.com/bigquery/docs/locations#specify_locations): the
 * location in its `jobReference`, else the location of the datasets its configuration names
 * (copy/extract sources, load/query destinations, the query's default dataset), else US. A copy,
 * extract or load job that names a dataset of another location than the one given fails at
 * jobs.insert with 404 notFound (the official client's location system tests); a query job runs
 * and fails with the same error (src/engine/analyze.ts hides other locations' datasets).
 */
import { datasetLocation, type CatalogStore } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import { DEFAULT_LOCATION, foundWithoutLocation, isLocationName, normalizeLocation, sameLocation } from '../types/locations.js';

interface DatasetRef {
  projectId: string;
  datasetId: string;
}

/** The datasets a job configuration names directly, in the order that decides its location. */
function namedDatasets(projectId: string, configuration: Record<string, any>): DatasetRef[] {
  const refs: unknown[] = [];
  const c = configuration;
  if (c.copy) refs.push(...(Array.isArray(c.copy.sourceTables) ? c.copy.sourceTables : []), c.copy.sourceTable, c.copy.destinationTable);
  if (c.extract) refs.push(c.extract.sourceTable, c.extract.sourceModel);
  if (c.load) refs.push(c.load.destinationTable);
  if (c.query) refs.push(c.query.destinationTable, c.query.defaultDataset);
  return refs.flatMap((r) => {
    const o = r as { projectId?: unknown; datasetId?: unknown } | undefined;
    return o && typeof o.datasetId === 'string' && o.datasetId ? [{ projectId: typeof o.projectId === 'string' && o.projectId ? o.projectId : projectId, datasetId: o.datasetId }] : [];
  });
}

/**
 * The location of a new job: `given` (normalised), else the first existing named dataset's, else
 * US with `byDefault` set (a query job then takes the location of the first table it reads).
 * @throws BigQueryError invalid for a `given` that is no location name.
 */
export function jobLocation(catalog: CatalogStore, projectId: string, configuration: Record<string, any>, given: unknown): { location: string; byDefault?: true } {
  if (given !== undefined && given !== null && given !== '') {
    if (typeof given !== 'string' || !isLocationName(given)) throw BigQueryError.invalidValue('location', String(given), 'jobReference.location');
    return { location: normalizeLocation(given) };
  }
  for (const r of namedDatasets(projectId, configuration)) {
    const d = catalog.getDataset(r.projectId, r.datasetId);
    if (d) return { location: datasetLocation(d) };
  }
  return { location: DEFAULT_LOCATION, byDefault: true };
}

/**
 * Checks that a copy, extract or load job names only datasets of its location.
 * @throws BigQueryError notFound `Not found: Dataset P:D was not found in location L`.
 */
export function checkJobDatasetsIn(catalog: CatalogStore, projectId: string, configuration: Record<string, any>, location: string): void {
  if (configuration.query) return; // a query job fails when it runs (its errorResult)
  for (const r of namedDatasets(projectId, configuration)) {
    const d = catalog.getDataset(r.projectId, r.datasetId);
    if (d && !sameLocation(datasetLocation(d), location)) throw BigQueryError.datasetNotFound(r.projectId, r.datasetId, true, location);
  }
}

/**
 * The key a job is stored under: job ids are unique per project and location, so the same id may
 * name one job in `US` and another in `asia-northeast1` ("Job IDs … must be unique within a
 * project and location", https://cloud.google.com/bigquery/docs/running-jobs#generate-jobid).
 */
export function jobKey(projectId: string, location: string, jobId: string): string {
  return JSON.stringify([projectId, normalizeLocation(location), jobId]);
}

/**
 * Whether jobs.get/cancel/getQueryResults/delete find `job` when asked for location `asked`: the
 * same location, or with none asked only a job in the US or EU multi-regions (the `location`
 * parameter of jobs.get, https://cloud.google.com/bigquery/docs/reference/rest/v2/jobs/get).
 */
export function foundIn(job: { location: string }, asked: string | undefined): boolean {
  return asked ? sameLocation(job.location, asked) : foundWithoutLocation(job.location);
}
