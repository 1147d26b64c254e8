/**
 * `bqemu corpus run` entry point (conformance/README.md "Running", "Fixture rules"): discovers
 * fixtures, runs them against an endpoint or an in-process emulator, prints the report and returns
 * the exit code.
 */
import { discoverFixtures, resolveSqlRoot } from './fixtures.js';
import { checkQualification } from './qualify.js';
import { formatReport, writeJsonReport } from './report.js';
import { runCorpus } from './runner.js';
import { progressLine } from './progress.js';
import { DEFAULT_DIVERGENCES, DEFAULT_PENDING, evaluateStrict, formatStrictReport, loadStrictLists, updatePendingList, writeIdList, type PendingUpdate, type StrictLists } from './strict.js';

/** Options of {@link corpusRun}. */
export interface CorpusRunOptions {
  /** Corpus root, `bigquery-recorded/`, or its `sql/` directory. */
  corpus: string;
  /** Base URL of a running emulator; when absent an in-process emulator is started. */
  endpoint?: string;
  /** Write the JSON report to this file. */
  json?: string;
  /** Comma-separated id patterns (glob with `*`/`?`, else substring). */
  filter?: string;
  /** Fixtures run at once (default 1). */
  concurrency?: number;
  /** Project id used with `endpoint` (default `bqemu-conformance`); the in-process emulator's own otherwise. */
  project?: string;
  /** Per-fixture time limit in ms (default 120000). */
  timeoutMs?: number;
  /** How many failing fixtures to list in the text report (default 40). */
  maxFailures?: number;
  /** Output sink (default console.log). */
  log?: (line: string) => void;
  /**
   * Strict mode (conformance/README.md "Running"): divergence registry, pending list and pass gate
   * decide the exit code.
   */
  strict?: boolean;
  /** Divergence registry file (default `conformance/divergences.json` of this repository). */
  divergences?: string;
  /** Pending list file (default `conformance/pending.json` of this repository). */
  pending?: string;
  /** Rewrite the pending list from this run's failures (implies strict); only removes entries unless `allowGrow`. */
  updatePending?: boolean;
  /** With `updatePending`: also add new failures to the pending list. */
  allowGrow?: boolean;
}

/** Shape of the in-process emulator handle (src/server/server.ts). */
interface EmulatorHandle {
  url: string;
  projectId: string;
  close(): Promise<void>;
}
type StartEmulator = (opts: { host?: string; port?: number; projectId?: string; dataDir?: string; quiet?: boolean }) => Promise<EmulatorHandle>;

/**
 * Run the SQL corpus and report (conformance/README.md "Fixture outcomes and compared fields",
 * "Tolerances", "Error parity"). Exit code: 0 when every selected fixture passes, 1 when any fails,
 * 2 when the corpus or emulator cannot be used. In strict mode (`strict` or `updatePending`) the
 * exit code is the pass gate's instead: 0 when green, 1 when red (see strict.ts). The report's last
 * line is `N passed, N failed`.
 */
export async function corpusRun(opts: CorpusRunOptions): Promise<number> {
  const log = opts.log ?? ((l: string) => console.log(l));
  let fixtures: { id: string; dir: string }[];
  try {
    fixtures = discoverFixtures(resolveSqlRoot(opts.corpus), opts.filter);
  } catch (e) {
    log(`corpus: ${(e as Error).message}`);
    return 2;
  }
  let lists: StrictLists | undefined;
  const strict = opts.strict === true || opts.updatePending === true;
  const divergencesFile = opts.divergences ?? DEFAULT_DIVERGENCES;
  const pendingFile = opts.pending ?? DEFAULT_PENDING;
  if (strict) {
    try {
      lists = loadStrictLists(divergencesFile, pendingFile);
    } catch (e) {
      log(`corpus: ${(e as Error).message}`);
      return 2;
    }
  }
  if (fixtures.length === 0) {
    log(`corpus: no fixtures match${opts.filter ? ` filter "${opts.filter}"` : ''}`);
    log('0 passed, 0 failed');
    return 2;
  }

  let emulator: EmulatorHandle | undefined;
  let endpoint = opts.endpoint;
  let projectId = opts.project ?? 'bqemu-conformance';
  if (!endpoint) {
    try {
      // Lazy, not cycle-breaking (conformance sits above server): a run against --endpoint never loads DuckDB.
      const { startEmulator } = (await import('../server/server.js')) as { startEmulator: StartEmulator };
      emulator = await startEmulator({ host: '127.0.0.1', port: 0, quiet: true, ...(opts.project ? { projectId: opts.project } : {}) });
      endpoint = emulator.url;
      projectId = emulator.projectId;
    } catch (e) {
      log(`corpus: cannot start the in-process emulator: ${(e as Error).message}`);
      return 2;
    }
  }

  const interactive = process.stderr.isTTY === true;
  let failing = 0;
  try {
    const outcomes = await runCorpus(fixtures, {
      endpoint,
      projectId,
      concurrency: opts.concurrency,
      timeoutMs: opts.timeoutMs,
      onResult: interactive
        ? (o, done, total) => {
            if (o.status !== 'pass') failing++;
            process.stderr.write(`\r${progressLine(done, total, failing)}`);
            if (done === total) process.stderr.write('\n');
          }
        : undefined,
    });
    const unqualified = checkQualification(fixtures);
    if (strict && lists) {
      const corpusIds = discoverFixtures(resolveSqlRoot(opts.corpus)).map((f) => f.id);
      let update: (PendingUpdate & { file: string }) | undefined;
      if (opts.updatePending) {
        const u = updatePendingList(lists.pending, outcomes, lists.divergences, { allowGrow: opts.allowGrow === true, corpusIds });
        writeIdList(pendingFile, u.next);
        lists = { ...lists, pending: u.next };
        update = { ...u, file: pendingFile };
      }
      const result = evaluateStrict(outcomes, lists, { corpusIds });
      if (opts.json) writeJsonReport(opts.json, outcomes, { endpoint: opts.endpoint ?? 'in-process', projectId, filter: opts.filter ?? null, strict: { gate: result.gate, verdicts: result.verdicts, unqualified, pendingUpdate: update ?? null } });
      log(formatStrictReport(outcomes, result, { maxFailures: opts.maxFailures ?? 40, unqualified, divergencesFile, pendingFile, update }));
      return result.gate.green ? 0 : 1;
    }
    if (opts.json) writeJsonReport(opts.json, outcomes, { endpoint: opts.endpoint ?? 'in-process', projectId, filter: opts.filter ?? null, unqualified });
    for (const u of unqualified) log(`non-qualifying fixture (conformance/README.md "Qualification"): ${u.id}: ${u.issues.map((i) => `${i.rule} in ${i.file} (${i.detail})`).join('; ')}`);
    log(formatReport(outcomes, { maxFailures: opts.maxFailures ?? 40 }));
    return outcomes.every((o) => o.status === 'pass') ? 0 : 1;
  } finally {
    if (emulator) await emulator.close();
  }
}
