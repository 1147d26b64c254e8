/**
 * A short query is never queued behind long ones. Each running query holds a pooled DuckDB
 * connection (src/engine/duckdb/db.ts, more opened on demand up to POOL_MAX) and a thread of
 * libuv's pool (sized by bin/bqemu.js) until DuckDB hands back its rows; with 4 of each, a
 * `SELECT n` sent while 4 queries of ~2 s ran waited 0.96–7.8 s — until one of them ended.
 * Through `@google-cloud/bigquery` against a spawned emulator (bin/bqemu.js, as users start it).
 */
import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnEmulator, type SpawnedEmulator } from './fuzz/spawned-emulator.js';

let emu: SpawnedEmulator;
let bq: BigQuery;

beforeAll(async () => {
  emu = await spawnEmulator({ projectId: 'cq-project' });
  bq = new BigQuery({ projectId: emu.projectId, apiEndpoint: emu.url, authClient: new PassThroughClient() as never });
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

describe('concurrent queries', () => {
  it('SELECT n answers while more long queries run than the initial connection pool holds', async () => {
    // Five CPU-bound queries of ~1.5 s each alone (a 3,000 × 1,000 cross join aggregated), so
    // together they outlast a one-row query by seconds even on a loaded 2-core machine.
    const long = (i: number) =>
      `SELECT COUNT(DISTINCT CONCAT(CAST(a AS STRING), '-', CAST(b AS STRING))) AS v
       FROM UNNEST(GENERATE_ARRAY(1, 3000)) AS a, UNNEST(GENERATE_ARRAY(1, 1000 + ${i})) AS b`;
    const ended: number[] = [];
    const longs = Array.from({ length: 5 }, (_, i) =>
      bq.query({ query: long(i), jobTimeoutMs: 120_000 }).then(([rows]) => {
        ended.push(Date.now());
        return rows;
      }),
    );
    // Let the long queries reach DuckDB, then ask for a one-row answer.
    await new Promise((r) => setTimeout(r, 500));
    const [rows] = await bq.query({ query: 'SELECT 4242 AS n' });
    const answeredAt = Date.now();
    expect(rows).toEqual([{ n: 4242 }]);
    // Answered before any long query ended: it did not wait for one of their connections.
    expect(ended).toEqual([]);
    const results = await Promise.all(longs);
    expect(results.map((r) => r[0].v)).toEqual([0, 1, 2, 3, 4].map((i) => 3000 * (1000 + i)));
    expect(Math.min(...ended)).toBeGreaterThan(answeredAt);
  }, 120_000);
});
