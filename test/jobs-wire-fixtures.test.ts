/**
 * Wire-level fixtures of real BigQuery (shared corpus `bigquery-recorded/http/jobs/<name>/`:
 * setup_requests.json, request.json, expected_response.json): each request is replayed against
 * the emulator and the answer must have the recorded HTTP status and the recorded body's shape —
 * the same keys at every level (no missing, no extra), literal values equal where the recording
 * keeps them (`"<*>"` stands for ids, times and other run-dependent values, whose presence alone
 * is checked).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';

const ROOT = path.resolve(__dirname, '../../shared/corpus/bigquery-recorded/http/jobs');

const FIXTURES = [
  'job_get_complete',
  'job_cancel',
  'job_delete',
  'job_insert_returns_job_resource',
  'job_list_in_project',
  'page_empty_result_set',
  'page_first_page_only',
  'page_get_query_results_after_complete',
  'page_max_results_zero',
  'page_total_rows_in_response',
  'page_walk_to_end_no_more_token',
  'page_walk_two_pages',
  'dryrun_schema_only',
  'dryrun_simple_query',
  'dryrun_invalid_query',
];

/**
 * Recorded keys the emulator does not answer, with the reason: BigQuery names the anonymous table
 * holding a query's results (and its write disposition) in `configuration.query`; the emulator
 * keeps results in memory and has no such table to name.
 */
const KNOWN_MISSING = new Set(['configuration.query.destinationTable', 'configuration.query.writeDisposition', 'job.configuration.query.destinationTable', 'job.configuration.query.writeDisposition']);

interface WireRequest {
  method: string;
  path: string;
  body?: unknown;
  capture?: Record<string, string>;
}

let t: TestEmulator;

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'wire-jobs' });
});
afterAll(async () => {
  await t?.emu.close();
});

function expand<T>(v: T, vars: Record<string, string>): T {
  return JSON.parse(JSON.stringify(v).replace(/\$\{([A-Z_]+)\}/g, (m, k: string) => (k in vars ? vars[k] : m))) as T;
}

/** Differences between a recorded body and an answer (paths dotted, arrays indexed). */
function shapeDiffs(expected: unknown, actual: unknown, at = ''): string[] {
  const where = at || '(body)';
  if (expected === '<*>') return actual === undefined ? [`${where}: missing`] : [];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${where}: expected an array, got ${JSON.stringify(actual)}`];
    if (actual.length !== expected.length) return [`${where}: expected ${expected.length} items, got ${actual.length}`];
    return expected.flatMap((e, i) => shapeDiffs(e, actual[i], `${at}[${i}]`));
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return [`${where}: expected an object, got ${JSON.stringify(actual)}`];
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    const out: string[] = [];
    for (const k of Object.keys(e)) {
      const p = at ? `${at}.${k}` : k;
      if (!(k in a)) {
        if (!KNOWN_MISSING.has(p)) out.push(`${p}: missing`);
        continue;
      }
      out.push(...shapeDiffs(e[k], a[k], p));
    }
    for (const k of Object.keys(a)) if (!(k in e)) out.push(`${at ? `${at}.${k}` : k}: not recorded (${JSON.stringify(a[k]).slice(0, 60)})`);
    return out;
  }
  return actual === expected ? [] : [`${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

const get = (o: unknown, dotted: string): unknown => dotted.split('.').reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined), o);

describe.skipIf(!fs.existsSync(ROOT))('recorded jobs wire fixtures', () => {
  for (const name of FIXTURES) {
    it(name, async () => {
      const dir = path.join(ROOT, name);
      const vars: Record<string, string> = { PROJECT: t.projectId, GCS_BUCKET: 'bqemu-conformance-bucket' };
      const setupFile = path.join(dir, 'setup_requests.json');
      const setup: WireRequest[] = fs.existsSync(setupFile) ? JSON.parse(fs.readFileSync(setupFile, 'utf8')) : [];
      for (const s of setup) {
        const req = expand(s, vars);
        const r = await http(t.emu.url, req.method, req.path, req.body);
        expect(r.status, `setup ${req.method} ${req.path}: ${r.text}`).toBe(200);
        for (const [k, p] of Object.entries(s.capture ?? {})) vars[k] = encodeURIComponent(String(get(r.body, p)));
      }
      const req = expand(JSON.parse(fs.readFileSync(path.join(dir, 'request.json'), 'utf8')) as WireRequest, vars);
      const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected_response.json'), 'utf8'));
      const r = await http(t.emu.url, req.method, req.path, req.body);
      expect(r.status, r.text).toBe(expected.http_status);
      expect(r.headers.get('content-type') ?? '').toContain(expected.headers?.['content-type'] ?? 'application/json');
      expect(shapeDiffs(expected.body, r.body)).toEqual([]);
    });
  }
});
