/**
 * Limits of the emulator, each with its source (timeouts and lifetimes: timeouts.ts). The JavaScript
 * UDF limits a user may change come from the configuration (src/config/config.ts, set once at
 * start by setJsUdfLimits); when it gives none, from the environment when used, so a test in the
 * same process can lower them for one call (test/js-udf-sandbox.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';

/** JavaScript UDF limits set from the configuration (undefined: the environment, else the default). */
const jsUdf: { timeoutMs?: number; memoryMb?: number } = {};

/**
 * Sets the JavaScript UDF limits from the resolved configuration (`--js-udf-timeout-ms`,
 * `--js-udf-memory-mb`); an undefined field keeps reading the environment. Process-wide, as the
 * UDF worker pool is (src/functions/js-udf-pool.ts).
 */
export function setJsUdfLimits(limits: { timeoutMs?: number; memoryMb?: number }): void {
  jsUdf.timeoutMs = limits.timeoutMs;
  jsUdf.memoryMb = limits.memoryMb;
}

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
export const jsUdfTimeoutMs = () => jsUdf.timeoutMs ?? envNumber('BQEMU_JS_UDF_TIMEOUT_MS', 5000);

/** Memory of the JavaScript interpreter of one UDF worker, bytes (`BQEMU_JS_UDF_MEMORY_MB`, default 128, at least 32; read when a worker starts). */
export const jsUdfMemoryBytes = () => (jsUdf.memoryMb ?? envNumber('BQEMU_JS_UDF_MEMORY_MB', 128)) * 1024 * 1024;

/**
 * CPU priority (nice) of the emulator's own worker threads — JavaScript UDF workers and the
 * analyzer-answer decoder — set by each thread for itself (Linux applies `setpriority` to the
 * calling thread only; elsewhere it is a no-op or the whole process, and is skipped). A runaway UDF
 * burns a core for its whole time limit; at a lower priority it yields that core to the main
 * thread, the analyzer and DuckDB serving the other clients.
 */
export const WORKER_THREAD_NICE = 10;

/** Lowers the calling worker thread to WORKER_THREAD_NICE on Linux (a no-op elsewhere or when refused). */
export function lowerWorkerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(WORKER_THREAD_NICE);
  } catch {
    // Not permitted: the thread keeps its priority.
  }
}

/**
 * CPU priority (nice) of the emulator's other threads — DuckDB's own threads, libuv's pool (which
 * runs every DuckDB call), V8's helpers — against the main thread, which alone answers every REST
 * request: under load the kernel gives the event loop the core first, so a short request is not
 * queued behind long DuckDB work on 2 cores (Linux: per-thread `setpriority`; no-op elsewhere).
 */
export const BACKGROUND_THREAD_NICE = 4;

/**
 * Lowers every thread of this process but the main one to at least BACKGROUND_THREAD_NICE (threads
 * already lower, e.g. workers at WORKER_THREAD_NICE, keep theirs). Threads started later inherit
 * the nice of the thread that starts them. A no-op off Linux or when refused.
 */
export function favourMainThread(): void {
  if (process.platform !== 'linux') return;
  let tids: string[];
  try {
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    return;
  }
  for (const tid of tids) {
    if (Number(tid) === process.pid) continue;
    try {
      if (os.getPriority(Number(tid)) < BACKGROUND_THREAD_NICE) os.setPriority(Number(tid), BACKGROUND_THREAD_NICE);
    } catch {
      // The thread ended meanwhile, or not permitted: it keeps its priority.
    }
  }
}

/**
 * Has V8 free dead young ArrayBuffers within the scavenge that found them, instead of on a
 * background task after it (V8's `--no-concurrent-array-buffer-sweeping`, set at run time as
 * src/engine/duckdb/native-memory.ts sets `--expose-gc`). Reading a large result out of DuckDB
 * allocates ~80 MB of short-lived copies per million rows (`get_data_from_pointer` and
 * `vector_get_data` allocate every copy); with the sweep deferred,
 * V8 still counts them as external memory right after the scavenge that killed them, and starts a
 * full marking: 3–4 mark-compacts per million rows paged. Swept in the pause, 0–1 (paging 1M rows
 * in the steady state: 390–550 ms of server CPU against 520–810 ms,
 * bench/results/2026-11-28-shared-slabs.md). For the standalone server only (src/cli/main.ts): an
 * embedding process keeps its own V8 settings.
 */
