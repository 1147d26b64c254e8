/**
 * tables.insert / get / list / patch / update / delete through @google-cloud/bigquery.
 *
 * Expected shapes come from the Table / TableList schemas and tables.* method descriptions of
 * src/server/rest/bigquery-v2-discovery.json and from the recorded BigQuery answer in
 * conformance/wire/jobs/tables_get_basic; error texts from BigQuery
 * answers quoted in public reports (cited at each assertion).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset, Table } from '@google-cloud/bigquery';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { clientRequest, http } from './helpers/http.js';

let t: TestEmulator;
let P: string;
let ds: Dataset;
const D = 'tables_ds';

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'tbl-project' });
  P = t.projectId;
  [ds] = await t.bq.createDataset(D);
});
afterAll(async () => {
  await t?.emu.close();
});

const SCHEMA = [
  { name: 'id', type: 'INTEGER', mode: 'REQUIRED', description: 'the key' },
  { name: 'name', type: 'STRING', mode: 'NULLABLE' },
  { name: 'tags', type: 'STRING', mode: 'REPEATED' },
  {
    name: 'rec',
    type: 'RECORD',
    mode: 'NULLABLE',
    fields: [
      { name: 'x', type: 'FLOAT', mode: 'NULLABLE' },
      { name: 'y', type: 'BOOLEAN', mode: 'NULLABLE' },
    ],
  },
];

describe('tables.insert', () => {
  it('creates a table with schema, description, labels, friendlyName and expirationTime', async () => {
    const expiration = String(Date.now() + 3_600_000);
    const [, res] = await ds.createTable('full', {
      schema: SCHEMA,
      description: 'a table',
      labels: { owner: 'me' },
      friendlyName: 'Full table',
      expirationTime: expiration,
    });
    // Table (discovery): kind, id "p:d.t", tableReference, type TABLE, int64 times as strings.
    expect(res.kind).toBe('bigquery#table');
    expect(res.id).toBe(`${P}:${D}.full`);
    expect(res.tableReference).toEqual({ projectId: P, datasetId: D, tableId: 'full' });
    expect(res.type).toBe('TABLE');
    expect(res.description).toBe('a table');
    expect(res.labels).toEqual({ owner: 'me' });
    expect(res.friendlyName).toBe('Full table');
    expect(res.expirationTime).toBe(expiration);
    expect(res.creationTime).toMatch(/^\d+$/);
    expect(res.selfLink).toMatch(new RegExp(`/bigquery/v2/projects/${P}/datasets/${D}/tables/full$`));
    expect(res.schema?.fields).toEqual(SCHEMA);
  });

  it('accepts the client\'s "name:type" schema shorthand', async () => {
    const [table] = await ds.createTable('short', { schema: 'a:integer, b:string, c:timestamp' });
    const [m] = await table.getMetadata();
    expect(m.schema.fields.map((f: { name: string; type: string }) => [f.name, f.type])).toEqual([
      ['a', 'INTEGER'],
      ['b', 'STRING'],
      ['c', 'TIMESTAMP'],
    ]);
  });

  it('answers 409 duplicate "Already Exists: Table p:d.t"', async () => {
    await ds.createTable('dup', { schema: 'a:integer' });
    const e = await errorOf(ds.createTable('dup', { schema: 'a:integer' }));
    // Text recorded from BigQuery (corpus sql/rest_crud/error_create_table_already_exists).
    expect(e.code).toBe(409);
    expect(e.errors?.[0]?.reason).toBe('duplicate');
    expect(e.message).toBe(`Already Exists: Table ${P}:${D}.dup`);
  });

  it('answers 404 for a table in a missing dataset', async () => {
    const e = await errorOf(t.bq.dataset('no_such_ds').createTable('x', { schema: 'a:integer' }));
    expect(e.code).toBe(404);
    expect(e.errors?.[0]?.reason).toBe('notFound');
    expect(e.message).toBe(`Not found: Dataset ${P}:no_such_ds`);
  });
});

describe('tables.get', () => {
  beforeAll(async () => {
    // The recorded fixture's setup (http/jobs/tables_get_basic/setup.sql).
    await t.bq.query({ query: `CREATE TABLE \`${D}.tbl\` (a INT64, b STRING)` });
  });

  it('answers the recorded Table keys, with storage statistics as int64 strings', async () => {
    const [m] = await ds.table('tbl').getMetadata();
    // Keys of the recorded body (corpus http/jobs/tables_get_basic/expected_response.json).
    expect(Object.keys(m).sort()).toEqual(
      [
        'kind', 'etag', 'id', 'selfLink', 'tableReference', 'schema', 'numBytes', 'numLongTermBytes', 'numRows',
        'creationTime', 'lastModifiedTime', 'type', 'location', 'numTotalLogicalBytes', 'numActiveLogicalBytes',
        'numLongTermLogicalBytes',
      ].sort(),
    );
    expect(m.numRows).toBe('0');
    expect(m.numBytes).toBe('0');
    expect(m.type).toBe('TABLE');
    expect(m.schema.fields.map((f: { name: string; type: string }) => ({ name: f.name, type: f.type }))).toEqual([
      { name: 'a', type: 'INTEGER' },
      { name: 'b', type: 'STRING' },
    ]);
  });

  // The recording shows DDL-declared NULLABLE columns without a `mode` key.
  it('omits `mode` for columns declared without one in DDL (as recorded)', async () => {
    const [m] = await ds.table('tbl').getMetadata();
    expect(m.schema.fields).toEqual([
      { name: 'a', type: 'INTEGER' },
      { name: 'b', type: 'STRING' },
    ]);
  });

  it('a schema field\'s defaultValueExpression is kept and applied like a DDL DEFAULT', async () => {
    // TableFieldSchema.defaultValueExpression: "A SQL expression to specify the default value for
    // this field" (discovery document); an INSERT that omits the column writes the default
    // (https://cloud.google.com/bigquery/docs/default-values).
    const fields = [
      { name: 'id', type: 'INTEGER' },
      { name: 'label', type: 'STRING', defaultValueExpression: "'unset'" },
      { name: 'n', type: 'INTEGER', defaultValueExpression: '40 + 2' },
    ];
    const [table] = await ds.createTable('with_defaults', { schema: { fields } });
    expect((await table.getMetadata())[0].schema.fields).toEqual(fields);
    await t.bq.query({ query: `INSERT INTO \`${D}.with_defaults\` (id) VALUES (1)` });
    const [rows] = await t.bq.query({ query: `SELECT id, label, n FROM \`${D}.with_defaults\`` });
    expect(rows).toEqual([{ id: 1, label: 'unset', n: 42 }]);
    const bad = await errorOf(ds.createTable('bad_default', { schema: { fields: [{ name: 'x', type: 'INTEGER', defaultValueExpression: 'no_such_function()' }] } }));
    expect(bad.code).toBe(400);
  });

  it('counts rows in numRows; view=BASIC leaves storage statistics out', async () => {
    await t.bq.query({ query: `INSERT INTO \`${D}.tbl\` (a, b) VALUES (1, 'x'), (2, 'y')` });
    const [full] = await ds.table('tbl').getMetadata();
    expect(full.numRows).toBe('2');
    // tables.get view BASIC: "This view does not include storage statistics such as numRows or numBytes."
    const [basicTable] = await ds.table('tbl').get({ view: 'BASIC' } as never);
    const basic = basicTable.metadata;
    expect(basic.numRows).toBeUndefined();
    expect(basic.numBytes).toBeUndefined();
    // STORAGE_STATS: "storage statistics (numBytes, numLongTermBytes, numRows and lastModifiedTime)".
    expect(basic.lastModifiedTime).toBeUndefined();
    expect(basic.numLongTermBytes).toBeUndefined();
    expect(basic.creationTime).toBe(full.creationTime);
    expect(basic.schema.fields.length).toBe(2);
    const [fullView] = await ds.table('tbl').get({ view: 'FULL' } as never);
    expect(fullView.metadata).toMatchObject({ numRows: '2', numBytes: full.numBytes, lastModifiedTime: full.lastModifiedTime });
    const bad = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}/tables/tbl?view=NOPE`);
    expect(bad.status).toBe(400);
    const raw = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}/tables/tbl?view=STORAGE_STATS`);
    expect(raw.body.numRows).toBe('2');
  });

  it('answers 404 notFound "Not found: Table p:d.t" for a missing table', async () => {
    const e = await errorOf(ds.table('nope').get());
    expect(e.code).toBe(404);
    expect(e.errors?.[0]?.reason).toBe('notFound');
    expect(e.message).toBe(`Not found: Table ${P}:${D}.nope`);
    expect((await ds.table('nope').exists())[0]).toBe(false);
  });
});

describe('tables.list', () => {
  let lds: Dataset;
  beforeAll(async () => {
    [lds] = await t.bq.createDataset('list_ds');
    for (const name of ['t_c', 't_a', 't_b']) await lds.createTable(name, { schema: 'a:integer', labels: { n: name } });
    await lds.createTable('v_1', { view: 'SELECT 1 AS one' });
  });

  it('lists tables and views in the ListFormatTable shape', async () => {
    const res = await clientRequest(t.bq, { uri: `${t.emu.url}/bigquery/v2/projects/${P}/datasets/list_ds/tables` });
    expect(res.kind).toBe('bigquery#tableList');
    expect(res.totalItems).toBe(4);
    const ids = res.tables.map((x: { tableReference: { tableId: string } }) => x.tableReference.tableId).sort();
    expect(ids).toEqual(['t_a', 't_b', 't_c', 'v_1']);
    const a = res.tables.find((x: { id: string }) => x.id === `${P}:list_ds.t_a`);
    expect(a).toMatchObject({ kind: 'bigquery#table', type: 'TABLE', labels: { n: 't_a' }, tableReference: { projectId: P, datasetId: 'list_ds', tableId: 't_a' } });
    expect(a.creationTime).toMatch(/^\d+$/);
    const v = res.tables.find((x: { id: string }) => x.id === `${P}:list_ds.v_1`);
    expect(v.type).toBe('VIEW');
  });

  it('pages with maxResults and pageToken, each table exactly once', async () => {
    const seen: string[] = [];
    let query: Record<string, unknown> | null = { maxResults: 1, autoPaginate: false };
    let pages = 0;
    while (query) {
      const [list, next] = (await lds.getTables(query)) as unknown as [Table[], Record<string, unknown> | null];
      expect(list.length).toBe(1);
      seen.push(list[0].id!);
      query = next;
      pages++;
    }
    expect(pages).toBe(4);
    expect(seen.sort()).toEqual(['t_a', 't_b', 't_c', 'v_1']);
  });

  it('answers 404 for a missing dataset', async () => {
    const e = await errorOf(t.bq.dataset('gone_ds').getTables());
    expect(e.code).toBe(404);
    expect(e.message).toBe(`Not found: Dataset ${P}:gone_ds`);
  });
});

describe('tables.patch (setMetadata)', () => {
  it('replaces only the given fields; other metadata stays', async () => {
    const [table, created] = await ds.createTable('patch1', { schema: 'a:integer', description: 'd1', friendlyName: 'F1', labels: { k: 'v' } });
    await new Promise((r) => setTimeout(r, 5));
    const exp = String(Date.now() + 86_400_000);
    const [res] = await table.setMetadata({ description: 'd2', expirationTime: exp });
    expect(res.description).toBe('d2');
    expect(res.expirationTime).toBe(exp);
    expect(res.friendlyName).toBe('F1');
    expect(res.labels).toEqual({ k: 'v' });
    expect(Number(res.lastModifiedTime)).toBeGreaterThan(Number(created.lastModifiedTime));
    expect(res.etag).not.toBe(created.etag);
    const [m] = await table.getMetadata();
    expect(m.description).toBe('d2');
    expect(m.expirationTime).toBe(exp);
  });

  it('adds a NULLABLE column; existing rows read NULL in it', async () => {
    const [table] = await ds.createTable('patch_add', { schema: 'a:integer' });
    await table.insert([{ a: 1 }], { partialRetries: 0 } as never);
    const [res] = await table.setMetadata({ schema: { fields: [{ name: 'a', type: 'INTEGER' }, { name: 'b', type: 'STRING' }] } });
    expect(res.schema.fields.map((f: { name: string }) => f.name)).toEqual(['a', 'b']);
    const [rows] = await table.getRows();
    expect(rows).toEqual([{ a: 1, b: null }]);
  });

  it('refuses to drop a column: "Provided Schema does not match Table … Field b is missing in new schema"', async () => {
    const [table] = await ds.createTable('patch_drop', { schema: 'a:integer,b:string' });
    const e = await errorOf(table.setMetadata({ schema: { fields: [{ name: 'a', type: 'INTEGER' }] } }));
    // "Error 400: Provided Schema does not match Table p:d.t. Field metrics.counter is missing in new schema, invalid"
    // (mozilla/mozilla-schema-generator#100).
    expect(e.code).toBe(400);
    expect(e.errors?.[0]?.reason).toBe('invalid');
    expect(e.message).toBe(`Provided Schema does not match Table ${P}:${D}.patch_drop. Field b is missing in new schema`);
  });

  it('refuses to change a column type: "… Field a has changed type from INTEGER to STRING"', async () => {
    const [table] = await ds.createTable('patch_type', { schema: 'a:integer' });
    const e = await errorOf(table.setMetadata({ schema: { fields: [{ name: 'a', type: 'STRING' }] } }));
    // "400 Provided Schema does not match Table ny-rides-mt:trips_data_all.green_tripdata. Field
    // congestion_surcharge has changed type from STRING to INTEGER" (quoted in a public course repository).
    expect(e.code).toBe(400);
    expect(e.errors?.[0]?.reason).toBe('invalid');
    expect(e.message).toBe(`Provided Schema does not match Table ${P}:${D}.patch_type. Field a has changed type from INTEGER to STRING`);
  });

  it('answers 412 on a stale etag (If-Match) and accepts the current one', async () => {
    const [table, created] = await ds.createTable('patch_etag', { schema: 'a:integer' });
    await table.setMetadata({ description: 'first' });
    // The client copies `etag` from the body into If-Match (table.js interceptor).
    const e = await errorOf(table.setMetadata({ description: 'second', etag: created.etag }));
    // "412 PATCH …: Precondition check failed." (googleapis/python-bigquery#772)
    expect(e.code).toBe(412);
    expect(e.message).toBe('Precondition check failed.');
    const [m] = await table.getMetadata();
    expect(m.description).toBe('first');
    const [ok] = await table.setMetadata({ description: 'third', etag: m.etag });
    expect(ok.description).toBe('third');
  });
});

describe('tables.update (PUT)', () => {
  it('replaces the whole resource: fields left out are cleared, schema kept when resent', async () => {
    await ds.createTable('put1', { schema: 'a:integer', description: 'old', labels: { k: 'v' } });
    const res = await clientRequest(t.bq, {
      method: 'PUT',
      uri: `${t.emu.url}/bigquery/v2/projects/${P}/datasets/${D}/tables/put1`,
      json: { tableReference: { projectId: P, datasetId: D, tableId: 'put1' }, schema: { fields: [{ name: 'a', type: 'INTEGER' }] }, friendlyName: 'new' },
    });
    expect(res.friendlyName).toBe('new');
    expect(res.description).toBeUndefined();
    expect(res.labels).toBeUndefined();
    expect(res.schema.fields.map((f: { name: string }) => f.name)).toEqual(['a']);
  });

  it('answers 412 on a stale If-Match', async () => {
    const [table, created] = await ds.createTable('put_etag', { schema: 'a:integer' });
    await table.setMetadata({ description: 'changed' });
    const r = await http(t.emu.url, 'PUT', `/bigquery/v2/projects/${P}/datasets/${D}/tables/put_etag`, { description: 'x' }, { 'If-Match': created.etag! });
    expect(r.status).toBe(412);
    expect(r.body.error.code).toBe(412);
  });
});

describe('views', () => {
  it('creates a view, reports its query and schema, and queries it as a view', async () => {
    const [base] = await ds.createTable('vbase', { schema: 'n:integer,s:string' });
    await base.insert([{ n: 1, s: 'a' }, { n: 2, s: 'b' }, { n: 3, s: 'c' }], { partialRetries: 0 } as never);
    const q = `SELECT n * 10 AS n10, s FROM \`${P}.${D}.vbase\` WHERE n >= 2`;
    const [view, res] = await ds.createTable('v_big', { view: q });
    expect(res.type).toBe('VIEW');
    expect(res.view).toMatchObject({ query: q, useLegacySql: false });
    expect(res.schema?.fields?.map((f) => [f.name, f.type])).toEqual([
      ['n10', 'INTEGER'],
      ['s', 'STRING'],
    ]);
    const [rows] = await t.bq.query({ query: `SELECT n10, s FROM \`${D}.v_big\` ORDER BY n10` });
    expect(rows).toEqual([
      { n10: 20, s: 'b' },
      { n10: 30, s: 'c' },
    ]);
    // A view reads the base table at query time.
    await base.insert([{ n: 4, s: 'd' }], { partialRetries: 0 } as never);
    const [rows2] = await t.bq.query({ query: `SELECT COUNT(*) AS c FROM \`${D}.v_big\`` });
    expect(rows2).toEqual([{ c: 3 }]);
    const [m] = await view.getMetadata();
    expect(m.view.query).toBe(q);
  });

  it('patches a view query', async () => {
    const [view] = await ds.createTable('v_patch', { view: 'SELECT 1 AS x' });
    await view.setMetadata({ view: { query: 'SELECT 2 AS x', useLegacySql: false } });
    const [rows] = await t.bq.query({ query: `SELECT x FROM \`${D}.v_patch\`` });
    expect(rows).toEqual([{ x: 2 }]);
  });
});

describe('tables.delete', () => {
  it('deletes a table (204, empty body); later gets and deletes are 404', async () => {
    const [table] = await ds.createTable('del1', { schema: 'a:integer' });
    const r = await http(t.emu.url, 'DELETE', `/bigquery/v2/projects/${P}/datasets/${D}/tables/del1`);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect((await table.exists())[0]).toBe(false);
    const e = await errorOf(table.delete());
    expect(e.code).toBe(404);
    expect(e.message).toBe(`Not found: Table ${P}:${D}.del1`);
  });

  it('deletes through the client and a table of the same name can be recreated empty', async () => {
    const [table] = await ds.createTable('del2', { schema: 'a:integer' });
    await table.insert([{ a: 1 }], { partialRetries: 0 } as never);
    await table.delete();
    const [again] = await ds.createTable('del2', { schema: 'b:string' });
    const [rows] = await again.getRows();
    expect(rows).toEqual([]);
    const [m] = await again.getMetadata();
    expect(m.schema.fields.map((f: { name: string }) => f.name)).toEqual(['b']);
  });
});
