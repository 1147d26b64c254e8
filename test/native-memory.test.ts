/**
 * Forced collections of src/engine/duckdb/native-memory.ts wait for a moment with no REST request
 * in flight: a stop-the-world pause of 50–190 ms in the middle of other clients' requests is an
 * event-loop stall every one of them waits for. A major collection V8 runs by itself counts as a
 * forced one (it runs the same finalizers), so a heap that V8 collects anyway is never forced.
 * Dropped memory V8 does not count (kept results' row texts in SharedArrayBuffers) weighs too.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import v8 from 'node:v8';
import vm from 'node:vm';
import { beginRequest, DROPPED_BYTES_PER_COLLECTION, endRequest, MAX_DEFER_MS, MIN_INTERVAL_MS, noteDroppedBytes, noteResult, RESULTS_PER_COLLECTION, useCollector } from '../src/engine/duckdb/native-memory.js';

const settle = () => new Promise<void>((r) => setImmediate(r));

afterEach(() => {
  vi.useRealTimers();
});

describe('forced collections', () => {
  it('run after RESULTS_PER_COLLECTION results once no request is in flight', async () => {
    const gc = vi.fn();
    useCollector(gc);
    beginRequest();
    beginRequest();
    for (let i = 0; i < RESULTS_PER_COLLECTION; i++) noteResult();
    await settle();
    await new Promise((r) => setTimeout(r, 80));
    expect(gc).not.toHaveBeenCalled();
    endRequest();
    await settle();
    expect(gc).not.toHaveBeenCalled();
    endRequest();
    await settle();
    await settle();
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it('a major collection V8 ran by itself counts as one: the count starts again', async () => {
    const gc = vi.fn();
    useCollector(gc);
    await new Promise((r) => setTimeout(r, MIN_INTERVAL_MS + 100)); // past the interval since the last one
    for (let i = 0; i < RESULTS_PER_COLLECTION - 1; i++) noteResult();
    v8.setFlagsFromString('--expose-gc');
    (vm.runInNewContext('gc') as () => void)(); // a full collection not forced by noteResult
    await new Promise((r) => setTimeout(r, 50)); // the gc PerformanceObserver's entries arrive
    noteResult();
    await settle();
    await settle();
    expect(gc).not.toHaveBeenCalled();
    for (let i = 0; i < RESULTS_PER_COLLECTION; i++) noteResult();
    await new Promise((r) => setTimeout(r, MIN_INTERVAL_MS + 100));
    noteResult();
    await settle();
    await settle();
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it('count dropped memory V8 does not count: DROPPED_BYTES_PER_COLLECTION of it is due one, as RESULTS_PER_COLLECTION results are', async () => {
    const gc = vi.fn();
    useCollector(gc);
    await new Promise((r) => setTimeout(r, MIN_INTERVAL_MS + 100)); // past the interval since the last one
    noteDroppedBytes(DROPPED_BYTES_PER_COLLECTION / 2);
    await settle();
    await settle();
    expect(gc).not.toHaveBeenCalled();
    noteDroppedBytes(0);
    noteDroppedBytes(DROPPED_BYTES_PER_COLLECTION / 2);
    await settle();
    await settle();
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it('run anyway after MAX_DEFER_MS of requests always in flight', async () => {
    vi.useFakeTimers({ now: Date.now() + 10 * MAX_DEFER_MS, toFake: ['setTimeout', 'setImmediate', 'Date'] });
    const gc = vi.fn();
    useCollector(gc);
    beginRequest();
    for (let i = 0; i < RESULTS_PER_COLLECTION; i++) noteResult();
    await vi.advanceTimersByTimeAsync(MAX_DEFER_MS - 1000);
    expect(gc).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2000);
    expect(gc).toHaveBeenCalledTimes(1);
    endRequest();
  });
});
