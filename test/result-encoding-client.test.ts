/**
 * Multi-page query results of every type read through `@google-cloud/bigquery`: the REST row text
 * built inside DuckDB (src/engine/result-json.ts — a result of INT64, FLOAT64, BOOL, STRING,
 * BYTES and DATE columns only, with and without a destination table) and the JavaScript encoders
 * (a result with any other type). Expected values follow from GoogleSQL's documented semantics
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/functions-and-operators: integer
 * `/` returns the exact FLOAT64 quotient, DATE_ADD, CODE_POINTS_TO_STRING, CAST(STRING AS BYTES)
 * is the UTF-8 bytes) and from the client's documented decoding of each type (numbers, Buffer,
 * BigQueryDate, BigQueryTimestamp …), never from the emulator's own output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, withLoweredSql, type TestEmulator } from './helpers/emulator.js';

// Large enough (over 128 KB decoded) for the bulk path (src/engine/query-results.ts readResultRows).
const N = 10_000;
const D = 'enc_ds';
let t: TestEmulator;

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'enc-project' });
  await t.bq.createDataset(D);
}, 60_000);
afterAll(async () => {
  await t?.emu.close();
});

/** The columns the bulk path encodes, over n = 0 … N-1. */
const BULK_SELECT = `SELECT
  n,
  CASE MOD(n, 50) WHEN 1 THEN CAST('NaN' AS FLOAT64) WHEN 2 THEN CAST('inf' AS FLOAT64) WHEN 3 THEN CAST('-inf' AS FLOAT64)
    WHEN 4 THEN CAST('-0' AS FLOAT64) WHEN 5 THEN 5e-324 WHEN 6 THEN 1.7976931348623157e308 WHEN 7 THEN NULL
    WHEN 8 THEN n * 1e20 ELSE n / 8 END AS f,
  IF(MOD(n, 9) = 8, NULL, MOD(n, 2) = 0) AS b,
  IF(MOD(n, 11) = 10, NULL, CONCAT('r', CAST(n AS STRING), CODE_POINTS_TO_STRING([MOD(n, 31) + 1, 34, 92, 233, 128512]))) AS s,
  IF(MOD(n, 13) = 12, NULL, CAST(CONCAT('b', CAST(n AS STRING)) AS BYTES)) AS y,
  IF(MOD(n, 17) = 16, NULL, DATE_ADD(DATE '2000-01-01', INTERVAL n DAY)) AS d
FROM UNNEST(GENERATE_ARRAY(0, ${N - 1})) AS n`;

function expectedFloat(n: number): number | null {
  switch (n % 50) {
    case 1: return NaN;
    case 2: return Infinity;
    case 3: return -Infinity;
    case 4: return -0;
    case 5: return 5e-324;
    case 6: return 1.7976931348623157e308;
    case 7: return null;
    case 8: return n * 1e20;
    default: return n / 8;
  }
}

