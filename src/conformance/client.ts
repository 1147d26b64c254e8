/**
 * Glue between fixtures and the real `@google-cloud/bigquery` client (v8): client construction
 * with per-request identity headers, job_config / parameters mapping, decoded-value conversion and
 * error extraction (conformance/README.md "Fixture files", "Error parity"; BigQuery's
 * JobConfigurationQuery; conformance/README.md "Recording notes" 5, 6, 8).
 */
import { BigQuery, BigQueryDate, BigQueryDatetime, BigQueryInt, BigQueryTime, BigQueryTimestamp, Geography } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import type { ActualError } from './compare.js';
import type { FixtureParameters, SchemaField } from './fixtures.js';
import type { JsonValue } from './jsonsafe.js';

/**
 * A pass-through auth client whose request headers can be switched on for the canonical query only
 * (conformance/README.md "Fixture files" `headers.json`: identity headers travel through the
 * client's own transport).
 */
export class HeaderInjectingAuthClient extends PassThroughClient {
  extraHeaders: Record<string, string> = {};

  override async getRequestHeaders(): Promise<Headers> {
    const h = new Headers();
    for (const [k, v] of Object.entries(this.extraHeaders)) h.set(k, v);
    return h;
  }
}

/** Build a client against an endpoint (the emulator needs no authentication: README.md "Security model"). */
export function makeClient(endpoint: string, projectId: string): { bq: BigQuery; auth: HeaderInjectingAuthClient } {
  const auth = new HeaderInjectingAuthClient();
  const bq = new BigQuery({ projectId, apiEndpoint: endpoint, authClient: auth, autoRetry: false, maxRetries: 0 });
  return { bq, auth };
}

/** Python client's reason → HTTP status mapping for job errors (conformance/README.md "Recording notes" 5). */
export const REASON_TO_STATUS: Record<string, number> = {
  accessDenied: 403,
  backendError: 500,
  billingNotEnabled: 403,
  billingTierLimitExceeded: 400,
  blocked: 403,
  duplicate: 409,
  internalError: 500,
  invalid: 400,
  invalidQuery: 400,
  notFound: 404,
  notImplemented: 501,
  policyViolation: 403,
  quotaExceeded: 403,
  rateLimitExceeded: 429,
  resourceInUse: 400,
  resourcesExceeded: 400,
  responseTooLarge: 403,
  stopped: 200,
  tableUnavailable: 400,
  outOfRange: 400,
};

/** A table reference parsed from job_config `destination`. */
export interface TableRef {
  projectId: string;
  datasetId: string;
  tableId: string;
}

/** Result of mapping job_config.json: client query options (REST names) plus a destination. */
export interface MappedJobConfig {
  options: Record<string, unknown>;
  destination?: TableRef;
  /** Keys not in the known list, passed through camel-cased. */
  unknownKeys: string[];
}

function camel(s: string): string {
  return s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Recursively camel-case object keys (for structured configs such as time_partitioning). */
export function camelizeKeys(v: JsonValue): unknown {
  if (Array.isArray(v)) return v.map(camelizeKeys);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[camel(k)] = camelizeKeys(x);
    return out;
  }
  return v;
}

function parseTableRef(v: JsonValue, defaultProject: string): TableRef {
  if (typeof v === 'string') {
    const parts = v.replace(/`/g, '').replace(':', '.').split('.');
    if (parts.length === 3) return { projectId: parts[0]!, datasetId: parts[1]!, tableId: parts[2]! };
    if (parts.length === 2) return { projectId: defaultProject, datasetId: parts[0]!, tableId: parts[1]! };
  } else if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = camelizeKeys(v) as Record<string, unknown>;
    if (typeof o.datasetId === 'string' && typeof o.tableId === 'string') {
      return { projectId: typeof o.projectId === 'string' ? o.projectId : defaultProject, datasetId: o.datasetId, tableId: o.tableId };
    }
  }
  throw new Error(`job_config destination not understood: ${JSON.stringify(v)}`);
}

function parseDatasetRef(v: JsonValue, defaultProject: string): { projectId: string; datasetId: string } {
  if (typeof v === 'string') {
    const parts = v.replace(/`/g, '').replace(':', '.').split('.');
    if (parts.length === 2) return { projectId: parts[0]!, datasetId: parts[1]! };
    if (parts.length === 1) return { projectId: defaultProject, datasetId: parts[0]! };
  } else if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = camelizeKeys(v) as Record<string, unknown>;
    if (typeof o.datasetId === 'string') return { projectId: typeof o.projectId === 'string' ? o.projectId : defaultProject, datasetId: o.datasetId };
  }
  throw new Error(`job_config default_dataset not understood: ${JSON.stringify(v)}`);
}

function asNumber(v: JsonValue): number {
  return typeof v === 'bigint' ? Number(v) : Number(v);
}

/**
 * Map job_config.json (Python client snake_case, conformance/README.md "Recording notes" 6) to the
 * client's query options, which carry REST names (BigQuery's JobConfigurationQuery,
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/Job#JobConfigurationQuery).
 */
