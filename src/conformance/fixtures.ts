/**
 * Fixture loading for the SQL corpus (conformance/README.md "Fixture files", "expected.json",
 * conformance/README.md "Recording notes" 1–9).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseJsonSafe, type JsonValue } from './jsonsafe.js';

/** One `setup_rest.json` entry (conformance/README.md "Fixture files"). */
export interface RestStep {
  method: string;
  path: string;
  body?: JsonValue;
}

/** One parameter of `parameters.json` (conformance/README.md "Fixture files"). */
export interface FixtureParameter {
  name?: string;
  type: JsonValue;
  value: JsonValue;
}

/** `parameters.json` (conformance/README.md "Fixture files"). */
export interface FixtureParameters {
  mode: 'named' | 'positional';
  parameters: FixtureParameter[];
}

/** A schema column as recorded (conformance/README.md "expected.json"). */
export interface SchemaField {
  name: string;
  type: string;
  mode?: string;
  fields?: SchemaField[];
}

/** The `error` object of an error-form baseline (conformance/README.md "expected.json"). */
export interface ExpectedError {
  reason: string;
  location?: string | null;
  http_status: number;
  message_pattern: string;
  message_sample?: string;
}

/**
 * `expected.json`, either form (conformance/README.md "expected.json"; conformance/README.md
 * "Recording notes" 1–4).
 */
export interface Expected {
  fixture_version?: number;
  bigquery?: Record<string, JsonValue>;
  schema?: SchemaField[];
  rows?: Record<string, JsonValue>[];
  row_count?: number;
  duration_class?: string;
  job_metadata?: Record<string, JsonValue>;
  error?: ExpectedError;
}

/** A fixture as read from disk, before placeholder expansion. */
export interface Fixture {
  /** `<phase>/<name>` */
  id: string;
  phase: string;
  name: string;
  dir: string;
  query: string;
  setupSql?: string;
  setupRest?: RestStep[];
  headers?: Record<string, string>;
  parameters?: FixtureParameters;
  jobConfig?: Record<string, JsonValue>;
  expected: Expected;
}

/** Raised for a malformed fixture (authoring error, not an emulator failure). */
export class FixtureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FixtureError';
  }
}

function readOptional(dir: string, file: string): string | undefined {
  const p = join(dir, file);
  return existsSync(p) ? readFileSync(p, 'utf8') : undefined;
}

function readJson(dir: string, file: string): JsonValue | undefined {
  const text = readOptional(dir, file);
  if (text === undefined) return undefined;
  try {
    return parseJsonSafe(text);
  } catch (e) {
    throw new FixtureError(`${file}: invalid JSON: ${(e as Error).message}`);
  }
}

function isObject(v: unknown): v is Record<string, JsonValue> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function validateSchema(schema: unknown, where: string): SchemaField[] {
  if (!Array.isArray(schema)) throw new FixtureError(`${where} must be an array`);
  return schema.map((f, i) => {
    if (!isObject(f) || typeof f.name !== 'string' || typeof f.type !== 'string') {
      throw new FixtureError(`${where}[${i}] needs string name and type`);
    }
    const out: SchemaField = { name: f.name, type: f.type };
    if (typeof f.mode === 'string') out.mode = f.mode;
    if (f.fields !== undefined && f.fields !== null) out.fields = validateSchema(f.fields, `${where}[${i}].fields`);
    return out;
  });
}

/**
 * Validate a parsed `expected.json` (conformance/README.md "expected.json": the two forms are
 * mutually exclusive).
 */
