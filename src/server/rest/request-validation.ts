/**
 * Validation of every REST request against BigQuery's discovery document before a handler sees
 * it: the body against the method's `request.$ref` schema (converted once to JSON Schema by
 * discovery-json-schema.ts, checked by schema-check.ts), and the method's typed query parameters
 * (`maxResults`, `startIndex`, `all`, `stateFilter` …). Errors are the API front end's 400
 * `invalid` texts:
 * - unknown field: `Invalid JSON payload received. Unknown name "x" at 'dataset': Cannot find field.`
 * - a list for a single field: `Invalid JSON payload received. Unknown name "type" at
 *   'table.time_partitioning': Proto field is not repeating, cannot start list.`
 * - an object for a scalar: `Invalid JSON payload received. Unknown name "job_id" at
 *   'job.job_reference': Starting an object on a scalar field`
 * - a wrong scalar: `Invalid value at 'job.job_reference.job_id' (TYPE_STRING), false`
 * - a body that is not an object: `Invalid JSON payload received. Root element must be a message.`
 * - a documented-required field absent: `Required parameter is missing: <field path>` (the text
 *   the handlers already answer for their own required checks).
 */
import type { FastifyRequest, RouteOptions } from 'fastify';
import { BigQueryError } from '../../errors/errors.js';
import { discoveryDocument } from './discovery.js';
import { discoveryJsonSchema, type JsonSchema } from './discovery-json-schema.js';
import { firstSchemaProblem, type SchemaProblem } from './schema-check.js';
import { checkReferenceIds } from './reference-ids.js';

interface DiscoveryParameter {
  type?: string;
  format?: string;
  location?: string;
  enum?: string[];
  repeated?: boolean;
}

interface DiscoveryMethod {
  id: string;
  httpMethod: string;
  flatPath?: string;
  path: string;
  request?: { $ref: string };
  parameters?: Record<string, DiscoveryParameter>;
}

/** A discovery method as the validator uses it. */
export interface RestMethod {
  /** e.g. `bigquery.datasets.insert`. */
  id: string;
  httpMethod: string;
  /** The request body's schema name (`Dataset`), if the method has a body. */
  requestRef?: string;
  queryParams: Record<string, DiscoveryParameter>;
}

let defs: Record<string, JsonSchema> | undefined;
let methods: Map<string, RestMethod> | undefined;

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** `METHOD path-shape` with every path parameter as `*` (discovery `{x}` or fastify `:x`). */
const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** Every method of the discovery document by `routeKey`. */
export function restMethods(): Map<string, RestMethod> {
  if (methods) return methods;
  methods = new Map();
  const doc = discoveryDocument() as { resources: Record<string, { methods: Record<string, DiscoveryMethod> }> };
  for (const res of Object.values(doc.resources))
    for (const m of Object.values(res.methods)) {
      const path = (m.flatPath ?? m.path).replace(/\{[^}]+\}/g, '*');
      const queryParams: Record<string, DiscoveryParameter> = {};
      for (const [k, p] of Object.entries(m.parameters ?? {})) if (p.location === 'query') queryParams[k] = p;
      methods.set(routeKey(m.httpMethod, path), { id: m.id, httpMethod: m.httpMethod, requestRef: m.request?.$ref, queryParams });
    }
  return methods;
}

/**
 * The discovery method a fastify route serves (routes are registered without the base path,
 * src/server/server.ts routedPath; `:param` segments; `::` is a literal colon; a `(regex)`
 * constraint is part of its parameter), or undefined for routes outside the API (discovery, uploads).
 * A PATCH route without a discovery method (routines) validates like the method's PUT.
 */
export function methodOfRoute(httpMethod: string, url: string): RestMethod | undefined {
  if (url.startsWith('/upload/')) return undefined;
  const rel = url.replace(/^\//, '');
  const path = rel
    .split('/')
    .map((seg) => seg.replace(/^:[A-Za-z_]+(?:\([^)]*\))?/, '*').replace(/::/g, ':'))
    .join('/');
  const all = restMethods();
  return all.get(routeKey(httpMethod, path)) ?? (httpMethod.toUpperCase() === 'PATCH' ? all.get(routeKey('PUT', path)) : undefined);
}

/** The discovery schemas as JSON Schema definitions, generated at first use. */
function schemaDefs(): Record<string, JsonSchema> {
  defs ??= discoveryJsonSchema('bigquery-v2', (discoveryDocument() as { schemas: never }).schemas).$defs as Record<string, JsonSchema>;
  return defs;
}