export function mapJobConfig(cfg: Record<string, JsonValue>, defaultProject: string): MappedJobConfig {
  const options: Record<string, unknown> = {};
  const unknownKeys: string[] = [];
  let destination: TableRef | undefined;
  for (const [key, v] of Object.entries(cfg)) {
    if (v === null || v === undefined) continue;
    switch (key) {
      case 'destination':
        destination = parseTableRef(v, defaultProject);
        break;
      case 'default_dataset':
        options.defaultDataset = parseDatasetRef(v, defaultProject);
        break;
      case 'clustering_fields':
        options.clustering = { fields: v };
        break;
      case 'job_timeout_ms':
        options.jobTimeoutMs = asNumber(v);
        break;
      case 'maximum_bytes_billed':
        options.maximumBytesBilled = String(v);
        break;
      case 'labels':
        options.labels = v;
        break;
      case 'connection_properties':
        options.connectionProperties = camelizeKeys(v);
        break;
      case 'write_disposition':
      case 'create_disposition':
      case 'priority':
      case 'use_legacy_sql':
      case 'dry_run':
      case 'create_session':
      case 'use_query_cache':
      case 'schema_update_options':
      case 'flatten_results':
      case 'allow_large_results':
      case 'maximum_billing_tier':
      case 'continuous':
        options[camel(key)] = v;
        break;
      case 'time_partitioning':
      case 'range_partitioning':
      case 'script_options':
      case 'destination_encryption_configuration':
      case 'user_defined_function_resources':
        options[camel(key)] = camelizeKeys(v);
        break;
      case 'table_definitions': {
        // Keys are table names (kept as is); each definition is camel-cased.
        const defs: Record<string, unknown> = {};
        if (v && typeof v === 'object' && !Array.isArray(v)) for (const [t, d] of Object.entries(v)) defs[t] = camelizeKeys(d);
        options.tableDefinitions = defs;
        break;
      }
      default:
        unknownKeys.push(key);
        options[camel(key)] = camelizeKeys(v);
    }
  }
  const out: MappedJobConfig = { options, unknownKeys };
  if (destination) out.destination = destination;
  return out;
}

/** Query options the client's jobs.query fast path forwards; anything else must go through jobs.insert. */
const FAST_PATH_FORWARDED = new Set([
  'query', 'params', 'types', 'useQueryCache', 'labels', 'defaultDataset', 'createSession', 'maximumBytesBilled',
  'connectionProperties', 'continuous', 'location', 'useLegacySql', 'priority',
]);

/** True when the client's `query()` would silently drop an option on its jobs.query fast path. */
export function needsJobInsert(options: Record<string, unknown>): boolean {
  return Object.keys(options).some((k) => !FAST_PATH_FORWARDED.has(k) && k !== 'destination');
}

type ProvidedType = string | ProvidedType[] | { [k: string]: ProvidedType };

/** Convert a parameters.json type (`"INT64"`, `{type: ARRAY, arrayType}`, `{type: STRUCT, structTypes}`) to the client's type spec. */
export function toProvidedType(t: JsonValue): ProvidedType {
  if (typeof t === 'string') return t.toUpperCase();
  if (t && typeof t === 'object' && !Array.isArray(t)) {
    const name = typeof t.type === 'string' ? t.type.toUpperCase() : undefined;
    if (name === 'ARRAY' && t.arrayType !== undefined) return [toProvidedType(t.arrayType)];
    if (name === 'STRUCT' && Array.isArray(t.structTypes)) {
      const out: Record<string, ProvidedType> = {};
      for (const f of t.structTypes) {
        if (!f || typeof f !== 'object' || Array.isArray(f) || typeof f.name !== 'string' || f.type === undefined) throw new Error('parameters.json: struct field needs name and type');
        out[f.name] = toProvidedType(f.type);
      }
      return out;
    }
    if (name && name !== 'ARRAY' && name !== 'STRUCT') {
      if (name === 'RANGE') throw new Error('parameters.json: RANGE parameters are not supported by the runner yet');
      return name;
    }
  }
  throw new Error(`parameters.json: type not understood: ${JSON.stringify(t)}`);
}

/** Wrap a parameter value so the client encodes it as the given type (dates and times as its value classes). */
export function toClientValue(v: JsonValue, t: ProvidedType): unknown {
  if (v === null) return null;
  if (Array.isArray(t)) {
    if (!Array.isArray(v)) throw new Error(`parameters.json: ARRAY value expected, got ${JSON.stringify(v)}`);
    return v.map((x) => toClientValue(x, t[0]!));
  }
  if (typeof t === 'object') {
    if (typeof v !== 'object' || Array.isArray(v)) throw new Error(`parameters.json: STRUCT value expected`);
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(t)) out[k] = toClientValue(v[k] ?? null, t[k]!);
    return out;
  }
  switch (t) {
    case 'DATE':
      return BigQuery.date(String(v));
    case 'DATETIME':
      return BigQuery.datetime(String(v));
    case 'TIME':
      return BigQuery.time(String(v));
    case 'TIMESTAMP':
      return BigQuery.timestamp(String(v));
    case 'GEOGRAPHY':
      return BigQuery.geography(String(v));
    case 'INT64':
    case 'INTEGER':
      return typeof v === 'bigint' || typeof v === 'number' ? String(v) : v;
    case 'FLOAT64':
    case 'FLOAT':
      return typeof v === 'bigint' ? Number(v) : v;
    default:
      return typeof v === 'bigint' ? String(v) : v;
  }
}

