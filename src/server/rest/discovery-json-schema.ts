/**
 * BigQuery's REST discovery document (bigquery-v2-discovery.json) as JSON Schema, generated once:
 * every discovery schema becomes a `$defs` entry that the request validator (schema-check.ts) checks bodies against.
 *
 * Mapping (proto3 JSON, https://protobuf.dev/programming-guides/json/, as Google's front ends parse
 * request bodies):
 * - `string` → string; `format: int64/uint64` → a decimal string or an integer number;
 *   `integer` (int32/uint32) → an integer number or a decimal string; `number` → a number or a
 *   numeric string (`NaN`, `Infinity`); `boolean` → a boolean; `any` → anything;
 * - `enum` → one of the listed names; `array` → `items`; `additionalProperties` → a map;
 * - a message accepts only its own fields (`additionalProperties: false`);
 * - `null` is accepted everywhere (proto3 JSON: the field is unset; patch: cleared).
 * Each generated node carries `x-proto` (the protobuf type named in error texts) so the validator
 * can word its errors like the front end: `TYPE_STRING`, `TYPE_INT64`, or
 * `type.googleapis.com/google.cloud.bigquery.v2.<Message>`.
 *
 * Fields documented as required ("Required." / "[Required]" in the description) are required,
 * except ids the method fills in from the URL or defaults (every `*Reference` other than its own
 * id) and the documented-required fields BigQuery in fact defaults (listed in NOT_ENFORCED).
 */

export type JsonSchema = Record<string, unknown>;

interface DiscoveryProperty {
  type?: string;
  format?: string;
  $ref?: string;
  items?: DiscoveryProperty;
  additionalProperties?: DiscoveryProperty;
  properties?: Record<string, DiscoveryProperty>;
  enum?: string[];
  description?: string;
}

/** Prefix of message type names in the front end's texts. */
export const MESSAGE_TYPE_PREFIX = 'type.googleapis.com/google.cloud.bigquery.v2.';

/** Documented "Required" fields that BigQuery fills in or that clients legitimately omit. */
const NOT_ENFORCED = new Set([
  'TimePartitioning.type', // defaults to DAY (the clients send {field} alone)
  'JobConfigurationLoad.sourceUris', // media uploads carry the data instead
  'JobReference.jobId', // generated when absent
  'QueryParameter.parameterValue', // a NULL parameter has no value
  'BigtableColumn.qualifierEncoded', // or qualifierString
  'CloneDefinition.baseTableReference', // output only
  'CloneDefinition.cloneTime',
  'SnapshotDefinition.baseTableReference',
  'SnapshotDefinition.snapshotTime',
  // A resource's own reference: a patch/update names the resource in the URL (the handlers
  // answer "Required parameter is missing" for an insert without one).
  'Dataset.datasetReference',
  'Table.tableReference',
  'Routine.routineReference',
  'Model.modelReference',
  'RowAccessPolicy.rowAccessPolicyReference',
]);

/**
 * String fields that also take a JSON number or boolean: `QueryParameterValue.value`, which the
 * official Node client sends raw for INT64/FLOAT64/BOOL parameters (`{value: 3}`, `{value: true}`)
 * and BigQuery accepts.
 */
const ANY_SCALAR = new Set(['QueryParameterValue.value']);

/**
 * Fields outside the discovery schema that clients send and the emulator takes:
 * `Dataset.projectId` (the Node client's `createDataset(id, {projectId})` puts it in the body,
 * https://github.com/googleapis/nodejs-bigquery/issues/1227, working against BigQuery since);
 * `JobConfigurationQuery.clusteringFields` (the client libraries' name for `clustering.fields`,
 * passed through raw by the Node client's `createQueryJob` options).
 */
const CLIENT_EXTRAS: Record<string, Record<string, JsonSchema>> = {
  Dataset: { projectId: { type: ['string', 'null'], 'x-proto': 'TYPE_STRING' } },
  JobConfigurationQuery: { clusteringFields: { type: ['array', 'null'], items: { type: ['string'], 'x-proto': 'TYPE_STRING' }, 'x-repeated': true } },
};

/** The field of a `*Reference` message that is its resource's own id (the rest come from the URL). */
const OWN_ID: Record<string, string> = {
  DatasetReference: 'datasetId',
  TableReference: 'tableId',
  JobReference: 'jobId',
  RoutineReference: 'routineId',
  ModelReference: 'modelId',
  RowAccessPolicyReference: 'policyId',
  ProjectReference: 'projectId',
};

const isRequired = (schemaName: string, field: string, p: DiscoveryProperty): boolean => {
  if (!/^\s*(\[Required\]|Required[.:]|REQUIRED:)/.test(p.description ?? '')) return false;
  if (NOT_ENFORCED.has(`${schemaName}.${field}`)) return false;
  if (schemaName.endsWith('Reference') && OWN_ID[schemaName] !== undefined) return OWN_ID[schemaName] === field;
  return true;
};

