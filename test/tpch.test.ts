/**
 * The TPC-H-shaped suite's answers at scale factor 0.01 (bench/tpch.ts): the eight tables generated
 * in a raw DuckDB, loaded into bqemu from Parquet by load jobs, and each of the 22 queries run in
 * GoogleSQL through `@google-cloud/bigquery`; its rows must equal the DuckDB-dialect twin's rows
 * on raw DuckDB (in order, doubles within 1e-9 relative). Speed is not asserted here (`npm run
 * bench -- --tpch 0.1` times it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TpchSuite, firstDifference } from '../bench/tpch.js';
import { duckSql, tpchQueries } from '../bench/tpch-queries.js';

let suite: TpchSuite;
beforeAll(async () => {
  suite = await TpchSuite.start(0.01);
}, 120_000);
afterAll(async () => suite?.close());

describe('TPC-H at SF 0.01: bqemu answers equal raw DuckDB', () => {
  it('the generated data gives every query rows to compare (most queries non-empty)', async () => {
    let empty = 0;
    for (const q of tpchQueries(duckSql, 0.01)) if ((await suite.duckRows(q.sql)).length === 0) empty++;
    expect(empty).toBe(0);
  });

  for (const q of tpchQueries(duckSql, 0.01)) {
    it(q.name, async () => {
      const query = suite.queries().find((x) => x.name === q.name)!;
      const want = await suite.duckRows(query.duck);
      const got = await suite.bqRows(query.bq);
      expect(firstDifference(got, want)).toBeUndefined();
    }, 60_000);
  }
});
