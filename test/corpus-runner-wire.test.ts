/**
 * Corpus runner on the wire (conformance/README.md "Fixture files"): through the real emulator, the
 * runner sends fixture headers only with the canonical query and parameter values only as REST
 * queryParameters — never inside SQL text. A logging proxy in front of the emulator records every
 * request the emulator receives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type Emulator } from '../src/server/server.js';
import { runFixture } from '../src/conformance/runner.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let emu: Emulator;
let proxy: http.Server;
let proxyUrl: string;
const seen: Seen[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, projectId: 'wire-test' });
  const target = new URL(emu.url);
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: body.toString('utf8') });
      const fwd = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      });
      fwd.end(body);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await emu?.close();
});

function fixture(): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-fx-')), 'rest_crud', 'wire_probe');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'setup.sql'), 'CREATE OR REPLACE TABLE `${DATASET}.t` (id INT64, label STRING);\nINSERT INTO `${DATASET}.t` VALUES (1, "secret-label-7731");\n');
  fs.writeFileSync(path.join(dir, 'query.sql'), 'SELECT id FROM `${DATASET}.t` WHERE label = @wanted AND id = @n');
  fs.writeFileSync(
    path.join(dir, 'parameters.json'),
    JSON.stringify({ mode: 'named', parameters: [{ name: 'wanted', type: 'STRING', value: 'secret-label-7731' }, { name: 'n', type: 'INT64', value: 1 }] }),
  );
  fs.writeFileSync(path.join(dir, 'headers.json'), JSON.stringify({ 'X-Bqemu-Caller': 'user:probe@bqemu.test' }));
  fs.writeFileSync(
    path.join(dir, 'expected.json'),
    JSON.stringify({ fixture_version: 1, bigquery: { project: 'x', job_id: 'j', location: 'US' }, schema: [{ name: 'id', type: 'INTEGER', mode: 'NULLABLE' }], rows: [{ id: 1 }] }),
  );
  return dir;
}

describe('runner on the wire', () => {
  it('passes the fixture, sends parameters only as queryParameters and headers only with the canonical query', async () => {
    const outcome = await runFixture(fixture(), { endpoint: proxyUrl, projectId: 'wire-test' });
    expect(outcome.status, JSON.stringify(outcome)).toBe('pass');
    const withQuery = seen.filter((s) => s.method === 'POST' && /\/(queries|jobs)(\?|$)/.test(s.url));
    const canonical = withQuery.filter((s) => s.body.includes('@wanted'));
    expect(canonical.length).toBeGreaterThan(0);
    for (const s of withQuery) {
      const body = JSON.parse(s.body);
      const sql: string = body.query ?? body.configuration?.query?.query ?? '';
      if (sql.includes('@wanted')) {
        expect(sql).not.toContain('secret-label-7731');
        const params = body.queryParameters ?? body.configuration?.query?.queryParameters;
        expect(params.map((p: { name: string }) => p.name).sort()).toEqual(['n', 'wanted']);
        expect(s.headers['x-bqemu-caller']).toBe('user:probe@bqemu.test');
      } else {
        expect(s.headers['x-bqemu-caller'], `setup request ${s.url} must not carry fixture headers`).toBeUndefined();
      }
    }
    // The setup created (and the runner deleted) a per-fixture dataset without the headers.
    const datasetCalls = seen.filter((s) => /\/datasets(\/|\?|$)/.test(s.url));
    expect(datasetCalls.length).toBeGreaterThan(0);
    for (const s of datasetCalls) expect(s.headers['x-bqemu-caller']).toBeUndefined();
  });
});
