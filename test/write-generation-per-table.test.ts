/**
 * Write generations are per table (src/engine/duckdb/write-generations.ts): a write to table T
 * leaves the measured sizes (bytes processed, src/jobs/bytes.ts) and the kept prepared statements
 * (src/engine/duckdb/prepared-statements.ts) of queries reading only other tables current, and
 * still makes the next query of T measure T again and plan again. Through `@google-cloud/bigquery`
 * against an in-process emulator; bytes processed by BigQuery's data size rules
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#data_type_sizes:
 * INT64 8 bytes per non-NULL value).
 */
import { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sizeScans } from '../src/jobs/bytes.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('pt');
  await t.bq.query({ query: 'CREATE TABLE pt.t AS SELECT x FROM UNNEST(GENERATE_ARRAY(1, 1000)) AS x' });
  await t.bq.query({ query: 'CREATE TABLE pt.u AS SELECT y FROM UNNEST(GENERATE_ARRAY(1, 500)) AS y' });
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await t?.emu.close();
});

/** Runs a query job; its rows and statistics.query.totalBytesProcessed. */
async function run(sql: string): Promise<{ rows: Record<string, unknown>[]; bytes: number }> {
  const [job] = await t.bq.createQueryJob({ query: sql, useQueryCache: false });
  const [rows] = await job.getQueryResults();
  const [meta] = await job.getMetadata();
  return { rows: rows as Record<string, unknown>[], bytes: Number(meta.statistics.query.totalBytesProcessed) };
}

describe('per-table write generations', () => {
  it('a write to one table rescans that table for bytes processed, not the others', async () => {
    const scans = () => sizeScans(t.emu.engine);
    expect((await run('SELECT SUM(x) AS s FROM pt.t')).bytes).toBe(8000);
    expect((await run('SELECT SUM(y) AS s FROM pt.u')).bytes).toBe(4000);
    let before = scans();
    expect((await run('SELECT SUM(y) AS s FROM pt.u')).bytes).toBe(4000);
    expect(scans()).toBe(before);

    // DML on t.
    await t.bq.query({ query: 'INSERT INTO pt.t (x) VALUES (1001)' });
    before = scans();
    expect((await run('SELECT SUM(y) AS s FROM pt.u')).bytes).toBe(4000);
    expect(scans()).toBe(before);
    expect((await run('SELECT SUM(x) AS s FROM pt.t')).bytes).toBe(8008);
    expect(scans()).toBe(before + 1);

    // insertAll (tabledata.insertAll) on t.
    await t.bq.dataset('pt').table('t').insert([{ x: 1002 }, { x: 1003 }]);
    before = scans();
    expect((await run('SELECT SUM(y) AS s FROM pt.u')).bytes).toBe(4000);
    expect(scans()).toBe(before);
    expect((await run('SELECT SUM(x) AS s FROM pt.t')).bytes).toBe(8024);
    expect(scans()).toBe(before + 1);

    // DDL (no named table) still invalidates everything.
    await t.bq.query({ query: 'CREATE TABLE pt.v (z INT64)' });
    before = scans();
    expect((await run('SELECT SUM(y) AS s FROM pt.u')).bytes).toBe(4000);
    expect(scans()).toBe(before + 1);
  });

  it("keeps the prepared statements of other tables' queries across a write, and plans the written table's again", async () => {
    const prepared: string[] = [];
    const real = DuckDBConnection.prototype.prepare;
    const spy = vi.spyOn(DuckDBConnection.prototype, 'prepare').mockImplementation(function (this: DuckDBConnection, sql: string) {
      prepared.push(sql);
      return real.call(this, sql);
    });
    const duckU = t.emu.engine.catalog.getTable(t.projectId, 'pt', 'u')!.duckName;
    const duckT = t.emu.engine.catalog.getTable(t.projectId, 'pt', 't')!.duckName;
    const preparesOf = (duckName: string) => prepared.filter((s) => s.includes(`"${duckName}"`) && !/count\(\*\)/.test(s)).length;
    try {
      // A text is prepared on its second run, then kept.
      for (let i = 0; i < 3; i++) expect((await run('SELECT MAX(y) AS m FROM pt.u')).rows).toEqual([{ m: 500 }]);
      for (let i = 0; i < 3; i++) expect((await run('SELECT x FROM pt.t ORDER BY x DESC LIMIT 1')).rows).toEqual([{ x: 1003 }]);
      const u0 = preparesOf(duckU);
      const t0 = preparesOf(duckT);
      expect(u0).toBeGreaterThan(0);

      // A value beyond the statistics the kept plan of t's query was made with: a stale plan
      // answers wrong rows (prepared-statements.ts), so t's query must be planned again.
      await t.bq.dataset('pt').table('t').insert([{ x: '100000000000' }]);
      await t.bq.query({ query: 'INSERT INTO pt.t (x) VALUES (100000000001)' });
      expect((await run('SELECT MAX(y) AS m FROM pt.u')).rows).toEqual([{ m: 500 }]);
      expect(preparesOf(duckU)).toBe(u0);
      expect((await run('SELECT x FROM pt.t ORDER BY x DESC LIMIT 1')).rows).toEqual([{ x: 100000000001 }]);
      expect(preparesOf(duckT)).toBeGreaterThan(t0);
    } finally {
      spy.mockRestore();
    }
  });
});
