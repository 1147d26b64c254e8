/**
 * Forced collections of src/engine/duckdb/native-memory.ts wait for a moment with no REST request
 * in flight: a stop-the-world pause of 50–190 ms in the middle of other clients' requests is an
 * event-loop stall every one of them waits for.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { beginRequest, endRequest, MAX_DEFER_MS, noteResult, RESULTS_PER_COLLECTION, useCollector } from '../src/engine/duckdb/native-memory.js';

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
