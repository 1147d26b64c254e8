/**
 * Fuzz generators: malformed REST requests for every method of the discovery document. Each case
 * starts from a plausible body for the method's request schema (its "Required." fields filled,
 * pointing at the fuzz scene's dataset/table) and applies one mutation: a wrong JSON type, a
 * missing required field, an unknown field, pathological nesting, a huge string, a wrong enum,
 * a bad path or query parameter, malformed JSON or a non-JSON content type.
 */
import fc from 'fast-check';
import { deleteAt, fieldPaths, jsonKind, resolve, restMethods, setAt, type FieldPath, type RestMethod } from './discovery-schema.js';
import type { FuzzRequest } from './http-target.js';

/** Resources that exist before fuzzing starts (see `createScene` in fuzz-scene.ts). */
export interface Scene {
  projectId: string;
  datasetId: string;
  tableId: string;
  routineId: string;
  jobId: string;
  policyId: string;
}

/** Size knobs: `npm test` keeps them small; `npm run fuzz` raises them. */
export interface RestFuzzSizes {
  /** Nesting depths tried for deeply nested JSON values. */
  depths: number[];
  /** Lengths tried for huge strings. */
  stringLengths: number[];
}

export const TEST_SIZES: RestFuzzSizes = { depths: [64, 1_000, 5_000, 20_000], stringLengths: [1_025, 65_600, 300_000] };
export const LONG_RUN_SIZES: RestFuzzSizes = { depths: [64, 1_000, 5_000, 20_000, 100_000], stringLengths: [1_025, 65_600, 300_000, 2_000_000, 11_000_000] };

let uniq = 0;
const fresh = (p: string) => `${p}_${process.pid}_${++uniq}`;

/** A plausible body for a request schema, so a mutation reaches the handler's deeper code. */
export function seedBody(schema: string, s: Scene): Record<string, unknown> {
  const table = { projectId: s.projectId, datasetId: s.datasetId, tableId: fresh('t') };
  switch (schema) {
    case 'Dataset':
      return { datasetReference: { projectId: s.projectId, datasetId: fresh('d') }, labels: { a: 'b' } };
    case 'Table':
      return { tableReference: table, schema: { fields: [{ name: 'c', type: 'STRING', mode: 'NULLABLE' }] } };
    case 'Job':
      return { jobReference: { projectId: s.projectId, jobId: fresh('j') }, configuration: { query: { query: 'SELECT 1', useLegacySql: false } } };
    case 'QueryRequest':
      return { query: 'SELECT 1', useLegacySql: false };
    case 'Routine':
      return {
        routineReference: { projectId: s.projectId, datasetId: s.datasetId, routineId: fresh('r') },
        routineType: 'SCALAR_FUNCTION',
        language: 'SQL',
        definitionBody: 'x + 1',
        arguments: [{ name: 'x', dataType: { typeKind: 'INT64' } }],
      };
    case 'RowAccessPolicy':
      return {
        rowAccessPolicyReference: { projectId: s.projectId, datasetId: s.datasetId, tableId: s.tableId, policyId: fresh('p') },
        filterPredicate: 'n > 0',
        grantees: ['allUsers'],
      };
    case 'TableDataInsertAllRequest':
      return { rows: [{ insertId: fresh('i'), json: { n: 1, s: 'x' } }] };
    case 'BatchDeleteRowAccessPoliciesRequest':
      return { policyIds: [fresh('p')] };
    case 'Model':
      return { modelReference: { projectId: s.projectId, datasetId: s.datasetId, modelId: 'm' } };
    default:
      return {};
  }
}

