// The recorder (conformance/README.md "Recording") pointed at an in-process bqemu standing in for the
// reference service, with fake credentials (a pass-through client, no GOOGLE_APPLICATION_CREDENTIALS).
// The byte cap is exercised through a stand-in that reports bytes the way BigQuery does: a small
// HTTP proxy in front of the emulator that sets statistics.totalBytesProcessed on job resources
// (the emulator itself reports 0 bytes for every job).
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../server/server.js';
import { pythonPatternToRegExp } from './errorparity.js';
import { parseJsonSafe } from './jsonsafe.js';
import {
  DATASET_WILDCARD,
  durationClass,
  exceedsCap,
  makeRecorderTarget,
  recordCorpusDetailed,
  recordedCell,
  stringifyExpected,
  synthesiseMessagePattern,
} from './recorder.js';
import { runFixture } from './runner.js';

const PROJECT = 'rec-proj';
let emu: Emulator;
let proxy: Server;
let proxyUrl = '';
let reportedBytes = '5000';
let root = '';
let logs: Record<string, unknown>[] = [];

function logger() {
  return pino({ level: 'debug', base: undefined }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
}

function fixture(id: string, files: Record<string, string>): string {
  const dir = join(root, id);
  mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}

const record = (extra: Parameters<typeof recordCorpusDetailed>[0] = {}) =>
  recordCorpusDetailed({ corpus: root, endpoint: emu.url, project: PROJECT, env: {}, logger: logger(), ...extra });

beforeAll(async () => {
  emu = await startEmulator({ port: 0, projectId: PROJECT, quiet: true });
  // Stand-in reference that reports bytes processed on every job resource it returns.
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'accept-encoding') headers[k] = v;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const up = await fetch(emu.url + (req.url ?? '/'), { method: req.method, headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body });
      let text = await up.text();
      try {
        const j = JSON.parse(text) as { statistics?: { totalBytesProcessed?: string; query?: { totalBytesProcessed?: string } } };
        if (j && j.statistics) {
          j.statistics.totalBytesProcessed = reportedBytes;
          if (j.statistics.query) j.statistics.query.totalBytesProcessed = reportedBytes;
          text = JSON.stringify(j);
        }
      } catch {
        // not JSON: pass through
      }
      res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise<void>((r) => proxy.close(() => r()));
  await emu.close();
});

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bqemu-rec-'));
  logs = [];
  reportedBytes = '5000';
});

