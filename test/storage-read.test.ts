/**
 * The BigQuery Storage Read API over gRPC (src/server/grpc/), through the official Node client
 * `@google-cloud/bigquery-storage` (GAPIC v1.BigQueryReadClient), Arrow decoded with apache-arrow.
 * Tables are created with `@google-cloud/bigquery` on the same emulator; the expected rows are the
 * rows the test inserted. Session shapes follow BigQuery's recorded Storage Read sessions
 * (sr_create_session_multi_stream: 10 rows with max 4 streams → one stream; sr_empty_table: no
 * streams; sr_split_read_stream: a split of 10 rows at 0.5 answers both streams).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { readAvroStream, readClient, readStream, tableReaderClient, type ReadClient, grpcErrorOf } from './helpers/storage-read.js';

let t: TestEmulator;
let client: ReadClient;
const P = 'test-project';
const tablePath = (d: string, tb: string) => `projects/${P}/datasets/${d}/tables/${tb}`;

const q = async (sql: string) => (await t.bq.query({ query: sql }))[0];

async function session(table: string, extra: { maxStreamCount?: number; selectedFields?: string[]; rowRestriction?: string } = {}, headers?: Record<string, string>) {
  const [s] = await client.createReadSession(
    {
      parent: `projects/${P}`,
      readSession: { table, dataFormat: 'ARROW', readOptions: { selectedFields: extra.selectedFields ?? [], rowRestriction: extra.rowRestriction ?? '' } },
      maxStreamCount: extra.maxStreamCount ?? 1,
    },
    headers ? { otherArgs: { headers } } : undefined,
  );
  return { s, schema: s.arrowSchema!.serializedSchema as Uint8Array };
}

async function readAll(table: string, extra: Parameters<typeof session>[1] = {}, headers?: Record<string, string>) {
  const { s, schema } = await session(table, extra, headers);
  const rows: Record<string, unknown>[] = [];
  for (const st of s.streams ?? []) rows.push(...(await readStream(client, schema, st.name!, 0, headers)).rows);
  return { s, rows };
}


beforeAll(async () => {
  t = await startTestEmulator({ projectId: P });
  client = readClient(t.emu);
  await q(`CREATE SCHEMA sr`);
  await q(`CREATE TABLE sr.basic (i INT64, f FLOAT64, s STRING, b BOOL)`);
  await q(`INSERT INTO sr.basic VALUES (1, 1.5, 'alpha', TRUE), (2, -0.25, 'beta', FALSE), (3, NULL, NULL, NULL), (NULL, 4.0, 'delta', TRUE)`);
  await q(`CREATE TABLE sr.big AS SELECT x AS id, CONCAT('v', CAST(x AS STRING)) AS v FROM UNNEST(GENERATE_ARRAY(1, 5000)) AS x`);
  await q(`CREATE TABLE sr.empty (id INT64, value STRING)`);
});

afterAll(async () => {
  await client?.close();
  await t?.emu.close();
});

const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => Number(a.i ?? 99) - Number(b.i ?? 99);

describe('CreateReadSession + ReadRows (Arrow)', () => {
  it('reads every row and NULL of INT64, FLOAT64, STRING and BOOL columns', async () => {
    const { s, rows } = await readAll(tablePath('sr', 'basic'));
    expect(s.name).toMatch(/^projects\/test-project\/locations\/us\/sessions\/[^/]+$/);
    expect(s.streams).toHaveLength(1);
    expect(s.streams![0].name).toMatch(new RegExp(`^${s.name}/streams/[^/]+$`));
    expect(s.table).toBe(tablePath('sr', 'basic'));
    expect(s.dataFormat).toBe('ARROW');
    expect(Number(s.estimatedRowCount)).toBe(4);
    const hours = (Number(s.expireTime!.seconds) * 1000 - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(5.9);
    expect(hours).toBeLessThanOrEqual(6);
    expect(rows.sort(byId)).toEqual([
      { i: 1n, f: 1.5, s: 'alpha', b: true },
      { i: 2n, f: -0.25, s: 'beta', b: false },
      { i: 3n, f: null, s: null, b: null },
      { i: null, f: 4.0, s: 'delta', b: true },
    ]);
  });

  it('projects selectedFields', async () => {
    const { s, rows } = await readAll(tablePath('sr', 'basic'), { selectedFields: ['s', 'i'] });
    expect(s.readOptions?.selectedFields).toEqual(['s', 'i']);
    expect(rows.sort(byId)).toEqual([{ i: 1n, s: 'alpha' }, { i: 2n, s: 'beta' }, { i: 3n, s: null }, { i: null, s: 'delta' }]);
  });

  it('filters with rowRestriction, including IN (...)', async () => {
    const cmp = await readAll(tablePath('sr', 'basic'), { rowRestriction: 'f > 0', selectedFields: ['i'] });
    expect(cmp.s.readOptions?.rowRestriction).toBe('f > 0');
    expect(cmp.rows.map((r) => r.i).sort()).toEqual([1n, null].sort());
    const inList = await readAll(tablePath('sr', 'basic'), { rowRestriction: `s IN ('beta', 'delta') AND b IS NOT NULL`, selectedFields: ['s'] });
    expect(inList.rows.map((r) => r.s).sort()).toEqual(['beta', 'delta']);
  });

  it('gives a 10-row table one stream even when 4 are asked (recorded sr_create_session_multi_stream)', async () => {
    await q(`CREATE TABLE sr.read_data AS SELECT x AS id FROM UNNEST(GENERATE_ARRAY(1, 10)) AS x`);
    const { s } = await session(tablePath('sr', 'read_data'), { maxStreamCount: 4 });
    expect(s.streams).toHaveLength(1);
  });

  it('splits a larger table into 4 streams whose union is the table exactly, read in parallel', async () => {
    const { s, schema } = await session(tablePath('sr', 'big'), { maxStreamCount: 4 });
    expect(s.streams).toHaveLength(4);
    const parts = await Promise.all(s.streams!.map((st) => readStream(client, schema, st.name!)));
    const ids = parts.flatMap((p) => p.rows.map((r) => Number(r.id))).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    for (const p of parts) {
      expect(p.rows.length).toBeGreaterThan(0);
      expect(p.progress.at(-1)!.atResponseEnd).toBe(1);
    }
  });

  it('resumes a stream at an offset exactly where the reader stopped', async () => {
    const { s, schema } = await session(tablePath('sr', 'big'), { maxStreamCount: 1 });
    const whole = await readStream(client, schema, s.streams![0].name!);
    expect(whole.rows).toHaveLength(5000);
    const rest = await readStream(client, schema, s.streams![0].name!, 1234);
    expect(rest.rows).toEqual(whole.rows.slice(1234));
    expect((await readStream(client, schema, s.streams![0].name!, 5000)).rows).toEqual([]);
  });

  it('SplitReadStream partitions the remaining rows into primary and remainder', async () => {
    const { s, schema } = await session(tablePath('sr', 'big'), { maxStreamCount: 1 });
    const original = s.streams![0].name!;
    const [split] = await client.splitReadStream({ name: original, fraction: 0.3 });
    const primary = await readStream(client, schema, split.primaryStream!.name!);
    const remainder = await readStream(client, schema, split.remainderStream!.name!);
    const whole = await readStream(client, schema, original);
    expect([...primary.rows, ...remainder.rows]).toEqual(whole.rows);
    expect(primary.rows.length).toBe(1500);
  });

  it('answers an empty SplitReadStream for a one-row stream', async () => {
    await q(`CREATE TABLE sr.one AS SELECT 1 AS id`);
    const { s } = await session(tablePath('sr', 'one'));
    const [split] = await client.splitReadStream({ name: s.streams![0].name!, fraction: 0.5 });
    expect(split.primaryStream ?? null).toBeNull();
    expect(split.remainderStream ?? null).toBeNull();
  });

  it('an empty table has no streams (recorded sr_empty_table)', async () => {
    const { s } = await session(tablePath('sr', 'empty'));
    expect(s.streams).toEqual([]);
    expect(s.arrowSchema?.serializedSchema?.length).toBeGreaterThan(0);
  });

  it("reads a query job's anonymous result table", async () => {
    const [job] = await t.bq.createQueryJob({ query: `SELECT x AS n, CAST(x * 2 AS STRING) AS twice FROM UNNEST([1, 2, 3]) AS x` });
    await job.getQueryResults();
    const [meta] = await job.getMetadata();
    const dest = meta.configuration.query.destinationTable;
    const { rows } = await readAll(tablePath(dest.datasetId, dest.tableId));
    expect(rows.sort((a, b) => Number(a.n) - Number(b.n))).toEqual([{ n: 1n, twice: '2' }, { n: 2n, twice: '4' }, { n: 3n, twice: '6' }]);
  });

  it('applies row access policies to the caller named in gRPC metadata', async () => {
    await q(`CREATE TABLE sr.docs (id INT64, owner STRING)`);
    await q(`INSERT INTO sr.docs VALUES (1, 'alice@example.com'), (2, 'bob@example.com'), (3, 'alice@example.com')`);
    await q(`CREATE ROW ACCESS POLICY alice_docs ON sr.docs GRANT TO ('user:alice@example.com') FILTER USING (owner = 'alice@example.com')`);
    const alice = await readAll(tablePath('sr', 'docs'), {}, { 'x-bqemu-caller': 'alice@example.com' });
    expect(alice.rows.map((r) => Number(r.id)).sort()).toEqual([1, 3]);
    const bob = await readAll(tablePath('sr', 'docs'), {}, { 'x-bqemu-caller': 'bob@example.com' });
    expect(bob.rows).toEqual([]);
  });
});

/** An AVRO session of `table` (the GAPIC client), its Avro schema JSON text. */
async function avroSession(table: string, extra: { maxStreamCount?: number; selectedFields?: string[]; rowRestriction?: string } = {}, headers?: Record<string, string>) {
  const [s] = await client.createReadSession(
    {
      parent: `projects/${P}`,
      readSession: { table, dataFormat: 'AVRO', readOptions: { selectedFields: extra.selectedFields ?? [], rowRestriction: extra.rowRestriction ?? '' } },
      maxStreamCount: extra.maxStreamCount ?? 1,
    },
    headers ? { otherArgs: { headers } } : undefined,
  );
  return { s, schema: s.avroSchema!.schema! };
}

