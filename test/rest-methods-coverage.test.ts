/**
 * Every method of BigQuery's discovery document (src/server/rest/bigquery-v2-discovery.json) is
 * served: a request to each method's path, with its HTTP method, reaches a handler — it never gets
 * the REST server's route-miss answer (`Not found: <METHOD> <url>`, src/errors/rest-errors.ts
 * `unknownRestPath`). Paths are the methods' `flatPath`s with made-up ids; what each handler then
 * answers (a 404 for the made-up resource, a 400 for the empty body) is tested in the method's own
 * test file.
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

  it.each(methods.map((m) => [m.id, m] as const))('%s', async (_id, m) => {
    const path = (m.flatPath ?? m.path).replace(/\{projectsId\}|\{\+?projectId\}/g, 'coverage-proj').replace(/\{[^}]+\}/g, (x) => (/dataset/i.test(x) ? 'cov_ds' : 'no_such_id'));
    const body = ['POST', 'PUT', 'PATCH'].includes(m.httpMethod) ? {} : undefined;
    const r = await http(t.emu.url, m.httpMethod, `/bigquery/v2/${path}`, body);
    const message: string = r.body?.error?.message ?? '';
    expect(message.startsWith(`Not found: ${m.httpMethod} `), `${m.httpMethod} ${path}: ${r.status} ${message}`).toBe(false);
    expect(r.status, `${m.httpMethod} ${path}: ${r.text}`).toBeLessThan(500);
  });

  it('a method the document does not list is still a route miss', async () => {
    const r = await http(t.emu.url, 'POST', '/bigquery/v2/projects/coverage-proj/datasets/cov_ds/routines/f:testIamPermissions', {});
    expect(r.status).toBe(404);
    expect(r.body.error.message).toMatch(/^Not found: POST /);
  });
});
