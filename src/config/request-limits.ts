/**
 * Limits of the REST front end (what a request may be before a method sees it), each with its
 * source. Layer: configuration (imports nothing).
 */

/**
 * Largest JSON request body in bytes: BigQuery's "Maximum request size: 10 MB — the request size
 * can be up to 10 MB, including additional properties like query parameters"
 * (https://cloud.google.com/bigquery/quotas#api_request_quotas).
 */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

/**
 * Largest media upload (`/upload/bigquery/v2/…`) in bytes accepted in one request by the emulator.
 * BigQuery accepts load files up to 5 TB (https://cloud.google.com/bigquery/quotas#load_jobs);
 * the emulator buffers a request in memory, so it caps one request (or one resumable chunk) at 1 GiB.
 */
export const MAX_UPLOAD_REQUEST_BYTES = 1024 * 1024 * 1024;

/**
 * Deepest nesting of arrays and objects in a JSON body: the protobuf JSON parser's default
 * recursion limit (100), which Google's API front ends apply before a method runs. BigQuery's own
 * deepest structures (15 levels of nested RECORD fields, https://cloud.google.com/bigquery/quotas#table_limits)
 * stay far below it.
 */
export const MAX_JSON_DEPTH = 100;

/**
 * Longest path parameter (project, dataset, table, job … id) in characters as sent in the URL.
 * BigQuery ids are at most 1,024 characters (table ids 1,024 UTF-8 bytes,
 * https://cloud.google.com/bigquery/docs/tables#table_naming); percent-encoded that is up to
 * 3 × 1,024 characters.
 */
export const MAX_PATH_PARAM_CHARS = 4096;

/**
 * Most bytes of an oversized request body the server reads (and discards) before answering
 * `Request payload size exceeds the limit` and closing. An HTTP client writes its whole body
 * before it reads the answer; a server that answers and closes mid-body resets the connection
 * and the client sees `EPIPE`/`ECONNRESET` instead of the 400. Reading on up to this cap lets every
 * ordinary client receive the error; past it the connection is closed without waiting.
 * The emulator's own choice (BigQuery's front end does not document one).
 */
export const MAX_DRAINED_REQUEST_BYTES = 256 * 1024 * 1024;

/**
 * Longest error message text sent to a client, in characters. Messages that quote a value the
 * client sent (`Invalid routine ID "…"`) are cut here with `…`, so a 2-million-character id is not
 * echoed back in full (which cost the server tens of milliseconds of serialising per answer).
 * Google's front end likewise shortens echoed values; the emulator's bound is its own choice.
 */
export const MAX_ERROR_MESSAGE_CHARS = 4096;

/**
 * Longest `projectId` a body's resource reference may carry: a project id is 6–30 characters
 * (https://cloud.google.com/resource-manager/docs/creating-managing-projects), a domain-scoped one
 * (`example.com:my-project`) a domain of up to 63 more; the emulator accepts shorter or
 * differently spelled ids, and refuses only longer ones.
 */
export const MAX_PROJECT_ID_CHARS = 128;

/** Longest job, dataset and table id: 1,024 characters (https://cloud.google.com/bigquery/docs/running-jobs#generate-jobid, …/datasets#dataset-naming, …/tables#table_naming). */
export const MAX_RESOURCE_ID_CHARS = 1024;

/**
 * Longest location name: the longest BigQuery region names are about 25 characters
 * (`northamerica-northeast1`, https://cloud.google.com/bigquery/docs/locations); 64 leaves room
 * for new ones.
 */
export const MAX_LOCATION_CHARS = 64;
