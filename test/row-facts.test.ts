/**
 * Successive appends reuse the row count and largest rowid the previous append noted
 * (src/engine/duckdb/row-facts.ts) instead of counting the table; a write that changes rows in
 * between (DELETE) makes the next append count again. What must hold either way, through the
 * official clients (`table.insert`, `getMetadata`, `copy`, queries, and the managed writer's
 * `JSONWriter` on the `_default` stream):
 * - tables.get reports the streamed rows as `streamingBuffer.estimatedRows` and the others as
 *   `numRows` (discovery document, Table.numRows "excluding any data in the streaming buffer");
 * - copy jobs leave the streamed rows out, and DELETE of rows outside the buffer runs
 *   ("All other rows in the table remain modifiable",
 *   https://cloud.google.com/bigquery/docs/data-manipulation-language#limitations);
 * - `FOR SYSTEM_TIME AS OF` a time between two appends sees the rows written before it
 *   (https://cloud.google.com/bigquery/docs/access-historical-data).
 * Expected values are the rows this test wrote, counted by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonWriter, startWriteEmulator, stopWriteEmulator, type WriteEmulator } from './helpers/storage-write.js';

const P = 'test-project';
const DS = 'rf';
const SCHEMA = { fields: [{ name: 'id', type: 'INTEGER' }, { name: 'name', type: 'STRING' }] };

describe('appends after appends and after a DELETE', () => {
  let w: WriteEmulator;
  beforeAll(async () => {
    w = await startWriteEmulator(DS, P);
  });
  afterAll(async () => stopWriteEmulator(w ?? {}));

  const query = async (sql: string) => (await w.t.bq.query({ query: sql, defaultDataset: { projectId: P, datasetId: DS } } as never))[0] as Record<string, unknown>[];
  const ids = async (table: string) => (await query(`SELECT id FROM ${table} ORDER BY id`)).map((r) => Number(r.id));
  /** Now by the database clock, as a TIMESTAMP literal's microseconds (what FOR SYSTEM_TIME AS OF takes). */
  const now = async () => String((await query('SELECT UNIX_MICROS(CURRENT_TIMESTAMP()) AS t'))[0]!.t);
  const asOf = async (table: string, micros: string) => Number((await query(`SELECT count(*) AS n FROM ${table} FOR SYSTEM_TIME AS OF TIMESTAMP_MICROS(${micros})`))[0]!.n);
  const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i, name: `r${from + i}` }));

  it('insertAll: the buffer, copies, DELETE and time travel see exactly the rows of each append', async () => {
    const table = (await w.t.bq.dataset(DS).createTable('ins', { schema: SCHEMA }))[0];
    await query('INSERT INTO ins (id, name) VALUES (1, "a"), (2, "b"), (3, "c")');
    // The last stored row goes: the next append's rowids come after it all the same.
    await query('DELETE FROM ins WHERE id = 3');
    const times: string[] = [];
    for (const [from, n] of [[10, 2], [12, 1], [13, 3]] as const) {
      await table.insert(rows(from, n));
      times.push(await now());
    }
    const [meta] = await table.getMetadata();
    expect(meta.streamingBuffer.estimatedRows).toBe('6');
    expect(meta.numRows).toBe('2');
    expect(await Promise.all(times.map((t) => asOf('ins', t)))).toEqual([4, 5, 8]);
    await table.copy(w.t.bq.dataset(DS).table('ins_copy1'));
    expect(await ids('ins_copy1')).toEqual([1, 2]);
    // A row outside the buffer may be deleted; then more appends.
    await query('DELETE FROM ins WHERE id = 1');
    await table.insert(rows(16, 2));
    await table.insert(rows(18, 1));
    const [meta2] = await table.getMetadata();
    expect(meta2.streamingBuffer.estimatedRows).toBe('9');
    await table.copy(w.t.bq.dataset(DS).table('ins_copy2'));
    expect(await ids('ins_copy2')).toEqual([2]);
    expect(await ids('ins')).toEqual([2, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
    expect((await query('UPDATE ins SET name = "x" WHERE id = 2 OR id = 18').catch((e: Error) => e)) instanceof Error).toBe(true);
  });

  it('the Storage Write API `_default` stream: the same after appends, a DML INSERT and a DELETE', async () => {
    await w.t.bq.dataset(DS).createTable('sw', { schema: SCHEMA });
    const writer = await jsonWriter(w.client, w.t.bq, { projectId: P, dataset: DS, table: 'sw' });
    try {
      const times: string[] = [];
      const append = async (from: number, n: number) => {
        await writer.appendRows(rows(from, n) as never).getResult();
        times.push(await now());
      };
      await append(1, 3);
      await append(4, 2);
      await query('INSERT INTO sw (id, name) VALUES (100, "dml"), (101, "dml")');
      await append(6, 1);
      // A stored row between streamed ones goes: the append after it counts again.
      await query('DELETE FROM sw WHERE id = 100');
      await append(7, 4);
      await append(11, 1);
      expect(await Promise.all(times.map((t) => asOf('sw', t)))).toEqual([3, 5, 8, 11, 12]);
      const [meta] = await w.t.bq.dataset(DS).table('sw').getMetadata();
      expect(meta.streamingBuffer.estimatedRows).toBe('11');
      expect(meta.numRows).toBe('1');
      await w.t.bq.dataset(DS).table('sw').copy(w.t.bq.dataset(DS).table('sw_copy'));
      expect(await ids('sw_copy')).toEqual([101]);
      expect(await ids('sw')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 101]);
    } finally {
      writer.close();
    }
  });
});