const INT_STRING = '^-?[0-9]+$';
const UINT_STRING = '^[0-9]+$';
const NUMBER_STRING = '^(-?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?|NaN|-?Infinity)$';

function scalar(p: DiscoveryProperty): JsonSchema {
  const f = p.format;
  if (p.type === 'string' && (f === 'int64' || f === 'uint64')) {
    const unsigned = f === 'uint64';
    return { type: ['string', 'integer', 'null'], pattern: unsigned ? UINT_STRING : INT_STRING, ...(unsigned ? { minimum: 0 } : {}), 'x-proto': unsigned ? 'TYPE_UINT64' : 'TYPE_INT64' };
  }
  if (p.type === 'integer') {
    const unsigned = f === 'uint32';
    return { type: ['integer', 'string', 'null'], pattern: unsigned ? UINT_STRING : INT_STRING, ...(unsigned ? { minimum: 0, maximum: 4294967295 } : { minimum: -2147483648, maximum: 2147483647 }), 'x-proto': unsigned ? 'TYPE_UINT32' : 'TYPE_INT32' };
  }
  if (p.type === 'number') return { type: ['number', 'string', 'null'], pattern: NUMBER_STRING, 'x-proto': f === 'float' ? 'TYPE_FLOAT' : 'TYPE_DOUBLE' };
  if (p.type === 'boolean') return { type: ['boolean', 'null'], 'x-proto': 'TYPE_BOOL' };
  if (p.type === 'string') {
    if (p.enum) return { type: ['string', 'null'], enum: [...p.enum, null], 'x-proto': 'TYPE_ENUM' };
    return { type: ['string', 'null'], 'x-proto': f === 'byte' ? 'TYPE_BYTES' : 'TYPE_STRING' };
  }
  return {};
}

function property(owner: string, name: string, p: DiscoveryProperty): JsonSchema {
  if (ANY_SCALAR.has(`${owner}.${name}`)) return { type: ['string', 'number', 'boolean', 'null'], 'x-proto': 'TYPE_STRING' };
  if (p.$ref) return { $ref: `#/$defs/${p.$ref}` };
  if (p.type === 'array') return { type: ['array', 'null'], items: p.items ? property(owner, name, p.items) : {}, 'x-repeated': true };
  if (p.type === 'object') {
    if (p.properties) return message(`${owner}.${name[0].toUpperCase()}${name.slice(1)}`, p);
    if (p.additionalProperties) return { type: ['object', 'null'], additionalProperties: property(owner, name, p.additionalProperties), 'x-map': true, 'x-proto': `${MESSAGE_TYPE_PREFIX}${owner}` };
    return { type: ['object', 'null'], 'x-proto': 'type.googleapis.com/google.protobuf.Struct' };
  }
  if (p.type === 'any' || p.type === undefined) return {};
  return scalar(p);
}

function message(name: string, s: DiscoveryProperty): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    properties[k] = property(name, k, v);
    if (isRequired(name, k, v)) required.push(k);
  }
  for (const [k, v] of Object.entries(CLIENT_EXTRAS[name] ?? {})) properties[k] ??= v;
  const out: JsonSchema = { type: ['object', 'null'], properties, additionalProperties: false, 'x-proto': `${MESSAGE_TYPE_PREFIX}${name}` };
  if (required.length) out.required = required;
  return out;
}

/** One discovery schema as a JSON Schema definition. */
function definition(name: string, s: DiscoveryProperty): JsonSchema {
  if (s.type === 'object' && !s.properties && s.additionalProperties) return property(name, name, s);
  if (s.type === 'object') return message(name, s);
  return property(name, name, s);
}

/**
 * All discovery schemas as one JSON Schema document (`$id` `id`, each schema under `$defs`).
 * `schemas` is the discovery document's `schemas` object. Each definition is converted when it is
 * first read (an enumerable getter that replaces itself with the value): a request's validation
 * reads only the definitions its body reaches, and converting all 204 cost ~5 ms of the first
 * request after a cold start (bench/results/2026-11-27-cold-start-2.md).
 */
export function discoveryJsonSchema(id: string, schemas: Record<string, DiscoveryProperty>): JsonSchema {
  const defs: Record<string, JsonSchema> = {};
  for (const [name, s] of Object.entries(schemas)) {
    Object.defineProperty(defs, name, {
      enumerable: true,
      configurable: true,
      get() {
        const value = definition(name, s);
        Object.defineProperty(defs, name, { value, enumerable: true, writable: true, configurable: true });
        return value;
      },
    });
  }
  return { $id: id, $defs: defs };
}
