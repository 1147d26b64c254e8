/**
 * The recorder: the only producer of `expected.json` (contract §1.3, §6.3). It runs each fixture's
 * setup and canonical query on the reference service — real BigQuery through the operator's
 * application-default credentials, or any `--endpoint` — and writes the baseline.
 *
 * Rules (contract §6.3):
 * 1. Every baseline carries the reference job's id (`bigquery.job_id`, taken from the job resource
 *    the service returned); without one nothing is written.
 * 2. One INFO line per fixture with fixture, job id, bytes and duration_ms (pino).
 * 3. An existing baseline is only re-recorded with `force`.
 * 4. Byte-scan cap (default 1 GiB): the dry-run estimate is checked before the canonical query runs,
 *    and the bytes the job reports are checked again before writing. Over the cap: INFO line,
 *    skipped, no file written.
 * 5. An API error of the canonical query is recorded in the error form (§2.3); a failure in setup is
 *    a recorder bug and is reported, never recorded.
 * 6. `message_pattern` is synthesised from the raw message: the per-fixture dataset's fully
 *    qualified name (`project:dataset`, `project.dataset`, or the bare dataset id) becomes
 *    `[\w\-\.:]+`, each `[line:column]` becomes `\[\d+:\d+\]`, the rest is escaped literally.
 *
 * It never runs under CI (`CI` set): CI holds no credentials and only runs the runner (§1.3).
 * The recorder disables the query cache unless the fixture's job_config sets `use_query_cache`, so
 * a re-recording never reports a cache hit the emulator (which has no cache) could not match.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BigQuery, type Job } from '@google-cloud/bigquery';
import { GoogleAuth, PassThroughClient } from 'google-auth-library';
import { pino, type Logger } from 'pino';
import { makeClient, mapJobConfig, mapParameters, toActualError, toPlainValue, toSchemaFields, REASON_TO_STATUS, type HeaderInjectingAuthClient, type MappedJobConfig } from './client.js';
import { discoverFixtures, resolveSqlRoot, splitSetupSql, type Fixture, type FixtureParameters, type RestStep, type SchemaField } from './fixtures.js';
import { parseJsonSafe, stringifyJson, type JsonValue } from './jsonsafe.js';
import { expandFixture, type PlaceholderValues } from './placeholders.js';

/** Default per-fixture byte-scan cap: 1 GiB (contract §6.3.4, §8). */
export const DEFAULT_MAX_BYTES = 1073741824;

/** The wildcard the per-fixture dataset's name becomes in a synthesised pattern (§6.3.6). */
export const DATASET_WILDCARD = '[\\w\\-\\.:]+';
/** The pattern each `[line:column]` marker becomes (§6.3.6). */
export const LINE_COLUMN_PATTERN = '\\[\\d+:\\d+\\]';

export interface RecordOptions {
  /** Fixture root (`<phase>/<name>/`), default `conformance/fixtures`. */
  corpus?: string;
  /** Record against this base URL instead of BigQuery. */
  endpoint?: string;
  /** Project to record in (default: the credentials' project; `bqemu-conformance` with an endpoint and no credentials). */
  project?: string;
  /** Re-record fixtures that already have an `expected.json`. */
  force?: boolean;
  /** Per-fixture byte-scan cap in bytes (default 1 GiB). */
  maxBytes?: number;
  /** Comma-separated id patterns (as `corpus run --filter`). */
  filter?: string;
  /** Location of per-fixture datasets (default `US`). */
  location?: string;
  /** Environment (default `process.env`): `CI`, `GOOGLE_APPLICATION_CREDENTIALS`, `BQEMU_CONFORMANCE_*`. */
  env?: Record<string, string | undefined>;
  /** Logger (default pino at INFO on stdout). */
  logger?: Logger;
  /** Clock for `recorded_at` (tests). */
  now?: () => Date;
}

export type RecordStatus = 'recorded' | 'exists' | 'over-cap' | 'setup-error' | 'no-job-id' | 'failed';

export interface RecordResult {
  id: string;
  status: RecordStatus;
  jobId?: string | null;
  bytes?: string | null;
  durationMs?: number;
  form?: 'success' | 'error';
  detail?: string;
}

