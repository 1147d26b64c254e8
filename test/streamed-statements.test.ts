/**
 * streamText (src/engine/duckdb/streamed-statements.ts), the engine's replacement for
 * `DuckDBConnection.stream(sql)` that destroys each prepared statement once its execution holds
 * the plan: it must run every statement of a text in order, stream the last one's rows, and surface
 * DuckDB's own errors — from parsing, from an earlier statement, from execution and from an
 * interrupt — leaving the connection usable after each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { streamText } from '../src/engine/duckdb/streamed-statements.js';

let db: DuckDBInstance;
let c: DuckDBConnection;

beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
  c = await db.connect();
});

afterAll(() => {
  c?.closeSync();
  db?.closeSync();
});

async function rowsOf(sql: string): Promise<unknown[][]> {
  const r = await streamText(c, sql);
  const out: unknown[][] = [];
  for (let ch = await r.fetchChunk(); ch && ch.rowCount > 0; ch = await r.fetchChunk()) out.push(...ch.getRows());
  return out;
}

describe('streamText', () => {
  it('streams every row of a result larger than one chunk', async () => {
    const rows = await rowsOf('SELECT i FROM range(5000) t(i) ORDER BY i');
    expect(rows.length).toBe(5000);
    expect(rows[4999]).toEqual([4999n]);
  });

  it('runs the earlier statements of a text first, in order', async () => {
    const rows = await rowsOf('CREATE TEMP TABLE s1 AS SELECT 41 AS x; INSERT INTO s1 VALUES (1); SELECT sum(x) FROM s1');
    expect(rows).toEqual([[42n]]);
  });

  it("surfaces DuckDB's errors and leaves the connection usable", async () => {
    await expect(rowsOf('SELEC 1')).rejects.toThrow(/syntax error/i);
    await expect(rowsOf('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
    await expect(rowsOf("CREATE TEMP TABLE s2 AS SELECT 1 AS x; SELECT CAST('a' AS INTEGER)")).rejects.toThrow(/Could not convert/);
    // The statement before the failing one ran.
    expect(await rowsOf('SELECT x FROM s2')).toEqual([[1]]);
  });

  it('surfaces an interrupt of a blocking aggregate, then runs the next query', async () => {
    const timer = setTimeout(() => c.interrupt(), 100);
    try {
      await expect(rowsOf("SELECT length(STRING_AGG(REPEAT('x', 100), ',')) FROM range(100000000)")).rejects.toThrow(/INTERRUPT/i);
    } finally {
      clearTimeout(timer);
    }
    expect(await rowsOf('SELECT 1')).toEqual([[1]]);
  });
});
