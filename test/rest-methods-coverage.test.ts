/**
 * Every method of BigQuery's discovery document (src/server/rest/bigquery-v2-discovery.json) is
 * served: a request to each method's path, with its HTTP method, reaches a handler — it never gets
 * the REST server's route-miss answer (`Not found: <METHOD> <url>`, src/errors/rest-errors.ts
 * `unknownRestPath`). Paths are the methods' `flatPath`s with made-up ids, under BigQuery's base
 * path `/bigquery/v2` (as the clients send them) and without it (as the emulator also serves them,
 * src/server/server.ts routedPath); what each handler then answers (a 404 for the made-up resource,
 * a 400 for the empty body) is tested in the method's own test file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';
import { discoveryDocument } from '../src/server/rest/discovery.js';

interface Method {
  id: string;
  httpMethod: string;
  flatPath?: string;
  path: string;
}

const methods: Method[] = Object.values((discoveryDocument() as unknown as { resources: Record<string, { methods: Record<string, Method> }> }).resources).flatMap((r) => Object.values(r.methods));

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'coverage-proj', grpcPort: 0 });
  await t.bq.createDataset('cov_ds');
});
afterAll(async () => {
  await t?.emu.close();
});

describe('every discovery method has a route', () => {
  it('the document lists the 46 methods of BigQuery API v2', () => {
    expect(methods.length).toBe(46);
  });

  it.each(methods.flatMap((m) => ['/bigquery/v2/', '/'].map((base) => [m.id, base, m] as const)))('%s under %s', async (_id, base, m) => {
    const path = (m.flatPath ?? m.path).replace(/\{projectsId\}|\{\+?projectId\}/g, 'coverage-proj').replace(/\{[^}]+\}/g, (x) => (/dataset/i.test(x) ? 'cov_ds' : 'no_such_id'));
    const body = ['POST', 'PUT', 'PATCH'].includes(m.httpMethod) ? {} : undefined;
    const r = await http(t.emu.url, m.httpMethod, `${base}${path}`, body);
    const message: string = r.body?.error?.message ?? '';
    expect(message.startsWith(`Not found: ${m.httpMethod} `), `${m.httpMethod} ${base}${path}: ${r.status} ${message}`).toBe(false);
    expect(r.status, `${m.httpMethod} ${base}${path}: ${r.text}`).toBeLessThan(500);
  });

  it('a method the document does not list is still a route miss', async () => {
    const r = await http(t.emu.url, 'POST', '/bigquery/v2/projects/coverage-proj/datasets/cov_ds/routines/f:testIamPermissions', {});
    expect(r.status).toBe(404);
    expect(r.body.error.message).toMatch(/^Not found: POST /);
  });
});

describe('the base path', () => {
  it('answers the same resource with and without /bigquery/v2, and projects.list at the bare /bigquery/v2/projects', async () => {
    const withBase = await http(t.emu.url, 'GET', '/bigquery/v2/projects/coverage-proj/datasets/cov_ds');
    const without = await http(t.emu.url, 'GET', '/projects/coverage-proj/datasets/cov_ds');
    expect(withBase.status).toBe(200);
    expect(withBase.body.datasetReference).toEqual({ projectId: 'coverage-proj', datasetId: 'cov_ds' });
    expect(without.body).toEqual(withBase.body);
    for (const path of ['/bigquery/v2/projects', '/bigquery/v2/projects?maxResults=10']) {
      const r = await http(t.emu.url, 'GET', path);
      expect(r.status, path).toBe(200);
      expect(r.body.kind).toBe('bigquery#projectList');
    }
  });

  it("a route miss names the path as the client sent it; /bigquery/v2 serves nothing but the API's projects paths", async () => {
    const miss = await http(t.emu.url, 'GET', '/bigquery/v2/projects/coverage-proj/nothing_here');
    expect(miss.status).toBe(404);
    expect(miss.body.error.message).toBe('Not found: GET /bigquery/v2/projects/coverage-proj/nothing_here');
    // The web console is at `/` and the discovery document at `/$discovery/rest`, never under the base path.
    for (const path of ['/bigquery/v2/', '/bigquery/v2/$discovery/rest', '/bigquery/v2/projectsX', '/bigquery/v2/console/index.html']) {
      const r = await http(t.emu.url, 'GET', path);
      expect(r.status, path).toBe(404);
      expect(r.body.error.message, path).toBe(`Not found: GET ${path}`);
    }
  });
});
