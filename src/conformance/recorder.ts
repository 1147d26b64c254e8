/**
 * The recorder: the only producer of `expected.json` (conformance/README.md "Recording"). It runs
 * each fixture's setup and canonical query on the reference service — real BigQuery through the
 * operator's application-default credentials, or any `--endpoint` — and writes the baseline.
 *
 * Rules (conformance/README.md "Recording"):
 * 1. Every baseline carries the reference job's id (`bigquery.job_id`, taken from the job resource
 *    the service returned); without one nothing is written.
 * 2. One INFO line per fixture with fixture, job id, bytes and duration_ms (pino).
 * 3. An existing baseline is only re-recorded with `force`.
 * 4. Byte-scan cap (default 1 GiB): the dry-run estimate is checked before the canonical query runs,
 *    and the bytes the job reports are checked again before writing. Over the cap: INFO line,
 *    skipped, no file written.
 * 5. An API error of the canonical query is recorded in the error form (conformance/README.md
 *    "expected.json"); a failure in setup is a recorder bug and is reported, never recorded.
 * 6. `message_pattern` is synthesised from the raw message: the per-fixture dataset's fully
 *    qualified name (`project:dataset`, `project.dataset`, or the bare dataset id) becomes
 *    `[\w\-\.:]+`, each `[line:column]` becomes `\[\d+:\d+\]`, the rest is escaped literally.
 *
 * It never runs under CI (`CI` set): CI holds no credentials and only runs the runner
 * (conformance/README.md "Recording"). The recorder disables the query cache unless the fixture's
 * job_config sets `use_query_cache`, so a re-recording never reports a cache hit the emulator
 * (which has no cache) could not match.
 */
import { pino, type Logger } from 'pino';
import { discoverFixtures, resolveSqlRoot } from './fixtures.js';
import { errText, recordFixture, type RecordContext, type RecordResult, type RecordStatus } from './recorder-fixture.js';
import { makeRecorderTarget, type RecorderTarget } from './recorder-target.js';

/** Default per-fixture byte-scan cap: 1 GiB (conformance/README.md "Recording"). */
export const DEFAULT_MAX_BYTES = 1073741824;

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

export type { RecordResult, RecordStatus } from './recorder-fixture.js';
export { DATASET_WILDCARD, LINE_COLUMN_PATTERN, durationClass, exceedsCap, loadRecordingInputs, recordedCell, recordedRows, stringifyExpected, synthesiseMessagePattern } from './recorder-format.js';
export { makeRecorderTarget, type RecorderTarget } from './recorder-target.js';
export { recordFixture } from './recorder-fixture.js';

/**
 * `bqemu corpus record` (conformance/README.md "Recording"). Exit code: 0 when every selected fixture was
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
    log.error('the recorder never runs under CI (CI is set): recording is a local operator action (conformance/README.md "Recording")');
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
