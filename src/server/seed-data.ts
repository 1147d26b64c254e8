/**
 * `--data-from-yaml FILE`: the seed file format of goccy/bigquery-emulator, loaded at start through
 * the emulator's own REST API (so every value is checked and converted as a client's would be):
 *
 * ```yaml
 * projects:
 * - id: test
 *   datasets:
 *   - id: dataset1
 *     tables:
 *     - id: table_a
 *       columns:                      # the table's schema: name, type, mode, fields (nested)
 *       - { name: id, type: INTEGER, mode: REQUIRED }
 *       - { name: tags, type: STRUCT, mode: repeated, fields: [{ name: key, type: STRING }] }
 *       data:                         # rows, one mapping per row
 *       - { id: 1, tags: [{ key: a }] }
 *     - id: view_a
 *       view: { query: "SELECT 1 AS x" }
 *     routines:
 *     - id: f
 *       metadata: { routineType: SCALAR_FUNCTION, language: SQL, definitionBody: "x + 1", arguments: [{ name: x, dataType: { typeKind: INT64 } }] }
 * ```
 *
 * Column types are GoogleSQL or legacy names (INT64/INTEGER/INT/SMALLINT/BIGINT/TINYINT/BYTEINT,
 * NUMERIC/DECIMAL, BIGNUMERIC/BIGDECIMAL, FLOAT64/FLOAT/DOUBLE, BOOL/BOOLEAN, STRING, BYTES, DATE,
 * DATETIME, TIME, TIMESTAMP, INTERVAL, GEOGRAPHY, JSON, STRUCT/RECORD), modes any case. A table's
 * `metadata` is merged into its table resource (description, labels…). A JSON column's string
 * value is the JSON text. Rows are loaded by a load job (NEWLINE_DELIMITED_JSON), so they are
 * ordinary stored rows (no streaming buffer), numbers keep every digit of the YAML text. `models`
 * and `jobs` entries are skipped with a warning.
 * Schema field names and types: https://cloud.google.com/bigquery/docs/reference/rest/v2/tables#TableFieldSchema
 */
import fs from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { LosslessNumber, stringify } from 'lossless-json';
import { parseDocument, visit, isScalar } from 'yaml';
import { ConfigError } from '../config/config.js';
import type { Logger } from '../config/logger.js';
import { createServiceAccountKey, selfSignedJwt } from './service-account.js';

type Json = Record<string, unknown>;

/** goccy's type names → BigQuery's legacy field types (the `type` of TableFieldSchema). */
const FIELD_TYPES: Record<string, string> = {
  INT64: 'INTEGER', INT: 'INTEGER', SMALLINT: 'INTEGER', INTEGER: 'INTEGER', BIGINT: 'INTEGER', TINYINT: 'INTEGER', BYTEINT: 'INTEGER',
  NUMERIC: 'NUMERIC', DECIMAL: 'NUMERIC', BIGNUMERIC: 'BIGNUMERIC', BIGDECIMAL: 'BIGNUMERIC',
  FLOAT: 'FLOAT', FLOAT64: 'FLOAT', DOUBLE: 'FLOAT', BOOL: 'BOOLEAN', BOOLEAN: 'BOOLEAN',
  STRING: 'STRING', BYTES: 'BYTES', DATE: 'DATE', DATETIME: 'DATETIME', TIME: 'TIME', TIMESTAMP: 'TIMESTAMP',
  INTERVAL: 'INTERVAL', GEOGRAPHY: 'GEOGRAPHY', JSON: 'JSON', STRUCT: 'RECORD', RECORD: 'RECORD',
};

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Reads a goccy seed file. Plain YAML numbers become LosslessNumbers of their source text.
 * @throws ConfigError for an unreadable file, YAML errors, or a document that is not `projects: [...]`.
 */
export async function readSeedFile(file: string): Promise<Json[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`--data-from-yaml: cannot read ${file}: ${(e as Error).message}`);
  }
  const doc = parseDocument(text);
  if (doc.errors.length) throw new ConfigError(`--data-from-yaml: ${file}: ${doc.errors[0]!.message}`);
  visit(doc, {
    Scalar(_key, node) {
      if (isScalar(node) && typeof node.value === 'number' && typeof node.source === 'string' && JSON_NUMBER.test(node.source)) node.value = new LosslessNumber(node.source);
    },
  });
  const root = doc.toJS() as { projects?: unknown } | null;
  if (!root || !Array.isArray(root.projects)) throw new ConfigError(`--data-from-yaml: ${file}: expected a top-level "projects:" list`);
  return root.projects as Json[];
}

/** A goccy column → TableFieldSchema. */
function field(c: Json, where: string): Json {
  if (typeof c.name !== 'string' || !c.name) throw new ConfigError(`--data-from-yaml: ${where}: a column without a name`);
  const type = FIELD_TYPES[String(c.type ?? '').toUpperCase()];
  if (!type) throw new ConfigError(`--data-from-yaml: ${where}.${c.name}: unknown type "${String(c.type)}"`);
  const out: Json = { name: c.name, type };
  if (c.mode) out.mode = String(c.mode).toUpperCase();
  if (typeof c.description === 'string') out.description = c.description;
  if (Array.isArray(c.fields) && c.fields.length) out.fields = (c.fields as Json[]).map((f) => field(f, `${where}.${c.name}`));
  return out;
}

/** A row value as the load job takes it: a JSON column's text parsed, records and arrays walked. */
function rowValue(v: unknown, f: Json | undefined): unknown {
  if (v === null || v === undefined || !f) return v;
  if (f.mode === 'REPEATED' && Array.isArray(v)) return v.map((x) => rowValue(x, { ...f, mode: 'NULLABLE' }));
  if (f.type === 'RECORD' && v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof LosslessNumber)) return rowOf(v as Json, f.fields as Json[]);
  if (f.type === 'JSON' && typeof v === 'string') {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      // Not JSON text: loaded as a JSON string.
      return v;
    }
  }
  return v;
}