async function readAllAvro(table: string, extra: Parameters<typeof avroSession>[1] = {}, headers?: Record<string, string>) {
  const { s, schema } = await avroSession(table, extra, headers);
  const rows: Record<string, unknown>[] = [];
  for (const st of s.streams ?? []) rows.push(...(await readAvroStream(client, schema, st.name!, 0, headers)).rows);
  return { s, rows };
}

/** The unscaled integer of an Avro decimal (two's-complement big-endian bytes). */
function unscaled(b: Buffer): bigint {
  let n = 0n;
  for (const x of b) n = (n << 8n) | BigInt(x);
  return b.length && b[0] & 0x80 ? n - (1n << BigInt(8 * b.length)) : n;
}

describe('CreateReadSession + ReadRows (Avro)', () => {
  it('answers the Avro schema (record __root__) instead of an Arrow schema, and rows decoded by avsc', async () => {
    const { s, rows } = await readAllAvro(tablePath('sr', 'basic'));
    expect(s.dataFormat).toBe('AVRO');
    expect(s.arrowSchema ?? null).toBeNull();
    const schema = JSON.parse(s.avroSchema!.schema!);
    expect(schema.name).toBe('__root__');
    expect(schema.fields).toEqual([
      { name: 'i', type: ['null', 'long'] },
      { name: 'f', type: ['null', 'double'] },
      { name: 's', type: ['null', 'string'] },
      { name: 'b', type: ['null', 'boolean'] },
    ]);
    expect(rows.sort(byId)).toEqual([
      { i: 1n, f: 1.5, s: 'alpha', b: true },
      { i: 2n, f: -0.25, s: 'beta', b: false },
      { i: 3n, f: null, s: null, b: null },
      { i: null, f: 4.0, s: 'delta', b: true },
    ]);
  });

  it('reads every type, and NULLs at every depth (the recorded read_session_avro_all_types row and more)', async () => {
    await q(`CREATE TABLE sr.avro_all (i INT64, f FLOAT64, s STRING, b BOOL, n NUMERIC, bn BIGNUMERIC, d DATE, t TIME, dt DATETIME, ts TIMESTAMP,
      y BYTES, g GEOGRAPHY, j JSON, st STRUCT<x INT64, ys ARRAY<INT64>>, arr ARRAY<STRUCT<k STRING>>)`);
    await q(`INSERT INTO sr.avro_all VALUES (42, 3.14159, 'hello', TRUE, NUMERIC '123.456789012', BIGNUMERIC '-1.5', DATE '2026-05-20', TIME '12:34:56.5',
      DATETIME '2026-05-20 12:34:56', TIMESTAMP '2026-05-20 12:34:56 UTC', b'\\x00\\xff', ST_GEOGPOINT(1, 2), JSON '{"a":1}', STRUCT(7, [1, 2]), [STRUCT('a'), STRUCT(NULL)]),
      (43, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, STRUCT(NULL, []), [])`);
    const { rows } = await readAllAvro(tablePath('sr', 'avro_all'));
    const [r, nulls] = rows.sort((a, b) => Number(a.i) - Number(b.i));
    expect(unscaled(r.n as Buffer)).toBe(123_456_789_012n); // decimal(38, 9): 123.456789012 × 10^9
    expect(unscaled(r.bn as Buffer)).toBe(-15n * 10n ** 37n); // decimal(77, 38)
    expect([...(r.y as Buffer)]).toEqual([0, 255]);
    expect({ ...r, n: undefined, bn: undefined, y: undefined }).toEqual({
      i: 42n, f: 3.14159, s: 'hello', b: true, n: undefined, bn: undefined, y: undefined,
      d: Date.UTC(2026, 4, 20) / 86_400_000, // int date: days since 1970-01-01
      t: (12 * 3600 + 34 * 60 + 56.5) * 1e6, // long time-micros
      dt: '2026-05-20T12:34:56',
      ts: Date.UTC(2026, 4, 20, 12, 34, 56) * 1000, // long timestamp-micros
      g: 'POINT(1 2)', j: '{"a":1}',
      st: { x: 7n, ys: [1n, 2n] }, arr: [{ k: 'a' }, { k: null }],
    });
    expect(nulls).toEqual({ i: 43n, f: null, s: null, b: null, n: null, bn: null, d: null, t: null, dt: null, ts: null, y: null, g: null, j: null, st: { x: null, ys: [] }, arr: [] });
  });

  it('projects selectedFields and filters with rowRestriction, including IN (...)', async () => {
    const proj = await readAllAvro(tablePath('sr', 'basic'), { selectedFields: ['s', 'i'] });
    expect(JSON.parse(proj.s.avroSchema!.schema!).fields.map((f: { name: string }) => f.name)).toEqual(['i', 's']);
    expect(proj.rows.sort(byId)).toEqual([{ i: 1n, s: 'alpha' }, { i: 2n, s: 'beta' }, { i: 3n, s: null }, { i: null, s: 'delta' }]);
    const inList = await readAllAvro(tablePath('sr', 'basic'), { rowRestriction: `s IN ('beta', 'delta') AND b IS NOT NULL`, selectedFields: ['s'] });
    expect(inList.rows.map((r) => r.s).sort()).toEqual(['beta', 'delta']);
  });

  it('reads 4 streams in parallel whose union is the table exactly, the count in rowCount (avroRows.rowCount 0)', async () => {
    const { s, schema } = await avroSession(tablePath('sr', 'big'), { maxStreamCount: 4 });
    expect(s.streams).toHaveLength(4);
    const parts = await Promise.all(s.streams!.map((st) => readAvroStream(client, schema, st.name!)));
    const ids = parts.flatMap((p) => p.rows.map((r) => Number(r.id))).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    for (const p of parts) {
      expect(p.rowCounts.reduce((a, b) => a + b, 0)).toBe(p.rows.length);
      expect(p.avroRowCounts.every((n) => n === 0)).toBe(true);
    }
  });

  it('resumes at an offset, and splits a stream into primary and remainder', async () => {
    const { s, schema } = await avroSession(tablePath('sr', 'big'));
    const name = s.streams![0].name!;
    const whole = await readAvroStream(client, schema, name);
    expect(whole.rows).toHaveLength(5000);
    expect((await readAvroStream(client, schema, name, 1234)).rows).toEqual(whole.rows.slice(1234));
    const [split] = await client.splitReadStream({ name, fraction: 0.5 });
    const primary = await readAvroStream(client, schema, split.primaryStream!.name!);
    const remainder = await readAvroStream(client, schema, split.remainderStream!.name!);
    expect([...primary.rows, ...remainder.rows]).toEqual(whole.rows);
    expect(primary.rows).toHaveLength(2500);
  });

  it('an empty table has no streams and still an Avro schema; row access policies apply', async () => {
    const { s } = await avroSession(tablePath('sr', 'empty'));
    expect(s.streams).toEqual([]);
    expect(JSON.parse(s.avroSchema!.schema!).fields.map((f: { name: string }) => f.name)).toEqual(['id', 'value']);
    await q(`CREATE TABLE sr.avro_docs (id INT64, owner STRING)`);
    await q(`INSERT INTO sr.avro_docs VALUES (1, 'alice@example.com'), (2, 'bob@example.com'), (3, 'alice@example.com')`);
    await q(`CREATE ROW ACCESS POLICY alice_docs ON sr.avro_docs GRANT TO ('user:alice@example.com') FILTER USING (owner = 'alice@example.com')`);
    const alice = await readAllAvro(tablePath('sr', 'avro_docs'), {}, { 'x-bqemu-caller': 'alice@example.com' });
    expect(alice.rows.map((r) => Number(r.id)).sort()).toEqual([1, 3]);
    const bob = await readAllAvro(tablePath('sr', 'avro_docs'), {}, { 'x-bqemu-caller': 'bob@example.com' });
    expect(bob.rows).toEqual([]);
  });
});

