// Orchestration rules of the runner against a scripted HTTP stub (not the emulator): dataset only
// with setup (README note 9), setup.sql split per statement, headers on the canonical query only,
// teardown of every dataset created, authoring errors before any request.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCorpus, runFixture } from './runner.js';

interface Seen {
  method: string;
  path: string;
  search: string;
  caller?: string;
  body: Record<string, unknown>;
}

let server: Server;
let endpoint = '';
let seen: Seen[] = [];

const SYNTAX = { error: { code: 400, message: 'Syntax error: Unexpected identifier "SLECT" at [1:1]', errors: [{ reason: 'invalidQuery', location: 'query', message: 'Syntax error: Unexpected identifier "SLECT" at [1:1]' }] } };

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      const url = new URL(req.url ?? '/', 'http://x');
      const caller = req.headers['x-bqemu-caller'];
      seen.push({ method: req.method ?? '', path: url.pathname, search: url.search, caller: typeof caller === 'string' ? caller : undefined, body });
      const send = (code: number, obj?: unknown) => {
        res.writeHead(code, { 'content-type': 'application/json' });
        res.end(obj === undefined ? '' : JSON.stringify(obj));
      };
      const p = url.pathname;
      if (req.method === 'POST' && /\/datasets$/.test(p)) return send(200, body);
      if (req.method === 'DELETE') return send(204);
      if (req.method === 'POST' && /\/queries$/.test(p)) {
        const q = String(body.query);
        if (q.startsWith('SLECT')) return send(400, SYNTAX);
        if (q.includes('BROKEN_SETUP')) return send(400, { error: { code: 400, message: 'nope', errors: [{ reason: 'invalidQuery', message: 'nope' }] } });
        return send(200, {
          jobReference: { projectId: 'p', jobId: 'j1', location: 'US' },
          jobComplete: true,
          schema: { fields: [{ name: 'n', type: 'INTEGER', mode: 'NULLABLE' }] },
          rows: [{ f: [{ v: '1' }] }],
          totalRows: '1',
        });
      }
      if (req.method === 'GET' && /\/jobs\/j1$/.test(p)) return send(200, { jobReference: { jobId: 'j1' }, statistics: { query: { statementType: 'SELECT', cacheHit: false } } });
      if (req.method === 'POST') return send(200, body);
      send(404, { error: { code: 404, message: 'no route', errors: [{ reason: 'notFound', message: 'no route' }] } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen = [];
});

const OK_EXPECTED = JSON.stringify({ schema: [{ name: 'n', type: 'INTEGER', mode: 'NULLABLE' }], rows: [{ n: 1 }], job_metadata: { statement_type: 'SELECT', cache_hit: false } });

function fixture(name: string, files: Record<string, string>): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'bqemu-run-')), 'phase_x', name);
  mkdirSync(dir, { recursive: true });
  for (const [f, t] of Object.entries(files)) writeFileSync(join(dir, f), t);
  return dir;
}

const opts = () => ({ endpoint, projectId: 'p' });