const rowOf = (row: Json, fields: Json[]): Json => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, rowValue(v, fields.find((f) => f.name === k))]));

/**
 * Creates the seed file's projects, datasets, tables (with rows), views and routines through the
 * REST API of `app` (before it listens). Existing datasets are kept (a persistent `--data-dir`
 * restarted with the same file); an existing table is left as it is.
 * @throws ConfigError naming the object when the API refuses it (BigQuery's error message).
 */
export async function loadSeedData(app: FastifyInstance, projects: Json[], opts: { requireAuth: boolean; log: Logger }): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.requireAuth) {
    const key = await createServiceAccountKey({ endpoint: 'http://127.0.0.1', projectId: 'bqemu', clientEmail: 'seed@bqemu.iam.gserviceaccount.com' });
    headers.authorization = `Bearer ${selfSignedJwt(key)}`;
  }
  const call = async (method: 'POST' | 'GET', url: string, body?: unknown, extra: Record<string, string> = {}, payload?: string) => {
    const res = await app.inject({ method, url, headers: { ...headers, ...extra }, payload: payload ?? (body === undefined ? undefined : JSON.stringify(body)) });
    return { status: res.statusCode, json: (res.body ? JSON.parse(res.body) : {}) as Json };
  };
  const refuse = (what: string, r: { json: Json }) => new ConfigError(`--data-from-yaml: ${what}: ${String((r.json.error as Json | undefined)?.message ?? JSON.stringify(r.json))}`);
  for (const p of projects) {
    const projectId = String(p.id ?? '');
    if (!projectId) throw new ConfigError('--data-from-yaml: a project without an id');
    if (Array.isArray(p.jobs) && p.jobs.length) opts.log.warn({ projectId }, 'data-from-yaml: jobs entries are not loaded');
    for (const d of (p.datasets ?? []) as Json[]) {
      const datasetId = String(d.id ?? '');
      const base = `/bigquery/v2/projects/${encodeURIComponent(projectId)}`;
      const ds = await call('POST', `${base}/datasets`, { datasetReference: { projectId, datasetId } });
      if (ds.status !== 200 && ds.status !== 409) throw refuse(`dataset ${projectId}.${datasetId}`, ds);
      if (Array.isArray(d.models) && d.models.length) opts.log.warn({ projectId, datasetId }, 'data-from-yaml: models entries are not loaded');
      for (const t of (d.tables ?? []) as Json[]) await seedTable(call, refuse, { projectId, datasetId, base }, t);
      for (const r of (d.routines ?? []) as Json[]) {
        const res = await call('POST', `${base}/datasets/${encodeURIComponent(datasetId)}/routines`, { ...((r.metadata as Json) ?? {}), routineReference: { projectId, datasetId, routineId: r.id } });
        if (res.status !== 200 && res.status !== 409) throw refuse(`routine ${projectId}.${datasetId}.${String(r.id)}`, res);
      }
    }
  }
}

type Call = (method: 'POST' | 'GET', url: string, body?: unknown, extra?: Record<string, string>, payload?: string) => Promise<{ status: number; json: Json }>;

async function seedTable(call: Call, refuse: (what: string, r: { json: Json }) => Error, at: { projectId: string; datasetId: string; base: string }, t: Json): Promise<void> {
  const { projectId, datasetId, base } = at;
  const tableId = String(t.id ?? '');
  const name = `${projectId}.${datasetId}.${tableId}`;
  const fields = ((t.columns ?? []) as Json[]).map((c) => field(c, name));
  const resource: Json = { ...((t.metadata as Json) ?? {}), tableReference: { projectId, datasetId, tableId } };
  if (fields.length) resource.schema = { fields };
  const view = t.view as Json | undefined;
  if (view) resource.view = { query: view.query, useLegacySql: view.useLegacySql === true };
  const created = await call('POST', `${base}/datasets/${encodeURIComponent(datasetId)}/tables`, resource);
  if (created.status === 409) return;
  if (created.status !== 200) throw refuse(`table ${name}`, created);
  const rows = (t.data ?? []) as Json[];
  if (!rows.length || view) return;
  const ndjson = rows.map((r) => stringify(rowOf(r, fields))).join('\n');
  const boundary = `bqemu_seed_${Date.now()}`;
  const meta = { configuration: { load: { destinationTable: { projectId, datasetId, tableId }, sourceFormat: 'NEWLINE_DELIMITED_JSON', writeDisposition: 'WRITE_APPEND' } } };
  const payload = `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(meta)}\r\n--${boundary}\r\nContent-Type: application/octet-stream\r\n\r\n${ndjson}\r\n--${boundary}--\r\n`;
  let job = await call('POST', `/upload/bigquery/v2/projects/${encodeURIComponent(projectId)}/jobs?uploadType=multipart`, undefined, { 'content-type': `multipart/related; boundary=${boundary}` }, payload);
  if (job.status !== 200) throw refuse(`rows of ${name}`, job);
  const ref = job.json.jobReference as Json;
  while ((job.json.status as Json | undefined)?.state !== 'DONE') {
    await new Promise((r) => setTimeout(r, 20));
    job = await call('GET', `/bigquery/v2/projects/${encodeURIComponent(projectId)}/jobs/${encodeURIComponent(String(ref.jobId))}?location=${encodeURIComponent(String(ref.location ?? 'US'))}`);
  }
  const err = (job.json.status as Json).errorResult as Json | undefined;
  if (err) throw new ConfigError(`--data-from-yaml: rows of ${name}: ${String(err.message)}`);
}
