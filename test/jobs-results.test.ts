/**
 * Result rows of finished jobs are bounded (the most recent jobs within a cell budget);
 * metadata stays. A page of an evicted result answers 404 notFound naming the job's anonymous
 * result table, as BigQuery answers once a query's results expired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../src/engine/engine.js';
import { JobManager, anonymousTable, type JobRecord } from '../src/jobs/jobs.js';
import { BigQueryError } from '../src/errors/errors.js';

let engine: Engine;

beforeAll(async () => {
  engine = await Engine.start();
});
afterAll(() => {
  engine?.stop();
});

async function run(m: JobManager, sql: string): Promise<JobRecord> {
  const j = await m.insert('p', { configuration: { query: { query: sql, useLegacySql: false } } });
  await m.waitFor(j, 30_000);
  return j;
}

describe('result retention', () => {
  it('keeps the rows of the most recent jobs only; older jobs keep their metadata', async () => {
    const m = new JobManager(engine, 'p', { maxJobs: 2 });
    const jobs: JobRecord[] = [];
    for (let i = 0; i < 4; i++) jobs.push(await run(m, `SELECT ${i} AS i`));
    // Kept as REST row text (no TIMESTAMP column): `{"f":[{"v":"<i>"}]}`.
    for (const j of jobs.slice(2)) expect(m.page(j, 0, 10).encodedRows?.texts()).toEqual([`{"f":[{"v":"${jobs.indexOf(j)}"}]}`]);
    for (const j of jobs.slice(0, 2)) {
      expect(j.resultsExpired).toBe(true);
      expect(m.get('p', j.jobId).state).toBe('DONE');
      expect(j.result?.schema).toEqual([{ name: 'i', type: { kind: 'INT64' } }]);
      let err: unknown;
      try {
        m.page(j, 0, 10);
      } catch (e) {
        err = e;
      }
      const t = anonymousTable('p', j.jobId);
      expect(err).toBeInstanceOf(BigQueryError);
      expect((err as BigQueryError).httpStatus).toBe(404);
      expect((err as BigQueryError).message).toBe(`Not found: Table p:${t.datasetId}.${t.tableId} was not found in location US`);
    }
  });

  it('drops the oldest rows beyond the cell budget, keeping the newest result even when larger', async () => {
    const m = new JobManager(engine, 'p', { maxCells: 100 });
    const a = await run(m, 'SELECT n FROM UNNEST(GENERATE_ARRAY(1, 60)) AS n');
    const b = await run(m, 'SELECT n FROM UNNEST(GENERATE_ARRAY(1, 30)) AS n');
    expect(a.resultsExpired).toBeUndefined();
    expect(m.page(a, 0, 100).total).toBe(60);
    // Reading `a` made it the most recently used: the next result evicts `b`.
    const c = await run(m, 'SELECT n FROM UNNEST(GENERATE_ARRAY(1, 500)) AS n');
    expect(b.resultsExpired).toBe(true);
    expect(a.resultsExpired).toBe(true);
    expect(m.page(c, 490, 100).encodedRows).toHaveLength(10);
  });

  it('keeps a large result built in DuckDB in SharedArrayBuffers, which V8 does not count towards a full collection', async () => {
    const m = new JobManager(engine, 'p', { maxJobs: 1 });
    // 20,000 rows of ~40 bytes: past the 128 KB read as values (src/engine/query-results.ts), so the
    // row texts are built in DuckDB and kept as bytes (src/engine/result-json.ts Slab).
    const j = await run(m, "SELECT n, CONCAT('row ', CAST(n AS STRING)) AS s FROM UNNEST(GENERATE_ARRAY(1, 20000)) AS n");
    const page = m.page(j, 0, 20_000).encodedRows!;
    expect(page).toHaveLength(20_000);
    const bytes = page.parts().filter((p): p is Uint8Array => p instanceof Uint8Array);
    expect(bytes.length).toBeGreaterThan(0);
    for (const b of bytes) expect(b.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(page.texts()[19_999]).toBe('{"f":[{"v":"20000"},{"v":"row 20000"}]}');
    // Evicted by the next result: its rows are dropped (their slabs given back, src/engine/result-slabs.ts).
    await run(m, 'SELECT 1 AS x');
    expect(j.resultsExpired).toBe(true);
    expect(j.encodedRows).toBeUndefined();
  });

  it('a read of a deleted job\'s results still in flight answers 404, not an empty page', async () => {
    const m = new JobManager(engine, 'p');
    const j = await run(m, 'SELECT n FROM UNNEST(GENERATE_ARRAY(1, 5)) AS n');
    expect(m.page(j, 0, 10).total).toBe(5);
    await m.delete('p', j.jobId);
    // A getQueryResults that found the job before the delete reads it after.
    let err: unknown;
    try {
      m.page(j, 0, 10);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BigQueryError);
    expect((err as BigQueryError).httpStatus).toBe(404);
  });

  it('keeps memory flat over many jobs', async () => {
    const m = new JobManager(engine, 'p', { maxJobs: 50 });
    for (let i = 0; i < 200; i++) await run(m, 'SELECT n, CAST(n AS STRING) AS s FROM UNNEST(GENERATE_ARRAY(1, 100)) AS n');
    const kept = m.list('p').filter((j) => !j.resultsExpired && (j.result?.rows || j.encodedRows));
    expect(kept).toHaveLength(50);
    expect(m.list('p')).toHaveLength(200);
  });
});
