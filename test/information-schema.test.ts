/**
 * INFORMATION_SCHEMA views, table snapshots/clones/copies, materialized views and ingestion-time
 * partitioning through the real client. Expected values follow
 * BigQuery's documentation (INFORMATION_SCHEMA.TABLES / TABLE_OPTIONS / COLUMNS /
 * COLUMN_FIELD_PATHS / VIEWS / PARTITIONS / SCHEMATA pages, "Introduction to table snapshots",
 * "Introduction to table clones", "Querying partitioned tables") and the recorded fixtures of
 * conformance/fixtures/information_schema and versioning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string, opts: Record<string, unknown> = {}) => (await t.bq.query({ query, wrapIntegers: false, ...opts }))[0] as Record<string, unknown>[];

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('isd');
  await t.bq.createDataset('isd2', { description: 'second' });
  await q(`CREATE TABLE isd.users (id INT64 NOT NULL, name STRING, address STRUCT<city STRING, zip INT64>, tags ARRAY<STRING>)
    OPTIONS(description="people")`);
  await q('CREATE TABLE isd.events (dt DATE, kind STRING, n INT64) PARTITION BY dt CLUSTER BY kind OPTIONS(require_partition_filter=true)');
  await q("INSERT INTO isd.events VALUES (DATE '2024-01-01', 'a', 1), (DATE '2024-01-01', 'b', 2), (DATE '2024-01-02', 'a', 3)");
  await q('CREATE VIEW isd.v_users AS SELECT id FROM isd.users');
});
afterAll(async () => t?.emu.close());

describe('INFORMATION_SCHEMA at dataset scope', () => {
  it('TABLES lists tables and views with table_type, is_insertable_into and is_typed', async () => {
    const rows = await q('SELECT table_catalog, table_schema, table_name, table_type, is_insertable_into, is_typed FROM isd.INFORMATION_SCHEMA.TABLES ORDER BY table_name');
    expect(rows).toEqual([
      { table_catalog: 'test-project', table_schema: 'isd', table_name: 'events', table_type: 'BASE TABLE', is_insertable_into: 'YES', is_typed: 'NO' },
      { table_catalog: 'test-project', table_schema: 'isd', table_name: 'users', table_type: 'BASE TABLE', is_insertable_into: 'YES', is_typed: 'NO' },
      { table_catalog: 'test-project', table_schema: 'isd', table_name: 'v_users', table_type: 'VIEW', is_insertable_into: 'NO', is_typed: 'NO' },
    ]);
  });

  it('COLUMNS: ordinal_position, is_nullable, data_type in GoogleSQL spelling, partitioning and clustering', async () => {
    expect(await q("SELECT column_name, ordinal_position, is_nullable, data_type FROM `test-project.isd.INFORMATION_SCHEMA.COLUMNS` WHERE table_name = 'users' ORDER BY ordinal_position")).toEqual([
      { column_name: 'id', ordinal_position: 1, is_nullable: 'NO', data_type: 'INT64' },
      { column_name: 'name', ordinal_position: 2, is_nullable: 'YES', data_type: 'STRING' },
      { column_name: 'address', ordinal_position: 3, is_nullable: 'YES', data_type: 'STRUCT<city STRING, zip INT64>' },
      { column_name: 'tags', ordinal_position: 4, is_nullable: 'YES', data_type: 'ARRAY<STRING>' },
    ]);
    expect(await q("SELECT column_name, is_partitioning_column, clustering_ordinal_position FROM isd.INFORMATION_SCHEMA.COLUMNS WHERE table_name = 'events' ORDER BY ordinal_position")).toEqual([
      { column_name: 'dt', is_partitioning_column: 'YES', clustering_ordinal_position: null },
      { column_name: 'kind', is_partitioning_column: 'NO', clustering_ordinal_position: 1 },
      { column_name: 'n', is_partitioning_column: 'NO', clustering_ordinal_position: null },
    ]);
  });

  it('COLUMN_FIELD_PATHS lists nested fields with their paths', async () => {
    expect(await q("SELECT field_path, data_type FROM isd.INFORMATION_SCHEMA.COLUMN_FIELD_PATHS WHERE table_name = 'users' AND column_name = 'address'")).toEqual([
      { field_path: 'address', data_type: 'STRUCT<city STRING, zip INT64>' },
      { field_path: 'address.city', data_type: 'STRING' },
      { field_path: 'address.zip', data_type: 'INT64' },
    ]);
  });

  it('TABLE_OPTIONS: option values are GoogleSQL literals', async () => {
    expect(await q('SELECT table_name, option_name, option_type, option_value FROM isd.INFORMATION_SCHEMA.TABLE_OPTIONS ORDER BY table_name, option_name')).toEqual([
      { table_name: 'events', option_name: 'require_partition_filter', option_type: 'BOOL', option_value: 'true' },
      { table_name: 'users', option_name: 'description', option_type: 'STRING', option_value: '"people"' },
    ]);
  });

  it('VIEWS: view_definition and use_standard_sql', async () => {
    expect(await q('SELECT table_name, view_definition, use_standard_sql FROM isd.INFORMATION_SCHEMA.VIEWS')).toEqual([
      { table_name: 'v_users', view_definition: 'SELECT id FROM isd.users', use_standard_sql: 'YES' },
    ]);
  });

  it('PARTITIONS: one row per partition with partition_id and total_rows', async () => {
    expect(await q("SELECT partition_id, total_rows, storage_tier FROM isd.INFORMATION_SCHEMA.PARTITIONS WHERE table_name = 'events' ORDER BY partition_id")).toEqual([
      { partition_id: '20240101', total_rows: 2, storage_tier: 'ACTIVE' },
      { partition_id: '20240102', total_rows: 1, storage_tier: 'ACTIVE' },
    ]);
  });

  it('reflects the catalog at query time', async () => {
    await q('CREATE TABLE isd2.later (x INT64)');
    expect(await q('SELECT table_name FROM isd2.INFORMATION_SCHEMA.TABLES')).toEqual([{ table_name: 'later' }]);
    await q('DROP TABLE isd2.later');
    expect(await q('SELECT COUNT(*) AS n FROM isd2.INFORMATION_SCHEMA.TABLES')).toEqual([{ n: 0 }]);
  });

  it('a missing dataset is 404 Not found: Dataset', async () => {
    const e = await errorOf(q('SELECT * FROM nope.INFORMATION_SCHEMA.TABLES'));
    expect(e.code).toBe(404);
    expect(e.message).toBe('Not found: Dataset test-project:nope was not found in location US');
  });
});

describe('INFORMATION_SCHEMA at region and project scope', () => {
  it('SCHEMATA lists the datasets of the project', async () => {
    expect(await q("SELECT catalog_name, schema_name, location FROM `region-us`.INFORMATION_SCHEMA.SCHEMATA WHERE schema_name LIKE 'isd%' ORDER BY schema_name")).toEqual([
      { catalog_name: 'test-project', schema_name: 'isd', location: 'US' },
      { catalog_name: 'test-project', schema_name: 'isd2', location: 'US' },
    ]);
    expect(await q("SELECT COUNT(*) AS n FROM `test-project`.`region-us`.INFORMATION_SCHEMA.SCHEMATA WHERE schema_name = 'absent'")).toEqual([{ n: 0 }]);
  });

  it('SCHEMATA_OPTIONS and region-wide TABLES', async () => {
    expect(await q("SELECT schema_name, option_name, option_value FROM `region-us.INFORMATION_SCHEMA.SCHEMATA_OPTIONS` WHERE schema_name = 'isd2'")).toEqual([
      { schema_name: 'isd2', option_name: 'description', option_value: '"second"' },
    ]);
    const rows = await q("SELECT table_schema, table_name FROM `region-us`.INFORMATION_SCHEMA.TABLES WHERE table_schema = 'isd' ORDER BY table_name");
    expect(rows.map((r) => r.table_name)).toEqual(['events', 'users', 'v_users']);
  });
});

describe('snapshots, clones, copies and materialized views', () => {
  beforeAll(async () => {
    await q("CREATE TABLE isd.src AS SELECT 1 AS id, 'a' AS label UNION ALL SELECT 2, 'b'");
  });

  it('CREATE SNAPSHOT TABLE copies the rows and has type SNAPSHOT with snapshotDefinition', async () => {
    await q('CREATE SNAPSHOT TABLE isd.snap CLONE isd.src');
    await q("INSERT INTO isd.src VALUES (3, 'c')");
    expect(await q('SELECT id, label FROM isd.snap ORDER BY id')).toEqual([{ id: 1, label: 'a' }, { id: 2, label: 'b' }]);
    const [meta] = await t.bq.dataset('isd').table('snap').getMetadata();
    expect(meta.type).toBe('SNAPSHOT');
    expect(meta.snapshotDefinition.baseTableReference).toEqual({ projectId: 'test-project', datasetId: 'isd', tableId: 'src' });
    expect(typeof meta.snapshotDefinition.snapshotTime).toBe('string');
    expect(await q("SELECT table_type, base_table_name FROM isd.INFORMATION_SCHEMA.TABLES WHERE table_name = 'snap'")).toEqual([{ table_type: 'SNAPSHOT', base_table_name: 'src' }]);
  });

  it('CREATE TABLE CLONE is an independent writable table with cloneDefinition', async () => {
    await q('CREATE TABLE isd.cl CLONE isd.src');
    await q("UPDATE isd.cl SET label = 'X' WHERE id = 1");
    expect(await q('SELECT id, label FROM isd.cl ORDER BY id')).toEqual([{ id: 1, label: 'X' }, { id: 2, label: 'b' }, { id: 3, label: 'c' }]);
    expect(await q('SELECT label FROM isd.src WHERE id = 1')).toEqual([{ label: 'a' }]);
    const [meta] = await t.bq.dataset('isd').table('cl').getMetadata();
    expect(meta.type).toBe('TABLE');
    expect(meta.cloneDefinition.baseTableReference.tableId).toBe('src');
  });

  it('CREATE TABLE COPY and CREATE TABLE LIKE', async () => {
    await q('CREATE TABLE isd.cp COPY isd.src');
    expect(await q('SELECT COUNT(*) AS n FROM isd.cp')).toEqual([{ n: 3 }]);
    await q('CREATE TABLE isd.lk LIKE isd.src');
    expect(await q('SELECT COUNT(*) AS n FROM isd.lk')).toEqual([{ n: 0 }]);
    expect(await q("SELECT column_name FROM isd.INFORMATION_SCHEMA.COLUMNS WHERE table_name = 'lk' ORDER BY ordinal_position")).toEqual([{ column_name: 'id' }, { column_name: 'label' }]);
  });

  it('an existing target without OR REPLACE is Already Exists', async () => {
    const e = await errorOf(q('CREATE SNAPSHOT TABLE isd.snap CLONE isd.src'));
    expect(e.message).toBe('Already Exists: Table test-project:isd.snap');
  });

  it('a materialized view reads current data and is listed as MATERIALIZED VIEW', async () => {
    await q('CREATE MATERIALIZED VIEW isd.mv AS SELECT COUNT(*) AS n FROM isd.src');
    await q("INSERT INTO isd.src VALUES (4, 'd')");
    expect(await q('SELECT n FROM isd.mv')).toEqual([{ n: 4 }]);
    const [meta] = await t.bq.dataset('isd').table('mv').getMetadata();
    expect(meta.type).toBe('MATERIALIZED_VIEW');
    expect(await q("SELECT table_type FROM isd.INFORMATION_SCHEMA.TABLES WHERE table_name = 'mv'")).toEqual([{ table_type: 'MATERIALIZED VIEW' }]);
    await q('DROP MATERIALIZED VIEW isd.mv');
    expect(await q("SELECT COUNT(*) AS n FROM isd.INFORMATION_SCHEMA.TABLES WHERE table_name = 'mv'")).toEqual([{ n: 0 }]);
  });
});

describe('ingestion-time partitioning', () => {
  it('PARTITION BY _PARTITIONDATE gives the pseudo-columns, filled with the day of insertion', async () => {
    await q('CREATE TABLE isd.ing (v INT64) PARTITION BY _PARTITIONDATE');
    await q('INSERT INTO isd.ing (v) VALUES (1), (2)');
    const [meta] = await t.bq.dataset('isd').table('ing').getMetadata();
    expect(meta.timePartitioning).toEqual({ type: 'DAY' });
    expect(await q('SELECT * FROM isd.ing ORDER BY v')).toEqual([{ v: 1 }, { v: 2 }]);
    expect(await q('SELECT COUNT(*) AS n FROM isd.ing WHERE _PARTITIONDATE = CURRENT_DATE() AND _PARTITIONTIME = TIMESTAMP(CURRENT_DATE())')).toEqual([{ n: 2 }]);
    expect(await q("SELECT total_rows FROM isd.INFORMATION_SCHEMA.PARTITIONS WHERE table_name = 'ing'")).toEqual([{ total_rows: 2 }]);
  });
});