const dateOf = (n: number) => new Date(Date.UTC(2000, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

/** Row n as @google-cloud/bigquery returns it (INT64 and FLOAT64 as numbers, BYTES a Buffer, DATE {value}). */
function expectedBulkRow(n: number): Record<string, unknown> {
  return {
    n,
    f: expectedFloat(n),
    b: n % 9 === 8 ? null : n % 2 === 0,
    s: n % 11 === 10 ? null : `r${n}${String.fromCodePoint((n % 31) + 1, 34, 92, 233, 128512)}`,
    y: n % 13 === 12 ? null : Buffer.from(`b${n}`),
    d: n % 17 === 16 ? null : { value: dateOf(n) },
  };
}

/** Plain values of a client row (class instances such as BigQueryDate compared by their fields). */
const plain = (row: Record<string, unknown>) => JSON.parse(JSON.stringify(row, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : Object.is(v, -0) ? '-0' : v)));

/** Pages a finished job's rows through the client, `pageSize` at a time; returns the rows and page count. */
async function pageAll(jobId: string, pageSize: number): Promise<{ rows: Record<string, unknown>[]; pages: number }> {
  const job = t.bq.job(jobId);
  const rows: Record<string, unknown>[] = [];
  let pages = 0;
  let query: Record<string, unknown> | null | undefined = { maxResults: pageSize, autoPaginate: false };
  while (query) {
    const [page, next] = (await job.getQueryResults(query)) as unknown as [Record<string, unknown>[], Record<string, unknown> | null];
    rows.push(...page);
    pages++;
    query = next;
  }
  return { rows, pages };
}

describe('multi-page results through @google-cloud/bigquery', () => {
  // A result found large after its first rows is finished from the chunks its one run kept
  // ('keep') or by running the query again ('rerun'); the server chooses by time, both must agree.
  it.each(['keep', 'rerun'] as const)('INT64, FLOAT64, BOOL, STRING, BYTES and DATE (REST text built inside DuckDB), in order, page by page (%s)', async (policy) => {
    t.emu.engine.largeResults = policy;
    const { result: job, sql } = await withLoweredSql(t, async () => (await t.bq.createQueryJob({ query: `${BULK_SELECT} ORDER BY n DESC` }))[0]);
    t.emu.engine.largeResults = undefined;
    if (job instanceof Error) throw job;
    // The user's query runs once when its chunks are kept, twice (the second building the row texts) when not.
    expect(sql.filter((q) => q.includes('generate_series(')).length).toBe(policy === 'keep' ? 1 : 2);
    const { rows, pages } = await pageAll(job.id!, 700);
    expect(pages).toBe(Math.ceil(N / 700));
    expect(rows.length).toBe(N);
    for (let i = 0; i < N; i++) expect(plain(rows[i]!), `row ${i}`).toEqual(plain(expectedBulkRow(N - 1 - i)));
    // NaN, ±Infinity and -0 decode to the exact numbers.
    const byN = new Map(rows.map((r) => [r.n as number, r]));
    expect(byN.get(1)!.f).toBeNaN();
    expect(Object.is(byN.get(4)!.f, -0)).toBe(true);
    expect(byN.get(5)!.f).toBe(5e-324);
  });

  it('the same rows written to a destination table (WRITE_TRUNCATE, then WRITE_APPEND) page the same way', async () => {
    const destinationTable = t.bq.dataset(D).table('dest');
    const [job] = await t.bq.createQueryJob({ query: `${BULK_SELECT} ORDER BY n`, destination: destinationTable, writeDisposition: 'WRITE_TRUNCATE' });
    const { rows, pages } = await pageAll(job.id!, 1000);
    expect(pages).toBe(Math.ceil(N / 1000));
    expect(rows.map(plain)).toEqual(Array.from({ length: N }, (_x, n) => plain(expectedBulkRow(n))));
    const [again] = await t.bq.createQueryJob({ query: `${BULK_SELECT} WHERE n < 10 ORDER BY n`, destination: destinationTable, writeDisposition: 'WRITE_APPEND' });
    const appended = await pageAll(again.id!, 1000);
    // A query job's result is its destination table: the earlier rows, then the appended ones.
    expect(appended.rows.length).toBe(N + 10);
    expect(appended.rows.slice(N).map(plain)).toEqual(Array.from({ length: 10 }, (_x, n) => plain(expectedBulkRow(n))));
    const [meta] = await destinationTable.getMetadata();
    expect(meta.numRows).toBe(String(N + 10));
    // WRITE_EMPTY on a table with rows fails and leaves it as it was.
    const failed = await t.bq.createQueryJob({ query: 'SELECT 1 AS n', destination: destinationTable, writeDisposition: 'WRITE_EMPTY' }).then(
      async ([j]) => (await j.promise().then(() => undefined, (e: { message: string }) => e.message)),
      (e: { message: string }) => e.message,
    );
    expect(failed).toMatch(/Already Exists: Table enc-project:enc_ds\.dest/);
    const [after] = await destinationTable.getMetadata();
    expect(after.numRows).toBe(String(N + 10));
  });

  it('FLOAT64 cells outside [1e-3, 1e7) read unparsed (skipParsing) are Java Double.toString texts in a result built inside DuckDB', async () => {
    // Java's Double.toString (the REST FLOAT64 text; src/wire/rest-values.ts formatFloat64 cites API
    // cells such as "1.447216127E9"): d.dddE±n outside [10^-3, 10^7), at least two significant
    // digits, so Double.MIN_VALUE is "4.9E-324" and Double.MAX_VALUE "1.7976931348623157E308"
    // (https://docs.oracle.com/javase/8/docs/api/java/lang/Double.html). 3,000 rows of ~150 bytes
    // decoded take the bulk path (over 128 KB).
    const texts = ['1.0E20', '4.9E-324', '-1.5E-5', '1.23456789E7', '9.0E-4', '1.7976931348623157E308'];
    const [job] = await t.bq.createQueryJob({
      query: `SELECT n, CASE MOD(n, 6) WHEN 0 THEN 1e20 WHEN 1 THEN 5e-324 WHEN 2 THEN -1.5e-5 WHEN 3 THEN 12345678.9 WHEN 4 THEN 0.0009
        ELSE 1.7976931348623157e308 END AS f, REPEAT('x', 40) AS s FROM UNNEST(GENERATE_ARRAY(0, 2999)) AS n ORDER BY n`,
    });
    const [rows] = (await job.getQueryResults({ skipParsing: true, maxResults: 5000 })) as unknown as [{ f: { v: string }[] }[]];
    expect(rows.length).toBe(3000);
    for (let n = 0; n < 3000; n++) expect(rows[n]!.f[1]!.v, `row ${n}`).toBe(texts[n % 6]);
  });

  it('a query failing at run time leaves an existing destination table untouched', async () => {
    const destinationTable = t.bq.dataset(D).table('keep');
    await t.bq.query({ query: 'SELECT 1 AS x', destination: destinationTable });
    const err = await t.bq.query({ query: 'SELECT ERROR("boom") AS x', destination: destinationTable, writeDisposition: 'WRITE_TRUNCATE' }).then(
      () => 'no error',
      (e: { message: string }) => e.message,
    );
    expect(err).toContain('boom');
    const [rows] = await t.bq.query({ query: `SELECT x FROM ${D}.keep` });
    expect(rows).toEqual([{ x: 1 }]);
  });

  it('every other type (JavaScript encoders) pages the same way', async () => {
    const [job] = await t.bq.createQueryJob({
      query: `SELECT n,
        TIMESTAMP_SECONDS(n * 3600) AS ts,
        DATETIME_ADD(DATETIME '2000-01-01 00:00:00', INTERVAL n MINUTE) AS dt,
        TIME_ADD(TIME '00:00:00', INTERVAL n SECOND) AS tm,
        CAST(n AS NUMERIC) / 4 AS num,
        [n, n + 1] AS arr,
        STRUCT(n AS a, CAST(n AS STRING) AS b) AS st,
        JSON_OBJECT('k', n) AS js
      FROM UNNEST(GENERATE_ARRAY(0, ${N - 1})) AS n ORDER BY n`,
    });
    const { rows, pages } = await pageAll(job.id!, 900);
    expect(pages).toBe(Math.ceil(N / 900));
    expect(rows.length).toBe(N);
    const pad = (x: number) => String(x).padStart(2, '0');
    for (const n of [0, 1, 899, 900, 1799, 1800, N - 1]) {
      const r = rows[n] as Record<string, any>;
      expect(r.n).toBe(n);
      expect(r.ts.value).toBe(new Date(n * 3_600_000).toISOString());
      expect(r.dt.value).toBe(`2000-01-${pad(1 + Math.floor(n / 1440))}T${pad(Math.floor((n % 1440) / 60))}:${pad(n % 60)}:00`);
      expect(r.tm.value).toBe(`${pad(Math.floor(n / 3600))}:${pad(Math.floor((n % 3600) / 60))}:${pad(n % 60)}`);
      expect(String(r.num)).toBe(String(n / 4));
      expect(r.arr).toEqual([n, n + 1]);
      expect(r.st).toEqual({ a: n, b: String(n) });
      expect(JSON.parse(r.js)).toEqual({ k: n });
    }
  });
});