export function validateExpected(raw: JsonValue | undefined): Expected {
  if (!isObject(raw)) throw new FixtureError('expected.json must be a JSON object');
  const exp: Expected = {};
  if (typeof raw.fixture_version === 'number') exp.fixture_version = raw.fixture_version;
  if (isObject(raw.bigquery)) exp.bigquery = raw.bigquery;
  if (typeof raw.row_count === 'number') exp.row_count = raw.row_count;
  if (typeof raw.duration_class === 'string') exp.duration_class = raw.duration_class;
  if (raw.error !== undefined && raw.error !== null) {
    const e = raw.error;
    if (!isObject(e) || typeof e.reason !== 'string' || typeof e.message_pattern !== 'string' || typeof e.http_status !== 'number') {
      throw new FixtureError('expected.json error needs reason, http_status and message_pattern');
    }
    if (raw.rows !== undefined || raw.schema !== undefined) throw new FixtureError('expected.json has both error and schema/rows');
    exp.error = {
      reason: e.reason,
      location: typeof e.location === 'string' ? e.location : null,
      http_status: e.http_status,
      message_pattern: e.message_pattern,
      message_sample: typeof e.message_sample === 'string' ? e.message_sample : undefined,
    };
    return exp;
  }
  exp.schema = validateSchema(raw.schema ?? [], 'expected.json schema');
  const rows = raw.rows ?? [];
  if (!Array.isArray(rows) || !rows.every(isObject)) throw new FixtureError('expected.json rows must be an array of objects');
  exp.rows = rows as Record<string, JsonValue>[];
  if (raw.job_metadata !== undefined && raw.job_metadata !== null) {
    if (!isObject(raw.job_metadata)) throw new FixtureError('expected.json job_metadata must be an object');
    exp.job_metadata = raw.job_metadata;
  }
  return exp;
}

function validateParameters(raw: JsonValue): FixtureParameters {
  if (!isObject(raw) || (raw.mode !== 'named' && raw.mode !== 'positional') || !Array.isArray(raw.parameters)) {
    throw new FixtureError('parameters.json needs mode named|positional and a parameters array');
  }
  const mode = raw.mode;
  const parameters = raw.parameters.map((p, i): FixtureParameter => {
    if (!isObject(p) || p.type === undefined || !('value' in p)) throw new FixtureError(`parameters.json parameters[${i}] needs type and value`);
    if (mode === 'named' && typeof p.name !== 'string') throw new FixtureError(`parameters.json parameters[${i}] needs a name in named mode`);
    const out: FixtureParameter = { type: p.type, value: p.value ?? null };
    if (typeof p.name === 'string') out.name = p.name;
    return out;
  });
  return { mode, parameters };
}

function validateRest(raw: JsonValue): RestStep[] {
  if (!Array.isArray(raw)) throw new FixtureError('setup_rest.json must be a JSON array');
  return raw.map((s, i) => {
    if (!isObject(s) || typeof s.method !== 'string' || typeof s.path !== 'string') {
      throw new FixtureError(`setup_rest.json[${i}] needs string method and path`);
    }
    const step: RestStep = { method: s.method.toUpperCase(), path: s.path };
    if (s.body !== undefined) step.body = s.body;
    return step;
  });
}

function validateHeaders(raw: JsonValue): Record<string, string> {
  if (!isObject(raw)) throw new FixtureError('headers.json must be a JSON object');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v !== 'string') throw new FixtureError(`headers.json value of ${k} must be a string`);
    out[k] = v;
  }
  return out;
}

/**
 * Load one fixture directory (conformance/README.md "Fixture files"). `id` is `<phase>/<name>`
 * taken from the last two path segments. Throws {@link FixtureError} when a file is missing or
 * malformed.
 */
