/**
 * The engine: executes GoogleSQL requests (one statement or several, separated by `;`) on DuckDB.
 * Statement → analyzer → lowering → DuckDB → domain rows (DESIGN §2). The engine takes and
 * returns plain domain objects; wire encoding happens in src/wire.
 */
import { preParseRewrites } from '../analyzer/pre-parse.js';
import { AnalyzerClient } from '../analyzer/client.js';
import { CatalogStore, type TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { BqType, Value } from '../types/types.js';
import { StatementAnalyzer, stripComments } from './analyze.js';
import { checkQueryText } from './query-text-limits.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../config/limits.js';
import { Database, type DatabaseOptions } from './duckdb/db.js';
import type { NameDefaults, TableRef } from './names.js';
import { duckType } from './duckdb/types.js';
import { isIngestionPartitioned } from './partitioning.js';
import type { ParamValue } from './lower/context.js';
import { executeStatement } from './statements.js';
import { installExpiration } from './expiration.js';
import type { JobsProvider } from './information-schema-jobs.js';

/** The script interpreter, loaded once on first use (it imports this module). */
let scriptingModule: Promise<typeof import('../scripting/index.js')> | undefined;
const scripting = () => (scriptingModule ??= import('../scripting/index.js'));

/** A result column: name and GoogleSQL type. */
export interface ResultField {
  name: string;
  type: BqType;
  /** REQUIRED mode (DDL results describing a table's NOT NULL columns). */
  required?: boolean;
}

/** What one statement did (contract §4.4: statementType, numDmlAffectedRows, ddlOperationPerformed). */
export interface StatementResult {
  statementType: string;
  schema?: ResultField[];
  rows?: Value[][];
  numDmlAffectedRows?: number;
  ddlOperationPerformed?: 'CREATE' | 'SKIP' | 'REPLACE' | 'DROP' | 'ALTER';
  ddlTargetTable?: TableRef;
  /** CREATE/DROP FUNCTION, PROCEDURE and TABLE FUNCTION: the routine (JobStatistics2.ddlTargetRoutine). */
  ddlTargetRoutine?: { projectId: string; datasetId: string; routineId: string };
  /** CREATE/DROP SCHEMA: the dataset (JobStatistics2.ddlTargetDataset). */
  ddlTargetDataset?: { projectId: string; datasetId: string };
  /** EXPORT DATA: files written and rows exported (JobStatistics2.exportDataStatistics). */
  exportDataStatistics?: { fileCount: number; rowCount: number };
  /** Tables the statement read. */
  referencedTables?: TableRef[];
  /** UTF-8 byte range of the statement in the request text (child jobs of a script). */
  span?: [number, number];
}

/**
 * A table a statement reads and the columns it scans (job statistics: bytes processed). `whole`
 * marks the target of an UPDATE, DELETE or MERGE, which BigQuery bills with all its columns.
 */
export interface ScannedTable {
  table: TableMeta;
  columns: string[];
  whole?: boolean;
}

export interface QueryOptions extends NameDefaults {
  namedParams?: Map<string, ParamValue>;
  positionalParams?: ParamValue[];
  /** Analyze only (jobs dryRun). */
  dryRun?: boolean;
  /** Called with the tables and columns each statement scans, before the statement runs (job statistics). */
  onScan?: (scans: ScannedTable[]) => Promise<void>;
  /** The job running the request (`@@current_job_id`, `@@script.job_id`; src/scripting/interpreter.ts). */
  jobId?: string;
  /**
   * Ends a session: `CALL BQ.ABORT_SESSION([session_id])` (src/scripting/procedures.ts); `undefined`
   * means the request's own session. Provided by the job layer, which owns sessions.
   * @throws BigQueryError invalidQuery without a session to end.
   */
  endSession?: (sessionId: string | undefined) => Promise<void>;
  /** Who runs the statement (row access policies); absent: the request's ambient caller or the default principal. */
  caller?: { principal: string; groups: string[] };
}

/**
 * The relation of a wildcard table: its members' rows (columns a member lacks are NULL) with
 * `_TABLE_SUFFIX`, the part of each member's id the wildcard matched.
 */
function wildcardRelation(t: TableMeta): { relation: string; columns: string[] } {
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const parts = t.wildcard!.map(({ table, suffix }) => {
    const have = new Set(table.columns.map((c) => c.name.toLowerCase()));
    const cols = t.columns.map((c) => (have.has(c.name.toLowerCase()) ? `CAST(${q(c.name)} AS ${duckType(c.type)}) AS ${q(c.name)}` : `CAST(NULL AS ${duckType(c.type)}) AS ${q(c.name)}`));
    return `SELECT ${[...cols, `'${suffix.replace(/'/g, "''")}' AS "_TABLE_SUFFIX"`].join(', ')} FROM ${q(table.duckName)}`;
  });
  return { relation: `(${parts.join(' UNION ALL ')})`, columns: [...t.columns.map((c) => c.name), '_TABLE_SUFFIX'] };
}