/** True when a byte count is known and above the cap (§6.3.4). */
export function exceedsCap(bytes: bigint | undefined, cap: number): boolean {
  return bytes !== undefined && bytes > BigInt(Math.floor(cap));
}

/** Speed class of a recorded duration (`duration_class`, §2.2). */
export function durationClass(ms: number): 'fast' | 'medium' | 'slow' {
  return ms < 1000 ? 'fast' : ms < 10_000 ? 'medium' : 'slow';
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * Synthesise `message_pattern` from a raw message (§6.3.6): every occurrence of the per-fixture
 * dataset's fully qualified name (`project:dataset` or `project.dataset`, or the dataset id alone)
 * becomes {@link DATASET_WILDCARD}, every `[line:column]` becomes {@link LINE_COLUMN_PATTERN}, and
 * all other text is escaped literally. The result matches the original message.
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

function isObject(v: unknown): v is Record<string, JsonValue> {
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

/** How the recorder reaches the reference. */
export interface RecorderTarget {
  bq: BigQuery;
  /** Base URL REST setup paths are appended to. */
  restBase: string;
  project: string;
  /** Headers for a REST setup request. */
  authHeaders(url: string): Promise<Headers>;
  /** Set when identity headers (headers.json) can travel with the canonical query. */
  headerClient?: HeaderInjectingAuthClient;
  kind: 'bigquery' | 'endpoint';
  credentials: 'application-default' | 'none';
}

const BIGQUERY_SCOPES = ['https://www.googleapis.com/auth/bigquery', 'https://www.googleapis.com/auth/cloud-platform'];

/**
 * Build the client towards the reference (§5.1): real BigQuery with the application-default
 * credentials named by `GOOGLE_APPLICATION_CREDENTIALS` (google-auth-library `GoogleAuth`), or an
 * endpoint — with those credentials when set, else with fake ones (a pass-through client that sends
 * no Authorization header). Throws when neither an endpoint nor credentials are given.
 */
export async function makeRecorderTarget(opts: { endpoint?: string; project?: string; env: Record<string, string | undefined> }): Promise<RecorderTarget> {
  const keyFile = opts.env.GOOGLE_APPLICATION_CREDENTIALS;
  if (keyFile) {
    const auth = new GoogleAuth({ keyFilename: keyFile, scopes: BIGQUERY_SCOPES });
    const project = opts.project ?? (await auth.getProjectId());
    const client = await auth.getClient();
    const bq = new BigQuery({ projectId: project, authClient: client, autoRetry: false, maxRetries: 0, ...(opts.endpoint ? { apiEndpoint: opts.endpoint } : {}) });
    return {
      bq,
      restBase: (opts.endpoint ?? 'https://bigquery.googleapis.com').replace(/\/+$/, ''),
      project,
      authHeaders: (url) => client.getRequestHeaders(url),
      kind: opts.endpoint ? 'endpoint' : 'bigquery',
      credentials: 'application-default',
    };
  }
  if (!opts.endpoint) {
    throw new Error('recording against BigQuery needs application-default credentials: set GOOGLE_APPLICATION_CREDENTIALS to a credentials file, or give --endpoint');
  }
  const project = opts.project ?? 'bqemu-conformance';
  const { bq, auth } = makeClient(opts.endpoint, project);
  const pass = new PassThroughClient();
  return {
    bq,
    restBase: opts.endpoint.replace(/\/+$/, ''),
    project,
    authHeaders: () => pass.getRequestHeaders(),
    headerClient: auth,
    kind: 'endpoint',
    credentials: 'none',
  };
}

class SetupFailure extends Error {}

let seq = 0;
const RUN_TAG = randomBytes(3).toString('hex');

function datasetIdFor(name: string): string {
  seq += 1;
  return `bqemu_rec_${RUN_TAG}_${seq}_${name.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 40)}`;
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

interface DatasetRef {
  projectId: string;
  datasetId: string;
}

/** The canonical query's client options (contract §2.1, §4.3), as the runner builds them. */
function buildQuery(bq: BigQuery, fx: Fixture, mapped: MappedJobConfig): Record<string, unknown> {
  const q: Record<string, unknown> = { query: fx.query, useLegacySql: false, ...mapped.options };
  if (!('use_query_cache' in (fx.jobConfig ?? {}))) q.useQueryCache = false;
  if (mapped.destination) q.destination = bq.dataset(mapped.destination.datasetId, { projectId: mapped.destination.projectId }).table(mapped.destination.tableId);
  if (fx.parameters) {
    const { params, types } = mapParameters(fx.parameters);
    q.params = params;
    q.types = types;
  }
  return q;
}

function statsBytes(md: unknown): bigint | undefined {
  const s = (md as { statistics?: { totalBytesProcessed?: unknown; query?: { totalBytesProcessed?: unknown } } } | undefined)?.statistics;
  const v = s?.query?.totalBytesProcessed ?? s?.totalBytesProcessed;
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  return undefined;
}

function jsonNumber(v: unknown): number | null {
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  if (typeof v === 'number') return v;
  return null;
}

/** `job_metadata` worth pinning from a finished job (contract §4.4 dispatch fields). */
function jobMetadataOf(md: Record<string, unknown>, fx: Fixture): Record<string, JsonValue> {
  const stats = (md.statistics ?? {}) as { query?: Record<string, unknown> };
  const q = stats.query ?? {};
  const out: Record<string, JsonValue> = {};
  if (typeof q.cacheHit === 'boolean') out.cache_hit = q.cacheHit;
  if (typeof q.statementType === 'string') out.statement_type = q.statementType;
  const n = jsonNumber(q.numDmlAffectedRows);
  if (n !== null) out.num_dml_affected_rows = n;
  if (typeof q.ddlOperationPerformed === 'string') out.ddl_operation_performed = q.ddlOperationPerformed;
  const labels = (md.configuration as { labels?: unknown } | undefined)?.labels;
  if (fx.jobConfig?.labels !== undefined && isObject(labels)) out.labels = labels;
  return out;
}

interface RecordContext {
  target: RecorderTarget;
  root: string;
  force: boolean;
  maxBytes: number;
  location: string;
  env: Record<string, string | undefined>;
  log: Logger;
  now: () => Date;
}

/** Placeholder values on the reference (§6.1): identities from `BQEMU_CONFORMANCE_*`. */
function placeholderValues(ctx: RecordContext, datasetId: string, fx: Fixture): PlaceholderValues {
  const env = ctx.env;
  const values: PlaceholderValues = { project: ctx.target.project, datasetId };
  const text = [fx.query, fx.setupSql ?? '', JSON.stringify(fx.setupRest ?? []), JSON.stringify(fx.headers ?? {}), JSON.stringify(fx.jobConfig ?? {}), JSON.stringify(fx.parameters ?? {})].join('\n');
  const need = (placeholder: string, variable: string, set: (v: string) => void) => {
    const v = env[variable];
    if (v) set(v);
    else if (ctx.target.kind === 'bigquery' && text.includes('${' + placeholder + '}')) {
      throw new Error(`fixture uses \${${placeholder}}: set ${variable} (contract §6.1)`);
    }
  };
  need('PRINCIPAL', 'BQEMU_CONFORMANCE_PRINCIPAL', (v) => (values.principal = v));
  need('GROUP', 'BQEMU_CONFORMANCE_GROUP', (v) => (values.group = v));
  need('OTHER_PRINCIPAL', 'BQEMU_CONFORMANCE_OTHER_PRINCIPAL', (v) => (values.otherPrincipal = v));
  need('GCS_BUCKET', 'BQEMU_CONFORMANCE_GCS_BUCKET', (v) => (values.gcsBucket = v));
  return values;
}

async function runRestSetup(ctx: RecordContext, fx: Fixture, created: DatasetRef[]): Promise<void> {
  for (const [i, step] of (fx.setupRest ?? []).entries()) {
    const url = ctx.target.restBase + step.path;
    const headers = new Headers(await ctx.target.authHeaders(url));
    headers.set('content-type', 'application/json');
    const init: RequestInit = { method: step.method, headers };
    if (step.body !== undefined) init.body = stringifyJson(step.body);
    let res: Response;
    try {
      res = await fetch(url, init);
    } catch (e) {
      throw new SetupFailure(`setup_rest.json[${i}] ${step.method} ${step.path}: ${errText(e)}`);
    }
    const text = await res.text();
    if (!res.ok) throw new SetupFailure(`setup_rest.json[${i}] ${step.method} ${step.path}: HTTP ${res.status} ${text.slice(0, 300)}`);
    const m = /\/projects\/([^/]+)\/datasets\/?$/.exec(step.path.split('?')[0]!);
    if (step.method === 'POST' && m) {
      const ref = (step.body as { datasetReference?: { projectId?: string; datasetId?: string } } | undefined)?.datasetReference;
      if (ref?.datasetId) created.push({ projectId: ref.projectId ?? m[1]!, datasetId: ref.datasetId });
    }
  }
}

async function teardown(bq: BigQuery, datasets: DatasetRef[], log: Logger, id: string): Promise<void> {
  for (const d of [...datasets].reverse()) {
    try {
      await bq.dataset(d.datasetId, { projectId: d.projectId }).delete({ force: true });
    } catch (e) {
      if ((e as { code?: unknown }).code !== 404) log.warn({ fixture: id, dataset: d.datasetId }, `teardown failed: ${errText(e)}`);
    }
  }
}

/** Record one fixture directory (contract §6.3). Never throws: every outcome is a {@link RecordResult}. */
export async function recordFixture(fixture: { id: string; dir: string }, ctx: RecordContext): Promise<RecordResult> {
  const { id, dir } = fixture;
  const file = join(dir, 'expected.json');
  if (existsSync(file) && !ctx.force) {
    ctx.log.warn({ fixture: id }, 'refusing to overwrite the existing expected.json (re-record with --force)');
    return { id, status: 'exists' };
  }
  const datasetId = datasetIdFor(id.split('/')[1] ?? 'fixture');
  let fx: Fixture;
  let mapped: MappedJobConfig;
  try {
    const raw = loadRecordingInputs(dir, id);
    fx = expandFixture(raw, placeholderValues(ctx, datasetId, raw));
    mapped = mapJobConfig(fx.jobConfig ?? {}, ctx.target.project);
    if (fx.parameters) mapParameters(fx.parameters);
  } catch (e) {
    ctx.log.error({ fixture: id }, `fixture cannot be recorded: ${errText(e)}`);
    return { id, status: 'failed', detail: errText(e) };
  }
  const { bq } = ctx.target;
  const created: DatasetRef[] = [];
  try {
    return await recordPrepared(fx, mapped, datasetId, created, ctx, file);
  } catch (e) {
    ctx.log.error({ fixture: id }, `recorder error: ${errText(e)}`);
    return { id, status: 'failed', detail: errText(e) };
  } finally {
    await teardown(bq, created, ctx.log, id);
  }
}

async function recordPrepared(fx: Fixture, mapped: MappedJobConfig, datasetId: string, created: DatasetRef[], ctx: RecordContext, file: string): Promise<RecordResult> {
  const { bq, project } = ctx.target;
  const id = fx.id;
  // Setup (corpus README note 9): a dataset only with setup; setup.sql statement by statement; then REST.
  try {
    if (fx.setupSql !== undefined || fx.setupRest !== undefined) {
      try {
        await bq.createDataset(datasetId, { location: ctx.location });
      } catch (e) {
        throw new SetupFailure(`create dataset ${datasetId}: ${errText(e)}`);
      }
      created.push({ projectId: project, datasetId });
    }
    const statements = fx.setupSql !== undefined ? splitSetupSql(fx.setupSql) : [];
    for (const [i, stmt] of statements.entries()) {
      try {
        await bq.query({ query: stmt, useLegacySql: false, location: ctx.location });
      } catch (e) {
        throw new SetupFailure(`setup.sql statement ${i + 1}/${statements.length}: ${errText(e)}`);
      }
    }
    await runRestSetup(ctx, fx, created);
  } catch (e) {
    if (e instanceof SetupFailure) {
      ctx.log.error({ fixture: id }, `recorder bug: setup failed, nothing recorded: ${e.message}`);
      return { id, status: 'setup-error', detail: e.message };
    }
    throw e;
  }

  const q = buildQuery(bq, fx, mapped);
  q.location = ctx.location;
  const headerClient = ctx.target.headerClient;

  // §6.3.4: estimate first with a dry run (the canonical query itself when it is a dry run).
  let estimate: bigint | undefined;
  if (!q.dryRun) {
    const { createSession: _cs, ...dry } = q;
    try {
      if (headerClient) headerClient.extraHeaders = fx.headers ?? {};
      const [djob] = await bq.createQueryJob({ ...dry, dryRun: true });
      estimate = statsBytes(djob.metadata);
    } catch (e) {
      ctx.log.debug({ fixture: id }, `dry-run estimate unavailable: ${errText(e)}`);
    } finally {
      if (headerClient) headerClient.extraHeaders = {};
    }
    if (exceedsCap(estimate, ctx.maxBytes)) {
      ctx.log.info({ fixture: id, job_id: null, bytes: estimate!.toString(), duration_ms: 0, max_bytes: ctx.maxBytes }, 'skipped: dry-run estimate exceeds the byte-scan cap; no expected.json written');
      return { id, status: 'over-cap', bytes: estimate!.toString() };
    }
  }

  const started = Date.now();
  let job: Job | undefined;
  let body: Record<string, unknown>;
  let jobId: string | undefined;
  let jobMd: Record<string, unknown> | undefined;
  let form: 'success' | 'error';
  try {
    if (headerClient) headerClient.extraHeaders = fx.headers ?? {};
    [job] = await bq.createQueryJob(q);
    jobMd = (job.metadata ?? {}) as Record<string, unknown>;
    jobId = (jobMd.jobReference as { jobId?: string } | undefined)?.jobId;
    let schema: SchemaField[];
    let rows: Record<string, JsonValue>[];
    if (q.dryRun) {
      schema = toSchemaFields((jobMd.statistics as { query?: { schema?: { fields?: unknown } } } | undefined)?.query?.schema?.fields);
      rows = [];
    } else {
      const r = (await job.getQueryResults({ wrapIntegers: true })) as unknown[];
      const resp = r[2] as { schema?: { fields?: unknown } } | undefined;
      schema = toSchemaFields(resp?.schema?.fields);
      rows = recordedRows((r[0] as unknown[]) ?? [], schema);
      jobMd = (await job.getMetadata())[0] as Record<string, unknown>;
    }
    body = { schema, rows, row_count: rows.length };
    const meta = jobMetadataOf(jobMd, fx);
    if (Object.keys(meta).length) body.job_metadata = meta;
    form = 'success';
  } catch (e) {
    const ae = toActualError(e);
    if (!ae) throw e;
    const resp = (e as { response?: { jobReference?: { jobId?: string }; statistics?: unknown } }).response;
    jobId = resp?.jobReference?.jobId ?? (jobMd?.jobReference as { jobId?: string } | undefined)?.jobId;
    if (resp && typeof resp === 'object' && 'statistics' in resp) jobMd = resp as Record<string, unknown>;
    body = {
      error: {
        reason: ae.reason ?? 'unknown',
        location: ae.location ?? null,
        http_status: ae.httpStatus ?? (ae.reason ? REASON_TO_STATUS[ae.reason] : undefined) ?? 400,
        message_pattern: synthesiseMessagePattern(ae.message, { project, datasetId }),
        message_sample: ae.message,
      },
    };
    form = 'error';
  } finally {
    if (headerClient) headerClient.extraHeaders = {};
  }
  const durationMs = Date.now() - started;
  const bytes = statsBytes(jobMd);
  const bytesText = bytes === undefined ? null : bytes.toString();

  if (!jobId) {
    ctx.log.error({ fixture: id, job_id: null, bytes: bytesText, duration_ms: durationMs }, 'not recorded: the reference returned no job id (contract §6.3.1)');
    return { id, status: 'no-job-id', jobId: null, bytes: bytesText, durationMs, form };
  }
  if (exceedsCap(bytes, ctx.maxBytes)) {
    ctx.log.info({ fixture: id, job_id: jobId, bytes: bytesText, duration_ms: durationMs, max_bytes: ctx.maxBytes }, 'skipped: bytes processed exceed the byte-scan cap; no expected.json written');
    return { id, status: 'over-cap', jobId, bytes: bytesText, durationMs, form };
  }
  const stats = (jobMd?.statistics ?? {}) as { query?: { totalBytesBilled?: unknown } };
  const expected: Record<string, unknown> = {
    fixture_version: 2,
    recorded_at: ctx.now().toISOString(),
    bigquery: {
      project,
      job_id: jobId,
      location: (jobMd?.jobReference as { location?: string } | undefined)?.location ?? ctx.location,
      total_bytes_processed: bytes === undefined ? 0 : Number(bytes),
      total_bytes_billed: jsonNumber(stats.query?.totalBytesBilled) ?? 0,
      duration_ms: durationMs,
    },
    ...(form === 'error' ? { error: body.error } : { schema: body.schema, rows: body.rows, row_count: body.row_count }),
    duration_class: durationClass(durationMs),
    ...(body.job_metadata ? { job_metadata: body.job_metadata } : {}),
  };
  writeFileSync(file, stringifyExpected(expected));
  ctx.log.info({ fixture: id, job_id: jobId, bytes: bytesText ?? '0', duration_ms: durationMs }, `recorded (${form} form)`);
  return { id, status: 'recorded', jobId, bytes: bytesText, durationMs, form };
}

/**
 * `bqemu corpus record` (contract §1.3, §5.1, §6.3). Exit code: 0 when every selected fixture was
 * recorded or skipped over the cap; 1 when any was refused (already recorded, no --force) or
 * failed (setup bug, no job id, unreadable fixture); 2 when the recorder cannot run at all (under
 * CI, no credentials and no endpoint, no corpus or no fixtures).
 */
export async function recordCorpus(opts: RecordOptions = {}): Promise<number> {
  return (await recordCorpusDetailed(opts)).code;
}

/** {@link recordCorpus} with the per-fixture results. */
export async function recordCorpusDetailed(opts: RecordOptions = {}): Promise<{ code: number; results: RecordResult[] }> {
  const env = opts.env ?? process.env;
  const log = opts.logger ?? pino({ level: 'info', base: undefined });
  if (env.CI) {
    log.error('the recorder never runs under CI (CI is set): recording is a local operator action (contract §1.3)');
    return { code: 2, results: [] };
  }
  let fixtures: { id: string; dir: string }[];
  let root: string;
  try {
    root = resolveSqlRoot(opts.corpus ?? 'conformance/fixtures');
    fixtures = discoverFixtures(root, opts.filter);
  } catch (e) {
    log.error(`corpus: ${errText(e)}`);
    return { code: 2, results: [] };
  }
  if (fixtures.length === 0) {
    log.error(`no fixtures match${opts.filter ? ` filter "${opts.filter}"` : ''}`);
    return { code: 2, results: [] };
  }
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isFinite(maxBytes) || maxBytes < 0) {
    log.error(`--max-bytes must be a non-negative number, got ${opts.maxBytes}`);
    return { code: 2, results: [] };
  }
  let target: RecorderTarget;
  try {
    target = await makeRecorderTarget({ endpoint: opts.endpoint, project: opts.project, env });
  } catch (e) {
    log.error(errText(e));
    return { code: 2, results: [] };
  }
  log.info({ target: target.kind === 'bigquery' ? 'bigquery' : opts.endpoint, project: target.project, credentials: target.credentials, fixtures: fixtures.length, max_bytes: maxBytes }, 'recording');
  const ctx: RecordContext = { target, root, force: opts.force === true, maxBytes, location: opts.location ?? 'US', env, log, now: opts.now ?? (() => new Date()) };
  const results: RecordResult[] = [];
  for (const f of fixtures) results.push(await recordFixture(f, ctx));
  const count = (s: RecordStatus) => results.filter((r) => r.status === s).length;
  log.info(
    { recorded: count('recorded'), exists: count('exists'), over_cap: count('over-cap'), setup_error: count('setup-error'), no_job_id: count('no-job-id'), failed: count('failed') },
    'recording finished',
  );
  return { code: results.every((r) => r.status === 'recorded' || r.status === 'over-cap') ? 0 : 1, results };
}
