/**
 * Limits and timeouts of the SQL analyzer (the ZetaSQL child processes of src/analyzer), each with
 * its reason. Plain constants with no imports, so every layer may read them; a test may lower the
 * call deadline of one running emulator through `AnalyzerClient.deadlineMs`.
 */
import os from 'node:os';

/**
 * Longest one analyzer call (parse, analyze, table-name extraction of one statement) may take, ms.
 * Ordinary statements analyze in well under 50 ms; the slowest texts BigQuery itself accepts
 * (1,000 nested function calls) take ~3 s on a loaded 2-core machine. A call past this deadline
 * kills and restarts its analyzer process and fails only its own query, with BigQuery's
 * "too complex" error.
 */
export const ANALYZER_CALL_DEADLINE_MS = 15_000;

/**
 * A call still unanswered after this long makes the pool probe its connection with a trivial RPC
 * (GetLanguageOptions, ~10 ms). ZetaSQL's server answers calls on a thread pool, so a healthy
 * process answers the probe even while it analyzes a slow statement; one that does not answer is
 * dead or its HTTP/2 session is wedged (see ANALYZER_PROBE_DEADLINE_MS).
 */
export const ANALYZER_STALL_PROBE_AFTER_MS = 500;

/**
 * Time limit of that probe, ms (over 100 times its usual answer time, so a loaded machine does not
 * make a healthy process look dead). An analyzer error message over 64 KiB (it echoes the offending
 * token: a 65,600-character identifier, a 50,000-digit NUMERIC literal) arrives as a `grpc-message`
 * trailer larger than nghttp2's fixed per-header limit; nghttp2 then ends the HTTP/2 session, but
 * neither Node nor grpc-js reports it, so every call on that connection waits forever. The probe
 * finds such a connection: its process is restarted, its calls resent once elsewhere.
 */
export const ANALYZER_PROBE_DEADLINE_MS = 1500;

/** How often the pool looks for stalled calls and cancelled jobs' calls, ms. */
export const ANALYZER_WATCH_INTERVAL_MS = 100;

/**
 * Analyzer processes at most: one per core, at least 2 (the second starts only when a call finds
 * the first busy, so a cold start spawns one). ZetaSQL answers concurrent calls on threads; more
 * processes isolate a runaway analysis (its restart loses only that process's calls).
 */
export const ANALYZER_POOL_MAX = Math.max(2, os.availableParallelism?.() ?? os.cpus().length);

/**
 * A call running longer than this (ms) makes its process a heavy one: the process is lowered in
 * CPU priority (ANALYZER_HEAVY_NICE) and gets no new calls while another process can take them
 * (a fresh one is started when none can), so the second client's short analyses are not queued
 * behind, or starved by, a hostile text. Ordinary statements analyze in 1–20 ms.
 */
export const ANALYZER_HEAVY_CALL_MS = 250;

/** Nice value of a heavy analyzer process (every thread of it): the kernel favours the others ~9:1. */
export const ANALYZER_HEAVY_NICE = 10;

/** Heavy processes kept at most besides ANALYZER_POOL_MAX ordinary ones (each holds a call at most until its deadline). */
export const ANALYZER_HEAVY_EXTRA = 2;

/**
 * Largest request sent to an analyzer, bytes: the ZetaSQL server's own receive limit (gRPC's
 * default 4 MiB; it refuses more with "Received message larger than max"). A query is at most
 * 1,024K characters (https://cloud.google.com/bigquery/quotas#query_jobs) plus the catalog of the
 * tables it names. A larger request fails that query alone, before anything is sent.
 */
export const ANALYZER_MAX_SEND_BYTES = 4 * 1024 * 1024;

/**
 * Largest answer accepted from an analyzer, bytes (the resolved AST of the largest accepted query
 * is a few MiB). Past it the query fails with BigQuery's "too complex" error instead of the
 * emulator building an unbounded object from it.
 */
export const ANALYZER_MAX_RECEIVE_BYTES = 128 * 1024 * 1024;

/**
 * A job cancelled while its analysis has run this long also restarts the analyzer process: ZetaSQL
 * cannot stop an analysis, which would otherwise keep a core busy up to the call deadline, ms.
 */
export const ANALYZER_CANCEL_RESTART_AFTER_MS = 1000;

/** How long a starting analyzer process may take to answer its first RPC, ms. */
export const ANALYZER_START_TIMEOUT_MS = 30_000;

/**
 * Restart back-off of analyzer processes that keep dying (src/analyzer/pool.ts): exits within the
 * last ANALYZER_CRASH_WINDOW_MS count; the first restart is immediate, then the delay starts at
 * ANALYZER_RESTART_BACKOFF_MS and doubles up to ANALYZER_RESTART_BACKOFF_MAX_MS (emulator's choice:
 * a crash loop must not take a core).
 */
export const ANALYZER_CRASH_WINDOW_MS = 30_000;
/** First restart delay of a crash loop, ms (see ANALYZER_CRASH_WINDOW_MS). */
export const ANALYZER_RESTART_BACKOFF_MS = 100;
/** Longest restart delay of a crash loop, ms (see ANALYZER_CRASH_WINDOW_MS). */
export const ANALYZER_RESTART_BACKOFF_MAX_MS = 5000;

/**
 * Nesting depth protobufjs decodes in an analyzer answer (its default, protoc's 100, fails every
 * statement with ~25 nested calls or `1+1+…` terms: each resolved expression level is ~4 message
 * levels). 10,000 covers the deepest expression the emulator accepts; deeper answers fail with
 * BigQuery's "too complex" error (or a JavaScript stack overflow caught by the gRPC client).
 */
export const ANALYZER_PROTO_RECURSION_LIMIT = 10_000;

/**
 * Analyzer answers larger than this, bytes, are decoded in a worker thread
 * (src/analyzer/answer-decoder.ts) instead of the main thread. Decoding costs roughly 1 ms of CPU
 * (plus garbage collection) per 10 KB of answer on the main thread — a 100,000-item IN list's
 * resolved AST took ~1.5 s there — while the main thread must keep answering other clients
 * within tens of ms. Below it the thread hop costs more than it saves. Not 256 KB: a deep but
 * small answer costs far more per byte (a 1,000-deep `ABS(ABS(…))` or `(SELECT (SELECT …))` held
 * the main thread 150 ms decoding and normalising on it; off-thread, the longest event-loop delay
 * over the same query was 7–22 ms).
 */
export const ANALYZER_OFFTHREAD_DECODE_BYTES = 32 * 1024;

/** V8 heap of the answer-decoder thread, MB: a full ANALYZER_MAX_RECEIVE_BYTES answer decoded and normalised. */
export const ANSWER_DECODER_HEAP_MB = 2048;

/**
 * Analyzer requests with fewer characters of SQL than this are never blamed for a lost
 * connection or process (src/analyzer/pool.ts): what wedges an analyzer — an error message of
 * ~64 KiB ending its HTTP/2 session, or an analysis of seconds — takes a text of tens of KB
 * (measured: a 65,600-character name; 3,000 `+` terms, ~20 KB). Such a call (e.g. a health check's
 * `SELECT 1` sharing a process with the culprit) is resent until its deadline instead.
 */
export const ANALYZER_SUSPECT_MIN_CHARS = 4096;
