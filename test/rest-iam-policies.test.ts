/**
 * IAM policies of tables and views, routines and row access policies through the real client
 * (`table.getIamPolicy/setIamPolicy/testIamPermissions`), raw HTTP where the client has no method,
 * and the bq CLI (`bq get-iam-policy`, `bq set-iam-policy`).
 * Expected behaviour: the method pages (https://cloud.google.com/bigquery/docs/reference/rest/v2/tables/getIamPolicy,
 * …/setIamPolicy, …/testIamPermissions: an empty policy for a resource without one, a missing resource
 * answering no permissions), the Policy schema (etag concurrency, version 3 for conditions), the
 * roles of https://cloud.google.com/bigquery/docs/access-control, and IAM's error texts as quoted in
 * src/errors/iam-errors.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';
import { bqRunner, findBq, type BqRunner } from './helpers/bq-cli.js';
import { CALLER_HEADER, GROUPS_HEADER } from '../src/server/rest/context.js';

let t: TestEmulator;
let P: string;
const base = () => `/bigquery/v2/projects/${P}/datasets/iam_ds`;
const post = (p: string, body: unknown = {}, headers: Record<string, string> = {}) => http(t.emu.url, 'POST', `${base()}${p}`, body, headers);

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'iam-proj', grpcPort: 0 });
  P = t.projectId;
  const [ds] = await t.bq.createDataset('iam_ds');
  await ds.createTable('people', { schema: 'name:string,age:integer' });
  await t.bq.query('CREATE VIEW iam_ds.adults AS SELECT * FROM iam_ds.people WHERE age >= 18');
  await t.bq.query('CREATE FUNCTION iam_ds.twice(x INT64) AS (x * 2)');
  await t.bq.query('CREATE ROW ACCESS POLICY young ON iam_ds.people GRANT TO ("user:alice@example.com", "group:team@example.com") FILTER USING (age < 30)');
});
afterAll(async () => {
  await t?.emu.close();
});

describe('tables.getIamPolicy / setIamPolicy', () => {
  it('a table without a policy answers the empty policy', async () => {
    const [policy] = await t.bq.dataset('iam_ds').table('people').getIamPolicy();
    expect(policy).toEqual({ version: 1, etag: 'ACAB' });
  });

  it('setIamPolicy stores the bindings and returns them with a new etag; getIamPolicy reads them back', async () => {
    const table = t.bq.dataset('iam_ds').table('people');
    const bindings = [{ role: 'roles/bigquery.dataViewer', members: ['group:readers@example.com', 'user:bob@example.com'] }];
    const [set] = await table.setIamPolicy({ bindings });
    expect(set.bindings).toEqual(bindings);
    expect(set.version).toBe(1);
    expect(set.etag).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(set.etag).not.toBe('ACAB');
    const [got] = await table.getIamPolicy();
    expect(got).toEqual(set);
    // Each write gets a new etag, even with the same bindings.
    const [again] = await table.setIamPolicy({ bindings, etag: got.etag });
    expect(again.etag).not.toBe(got.etag);
  });

  it('normalizes as IAM does: duplicate members and equal roles merged, empty bindings dropped, sorted by role', async () => {
    const r = await post('/tables/adults:setIamPolicy', {
      policy: {
        bindings: [
          { role: 'roles/bigquery.metadataViewer', members: ['user:z@example.com'] },
          { role: 'roles/bigquery.dataEditor', members: [] },
          { role: 'roles/bigquery.metadataViewer', members: ['user:a@example.com', 'user:z@example.com'] },
        ],
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.bindings).toEqual([{ role: 'roles/bigquery.metadataViewer', members: ['user:a@example.com', 'user:z@example.com'] }]);
  });

  it('a stale etag is 409 ABORTED with IAM\'s concurrency text', async () => {
    const table = t.bq.dataset('iam_ds').table('people');
    const [cur] = await table.getIamPolicy();
    await table.setIamPolicy({ bindings: [{ role: 'roles/bigquery.dataOwner', members: ['user:owner@example.com'] }], etag: cur.etag });
    const e = await errorOf(table.setIamPolicy({ bindings: [], etag: cur.etag }));
    expect(e.code).toBe(409);
    expect(e.message).toBe('There were concurrent policy changes. Please retry the whole read-modify-write with exponential backoff.');
    const r = await post('/tables/people:setIamPolicy', { policy: { bindings: [], etag: cur.etag } });
    expect(r.body.error.status).toBe('ABORTED');
    // The empty policy's etag is stale once a policy is set; without an etag the write is blind.
    expect((await post('/tables/people:setIamPolicy', { policy: { bindings: [], etag: 'ACAB' } })).status).toBe(409);
  });

  it('members are checked with IAM\'s texts', async () => {
    const table = t.bq.dataset('iam_ds').table('people');
    const noType = await errorOf(table.setIamPolicy({ bindings: [{ role: 'roles/bigquery.dataViewer', members: ['bob@example.com'] }] }));
    expect(noType.code).toBe(400);
    expect(noType.message).toBe('Policy members must be of the form "<type>:<value>".');
    const unknown = await errorOf(table.setIamPolicy({ bindings: [{ role: 'roles/bigquery.dataViewer', members: ['robot:r2d2'] }] }));
    expect(unknown.message).toBe('The member robot:r2d2 is of an unknown type. Please set a valid type prefix for the member.');
    const ok = await post('/tables/adults:setIamPolicy', {
      policy: { bindings: [{ role: 'roles/bigquery.dataViewer', members: ['allUsers', 'allAuthenticatedUsers', 'domain:example.com', 'serviceAccount:sa@p.iam.gserviceaccount.com', 'principal://iam.googleapis.com/locations/global/workforcePools/pool/subject/s'] }] },
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it('a condition needs version 3; the policy is then version 3 and reading it below 3 is refused', async () => {
    const condition = { title: 'expirable', expression: "request.time < timestamp('2030-01-01T00:00:00Z')" };
    const bindings = [{ role: 'roles/bigquery.dataViewer', members: ['user:temp@example.com'], condition }];
    const v1 = await post('/tables/adults:setIamPolicy', { policy: { version: 1, bindings } });
    expect(v1.status).toBe(400);
    expect(v1.body.error.message).toMatch(/^A policy with conditional role bindings must specify version 3\./);
    const v3 = await post('/tables/adults:setIamPolicy', { policy: { version: 3, bindings } });
    expect(v3.status, v3.text).toBe(200);
    expect(v3.body).toMatchObject({ version: 3, bindings });
    const low = await post('/tables/adults:getIamPolicy', { options: { requestedPolicyVersion: 1 } });
    expect(low.status).toBe(400);
    expect(low.body.error.message).toBe(
      'Requested policy version (1) cannot be less than the existing policy version (3). For more information, please refer to https://cloud.google.com/iam/docs/policies#versions.',
    );
    expect((await post('/tables/adults:getIamPolicy', { options: { requestedPolicyVersion: 3 } })).body.version).toBe(3);
    expect((await post('/tables/adults:getIamPolicy', { options: { requestedPolicyVersion: 2 } })).status).toBe(400);
    // Version 3 without conditions is stored as version 1 ("the response uses version 1").
    const plain = await post('/tables/adults:setIamPolicy', { policy: { version: 3, bindings: [{ role: 'roles/bigquery.dataViewer', members: ['user:x@example.com'] }] } });
    expect(plain.body.version).toBe(1);
  });

  it('updateMask limits what is replaced', async () => {
    const r1 = await post('/tables/adults:setIamPolicy', { policy: { bindings: [{ role: 'roles/bigquery.dataViewer', members: ['user:keep@example.com'] }] } });
    const r2 = await post('/tables/adults:setIamPolicy', { policy: { bindings: [], auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }] }, updateMask: 'auditConfigs' });
    expect(r2.status, r2.text).toBe(200);
    expect(r2.body.bindings).toEqual(r1.body.bindings);
    expect(r2.body.auditConfigs).toEqual([{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }]);
    const bad = await post('/tables/adults:setIamPolicy', { policy: {}, updateMask: 'owners' });
    expect(bad.status).toBe(400);
  });

  it('a missing table, view or dataset is the usual 404; the request body is validated', async () => {
    const e = await errorOf(t.bq.dataset('iam_ds').table('nope').getIamPolicy());
    expect(e.code).toBe(404);
    expect(e.message).toBe(`Not found: Table ${P}:iam_ds.nope`);
    const d = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/datasets/no_ds/tables/x:setIamPolicy`, { policy: {} });
    expect(d.body.error.message).toBe(`Not found: Dataset ${P}:no_ds`);
    const bad = await post('/tables/people:getIamPolicy', { option: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('Unknown name "option"');
    expect((await post('/tables/people:fooIamPolicy')).status).toBe(404);
  });

  it('a policy goes with its table: a table created again under the same name has none', async () => {
    const [tbl] = await t.bq.dataset('iam_ds').createTable('temp_t', { schema: 'a:string' });
    await tbl.setIamPolicy({ bindings: [{ role: 'roles/bigquery.dataViewer', members: ['user:x@example.com'] }] });
    await tbl.delete();
    const [again] = await t.bq.dataset('iam_ds').createTable('temp_t', { schema: 'a:string' });
    expect((await again.getIamPolicy())[0]).toEqual({ version: 1, etag: 'ACAB' });
    await t.bq.query('DROP TABLE iam_ds.temp_t');
  });
});

describe('tables.testIamPermissions', () => {
  const asked = ['bigquery.tables.get', 'bigquery.tables.getData', 'bigquery.tables.update', 'bigquery.tables.setIamPolicy'];
  const as = (caller: string, groups = '') => ({ [CALLER_HEADER]: caller, ...(groups ? { [GROUPS_HEADER]: groups } : {}) });

  beforeAll(async () => {
    await t.bq.dataset('iam_ds').createTable('perm_t', { schema: 'a:string' });
    await t.bq.dataset('iam_ds').table('perm_t').setIamPolicy({
      bindings: [
        { role: 'roles/bigquery.dataViewer', members: ['user:viewer@example.com', 'group:readers@example.com'] },
        { role: 'roles/bigquery.dataEditor', members: ['user:editor@example.com'] },
        { role: 'roles/bigquery.metadataViewer', members: ['domain:corp.example'] },
      ],
    });
  });

  it('without identity headers the caller is the project owner: every permission asked', async () => {
    const [res] = await t.bq.dataset('iam_ds').table('perm_t').testIamPermissions(asked);
    expect(res.permissions).toEqual(asked);
  });

  it('with an identity: the permissions of the roles bound to it, its groups or its domain', async () => {
    const perms = async (headers: Record<string, string>) => (await post('/tables/perm_t:testIamPermissions', { permissions: asked }, headers)).body.permissions ?? [];
    expect(await perms(as('viewer@example.com'))).toEqual(['bigquery.tables.get', 'bigquery.tables.getData']);
    expect(await perms(as('editor@example.com'))).toEqual(['bigquery.tables.get', 'bigquery.tables.getData', 'bigquery.tables.update']);
    expect(await perms(as('someone@example.com', 'readers@example.com'))).toEqual(['bigquery.tables.get', 'bigquery.tables.getData']);
    expect(await perms(as('x@corp.example'))).toEqual(['bigquery.tables.get']);
    expect(await perms(as('stranger@example.com'))).toEqual([]);
    // Nothing granted answers an empty TestIamPermissionsResponse.
    expect((await post('/tables/perm_t:testIamPermissions', { permissions: asked }, as('stranger@example.com'))).body).toEqual({});
  });

  it('allUsers grants everyone; permissions of other resource types are never answered', async () => {
    await post('/tables/adults:setIamPolicy', { policy: { bindings: [{ role: 'roles/bigquery.dataViewer', members: ['allUsers'] }] } });
    const r = await post('/tables/adults:testIamPermissions', { permissions: ['bigquery.tables.getData', 'bigquery.datasets.get', 'bigquery.tables.delete'] }, as('anyone@example.com'));
    expect(r.body.permissions).toEqual(['bigquery.tables.getData']);
  });

  it("the dataset's access entries are inherited: READER is a Data Viewer, WRITER a Data Editor", async () => {
    const [ds] = await t.bq.createDataset('iam_acl_ds', {
      access: [
        { role: 'OWNER', specialGroup: 'projectOwners' },
        { role: 'READER', userByEmail: 'dsreader@example.com' },
        { role: 'WRITER', groupByEmail: 'writers@example.com' },
      ],
    } as never);
    await ds.createTable('acl_t', { schema: 'a:string' });
    const url = `/bigquery/v2/projects/${P}/datasets/iam_acl_ds/tables/acl_t:testIamPermissions`;
    const perms = async (headers: Record<string, string>) => (await http(t.emu.url, 'POST', url, { permissions: asked }, headers)).body.permissions ?? [];
    expect(await perms(as('dsreader@example.com'))).toEqual(['bigquery.tables.get', 'bigquery.tables.getData']);
    expect(await perms(as('w@example.com', 'writers@example.com'))).toEqual(['bigquery.tables.get', 'bigquery.tables.getData', 'bigquery.tables.update']);
    expect(await perms(as('nobody@example.com'))).toEqual([]);
  });

  it('wildcards are refused with IAM\'s text; a missing table answers no permissions', async () => {
    const e = await errorOf(t.bq.dataset('iam_ds').table('perm_t').testIamPermissions(['bigquery.*']));
    expect(e.code).toBe(400);
    expect(e.message).toBe('Permission bigquery.* is not valid.');
    const [res] = await t.bq.dataset('iam_ds').table('no_such_table').testIamPermissions(['bigquery.tables.get']);
    expect(res).toEqual({});
  });
});

describe('routines and row access policies', () => {
  it('routines.getIamPolicy / setIamPolicy', async () => {
    expect((await post('/routines/twice:getIamPolicy')).body).toEqual({ version: 1, etag: 'ACAB' });
    const bindings = [{ role: 'roles/bigquery.dataViewer', members: ['user:fn@example.com'] }];
    const set = await post('/routines/twice:setIamPolicy', { policy: { bindings } });
    expect(set.status, set.text).toBe(200);
    expect((await post('/routines/twice:getIamPolicy')).body).toEqual(set.body);
    const missing = await post('/routines/nope:getIamPolicy');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe(`Not found: Routine ${P}:iam_ds.nope`);
    // The policy goes with the routine.
    await t.bq.query('CREATE OR REPLACE FUNCTION iam_ds.gone(x INT64) AS (x)');
    await post('/routines/gone:setIamPolicy', { policy: { bindings } });
    await t.bq.query('DROP FUNCTION iam_ds.gone');
    await t.bq.query('CREATE FUNCTION iam_ds.gone(x INT64) AS (x)');
    expect((await post('/routines/gone:getIamPolicy')).body).toEqual({ version: 1, etag: 'ACAB' });
  });

  it("a row access policy's IAM policy is its grantee list as Filtered Data Viewers", async () => {
    const r = await post('/tables/people/rowAccessPolicies/young:getIamPolicy');
    expect(r.status, r.text).toBe(200);
    expect(r.body.version).toBe(1);
    expect(r.body.bindings).toEqual([{ role: 'roles/bigquery.filteredDataViewer', members: ['group:team@example.com', 'user:alice@example.com'] }]);
    const missing = await post('/tables/people/rowAccessPolicies/nope:getIamPolicy');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe(`Not found: Row access policy nope on table ${P}.iam_ds.people`);
  });

  it('rowAccessPolicies.testIamPermissions answers getFilteredData to the grantees', async () => {
    const ask = { permissions: ['bigquery.rowAccessPolicies.getFilteredData'] };
    const p = '/tables/people/rowAccessPolicies/young:testIamPermissions';
    expect((await post(p, ask, { [CALLER_HEADER]: 'alice@example.com' })).body.permissions).toEqual(ask.permissions);
    expect((await post(p, ask, { [CALLER_HEADER]: 'bob@example.com', [GROUPS_HEADER]: 'team@example.com' })).body.permissions).toEqual(ask.permissions);
    expect((await post(p, ask, { [CALLER_HEADER]: 'eve@example.com' })).body).toEqual({});
    expect((await post('/tables/people/rowAccessPolicies/nope:testIamPermissions', ask)).body).toEqual({});
  });

  it('routines have no testIamPermissions and row access policies no setIamPolicy (not in the discovery document)', async () => {
    expect((await post('/routines/twice:testIamPermissions', { permissions: ['bigquery.routines.get'] })).status).toBe(404);
    expect((await post('/tables/people/rowAccessPolicies/young:setIamPolicy', { policy: {} })).status).toBe(404);
  });
});

describe('persistence', () => {
  it('a policy survives a restart with --data-dir', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-iam-'));
    try {
      let e = await startTestEmulator({ projectId: 'iam-dd', dataDir: dir, grpcPort: 0 });
      let set;
      try {
        const [ds] = await e.bq.createDataset('d');
        const [tbl] = await ds.createTable('t', { schema: 'a:string' });
        [set] = await tbl.setIamPolicy({ bindings: [{ role: 'roles/bigquery.dataViewer', members: ['user:p@example.com'] }] });
      } finally {
        await e.emu.close();
      }
      e = await startTestEmulator({ projectId: 'iam-dd', dataDir: dir, grpcPort: 0 });
      try {
        expect((await e.bq.dataset('d').table('t').getIamPolicy())[0]).toEqual(set);
      } finally {
        await e.emu.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

const BQ = findBq();
describe.skipIf(!BQ)(`bq get-iam-policy / set-iam-policy${BQ ? '' : ' (skipped: the `bq` command is not installed on this machine)'}`, () => {
  let cli: BqRunner;
  let dir: string;
  beforeAll(async () => {
    cli = bqRunner(BQ!, t.emu.url, P);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-iam-cli-'));
    await t.bq.dataset('iam_ds').createTable('cli_t', { schema: 'a:string' });
  });
  afterAll(() => {
    cli?.cleanup();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('bq get-iam-policy prints the empty policy; bq set-iam-policy stores a file; a stale etag fails', async () => {
    const get0 = await cli.run('get-iam-policy', `${P}:iam_ds.cli_t`);
    expect(get0.code, get0.stdout + get0.stderr).toBe(0);
    expect(JSON.parse(get0.stdout)).toEqual({ version: 1, etag: 'ACAB' });
    const file = path.join(dir, 'policy.json');
    fs.writeFileSync(file, JSON.stringify({ bindings: [{ role: 'roles/bigquery.dataViewer', members: ['user:cli@example.com'] }], etag: 'ACAB' }));
    const set = await cli.run('set-iam-policy', `${P}:iam_ds.cli_t`, file);
    expect(set.code, set.stdout + set.stderr).toBe(0);
    expect(JSON.parse(set.stdout).bindings).toEqual([{ role: 'roles/bigquery.dataViewer', members: ['user:cli@example.com'] }]);
    const get1 = await cli.run('get-iam-policy', `${P}:iam_ds.cli_t`);
    expect(JSON.parse(get1.stdout)).toEqual(JSON.parse(set.stdout));
    const stale = await cli.run('set-iam-policy', `${P}:iam_ds.cli_t`, file);
    expect(stale.code).not.toBe(0);
    expect((stale.stdout + stale.stderr).replace(/\s+/g, ' ')).toContain('There were concurrent policy changes. Please retry the whole read-modify-write with exponential backoff.');
  });

  it('bq add-iam-policy-binding / remove-iam-policy-binding read, modify and write the policy', async () => {
    const add = await cli.run('add-iam-policy-binding', '--member=user:added@example.com', '--role=roles/bigquery.dataEditor', `${P}:iam_ds.cli_t`);
    expect(add.code, add.stdout + add.stderr).toBe(0);
    const [after] = await t.bq.dataset('iam_ds').table('cli_t').getIamPolicy();
    expect(after.bindings).toContainEqual({ role: 'roles/bigquery.dataEditor', members: ['user:added@example.com'] });
    const rm = await cli.run('remove-iam-policy-binding', '--member=user:added@example.com', '--role=roles/bigquery.dataEditor', `${P}:iam_ds.cli_t`);
    expect(rm.code, rm.stdout + rm.stderr).toBe(0);
    const [final] = await t.bq.dataset('iam_ds').table('cli_t').getIamPolicy();
    expect((final.bindings ?? []).map((b) => b.role)).not.toContain('roles/bigquery.dataEditor');
  });
});
