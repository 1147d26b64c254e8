/**
 * The engine's shared shapes: what a statement handler receives (`Engine`, the services of a running
 * engine, and `QueryOptions`) and what it answers (`StatementResult`). Every module of the engine
 * imports these types from here, never src/engine/engine.ts (the class that assembles the engine
 * imports them all), so the engine's modules form no import cycle (.dependency-cruiser.cjs).
 */
import type { Logger } from '../config/logger.js';
import type { AnalyzerClient } from '../analyzer/client.js';
import type { Node, ResolvedNodeOf, ResolvedStatementKind } from '../analyzer/ast.js';
import type { CatalogStore, TableMeta } from '../catalog/store.js';
import type { BqType, Value } from '../types/types.js';
import type { EncodedRows } from '../wire/encoded-rows.js';
import type { StatementAnalyzer } from './analyze.js';
import type { Database } from './duckdb/db.js';
import type { JobsProvider } from './information-schema-jobs.js';
import type { LowerContext, ParamValue } from './lower/context.js';
import type { NameDefaults, TableRef } from './names.js';

/** A result column: name and GoogleSQL type. */
export interface ResultField {
  name: string;
  type: BqType;
  /** REQUIRED mode (DDL results describing a table's NOT NULL columns). */
  required?: boolean;
}

/**
 * What one statement did (JobStatistics2 statementType, numDmlAffectedRows, ddlOperationPerformed
 * in src/server/rest/bigquery-v2-discovery.json).
 */
export interface StatementResult {
  statementType: string;
  schema?: ResultField[];
  rows?: Value[][];
  /**
   * A query's rows as their REST JSON text, built inside DuckDB (src/engine/result-json.ts), instead
   * of `rows` (only with QueryOptions.encodeResult).
   */
  encodedRows?: EncodedRows;
  /**
   * A query's rows left inside DuckDB: a SELECT of its columns in order (only with
   * QueryOptions.resultTable, over that table), instead of `rows`.
   */
  relation?: string;
  numDmlAffectedRows?: number;
  /**
   * Rows a query job wrote to its `destinationTable` (the query plan's records written). Not a DML
   * count: a SELECT into a destination reports statementType SELECT and no numDmlAffectedRows
   * (recorded api_configuration/doc_create_if_needed_new_destination).
   */
  destinationRowsWritten?: number;
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
  /** Who runs the statement (row access policies; src/server/rest/context.ts callerFromHeaders); absent: the default principal. */
  caller?: { principal: string; groups: string[] };
  /**
   * A single query statement's rows may come back as `StatementResult.encodedRows` (REST JSON text
   * built inside DuckDB) instead of domain values: set by the job layer for a job's own result.
   */
  encodeResult?: boolean;
  /**
   * A single query statement's rows are written into this new DuckDB table (`CREATE TABLE AS`,
   * columns `v0`, `v1`, …) and answered as `StatementResult.relation`: set by the job layer for a
   * job with a destination table, which drops the table afterwards.
   */
  resultTable?: string;
}

/**
 * The services of a running engine a statement uses (implemented by the `Engine` class of
 * src/engine/engine.ts): the DuckDB database, the analyzer, the catalog, the statement analyzer.
 */
export interface Engine {
  readonly catalog: CatalogStore;
  readonly statements: StatementAnalyzer;
  readonly db: Database;
  readonly analyzer: AnalyzerClient;
  /** A project's jobs for INFORMATION_SCHEMA.JOBS, set by whoever owns the job manager (the server). */
  jobsProvider?: JobsProvider;
  /** Largest decoded result one query may return, in bytes (src/engine/result-size.ts). */
  maxResponseBytes: number;
  /**
   * How a query whose result proves large after its first rows is finished
   * (src/engine/statement-context.ts readRowsIfSmall): undefined decides by time — its chunks are
   * kept while that costs less than running it again —; `'keep'` keeps them (up to 256 MB of
   * readRows' size bound), `'rerun'` never does (a test seam: both give the same answer).
   */
  largeResults?: 'keep' | 'rerun';
  /** The engine's logger (`{component: 'engine'}`, src/config/logger.ts). */
  log: Logger;
  /** The DuckDB relation of a stored table, a view, a wildcard table or an INFORMATION_SCHEMA view. */
  relationOf(t: TableMeta, opts: NameDefaults & Pick<QueryOptions, 'caller'>): Promise<{ relation: string; columns: string[] }>;
}

/** Executes one analyzed statement of a given kind (src/engine/statements.ts dispatches on the kind). */
export type StatementHandler = (e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions) => Promise<StatementResult>;

/** A handler of the statements of kind K (its node typed by src/analyzer/generated/resolved-ast.ts). */
export type HandlerOf<K extends ResolvedStatementKind> = (e: Engine, stmt: ResolvedNodeOf<K>, ctx: LowerContext, opts: QueryOptions) => Promise<StatementResult>;

/** Statement handlers by resolved statement kind. */
export type StatementHandlers = { [K in ResolvedStatementKind]?: HandlerOf<K> };