describe('the high-level reader.ReadClient', () => {
  it('reads a table with TableReader.getRows and ArrowTableReader record batches', async () => {
    const rc = tableReaderClient(t.emu);
    try {
      const ref = { projectId: P, datasetId: 'sr', tableId: 'basic' };
      const [rows] = await (await rc.createTableReader({ table: ref })).getRows();
      const cells = rows.map((r) => r.f!.map((c: { v?: unknown }) => c.v));
      // Columns in table order (i, f, s, b); the reader gives INT64 as bigint.
      expect(cells.sort((a, b) => Number(a[0] ?? 99) - Number(b[0] ?? 99))).toEqual([
        [1n, 1.5, 'alpha', true],
        [2n, -0.25, 'beta', false],
        [3n, null, null, null],
        [null, 4, 'delta', true],
      ]);
      const batches = await (await rc.createArrowTableReader({ table: ref })).getRecordBatchStream();
      let n = 0;
      for await (const b of batches) n += b.numRows;
      expect(n).toBe(4);
    } finally {
      rc.close();
    }
  });
});

describe('errors as gRPC statuses', () => {
  it('missing table → NOT_FOUND (5) with "Not found: Table p:d.t"', async () => {
    const e = await grpcErrorOf(session(tablePath('sr', 'nope')));
    expect(e.code).toBe(5);
    expect(e.details).toContain(`Not found: Table ${P}:sr.nope`);
  });

  it('a view → INVALID_ARGUMENT (3) with BigQuery\'s "non-table entities" text', async () => {
    await q(`CREATE VIEW sr.basic_view AS SELECT i FROM sr.basic`);
    const e = await grpcErrorOf(session(tablePath('sr', 'basic_view')));
    expect(e.code).toBe(3);
    expect(e.details).toContain('non-table entities cannot be read with the storage API');
  });

  it('unknown selected field → INVALID_ARGUMENT (3)', async () => {
    expect((await grpcErrorOf(session(tablePath('sr', 'basic'), { selectedFields: ['nope'] }))).code).toBe(3);
  });

  it("bad row restriction → INVALID_ARGUMENT (3) with the analyzer's text", async () => {
    const e = await grpcErrorOf(session(tablePath('sr', 'basic'), { rowRestriction: 'nope = 1' }));
    expect(e.code).toBe(3);
    expect(e.details).toMatch(/Unrecognized name: nope/);
    const inj = await grpcErrorOf(session(tablePath('sr', 'basic'), { rowRestriction: `TRUE); DROP TABLE sr.basic; SELECT (1` }));
    expect(inj.code).toBe(3);
    expect((await readAll(tablePath('sr', 'basic'))).rows).toHaveLength(4);
  });

  it('offset past the end → OUT_OF_RANGE (11)', async () => {
    const { s, schema } = await session(tablePath('sr', 'basic'));
    expect((await grpcErrorOf(readStream(client, schema, s.streams![0].name!, 5))).code).toBe(11);
  });

  it('malformed names → INVALID_ARGUMENT (3); unknown sessions → NOT_FOUND (5)', async () => {
    expect((await grpcErrorOf(session('datasets/sr/tables/basic'))).code).toBe(3);
    expect((await grpcErrorOf(readStream(client, new Uint8Array(), 'not-a-stream'))).code).toBe(3);
    expect((await grpcErrorOf(readStream(client, new Uint8Array(), `projects/${P}/locations/us/sessions/x/streams/y`))).code).toBe(5);
  });
});
