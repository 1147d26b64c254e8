/**
 * The REST front end under hostile or mistaken requests: every client mistake is a 4xx in Google's
 * error shape (never a 5xx, never a hang), pathological JSON never reaches a handler or the store,
 * and the network guards refuse what a web page could send (cross-site form posts, DNS rebinding,
 * foreign origins). Raw HTTP (node:http, to set any Host/Origin/Content-Type) plus the real client.
 *
 * Expected texts: Google's API front end (`Invalid JSON payload received. Unknown name … Cannot find
 * field.`, `… Proto field is not repeating, cannot start list.` as quoted in
 * https://github.com/r-dbi/bigrquery/pull/280, `Invalid value at '…' (TYPE_STRING), false`) and
 * BigQuery's request size limit (https://cloud.google.com/bigquery/quotas "Maximum request size
 * 10 MB"; text `Request payload size exceeds the limit: 10485760 bytes.` as answered in
 * https://github.com/googleapis/python-bigquery-pandas/issues/82).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { PassThrough } from 'node:stream';
import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { startEmulator, type Emulator } from '../src/server/server.js';
import { discoveryDocument } from '../src/server/rest/discovery.js';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

/** One HTTP request with exactly the given headers (Host and Content-Type included). */
function raw(base: string, method: string, path: string, opts: { body?: string | Buffer; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<RawAnswer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...(opts.headers ?? {}) };
    if (opts.body !== undefined) headers['content-length'] = Buffer.byteLength(opts.body);
    const req = http.request({ host: u.hostname, port: u.port, method, path, headers, setHost: !('host' in headers) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: any;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.setTimeout(opts.timeoutMs ?? 10_000, () => req.destroy(new Error(`no answer in ${opts.timeoutMs ?? 10_000} ms: ${method} ${path.slice(0, 120)}`)));
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** Google's error envelope with a 4xx status. */
function expectGoogleError(r: RawAnswer, status: number, reason?: string): void {
  expect(r.status, r.text.slice(0, 300)).toBe(status);
  expect(r.json?.error?.code).toBe(status);
  expect(typeof r.json?.error?.message).toBe('string');
  expect(r.json.error.errors?.[0]?.domain).toBe('global');
  if (reason) expect(r.json.error.errors[0].reason).toBe(reason);
}

let t: TestEmulator;
let base: string;
const P = 'harden-proj';
const D = 'ds';

const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);

beforeAll(async () => {
  t = await startTestEmulator({ projectId: P, dataset: D });
  base = t.emu.url;
  await t.bq.dataset(D).createTable('t', { schema: [{ name: 'x', type: 'INT64' }] });
}, 60_000);

afterAll(async () => {
  await t?.emu.close();
});

describe('request bodies are validated against the discovery document', () => {
  const post = (path: string, body: unknown) => raw(base, 'POST', `/bigquery/v2/projects/${P}${path}`, { body: JSON.stringify(body), headers: JSON_TYPE });

  it('answers an unknown field with the front end\'s "Cannot find field" text', async () => {
    const r = await post('/datasets', { datasetReference: { datasetId: 'nope' }, x: 1 });
    expectGoogleError(r, 400, 'invalid');
    expect(r.json.error.message).toBe(`Invalid JSON payload received. Unknown name "x" at 'dataset': Cannot find field.`);
    expect((await raw(base, 'GET', `/bigquery/v2/projects/${P}/datasets/nope`)).status).toBe(404);
  });

  it('answers jobReference.jobId false with "Invalid value at \'job.job_reference.job_id\' (TYPE_STRING), false" (was a 500)', async () => {
    const r = await post('/jobs', { jobReference: { jobId: false }, configuration: { query: { query: 'SELECT 1' } } });
    expectGoogleError(r, 400, 'invalid');
    expect(r.json.error.message).toBe(`Invalid value at 'job.job_reference.job_id' (TYPE_STRING), false`);
  });

  it('cuts a long wrong-typed value after 200 characters of its JSON, with …', async () => {
    // The front end prints the value's JSON shortened (the same form as the `false` case above).
    const useLegacySql = `é\u0000${'x'.repeat(1_000_000)}`;
    const r = await post('/jobs', { configuration: { query: { query: 'SELECT 1', useLegacySql } } });
    expectGoogleError(r, 400, 'invalid');
    expect(r.json.error.message).toBe(`Invalid value at 'job.configuration.query.use_legacy_sql' (TYPE_BOOL), ${JSON.stringify(useLegacySql).slice(0, 200)}…`);
  });

  it('answers a list where one value belongs with "Proto field is not repeating, cannot start list."', async () => {
    const r = await post(`/datasets/${D}/tables`, { tableReference: { tableId: 'tp' }, timePartitioning: { type: ['DAY'] } });
    expectGoogleError(r, 400, 'invalid');
    expect(r.json.error.message).toBe(`Invalid JSON payload received. Unknown name "type" at 'table.time_partitioning': Proto field is not repeating, cannot start list.`);
  });

  it('answers schema.fields as an object with a 400 (was a 500 "fields.map is not a function")', async () => {
    const r = await post(`/datasets/${D}/tables`, { tableReference: { tableId: 'sf' }, schema: { fields: { name: 'x', type: 'STRING' } } });
    expectGoogleError(r, 400, 'invalid');
    expect(r.json.error.message).toMatch(/^Invalid value at 'table\.schema\.fields' /);
  });

  it('a table stored with a snapshotDefinition.snapshotTime that is no time does not break INFORMATION_SCHEMA.TABLES (was a 500 "NaN cannot be converted to a BigInt", found by the fuzz run)', async () => {
    await post(`/datasets/${D}/tables`, { tableReference: { tableId: 'badsnap' }, schema: { fields: [{ name: 'x', type: 'STRING' }] }, snapshotDefinition: { snapshotTime: 'not a time', baseTableReference: { projectId: P, datasetId: D, tableId: 'nope' } } });
    const r = await post('/queries', { query: `SELECT table_name FROM \`${P}.${D}.INFORMATION_SCHEMA.TABLES\` ORDER BY table_name`, useLegacySql: false });
    expect(r.status).toBe(200);
  });

  it('answers JSON that does not parse in the protobuf parser\'s words, with an excerpt and a caret', async () => {
    const r = await raw(base, 'POST', `/bigquery/v2/projects/${P}/queries`, { body: '{"query": "SELECT 1" "x": 2}', headers: JSON_TYPE });
    expectGoogleError(r, 400, 'invalid');
    expect(r.json.error.message).toBe('Invalid JSON payload received. Expected , or } after key:value pair.\n{"query": "SELECT 1" "x": 2}\n                     ^');
  });

  it('refuses a body that is not an object, and a non-string label value', async () => {
    expectGoogleError(await post('/queries', [1, 2]), 400, 'invalid');
    const r = await raw(base, 'PATCH', `/bigquery/v2/projects/${P}/datasets/${D}`, { body: JSON.stringify({ labels: { a: { b: 1 } } }), headers: JSON_TYPE });
    expectGoogleError(r, 400, 'invalid');
  });

  it('surfaces through the official client as a 400 invalid ApiError (no retries, nothing stored)', async () => {
    const e = await errorOf(t.bq.dataset(D).setMetadata({ labels: { team: ['a', 'b'] } }));
    expect(e.code).toBe(400);
    expect(e.errors?.[0]?.reason).toBe('invalid');
    expect(e.message).toBe(`Invalid JSON payload received. Unknown name "team" at 'dataset.labels': Proto field is not repeating, cannot start list.`);
    const [meta] = await t.bq.dataset(D).getMetadata();
    expect(meta.labels?.team).toBeUndefined();
  });

  it('requires documented-required fields, except the resource\'s own ones in a patch', async () => {
    const noType = await post(`/datasets/${D}/tables`, { tableReference: { tableId: 'nt' }, schema: { fields: [{ name: 'a' }] } });
    expectGoogleError(noType, 400, 'invalid');
    expect(noType.json.error.message).toBe('Required parameter is missing: schema.fields.type');
    const body = { routineReference: { routineId: 'rr' }, routineType: 'SCALAR_FUNCTION', language: 'SQL', definitionBody: '1' };
    expect((await post(`/datasets/${D}/routines`, body)).status).toBe(200);
    const { definitionBody: _, ...noBody } = body;
    expectGoogleError(await post(`/datasets/${D}/routines`, { ...noBody, routineReference: { routineId: 'rr2' } }), 400, 'invalid');
    const patched = await raw(base, 'PATCH', `/bigquery/v2/projects/${P}/datasets/${D}/routines/rr`, { body: JSON.stringify({ description: 'patched' }), headers: JSON_TYPE });
    expect(patched.status, patched.text.slice(0, 300)).toBe(200);
  });

  it('refuses a wrong-typed query parameter (maxResults=abc) instead of ignoring it', async () => {
    const r = await raw(base, 'GET', `/bigquery/v2/projects/${P}/jobs?maxResults=abc`);
    expectGoogleError(r, 400, 'invalid');
    expect(r.json.error.message).toBe(`Invalid value at 'max_results' (TYPE_UINT32), "abc"`);
  });

  it('still takes what the official client sends (query parameters as raw numbers and booleans)', async () => {
    const [rows] = await t.bq.query({ query: 'SELECT @n + 1 AS n, @b AS b', params: { n: 41, b: true } });
    expect(rows).toEqual([{ n: 42, b: true }]);
  });

  it('answers rowAccessPolicies.insert without rowAccessPolicyReference.projectId (was: no answer in 10 s)', async () => {
    const r = await post(`/datasets/${D}/tables/t/rowAccessPolicies`, { rowAccessPolicyReference: { datasetId: D, tableId: 't', policyId: 'p1' }, filterPredicate: 'x > 0' });
    expect(r.status).toBe(200);
    expect(r.json.rowAccessPolicyReference).toEqual({ projectId: P, datasetId: D, tableId: 't', policyId: 'p1' });
  });
});

describe('pathological nesting never reaches a handler or the store', () => {
  it('refuses a 5,000-deep label value in datasets.patch; datasets.get and list keep working', async () => {
    const r = await raw(base, 'PATCH', `/bigquery/v2/projects/${P}/datasets/${D}`, { body: `{"labels":{"a":${deepArray(5000)}}}`, headers: JSON_TYPE });
    expectGoogleError(r, 400, 'invalid');
    expect(r.json.error.message).toBe(`Invalid JSON payload received. Message too deep. Max recursion depth reached for key 'a'`);
    expect((await raw(base, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}`)).status).toBe(200);
    expect((await raw(base, 'GET', `/bigquery/v2/projects/${P}/datasets`)).status).toBe(200);
  });

  it('refuses a 5,000-deep label value in jobs.insert; jobs.get and jobs.list keep working', async () => {
    const body = `{"jobReference":{"jobId":"deep_1"},"configuration":{"labels":{"a":${deepArray(5000)}},"query":{"query":"SELECT 1"}}}`;
    expectGoogleError(await raw(base, 'POST', `/bigquery/v2/projects/${P}/jobs`, { body, headers: JSON_TYPE }), 400, 'invalid');
    expect((await raw(base, 'GET', `/bigquery/v2/projects/${P}/jobs/deep_1`)).status).toBe(404);
    expect((await raw(base, 'GET', `/bigquery/v2/projects/${P}/jobs`)).status).toBe(200);
  });

  it('refuses deep nesting anywhere: an insertAll row, a media upload\'s job resource', async () => {
    const rows = `{"rows":[{"json":{"x":${deepArray(5000)}}}]}`;
    expectGoogleError(await raw(base, 'POST', `/bigquery/v2/projects/${P}/datasets/${D}/tables/t/insertAll`, { body: rows, headers: JSON_TYPE }), 400, 'invalid');
    const b = 'b0undary';
    const multipart = `--${b}\r\nContent-Type: application/json\r\n\r\n{"configuration":{"load":{"labels":${deepArray(5000)}}}}\r\n--${b}\r\nContent-Type: text/csv\r\n\r\n1\r\n--${b}--\r\n`;
    const r = await raw(base, 'POST', `/upload/bigquery/v2/projects/${P}/jobs?uploadType=multipart`, { body: multipart, headers: { 'content-type': `multipart/related; boundary=${b}` } });
    expectGoogleError(r, 400, 'invalid');
  });

  it('counts only structure, not brackets inside strings (escaped quotes included)', async () => {
    const description = `say \\"${'['.repeat(500)}\\" and \\\\`;
    const r = await raw(base, 'PATCH', `/bigquery/v2/projects/${P}/datasets/${D}`, { body: `{"description":"${description}"}`, headers: JSON_TYPE });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.json.description).toBe(JSON.parse(`"${description}"`));
  });

  it('still takes legitimate nesting (a 15-level RECORD schema)', async () => {
    let field: any = { name: 'leaf', type: 'INT64' };
    for (let i = 0; i < 14; i++) field = { name: `r${i}`, type: 'RECORD', fields: [field] };
    const r = await raw(base, 'POST', `/bigquery/v2/projects/${P}/datasets/${D}/tables`, { body: JSON.stringify({ tableReference: { tableId: 'nested15' }, schema: { fields: [field] } }), headers: JSON_TYPE });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
  });
});

describe("fastify's own errors answer Google's error shape", () => {
  it('a malformed URL is 400 badRequest (was FST_ERR_BAD_URL)', async () => {
    const r = await raw(base, 'GET', `/bigquery/v2/projects/${P}/datasets/%E0%A4%A`);
    expectGoogleError(r, 400, 'badRequest');
    expect(r.text).not.toContain('FST_');
  });

  it('an over-long path parameter is 400 invalid (was FST_ERR_MAX_PARAM_LENGTH); a 1,024-character id is looked up', async () => {
    const r = await raw(base, 'GET', `/bigquery/v2/projects/${P}/datasets/${'a'.repeat(5000)}`);
    expectGoogleError(r, 400, 'invalid');
    expect(r.text).not.toContain('FST_');
    expectGoogleError(await raw(base, 'GET', `/bigquery/v2/projects/${P}/datasets/${'a'.repeat(1024)}`), 404, 'notFound');
  });

  it('a URL over the HTTP parser\'s 16 KiB limit (a 100,000-character table name) is 431 in Google\'s shape, and the server keeps serving', async () => {
    const r = await raw(base, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}/tables/${'t'.repeat(100_000)}`);
    expectGoogleError(r, 431, 'badRequest');
    expect((await raw(base, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}`)).status).toBe(200);
  });

  it('a body over 10 MB is 400 "Request payload size exceeds the limit: 10485760 bytes."', async () => {
    const body = JSON.stringify({ query: `SELECT '${'x'.repeat(10 * 1024 * 1024)}'` });
    const r = await raw(base, 'POST', `/bigquery/v2/projects/${P}/queries`, { body, headers: JSON_TYPE, timeoutMs: 30_000 });
    expectGoogleError(r, 400, 'badRequest');
    expect(r.json.error.message).toBe('Request payload size exceeds the limit: 10485760 bytes.');
  });

  it('a handler that throws answers 500 backendError and is logged with its stack', async () => {
    const log = new PassThrough();
    let logged = '';
    log.on('data', (c: Buffer) => (logged += c.toString()));
    const emu: Emulator = await startEmulator({ port: 0, projectId: 'bug-proj', logStream: log });
    try {
      // Simulate a bug inside a handler.
      emu.engine.catalog.getDataset = () => {
        throw new TypeError('simulated handler bug');
      };
      const r = await raw(emu.url, 'GET', '/bigquery/v2/projects/bug-proj/datasets/x');
      expectGoogleError(r, 500, 'backendError');
      expect(logged).toContain('simulated handler bug');
      expect(logged).toMatch(/TypeError: simulated handler bug\\n\s+at /);
    } finally {
      await emu.close();
    }
  });
});

describe('network guards', () => {
  const query = JSON.stringify({ query: 'SELECT 17 AS n' });
  const jobsPath = `/bigquery/v2/projects/${P}/queries`;

  it('refuses a cross-site form post (text/plain, form encodings, no content type) with 403 before anything runs', async () => {
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined]) {
      const r = await raw(base, 'POST', jobsPath, { body: query, headers: type ? { 'content-type': type } : {} });
      expectGoogleError(r, 403, 'accessDenied');
    }
    const [jobs] = await t.bq.getJobs();
    const ran = await Promise.all(jobs.map(async (j) => (await j.getMetadata())[0].configuration?.query?.query));
    expect(ran).not.toContain('SELECT 17 AS n');
  });

  it('media uploads take their own content types but not the cross-site ones', async () => {
    const up = `/upload/bigquery/v2/projects/${P}/jobs?uploadType=media`;
    expectGoogleError(await raw(base, 'POST', up, { body: '1\n', headers: { 'content-type': 'text/plain' } }), 403, 'accessDenied');
    // application/octet-stream reaches the upload handler (which answers BigQuery's own 400 for this upload type).
    const r = await raw(base, 'POST', up, { body: '1\n', headers: { 'content-type': 'application/octet-stream' } });
    expectGoogleError(r, 400, 'invalid');
  });

  it('refuses a Host the emulator does not serve (DNS rebinding) with 403; loopback names and IP literals are served', async () => {
    const port = new URL(base).port;
    expectGoogleError(await raw(base, 'POST', jobsPath, { body: query, headers: { ...JSON_TYPE, host: `attacker.example:${port}` } }), 403, 'accessDenied');
    expectGoogleError(await raw(base, 'GET', `/bigquery/v2/projects/${P}/datasets`, { headers: { host: 'rebind.attacker.example' } }), 403, 'accessDenied');
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'LOCALHOST']) {
      const r = await raw(base, 'POST', jobsPath, { body: query, headers: { ...JSON_TYPE, host } });
      expect(r.status, host).toBe(200);
    }
  });

  it('refuses a foreign Origin and sends no CORS headers by default', async () => {
    expectGoogleError(await raw(base, 'POST', jobsPath, { body: query, headers: { ...JSON_TYPE, origin: 'https://evil.example' } }), 403, 'accessDenied');
    const pre = await raw(base, 'OPTIONS', jobsPath, { headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(403);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const same = await raw(base, 'GET', `/bigquery/v2/projects/${P}/datasets`, { headers: { origin: base } });
    expect(same.status).toBe(200);
    expect(same.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('the official client works through http://localhost:PORT as well as 127.0.0.1', async () => {
    const bq = new BigQuery({ projectId: P, apiEndpoint: base.replace('127.0.0.1', 'localhost'), authClient: new PassThroughClient() as never });
    const [rows] = await bq.query('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('--allowed-host and --cors-origin widen exactly what they name', async () => {
    const emu = await startEmulator({ port: 0, projectId: 'cors-proj', allowedHosts: ['bq.internal'], corsOrigins: ['http://localhost:3000'] });
    try {
      const port = new URL(emu.url).port;
      const list = '/bigquery/v2/projects/cors-proj/datasets';
      expect((await raw(emu.url, 'GET', list, { headers: { host: `bq.internal:${port}` } })).status).toBe(200);
      expectGoogleError(await raw(emu.url, 'GET', list, { headers: { host: `other.internal:${port}` } }), 403, 'accessDenied');
      const pre = await raw(emu.url, 'OPTIONS', '/bigquery/v2/projects/cors-proj/queries', {
        headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('http://localhost:3000');
      expect(pre.headers['access-control-allow-methods']).toContain('POST');
      const r = await raw(emu.url, 'POST', '/bigquery/v2/projects/cors-proj/queries', { body: query, headers: { ...JSON_TYPE, origin: 'http://localhost:3000' } });
      expect(r.status).toBe(200);
      expect(r.headers['access-control-allow-origin']).toBe('http://localhost:3000');
      expectGoogleError(await raw(emu.url, 'OPTIONS', '/bigquery/v2/projects/cors-proj/queries', { headers: { origin: 'http://localhost:4000', 'access-control-request-method': 'POST' } }), 403, 'accessDenied');
    } finally {
      await emu.close();
    }
  });
});

describe('generated sweep: every REST method of the discovery document with malformed input', () => {
  interface Method {
    id: string;
    httpMethod: string;
    flatPath: string;
    request?: { $ref: string };
    parameters?: Record<string, { location: string; type?: string; format?: string }>;
  }
  const doc = discoveryDocument() as { resources: Record<string, { methods: Record<string, Method> }>; schemas: Record<string, { properties?: Record<string, any> }> };
  const methods = Object.values(doc.resources).flatMap((r) => Object.values(r.methods));
  const ids: Record<string, string> = { projectsId: P, datasetsId: D, tablesId: 't', jobsId: 'sweep_job', queriesId: 'sweep_job', routinesId: 'r1', rowAccessPoliciesId: 'p1', modelsId: 'm1' };
  const pathOf = (m: Method) => '/bigquery/v2/' + m.flatPath.replace(/\{(\w+)\}/g, (_, k: string) => ids[k] ?? 'x');

  /** A value of the wrong JSON type for a discovery property. */
  function wrongValue(p: any): unknown[] {
    if (p.$ref || p.type === 'object') return ['str', [1]];
    if (p.type === 'array') return [{ a: 1 }, 'str'];
    if (p.type === 'string' && !p.format) return [{ o: 1 }, [1], true];
    if (p.type === 'string' || p.type === 'integer' || p.type === 'number') return ['abc', { o: 1 }];
    if (p.type === 'boolean') return ['maybe', 3];
    return [];
  }

  it('answers each malformed body with a 4xx in Google\'s shape (no 5xx, no hang)', async () => {
    await raw(base, 'POST', `/bigquery/v2/projects/${P}/jobs`, { body: JSON.stringify({ jobReference: { jobId: 'sweep_job' }, configuration: { query: { query: 'SELECT 1' } } }), headers: JSON_TYPE });
    const failures: string[] = [];
    let sent = 0;
    for (const m of methods.filter((x) => x.request)) {
      const schema = doc.schemas[m.request!.$ref];
      const bodies: string[] = ['[]', '"text"', '17', '{"zz_unknown_field":1}', `{"a":${deepArray(5000)}}`, '{"unterminated": '];
      for (const [name, p] of Object.entries(schema.properties ?? {})) {
        for (const v of wrongValue(p)) bodies.push(JSON.stringify({ [name]: v }));
        bodies.push(`{${JSON.stringify(name)}:${deepArray(2000)}}`);
      }
      for (const body of bodies) {
        sent++;
        const r = await raw(base, m.httpMethod, pathOf(m), { body, headers: JSON_TYPE });
        const ok = r.status >= 400 && r.status < 500 && r.json?.error?.code === r.status && r.json.error.errors?.[0]?.reason;
        if (!ok) failures.push(`${m.id} ${body.slice(0, 80)} → ${r.status} ${r.text.slice(0, 160)}`);
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers each wrong-typed query parameter with 400 invalid', async () => {
    const failures: string[] = [];
    for (const m of methods) {
      for (const [name, p] of Object.entries(m.parameters ?? {})) {
        if (p.location !== 'query') continue;
        const bad = p.type === 'boolean' ? 'maybe' : p.type === 'integer' || p.format === 'uint64' || p.format === 'int64' ? 'abc' : undefined;
        if (!bad) continue;
        const r = await raw(base, m.httpMethod, `${pathOf(m)}?${encodeURIComponent(name)}=${bad}`, m.request ? { body: '{}', headers: JSON_TYPE } : {});
        // Methods the emulator does not serve answer 404; every served one refuses the value.
        if (!(r.status === 400 && r.json?.error?.errors?.[0]?.reason === 'invalid') && r.status !== 404) failures.push(`${m.id} ?${name}=${bad} → ${r.status} ${r.text.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
