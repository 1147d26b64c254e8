/**
 * Primary and foreign keys (unenforced) declared in DDL, read back as `Table.tableConstraints`
 * through @google-cloud/bigquery. Shape: bigquery-v2-discovery.json TableConstraints
 * (`primaryKey.columns`; `foreignKeys[].name`, `.referencedTable{projectId, datasetId, tableId}`,
 * `.columnReferences[{referencingColumn, referencedColumn}]`); statements: the DDL reference's
 * CREATE TABLE table constraints and ALTER TABLE ADD PRIMARY KEY / ADD CONSTRAINT / DROP PRIMARY
 * KEY / DROP CONSTRAINT (https://cloud.google.com/bigquery/docs/primary-foreign-keys).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = (query: string) => t.bq.query({ query });
const constraints = async (table: string) => (await t.bq.dataset('pkfk').table(table).getMetadata())[0].tableConstraints;

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('pkfk');
});
afterAll(async () => t?.emu.close());

describe('tableConstraints', () => {
  it('CREATE TABLE keeps its PRIMARY KEY and FOREIGN KEYs, the referenced columns named', async () => {
    await q('CREATE TABLE pkfk.orders (id INT64, region STRING, PRIMARY KEY (id, region) NOT ENFORCED)');
    await q(`CREATE TABLE pkfk.items (order_id INT64, order_region STRING, sku STRING,
      CONSTRAINT to_order FOREIGN KEY (order_id, order_region) REFERENCES pkfk.orders(id, region) NOT ENFORCED)`);
    expect(await constraints('orders')).toEqual({ primaryKey: { columns: ['id', 'region'] } });
    expect(await constraints('items')).toEqual({
      foreignKeys: [
        {
          name: 'to_order',
          referencedTable: { projectId: t.projectId, datasetId: 'pkfk', tableId: 'orders' },
          columnReferences: [
            { referencingColumn: 'order_id', referencedColumn: 'id' },
            { referencingColumn: 'order_region', referencedColumn: 'region' },
          ],
        },
      ],
    });
  });

  it('ALTER TABLE adds and drops them; IF EXISTS / IF NOT EXISTS skip', async () => {
    await q('CREATE TABLE pkfk.plain (id INT64, ref INT64)');
    await q('ALTER TABLE pkfk.plain ADD PRIMARY KEY (id) NOT ENFORCED');
    await q('ALTER TABLE pkfk.plain ADD CONSTRAINT self_ref FOREIGN KEY (ref) REFERENCES pkfk.plain(id) NOT ENFORCED');
    await q('ALTER TABLE pkfk.plain ADD CONSTRAINT IF NOT EXISTS self_ref FOREIGN KEY (id) REFERENCES pkfk.plain(id) NOT ENFORCED');
    expect(await constraints('plain')).toEqual({
      primaryKey: { columns: ['id'] },
      foreignKeys: [{ name: 'self_ref', referencedTable: { projectId: t.projectId, datasetId: 'pkfk', tableId: 'plain' }, columnReferences: [{ referencingColumn: 'ref', referencedColumn: 'id' }] }],
    });
    expect((await errorOf(q('ALTER TABLE pkfk.plain ADD PRIMARY KEY (ref) NOT ENFORCED'))).errors?.[0]?.reason).toBe('invalidQuery');
    await q('ALTER TABLE pkfk.plain DROP CONSTRAINT self_ref');
    await q('ALTER TABLE pkfk.plain DROP PRIMARY KEY');
    await q('ALTER TABLE pkfk.plain DROP PRIMARY KEY IF EXISTS');
    await q('ALTER TABLE pkfk.plain DROP CONSTRAINT IF EXISTS self_ref');
    expect(await constraints('plain')).toBeUndefined();
    expect((await errorOf(q('ALTER TABLE pkfk.plain DROP PRIMARY KEY'))).errors?.[0]?.reason).toBe('invalidQuery');
  });
});