/** The definition a `$ref` names, for walking the schema along an error's path. */
function resolve(s: JsonSchema | undefined): JsonSchema | undefined {
  let out = s;
  while (typeof out?.$ref === 'string') out = schemaDefs()[(out.$ref as string).replace('#/$defs/', '')];
  return out;
}

/** Characters of the value kept in `Invalid value at …, <value>`. */
const PRINTED_CHARS = 200;

/**
 * The value as the front end prints it in `Invalid value at …, <value>`: its JSON, cut after
 * PRINTED_CHARS characters with `…`. Only as much of the value is serialised as the cut keeps
 * (a wrong-typed value can be a multi-megabyte string or array of a hostile request).
 */
function printed(v: unknown): string {
  const out: string[] = [];
  let length = 0;
  const emit = (s: string) => {
    out.push(s);
    length += s.length;
  };
  const write = (x: unknown): void => {
    if (length > PRINTED_CHARS) return;
    // A string's first N characters are at least N characters of JSON, whatever the escapes.
    if (typeof x === 'string') emit(JSON.stringify(x.length > PRINTED_CHARS + 1 ? x.slice(0, PRINTED_CHARS + 1) : x));
    else if (Array.isArray(x)) {
      emit('[');
      for (let i = 0; i < x.length && length <= PRINTED_CHARS; i++) {
        if (i) emit(',');
        write(x[i] === undefined || typeof x[i] === 'function' ? null : x[i]);
      }
      emit(']');
    } else if (x && typeof x === 'object') {
      emit('{');
      let first = true;
      for (const [k, e] of Object.entries(x)) {
        if (length > PRINTED_CHARS) break;
        if (e === undefined || typeof e === 'function') continue;
        emit(`${first ? '' : ','}${JSON.stringify(k.length > PRINTED_CHARS + 1 ? k.slice(0, PRINTED_CHARS + 1) : k)}:`);
        first = false;
        write(e);
      }
      emit('}');
    } else emit(JSON.stringify(x) ?? String(x));
  };
  write(v);
  const s = out.join('');
  return length > PRINTED_CHARS ? `${s.slice(0, PRINTED_CHARS)}…` : s;
}

/** Field path (`job.job_reference.job_id`, `table.schema.fields[0].name`, `dataset.labels["k"]`). */
function protoPath(root: string, rootRef: string, segments: string[]): string {
  let out = root;
  let s = resolve({ $ref: `#/$defs/${rootRef}` });
  for (const seg of segments) {
    const props = s?.properties as Record<string, JsonSchema> | undefined;
    if (s?.['x-repeated']) {
      out += `[${seg}]`;
      s = resolve(s.items as JsonSchema);
    } else if (s?.['x-map']) {
      out += `[${JSON.stringify(seg)}]`;
      s = resolve(s.additionalProperties as JsonSchema);
    } else {
      out += `.${snake(seg)}`;
      s = resolve(props?.[seg]);
    }
  }
  return out;
}

const segmentsOf = (instancePath: string) => (instancePath ? instancePath.slice(1).split('/').map((x) => x.replace(/~1/g, '/').replace(/~0/g, '~')) : []);

/** BigQuery's error for the first schema problem of a body of schema `ref`. */
function bodyError(ref: string, e: SchemaProblem): BigQueryError {
  const root = snake(ref[0].toLowerCase() + ref.slice(1));
  const segs = segmentsOf(e.instancePath);
  const parent = segs.slice(0, -1);
  const last = segs[segs.length - 1];
  const schema = e.parentSchema;
  const at = (s: string[]) => protoPath(root, ref, s);
  if (e.keyword === 'additionalProperties') {
    const name = (e.params as { additionalProperty: string }).additionalProperty;
    return BigQueryError.invalidJsonPayload(`Unknown name ${JSON.stringify(name)} at '${at(segs)}': Cannot find field.`, at(segs));
  }
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    const field = [...segs.filter((x) => !/^\d+$/.test(x)), missing].join('.');
    return BigQueryError.requiredParameterMissing(field);
  }
  if (e.keyword === 'type') {
    if (!segs.length) return BigQueryError.invalidJsonPayload('Root element must be a message.');
    const name = JSON.stringify(/^\d+$/.test(last) ? last : snake(last));
    if (Array.isArray(e.data)) return BigQueryError.invalidJsonPayload(`Unknown name ${name} at '${at(parent)}': Proto field is not repeating, cannot start list.`, at(segs));
    if (e.data && typeof e.data === 'object' && !schema['x-repeated'])
      return BigQueryError.invalidJsonPayload(`Unknown name ${name} at '${at(parent)}': Starting an object on a scalar field`, at(segs));
  }
  let proto = schema['x-proto'] as string | undefined;
  if (schema['x-repeated']) proto = (resolve(schema.items as JsonSchema)?.['x-proto'] as string | undefined) ?? proto;
  return BigQueryError.invalidFieldValue(at(segs), proto ?? 'TYPE_MESSAGE', printed(e.data));
}

