/**
 * STRING values of the Storage Write API's columnar path reach DuckDB as 16-byte string cells
 * (src/wire/write-rows-cells.ts, appended by src/engine/storage-write-chunks.ts): a value of at
 * most 12 UTF-8 bytes is copied inline with the chunk's cells, a longer one is assigned on its own,
 * a chunk's string heap is reset before the next. These tests write values on every side of the
 * 12-byte boundary (ASCII and multi-byte, where a character straddles it), the empty string, and
 * NULLs — long values in some chunks of 2,048 rows and not in others, a NULL in one chunk only —
 * through the official clients (`JSONWriter`, decoded in the worker thread for requests of 8 KB
 * and more; raw `AppendRows` with an apache-arrow batch, read from the batch's own buffers) and
 * read them back through REST queries. Expected values are the rows the tests write: STRING
 * columns take proto `string` and Arrow utf8 values as they are
 * (https://cloud.google.com/bigquery/docs/supported-data-types).
 */
import { Int64, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestEmulator } from './helpers/emulator.js';
import { appendArrowIpc, jsonWriter, tableName, startWriteEmulator, stopWriteEmulator, type WriteClient, type WriterClient } from './helpers/storage-write.js';

let t: TestEmulator;
let client: WriterClient;
let gapic: WriteClient;
const P = 'test-project';
const D = 'swcells';

const q = async (sql: string) => (await t.bq.query({ query: sql }))[0] as Record<string, unknown>[];

beforeAll(async () => {
  ({ t, client, gapic } = await startWriteEmulator(D, P));
}, 60_000);

afterAll(() => stopWriteEmulator({ t, client, gapic }));

/** Values around the 12-byte inline limit: byte lengths 0, 1, 11, 12, 13, 14 and longer; 'é' is 2 bytes, '✓' 3. */
const EDGE = ['', 'a', 'a'.repeat(11), 'a'.repeat(12), 'a'.repeat(13), 'é'.repeat(6), 'a'.repeat(11) + 'é', 'é'.repeat(5) + '✓', 'a'.repeat(10) + '✓', 'ü'.repeat(7), 'a longer value of forty bytes or so ✓✓'];

/**
 * 5,000 rows: chunk 1 (rows 0–2,047) short values only and a NULL every 9th row; chunk 2 every edge
 * value in turn and no NULL; chunk 3 short values again (after a chunk whose string heap held long ones).
 */
const rows = Array.from({ length: 5000 }, (_, k) => ({
  k,
  s: k < 2048 ? (k % 9 === 0 ? null : `s${k % 1000}`) : k < 4096 ? EDGE[k % EDGE.length]! : `t${k % 100}`,
}));

/** Reads the table back and compares it row for row with `rows`. */
async function expectRows(table: string) {
  const got = await q(`SELECT k, s FROM ${D}.${table} ORDER BY k`);
  expect(got.length).toBe(rows.length);
  const bad = got.filter((r, i) => r.k !== rows[i]!.k || r.s !== rows[i]!.s);
  expect(bad).toEqual([]);
  expect(await q(`SELECT COUNTIF(s IS NULL) n, COUNTIF(BYTE_LENGTH(s) > 12) long FROM ${D}.${table}`)).toEqual([
    { n: rows.filter((r) => r.s === null).length, long: rows.filter((r) => r.s !== null && Buffer.byteLength(r.s) > 12).length },
  ]);
}

describe('STRING cells around the 12-byte inline limit', () => {
  it('a large JSONWriter append (worker-decoded) reads back row for row', async () => {
    await q(`CREATE TABLE ${D}.proto (k INT64, s STRING)`);
    const w = await jsonWriter(client, t.bq, { projectId: P, dataset: D, table: 'proto' });
    const r = await w.appendRows(rows as never).getResult();
    expect(r.error ?? null).toBeNull();
    await expectRows('proto');
    w.close();
  });

  it('an Arrow record batch of the same rows reads back row for row', async () => {
    await q(`CREATE TABLE ${D}.arrow (k INT64, s STRING)`);
    const ipc = tableToIPC(
      new Table({ k: vectorFromArray(rows.map((r) => BigInt(r.k)), new Int64()), s: vectorFromArray(rows.map((r) => r.s), new Utf8()) }),
      'stream',
    );
    const responses = await appendArrowIpc(gapic, `${tableName(P, D, 'arrow')}/streams/_default`, ipc);
    expect(responses.map((r) => r.error ?? null)).toEqual([null]);
    await expectRows('arrow');
  });
});
