/**
 * Service-account keys bqemu issues (`bqemu credentials`, `emulator.credentials()`), driven by the
 * real google-auth-library: `GoogleAuth({ keyFile })` handed to `@google-cloud/bigquery`. Also the
 * key's token endpoint (the JWT-bearer grant Python's, Go's and Java's auth libraries send to
 * `token_uri`), `--require-auth` (BigQuery's 401 envelopes) and the key's identity as the caller of
 * row access policies.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BigQuery } from '@google-cloud/bigquery';
import { GoogleAuth, PassThroughClient } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator, type ServiceAccountKey } from '../src/cli/start-emulator.js';
import { errorOf } from './helpers/emulator.js';
import { findBq } from './helpers/bq-cli.js';

const P = 'cred-project';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-cred-'));
let open: RunningEmulator;
let locked: RunningEmulator;

const writeKey = (name: string, key: ServiceAccountKey) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(key));
  return file;
};
/**
 * google-auth-library (Node) posts the JWT-bearer grant to Google's own token URL whatever the
 * key's token_uri says; with `useJWTAccessWithScope` it sends a self-signed JWT to the API instead.
 */
const clientWithKey = (emu: RunningEmulator, keyFile: string) => {
  const auth = new GoogleAuth({ keyFile, scopes: 'https://www.googleapis.com/auth/bigquery' });
  auth.useJWTAccessWithScope = true;
  return new BigQuery({ projectId: P, apiEndpoint: emu.restUrl, authClient: auth as never });
};

