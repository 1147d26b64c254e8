/**
 * Recorder helpers: byte caps, message patterns, recorded values and recording inputs
 * (conformance/README.md "Recording").
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toPlainValue } from './client.js';
import type { Fixture, FixtureParameters, RestStep, SchemaField } from './fixtures.js';
import { parseJsonSafe, type JsonValue } from './jsonsafe.js';

/**
 * The wildcard the per-fixture dataset's name becomes in a synthesised pattern
 * (conformance/README.md "Recording").
 */
export const DATASET_WILDCARD = '[\\w\\-\\.:]+';
/** The pattern each `[line:column]` marker becomes (conformance/README.md "Recording"). */
export const LINE_COLUMN_PATTERN = '\\[\\d+:\\d+\\]';

/** True when a byte count is known and above the cap (conformance/README.md "Recording"). */
export function exceedsCap(bytes: bigint | undefined, cap: number): boolean {
  return bytes !== undefined && bytes > BigInt(Math.floor(cap));
}

/** Speed class of a recorded duration (`duration_class`, conformance/README.md "expected.json"). */
export function durationClass(ms: number): 'fast' | 'medium' | 'slow' {
  return ms < 1000 ? 'fast' : ms < 10_000 ? 'medium' : 'slow';
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * Synthesise `message_pattern` from a raw message (conformance/README.md "Recording"): every
 * occurrence of the per-fixture dataset's fully qualified name (`project:dataset` or
 * `project.dataset`, or the dataset id alone) becomes {@link DATASET_WILDCARD}, every
 * `[line:column]` becomes {@link LINE_COLUMN_PATTERN}, and all other text is escaped literally. The
 * result matches the original message.
 */
export function synthesiseMessagePattern(message: string, ds: { project: string; datasetId: string }): string {
  const names = [`${ds.project}:${ds.datasetId}`, `${ds.project}.${ds.datasetId}`, ds.datasetId].filter((n) => n.length > 0);
  const alternatives = [...names.map(escapeRegExp), '\\[\\d+:\\d+\\]'];
  const re = new RegExp(alternatives.join('|'), 'g');
  let out = '';
  let last = 0;
  for (let m = re.exec(message); m; m = re.exec(message)) {
    out += escapeRegExp(message.slice(last, m.index));
    out += m[0].startsWith('[') ? LINE_COLUMN_PATTERN : DATASET_WILDCARD;
    last = m.index + m[0].length;
  }
  return out + escapeRegExp(message.slice(last));
}

/** Write `expected.json` text: bigint as a bare integer, non-finite floats as bare NaN/Infinity (as recorded corpora do). */
export function stringifyExpected(value: unknown): string {
  const marker = '__bqemu_raw__:';
  const text = JSON.stringify(
    value,
    (_k, v: unknown) => {
      if (typeof v === 'bigint') return marker + v.toString();
      if (typeof v === 'number' && !Number.isFinite(v)) return marker + (Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity');
      return v;
    },
    2,
  );
  return text.replace(/"__bqemu_raw__:([^"]*)"/g, '$1') + '\n';
}

function normType(t: string): string {
  const u = t.toUpperCase();
  return ({ INTEGER: 'INT64', FLOAT: 'FLOAT64', BOOLEAN: 'BOOL', RECORD: 'STRUCT' } as Record<string, string>)[u] ?? u;
}

/** Convert one client-decoded cell to the recorded JSON form, driven by its schema field. */
export function recordedCell(v: unknown, f: SchemaField): JsonValue {
  if ((f.mode ?? '').toUpperCase() === 'REPEATED') {
    const arr = Array.isArray(v) ? v : [];
    return arr.map((x) => recordedCell(x, { ...f, mode: 'NULLABLE' }));
  }
  if (v === null || v === undefined) return null;
  const t = normType(f.type);
  if (t === 'STRUCT') {
    const o = (v ?? {}) as Record<string, unknown>;
    const out: Record<string, JsonValue> = {};
    for (const sub of f.fields ?? []) out[sub.name] = recordedCell(o[sub.name], sub);
    return out;
  }
  const p = toPlainValue(v);
  if (t === 'INT64' && (typeof p === 'string' || typeof p === 'number')) {
    const b = BigInt(p);
    return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
  }
  if (t === 'FLOAT64' && typeof p === 'string') return Number(p);
  return p as JsonValue;
}

/** Rows of a result in the recorded form: objects keyed by column name. */
export function recordedRows(rows: unknown[], schema: SchemaField[]): Record<string, JsonValue>[] {
  return rows.map((r) => {
    const o = (r ?? {}) as Record<string, unknown>;
    const out: Record<string, JsonValue> = {};
    for (const f of schema) out[f.name] = recordedCell(o[f.name], f);
    return out;
  });
}

export function isObject(v: unknown): v is Record<string, JsonValue> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readJsonFile(dir: string, file: string): JsonValue | undefined {
  const p = join(dir, file);
  if (!existsSync(p)) return undefined;
  try {
    return parseJsonSafe(readFileSync(p, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: invalid JSON: ${(e as Error).message}`);
  }
}

/** Read a fixture's inputs (everything but `expected.json`, which may not exist yet). */
export function loadRecordingInputs(dir: string, id: string): Fixture {
  const [phase = '', name = ''] = id.split('/');
  const query = readFileSync(join(dir, 'query.sql'), 'utf8');
  const fx: Fixture = { id, phase, name, dir, query, expected: {} };
  if (existsSync(join(dir, 'setup.sql'))) fx.setupSql = readFileSync(join(dir, 'setup.sql'), 'utf8');
  const rest = readJsonFile(dir, 'setup_rest.json');
  if (rest !== undefined) {
    if (!Array.isArray(rest)) throw new Error('setup_rest.json must be a JSON array');
    fx.setupRest = rest.map((s, i): RestStep => {
      if (!isObject(s) || typeof s.method !== 'string' || typeof s.path !== 'string') throw new Error(`setup_rest.json[${i}] needs string method and path`);
      const step: RestStep = { method: s.method.toUpperCase(), path: s.path };
      if (s.body !== undefined) step.body = s.body;
      return step;
    });
  }
  const headers = readJsonFile(dir, 'headers.json');
  if (headers !== undefined) {
    if (!isObject(headers)) throw new Error('headers.json must be a JSON object');
    fx.headers = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));
  }
  const params = readJsonFile(dir, 'parameters.json');
  if (params !== undefined) {
    if (!isObject(params) || (params.mode !== 'named' && params.mode !== 'positional') || !Array.isArray(params.parameters)) throw new Error('parameters.json needs mode named|positional and a parameters array');
    fx.parameters = params as unknown as FixtureParameters;
  }
  const cfg = readJsonFile(dir, 'job_config.json');
  if (cfg !== undefined) {
    if (!isObject(cfg)) throw new Error('job_config.json must be a JSON object');
    fx.jobConfig = cfg;
  }
  return fx;
}
