/**
 * Checks a JSON value against the JSON Schema generated from the discovery document
 * (discovery-json-schema.ts) by interpreting it directly: the subset that generator emits —
 * `type`, `enum`, `pattern`, `minimum`/`maximum`, `properties`, `additionalProperties`,
 * `required`, `items`, `$ref` to `#/$defs/…`. No compile step: compiling the discovery schema
 * graph with ajv took 0.6–1.5 s per request type on a 2-core machine, blocking the event loop on
 * the first request of each kind; interpreting costs nothing up front and is linear in the body.
 * The first problem found is reported in ajv's `ErrorObject` shape (keyword, instancePath,
 * params, data, parentSchema), depth first, keys in body order.
 */
import type { JsonSchema } from './discovery-json-schema.js';

/** The first problem found (ajv's ErrorObject fields the validator reads). */
export interface SchemaProblem {
  keyword: 'type' | 'enum' | 'pattern' | 'minimum' | 'maximum' | 'required' | 'additionalProperties';
  /** JSON Pointer of the value at fault (`/jobReference/jobId`). */
  instancePath: string;
  params: { additionalProperty?: string; missingProperty?: string };
  data: unknown;
  parentSchema: JsonSchema;
}

const escape = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

function typeOk(types: string[], v: unknown): boolean {
  for (const t of types) {
    if (t === 'null' ? v === null : t === 'array' ? Array.isArray(v) : t === 'object' ? v !== null && typeof v === 'object' && !Array.isArray(v) : t === 'integer' ? Number.isInteger(v) : typeof v === t) return true;
  }
  return false;
}

/** Schema nodes that accept anything (`{}`, JSON values): skipped without walking the value. */
const acceptsAnything = (s: JsonSchema) => {
  for (const k in s) if (!k.startsWith('x-')) return false;
  return true;
};

type Check = (v: unknown, at: string[]) => SchemaProblem | undefined;

const problem = (keyword: SchemaProblem['keyword'], data: unknown, at: string[], parentSchema: JsonSchema, params: SchemaProblem['params'] = {}): SchemaProblem => ({
  keyword,
  instancePath: at.length ? '/' + at.map(escape).join('/') : '',
  params,
  data,
  parentSchema,
});

/**
 * The check of one schema node, built on first use and memoised per node (`$ref`s resolved once):
 * a tree of closures rather than generated code, so there is no compile pause.
 */
function checkOf(defs: Record<string, JsonSchema>, schema: JsonSchema, memo: WeakMap<JsonSchema, Check>): Check {
  let s = schema;
  while (typeof s.$ref === 'string') s = defs[(s.$ref as string).slice(8)] ?? {};
  const known = memo.get(s);
  if (known) return known;
  let built: Check | undefined;
  const lazy: Check = (v, at) => (built ??= build(defs, s, memo))(v, at);
  memo.set(s, lazy);
  return lazy;
}

function build(defs: Record<string, JsonSchema>, s: JsonSchema, memo: WeakMap<JsonSchema, Check>): Check {
  if (acceptsAnything(s)) return () => undefined;
  const types = s.type === undefined ? undefined : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  const enumValues = s.enum as unknown[] | undefined;
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern) : undefined;
  const min = s.minimum as number | undefined;
  const max = s.maximum as number | undefined;
  const items = s.items ? checkOf(defs, s.items as JsonSchema, memo) : undefined;
  const required = (s.required as string[] | undefined) ?? [];
  const props = new Map<string, Check>();
  for (const [k, v] of Object.entries((s.properties as Record<string, JsonSchema> | undefined) ?? {})) props.set(k, checkOf(defs, v, memo));
  const extra = s.additionalProperties;
  const extraCheck = extra && typeof extra === 'object' ? checkOf(defs, extra as JsonSchema, memo) : undefined;
  const closed = extra === false;
  const has = Object.prototype.hasOwnProperty;
  return (value, at) => {
    if (types && !typeOk(types, value)) return problem('type', value, at, s);
    if (value === null) return undefined;
    if (enumValues && !enumValues.includes(value)) return problem('enum', value, at, s);
    if (typeof value === 'string') return pattern && !pattern.test(value) ? problem('pattern', value, at, s) : undefined;
    if (typeof value === 'number') {
      if (min !== undefined && value < min) return problem('minimum', value, at, s);
      return max !== undefined && value > max ? problem('maximum', value, at, s) : undefined;
    }
    if (Array.isArray(value)) {
      if (!items) return undefined;
      for (let i = 0; i < value.length; i++) {
        at.push(String(i));
        const p = items(value[i], at);
        at.pop();
        if (p) return p;
      }
      return undefined;
    }
    if (typeof value !== 'object') return undefined;
    const obj = value as Record<string, unknown>;
    for (const r of required) if (!has.call(obj, r)) return problem('required', value, at, s, { missingProperty: r });
    for (const k in obj) {
      const sub = props.get(k) ?? extraCheck;
      if (!sub) {
        if (closed) return problem('additionalProperties', value, at, s, { additionalProperty: k });
        continue;
      }
      at.push(k);
      const p = sub(obj[k], at);
      at.pop();
      if (p) return p;
    }
    return undefined;
  };
}

const memos = new WeakMap<Record<string, JsonSchema>, WeakMap<JsonSchema, Check>>();

/**
 * The first problem of `value` against `schema` (resolving `$ref` through `defs`), or undefined.
 * Values are at most MAX_JSON_DEPTH-deep (checked at parse time, json-body.ts), so the recursion
 * is bounded; nodes accepting any JSON (`JsonValue`) are not walked.
 */
export function firstSchemaProblem(defs: Record<string, JsonSchema>, schema: JsonSchema, value: unknown): SchemaProblem | undefined {
  let memo = memos.get(defs);
  if (!memo) memos.set(defs, (memo = new WeakMap()));
  return checkOf(defs, schema, memo)(value, []);
}
