/**
 * Prompt release of DuckDB's native result memory.
 *
 * `@duckdb/node-api` frees a query's native result (`duckdb_destroy_result`) only in the finalizer
 * of its small JavaScript wrapper, and V8 does not know how much native memory such a wrapper
 * holds. With a small JavaScript heap, full garbage collections are rare, so the native memory of
 * thousands of finished results stays allocated; young-generation collections do not run those
 * finalizers, nor does `gc({type: 'major'})`; a plain `gc()` does. Measured on a spawned emulator
 * over 10,000 distinct `SELECT <i>` (RSS growth from query 100 to 10,000): +143 MB with no forced
 * collection, +130 MB with a minor collection every 100 results, +35 MB with `gc()` every 250
 * results, +50 MB every 1,000, +29 MB with the rule below.
 *
 * `noteResult()` counts results; after {@link RESULTS_PER_COLLECTION} of them, and at most once per
 * {@link MIN_INTERVAL_MS}, it schedules one full collection after the current turn (about 20 ms
 * with a 40 MB heap, so at most ~2 % of the time under a constant stream of queries). The
 * collection function comes from V8's `--expose-gc`, set at run time; where that is refused,
 * nothing happens (memory is then released at V8's own pace).
 *
 * A forced collection is one stop-the-world pause whose length grows with the heap: 50–140 ms
 * with a 100–460 MB heap in the 2-minute fuzz run (`--trace-gc`: 22 such pauses, 1.9 s, the
 * largest single cause of event-loop stalls there). So the interval also grows with the last
 * pause: at least {@link PAUSE_SHARE_DIVISOR} × its length, keeping forced pauses under 0.5 % of
 * the time whatever the heap size.
 *
 * A full collection V8 runs on its own (a major GC, seen through a `gc` PerformanceObserver) runs
 * the same finalizers, so it counts as one: the count starts again and the interval runs from
 * it. Under a load that allocates (the fuzz run: a major collection every ~3 s), no collection is
 * forced at all; the forced ones are for a quiet heap, where V8 would not collect for a long time
 * (the 10,000 small queries above). Before this, a 2-minute fuzz run had six forced pauses of
 * 51–144 ms (`--trace-gc`, live heap 58–114 MB) on top of V8's own.
 *
 * Two more kinds of memory V8 does not see are handled here: a streamed chunk its owner is done
 * with is freed at once ({@link releaseChunk}), and a dropped result's row texts kept in
 * SharedArrayBuffers that are not reused (src/engine/result-slabs.ts) count towards the next forced
 * collection ({@link noteDroppedBytes}).
 *
 * A forced pause is also deferred until no request is in flight ({@link beginRequest} /
 * {@link endRequest}, counted by the server): a 100–190 ms pause in the middle of other clients'
 * requests is an event-loop stall they all wait for (in a 1-minute fuzz run, 6 forced pauses of
 * 51–189 ms were the largest main-thread GC pauses). Under load that never pauses, the collection
 * runs anyway after {@link MAX_DEFER_MS}.
 */
import duckdbBindings from '@duckdb/node-bindings';
import type { DuckDBDataChunk } from '@duckdb/node-api';
import v8 from 'node:v8';
import vm from 'node:vm';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** Results between two forced collections. */
export const RESULTS_PER_COLLECTION = 250;
/** Shortest time between two forced collections (ms). */
export const MIN_INTERVAL_MS = 1000;
/** The interval is at least this many times the last forced pause (≤ 0.5 % of the time). */
export const PAUSE_SHARE_DIVISOR = 200;

/** Longest a due collection waits for a moment with no request in flight (ms). */
export const MAX_DEFER_MS = 120_000;
/** How often a deferred collection checks for such a moment (ms). */
const IDLE_POLL_MS = 25;

type GcFunction = () => void;

let inFlight = 0;
/** The collection waiting for a moment with no request in flight, if any. */
let deferred: (() => void) | undefined;

/** A REST request started: forced collections wait until none is in flight. */
export function beginRequest(): void {
  inFlight++;
}

/** A request started with {@link beginRequest} ended (answered, failed or aborted). */
export function endRequest(): void {
  if (inFlight > 0) inFlight--;
  if (inFlight === 0 && deferred) {
    setImmediate(() => {
      if (inFlight === 0) deferred?.();
    });
  }
}

let gcFn: GcFunction | null | undefined;

/** Test seam: the collection function noteResult forces (null: none). */
export function useCollector(fn: GcFunction | null): void {
  gcFn = fn;
}

