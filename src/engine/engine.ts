/**
 * The engine: executes GoogleSQL statements on DuckDB.
 * Statement → analyzer → lowering → DuckDB → domain rows (docs/ARCHITECTURE.md §1). The engine takes and
 * returns plain domain objects; wire encoding happens in src/wire. A request's text (one statement
 * or a script) enters through src/scripting/request.ts, which calls the engine.
 */
import { componentLogger, silentLogger, type Logger } from '../config/logger.js';
import { setGcsRoot } from './cloud-storage.js';
import { releaseObjectStore, useObjectStore } from './storage-uris.js';
import { AnalyzerClient } from '../analyzer/client.js';
import { CatalogStore, type TableMeta } from '../catalog/store.js';
import { StatementAnalyzer } from './analyze.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../config/limits.js';
import { Database, type DatabaseOptions } from './duckdb/db.js';
import type { NameDefaults } from './names.js';
import { duckType } from './duckdb/types.js';
import { isIngestionPartitioned } from './partitioning.js';
import { installExpiration } from './expiration.js';
import type { JobsProvider } from './information-schema-jobs.js';
import { infoSchemaRelation } from './information-schema.js';
import { lowerView } from './statement-context.js';
import type { Engine as EngineServices, QueryOptions } from './engine-types.js';

export type { Engine as EngineServices, QueryOptions, ResultField, ScannedTable, StatementHandler, StatementResult } from './engine-types.js';

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
  /** The local directory standing in for Cloud Storage (src/engine/cloud-storage.ts; default `$TMPDIR/bqemu-gcs`). */
  gcsDir?: string;
  /** A Cloud Storage emulator `gs://` URIs go to instead (`STORAGE_EMULATOR_HOST`, src/engine/storage-uris.ts). */
  storageEmulatorHost?: string;
  /** The emulator's logger (src/config/logger.ts); the engine and the analyzer log through children of it. */
  log?: Logger;
}

/** The warm-up analysis (Engine.warmedUp): builtin functions only, no table. */
const ANALYZER_WARM_UP_SQL = "SELECT 1 AS n, CONCAT('a', 'b') AS s";
/** Its default project (no table is named, so none is looked up). */
const ANALYZER_WARM_UP_PROJECT = 'bqemu-analyzer-warm-up';

/** The engine: the DuckDB database, the analyzer child and the catalog, started together. */
export class Engine implements EngineServices {
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
  /** How a large result is finished (engine-types.ts Engine.largeResults; undefined: by time). */
  largeResults?: 'keep' | 'rerun';
  /** The engine's logger (`{component: 'engine'}`, src/config/logger.ts). */
  log: Logger = silentLogger;
  /**
   * Settles (never rejects) once the analyzer's warm-up analysis is done: its first Analyze builds
   * the builtin function catalog, ~30 ms more than the next ones (`bench/analyzer-start.ts`), done
   * in the child while the server finishes starting rather than on the first query. The server
   * waits for it before it listens, so no request ever shares the child with it.
   */
  warmedUp: Promise<void> = Promise.resolve();

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
    // The analyzer child and DuckDB start side by side (cold start: docs/ARCHITECTURE.md §8).
    if (opts.gcsDir) setGcsRoot(opts.gcsDir);
    useObjectStore(opts.storageEmulatorHost);
    const analyzer = new AnalyzerClient(componentLogger(opts.log, 'analyzer'));
    const log = componentLogger(opts.log, 'engine');
    const [db] = await Promise.all([Database.open(opts.dataDir, { ...opts.database, log }), analyzer.start()]);
    const e = new Engine(db, analyzer);
    e.log = log;
    e.warmedUp = e.statements.analyze(ANALYZER_WARM_UP_SQL, 0, { projectId: ANALYZER_WARM_UP_PROJECT }, {}).then(
      () => undefined,
      (err: unknown) => log.debug({ err }, 'analyzer warm-up failed'),
    );
    if (opts.maxResponseBytes) e.maxResponseBytes = opts.maxResponseBytes;
    await e.catalog.load();
    return e;
  }

  /** The DuckDB relation of a stored table or a view. */
  async relationOf(t: TableMeta, opts: NameDefaults & Pick<QueryOptions, 'caller'>): Promise<{ relation: string; columns: string[] }> {
    if (t.wildcard) return wildcardRelation(t);
    if (t.infoSchema) return infoSchemaRelation(this, t);
    if (t.type !== 'VIEW') {
      const columns = t.columns.map((c) => c.name);
      if (isIngestionPartitioned(t)) columns.push('_PARTITIONTIME', '_PARTITIONDATE');
      return { relation: `"${t.duckName}"`, columns };
    }
    return lowerView(this, t, opts);
  }

  stop(): void {
    this.analyzer.stop();
    this.db.close();
    releaseObjectStore();
  }
}