export function sweepArrayBuffersInPause(): void {
  try {
    v8.setFlagsFromString('--no-concurrent-array-buffer-sweeping');
  } catch {
    // A runtime that refuses the flag: V8 sweeps as it does by default.
  }
}

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

// --- BigQuery's documented limits and the emulator's resource guards ---------------------
/**
 * BigQuery's documented limits the emulator enforces before work starts, and the emulator's own
 * resource guards (what BigQuery bounds by its infrastructure, bqemu bounds by a number), each with
 * its source. Plain constants with no imports, so every layer may read them.
 */

/**
 * Maximum length of a GoogleSQL query text, in characters, comments and white space included
 * (https://cloud.google.com/bigquery/quotas#query_jobs "Maximum query length: 1,024K characters").
 */
export const MAX_QUERY_LENGTH_CHARS = 1024 * 1024;

/**
 * Maximum nesting of parentheses and brackets in a query text. BigQuery refuses too deep nesting
 * with "Out of stack space due to deeply nested query expression during query resolution"
 * (https://cloud.google.com/bigquery/docs/troubleshoot-queries#out_of_stack_space); its depth
 * depends on BigQuery's stack, so the emulator uses a conservative bound that keeps one analysis
 * of the deepest accepted text near a second (measured: 1,000 nested ABS( ≈ 2.8 s, 3,000 ≈ 22 s).
 */
export const MAX_EXPRESSION_NESTING = 1000;

/**
 * Maximum length of a column (field) name in characters
 * (https://cloud.google.com/bigquery/docs/schemas#column_names: "up to 300 characters").
 */
export const MAX_COLUMN_NAME_LENGTH = 300;

/**
 * Maximum length of a table id and of a dataset id, in characters
 * (https://cloud.google.com/bigquery/docs/tables#table_naming, .../datasets#dataset-naming: 1,024).
 */
export const MAX_TABLE_ID_LENGTH = 1024;

/**
 * Largest `number` argument of APPROX_QUANTILES / APPROX_TOP_COUNT / APPROX_TOP_SUM (BigQuery:
 * "The second argument to APPROX_QUANTILES function cannot be greater than 100000").
 */
export const MAX_APPROX_NUMBER = 100_000;

/**
 * Largest output of REPEAT, LPAD/RPAD (and other string builders) in bytes: ZetaSQL's function
 * library, which BigQuery runs, refuses "Output of REPEAT exceeds max allowed output size of 1MB".
 */
export const MAX_STRING_FUNCTION_OUTPUT_BYTES = 1 << 20;

/**
 * Largest array GENERATE_ARRAY / GENERATE_DATE_ARRAY / GENERATE_TIMESTAMP_ARRAY build, in elements.
 * ZetaSQL's function library refuses "Cannot generate arrays with more than N elements."; BigQuery
 * generates far larger arrays than the open-source N of 16,000 (`UNNEST(GENERATE_ARRAY(1, 2000000))`
 * is a common way to make test rows), and what bounds a value there is the 100 MB maximum row size
 * (https://cloud.google.com/bigquery/quotas#query_jobs). An INT64/FLOAT64/DATE/TIMESTAMP element is
 * 8 bytes in BigQuery's data-size rules (https://cloud.google.com/bigquery/pricing#data), so the
 * emulator's N is the element count that fills 100 MiB: 13,107,200.
 */
export const MAX_GENERATED_ARRAY_ELEMENTS = (100 * 1024 * 1024) / 8;

/**
 * Largest single STRING/BYTES value a query may hand to the client, in bytes: BigQuery's maximum
 * row size is 100 MB (https://cloud.google.com/bigquery/quotas#query_jobs). The guard also keeps
 * every decoded string far below V8's 512 MB string limit (a larger one aborts the process).
 */