/** An RFC 7523 assertion as the auth libraries build it (RS256 over header.claims, base64url). */
function assertion(key: ServiceAccountKey, claims: Record<string, unknown> = {}, signWith = key.private_key): string {
  const now = Math.floor(Date.now() / 1000);
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${enc({ alg: 'RS256', typ: 'JWT', kid: key.private_key_id })}.${enc({ iss: key.client_email, scope: 'https://www.googleapis.com/auth/bigquery', aud: key.token_uri, iat: now, exp: now + 3600, ...claims })}`;
  return `${head}.${crypto.sign('sha256', Buffer.from(head), signWith).toString('base64url')}`;
}
const tokenRequest = (key: ServiceAccountKey, form: Record<string, string>) =>
  fetch(key.token_uri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });

beforeAll(async () => {
  [open, locked] = await Promise.all([startEmulator({ projectId: P, dataset: 'ra' }), startEmulator({ projectId: P, requireAuth: true })]);
});
afterAll(async () => {
  await Promise.all([open?.stop(), locked?.stop()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('bqemu credentials', () => {
  it('the command prints a service-account key whose token_uri is the emulator', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['bin/bqemu.js', 'credentials', '--endpoint', 'http://127.0.0.1:9555', '--project', 'p1', '--email', 'ci@p1.iam.gserviceaccount.com']);
    const key = JSON.parse(stdout) as ServiceAccountKey;
    expect(key).toMatchObject({ type: 'service_account', project_id: 'p1', client_email: 'ci@p1.iam.gserviceaccount.com', token_uri: 'http://127.0.0.1:9555/token' });
    expect(crypto.createPrivateKey(key.private_key).asymmetricKeyType).toBe('rsa');
  });

  it('GoogleAuth({ keyFile }) drives @google-cloud/bigquery (against --require-auth, so the key is what lets it in)', async () => {
    const keyFile = writeKey('default.json', await locked.credentials());
    const [rows] = await clientWithKey(locked, keyFile).query('SELECT 6 * 7 AS answer');
    expect(rows).toEqual([{ answer: 42 }]);
  });

  it('the token endpoint exchanges a signed assertion for an access token the API accepts', async () => {
    const key = await locked.credentials('etl@cred-project.iam.gserviceaccount.com');
    const res = await tokenRequest(key, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: assertion(key) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; expires_in: number; token_type: string };
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBeGreaterThan(3500);
    expect(body.expires_in).toBeLessThanOrEqual(3600);
    const api = await fetch(`${locked.restUrl}/bigquery/v2/projects/${P}/datasets`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(api.status).toBe(200);
  });

  it('the token endpoint refuses a forged, expired or malformed request with OAuth errors', async () => {
    const key = await open.credentials();
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const grant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
    const forged = await tokenRequest(key, { grant_type: grant, assertion: assertion(key, {}, other as never) });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = await tokenRequest(key, { grant_type: grant, assertion: assertion(key, { iat: past, exp: past + 3600 }) });
    expect(expired.status).toBe(400);
    expect(((await expired.json()) as { error: string }).error).toBe('invalid_grant');
    const wrongGrant = await tokenRequest(key, { grant_type: 'client_credentials' });
    expect(wrongGrant.status).toBe(400);
    expect(((await wrongGrant.json()) as { error: string }).error).toBe('unsupported_grant_type');
  });
});

describe('--require-auth', () => {
  it('answers a request without credentials with BigQuery\'s 401 "Login Required."', async () => {
    const res = await fetch(`${locked.restUrl}/bigquery/v2/projects/${P}/datasets`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: {
        code: 401,
        message: 'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        errors: [{ message: 'Login Required.', domain: 'global', reason: 'required', location: 'Authorization', locationType: 'header' }],
        status: 'UNAUTHENTICATED',
      },
    });
  });

  it('refuses a token bqemu did not issue and accepts its own keys through the client', async () => {
    const anon = new BigQuery({ projectId: P, apiEndpoint: locked.restUrl, authClient: new PassThroughClient() as never });
    const e = await errorOf(anon.getDatasets());
    expect(e.code).toBe(401);
    expect(e.errors?.[0]).toMatchObject({ reason: 'required', location: 'Authorization' });
    const fake = await fetch(`${locked.restUrl}/bigquery/v2/projects/${P}/datasets`, { headers: { authorization: 'Bearer fake-token' } });
    expect(fake.status).toBe(401);
    expect(((await fake.json()) as { error: { errors: { reason: string; message: string }[] } }).error.errors[0]).toMatchObject({ reason: 'authError', message: 'Invalid Credentials' });
    const keyFile = writeKey('locked.json', await locked.credentials());
    const [rows] = await clientWithKey(locked, keyFile).query('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
    // The client's own GoogleAuth from keyFilename (as GOOGLE_APPLICATION_CREDENTIALS gives it), switched to self-signed JWTs.
    const own = new BigQuery({ projectId: P, apiEndpoint: locked.restUrl, keyFilename: keyFile });
    own.authClient.useJWTAccessWithScope = true;
    expect((await own.getDatasets())[0]).toEqual([]);
  });

  it('without the flag any bearer token (or none) is still accepted', async () => {
    const res = await fetch(`${open.restUrl}/bigquery/v2/projects/${P}/datasets`, { headers: { authorization: 'Bearer anything' } });
    expect(res.status).toBe(200);
  });
});

const bq = findBq();
const gcloud = bq && fs.existsSync(path.join(path.dirname(fs.realpathSync(bq)), 'gcloud')) ? path.join(path.dirname(fs.realpathSync(bq)), 'gcloud') : undefined;

describe('Python google-auth through gcloud and bq', () => {
  it.skipIf(!gcloud)(`gcloud auth activate-service-account gets its token from token_uri; bq runs with it under --require-auth${gcloud ? '' : ' (skipped: gcloud/bq not installed)'}`, async () => {
    const key = await locked.credentials('bq-user@cred-project.iam.gserviceaccount.com');
    const keyFile = writeKey('bq.json', key);
    const config = fs.mkdtempSync(path.join(dir, 'cloudsdk-'));
    // gcloud's token host property (auth/token_host) sends its later refreshes to bqemu too; activation uses the key's token_uri.
    const env = { ...process.env, CLOUDSDK_CONFIG: config, CLOUDSDK_CORE_DISABLE_PROMPTS: '1', CLOUDSDK_AUTH_TOKEN_HOST: key.token_uri };
    const run = promisify(execFile);
    await run(gcloud!, ['auth', 'activate-service-account', `--key-file=${keyFile}`], { env, timeout: 90_000 });
    const { stdout } = await run(bq!, [`--api=${locked.restUrl}`, `--project_id=${P}`, '--format=json', 'query', '--nouse_legacy_sql', 'SELECT 40 + 2 AS v'], { env, timeout: 90_000 });
    expect(JSON.parse(stdout)).toEqual([{ v: '42' }]);
  }, 180_000);
});

describe('the key is the caller of row access policies', () => {
  it('a policy granting the key\'s service account filters rows for that key only', async () => {
    const admin = new BigQuery({ projectId: P, apiEndpoint: open.restUrl, authClient: new PassThroughClient() as never });
    await admin.query(`CREATE TABLE ra.orders AS SELECT 1 AS id, 'US' AS country UNION ALL SELECT 2, 'EU' UNION ALL SELECT 3, 'US'`);
    await admin.query(`CREATE ROW ACCESS POLICY us ON ra.orders GRANT TO ('serviceAccount:us-reader@cred-project.iam.gserviceaccount.com') FILTER USING (country = 'US')`);
    const us = clientWithKey(open, writeKey('us.json', await open.credentials('us-reader@cred-project.iam.gserviceaccount.com')));
    const eu = clientWithKey(open, writeKey('eu.json', await open.credentials('eu-reader@cred-project.iam.gserviceaccount.com')));
    const ids = async (c: BigQuery) => ((await c.query('SELECT id FROM ra.orders ORDER BY id'))[0] as { id: number }[]).map((r) => r.id);
    // BigQuery: a caller sees the rows of the policies granting them; none granting → no rows.
    expect(await ids(us)).toEqual([1, 3]);
    expect(await ids(eu)).toEqual([]);
  });
});
