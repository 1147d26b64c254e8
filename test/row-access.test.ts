/**
 * Row access policies through the real client: the rowAccessPolicies REST resource, the DDL
 * (CREATE [OR REPLACE] ROW ACCESS POLICY [IF NOT EXISTS], DROP [ALL] ROW ACCESS POLICY/POLICIES)
 * and enforcement by caller identity (`X-Bqemu-Caller`, `X-Bqemu-Groups`; conformance/README.md
 * "Recording notes" 8). Expected rows follow BigQuery's rule (documentation "Introduction to
 * row-level security" and the recorded row_access fixtures): a caller sees the union of the rows of
 * the policies granting them; a table with policies of which none grants the caller reads as empty.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BigQuery } from '@google-cloud/bigquery';
import { makeClient, type HeaderInjectingAuthClient } from '../src/conformance/client.js';
import { startEmulator, type Emulator } from '../src/server/server.js';
import { errorOf } from './helpers/emulator.js';
import { clientRequest } from './helpers/http.js';

const P = 'test-project';
let emu: Emulator;
let bq: BigQuery;
let auth: HeaderInjectingAuthClient;

const q = async (query: string) => (await bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
const ids = async (query: string) => (await q(query)).map((r) => r.id);
const as = (caller: string | undefined, groups?: string) => {
  auth.extraHeaders = {};
  if (caller) auth.extraHeaders['X-Bqemu-Caller'] = caller;
  if (groups) auth.extraHeaders['X-Bqemu-Groups'] = groups;
};
const policies = (table: string) => `${emu.url}/bigquery/v2/projects/${P}/datasets/ra/tables/${table}/rowAccessPolicies`;
const rest = <T = any>(uri: string, method = 'GET', json?: unknown, qs?: Record<string, unknown>) => clientRequest<T>(bq, { uri, method, json, qs });
const insertPolicy = (table: string, policyId: string, filterPredicate: string, grantees: string[]) =>
  rest(policies(table), 'POST', { rowAccessPolicyReference: { projectId: P, datasetId: 'ra', tableId: table, policyId }, filterPredicate, grantees });

beforeAll(async () => {
  emu = await startEmulator({ port: 0, projectId: P });
  ({ bq, auth } = makeClient(emu.url, P));
  await bq.createDataset('ra');
  await q(`CREATE TABLE ra.orders AS
    SELECT 1 AS id, 'US' AS country, 100 AS amount UNION ALL SELECT 2, 'US', 500 UNION ALL
    SELECT 3, 'EU', 300 UNION ALL SELECT 4, 'JP', 200`);
});
afterAll(async () => emu?.close());

describe('rowAccessPolicies REST resource', () => {
  it('insert/get/list/update/delete/batchDelete with BigQuery shapes and errors', async () => {
    await q('CREATE TABLE ra.crud (id INT64, country STRING)');
    const created = await insertPolicy('crud', 'us_only', "country = 'US'", ['user:alice@example.com']);
    expect(created).toMatchObject({
      rowAccessPolicyReference: { projectId: P, datasetId: 'ra', tableId: 'crud', policyId: 'us_only' },
      filterPredicate: "country = 'US'",
    });
    expect(created.grantees).toBeUndefined(); // input only
    expect(typeof created.etag).toBe('string');
    expect(new Date(created.creationTime).getTime()).toBeGreaterThan(0);

    expect(await rest(`${policies('crud')}/us_only`)).toEqual(created);
    expect((await errorOf(insertPolicy('crud', 'us_only', 'TRUE', ['allUsers']))).code).toBe(409);
    expect((await errorOf(insertPolicy('crud', 'bad', 'no_such_column = 1', ['allUsers']))).code).toBe(400);
    expect((await errorOf(insertPolicy('crud', 'bad-id', 'TRUE', ['allUsers']))).code).toBe(400);
    expect((await errorOf(insertPolicy('missing', 'p', 'TRUE', ['allUsers']))).code).toBe(404);

    await insertPolicy('crud', 'eu_only', "country = 'EU'", ['allUsers']);
    const page1 = await rest(policies('crud'), 'GET', undefined, { pageSize: 1 });
    expect(page1.rowAccessPolicies.map((p: any) => p.rowAccessPolicyReference.policyId)).toEqual(['eu_only']);
    const page2 = await rest(policies('crud'), 'GET', undefined, { pageSize: 1, pageToken: page1.nextPageToken });
    expect(page2.rowAccessPolicies.map((p: any) => p.rowAccessPolicyReference.policyId)).toEqual(['us_only']);
    expect(page2.nextPageToken).toBeUndefined();

    const updated = await rest(`${policies('crud')}/us_only`, 'PUT', { rowAccessPolicyReference: { projectId: P, datasetId: 'ra', tableId: 'crud', policyId: 'us_only' }, filterPredicate: "country IN ('US', 'CA')" });
    expect(updated.filterPredicate).toBe("country IN ('US', 'CA')");
    expect(updated.etag).not.toBe(created.etag);

    await rest(`${policies('crud')}/us_only`, 'DELETE');
    expect((await errorOf(rest(`${policies('crud')}/us_only`))).code).toBe(404);
    expect((await errorOf(rest(`${policies('crud')}:batchDelete`, 'POST', { policyIds: ['nope'] }))).code).toBe(404);
    await rest(`${policies('crud')}:batchDelete`, 'POST', { policyIds: ['eu_only'] });
    expect(await rest(policies('crud'))).toEqual({});
  });
});

describe('enforcement by caller', () => {
  it('a caller sees the union of the policies granting them, directly, by group, by domain or to all users', async () => {
    await insertPolicy('orders', 'us_for_alice', "country = 'US'", ['user:alice@example.com']);
    await insertPolicy('orders', 'big_for_alice', 'amount >= 300', ['user:Alice@Example.com']);
    await insertPolicy('orders', 'jp_for_group', "country = 'JP'", ['group:ops@example.com']);
    await insertPolicy('orders', 'eu_for_domain', "country = 'EU'", ['domain:corp.example']);
    const all = 'SELECT id FROM ra.orders ORDER BY id';

    as('user:alice@example.com');
    expect(await ids(all)).toEqual([1, 2, 3]);
    as('user:bob@example.com', 'group:ops@example.com');
    expect(await ids(all)).toEqual([4]);
    as('user:carol@corp.example');
    expect(await ids(all)).toEqual([3]);
    // Granted nothing: no rows (the default principal, without headers, too).
    as('serviceAccount:other@example.iam.gserviceaccount.com');
    expect(await ids(all)).toEqual([]);
    as(undefined);
    expect(await ids(all)).toEqual([]);

    // The filter applies to every read of the table: subqueries, aggregates, views.
    as('user:alice@example.com');
    expect(await ids('SELECT id FROM ra.orders WHERE amount > (SELECT AVG(amount) FROM ra.orders) ORDER BY id')).toEqual([2]);
    expect(await q('SELECT COUNT(*) AS n FROM ra.orders')).toEqual([{ n: 3 }]);
    await q('CREATE VIEW ra.orders_v AS SELECT id, country FROM ra.orders');
    expect(await ids('SELECT id FROM ra.orders_v ORDER BY id')).toEqual([1, 2, 3]);
    as('user:bob@example.com');
    expect(await ids('SELECT id FROM ra.orders_v ORDER BY id')).toEqual([]);

    await insertPolicy('orders', 'all_eu', "country = 'EU'", ['allUsers']);
    expect(await ids(all)).toEqual([3]);
    as(undefined);
  });
});

describe('row access policy DDL', () => {
  it('CREATE [OR REPLACE] / IF NOT EXISTS / DROP [IF EXISTS] / DROP ALL', async () => {
    await q(`CREATE TABLE ra.docs AS SELECT 1 AS id, 'alice@example.com' AS owner UNION ALL SELECT 2, 'bob@example.com'`);
    await q(`CREATE ROW ACCESS POLICY alice_docs ON ra.docs GRANT TO ('user:alice@example.com') FILTER USING (owner = 'alice@example.com')`);
    const listed = await rest(policies('docs'));
    expect(listed.rowAccessPolicies).toHaveLength(1);
    expect(listed.rowAccessPolicies[0].filterPredicate).toBe("owner = 'alice@example.com'");
    as('user:alice@example.com');
    expect(await ids('SELECT id FROM ra.docs ORDER BY id')).toEqual([1]);

    expect(String(await errorOf(q(`CREATE ROW ACCESS POLICY alice_docs ON ra.docs GRANT TO ('allUsers') FILTER USING (TRUE)`)))).toMatch(/Already Exists/);
    await q(`CREATE ROW ACCESS POLICY IF NOT EXISTS alice_docs ON ra.docs GRANT TO ('allUsers') FILTER USING (TRUE)`);
    expect(await ids('SELECT id FROM ra.docs ORDER BY id')).toEqual([1]);
    await q(`CREATE OR REPLACE ROW ACCESS POLICY alice_docs ON \`${P}.ra.docs\` GRANT TO ('user:alice@example.com', 'allAuthenticatedUsers') FILTER USING (id > 0)`);
    expect(await ids('SELECT id FROM ra.docs ORDER BY id')).toEqual([1, 2]);

    await q(`CREATE ROW ACCESS POLICY second ON ra.docs GRANT TO ('group:x@example.com') FILTER USING (FALSE)`);
    await q('DROP ROW ACCESS POLICY alice_docs ON ra.docs');
    expect(await ids('SELECT id FROM ra.docs ORDER BY id')).toEqual([]);
    expect(String(await errorOf(q('DROP ROW ACCESS POLICY alice_docs ON ra.docs')))).toMatch(/Not found: Row access policy alice_docs/);
    await q('DROP ROW ACCESS POLICY IF EXISTS alice_docs ON ra.docs');
    await q('DROP ALL ROW ACCESS POLICIES ON ra.docs');
    expect(await ids('SELECT id FROM ra.docs ORDER BY id')).toEqual([1, 2]);
    as(undefined);
  });

  it('policies persist with a data directory and go away with their table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bqemu-rap-'));
    try {
      let e2 = await startEmulator({ port: 0, projectId: P, dataDir: join(dir, 'db.duckdb'), dataset: 'pd' });
      let c = makeClient(e2.url, P);
      await c.bq.query({ query: "CREATE TABLE pd.t AS SELECT 1 AS id; CREATE ROW ACCESS POLICY p1 ON pd.t GRANT TO ('allUsers') FILTER USING (id = 2)" });
      await e2.close();
      e2 = await startEmulator({ port: 0, projectId: P, dataDir: join(dir, 'db.duckdb') });
      c = makeClient(e2.url, P);
      expect((await c.bq.query({ query: 'SELECT id FROM pd.t' }))[0]).toEqual([]);
      await c.bq.query({ query: 'DROP TABLE pd.t; CREATE TABLE pd.t AS SELECT 1 AS id' });
      expect((await c.bq.query({ query: 'SELECT id FROM pd.t', wrapIntegers: false }))[0]).toEqual([{ id: 1 }]);
      await e2.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