export function loadFixture(dir: string): Fixture {
  const abs = resolve(dir);
  const parts = abs.split(/[\\/]/).filter(Boolean);
  const name = parts[parts.length - 1] ?? '';
  const phase = parts[parts.length - 2] ?? '';
  const query = readOptional(abs, 'query.sql');
  if (query === undefined) throw new FixtureError(`${phase}/${name}: query.sql missing`);
  const expectedText = readOptional(abs, 'expected.json');
  if (expectedText === undefined) throw new FixtureError(`${phase}/${name}: expected.json missing`);
  let expectedRaw: JsonValue;
  try {
    expectedRaw = parseJsonSafe(expectedText);
  } catch (e) {
    throw new FixtureError(`expected.json: invalid JSON: ${(e as Error).message}`);
  }
  const fx: Fixture = { id: `${phase}/${name}`, phase, name, dir: abs, query, expected: validateExpected(expectedRaw) };
  const setupSql = readOptional(abs, 'setup.sql');
  if (setupSql !== undefined) fx.setupSql = setupSql;
  const rest = readJson(abs, 'setup_rest.json');
  if (rest !== undefined) fx.setupRest = validateRest(rest);
  const headers = readJson(abs, 'headers.json');
  if (headers !== undefined) fx.headers = validateHeaders(headers);
  const params = readJson(abs, 'parameters.json');
  if (params !== undefined) fx.parameters = validateParameters(params);
  const jobConfig = readJson(abs, 'job_config.json');
  if (jobConfig !== undefined) {
    if (!isObject(jobConfig)) throw new FixtureError('job_config.json must be a JSON object');
    fx.jobConfig = jobConfig;
  }
  return fx;
}

/**
 * Resolve the directory that holds `<phase>/<name>/` fixture dirs. Accepts the corpus root
 * (`…/corpus`), the recorded body (`…/bigquery-recorded`), its `sql/` dir, or a phase dir's parent.
 */
export function resolveSqlRoot(corpus: string): string {
  const candidates = [join(corpus, 'bigquery-recorded', 'sql'), join(corpus, 'sql'), corpus];
  for (const c of candidates) {
    if (existsSync(c) && statSync(c).isDirectory()) return resolve(c);
  }
  throw new FixtureError(`corpus directory not found: ${corpus}`);
}

/**
 * List fixture directories (`<phase>/<name>` holding a `query.sql`) under the SQL root, sorted by
 * id (conformance/README.md "Fixture files"). `filter` keeps ids matching any comma-separated
 * pattern: a glob with `*`/`?` matched against the whole id, otherwise a substring.
 */
export function discoverFixtures(sqlRoot: string, filter?: string): { id: string; dir: string }[] {
  const out: { id: string; dir: string }[] = [];
  for (const phase of readdirSync(sqlRoot).sort()) {
    const phaseDir = join(sqlRoot, phase);
    if (!statSync(phaseDir).isDirectory()) continue;
    for (const name of readdirSync(phaseDir).sort()) {
      const dir = join(phaseDir, name);
      if (statSync(dir).isDirectory() && existsSync(join(dir, 'query.sql'))) out.push({ id: `${phase}/${name}`, dir });
    }
  }
  const match = compileFilter(filter);
  return out.filter((f) => match(f.id));
}

/** Build the id predicate used by {@link discoverFixtures}. */
export function compileFilter(filter?: string): (id: string) => boolean {
  const pats = (filter ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  if (pats.length === 0) return () => true;
  const tests = pats.map((p) => {
    if (/[*?]/.test(p)) {
      const re = new RegExp('^' + p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$');
      return (id: string) => re.test(id);
    }
    return (id: string) => id.includes(p);
  });
  return (id) => tests.some((t) => t(id));
}

/**
 * Split `setup.sql` into statements the way the recorder did (conformance/README.md "Recording
 * notes" 9): a statement ends on a line whose text before `--` ends in `;` (after trimming). Chunks
 * holding only blank or comment lines are dropped. Each statement keeps its own text, trailing `;`
 * included.
 */
export function splitSetupSql(sql: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  const flush = () => {
    const meaningful = current.some((l) => {
      const code = l.split('--')[0]!.trim();
      return code.length > 0;
    });
    if (meaningful) statements.push(current.join('\n').trim());
    current = [];
  };
  for (const line of sql.split(/\r?\n/)) {
    current.push(line);
    const code = line.split('--')[0]!.trimEnd();
    if (code.endsWith(';')) flush();
  }
  flush();
  return statements;
}