/** Root schemas of patch bodies: the resource's own required fields may be left out. */
const partialRoots = new Map<string, JsonSchema>();

/**
 * Validates a parsed request body against the discovery schema `ref` (e.g. `Job`). A `partial`
 * body (PATCH: "replaces only the fields that are provided in the submitted resource") need not
 * carry the resource's required top-level fields; nested messages it sends are checked in full.
 * @throws BigQueryError 400 invalid with the front end's text for the first problem found.
 */
export function validateRequestBody(ref: string, body: unknown, partial = false): void {
  let root: JsonSchema = { $ref: `#/$defs/${ref}` };
  if (partial) {
    let p = partialRoots.get(ref);
    if (!p) partialRoots.set(ref, (p = { ...resolve(root), required: [] }));
    root = p;
  }
  const problem = firstSchemaProblem(schemaDefs(), root, body);
  if (problem) throw bodyError(ref, problem);
}

const PARAM_PROTO: Record<string, string> = { int32: 'TYPE_INT32', uint32: 'TYPE_UINT32', int64: 'TYPE_INT64', uint64: 'TYPE_UINT64' };

/** One query-string value against its discovery parameter; returns the expected type on a mismatch. */
function badParam(p: DiscoveryParameter, value: string): string | undefined {
  if (p.type === 'boolean') return /^(true|false)$/i.test(value) ? undefined : 'TYPE_BOOL';
  if (p.format && PARAM_PROTO[p.format]) {
    const unsigned = p.format.startsWith('u');
    if (!(unsigned ? /^\d+$/ : /^-?\d+$/).test(value)) return PARAM_PROTO[p.format];
    if (p.format.endsWith('32') && Math.abs(Number(value)) > 4294967295) return PARAM_PROTO[p.format];
    return undefined;
  }
  if (p.enum && !p.enum.some((x) => x.toLowerCase() === value.toLowerCase())) return 'TYPE_ENUM';
  return undefined;
}

/**
 * Validates the typed query parameters of a method (`?maxResults=abc` →
 * `Invalid value at 'max_results' (TYPE_UINT32), "abc"`); other parameters pass through.
 * @throws BigQueryError 400 invalid.
 */
export function validateQueryParams(m: RestMethod, query: Record<string, unknown>): void {
  for (const [name, p] of Object.entries(m.queryParams)) {
    const raw = query[name];
    if (raw === undefined) continue;
    const values = (Array.isArray(raw) ? raw : [raw]).flatMap((x) => (p.repeated ? String(x).split(',') : [String(x)]));
    for (const value of values) {
      if (value === '' && p.type !== 'boolean') continue;
      const proto = badParam(p, value);
      if (proto) throw BigQueryError.invalidFieldValue(snake(name).replace(/\._?/g, '.'), proto, JSON.stringify(value));
    }
  }
}

/**
 * fastify `onRoute` hook: routes of a discovery method get a `preValidation` step checking their
 * query parameters, JSON body and the body's resource reference ids (reference-ids.ts) before the
 * handler runs.
 */
export function addRequestValidation(route: RouteOptions): void {
  const methodsOf = Array.isArray(route.method) ? route.method : [route.method];
  const m = methodOfRoute(String(methodsOf[0]), route.url);
  if (!m) return;
  const check = async (req: FastifyRequest) => {
    validateQueryParams(m, (req.query ?? {}) as Record<string, unknown>);
    if (m.requestRef && req.body !== undefined) validateRequestBody(m.requestRef, req.body, req.method === 'PATCH');
    if (m.requestRef) checkReferenceIds(req.body);
  };
  const prior = route.preValidation;
  route.preValidation = prior ? [...(Array.isArray(prior) ? prior : [prior]), check] : [check];
}
