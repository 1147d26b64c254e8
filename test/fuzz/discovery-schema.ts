/**
 * Fuzz generators: BigQuery's REST surface read from the discovery document
 * (`src/server/rest/bigquery-v2-discovery.json`, the same file Google serves at
 * https://bigquery.googleapis.com/discovery/v1/apis/bigquery/v2/rest): every method with its path
 * and query parameters, and every field path of its request schema with the field's type, enum and
 * "Required." marker (the discovery document marks required body fields only in the description).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A discovery-document JSON schema node (the subset BigQuery's document uses). */
export interface SchemaNode {
  type?: string;
  $ref?: string;
  format?: string;
  enum?: string[];
  description?: string;
  readOnly?: boolean;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode;
}

/** A path or query parameter of a method. */
export interface ParamSpec {
  name: string;
  location: 'path' | 'query';
  type: string;
  format?: string;
  enum?: string[];
  required?: boolean;
  repeated?: boolean;
}

/** One REST method (e.g. `tables.insert`). */
export interface RestMethod {
  id: string;
  httpMethod: string;
  /** Template such as `projects/{+projectId}/datasets/{+datasetId}`. */
  path: string;
  params: ParamSpec[];
  /** Request schema name (e.g. `Table`) when the method takes a body. */
  request?: string;
}

/** A field reachable in a request body: its key path (`'0'` = first array element) and schema. */
export interface FieldPath {
  path: string[];
  node: SchemaNode;
  required: boolean;
}

interface DiscoveryDoc {
  schemas: Record<string, SchemaNode>;
  resources: Record<string, { methods?: Record<string, { httpMethod: string; path: string; parameters?: Record<string, Omit<ParamSpec, 'name'>>; request?: { $ref: string } }> }>;
}

const DOC_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/server/rest/bigquery-v2-discovery.json');
let doc: DiscoveryDoc | undefined;

/** The discovery document (read once). */
export function discovery(): DiscoveryDoc {
  doc ??= JSON.parse(fs.readFileSync(DOC_FILE, 'utf8')) as DiscoveryDoc;
  return doc;
}

/** Every method of the document, in document order (46 for BigQuery v2). */
export function restMethods(): RestMethod[] {
  const out: RestMethod[] = [];
  for (const [rn, r] of Object.entries(discovery().resources)) {
    for (const [mn, m] of Object.entries(r.methods ?? {})) {
      const params = Object.entries(m.parameters ?? {}).map(([name, p]) => ({ ...p, name }));
      out.push({ id: `${rn}.${mn}`, httpMethod: m.httpMethod, path: m.path, params, request: m.request?.$ref });
    }
  }
  return out;
}

/** Resolves a `$ref` node to its schema. */
export function resolve(node: SchemaNode): SchemaNode {
  return node.$ref ? (discovery().schemas[node.$ref] ?? {}) : node;
}

/** True when the field's description marks it "Required." (the document's only marker). */
export function isRequired(node: SchemaNode): boolean {
  return /^\s*(\[Required\]|Required\b)/.test(node.description ?? '');
}

/**
 * Every field path of a schema, depth-first, up to `maxDepth` levels; a schema already on the
 * path is not re-entered (the document is recursive: TableFieldSchema.fields, QueryParameterType).
 */
export function fieldPaths(schemaName: string, maxDepth = 4, limit = 600): FieldPath[] {
  const out: FieldPath[] = [];
  const walk = (node: SchemaNode, at: string[], refs: string[], parentRequired: boolean) => {
    if (out.length >= limit || at.length >= maxDepth * 2) return;
    const r = resolve(node);
    const ref = node.$ref;
    if (ref && refs.includes(ref)) return;
    const nextRefs = ref ? [...refs, ref] : refs;
    if (r.properties) {
      for (const [k, child] of Object.entries(r.properties)) {
        const p = [...at, k];
        const req = parentRequired && isRequired(child);
        out.push({ path: p, node: child, required: req });
        walk(child, p, nextRefs, req);
      }
    } else if (r.type === 'array' && r.items) {
      walk(r.items, [...at, '0'], nextRefs, false);
    } else if (r.additionalProperties) {
      walk(r.additionalProperties, [...at, 'k'], nextRefs, false);
    }
  };
  walk({ $ref: schemaName }, [], [], true);
  return out;
}

/** The JSON kind a schema node expects: string, number, integer, boolean, object, array or any. */
export function jsonKind(node: SchemaNode): string {
  const r = resolve(node);
  if (r.type === 'integer') return 'integer';
  if (r.type === 'number') return 'number';
  if (r.type === 'string') return 'string';
  if (r.type === 'boolean') return 'boolean';
  if (r.type === 'array') return 'array';
  if (r.type === 'object' || r.properties || r.additionalProperties) return 'object';
  return 'any';
}

/** Sets `value` at `path` inside `root`, creating objects/arrays on the way; returns `root`. */
export function setAt(root: Record<string, unknown>, p: string[], value: unknown): Record<string, unknown> {
  let cur: any = root;
  for (let i = 0; i < p.length - 1; i++) {
    const k = p[i]!;
    const nextIsIndex = p[i + 1] === '0';
    if (cur[k] === null || typeof cur[k] !== 'object') cur[k] = nextIsIndex ? [] : {};
    cur = cur[k];
  }
  cur[p[p.length - 1]!] = value;
  return root;
}

/** Deletes the value at `path` (no-op when absent); returns `root`. */
export function deleteAt(root: Record<string, unknown>, p: string[]): Record<string, unknown> {
  let cur: any = root;
  for (let i = 0; i < p.length - 1; i++) {
    cur = cur?.[p[i]!];
    if (cur === null || typeof cur !== 'object') return root;
  }
  if (cur && typeof cur === 'object') delete cur[p[p.length - 1]!];
  return root;
}