/** Path parameter values that name the scene's existing resources. */
function sceneParam(name: string, s: Scene, method: RestMethod): string {
  // A DELETE never targets the scene itself, so later cases still find it.
  const del = method.httpMethod === 'DELETE';
  switch (name) {
    case 'projectId':
      return s.projectId;
    case 'datasetId':
      return del && method.id.startsWith('datasets.') ? fresh('gone') : s.datasetId;
    case 'tableId':
      return del && method.id.startsWith('tables.') ? fresh('gone') : s.tableId;
    case 'routineId':
      return del ? fresh('gone') : s.routineId;
    case 'jobId':
      return del ? fresh('gone') : s.jobId;
    case 'policyId':
      return del ? fresh('gone') : s.policyId;
    case 'resource':
      return `projects/${s.projectId}/datasets/${s.datasetId}/tables/${s.tableId}`;
    default:
      return 'm';
  }
}

/** Builds the request path (`/bigquery/v2/…`) with `overrides` replacing some parameters verbatim. */
export function buildPath(method: RestMethod, s: Scene, overrides: Record<string, string> = {}, query = ''): string {
  const p = method.path.replace(/\{\+?(\w+)\}/g, (_m, name: string) => overrides[name] ?? encodeURIComponent(sceneParam(name, s, method)));
  return `/bigquery/v2/${p}${query ? `?${query}` : ''}`;
}

/** A JSON value of the wrong kind for a field expecting `kind`. */
function wrongTypeValue(kind: string): fc.Arbitrary<unknown> {
  const all: Record<string, fc.Arbitrary<unknown>> = {
    string: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant({}), fc.constant([]), fc.constant({ a: [1] })),
    integer: fc.oneof(fc.constant('abc'), fc.constant(1.5), fc.boolean(), fc.constant({}), fc.constant([]), fc.constant('1e400'), fc.constant(-1), fc.constant(1e300)),
    number: fc.oneof(fc.constant('abc'), fc.boolean(), fc.constant({}), fc.constant([])),
    boolean: fc.oneof(fc.constant('yes'), fc.integer(), fc.constant({}), fc.constant([])),
    object: fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant([]), fc.constant([{}]), fc.constant(null)),
    array: fc.oneof(fc.string(), fc.integer(), fc.constant({}), fc.constant({ 0: 'x' }), fc.constant(true)),
    any: fc.oneof(fc.string(), fc.integer(), fc.constant([]), fc.constant({})),
  };
  return all[kind] ?? all.any!;
}

/** A mutation applied to a seed body, returning the serialized body. */
type BodyMutation = { kind: string; apply: (body: Record<string, unknown>) => string };

const DEEP_TOKEN = '"__bqemu_fuzz_deep__"';
const HUGE_TOKEN = '__bqemu_fuzz_huge__';

/**
 * The JSON text of `ch.repeat(n)`, made once per (ch, n): the same strings of up to 11 MB (66 MB
 * of JSON for a NUL) recur throughout a long run, and serialising them again for every request
 * took a fifth of the harness's CPU — time the emulator under test then did not get.
 */
const hugeJsonCache = new Map<string, string>();
function hugeJson(ch: string, n: number): string {
  const key = `${ch}\u0001${n}`;
  let json = hugeJsonCache.get(key);
  if (json === undefined) hugeJsonCache.set(key, (json = JSON.stringify(ch.repeat(n))));
  return json;
}

/** `body` (JSON text holding the string HUGE_TOKEN once) with that string's JSON replaced by `json`. */
function spliceJson(body: string, json: string): string {
  const at = body.indexOf(`"${HUGE_TOKEN}"`);
  return body.slice(0, at) + json + body.slice(at + HUGE_TOKEN.length + 2);
}

/** Every key path present in a seed body with the JSON kind of its value (the fields a handler surely reads). */
function presentPaths(v: unknown, at: string[] = []): { path: string[]; kind: string }[] {
  const out: { path: string[]; kind: string }[] = [];
  if (Array.isArray(v)) v.forEach((x, i) => out.push({ path: [...at, String(i)], kind: kindOf(x) }, ...presentPaths(x, [...at, String(i)])));
  else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) out.push({ path: [...at, k], kind: kindOf(x) }, ...presentPaths(x, [...at, k]));
  return out;
}
const kindOf = (x: unknown) => (Array.isArray(x) ? 'array' : x === null ? 'any' : typeof x === 'number' ? 'number' : typeof x);