describe('recorder against a stand-in reference (in-process bqemu, fake credentials)', () => {
  it('records a fixture with its job id, logs one INFO line, and the baseline replays green', async () => {
    const dir = fixture('p/ok', {
      'setup.sql': 'CREATE OR REPLACE TABLE `${DATASET}`.t (id INT64, label STRING);\nINSERT INTO `${DATASET}`.t (id, label) VALUES (1, \'a\'), (2, \'b\');\n',
      'query.sql': 'SELECT id, label, id * 1.5 AS f FROM `${DATASET}`.t ORDER BY id',
    });
    const { code, results } = await record();
    expect(code).toBe(0);
    expect(results).toMatchObject([{ id: 'p/ok', status: 'recorded', form: 'success' }]);
    const exp = parseJsonSafe(readFileSync(join(dir, 'expected.json'), 'utf8')) as Record<string, any>;
    expect(exp.fixture_version).toBe(2);
    expect(typeof exp.recorded_at).toBe('string');
    expect(exp.bigquery.job_id).toBe(results[0]!.jobId);
    expect(exp.bigquery.job_id).toMatch(/\S/);
    expect(exp.bigquery.project).toBe(PROJECT);
    expect(exp.schema.map((f: { name: string }) => f.name)).toEqual(['id', 'label', 'f']);
    expect(exp.rows).toEqual([{ id: 1, label: 'a', f: 1.5 }, { id: 2, label: 'b', f: 3 }]);
    expect(exp.job_metadata).toMatchObject({ statement_type: 'SELECT', cache_hit: false });
    const info = logs.filter((l) => l.level === 30 && l.fixture === 'p/ok');
    expect(info).toHaveLength(1);
    expect(info[0]).toMatchObject({ fixture: 'p/ok', job_id: exp.bigquery.job_id, bytes: expect.any(String), duration_ms: expect.any(Number) });
    // The recording is a valid baseline: the runner replays it against the emulator.
    const replay = await runFixture(dir, { endpoint: emu.url, projectId: PROJECT });
    expect(replay.status, replay.detail).toBe('pass');
  });

  it('refuses to overwrite an existing expected.json without --force, and re-records with it', async () => {
    const dir = fixture('p/again', { 'query.sql': 'SELECT 1 AS n' });
    expect((await record()).code).toBe(0);
    const first = readFileSync(join(dir, 'expected.json'), 'utf8');
    logs = [];
    const refused = await record();
    expect(refused.code).toBe(1);
    expect(refused.results).toEqual([{ id: 'p/again', status: 'exists' }]);
    expect(readFileSync(join(dir, 'expected.json'), 'utf8')).toBe(first);
    expect(logs.some((l) => l.level === 40 && String(l.msg).includes('--force'))).toBe(true);
    const forced = await record({ force: true });
    expect(forced.code).toBe(0);
    const second = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));
    expect(second.bigquery.job_id).not.toBe(JSON.parse(first).bigquery.job_id);
  });

  it('skips a fixture whose dry-run estimate exceeds a lowered --max-bytes: INFO line, no file', async () => {
    const dir = fixture('p/big', { 'query.sql': 'SELECT 1 AS n' });
    const over = await record({ endpoint: proxyUrl, maxBytes: 1000 });
    expect(over.code).toBe(0);
    expect(over.results).toMatchObject([{ id: 'p/big', status: 'over-cap', bytes: '5000' }]);
    expect(existsSync(join(dir, 'expected.json'))).toBe(false);
    expect(logs.find((l) => l.fixture === 'p/big' && l.level === 30)).toMatchObject({ bytes: '5000', max_bytes: 1000, msg: expect.stringMatching(/skipped/) });
    // Under the cap the same stand-in's bytes are recorded.
    const under = await record({ endpoint: proxyUrl, maxBytes: 10_000 });
    expect(under.results).toMatchObject([{ id: 'p/big', status: 'recorded', bytes: '5000' }]);
    expect(JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')).bigquery.total_bytes_processed).toBe(5000);
  });

  it('writes the error form with a synthesised pattern that matches the original message', async () => {
    const dir = fixture('p/missing', {
      'setup.sql': 'CREATE OR REPLACE TABLE `${DATASET}`.present (a INT64);\n',
      'query.sql': 'SELECT * FROM `${DATASET}`.absent_table',
    });
    const syn = fixture('p/syntax', { 'query.sql': 'SELECT 1\nFROM FROM' });
    const { code, results } = await record();
    expect(code).toBe(0);
    expect(results.map((r) => [r.id, r.status, r.form])).toEqual([
      ['p/missing', 'recorded', 'error'],
      ['p/syntax', 'recorded', 'error'],
    ]);
    const exp = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));
    expect(exp.bigquery.job_id).toMatch(/\S/);
    expect(exp.error).toMatchObject({ reason: 'notFound', http_status: 404 });
    expect(exp.error.message_sample).toMatch(/bqemu_rec_\w+/);
    expect(exp.error.message_pattern).not.toMatch(/bqemu_rec_/);
    expect(exp.error.message_pattern).toContain(DATASET_WILDCARD);
    expect(pythonPatternToRegExp(exp.error.message_pattern).test(exp.error.message_sample)).toBe(true);
    expect(exp.schema).toBeUndefined();
    const sx = JSON.parse(readFileSync(join(syn, 'expected.json'), 'utf8'));
    expect(sx.error).toMatchObject({ reason: 'invalidQuery', location: 'query', http_status: 400 });
    expect(sx.error.message_pattern).toContain('\\[\\d+:\\d+\\]');
    expect(pythonPatternToRegExp(sx.error.message_pattern).test(sx.error.message_sample)).toBe(true);
    // Both replay green against the emulator with another per-fixture dataset.
    for (const d of [dir, syn]) {
      const replay = await runFixture(d, { endpoint: emu.url, projectId: PROJECT });
      expect(replay.status, replay.detail).toBe('pass');
    }
  });

  it('reports a setup failure as a recorder bug and records nothing', async () => {
    const dir = fixture('p/badsetup', { 'setup.sql': 'CREATE TABLE `${DATASET}`.t (a NOT_A_TYPE);\n', 'query.sql': 'SELECT 1 AS n' });
    const { code, results } = await record();
    expect(code).toBe(1);
    expect(results).toMatchObject([{ id: 'p/badsetup', status: 'setup-error' }]);
    expect(existsSync(join(dir, 'expected.json'))).toBe(false);
    expect(logs.some((l) => l.level === 50 && /recorder bug/.test(String(l.msg)))).toBe(true);
  });

  it('refuses to run when CI is set, whatever else is given', async () => {
    const dir = fixture('p/ci', { 'query.sql': 'SELECT 1 AS n' });
    const r = await record({ env: { CI: 'true' } });
    expect(r.code).toBe(2);
    expect(r.results).toEqual([]);
    expect(existsSync(join(dir, 'expected.json'))).toBe(false);
    expect(logs.some((l) => l.level === 50 && /CI/.test(String(l.msg)))).toBe(true);
  });

  it('without an endpoint needs GOOGLE_APPLICATION_CREDENTIALS', async () => {
    fixture('p/nocreds', { 'query.sql': 'SELECT 1 AS n' });
    const r = await recordCorpusDetailed({ corpus: root, env: {}, logger: logger() });
    expect(r.code).toBe(2);
    expect(logs.some((l) => /GOOGLE_APPLICATION_CREDENTIALS/.test(String(l.msg)))).toBe(true);
  });
});

