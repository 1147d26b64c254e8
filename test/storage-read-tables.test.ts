/**
 * What the Storage Read API can read, through the official GAPIC client
 * (`@google-cloud/bigquery-storage` v1.BigQueryReadClient, Arrow decoded with apache-arrow):
 *
 * - partitioned tables — time-unit column, integer-range and ingestion-time — with a
 *   rowRestriction on the partitioning column, and on the `_PARTITIONTIME` / `_PARTITIONDATE`
 *   pseudo-columns of an ingestion-time table (the restriction is a WHERE clause over the table,
 *   TableReadOptions.row_restriction in stream.proto; the pseudo-columns are filterable but are not
 *   columns of the session's schema — maintainers of Google's Spark connector, which passes its
 *   `filter` option as the row restriction:
 *   https://github.com/GoogleCloudDataproc/spark-bigquery-connector/issues/50 and /issues/118);
 *   a table with `require_partition_filter` is read only with a restriction on its partitioning
 *   column, else INVALID_ARGUMENT "Cannot query over table … without a filter over column(s) … that
 *   can be used for partition elimination" (reported through the same connector's Storage Read
 *   path: https://github.com/GoogleCloudDataproc/spark-bigquery-connector/issues/60);
 * - table snapshots (`CREATE SNAPSHOT TABLE … CLONE …`) and table clones (`CREATE TABLE … CLONE …`),
 *   each with its own rows, independent of later changes to the base table
 *   (https://cloud.google.com/bigquery/docs/table-snapshots-intro,
 *   https://cloud.google.com/bigquery/docs/table-clones-intro);
 * - the anonymous result table of a query job created by jobs.query and by jobs.insert, and of a
 *   script's child job: a script's parent job has no destination table, its last SELECT's child
 *   job does (https://cloud.google.com/bigquery/docs/multi-statement-queries; Google's Go client
 *   reads a script's result through the last child job with a destination table,
 *   https://github.com/googleapis/google-cloud-go/pull/6822);
 * - a materialized view, like a logical view, is not a table of storage: CreateReadSession answers
 *   INVALID_ARGUMENT "non-table entities cannot be read with the storage API" (the Spark
 *   connector reads views and materialized views by materializing them with a query first,
 *   `viewsEnabled`).
 *
 * Expected rows are the rows each test inserted (or, for clones and snapshots, the base table's
 * rows at creation), never the emulator's own output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';
import { readClient, readStream, type ReadClient, grpcErrorOf } from './helpers/storage-read.js';

let t: TestEmulator;
let client: ReadClient;
const P = 'test-project';
const tablePath = (d: string, tb: string) => `projects/${P}/datasets/${d}/tables/${tb}`;
const q = async (sql: string) => (await t.bq.query({ query: sql }))[0];

/** An ARROW session of `table` (the GAPIC client) and every row of its streams. */
async function readAll(table: string, opts: { rowRestriction?: string; selectedFields?: string[]; maxStreamCount?: number } = {}) {
  const [s] = await client.createReadSession({
    parent: `projects/${P}`,
    readSession: { table, dataFormat: 'ARROW', readOptions: { rowRestriction: opts.rowRestriction ?? '', selectedFields: opts.selectedFields ?? [] } },
    maxStreamCount: opts.maxStreamCount ?? 1,
  });
  const schema = s.arrowSchema!.serializedSchema as Uint8Array;
  const rows: Record<string, unknown>[] = [];
  for (const st of s.streams ?? []) rows.push(...(await readStream(client, schema, st.name!)).rows);
  return { s, rows };
}

/** The ids of the rows read, ascending. */
const ids = (rows: Record<string, unknown>[]) => rows.map((r) => Number(r.id)).sort((a, b) => a - b);


beforeAll(async () => {
  t = await startTestEmulator({ projectId: P });
  client = readClient(t.emu);
  await q(`CREATE SCHEMA tk`);
});

afterAll(async () => {
  await client?.close();
  await t?.emu.close();
});