/** The body-mutation arbitrary for one schema. */
function bodyMutations(schema: string, sizes: RestFuzzSizes, present: { path: string[]; kind: string }[]): fc.Arbitrary<BodyMutation> {
  const fields = fieldPaths(schema);
  const arbs: fc.Arbitrary<BodyMutation>[] = [];
  const ser = (b: Record<string, unknown>) => JSON.stringify(b);
  if (present.length > 0)
    arbs.push(
      fc.constantFrom(...present).chain((f) => wrongTypeValue(f.kind).map((v) => ({ kind: 'rest:wrongType', apply: (b: Record<string, unknown>) => ser(setAt(b, f.path, v)) }))),
    );
  if (fields.length > 0) {
    const pick = fc.constantFrom(...fields);
    arbs.push(
      pick.chain((f: FieldPath) => wrongTypeValue(jsonKind(f.node)).map((v) => ({ kind: 'rest:wrongType', apply: (b) => ser(setAt(b, f.path, v)) }))),
      fc.tuple(pick, fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })).map(([f, k, v]) => ({
        kind: 'rest:unknownField',
        apply: (b) => ser(setAt(b, [...f.path.slice(0, -1), `zz${k}`], v)),
      })),
      fc.tuple(pick, fc.constantFrom(...sizes.depths), fc.constantFrom('[', '{"a":')).map(([f, d, open]) => ({
        kind: 'rest:deepNesting',
        apply: (b) => ser(setAt(b, f.path, '__bqemu_fuzz_deep__')).replace(DEEP_TOKEN, open.repeat(d) + (open === '[' ? '' : '1') + (open === '[' ? ']' : '}').repeat(d)),
      })),
    );
    const strings = fields.filter((f) => jsonKind(f.node) === 'string');
    if (strings.length > 0)
      arbs.push(
        fc.tuple(fc.constantFrom(...strings), fc.constantFrom(...sizes.stringLengths), fc.constantFrom('a', 'é', '\u0000', '`', '9')).map(([f, n, ch]) => ({
          kind: 'rest:hugeString',
          apply: (b) => spliceJson(ser(setAt(b, f.path, HUGE_TOKEN)), hugeJson(ch, n)),
        })),
      );
    const enums = fields.filter((f) => resolve(f.node).enum?.length);
    if (enums.length > 0)
      arbs.push(
        fc.tuple(fc.constantFrom(...enums), fc.constantFrom('NOT_A_VALUE', '', 'lower', ' ', '0')).map(([f, v]) => ({
          kind: 'rest:wrongEnum',
          apply: (b) => ser(setAt(b, f.path, v === 'lower' ? (resolve(f.node).enum![1] ?? 'x').toLowerCase() : v)),
        })),
      );
    const required = fields.filter((f) => f.required);
    if (required.length > 0)
      arbs.push(fc.constantFrom(...required).map((f) => ({ kind: 'rest:missingRequired', apply: (b) => ser(deleteAt(b, f.path)) })));
  }
  arbs.push(
    fc.constantFrom('', 'null', '[]', '"s"', '123', '{', '{"a":}', '\uFEFF{}', '{"a":1,"a":2}', 'NaN', '{"query":"SELECT 1"', 'undefined').map((raw) => ({
      kind: 'rest:malformedJson',
      apply: () => raw,
    })),
    fc.nat({ max: 200 }).map((cut) => ({ kind: 'rest:truncatedJson', apply: (b) => ser(b).slice(0, Math.max(1, ser(b).length - 1 - cut)) })),
  );
  return fc.oneof(...arbs);
}

/** Bad values for one path parameter. */
const badParamValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(1_025, 1_100, 5_000, 15_000).map((n) => 'a'.repeat(n)),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '..', '%2e%2e', 'a%2Fb', '%00', 'ü', '%20', '', '-', '*', 'a:b', '@', '%25', '$', "'", '`'),
  fc.string({ minLength: 1, maxLength: 30 }).map((s) => encodeURIComponent(s)),
);

