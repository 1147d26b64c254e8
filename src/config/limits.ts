/**
 * Limits and timeouts of the emulator, each with its source. Values a user may change are read
 * from the environment when used, so a test can lower them for one call.
 */

/** Reads a positive number from the environment, else `fallback`. */
function envNumber(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

// --- JavaScript UDFs -------------------------------------------------------------------------
// BigQuery runs JavaScript UDFs with a time and memory limit it does not publish as numbers
// ("A JavaScript UDF can time out and prevent your query from completing"; "UDF out of memory"),
// https://cloud.google.com/bigquery/docs/user-defined-functions#limits. The emulator's values:

/** Time limit of one batch of JavaScript UDF calls (one DuckDB vector, ≤ 2,048 rows), ms (`BQEMU_JS_UDF_TIMEOUT_MS`). */
export const jsUdfTimeoutMs = () => envNumber('BQEMU_JS_UDF_TIMEOUT_MS', 5000);

/** Memory of the JavaScript interpreter of one UDF worker, bytes (`BQEMU_JS_UDF_MEMORY_MB`, default 128, at least 32; read when a worker starts). */
export const jsUdfMemoryBytes = () => envNumber('BQEMU_JS_UDF_MEMORY_MB', 128) * 1024 * 1024;

/** Stack limit of UDF JavaScript (deep recursion fails with `RangeError: Maximum call stack size exceeded`), bytes. */
export const JS_UDF_STACK_BYTES = 256 * 1024;

/**
 * How long a DuckDB callback waits on the main thread for a UDF batch before it lets the statement
 * fail with the internal "pending" marker and awaits the batch off the event loop, ms. Keeps any
 * one wait well under the ~50 ms event-loop budget.
 */
export const JS_UDF_SYNC_WAIT_MS = 25;

/** Extra time a worker gets past the time limit to report its own interrupt before it is terminated, ms. */
export const JS_UDF_KILL_GRACE_MS = 1000;

/**
 * Statement retries after "pending" before a statement's UDF batches are awaited synchronously.
 * A backstop: every retry normally answers at least one more vector (2,048 rows), and arguments
 * that change between runs are detected after one retry (src/functions/js-udf.ts withJsUdfRetry).
 */
export const JS_UDF_MAX_RETRIES = 1000;
