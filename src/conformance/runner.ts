/**
 * The corpus runner: executes fixtures through the real BigQuery client against an endpoint and
 * diffs each result against its recording (conformance/README.md "Fixture outcomes and compared
 * fields", "Fixture files": dataset tracking, "Fixture rules"; conformance/README.md "Recording
 * notes" 6, 8, 9).
 */
import { randomBytes } from 'node:crypto';
import type { BigQuery, Job } from '@google-cloud/bigquery';
import { compareOutcome, type ActualOutcome, type ActualSuccess, type Diff, type DiffKind } from './compare.js';
import { mapJobConfig, mapParameters, makeClient, needsJobInsert, toActualError, toPlainValue, toSchemaFields, type HeaderInjectingAuthClient, type MappedJobConfig } from './client.js';
import { loadFixture, splitSetupSql, type Fixture } from './fixtures.js';
import { stringifyJson } from './jsonsafe.js';
import { expandFixture } from './placeholders.js';

export type OutcomeKind = DiffKind | 'authoring' | 'setup' | 'exception' | 'timeout';

/** Per-fixture outcome. */
export interface FixtureOutcome {
  id: string;
  phase: string;
  status: 'pass' | 'fail';
  kind?: OutcomeKind;
  detail?: string;
  /** Short groupable cause for the report. */
  cause?: string;
  diffs?: Diff[];
  durationMs: number;
  teardownError?: string;
}

export interface RunnerOptions {
  /** Base URL, e.g. `http://127.0.0.1:9050` (the client appends `/bigquery/v2`). */
  endpoint: string;
  projectId: string;
  /** Fixtures run at once (default 1). */
  concurrency?: number;
  /** Per-fixture time limit in ms (default 120000). */
  timeoutMs?: number;
  /** Dataset location for per-fixture datasets (default `US`, as recorded). */
  location?: string;
  /** Called after each fixture, in completion order. */
  onResult?: (o: FixtureOutcome, done: number, total: number) => void;
}

class SetupError extends Error {}

let datasetSeq = 0;
const RUN_TAG = randomBytes(3).toString('hex');

/** A fresh dataset id for one fixture (letters, digits, underscores). */
export function makeDatasetId(name: string): string {
  datasetSeq += 1;
  return `bqemu_cr_${RUN_TAG}_${datasetSeq}_${name.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 40)}`;
}

function errText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

interface DatasetRef {
  projectId: string;
  datasetId: string;
}

/**
 * Run `setup_rest.json` steps in order with fetch (conformance/README.md "Fixture files"); returns
 * datasets created by POST …/datasets.
 */
async function runRestSetup(endpoint: string, fx: Fixture, created: DatasetRef[], defaultProject: string): Promise<void> {
  const base = endpoint.replace(/\/+$/, '');
  for (const [i, step] of (fx.setupRest ?? []).entries()) {
    const init: RequestInit = { method: step.method, headers: { 'content-type': 'application/json' } };
    if (step.body !== undefined) init.body = stringifyJson(step.body);
    let res: Response;
    try {
      res = await fetch(base + step.path, init);
    } catch (e) {
      throw new SetupError(`setup_rest.json[${i}] ${step.method} ${step.path}: ${errText(e)}`);
    }
    const text = await res.text();
    if (!res.ok) {
      let why = text.slice(0, 300);
      try {
        const err = (JSON.parse(text) as { error?: { message?: string; errors?: { reason?: string }[] } }).error;
        if (err?.message) why = `${err.errors?.[0]?.reason ?? ''}: ${err.message}`;
      } catch {
        // not JSON: keep the raw text
      }
      throw new SetupError(`setup_rest.json[${i}] ${step.method} ${step.path}: HTTP ${res.status} ${why}`);
    }
    const m = /\/projects\/([^/]+)\/datasets\/?$/.exec(step.path.split('?')[0]!);
    if (step.method === 'POST' && m) {
      const body = step.body as { datasetReference?: { projectId?: string; datasetId?: string } } | undefined;
      const ref = body?.datasetReference;
      if (ref?.datasetId) created.push({ projectId: ref.projectId ?? m[1] ?? defaultProject, datasetId: ref.datasetId });
    }
  }
}

/**
 * Build the client query options of the canonical query (conformance/README.md "Fixture files";
 * BigQuery's JobConfigurationQuery).
 */
