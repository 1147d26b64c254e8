/**
 * Runs a query job's statements (jobs.ts owns the lifecycle around it): legacy SQL refused, the
 * job's session (createSession / connectionProperties `session_id`, `CALL BQ.ABORT_SESSION()`),
 * query parameters, the default dataset, TEMP tables (the session's, else the job's own, dropped
 * at the end), federated tables of `tableDefinitions` (external.ts), the per-statement timeout of
 * `scriptOptions.statementTimeoutMs` (query-options.ts), the script's key result and the
 * destination table (destination.ts). Statistics are collected per statement (bytes.ts).
 */
import { logIgnored } from '../config/logger.js';
import { quoteIdent } from '../types/duckdb-types.js';
import type { Engine, ScannedTable, StatementResult } from '../engine/engine.js';
import type { TempScope } from '../engine/names.js';
import type { Caller } from '../engine/row-access.js';
import { datasetLocation, type TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import { executeRequest } from '../scripting/request.js';
import { scanBytes } from './bytes.js';
import { applyDestination, stageTableName } from './destination.js';
import { createExternalTables, dropExternalTables } from './external.js';
import { decodeParams } from './jobs-params.js';
import type { JobRecord, JobStats } from './jobs-model.js';
import { StatementTimer, keyResultOf, statementTimeoutOf } from './query-options.js';
import { dropTempScope, sessionIdOf, tempDatasetId, type Session, type SessionManager } from './sessions.js';


/** What running a job's statements produced so far (kept when a statement fails: statistics). */
export interface Execution {
  results: StatementResult[];
  /** Each statement's share (child jobs of a script). */
  perStatement: JobStats[];
  stats: JobStats;
}

export interface ExecuteEnv {
  engine: Engine;
  sessions: SessionManager;
  /** Called once when a statement ran past `scriptOptions.statementTimeoutMs` (the job interrupts its work). */
  onStatementTimeout(ms: number): void;
  /** Who runs the job's statements (row access policies); absent: the default principal. */
  caller?: Caller;
  /** Runs a request's text (src/scripting/request.ts `executeRequest`; a test may pass a fake). */
  runRequest?: RequestRunner;
}

/** Runs a request's text on an engine: one statement or a script (src/scripting/request.ts). */
export type RequestRunner = typeof executeRequest;

/** A new, empty Execution. */
export function newExecution(): Execution {
  return { results: [], perStatement: [], stats: { bytesProcessed: 0, bytesBilled: 0, slotMs: 0, tablesScanned: 0 } };
}

/**
 * The session a job runs in: a new one (createSession), the one its connectionProperties name,
 * or none.
 * @throws BigQueryError invalid for an unknown, ended or malformed session id.
 */
async function sessionOf(sessions: SessionManager, job: JobRecord): Promise<Session | undefined> {
  const q = job.configuration.query;
  const id = sessionIdOf(q);
  const create = q.createSession === true || q.createSession === 'true';
  if (id !== undefined) {
    if (create) throw BigQueryError.sessionIdWithCreate();
    return sessions.use(id, job.projectId);
  }
  if (create && !job.configuration.dryRun) return sessions.create(job.projectId, job.location);
  return undefined;
}

/**
 * Runs the job's query and sets `job.result` (a script's key result, typed SCRIPT); fills `ex`.
 * @throws BigQueryError with the failing statement's error.
 */
export async function executeQueryJob(env: ExecuteEnv, job: JobRecord, ex: Execution): Promise<void> {
  const { engine } = env;
  const q = job.configuration.query;
  const dryRun = !!job.configuration.dryRun;
  if (q.useLegacySql === true || q.useLegacySql === 'true') throw BigQueryError.legacySqlNotSupported();
  const session = await sessionOf(env.sessions, job);
  if (session) job.sessionId = session.id;
  const { named, positional } = decodeParams(q.queryParameters, q.parameterMode);
  const dd = q.defaultDataset;
  // TEMP tables: the session's, else the job's own (dropped when it ends).
  const temp: TempScope = session?.temp ?? { projectId: job.projectId, datasetId: tempDatasetId(`job:${job.projectId}:${job.jobId}:${job.creationTime}`), tables: new Set() };
  const limit = statementTimeoutOf(q);
  const timer = limit ? new StatementTimer(limit, () => env.onStatementTimeout(limit)) : undefined;
  let externals: TableMeta[] = [];
  const stage = q.destinationTable && !dryRun ? stageTableName() : undefined;
  try {
    timer?.restart();
    if (q.tableDefinitions !== undefined) externals = await createExternalTables(engine, temp, q.tableDefinitions, dryRun);
    ex.results = await (env.runRequest ?? executeRequest)(engine, q.query, {
      projectId: job.projectId,
      defaultDataset: dd?.datasetId ? { projectId: dd.projectId ?? job.projectId, datasetId: dd.datasetId } : undefined,
      namedParams: named,
      positionalParams: positional,
      dryRun,
      jobId: job.jobId,
      temp,
      caller: env.caller,
      // The result's REST text is built inside DuckDB when it has no destination table to fill;
      // rows for a destination table stay inside DuckDB (written from `stage`, dropped below).
      encodeResult: !q.destinationTable && !dryRun,
      resultTable: stage,
      // A job with a location sees that location's datasets only (src/jobs/job-location.ts).
      location: job.locationByDefault ? undefined : job.location,
      // CALL BQ.ABORT_SESSION([id]) (src/scripting/procedures.ts).
      endSession: async (id) => {
        const sid = id ?? session?.id;
        if (!sid) throw BigQueryError.abortSessionOutsideSession();
        await env.sessions.end(sid);
      },
      onScan: async (scans: ScannedTable[]) => {
        // Each statement starts its own timeout period (ScriptOptions.statementTimeoutMs).
        timer?.restart();
        // A job that named no location runs where the first table it reads lives.
        if (job.locationByDefault) {
          const read = scans.find((s) => !s.table.infoSchema && s.table.datasetId !== temp.datasetId && engine.catalog.getDataset(s.table.projectId, s.table.datasetId));
          if (read) {
            job.location = datasetLocation(engine.catalog.getDataset(read.table.projectId, read.table.datasetId));
            delete job.locationByDefault;
          }
        }
        const b = await scanBytes(engine, scans);
        const tables = scans.filter((s) => s.table.type === 'TABLE').length;
        ex.perStatement.push({ bytesProcessed: b.processed, bytesBilled: b.billed, slotMs: 0, tablesScanned: tables, recordsRead: b.rows });
        ex.stats.bytesProcessed += b.processed;
        ex.stats.bytesBilled += b.billed;
        ex.stats.tablesScanned += tables;
        ex.stats.recordsRead = (ex.stats.recordsRead ?? 0) + b.rows;
      },
    });
  } finally {
    timer?.stop();
    if (session) await dropExternalTables(engine, temp, externals);
    // Cleanup of the job's own TEMP tables: the job's answer stands either way.
    else await dropTempScope(engine, temp).catch(logIgnored(engine.log, 'dropping a script job\'s TEMP tables', 'warn'));
  }
  const key = keyResultOf(ex.results, q);
  // A request of several statements is a script job: its statementType is SCRIPT (recorded rest_crud/dml_*).
  job.result = ex.results.length > 1 ? { ...key, statementType: 'SCRIPT' } : key;
  try {
    if (q.destinationTable && job.result.statementType === 'SELECT' && !dryRun) {
      const select = job.result.relation;
      job.result = { ...job.result, relation: undefined };
      await applyDestination(engine, job.projectId, q, job.result, select ? { source: { select } } : {});
    }
  } finally {
    if (stage) await engine.db.run(`DROP TABLE IF EXISTS ${quoteIdent(stage)}`).catch(logIgnored(engine.log, 'dropping a query result staged for its destination table', 'warn'));
  }
  if (job.result.encodedRows) {
    // Kept as the job's encoded rows (src/jobs/job-results.ts pages them).
    job.encodedRows = job.result.encodedRows;
    job.result = { ...job.result, encodedRows: undefined };
  }
}
