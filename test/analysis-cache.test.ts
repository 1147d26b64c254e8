/**
 * The analysis cache (src/engine/analyze.ts) answers a repeated short statement without the
 * analyzer, and keeps no statement over 64 KB: a resolved AST is ~170 bytes of objects per
 * character, so caching every large hostile text kept gigabytes alive.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'cache-project' });
});
afterAll(async () => {
  await t.emu.close();
});

/** Analyzer calls made while running `sql` (dry run: analysis only). */
async function analyzerCalls(sql: string): Promise<number> {
  const spy = vi.spyOn(t.emu.engine.analyzer, 'call');
  try {
    await t.bq.createQueryJob({ query: sql, dryRun: true });
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

describe('analysis cache', () => {
  it('a repeated short statement is answered from the cache', async () => {
    const sql = 'SELECT 41 + 1 AS answer -- cache test';
    expect(await analyzerCalls(sql)).toBeGreaterThan(0);
    expect(await analyzerCalls(sql)).toBe(0);
  });

  it('a statement over 64 KB is analyzed again each time (never kept)', async () => {
    const sql = `SELECT x IN (${Array.from({ length: 12_000 }, (_, i) => i).join(', ')}) AS hit FROM UNNEST([1]) AS x`;
    expect(sql.length).toBeGreaterThan(64 * 1024);
    expect(await analyzerCalls(sql)).toBeGreaterThan(0);
    expect(await analyzerCalls(sql)).toBeGreaterThan(0);
  });
});