/**
 * Map parameters.json to the client's `params`/`types` (conformance/README.md "Fixture files":
 * values reach the service as REST `queryParameters`, never interpolated). Named mode → objects,
 * positional → arrays.
 */
export function mapParameters(p: FixtureParameters): { params: unknown; types: unknown } {
  if (p.mode === 'named') {
    const params: Record<string, unknown> = {};
    const types: Record<string, ProvidedType> = {};
    for (const q of p.parameters) {
      const t = toProvidedType(q.type);
      params[q.name!] = toClientValue(q.value, t);
      types[q.name!] = t;
    }
    return { params, types };
  }
  const types = p.parameters.map((q) => toProvidedType(q.type));
  return { params: p.parameters.map((q, i) => toClientValue(q.value, types[i]!)), types };
}

/**
 * Convert a value decoded by the client (`wrapIntegers: true`) to the plain comparable form used by
 * compare.ts: INT64 → decimal string, NUMERIC (Big) → plain decimal string, BYTES → base64,
 * DATE/DATETIME/TIME/TIMESTAMP/GEOGRAPHY → their `.value` text, RANGE → `{start, end}`.
 */
export function toPlainValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'object') return v;
  if (v instanceof BigQueryInt) return v.value;
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v instanceof BigQueryTimestamp || v instanceof BigQueryDate || v instanceof BigQueryDatetime || v instanceof BigQueryTime || v instanceof Geography) {
    return (v as { value: unknown }).value;
  }
  if (Array.isArray(v)) return v.map(toPlainValue);
  const ctor = (v as { constructor?: { name?: string } }).constructor?.name;
  if (ctor === 'Big' && typeof (v as { toFixed?: unknown }).toFixed === 'function') return (v as { toFixed(): string }).toFixed();
  if (ctor === 'BigQueryRange') {
    const r = v as { start?: { value?: unknown } | null; end?: { value?: unknown } | null };
    return { start: r.start?.value ?? null, end: r.end?.value ?? null };
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = toPlainValue(x);
  return out;
}

/** Convert a REST `TableSchema.fields` list to {@link SchemaField}s. */
export function toSchemaFields(fields: unknown): SchemaField[] {
  if (!Array.isArray(fields)) return [];
  return fields.map((f: Record<string, unknown>) => {
    const out: SchemaField = { name: String(f.name), type: String(f.type) };
    if (typeof f.mode === 'string') out.mode = f.mode;
    if (Array.isArray(f.fields)) out.fields = toSchemaFields(f.fields);
    return out;
  });
}

interface ErrorProtoLike {
  reason?: unknown;
  location?: unknown;
  message?: unknown;
}

function asProto(v: unknown): ErrorProtoLike | undefined {
  return v && typeof v === 'object' ? (v as ErrorProtoLike) : undefined;
}

/**
 * Extract the comparable error from what the client threw (conformance/README.md "Error parity").
 * Returns `undefined` when it is not the client's API error (a network failure, a decoding crash, a
 * runner bug). Prefers the job's `status.errorResult`, then `errors[0]`; the HTTP status is the
 * response's, else the Python client's reason mapping.
 */
export function toActualError(err: unknown): ActualError | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as { code?: unknown; errors?: unknown; message?: unknown; response?: unknown };
  const hasErrors = Array.isArray(e.errors);
  if (!hasErrors && typeof e.code !== 'number') return undefined;
  const resp = e.response as { status?: { errorResult?: unknown } } | undefined;
  const fromJob = asProto(resp && typeof resp === 'object' && resp.status && typeof resp.status === 'object' ? resp.status.errorResult : undefined);
  const first = hasErrors ? asProto((e.errors as unknown[])[0]) : undefined;
  const proto = fromJob ?? first;
  const reason = typeof proto?.reason === 'string' ? proto.reason : undefined;
  const location = typeof proto?.location === 'string' ? proto.location : null;
  const message = typeof proto?.message === 'string' ? proto.message : typeof e.message === 'string' ? e.message : '';
  const httpStatus = typeof e.code === 'number' ? e.code : reason !== undefined ? REASON_TO_STATUS[reason] : undefined;
  const out: ActualError = { kind: 'error', location, message };
  if (reason !== undefined) out.reason = reason;
  if (httpStatus !== undefined) out.httpStatus = httpStatus;
  return out;
}