describe('partitioned tables', () => {
  it('a time-unit column partitioned table, restricted on its partitioning column', async () => {
    await q(`CREATE TABLE tk.by_day (id INT64, d DATE, label STRING) PARTITION BY d`);
    await q(`INSERT INTO tk.by_day VALUES (1, DATE '2024-01-01', 'a'), (2, DATE '2024-01-02', 'b'), (3, DATE '2024-01-03', 'c'), (4, NULL, 'd')`);
    expect(ids((await readAll(tablePath('tk', 'by_day'))).rows)).toEqual([1, 2, 3, 4]);
    expect(ids((await readAll(tablePath('tk', 'by_day'), { rowRestriction: `d >= '2024-01-02'` })).rows)).toEqual([2, 3]);
    expect(ids((await readAll(tablePath('tk', 'by_day'), { rowRestriction: `d IN (DATE '2024-01-01', DATE '2024-01-03')` })).rows)).toEqual([1, 3]);
    expect(ids((await readAll(tablePath('tk', 'by_day'), { rowRestriction: `d IS NULL` })).rows)).toEqual([4]);
  });

  it('a TIMESTAMP column partitioned by month, restricted with a function of the column', async () => {
    await q(`CREATE TABLE tk.by_month (id INT64, ts TIMESTAMP) PARTITION BY TIMESTAMP_TRUNC(ts, MONTH)`);
    await q(`INSERT INTO tk.by_month VALUES (1, TIMESTAMP '2024-01-15 10:00:00 UTC'), (2, TIMESTAMP '2024-02-01 00:00:00 UTC'), (3, TIMESTAMP '2024-03-31 23:59:59 UTC')`);
    const { rows } = await readAll(tablePath('tk', 'by_month'), { rowRestriction: `EXTRACT(MONTH FROM ts) >= 2` });
    expect(ids(rows)).toEqual([2, 3]);
  });

  it('an integer-range partitioned table, restricted on its partitioning column', async () => {
    await q(`CREATE TABLE tk.by_range (id INT64, bucket INT64) PARTITION BY RANGE_BUCKET(bucket, GENERATE_ARRAY(0, 100, 10))`);
    await q(`INSERT INTO tk.by_range VALUES (1, 5), (2, 15), (3, 25), (4, 150), (5, NULL)`);
    expect(ids((await readAll(tablePath('tk', 'by_range'), { rowRestriction: `bucket BETWEEN 10 AND 29` })).rows)).toEqual([2, 3]);
    expect(ids((await readAll(tablePath('tk', 'by_range'), { rowRestriction: `bucket >= 100 OR bucket IS NULL` })).rows)).toEqual([4, 5]);
  });

  it('a table with require_partition_filter needs a restriction on its partitioning column', async () => {
    await q(`CREATE TABLE tk.must_filter (id INT64, day DATE) PARTITION BY day OPTIONS (require_partition_filter = TRUE)`);
    await q(`INSERT INTO tk.must_filter VALUES (1, DATE '2024-01-01'), (2, DATE '2024-01-02')`);
    expect(ids((await readAll(tablePath('tk', 'must_filter'), { rowRestriction: `day = '2024-01-02'` })).rows)).toEqual([2]);
    for (const rowRestriction of ['', 'id = 1']) {
      const e = await grpcErrorOf(readAll(tablePath('tk', 'must_filter'), { rowRestriction }));
      expect(e.code, rowRestriction).toBe(3);
      expect(e.details, rowRestriction).toContain(`Cannot query over table '${P}.tk.must_filter' without a filter over column(s) 'day' that can be used for partition elimination`);
    }
  });

  it('an ingestion-time partitioned table: _PARTITIONTIME in the restriction, not in the schema', async () => {
    await q(`CREATE TABLE tk.ingest (id INT64, v STRING) PARTITION BY _PARTITIONDATE`);
    await q(`INSERT INTO tk.ingest (_PARTITIONTIME, id, v) VALUES (TIMESTAMP '2024-01-01', 1, 'x'), (TIMESTAMP '2024-01-02', 2, 'y'), (TIMESTAMP '2024-01-02', 3, 'z')`);
    const all = await readAll(tablePath('tk', 'ingest'));
    expect(all.rows.sort((a, b) => Number(a.id) - Number(b.id))).toEqual([{ id: 1n, v: 'x' }, { id: 2n, v: 'y' }, { id: 3n, v: 'z' }]);
    expect(ids((await readAll(tablePath('tk', 'ingest'), { rowRestriction: `_PARTITIONTIME = TIMESTAMP '2024-01-02'` })).rows)).toEqual([2, 3]);
    expect(ids((await readAll(tablePath('tk', 'ingest'), { rowRestriction: `_PARTITIONTIME < '2024-01-02' AND v = 'x'` })).rows)).toEqual([1]);
  });

  it('an ingestion-time partitioned table: _PARTITIONDATE in the restriction', async () => {
    await q(`CREATE TABLE tk.ingest_today (id INT64) PARTITION BY _PARTITIONDATE`);
    await q(`INSERT INTO tk.ingest_today (id) VALUES (1), (2)`);
    expect(ids((await readAll(tablePath('tk', 'ingest_today'), { rowRestriction: `_PARTITIONDATE = CURRENT_DATE()` })).rows)).toEqual([1, 2]);
    expect((await readAll(tablePath('tk', 'ingest_today'), { rowRestriction: `_PARTITIONDATE < CURRENT_DATE()` })).rows).toEqual([]);
  });
});

