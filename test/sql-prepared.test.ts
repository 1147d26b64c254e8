/**
 * One-off query texts run through DuckDB's SQL-level PREPARE / EXECUTE / DEALLOCATE
 * (src/engine/duckdb/sql-prepared.ts), so an interrupted query's state is freed by DEALLOCATE on
 * DuckDB's thread instead of by node-api's `destroySync` on the event loop. Checked here through
 * `@google-cloud/bigquery`: the answers are unchanged (values computed by hand from the SQL), the
 * query text itself never reaches node-api's `connection.stream` (only `EXECUTE <name>`), every
 * prepared name is deallocated — after a cancellation too — and the connection serves the next
 * query. (The queries group by a column so that their row count is not known from the resolved
 * AST: a result of one chunk at most is read in one `run` call instead, checked last.)
 */
import { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'sqlprep-project' });
}, 60_000);
afterAll(async () => {
  await t.emu.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The texts node-api's `stream` and `run` got while `f` ran. */
async function duckdbTexts(f: () => Promise<void>): Promise<{ streamed: string[]; ran: string[] }> {
  const stream = vi.spyOn(DuckDBConnection.prototype, 'stream');
  const run = vi.spyOn(DuckDBConnection.prototype, 'run');
  await f();
  return { streamed: stream.mock.calls.map((c) => String(c[0])), ran: run.mock.calls.map((c) => String(c[0])) };
}

type QueryJob = { cancel(): Promise<unknown>; getMetadata(): Promise<[Record<string, any>]>; getQueryResults(): Promise<unknown> };

/** Starts `query` as a job, cancels it (jobs.cancel) 300 ms later and waits until it is DONE. */
async function cancelledAfter300ms(query: string): Promise<{ job: QueryJob; m: Record<string, any> }> {
  const [job] = (await t.bq.createQueryJob({ query })) as unknown as [QueryJob];
  await sleep(300);
  await job.cancel();
  let m: Record<string, any> = {};
  for (let i = 0; i < 500; i++) {
    [m] = await job.getMetadata();
    if (m.status.state === 'DONE') break;
    await sleep(20);
  }
  return { job, m };
}

describe('one-off texts through PREPARE / EXECUTE / DEALLOCATE', () => {
  it('answers as before, streams only EXECUTE, deallocates what it prepared', async () => {
    const { streamed, ran } = await duckdbTexts(async () => {
      const [rows] = await t.bq.query({ query: "SELECT LENGTH(STRING_AGG(REPEAT('x', 1000), ',')) AS n, 7919 AS marker FROM UNNEST(GENERATE_ARRAY(1, 300)) GROUP BY marker" });
      // 300 values of 1,000 characters and 299 commas.
      expect(rows).toEqual([{ n: 300 * 1000 + 299, marker: 7919 }]);
    });
    const prepared = ran.filter((s) => /^PREPARE __bqemu_q\d+ AS /.test(s) && s.includes('7919'));
    expect(prepared).toHaveLength(1);
    const name = /^PREPARE (__bqemu_q\d+)/.exec(prepared[0]!)![1];
    expect(streamed.filter((s) => s.includes('7919'))).toEqual([]);
    expect(streamed).toContain(`EXECUTE ${name}`);
    expect(ran).toContain(`DEALLOCATE ${name}`);
  });

  it('a cancelled query is deallocated and its connection serves the next query', async () => {
    const { ran } = await duckdbTexts(async () => {
      const { job, m } = await cancelledAfter300ms("SELECT LENGTH(STRING_AGG(REPEAT('y', 10000), ',')) AS n, 104729 AS marker FROM UNNEST(GENERATE_ARRAY(1, 200000)) GROUP BY marker");
      expect(m.status.errorResult).toEqual({ reason: 'stopped', message: 'Job execution was cancelled: User requested cancellation' });
      expect((await errorOf(job.getQueryResults())).message).toBe('Job execution was cancelled: User requested cancellation');
      const [rows] = await t.bq.query({ query: 'SELECT 6 * 7 AS answer' });
      expect(rows).toEqual([{ answer: 42 }]);
    });
    const prepared = ran.filter((s) => /^PREPARE __bqemu_q\d+ AS /.test(s) && s.includes('104729'));
    expect(prepared).toHaveLength(1);
    const name = /^PREPARE (__bqemu_q\d+)/.exec(prepared[0]!)![1];
    expect(ran).toContain(`DEALLOCATE ${name}`);
  });

  it('a result known to be one row runs in one call to DuckDB, also when cancelled', async () => {
    const { streamed, ran } = await duckdbTexts(async () => {
      // An aggregation without GROUP BY is one row (src/engine/lower/row-bound.ts).
      const [rows] = await t.bq.query({ query: "SELECT LENGTH(STRING_AGG(REPEAT('x', 1000), ',')) AS n, 7907 AS marker FROM UNNEST(GENERATE_ARRAY(1, 300))" });
      expect(rows).toEqual([{ n: 300 * 1000 + 299, marker: 7907 }]);
      const { m } = await cancelledAfter300ms("SELECT LENGTH(STRING_AGG(REPEAT('y', 10000), ',')) AS n, 104723 AS marker FROM UNNEST(GENERATE_ARRAY(1, 200000))");
      expect(m.status.errorResult).toEqual({ reason: 'stopped', message: 'Job execution was cancelled: User requested cancellation' });
      const [after] = await t.bq.query({ query: 'SELECT 6 * 9 AS answer' });
      expect(after).toEqual([{ answer: 54 }]);
    });
    for (const marker of ['7907', '104723']) {
      expect(streamed.filter((s) => s.includes(marker))).toEqual([]);
      expect(ran.filter((s) => s.includes(marker) && !s.startsWith('PREPARE'))).toHaveLength(1);
      expect(ran.filter((s) => s.includes(marker) && s.startsWith('PREPARE'))).toEqual([]);
    }
  });

  it('a text DuckDB cannot prepare keeps its own error', async () => {
    const e = await errorOf(t.bq.query({ query: "SELECT CAST('not a number' AS INT64) AS n" }));
    expect(e.message).toBe("Bad int64 value: not a number");
  });
});