function buildQuery(bq: BigQuery, fx: Fixture, mapped: MappedJobConfig): Record<string, unknown> {
  const q: Record<string, unknown> = { query: fx.query, useLegacySql: false, ...mapped.options };
  if (mapped.destination) {
    const d = mapped.destination;
    q.destination = bq.dataset(d.datasetId, { projectId: d.projectId }).table(d.tableId);
  }
  if (fx.parameters) {
    const { params, types } = mapParameters(fx.parameters);
    q.params = params;
    q.types = types;
  }
  return q;
}

async function fetchJob(bq: BigQuery, resp: unknown): Promise<Record<string, unknown> | undefined> {
  const ref = (resp as { jobReference?: { jobId?: string; location?: string } } | undefined)?.jobReference;
  if (!ref?.jobId) return undefined;
  const [md] = await bq.job(ref.jobId, ref.location ? { location: ref.location } : {}).getMetadata();
  return md as Record<string, unknown>;
}

/**
 * Run the canonical query through the client: dry runs via jobs.insert; otherwise `query()`, which
 * takes the jobs.query path unless a knob requires jobs.insert. Fetches every row (auto-pagination)
 * and, when `wantJob`, the job resource for `job_metadata`.
 */
async function runCanonical(bq: BigQuery, q: Record<string, unknown>, wantJob: boolean): Promise<ActualSuccess> {
  if (q.dryRun) {
    const [job] = await bq.createQueryJob(q);
    const md = (job.metadata ?? {}) as { statistics?: { query?: { schema?: { fields?: unknown } } } };
    return { kind: 'success', schema: toSchemaFields(md.statistics?.query?.schema?.fields), rows: [], job: md as Record<string, unknown> };
  }
  let rows: unknown[];
  let resp: unknown;
  let job: Job | undefined;
  const { params: _p, types: _t, query: _q, destination: _d, ...knobs } = q;
  if (needsJobInsert(knobs) || q.destination !== undefined) {
    [job] = await bq.createQueryJob(q);
    const r = (await job.getQueryResults({ wrapIntegers: true })) as unknown[];
    rows = r[0] as unknown[];
    resp = r[2];
  } else {
    const r = (await bq.query(q, { wrapIntegers: true })) as unknown[];
    rows = r[0] as unknown[];
    resp = r[2];
  }
  const schema = toSchemaFields((resp as { schema?: { fields?: unknown } } | undefined)?.schema?.fields);
  const plainRows = (rows ?? []).map((r) => toPlainValue(r) as Record<string, unknown>);
  let jobMd: Record<string, unknown> | undefined;
  if (wantJob) {
    try {
      jobMd = job ? ((await job.getMetadata())[0] as Record<string, unknown>) : await fetchJob(bq, resp);
    } catch {
      // jobs.get failed after a successful query: job_metadata keys then show as absent.
      jobMd = undefined;
    }
  }
  const out: ActualSuccess = { kind: 'success', schema, rows: plainRows };
  if (jobMd) out.job = jobMd;
  return out;
}

async function teardown(bq: BigQuery, datasets: DatasetRef[]): Promise<string | undefined> {
  const problems: string[] = [];
  for (const d of [...datasets].reverse()) {
    try {
      await bq.dataset(d.datasetId, { projectId: d.projectId }).delete({ force: true });
    } catch (e) {
      if ((e as { code?: unknown }).code !== 404) problems.push(`${d.datasetId}: ${errText(e)}`);
    }
  }
  return problems.length ? problems.join('; ') : undefined;
}

function fail(base: Pick<FixtureOutcome, 'id' | 'phase'>, started: number, kind: OutcomeKind, detail: string, cause: string, diffs?: Diff[]): FixtureOutcome {
  const o: FixtureOutcome = { ...base, status: 'fail', kind, detail, cause, durationMs: Date.now() - started };
  if (diffs) o.diffs = diffs;
  return o;
}

/**
 * Run one fixture directory end to end (conformance/README.md "Fixture outcomes and compared
 * fields", "Fixture rules"; conformance/README.md "Recording notes" 9): load, expand placeholders
 * up front, create a dataset only when `setup.sql` or `setup_rest.json` exists, run setup.sql
 * statement by statement, then setup_rest.json, then the canonical query with `headers.json`
 * applied to it alone; diff; delete every dataset created.
 */
