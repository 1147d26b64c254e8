/**
 * A text is prepared (and kept) on its second sighting only when its first, unprepared run was
 * quick (src/engine/duckdb/prepared-statements.ts PREPARE_MAX_FIRST_RUN_MS): a kept plan that
 * aggregated large values frees them on the event loop when destroyed (0.2–1.2 s measured on raw
 * DuckDB for `STRING_AGG(REPEAT('x', 1000000))`), and preparing saves only ~0.2 ms a run. The
 * connection here is a stand-in that counts prepares; the rule itself is what is tested.
 */
import { describe, expect, it } from 'vitest';
import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';
import { PREPARE_MAX_FIRST_RUN_MS, PreparedStatements } from '../src/engine/duckdb/prepared-statements.js';

function fakeConnection() {
  const counts = { prepared: 0, destroyed: 0 };
  const c = {
    prepare: async () => {
      counts.prepared++;
      return { destroySync: () => counts.destroyed++ } as unknown as DuckDBPreparedStatement;
    },
    run: async () => undefined,
  } as unknown as DuckDBConnection;
  return { c, counts };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('preparing a repeated text', () => {
  it('prepares a text on its second run when the first was quick', async () => {
    const { c, counts } = fakeConnection();
    const ps = new PreparedStatements();
    const runs: string[] = [];
    for (let i = 0; i < 3; i++) {
      await ps.run(c, 'SELECT 1', async () => runs.push('prepared'), async () => runs.push('unprepared'));
    }
    expect(runs).toEqual(['unprepared', 'prepared', 'prepared']);
    expect(counts.prepared).toBe(1);
  });

  it('never prepares a text whose first run was slow', async () => {
    const { c, counts } = fakeConnection();
    const ps = new PreparedStatements();
    const runs: string[] = [];
    const slow = async () => {
      await sleep(PREPARE_MAX_FIRST_RUN_MS * 2);
      return runs.push('unprepared');
    };
    await ps.run(c, 'SELECT STRING_AGG(x) FROM t', async () => runs.push('prepared'), slow);
    await ps.run(c, 'SELECT STRING_AGG(x) FROM t', async () => runs.push('prepared'), async () => runs.push('unprepared'));
    expect(runs).toEqual(['unprepared', 'unprepared']);
    expect(counts.prepared).toBe(0);
  });

  it('never prepares a text whose first run failed', async () => {
    const { c, counts } = fakeConnection();
    const ps = new PreparedStatements();
    await expect(ps.run(c, 'SELECT boom', async () => 1, async () => Promise.reject(new Error('Interrupted')))).rejects.toThrow('Interrupted');
    const runs: string[] = [];
    await ps.run(c, 'SELECT boom', async () => runs.push('prepared'), async () => runs.push('unprepared'));
    expect(runs).toEqual(['unprepared']);
    expect(counts.prepared).toBe(0);
  });
});
