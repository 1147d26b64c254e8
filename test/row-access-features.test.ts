/**
 * Row access policies with other features (BigQuery "Use row-level security with other BigQuery
 * features", "Data retention with time travel" § time travel and row-level access):
 * - tabledata.list is a non-query read ("Some bq command-line tool commands, such as the bq head
 *   command"): it needs the `TRUE` filter like DML;
 * - UPDATE, DELETE, MERGE and TRUNCATE on a table with policies need the `TRUE` filter ("When you
 *   use a DML operation on a table protected by row access policies, you must use a TRUE filter");
 *   INSERT does not read the table;
 * - time travel on a table with policies is refused.
 * Callers are named by the `X-Bqemu-Caller` header (conformance/README.md "Recording notes" 8).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BigQuery } from '@google-cloud/bigquery';
import { makeClient, type HeaderInjectingAuthClient } from '../src/conformance/client.js';
import { startEmulator, type Emulator } from '../src/server/server.js';
import { errorOf } from './helpers/emulator.js';

const P = 'test-project';
let emu: Emulator;
let bq: BigQuery;
let auth: HeaderInjectingAuthClient;

const q = async (query: string) => (await bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
const as = (caller: string | undefined) => {
  auth.extraHeaders = caller ? { 'X-Bqemu-Caller': caller } : {};
};
const ALICE = 'alice@example.com'; // granted country = 'US'
const ADMIN = 'admin@example.com'; // granted the TRUE filter

beforeAll(async () => {
  emu = await startEmulator({ port: 0, projectId: P });
  ({ bq, auth } = makeClient(emu.url, P));
  await bq.createDataset('rf');
  await q(`CREATE TABLE rf.orders AS
    SELECT 1 AS id, 'US' AS country UNION ALL SELECT 2, 'EU' UNION ALL SELECT 3, 'US' UNION ALL SELECT 4, 'JP'`);
  await q(`CREATE ROW ACCESS POLICY us ON rf.orders GRANT TO ('user:${ALICE}') FILTER USING (country = 'US')`);
  await q(`CREATE ROW ACCESS POLICY everything ON rf.orders GRANT TO ('user:${ADMIN}') FILTER USING (TRUE)`);
});
afterAll(async () => emu?.close());

describe('row access policies with other features', () => {
  it('tabledata.list (a non-query read, like bq head) needs the TRUE filter', async () => {
    for (const caller of [ALICE, 'nobody@example.com']) {
      as(caller);
      const e = await errorOf(bq.dataset('rf').table('orders').getRows());
      expect(e.code, caller).toBe(403);
      expect(e.errors?.[0]?.reason, caller).toBe('accessDenied');
    }
    as(ADMIN);
    const [rows, , resp] = await bq.dataset('rf').table('orders').getRows({ wrapIntegers: false } as never);
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect((resp as { totalRows?: string }).totalRows).toBe('4');
    as(undefined);
  });

  it('UPDATE, DELETE, MERGE and TRUNCATE need the TRUE filter; INSERT does not', async () => {
    as(ALICE);
    for (const dml of [
      "UPDATE rf.orders SET country = 'CA' WHERE id = 1",
      'DELETE FROM rf.orders WHERE id = 2',
      "MERGE rf.orders T USING (SELECT 1 AS id) S ON T.id = S.id WHEN MATCHED THEN UPDATE SET country = 'CA'",
      'TRUNCATE TABLE rf.orders',
    ]) {
      const e = await errorOf(q(dml));
      expect(e.code, dml).toBe(403);
      expect(e.errors?.[0]?.reason, dml).toBe('accessDenied');
    }
    await q("INSERT INTO rf.orders VALUES (5, 'US')");
    expect((await q('SELECT id FROM rf.orders ORDER BY id')).map((r) => r.id)).toEqual([1, 3, 5]);
    as(ADMIN);
    await q('DELETE FROM rf.orders WHERE id = 5');
    expect((await q('SELECT id FROM rf.orders ORDER BY id')).map((r) => r.id)).toEqual([1, 2, 3, 4]);
    as(undefined);
  });

  it('time travel on a table with row access policies is refused', async () => {
    as(ADMIN);
    const e = await errorOf(q('SELECT * FROM rf.orders FOR SYSTEM_TIME AS OF CURRENT_TIMESTAMP()'));
    expect(e.code).toBe(403);
    expect(e.message).toBe(`Access Denied: BigQuery: Time travel on table ${P}:rf.orders is forbidden as it has (or has had) row access policies.`);
    as(undefined);
  });
});
