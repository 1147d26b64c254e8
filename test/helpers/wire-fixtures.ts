/**
 * Test helper: replays a wire-level fixture of real BigQuery (`conformance/wire/jobs/<name>/`, a
 * verbatim copy described in conformance/README.md: optional setup.sql, setup_requests.json, request.json
 * with `body` or `body_bin`, expected_response.json) against the emulator, and compares the answer
 * with the recording's shape: the same keys at every level (no missing, no extra), literal values
 * equal where the recording keeps them (`"<*>"` stands for ids, times and other run-dependent
 * values, whose presence alone is checked).
 *
 * Per the recordings' rules (conformance/README.md): a per-fixture dataset is created only when setup.sql exists, and
 * setup.sql runs statement by statement (a statement ends on a line whose text before `--` ends
 * in `;`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { splitSetupSql } from '../../src/conformance/fixtures.js';
import { http, type RawResponse } from './http.js';

/** The in-repository copy of the recorded wire fixtures (provenance: conformance/wire/provenance.json). */
export const WIRE_ROOT = path.resolve(__dirname, '../../conformance/wire/jobs');

export interface WireRequest {
  method: string;
  path: string;
  body?: unknown;
  body_bin?: string;
  headers?: Record<string, string>;
  capture?: Record<string, string>;
  /** A captured job id variable: the step waits until that job is DONE. */
  await_job?: string;
}

function expand(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{([A-Z_]+)\}/g, (m, k: string) => (k in vars ? vars[k] : m));
}

const get = (o: unknown, dotted: string): unknown => dotted.split('.').reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined), o);

/** Differences between a recorded body and an answer (paths dotted, arrays indexed). */
export function shapeDiffs(expected: unknown, actual: unknown, at = '', known: Set<string> = new Set()): string[] {
  const where = at || '(body)';
  if (expected === '<*>') return actual === undefined ? [`${where}: missing`] : [];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${where}: expected an array, got ${JSON.stringify(actual)}`];
    if (actual.length !== expected.length) return [`${where}: expected ${expected.length} items, got ${actual.length}`];
    return expected.flatMap((e, i) => shapeDiffs(e, actual[i], `${at}[${i}]`, known));
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return [`${where}: expected an object, got ${JSON.stringify(actual)}`];
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    const out: string[] = [];
    for (const k of Object.keys(e)) {
      const p = at ? `${at}.${k}` : k;
      if (!(k in a)) {
        if (!known.has(p)) out.push(`${p}: missing`);
        continue;
      }
      out.push(...shapeDiffs(e[k], a[k], p, known));
    }
    for (const k of Object.keys(a)) if (!(k in e)) out.push(`${at ? `${at}.${k}` : k}: not recorded (${JSON.stringify(a[k]).slice(0, 60)})`);
    return out;
  }
  return actual === expected ? [] : [`${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

async function send(baseUrl: string, dir: string, r: WireRequest, vars: Record<string, string>): Promise<RawResponse> {
  const headers = Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k.toLowerCase(), expand(v, vars)]));
  const p = expand(r.path, vars);
  if (r.body_bin !== undefined) {
    const body = expand(fs.readFileSync(path.join(dir, r.body_bin), 'latin1'), vars);
    return http(baseUrl, r.method, p, Buffer.from(body, 'latin1').toString('latin1'), headers);
  }
  const body = r.body === undefined ? undefined : JSON.parse(expand(JSON.stringify(r.body), vars));
  return http(baseUrl, r.method, p, body, headers);
}

export interface WireOutcome {
  status: number;
  expectedStatus: number;
  contentType: string;
  expectedContentType: string;
  diffs: string[];
  /** Setup steps that did not answer 200. */
  setupErrors: string[];
  body: unknown;
}

/** Replays one fixture; `known` lists recorded keys allowed to be missing from the answer. */
export async function replayWireFixture(baseUrl: string, projectId: string, name: string, known: Set<string> = new Set()): Promise<WireOutcome> {
  const dir = path.join(WIRE_ROOT, name);
  const datasetId = `wire_${name}`;
  const vars: Record<string, string> = { PROJECT: projectId, DATASET_ID: datasetId, DATASET: `${projectId}.${datasetId}`, GCS_BUCKET: process.env.WIRE_GCS_BUCKET ?? 'test-webhook-bucket/bqemu-conformance' };
  const setupErrors: string[] = [];
  const sqlFile = path.join(dir, 'setup.sql');
  if (fs.existsSync(sqlFile)) {
    await http(baseUrl, 'DELETE', `/bigquery/v2/projects/${projectId}/datasets/${datasetId}?deleteContents=true`);
    const r = await http(baseUrl, 'POST', `/bigquery/v2/projects/${projectId}/datasets`, { datasetReference: { projectId, datasetId } });
    if (r.status !== 200) setupErrors.push(`dataset: ${r.text}`);
    for (const stmt of splitSetupSql(expand(fs.readFileSync(sqlFile, 'utf8'), vars))) {
      const q = await http(baseUrl, 'POST', `/bigquery/v2/projects/${projectId}/queries`, { query: stmt, useLegacySql: false });
      if (q.status !== 200 || q.body?.jobComplete !== true) setupErrors.push(`${stmt}: ${q.text}`);
    }
  }
  const stepsFile = path.join(dir, 'setup_requests.json');
  const steps: WireRequest[] = fs.existsSync(stepsFile) ? JSON.parse(fs.readFileSync(stepsFile, 'utf8')) : [];
  for (const s of steps) {
    const r = await send(baseUrl, dir, s, vars);
    if (r.status !== 200) setupErrors.push(`${s.method} ${s.path}: ${r.status} ${r.text}`);
    for (const [k, p] of Object.entries(s.capture ?? {}))
      vars[k] = encodeURIComponent(String(p.startsWith('header:') ? r.headers.get(p.slice(7)) : get(r.body, p)));
    for (let i = 0; s.await_job && i < 100; i++) {
      const j = await http(baseUrl, 'GET', `/bigquery/v2/projects/${projectId}/jobs/${vars[s.await_job]}`);
      if (j.body?.status?.state === 'DONE') break;
      await new Promise((res) => setTimeout(res, 50));
    }
  }
  const req = JSON.parse(fs.readFileSync(path.join(dir, 'request.json'), 'utf8')) as WireRequest;
  const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected_response.json'), 'utf8'));
  const r = await send(baseUrl, dir, req, vars);
  // The per-fixture dataset goes with the fixture (datasets.list fixtures see only their own).
  if (fs.existsSync(sqlFile)) await http(baseUrl, 'DELETE', `/bigquery/v2/projects/${projectId}/datasets/${datasetId}?deleteContents=true`);
  return {
    status: r.status,
    expectedStatus: expected.http_status,
    contentType: r.headers.get('content-type') ?? '',
    expectedContentType: expected.headers?.['content-type'] ?? 'application/json',
    diffs: shapeDiffs(expected.body, r.body, '', known),
    setupErrors,
    body: r.body,
  };
}

/** Every fixture directory of the wire corpus. */
export function wireFixtureNames(): string[] {
  return fs.readdirSync(WIRE_ROOT).filter((n) => fs.existsSync(path.join(WIRE_ROOT, n, 'request.json'))).sort();
}