function collector(): GcFunction | null {
  if (gcFn !== undefined) return gcFn;
  try {
    const existing = (globalThis as { gc?: GcFunction }).gc;
    if (typeof existing === 'function') return (gcFn = existing);
    v8.setFlagsFromString('--expose-gc');
    const fn = vm.runInNewContext('gc') as GcFunction | undefined;
    gcFn = typeof fn === 'function' ? fn : null;
  } catch {
    // A runtime that refuses --expose-gc: the memory guard works without forcing collections.
    gcFn = null;
  }
  return gcFn;
}

let sinceLast = 0;
let observing = false;

/** Counts a major collection V8 ran by itself as a forced one (see the module comment). */
function observeMajorCollections(): void {
  if (observing) return;
  observing = true;
  try {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((e: PerformanceEntry) => (e as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) collectedNow();
    });
    observer.observe({ entryTypes: ['gc'] });
    (observer as unknown as { unref?: () => void }).unref?.();
  } catch {
    // No gc entries in this runtime: every collection is then forced by the count, as before.
  }
}

/** A full collection just ran (forced or V8's own): the count and the interval start again. */
function collectedNow(): void {
  sinceLast = 0;
  lastAt = Date.now();
  // A forced collection waiting for a quiet moment is not needed any more.
  deferred = undefined;
  scheduled = false;
}
let lastAt = 0;
let lastPauseMs = 0;
let scheduled = false;

/** Counts one DuckDB result; now and then schedules a full collection (see the module comment). */
export function noteResult(): void {
  noteWork(1);
}

/**
 * Bytes of dropped memory V8 does not count that weigh as one result: a full collection is due
 * once about {@link DROPPED_BYTES_PER_COLLECTION} of it was dropped.
 */
const DROPPED_BYTES_PER_RESULT = 256 * 1024;

/** Dropped uncounted memory (bytes) after which a full collection is due: 250 × 256 KB = 64 MB. */
export const DROPPED_BYTES_PER_COLLECTION = RESULTS_PER_COLLECTION * DROPPED_BYTES_PER_RESULT;

/**
 * Counts `bytes` of memory V8 does not count that was just dropped and is freed only when a full
 * collection finds its wrappers (a kept result's row texts in SharedArrayBuffers,
 * src/engine/result-slabs.ts `Slab`): with V8 unaware of it, a quiet heap would keep hundreds of MB of
 * dropped results. Weighs as one result per {@link DROPPED_BYTES_PER_RESULT}, under the same rule as
 * {@link noteResult} (interval, pause share, deferral).
 */
export function noteDroppedBytes(bytes: number): void {
  if (bytes > 0) noteWork(Math.ceil(bytes / DROPPED_BYTES_PER_RESULT));
}

/**
 * Gives a streamed DuckDB chunk's memory (its vectors and string heaps: ~90 MB per million rows of
 * REST row texts) back at once, when its owner is done with it (copied out, or not needed),
 * instead of when V8 collects its small wrapper (`duckdb_data_chunk_reset`; measured on a spawned
 * emulator paging 1M rows five times: peak RSS 352–367 MB against 374–394 MB without).
 */
export function releaseChunk(chunk: DuckDBDataChunk): void {
  duckdbBindings.data_chunk_reset(chunk.chunk);
}

/** Counts `n` results' worth of memory awaiting a full collection; schedules one when due. */
function noteWork(n: number): void {
  observeMajorCollections();
  sinceLast += n;
  if (sinceLast < RESULTS_PER_COLLECTION || scheduled) return;
  const now = Date.now();
  if (now - lastAt < Math.max(MIN_INTERVAL_MS, PAUSE_SHARE_DIVISOR * lastPauseMs)) return;
  const gc = collector();
  if (!gc) return;
  sinceLast = 0;
  lastAt = now;
  scheduled = true;
  const dueAt = now;
  const collect = () => {
    if (deferred !== collect) return;
    deferred = undefined;
    scheduled = false;
    const t0 = performance.now();
    gc();
    lastPauseMs = performance.now() - t0;
    lastAt = Date.now();
  };
  deferred = collect;
  // Polled as well: the last request can end without the count reaching 0 (MAX_DEFER_MS).
  const poll = () => {
    if (deferred !== collect) return;
    if (inFlight === 0 || Date.now() - dueAt >= MAX_DEFER_MS) collect();
    else setTimeout(poll, IDLE_POLL_MS).unref();
  };
  setImmediate(poll);
}