describe('recorder pieces', () => {
  it('uses application-default credentials from GOOGLE_APPLICATION_CREDENTIALS (GoogleAuth), without a network call', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const file = join(mkdtempSync(join(tmpdir(), 'bqemu-adc-')), 'sa.json');
    writeFileSync(file, JSON.stringify({ type: 'service_account', project_id: 'adc-project', private_key_id: 'k1', private_key: privateKey, client_email: 'rec@adc-project.iam.gserviceaccount.com', client_id: '1' }));
    const t = await makeRecorderTarget({ env: { GOOGLE_APPLICATION_CREDENTIALS: file } });
    expect(t).toMatchObject({ kind: 'bigquery', credentials: 'application-default', project: 'adc-project', restBase: 'https://bigquery.googleapis.com' });
    const e = await makeRecorderTarget({ endpoint: 'http://127.0.0.1:1', env: {} });
    expect(e).toMatchObject({ kind: 'endpoint', credentials: 'none', project: 'bqemu-conformance' });
    rmSync(file);
    await expect(makeRecorderTarget({ env: {} })).rejects.toThrow(/GOOGLE_APPLICATION_CREDENTIALS/);
  });

  it('synthesises message patterns: dataset names become the wildcard, [line:column] a digit range', () => {
    const ds = { project: 'my-proj', datasetId: 'bqemu_rec_x_1_f' };
    const msg = 'Not found: Table my-proj:bqemu_rec_x_1_f.t was not found in location US';
    const p = synthesiseMessagePattern(msg, ds);
    expect(p).toBe('Not found: Table [\\w\\-\\.:]+\\.t was not found in location US');
    expect(pythonPatternToRegExp(p).test(msg)).toBe(true);
    expect(pythonPatternToRegExp(p).test('Not found: Table other-proj:other_ds.t was not found in location US')).toBe(true);
    expect(pythonPatternToRegExp(p).test('Not found: Table other-proj:other_ds.u was not found in location US')).toBe(false);
    const q = synthesiseMessagePattern('Function not found: `my-proj.bqemu_rec_x_1_f`.f at [3:14] (x*)', ds);
    expect(q).toBe('Function not found: `[\\w\\-\\.:]+`\\.f at \\[\\d+:\\d+\\] \\(x\\*\\)');
    expect(pythonPatternToRegExp(q).test('Function not found: `p2.d2`.f at [1:8] (x*)')).toBe(true);
  });

  it('applies the cap only to a known byte count above it', () => {
    expect(exceedsCap(2000n, 1000)).toBe(true);
    expect(exceedsCap(1000n, 1000)).toBe(false);
    expect(exceedsCap(undefined, 0)).toBe(false);
    expect(exceedsCap(1073741825n, 1073741824)).toBe(true);
    expect(durationClass(200)).toBe('fast');
    expect(durationClass(2000)).toBe('medium');
    expect(durationClass(20000)).toBe('slow');
  });

  it('writes big integers and non-finite floats the way recorded baselines carry them', () => {
    const text = stringifyExpected({ rows: [{ big: 9007199254740993n, nan: Number.NaN, inf: Number.NEGATIVE_INFINITY, s: 'NaN' }] });
    expect(text).toContain('"big": 9007199254740993');
    expect(text).toContain('"nan": NaN');
    expect(text).toContain('"inf": -Infinity');
    expect(text).toContain('"s": "NaN"');
    const back = parseJsonSafe(text) as { rows: Record<string, unknown>[] };
    expect(back.rows[0]!.big).toBe(9007199254740993n);
    expect(Number.isNaN(back.rows[0]!.nan)).toBe(true);
    expect(recordedCell('12', { name: 'n', type: 'INTEGER' })).toBe(12);
    expect(recordedCell(['1', '2'], { name: 'a', type: 'INT64', mode: 'REPEATED' })).toEqual([1, 2]);
    expect(recordedCell({ x: '9223372036854775807', y: null }, { name: 's', type: 'RECORD', fields: [{ name: 'x', type: 'INTEGER' }, { name: 'y', type: 'STRING' }] })).toEqual({ x: 9223372036854775807n, y: null });
  });
});
