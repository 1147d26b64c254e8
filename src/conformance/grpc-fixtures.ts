/**
 * The recorded Storage Read API fixtures (`conformance/grpc/storage_read/<name>/`, a verbatim copy
 * described in conformance/README.md "Storage Read API recordings"): loading, placeholder
 * expansion, proto field-name conversion, the comparison of an answer with its recording, and the
 * pending list `conformance/grpc/pending.json`. The replay itself is `src/conformance/grpc-replay.ts`.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Root of the recorded gRPC fixtures: `<service>/<name>/` below it. */
export const GRPC_FIXTURES_ROOT = resolve(REPO_ROOT, 'conformance/grpc');
/** The gRPC pending list: fixture id → short reason (what is not built yet). */
export const GRPC_PENDING_FILE = resolve(GRPC_FIXTURES_ROOT, 'pending.json');

/** The placeholder that matches any present value (conformance/README.md "Storage Read API recordings"). */
export const ANY = '<*>';

/** One recorded call of `request.json`. */
export interface GrpcCallRequest {
  /** `BigQueryRead.CreateReadSession`, `BigQueryRead.ReadRows` or `BigQueryRead.SplitReadStream`. */
  method: string;
  /** The request message, proto (snake_case) field names, `${…}` placeholders. */
  request: Record<string, unknown>;
  /** Variables taken from this call's answer: name → dotted path in the (snake_case) answer, e.g. `streams.0.name`. */
  capture?: Record<string, string>;
}

/** One recorded answer of `expected_response.json`. */
export interface GrpcCallExpected {
  method: string;
  /** gRPC status name (`OK`, `INVALID_ARGUMENT`, `NOT_FOUND`, …). */
  status: string;
  /** The unary answer (CreateReadSession, SplitReadStream). */
  response?: unknown;
  /** The server-streamed answers (ReadRows), in order. */
  responses?: unknown[];
  /** For an error status: a regular expression the status details must contain a match of. */
  message_pattern?: string;
  /** For an error status: the status details exactly (Storage Write recordings; `${…}` placeholders). */
  error_message?: string;
}

/** A loaded fixture. */
export interface GrpcFixture {
  /** `<service>/<name>`, e.g. `storage_read/sr_split_read_stream`. */
  id: string;
  dir: string;
  /** setup.sql text, or undefined when the fixture has none. */
  setupSql?: string;
  calls: GrpcCallRequest[];
  expected: GrpcCallExpected[];
}

/** The recorded services: the Storage Read API (`storage_read`) and the Storage Write API (`storage_write`). */
export const GRPC_SERVICES = ['storage_read', 'storage_write'] as const;

/**
 * Every fixture directory of `services` under `root` (`<service>/<name>` holding a `request.json`),
 * sorted by id. The default is the Storage Read recordings alone (test/storage-read-corpus.test.ts
 * counts them); the Storage Write ones are `['storage_write']` (test/storage-write-corpus.test.ts).
 * @throws Error when a request.json or expected_response.json does not parse or the call lists differ in length.
 */
export function discoverGrpcFixtures(root: string = GRPC_FIXTURES_ROOT, services: readonly string[] = ['storage_read']): GrpcFixture[] {
  const out: GrpcFixture[] = [];
  for (const service of readdirSync(root).sort()) {
    if (!services.includes(service)) continue;
    const sdir = join(root, service);
    if (!statSync(sdir).isDirectory()) continue;
    for (const name of readdirSync(sdir).sort()) {
      const dir = join(sdir, name);
      if (statSync(dir).isDirectory() && existsSync(join(dir, 'request.json'))) out.push(loadGrpcFixture(dir, `${service}/${name}`));
    }
  }
  return out;
}

/**
 * Loads one fixture directory.
 * @throws Error when the files do not parse, a call has no method, or request and expected calls differ in number or method.
 */
export function loadGrpcFixture(dir: string, id: string): GrpcFixture {
  const req = JSON.parse(readFileSync(join(dir, 'request.json'), 'utf8')) as { calls?: GrpcCallRequest[] };
  const exp = JSON.parse(readFileSync(join(dir, 'expected_response.json'), 'utf8')) as { calls?: GrpcCallExpected[] };
  const calls = req.calls ?? [];
  const expected = exp.calls ?? [];
  if (calls.length === 0 || calls.length !== expected.length) throw new Error(`${id}: request.json has ${calls.length} calls, expected_response.json ${expected.length}`);
  calls.forEach((c, i) => {
    if (c.method !== expected[i]!.method) throw new Error(`${id}: call ${i} is ${c.method} but its recording is ${expected[i]!.method}`);
  });
  const setup = join(dir, 'setup.sql');
  return { id, dir, setupSql: existsSync(setup) ? readFileSync(setup, 'utf8') : undefined, calls, expected };
}

