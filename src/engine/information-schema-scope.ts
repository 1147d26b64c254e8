/**
 * The scope an INFORMATION_SCHEMA path names (BigQuery "Introduction to INFORMATION_SCHEMA":
 * dataset-qualified `[p.]d.INFORMATION_SCHEMA.X` or region-qualified
 * `[p.]region-us.INFORMATION_SCHEMA.X`); parsed by information-schema-views.ts.
 */

/** What an INFORMATION_SCHEMA path names: the view and its scope. */
export interface InfoSchemaScope {
  view: string;
  projectId: string;
  /** Dataset scope; undefined at region/project scope. */
  datasetId?: string;
  /** The region of a region-scoped path (`us` of `region-us`). */
  region?: string;
}