export async function runFixture(dir: string, opts: RunnerOptions): Promise<FixtureOutcome> {
  const started = Date.now();
  const parts = dir.split(/[\\/]/).filter(Boolean);
  const base = { id: `${parts[parts.length - 2]}/${parts[parts.length - 1]}`, phase: parts[parts.length - 2] ?? '' };
  let fx: Fixture;
  let mapped: MappedJobConfig;
  const datasetId = makeDatasetId(parts[parts.length - 1] ?? 'fixture');
  try {
    const raw = loadFixture(dir);
    fx = expandFixture(raw, { project: opts.projectId, datasetId });
    mapped = mapJobConfig(fx.jobConfig ?? {}, opts.projectId);
    if (fx.parameters) mapParameters(fx.parameters);
  } catch (e) {
    return fail(base, started, 'authoring', errText(e), `authoring: ${errText(e).replace(/\$\{[^}]*\}/, '${…}')}`);
  }
  const { bq, auth } = makeClient(opts.endpoint, opts.projectId);
  const created: DatasetRef[] = [];
  let outcome: FixtureOutcome;
  try {
    outcome = await runPrepared(fx, mapped, bq, auth, datasetId, created, opts, base, started);
  } catch (e) {
    outcome = fail(base, started, 'exception', errText(e), `runner exception: ${errText(e)}`);
  }
  const td = await teardown(bq, created);
  if (td) outcome.teardownError = td;
  outcome.durationMs = Date.now() - started;
  return outcome;
}

async function runPrepared(
  fx: Fixture,
  mapped: MappedJobConfig,
  bq: BigQuery,
  auth: HeaderInjectingAuthClient,
  datasetId: string,
  created: DatasetRef[],
  opts: RunnerOptions,
  base: Pick<FixtureOutcome, 'id' | 'phase'>,
  started: number,
): Promise<FixtureOutcome> {
  try {
    if (fx.setupSql !== undefined || fx.setupRest !== undefined) {
      try {
        await bq.createDataset(datasetId, { location: opts.location ?? 'US' });
      } catch (e) {
        throw new SetupError(`create dataset ${datasetId}: ${errText(e)}`);
      }
      created.push({ projectId: opts.projectId, datasetId });
    }
    const statements = fx.setupSql !== undefined ? splitSetupSql(fx.setupSql) : [];
    for (const [i, stmt] of statements.entries()) {
      try {
        await bq.query({ query: stmt, useLegacySql: false });
      } catch (e) {
        throw new SetupError(`setup.sql statement ${i + 1}/${statements.length}: ${errText(e)} [${stmt.replace(/\s+/g, ' ').slice(0, 120)}]`);
      }
    }
    await runRestSetup(opts.endpoint, fx, created, opts.projectId);
  } catch (e) {
    if (e instanceof SetupError) return fail(base, started, 'setup', e.message, `setup: ${e.message.replace(/ \[[^\]]*\]$/, '').replace(/statement \d+\/\d+/, 'statement').replace(/setup_rest\.json\[\d+\]/, 'setup_rest.json')}`);
    throw e;
  }

  let actual: ActualOutcome;
  auth.extraHeaders = fx.headers ?? {};
  try {
    const wantJob = !fx.expected.error && fx.expected.job_metadata !== undefined;
    actual = await runCanonical(bq, buildQuery(bq, fx, mapped), wantJob);
  } catch (e) {
    const ae = toActualError(e);
    if (!ae) return fail(base, started, 'exception', `client/runner exception: ${errText(e)}`, `client exception: ${errText(e)}`);
    actual = ae;
  } finally {
    auth.extraHeaders = {};
  }
  const diffs = compareOutcome(fx.expected, actual);
  if (diffs.length === 0) return { ...base, status: 'pass', durationMs: Date.now() - started };
  const first = diffs[0]!;
  return fail(base, started, first.kind, diffs.map((d) => d.message).join(' | '), first.cause, diffs);
}

function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/**
 * Run many fixture dirs with bounded concurrency; outcomes come back in input order
 * (conformance/README.md "Fixture outcomes and compared fields", "Fixture rules").
 */
export async function runCorpus(fixtures: { id: string; dir: string }[], opts: RunnerOptions): Promise<FixtureOutcome[]> {
  const results = new Array<FixtureOutcome>(fixtures.length);
  const limit = Math.max(1, opts.concurrency ?? 1);
  const timeoutMs = opts.timeoutMs ?? 120_000;
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < fixtures.length) {
      const i = next++;
      const f = fixtures[i]!;
      const started = Date.now();
      const phase = f.id.split('/')[0] ?? '';
      const o = await withTimeout(runFixture(f.dir, opts), timeoutMs, () =>
        fail({ id: f.id, phase }, started, 'timeout', `fixture did not finish within ${timeoutMs} ms`, 'timeout'),
      );
      results[i] = o;
      done++;
      opts.onResult?.(o, done, fixtures.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, fixtures.length) }, worker));
  return results;
}
