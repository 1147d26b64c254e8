/**
 * The ids of the resource reference a request body carries (`jobReference`, `datasetReference`,
 * `tableReference`, `routineReference`, `modelReference`, `rowAccessPolicyReference`), checked
 * before a handler stores them: an over-long id would be stored and echoed (up to three times:
 * `id`, the reference, `selfLink`) in every later get and list, costing each of them megabytes of
 * serialising. Also the echo cap applied to every error message sent.
 */
import { BigQueryError } from '../../errors/errors.js';
import { MAX_ERROR_MESSAGE_CHARS, MAX_LOCATION_CHARS, MAX_PROJECT_ID_CHARS, MAX_RESOURCE_ID_CHARS } from '../../config/request-limits.js';

const REFERENCES = ['jobReference', 'datasetReference', 'tableReference', 'routineReference', 'modelReference', 'rowAccessPolicyReference'];

/** A location as quoted in its error text: at most 1,024 characters, then `…`. */
const quoted = (s: string) => (s.length > MAX_RESOURCE_ID_CHARS ? `${s.slice(0, MAX_RESOURCE_ID_CHARS)}…` : s);

/**
 * Checks the ids of the body's top-level resource reference.
 * @throws BigQueryError 400 invalid:
 * - `jobId` not matching `[A-Za-z0-9_-]{1,1024}`: `Invalid job ID "…". Job IDs must be alphanumeric
 *   (plus underscores and dashes) and must be at most 1024 characters long.` (BigQuery's text, as
 *   quoted in https://github.com/apache/airflow/issues/11856; rule on
 *   https://cloud.google.com/bigquery/docs/running-jobs#generate-jobid);
 * - `projectId` longer than {@link MAX_PROJECT_ID_CHARS}: `Invalid project ID '…'. Project IDs must
 *   contain 6-63 lowercase letters, digits, or dashes. …` (BigQuery's text, as quoted in
 *   https://github.com/googleapis/google-api-java-client/issues/684);
 * - `datasetId`/`tableId` over 1,024 characters: the dataset/table id texts tables.insert and
 *   datasets.insert answer (https://cloud.google.com/bigquery/docs/datasets#dataset-naming);
 * - a `location` (the body's own, or the reference's) that is not a location name: see {@link checkLocation}.
 */
export function checkReferenceIds(body: unknown): void {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  checkLocation((body as Record<string, unknown>).location, 'location');
  for (const name of REFERENCES) {
    const ref = (body as Record<string, unknown>)[name];
    if (!ref || typeof ref !== 'object') continue;
    const { projectId, datasetId, tableId, jobId } = ref as Record<string, unknown>;
    if (typeof projectId === 'string' && projectId.length > MAX_PROJECT_ID_CHARS)
      throw BigQueryError.invalidProjectId(projectId, `${name}.projectId`);
    if (typeof jobId === 'string' && jobId !== '' && !/^[A-Za-z0-9_-]{1,1024}$/.test(jobId))
      throw BigQueryError.invalidJobId(jobId, `${name}.jobId`);
    checkLocation((ref as Record<string, unknown>).location, `${name}.location`);
    if (typeof datasetId === 'string' && datasetId.length > MAX_RESOURCE_ID_CHARS) throw BigQueryError.invalidDatasetId(datasetId);
    if (typeof tableId === 'string' && tableId.length > MAX_RESOURCE_ID_CHARS) throw BigQueryError.invalidTableId(tableId);
  }
}

/**
 * The error envelope with its message cut to {@link MAX_ERROR_MESSAGE_CHARS} characters (then `…`),
 * in `error.message` and each `errors[].message` alike. Shapes: BigQuery's error envelope
 * (https://cloud.google.com/bigquery/docs/error-messages).
 */
export function cappedEnvelope(e: BigQueryError): object {
  const env = e.toEnvelope() as { error: { message: string; errors: { message: string }[] } };
  const cut = (s: string) => (s.length > MAX_ERROR_MESSAGE_CHARS ? `${s.slice(0, MAX_ERROR_MESSAGE_CHARS)}…` : s);
  env.error.message = cut(env.error.message);
  for (const item of env.error.errors) item.message = cut(item.message);
  return env;
}

/**
 * A location is a region or multi-region name: `US`, `EU`, `us-central1`, `northamerica-northeast1`
 * (https://cloud.google.com/bigquery/docs/locations) — letters, digits and dashes, at most
 * {@link MAX_LOCATION_CHARS} characters. Any such name is accepted (the emulator runs every
 * location in one place); anything else is refused instead of being stored in every job and
 * dataset that echoes it.
 * @throws BigQueryError 400 invalid `Invalid value for location: …` (the emulator's wording in the
 *   family of its other `Invalid value for <field>` answers; BigQuery's own text is not recorded).
 */
function checkLocation(location: unknown, field: string): void {
  if (typeof location !== 'string' || location === '') return;
  if (location.length <= MAX_LOCATION_CHARS && /^[A-Za-z][A-Za-z0-9-]*$/.test(location)) return;
  throw BigQueryError.invalidValue('location', quoted(location), field);
}