export const MAX_RESULT_VALUE_BYTES = 100 * 1024 * 1024;

/**
 * Largest result one query may return to the emulator's memory, in bytes (estimated as decoded):
 * beyond it the query fails with BigQuery's "Response too large to return." (reason
 * responseTooLarge, https://cloud.google.com/bigquery/docs/error-messages#errortable). BigQuery's
 * own cap is 10 GB compressed; the emulator keeps results in its process, so it uses 512 MB.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 512 * 1024 * 1024;

/**
 * Finished jobs whose result rows are kept by default, and their cells and bytes over all jobs
 * (src/jobs/jobs.ts ResultLimits; `startEmulator({ resultLimits })` changes them): BigQuery keeps
 * results about 24 hours in storage (src/config/timeouts.ts ANONYMOUS_TABLE_TTL_MS), the emulator
 * keeps them in its memory, so it bounds them by count and size; the oldest results expire first.
 */
export const DEFAULT_RETAINED_JOBS = 1000;
export const DEFAULT_RETAINED_CELLS = 5_000_000;
export const DEFAULT_MAX_RETAINED_BYTES = 1024 * 1024 * 1024;

/**
 * Iterations of a recursive CTE before BigQuery stops it
 * (https://cloud.google.com/bigquery/docs/recursive-ctes: "limited to 500 iterations").
 */
export const MAX_RECURSIVE_CTE_ITERATIONS = 500;

/**
 * DuckDB's `memory_limit` by default: this fraction of the machine's RAM (DuckDB's own default is
 * 80%; the emulator leaves room for Node, the analyzer and the clients). `--memory-limit` overrides.
 */
export const DEFAULT_DUCKDB_MEMORY_FRACTION = 0.5;

/**
 * Deleted datasets kept for datasets.undelete / UNDROP SCHEMA at most (src/engine/dataset-undelete.ts):
 * BigQuery keeps each for its 2–7-day time-travel window, but an emulator serving a test suite that
 * creates and deletes a dataset per test would otherwise hold every one of them (their tables' rows
 * included) for a week; past this count the oldest deletions are purged first.
 */
export const MAX_KEPT_DELETED_DATASETS = 100;

/**
 * Longest stretch (ms) of one step of a large piece of work done on the event loop in slices —
 * parsing a large analyzer answer, indexing a large resolved AST, serialising a list page,
 * encoding a kept result — before it lets other work run. Every slicer that is busy adds one slice
 * to each turn of the event loop, and a small request (a `SELECT 1`) needs several turns (its body,
 * its DuckDB call, its answer), so under hostile load the slice length multiplies into its
 * latency: 1 ms keeps a turn short while the yield itself (a setImmediate) costs microseconds.
 */
export const EVENT_LOOP_SLICE_MS = 1;

/**
 * Query texts at least this long (characters) yield to the event loop between whole-text passes
 * (the limit checks, the pre-parse rewrites, the script shape scan): over a 1 MB text each pass
 * costs 5–20 ms, and run back to back with the request body's parse they held the event loop
 * 75–107 ms.
 */
export const LONG_TEXT_CHARS = 64 * 1024;

/** Lets other clients' work run (one event-loop turn) when `text` is at least LONG_TEXT_CHARS long. */
export async function yieldIfLongText(text: string): Promise<void> {
  if (text.length >= LONG_TEXT_CHARS) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * The slices of one long piece of work done on the event loop: between its steps,
 * `if (slices.due()) await slices.next()` lets other work run once the current slice has lasted
 * EVENT_LOOP_SLICE_MS.
 */
export class EventLoopSlices {
  private since = performance.now();

  /** True once the current slice has run longer than EVENT_LOOP_SLICE_MS. */
  due(): boolean {
    return performance.now() - this.since > EVENT_LOOP_SLICE_MS;
  }

  /** Lets other work run (one turn of the event loop), then starts the next slice. */
  async next(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }
}