describe('snapshots and clones', () => {
  beforeAll(async () => {
    await q(`CREATE TABLE tk.base (id INT64, v STRING)`);
    await q(`INSERT INTO tk.base VALUES (1, 'one'), (2, 'two')`);
    await q(`CREATE SNAPSHOT TABLE tk.base_snap CLONE tk.base`);
    await q(`CREATE TABLE tk.base_clone CLONE tk.base`);
    await q(`INSERT INTO tk.base VALUES (3, 'three')`);
    await q(`INSERT INTO tk.base_clone VALUES (10, 'ten')`);
  });

  it('reads a table snapshot as of its creation, not the base table changed since', async () => {
    const { rows } = await readAll(tablePath('tk', 'base_snap'));
    expect(rows.sort((a, b) => Number(a.id) - Number(b.id))).toEqual([{ id: 1n, v: 'one' }, { id: 2n, v: 'two' }]);
    expect(ids((await readAll(tablePath('tk', 'base_snap'), { rowRestriction: `v = 'two'` })).rows)).toEqual([2]);
  });

  it('reads a table clone with its own changes, independent of the base table', async () => {
    expect(ids((await readAll(tablePath('tk', 'base_clone'))).rows)).toEqual([1, 2, 10]);
    expect(ids((await readAll(tablePath('tk', 'base'))).rows)).toEqual([1, 2, 3]);
    expect((await readAll(tablePath('tk', 'base_clone'), { selectedFields: ['v'], rowRestriction: 'id > 1' })).rows.map((r) => r.v).sort()).toEqual(['ten', 'two']);
  });
});

describe("query jobs' result tables", () => {
  it('the anonymous result table of a jobs.query request', async () => {
    const res = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, { query: `SELECT x AS id, x * 1.5 AS f FROM UNNEST([1, 2, 3]) AS x`, useLegacySql: false });
    expect(res.status).toBe(200);
    const job = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/jobs/${res.body.jobReference.jobId}`);
    const dest = job.body.configuration.query.destinationTable;
    const { rows } = await readAll(tablePath(dest.datasetId, dest.tableId));
    expect(rows.sort((a, b) => Number(a.id) - Number(b.id))).toEqual([{ id: 1n, f: 1.5 }, { id: 2n, f: 3 }, { id: 3n, f: 4.5 }]);
  });

  it('the anonymous result table of a jobs.insert query job, with projection and 1 stream', async () => {
    const [job] = await t.bq.createQueryJob({ query: `SELECT x AS id, CONCAT('r', CAST(x AS STRING)) AS label FROM UNNEST(GENERATE_ARRAY(1, 5)) AS x` });
    await job.getQueryResults();
    const [meta] = await job.getMetadata();
    const dest = meta.configuration.query.destinationTable;
    const { s, rows } = await readAll(tablePath(dest.datasetId, dest.tableId), { selectedFields: ['label'], maxStreamCount: 4 });
    expect(s.streams).toHaveLength(1);
    expect(rows.map((r) => r.label).sort()).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
  });

  it("a script's result: its last SELECT's child job has the result table (the parent job has none)", async () => {
    const [job] = await t.bq.createQueryJob({ query: `DECLARE k INT64 DEFAULT 2;\nSELECT k AS id;\nSELECT k * 10 AS id UNION ALL SELECT 3` });
    await job.getQueryResults();
    const [meta] = await job.getMetadata();
    expect(meta.statistics.numChildJobs).toBe('2');
    const [children] = await t.bq.getJobs({ parentJobId: job.id! });
    const withDest = await Promise.all(children.map(async (c) => (await c.getMetadata())[0]));
    // jobs.list answers children newest first: the last statement's job comes first.
    const last = withDest.find((m) => m.configuration.query.destinationTable)!;
    expect(last.configuration.query.query).toContain('k * 10');
    const dest = last.configuration.query.destinationTable;
    expect(ids((await readAll(tablePath(dest.datasetId, dest.tableId))).rows)).toEqual([3, 20]);
  });
});

describe('what cannot be read', () => {
  it('a materialized view → INVALID_ARGUMENT (3), "non-table entities cannot be read with the storage API"', async () => {
    await q(`CREATE TABLE tk.mv_src (id INT64)`);
    await q(`INSERT INTO tk.mv_src VALUES (1), (2)`);
    await q(`CREATE MATERIALIZED VIEW tk.mv AS SELECT COUNT(*) AS n FROM tk.mv_src`);
    const e = await grpcErrorOf(readAll(tablePath('tk', 'mv')));
    expect(e.code).toBe(3);
    expect(e.details).toContain('non-table entities cannot be read with the storage API');
  });
});