/** Replaces every `${NAME}` whose NAME is in `vars` inside a JSON-able value (strings only; keys untouched). */
export function expandVars<T>(value: T, vars: Record<string, string>): T {
  if (typeof value === 'string') return value.replace(/\$\{([A-Z_]+)\}/g, (m, k: string) => vars[k] ?? m) as T;
  if (Array.isArray(value)) return value.map((v) => expandVars(v, vars)) as T;
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandVars(v, vars)])) as T;
  return value;
}

const snakeToCamel = (k: string) => k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const camelToSnake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Object keys snake_case → lowerCamelCase at every depth (the GAPIC client's field names); values untouched. */
export function toCamelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toCamelKeys);
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeToCamel(k), toCamelKeys(v)]));
  return value;
}

/**
 * An answer as the client decoded it (lowerCamelCase keys, int64 as decimal strings, bytes as
 * Buffers) in the recordings' form: snake_case keys, bytes as base64 strings.
 */
export function toRecordedForm(value: unknown): unknown {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value as Uint8Array).toString('base64');
  if (Array.isArray(value)) return value.map(toRecordedForm);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [camelToSnake(k), toRecordedForm(v)]));
  return value;
}

/** The value at a dotted path (`streams.0.name`), or undefined. */
export function valueAt(o: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined), o);
}

const show = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};

/**
 * Differences between a recorded answer and the emulator's (both in the recorded form), one line
 * per difference with its dotted path. Rules (conformance/README.md "Storage Read API
 * recordings"): `"<*>"` matches any present value; arrays have the recorded length and match
 * element-wise; every recorded key must be present and match, keys the recording lacks are not
 * compared (the client fills proto3 defaults the recordings omit); scalars are equal.
 */
export function recordedDiffs(expected: unknown, actual: unknown, at = ''): string[] {
  const where = at || '(answer)';
  if (expected === ANY) return actual === undefined ? [`${where}: missing`] : [];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${where}: expected an array, got ${show(actual)}`];
    if (actual.length !== expected.length) return [`${where}: expected ${expected.length} items, got ${actual.length}`];
    return expected.flatMap((e, i) => recordedDiffs(e, actual[i], `${at}[${i}]`));
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return [`${where}: expected an object, got ${show(actual)}`];
    const a = actual as Record<string, unknown>;
    return Object.entries(expected).flatMap(([k, e]) => {
      const p = at ? `${at}.${k}` : k;
      return k in a && a[k] !== undefined ? recordedDiffs(e, a[k], p) : [`${p}: missing`];
    });
  }
  return actual === expected ? [] : [`${where}: expected ${show(expected)}, got ${show(actual)}`];
}

/** Reads the pending list (fixture id → reason); an absent file is an empty list. */
export function loadGrpcPending(file: string = GRPC_PENDING_FILE): Record<string, string> {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

/**
 * The pending list after a run: the entries of `pending` whose fixture still fails (reasons kept),
 * in id order. Fixtures that pass or no longer exist are dropped; a failure not already listed is
 * never added (the list only shrinks; conformance/README.md "Storage Read API recordings").
 */
export function shrinkGrpcPending(pending: Record<string, string>, failing: ReadonlySet<string>): Record<string, string> {
  return Object.fromEntries(Object.keys(pending).filter((id) => failing.has(id)).sort().map((id) => [id, pending[id]!]));
}

/** Writes the pending list as `conformance/grpc/pending.json` is kept (two-space JSON, trailing newline). */
export function saveGrpcPending(pending: Record<string, string>, file: string = GRPC_PENDING_FILE): void {
  writeFileSync(file, JSON.stringify(pending, null, 2) + '\n');
}

/** The pending-list verdict of a run (conformance/README.md "Storage Read API recordings"). */
export interface GrpcVerdict {
  /** Fixtures not in the pending list that fail: each fails the run. */
  failing: string[];
  /** Fixtures in the pending list that pass: each fails the run until its entry is removed. */
  passingPending: string[];
  /** Fixtures in the pending list that still fail (expected). */
  pending: string[];
  /** Fixtures that pass and are not pending. */
  passing: string[];
}

/** Sorts run outcomes (`id` → pass) against the pending list; the run is green iff `failing` and `passingPending` are empty. */
export function grpcVerdict(outcomes: readonly { id: string; pass: boolean }[], pending: Record<string, string>): GrpcVerdict {
  const v: GrpcVerdict = { failing: [], passingPending: [], pending: [], passing: [] };
  for (const o of outcomes) {
    const isPending = Object.hasOwn(pending, o.id);
    (o.pass ? (isPending ? v.passingPending : v.passing) : isPending ? v.pending : v.failing).push(o.id);
  }
  return v;
}
