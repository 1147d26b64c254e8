/**
 * ReadRows streamed from DuckDB (src/engine/storage-read.ts, src/server/grpc/read-service.ts),
 * through the official Node client (`@google-cloud/bigquery-storage` GAPIC v1.BigQueryReadClient,
 * Arrow decoded with apache-arrow): a stream holds one batch in memory, never its table; a reader
 * that stops reading holds back the query (gRPC backpressure); a cancelled read ends its DuckDB
 * query; rows inserted after CreateReadSession are not read (storage.proto ReadSession: a session
 * reads the table as of its creation, "If not set, interpreted as now" for snapshot_time). Expected
 * rows follow from the SQL that generated them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { readClient, readStream, type ReadClient } from './helpers/storage-read.js';
import { storageReadRows } from '../src/engine/storage-read.js';
import { MAX_ROWS_PER_RESPONSE } from '../src/server/grpc/read-service.js';
import { loadBigQueryReadService } from '../src/server/grpc/protos.js';
import * as grpc from '@grpc/grpc-js';

let t: TestEmulator;
let client: ReadClient;
const P = 'test-project';
const tablePath = (tb: string) => `projects/${P}/datasets/st/tables/${tb}`;
const q = async (sql: string) => (await t.bq.query({ query: sql }))[0];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Most rows one stream may hold: one response's worth plus one DuckDB chunk. */
const ONE_BATCH = MAX_ROWS_PER_RESPONSE + 2048;
const BIG = 500_000;

async function session(table: string, maxStreamCount = 1, selectedFields: string[] = []) {
  const [s] = await client.createReadSession({ parent: `projects/${P}`, readSession: { table, dataFormat: 'ARROW', readOptions: { selectedFields } }, maxStreamCount });
  return { s, schema: s.arrowSchema!.serializedSchema as Uint8Array };
}

/** Decodes one response's record batch with the session schema. */
function decode(schema: Uint8Array, batch: Uint8Array) {
  const bytes = new Uint8Array(schema.length + batch.length);
  bytes.set(schema);
  bytes.set(batch, schema.length);
  return tableFromIPC(bytes);
}

beforeAll(async () => {
  t = await startTestEmulator({ projectId: P });
  client = readClient(t.emu);
  await q(`CREATE SCHEMA st`);
  await q(`CREATE TABLE st.big AS SELECT x AS id, CONCAT(REPEAT('x', 200), CAST(x AS STRING)) AS s FROM UNNEST(GENERATE_ARRAY(1, ${BIG})) AS x`);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await t?.emu.close();
});

