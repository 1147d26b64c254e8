/**
 * Timeouts, lifetimes and waits of the job manager, the REST layer and the engine, each with its
 * source: BigQuery's documented value where BigQuery has one, else the emulator's own choice and
 * why. Plain constants with no imports, so every layer may read them. The analyzer's timeouts are
 * in analyzer-limits.ts, JavaScript UDF limits in limits.ts, request sizes in request-limits.ts.
 */

// --- jobs ------------------------------------------------------------------------------------

/**
 * Idle lifetime of a session (createSession), ms: BigQuery ends a session after 24 hours of
 * inactivity (https://cloud.google.com/bigquery/docs/sessions-intro: a session idle for 24 hours
 * is terminated). `startEmulator({ sessionIdleMs })` changes it.
 */
export const DEFAULT_SESSION_IDLE_MS = 24 * 60 * 60 * 1000;

/**
 * Lifetime of an anonymous query-results table, ms: about 24 hours
 * (https://cloud.google.com/bigquery/docs/cached-results: cached results live about 24 hours).
 */
export const ANONYMOUS_TABLE_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Lifetime of a jobs.query `requestId`, ms (discovery document, QueryRequest.requestId:
 * "limited to 15 minutes").
 */
export const REQUEST_ID_TTL_MS = 15 * 60 * 1000;

/** How long jobs.cancel waits for the cancelled job to stop before answering, ms (emulator's choice: short jobs answer DONE). */
export const CANCEL_WAIT_MS = 2000;

/**
 * How long the server's close waits for its HTTP connections to end by themselves before it closes
 * them all, ms (emulator's choice). Node closes idle keep-alive connections at once, but not one
 * that never sent a request (undici opens one ahead after an aborted reply): without this, such a
 * connection kept close — and `bqemu serve`'s exit on SIGTERM — waiting forever.
 */
export const SHUTDOWN_GRACE_MS = 2000;

/** Query jobs running at once by default; later ones stay PENDING (src/jobs/slots.ts; emulator's choice, `--max-running-jobs`). */
export const DEFAULT_MAX_RUNNING_JOBS = 16;

// --- REST waits ------------------------------------------------------------------------------

/** Default wait of jobs.query and getQueryResults, ms (discovery document: "By default, this limit is 10 seconds"). */
export const QUERY_DEFAULT_TIMEOUT_MS = 10_000;

/** Longest wait of jobs.query / getQueryResults, ms (discovery document: getQueryResults "typically returns after around 200 seconds"). */
export const QUERY_MAX_TIMEOUT_MS = 200_000;

/** How long jobs.insert waits for a job before answering it RUNNING, ms (short queries answer DONE, as recorded in conformance/fixtures). */
export const JOB_INSERT_WAIT_MS = 1000;

/** How long a media upload waits for its load job before answering it, ms (as jobs.insert, JOB_INSERT_WAIT_MS). */
export const UPLOAD_WAIT_MS = 1000;

// --- engine ----------------------------------------------------------------------------------

/**
 * Interval and duration of repeated DuckDB interrupts after a cancel, ms (src/engine/duckdb/interrupts.ts):
 * an interrupt that lands between two DuckDB tasks is lost, so it is repeated every 10 ms for up to 5 s.
 */
export const REINTERRUPT_MS = 10;
/** How long a cancel keeps re-interrupting DuckDB, ms (see REINTERRUPT_MS). */
export const REINTERRUPT_FOR_MS = 5000;

/**
 * How long insertAll remembers a row's `insertId` for best-effort de-duplication, ms: BigQuery
 * "uses the insertId property to de-duplicate your data on a best effort basis" and remembers an
 * ID for at least one minute (https://cloud.google.com/bigquery/docs/streaming-data-into-bigquery).
 */
export const INSERT_ID_WINDOW_MS = 60_000;

/**
 * How long rows written by tabledata.insertAll stay in a table's streaming buffer by default,
 * seconds (`--streaming-buffer-seconds`, src/engine/streaming-buffer.ts): 30 minutes, the age under
 * which BigQuery's DML limitations call a streamed write "recent" ("The recent writes are those
 * that occurred within the last 30 minutes",
 * https://cloud.google.com/bigquery/docs/data-manipulation-language#limitations). BigQuery's own
 * flush time varies: "typically for a few minutes, but in rare cases, up to 90 minutes"
 * (https://cloud.google.com/bigquery/docs/error-messages).
 */
export const DEFAULT_STREAMING_BUFFER_SECONDS = 1800;