describe('runFixture', () => {
  it('creates a dataset, splits setup.sql, applies headers to the canonical query only, tears down', async () => {
    const dir = fixture('with_setup', {
      'query.sql': 'SELECT n FROM `${DATASET}.t`',
      'setup.sql': '-- comment only\nCREATE TABLE `${DATASET}.t` (n INT64);\nINSERT INTO `${DATASET}.t` VALUES\n  (1);\n',
      'setup_rest.json': JSON.stringify([{ method: 'POST', path: '/bigquery/v2/projects/${PROJECT}/datasets', body: { datasetReference: { projectId: '${PROJECT}', datasetId: '${DATASET_ID}_views' } } }]),
      'headers.json': JSON.stringify({ 'X-Bqemu-Caller': '${PRINCIPAL}' }),
      'expected.json': OK_EXPECTED,
    });
    const out = await runFixture(dir, opts());
    expect(out).toMatchObject({ id: 'phase_x/with_setup', phase: 'phase_x', status: 'pass' });
    const queries = seen.filter((s) => s.method === 'POST' && s.path.endsWith('/queries'));
    expect(queries.map((q) => String(q.body.query).split('\n')[0])).toEqual([
      '-- comment only',
      expect.stringMatching(/^INSERT INTO `p\.bqemu_cr_\w+_with_setup\.t` VALUES$/),
      expect.stringMatching(/^SELECT n FROM `p\.bqemu_cr_\w+\.t`$/),
    ]);
    expect(queries.map((q) => q.caller)).toEqual([undefined, undefined, 'user:conformance-caller@bqemu.test']);
    const creates = seen.filter((s) => s.method === 'POST' && s.path.endsWith('/datasets'));
    expect(creates).toHaveLength(2);
    expect(creates.every((c) => c.caller === undefined)).toBe(true);
    const deletes = seen.filter((s) => s.method === 'DELETE');
    expect(deletes).toHaveLength(2);
    expect(deletes[0]!.path).toMatch(/_views$/);
    expect(deletes[1]!.path).toMatch(/with_setup$/);
    expect(deletes.every((d) => d.search.includes('deleteContents=true'))).toBe(true);
    expect(seen.findIndex((s) => s.method === 'POST' && s.path.endsWith('/datasets'))).toBe(0);
  });

  it('creates no dataset when there is no setup', async () => {
    const out = await runFixture(fixture('no_setup', { 'query.sql': "SELECT COUNT(*) AS n WHERE 'x' != '${DATASET_ID}'", 'expected.json': OK_EXPECTED }), opts());
    expect(out.status).toBe('pass');
    expect(seen.some((s) => s.path.includes('/datasets'))).toBe(false);
  });

  it('stops on an authoring error before sending anything', async () => {
    const out = await runFixture(fixture('bad_token', { 'query.sql': 'SELECT * FROM `${dataset}.t`', 'setup.sql': 'SELECT 1;', 'expected.json': OK_EXPECTED }), opts());
    expect(out).toMatchObject({ status: 'fail', kind: 'authoring' });
    expect(seen).toEqual([]);
  });

  it('compares error fixtures and reports mismatched reasons', async () => {
    const err = (reason: string) => JSON.stringify({ fixture_version: 2, error: { reason, location: 'query', http_status: 400, message_pattern: 'Syntax\\ error:.*\\[\\d+:\\d+\\]' } });
    expect((await runFixture(fixture('err_ok', { 'query.sql': 'SLECT 1', 'expected.json': err('invalidQuery') }), opts())).status).toBe('pass');
    const bad = await runFixture(fixture('err_bad', { 'query.sql': 'SLECT 1', 'expected.json': err('invalid') }), opts());
    expect(bad).toMatchObject({ status: 'fail', kind: 'error-reason' });
  });

  it('reports kind mismatch both ways', async () => {
    const a = await runFixture(fixture('km1', { 'query.sql': 'SLECT 1', 'expected.json': OK_EXPECTED }), opts());
    expect(a).toMatchObject({ status: 'fail', kind: 'kind mismatch' });
    const errExp = JSON.stringify({ error: { reason: 'invalidQuery', location: 'query', http_status: 400, message_pattern: '.' } });
    const b = await runFixture(fixture('km2', { 'query.sql': 'SELECT 1 AS n', 'expected.json': errExp }), opts());
    expect(b).toMatchObject({ status: 'fail', kind: 'kind mismatch' });
  });

  it('reports a setup failure and still deletes the dataset', async () => {
    const out = await runFixture(fixture('setup_fails', { 'query.sql': 'SELECT 1 AS n', 'setup.sql': 'SELECT BROKEN_SETUP;\nSELECT 2;', 'expected.json': OK_EXPECTED }), opts());
    expect(out).toMatchObject({ status: 'fail', kind: 'setup' });
    expect(out.detail).toMatch(/statement 1\/2/);
    expect(seen.filter((s) => s.path.endsWith('/queries'))).toHaveLength(1);
    expect(seen.filter((s) => s.method === 'DELETE')).toHaveLength(1);
  });

  it('sends parameters as queryParameters, not in the SQL', async () => {
    const dir = fixture('params', {
      'query.sql': 'SELECT @n AS n',
      'parameters.json': JSON.stringify({ mode: 'named', parameters: [{ name: 'n', type: 'INT64', value: 1 }] }),
      'expected.json': OK_EXPECTED,
    });
    expect((await runFixture(dir, opts())).status).toBe('pass');
    const q = seen.find((s) => s.path.endsWith('/queries'))!;
    expect(q.body.query).toBe('SELECT @n AS n');
    expect(q.body.parameterMode).toBe('named'); // the Node client sends it lower-case
    expect(q.body.queryParameters).toEqual([{ name: 'n', parameterType: { type: 'INT64' }, parameterValue: { value: '1' } }]);
  });
});

describe('runCorpus', () => {
  it('returns outcomes in input order', async () => {
    const a = fixture('a_first', { 'query.sql': 'SELECT 1 AS n', 'expected.json': OK_EXPECTED });
    const b = fixture('b_second', { 'query.sql': 'SLECT', 'expected.json': OK_EXPECTED });
    const out = await runCorpus([{ id: 'phase_x/a_first', dir: a }, { id: 'phase_x/b_second', dir: b }], { ...opts(), concurrency: 2 });
    expect(out.map((o) => [o.id, o.status])).toEqual([['phase_x/a_first', 'pass'], ['phase_x/b_second', 'fail']]);
  });
});