describe('streaming from DuckDB', () => {
  it(`reads a ${BIG}-row table through one stream holding at most one batch at a time`, async () => {
    const { s, schema } = await session(tablePath('big'));
    storageReadRows.reset();
    let rows = 0;
    let idSum = 0n;
    let maxResponse = 0;
    for await (const r of client.readRows({ readStream: s.streams![0].name!, offset: 0 })) {
      const tb = decode(schema, r.arrowRecordBatch!.serializedRecordBatch as Uint8Array);
      const ids = tb.getChild('id')!;
      for (let i = 0; i < tb.numRows; i++) idSum += ids.get(i) as bigint;
      if (rows === 0) expect(tb.getChild('s')!.get(0)).toBe('x'.repeat(200) + '1');
      rows += tb.numRows;
      maxResponse = Math.max(maxResponse, tb.numRows);
    }
    expect(rows).toBe(BIG);
    expect(idSum).toBe((BigInt(BIG) * BigInt(BIG + 1)) / 2n);
    expect(maxResponse).toBeLessThanOrEqual(ONE_BATCH);
    expect(storageReadRows.pulled).toBe(BIG);
    expect(storageReadRows.peakHeld).toBeLessThanOrEqual(ONE_BATCH);
    expect(storageReadRows.held).toBe(0);
  }, 60_000);

  it('4 streams read in parallel hold at most one batch each, and their union is the table', async () => {
    const { s, schema } = await session(tablePath('big'), 4, ['id']);
    expect(s.streams).toHaveLength(4);
    storageReadRows.reset();
    const parts = await Promise.all(s.streams!.map((st) => readStream(client, schema, st.name!)));
    const seen = new Uint8Array(BIG + 1);
    for (const p of parts) for (const r of p.rows) seen[Number(r.id)]++;
    expect(seen.subarray(1).every((n) => n === 1)).toBe(true);
    expect(storageReadRows.peakHeld).toBeLessThanOrEqual(4 * ONE_BATCH);
  }, 60_000);

  it('a reader that stops reading stalls its DuckDB query (backpressure) until it reads on', async () => {
    const HUGE = 1_000_000;
    await q(`CREATE TABLE st.huge AS SELECT x AS id, CONCAT(REPEAT('x', 200), CAST(x AS STRING)) AS s FROM UNNEST(GENERATE_ARRAY(1, ${HUGE})) AS x`);
    const { s } = await session(tablePath('huge'));
    storageReadRows.reset();
    // @grpc/grpc-js's own client on the published service definition: google-gax's stream proxy
    // keeps taking responses while paused, so only a bare gRPC stream shows the server's side.
    const service = loadBigQueryReadService();
    const bare = new grpc.Client(`127.0.0.1:${t.emu.grpcPort}`, grpc.credentials.createInsecure());
    const call = bare.makeServerStreamRequest(service.ReadRows.path, service.ReadRows.requestSerialize, (b: Buffer) => b, { readStream: s.streams![0].name!, offset: 0 });
    call.on('error', () => undefined); // cancelled below
    let reading = false;
    call.on('data', () => void (reading || call.pause()));
    try {
      // Paused at its first response: the server pulls until the gRPC buffers between it and the
      // reader are full (a few dozen responses), then no further.
      let last = -1;
      for (let i = 0; i < 50 && storageReadRows.pulled !== last; i++) {
        last = storageReadRows.pulled;
        await sleep(200);
      }
      expect(storageReadRows.pulled).toBe(last);
      expect(storageReadRows.pulled).toBeGreaterThan(0);
      expect(storageReadRows.pulled).toBeLessThan(HUGE / 2);
      expect(storageReadRows.held).toBeLessThanOrEqual(ONE_BATCH);
      reading = true;
      call.resume();
      for (let i = 0; i < 50 && storageReadRows.pulled === last; i++) await sleep(100);
      expect(storageReadRows.pulled).toBeGreaterThan(last);
    } finally {
      call.cancel();
      bare.close();
    }
  }, 120_000);

  it('cancelling a read mid-stream ends its DuckDB query and frees its connection', async () => {
    const db = t.emu.engine.db;
    for (let i = 0; i < 100 && db.openCursors > 0; i++) await sleep(20);
    const { s } = await session(tablePath('big'));
    const call = client.readRows({ readStream: s.streams![0].name!, offset: 0 });
    await new Promise<void>((resolve) => call.once('data', () => resolve()));
    expect(db.openCursors).toBe(1);
    call.on('error', () => undefined); // the client reports its own cancellation as CANCELLED
    call.cancel();
    for (let i = 0; i < 100 && db.openCursors > 0; i++) await sleep(20);
    expect(db.openCursors).toBe(0);
    expect(storageReadRows.held).toBe(0);
    const [row] = await q(`SELECT COUNT(*) AS n FROM st.big`);
    expect(row.n).toBe(BIG);
    // The stream can be read again, from where the reader stopped or from any offset.
    const again = await readStream(client, s.arrowSchema!.serializedSchema as Uint8Array, s.streams![0].name!, BIG - 3);
    expect(again.rows.map((r) => Number(r.id))).toEqual([BIG - 2, BIG - 1, BIG]);
  }, 60_000);
});

