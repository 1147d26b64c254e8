/**
 * projects.getServiceAccount and the project number it shares with projects.list.
 * Shape: GetServiceAccountResponse in src/server/rest/bigquery-v2-discovery.json; the address form
 * `bq-PROJECT_NUMBER@bigquery-encryption.iam.gserviceaccount.com` is the one BigQuery's CMEK page
 * (https://cloud.google.com/bigquery/docs/customer-managed-encryption) tells users to grant Cloud KMS roles to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { clientRequest, http } from './helpers/http.js';
import { bqRunner, findBq, type BqRunner } from './helpers/bq-cli.js';

let t: TestEmulator;
let P: string;

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'svc-acct-proj', grpcPort: 0 });
  P = t.projectId;
});
afterAll(async () => {
  await t?.emu.close();
});

const EMAIL = /^bq-(\d{12})@bigquery-encryption\.iam\.gserviceaccount\.com$/;

describe('projects.getServiceAccount', () => {
  it("answers the project's BigQuery encryption service account, numbered as projects.list numbers the project", async () => {
    const res = await clientRequest(t.bq, { uri: `${t.emu.url}/bigquery/v2/projects/${P}/serviceAccount` });
    expect(Object.keys(res).sort()).toEqual(['email', 'kind']);
    expect(res.kind).toBe('bigquery#getServiceAccountResponse');
    const m = EMAIL.exec(res.email);
    expect(m, res.email).not.toBeNull();
    const list = await clientRequest(t.bq, { uri: `${t.emu.url}/bigquery/v2/projects` });
    const p = list.projects.find((x: { id: string }) => x.id === P);
    expect(p.numericId).toBe(m![1]);
  });

  it('gives each project its own number, the same on every call and at both base paths', async () => {
    const a = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/serviceAccount`);
    const b = await http(t.emu.url, 'GET', `/projects/${P}/serviceAccount`);
    const other = await http(t.emu.url, 'GET', `/projects/another-proj/serviceAccount`);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(other.body.email).toMatch(EMAIL);
    expect(other.body.email).not.toBe(a.body.email);
  });

  it('is a GET only (a POST is a route miss, as for any path the API does not define)', async () => {
    const r = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/serviceAccount`, {});
    expect(r.status).toBe(404);
  });
});

const BQ = findBq();
describe.skipIf(!BQ)(`bq show --encryption_service_account${BQ ? '' : ' (skipped: the `bq` command is not installed on this machine)'}`, () => {
  let cli: BqRunner;
  beforeAll(() => {
    cli = bqRunner(BQ!, t.emu.url, P);
  });
  afterAll(() => cli?.cleanup());

  it('prints the service account', async () => {
    const r = await cli.run('show', '--encryption_service_account');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).ServiceAccountID).toMatch(EMAIL);
  });
});