export interface EngineOptions {
  dataDir?: string;
  /** DuckDB's memory limit and spill directory (src/engine/duckdb/db.ts DatabaseOptions). */
  database?: DatabaseOptions;
  /** Largest decoded result of one query, in bytes (default DEFAULT_MAX_RESPONSE_BYTES, src/config/limits.ts). */
  maxResponseBytes?: number;
}

export class Engine {
  readonly catalog: CatalogStore;
  readonly statements: StatementAnalyzer;
  /**
   * A project's jobs for INFORMATION_SCHEMA.JOBS, set by whoever owns the job manager (the server);
   * the engine never imports src/jobs.
   */
  jobsProvider?: JobsProvider;
  /**
   * Largest decoded result one query may return, in bytes; past it the query fails with
   * "Response too large to return." (src/engine/result-size.ts, src/config/limits.ts).
   */
  maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;

  private constructor(
    readonly db: Database,
    readonly analyzer: AnalyzerClient,
  ) {
    this.catalog = new CatalogStore(db);
    installExpiration(this);
    this.statements = new StatementAnalyzer(this.analyzer, this.catalog);
  }

  /** Opens the database, loads persisted metadata and starts the analyzer. */
  static async start(opts: EngineOptions = {}): Promise<Engine> {
    // The analyzer child and DuckDB start side by side (cold start, issue 4).
    const analyzer = new AnalyzerClient();
    const [db] = await Promise.all([Database.open(opts.dataDir, opts.database), analyzer.start()]);
    const e = new Engine(db, analyzer);
    if (opts.maxResponseBytes) e.maxResponseBytes = opts.maxResponseBytes;
    await e.catalog.load();
    return e;
  }

  /**
   * Executes every statement of `sql` in order; returns each statement's result (the last one is
   * the request's answer).
   * @throws BigQueryError with BigQuery's reason and text.
   */
  async execute(sql: string, opts: QueryOptions): Promise<StatementResult[]> {
    // BigQuery's limits on the text (length, nesting) before any analysis (src/engine/query-text-limits.ts).
    checkQueryText(sql);
    // Syntax this analyzer build cannot parse, respelled first (src/analyzer/literal-concat.ts, set-by-name.ts).
    sql = preParseRewrites(sql);
    // Scripts (several statements, or a procedural one) run in the interpreter (DESIGN §2.2).
    const script = await (await scripting()).runScript(this, sql, opts);
    if (script) return script;
    const results: StatementResult[] = [];
    const total = Buffer.byteLength(sql);
    let pos = 0;
    const named = new Map<string, BqType>();
    for (const [k, v] of opts.namedParams ?? []) named.set(k, v.type);
    const params = { named, positional: (opts.positionalParams ?? []).map((p) => p.type) };
    while (pos < total) {
      const rest = Buffer.from(sql).subarray(pos).toString('utf8');
      if (!stripComments(rest)) break;
      const a = await this.statements.analyze(sql, pos, opts, params);
      const r = await executeStatement(this, a.stmt, a.tables, opts);
      r.span ??= [pos, a.next];
      results.push(r);
      pos = a.next;
    }
    if (!results.length) throw BigQueryError.emptyScript();
    return results;
  }

  /** The DuckDB relation of a stored table or a view. */
  async relationOf(t: TableMeta, opts: NameDefaults & Pick<QueryOptions, 'caller'>): Promise<{ relation: string; columns: string[] }> {
    if (t.wildcard) return wildcardRelation(t);
    if (t.infoSchema) return (await import('./information-schema.js')).infoSchemaRelation(this, t);
    if (t.type !== 'VIEW') {
      const columns = t.columns.map((c) => c.name);
      if (isIngestionPartitioned(t)) columns.push('_PARTITIONTIME', '_PARTITIONDATE');
      return { relation: `"${t.duckName}"`, columns };
    }
    const { lowerView } = await import('./statements.js');
    return lowerView(this, t, opts);
  }

  stop(): void {
    this.analyzer.stop();
    this.db.close();
  }
}