/** Bad values for a query parameter of type `type`. */
function badQueryValue(type: string, enumValues?: string[]): fc.Arbitrary<string> {
  const common = fc.constantFrom('', '%zz', 'a'.repeat(5_000), '-1', '1e99', '99999999999999999999999', 'null', '[]', '{}', 'true');
  if (enumValues) return fc.oneof(common, fc.constantFrom('NOT_A_VALUE', enumValues[0]!.toLowerCase()));
  return type === 'string' ? fc.oneof(common, fc.string({ maxLength: 20 }).map(encodeURIComponent)) : common;
}

/** Every malformed-request arbitrary for one method. */
export function malformedRequests(method: RestMethod, s: Scene, sizes: RestFuzzSizes): fc.Arbitrary<FuzzRequest> {
  const http = method.httpMethod;
  const schema = method.request;
  const arbs: fc.WeightedArbitrary<FuzzRequest>[] = [];
  const base = (kind: string, path: string, body?: string, headers?: Record<string, string>): FuzzRequest => ({ kind: `${kind}`, method: http, path, body, headers });
  if (schema) {
    arbs.push({ weight: 8, arbitrary: bodyMutations(schema, sizes, presentPaths(seedBody(schema, s))).map((m) => base(m.kind, buildPath(method, s), m.apply(seedBody(schema, s)))) });
    arbs.push({
      weight: 1,
      arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml').map((ct) =>
        base('rest:contentType', buildPath(method, s), JSON.stringify(seedBody(schema, s)), { 'content-type': ct }),
      ),
    });
  }
  const pathParams = method.params.filter((p) => p.location === 'path');
  if (pathParams.length > 0)
    arbs.push({
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...pathParams), badParamValue).map(([p, v]) =>
        base('rest:badPathParam', buildPath(method, s, { [p.name]: v }), schema ? JSON.stringify(seedBody(schema, s)) : undefined),
      ),
    });
  const queryParams = method.params.filter((p) => p.location === 'query');
  if (queryParams.length > 0)
    arbs.push({
      weight: 2,
      arbitrary: fc.constantFrom(...queryParams).chain((p) =>
        badQueryValue(p.type, p.enum).map((v) => base('rest:badQueryParam', buildPath(method, s, {}, `${p.name}=${v}`), schema ? JSON.stringify(seedBody(schema, s)) : undefined)),
      ),
    });
  return fc.oneof(...arbs);
}

/** Malformed requests over every method of the document, method chosen uniformly. */
export function anyMalformedRequest(s: Scene, sizes: RestFuzzSizes, methods: RestMethod[] = restMethods()): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...methods.map((m) => malformedRequests(m, s, sizes).map((r) => ({ ...r, label: m.id }))));
}

/** Read-only requests that must keep answering 2xx after any fuzz case (no poisoned state). */
export function readBackRequests(s: Scene): FuzzRequest[] {
  const p = `/bigquery/v2/projects/${s.projectId}`;
  return [
    { kind: 'readBack', method: 'GET', path: `${p}/datasets` },
    { kind: 'readBack', method: 'GET', path: `${p}/datasets?all=true` },
    { kind: 'readBack', method: 'GET', path: `${p}/datasets/${s.datasetId}` },
    { kind: 'readBack', method: 'GET', path: `${p}/datasets/${s.datasetId}/tables` },
    { kind: 'readBack', method: 'GET', path: `${p}/datasets/${s.datasetId}/tables/${s.tableId}` },
    { kind: 'readBack', method: 'GET', path: `${p}/datasets/${s.datasetId}/routines` },
    { kind: 'readBack', method: 'GET', path: `${p}/datasets/${s.datasetId}/tables/${s.tableId}/rowAccessPolicies` },
    { kind: 'readBack', method: 'GET', path: `${p}/jobs?allUsers=true&projection=full` },
    { kind: 'readBack', method: 'GET', path: `${p}/jobs/${s.jobId}` },
  ];
}