describe('a session reads the table as of its creation', () => {
  it('rows inserted after CreateReadSession are not read by the session; a new session reads them', async () => {
    await q(`CREATE TABLE st.grow AS SELECT x AS id FROM UNNEST(GENERATE_ARRAY(1, 3000)) AS x`);
    const before = await session(tablePath('grow'), 2);
    expect(Number(before.s.estimatedRowCount)).toBe(3000);
    await q(`INSERT INTO st.grow SELECT x FROM UNNEST(GENERATE_ARRAY(3001, 3500)) AS x`);
    const parts = await Promise.all(before.s.streams!.map((st) => readStream(client, before.schema, st.name!)));
    const ids = parts.flatMap((p) => p.rows.map((r) => Number(r.id))).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
    const after = await session(tablePath('grow'));
    expect((await readStream(client, after.schema, after.s.streams![0].name!)).rows).toHaveLength(3500);
  });

  it('rows deleted or updated after CreateReadSession are read as they were (the table version of that moment)', async () => {
    await q(`CREATE TABLE st.churn AS SELECT x AS id, x * 10 AS v FROM UNNEST(GENERATE_ARRAY(1, 4000)) AS x`);
    const before = await session(tablePath('churn'), 2);
    expect(before.s.streams).toHaveLength(2);
    await q(`DELETE FROM st.churn WHERE MOD(id, 2) = 0`);
    await q(`UPDATE st.churn SET v = -1 WHERE id < 100`);
    const parts = await Promise.all(before.s.streams!.map((st) => readStream(client, before.schema, st.name!)));
    const rows = parts.flatMap((p) => p.rows).sort((a, b) => Number(a.id) - Number(b.id));
    expect(rows.map((r) => [Number(r.id), Number(r.v)])).toEqual(Array.from({ length: 4000 }, (_, i) => [i + 1, (i + 1) * 10]));
    // Resumed mid-stream after the change, a stream continues in the same rows.
    const tail = await readStream(client, before.schema, before.s.streams![1].name!, 1000);
    expect(tail.rows.map((r) => Number(r.id))).toEqual(Array.from({ length: 1000 }, (_, i) => 3001 + i));
    const now = await session(tablePath('churn'));
    expect((await readStream(client, now.schema, now.s.streams![0].name!)).rows).toHaveLength(2000);
  });
});

describe('a restriction calling a JavaScript UDF', () => {
  it('streams the rows the UDF keeps, split over two streams', async () => {
    await q(`CREATE FUNCTION st.even(x INT64) RETURNS BOOL LANGUAGE js AS r"""return Number(x) % 2 === 0;"""`);
    await q(`CREATE TABLE st.udf AS SELECT x AS id FROM UNNEST(GENERATE_ARRAY(1, 30000)) AS x`);
    const [s] = await client.createReadSession({ parent: `projects/${P}`, readSession: { table: tablePath('udf'), dataFormat: 'ARROW', readOptions: { rowRestriction: 'st.even(id)' } }, maxStreamCount: 2 });
    expect(Number(s.estimatedRowCount)).toBe(15000);
    const schema = s.arrowSchema!.serializedSchema as Uint8Array;
    const parts = await Promise.all(s.streams!.map((st) => readStream(client, schema, st.name!)));
    const ids = parts.flatMap((p) => p.rows.map((r) => Number(r.id))).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 15000 }, (_, i) => 2 * (i + 1)));
  }, 60_000);
});

describe('columns copied from DuckDB vectors keep every value', () => {
  it('NULLs, multi-byte and long strings, bytes, dates and timestamps, read from an offset that is not a multiple of 8', async () => {
    const n = 7000;
    await q(`CREATE TABLE st.mixed AS SELECT x AS id,
      IF(MOD(x, 7) = 0, NULL, CONCAT('é', REPEAT('ab', MOD(x, 11)), CAST(x AS STRING))) AS s,
      IF(MOD(x, 5) = 0, NULL, x / 4) AS f,
      IF(MOD(x, 3) = 0, NULL, CAST(CAST(x AS STRING) AS BYTES)) AS b,
      IF(MOD(x, 9) = 0, NULL, DATE_ADD(DATE '2020-01-01', INTERVAL x DAY)) AS d,
      IF(MOD(x, 4) = 0, NULL, TIMESTAMP_MICROS(x * 1000003)) AS ts
      FROM UNNEST(GENERATE_ARRAY(1, ${n})) AS x`);
    const { s, schema } = await session(tablePath('mixed'));
    const offset = 1237;
    const got = (await readStream(client, schema, s.streams![0].name!, offset)).rows;
    expect(got).toHaveLength(n - offset);
    const day0 = Date.UTC(2020, 0, 1);
    for (const r of got) {
      const x = Number(r.id);
      expect(r.s).toBe(x % 7 === 0 ? null : `é${'ab'.repeat(x % 11)}${x}`);
      expect(r.f).toBe(x % 5 === 0 ? null : x / 4);
      expect(r.b === null ? null : Buffer.from(r.b as Uint8Array).toString()).toBe(x % 3 === 0 ? null : String(x));
      expect(r.d === null ? null : Number(r.d)).toBe(x % 9 === 0 ? null : day0 + x * 86_400_000);
      expect(r.ts === null ? null : Number(r.ts)).toBe(x % 4 === 0 ? null : (x * 1000003) / 1000);
    }
    // Rows are in the stream's order: the table's (ids offset+1 … n).
    expect(got.map((r) => Number(r.id))).toEqual(Array.from({ length: n - offset }, (_, i) => offset + i + 1));
  });
});
