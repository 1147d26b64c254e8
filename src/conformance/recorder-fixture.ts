/**
 * Recording one fixture: per-fixture dataset, setup, canonical query, baseline and teardown
 * (conformance/README.md "Recording").
 */
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BigQuery, type Job } from '@google-cloud/bigquery';
import type { Logger } from 'pino';
import { mapJobConfig, mapParameters, toActualError, toSchemaFields, REASON_TO_STATUS, type MappedJobConfig } from './client.js';
import { splitSetupSql, type Fixture, type SchemaField } from './fixtures.js';
import { stringifyJson, type JsonValue } from './jsonsafe.js';
import { expandFixture, type PlaceholderValues } from './placeholders.js';
import { durationClass, exceedsCap, loadRecordingInputs, recordedRows, stringifyExpected, synthesiseMessagePattern, isObject } from './recorder-format.js';
import type { RecorderTarget } from './recorder-target.js';

/** What recording one fixture did (`bqemu corpus record`, src/conformance/recorder.ts). */
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

class SetupFailure extends Error {}

let seq = 0;
const RUN_TAG = randomBytes(3).toString('hex');

function datasetIdFor(name: string): string {
  seq += 1;
  return `bqemu_rec_${RUN_TAG}_${seq}_${name.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 40)}`;
}

export function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

interface DatasetRef {
  projectId: string;
  datasetId: string;
}

/**
 * The canonical query's client options (conformance/README.md "Fixture files"; BigQuery's
 * JobConfigurationQuery), as the runner builds them.
 */
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

/**
 * `job_metadata` worth pinning from a finished job (conformance/README.md "Fixture outcomes and
 * compared fields": the fields clients dispatch on).
 */
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

export interface RecordContext {
  target: RecorderTarget;
  root: string;
  force: boolean;
  maxBytes: number;
  location: string;
  env: Record<string, string | undefined>;
  log: Logger;
  now: () => Date;
}

/**
 * Placeholder values on the reference (conformance/README.md "Placeholders"): identities from
 * `BQEMU_CONFORMANCE_*`.
 */
function placeholderValues(ctx: RecordContext, datasetId: string, fx: Fixture): PlaceholderValues {
  const env = ctx.env;
  const values: PlaceholderValues = { project: ctx.target.project, datasetId };
  const text = [fx.query, fx.setupSql ?? '', JSON.stringify(fx.setupRest ?? []), JSON.stringify(fx.headers ?? {}), JSON.stringify(fx.jobConfig ?? {}), JSON.stringify(fx.parameters ?? {})].join('\n');
  const need = (placeholder: string, variable: string, set: (v: string) => void) => {
    const v = env[variable];
    if (v) set(v);
    else if (ctx.target.kind === 'bigquery' && text.includes('${' + placeholder + '}')) {
      throw new Error(`fixture uses \${${placeholder}}: set ${variable} (conformance/README.md "Placeholders")`);
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

/**
 * Record one fixture directory (conformance/README.md "Recording"). Never throws: every outcome is
 * a {@link RecordResult}.
 */
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
  // Setup (conformance/README.md "Recording notes" 9): a dataset only with setup; setup.sql
  // statement by statement; then REST.
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

  // Byte cap (conformance/README.md "Recording"): estimate first with a dry run (the canonical
  // query itself when it is a dry run).
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
    ctx.log.error({ fixture: id, job_id: null, bytes: bytesText, duration_ms: durationMs }, 'not recorded: the reference returned no job id (conformance/README.md "Recording")');
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
