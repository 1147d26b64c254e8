/**
 * The embedded DuckDB database: in memory by default, a file under `--data-dir` when persisting.
 * Sessions run with TimeZone UTC and BigQuery's NULL order (docs/ARCHITECTURE.md §4). Holds a small pool of
 * connections so reads run side by side (connection-pool.ts); metadata is persisted in `__bqemu_meta`.
 */
import { logIgnored, silentLogger, type Logger } from '../../config/logger.js';
import {
  DuckDBInstance,
  type DuckDBAppender,
  type DuckDBConnection,
  type DuckDBDataChunk,
  type DuckDBPreparedStatement,
  type DuckDBMaterializedResult,
  type DuckDBResult,
  type DuckDBResultReader,
} from '@duckdb/node-api';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MetaPersistence } from '../../catalog/store.js';
import { BigQueryError } from '../../errors/errors.js';
import { mapDuckDBError } from './duckdb-errors.js';
import { PreparedStatements } from './prepared-statements.js';
import { withSqlPrepared } from './sql-prepared.js';
import { WriteGenerations, type WriteScope } from './write-generations.js';
import { currentWorkContext, withWorkContext } from './async-context.js';
import { RowFacts } from './row-facts.js';
import { CursorPool, type ChunkCursor } from './cursor.js';
import { runWithJsUdfs } from './interrupts.js';
import { ConnectionPool } from './connection-pool.js';
import { duckMemoryLimit, openConnection, type DatabaseOptions } from './settings.js';
import '../../functions/index.js';

export { mapDuckDBError } from './duckdb-errors.js';
export type { ChunkCursor } from './cursor.js';
export { Interrupter, currentInterrupterSignal, runInterruptible, runWithJsUdfs } from './interrupts.js';
export { duckMemoryLimit, type DatabaseOptions } from './settings.js';
export type { WriteScope } from './write-generations.js';
export { POOL_MAX, POOL_TOP_UP_DELAY_MS } from './connection-pool.js';

/** Runs `f` (and the async work it starts) outside any write turn: its writes wait for their own turn. */
export function outsideWriteTurn<T>(f: () => T): T {
  return withWorkContext({ writeTurn: undefined }, f);
}

/** Metadata rows noting the copies of open multi-statement transactions (Database.keepCopy). */
const TXN_COPY = 'txnCopy';

/** The statement that stores (json) or removes (null) one row of `__bqemu_meta`. */
export function metaSql(c: { kind: string; key: string; json: string | null }): string {
  const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
  if (c.json === null) return `DELETE FROM __bqemu_meta WHERE kind = ${q(c.kind)} AND key = ${q(c.key)}`;
  return `INSERT OR REPLACE INTO __bqemu_meta VALUES (${q(c.kind)}, ${q(c.key)}, ${q(c.json)})`;
}

export class Database implements MetaPersistence {
  private constructor(
    instance: DuckDBInstance,
    private readonly pool: ConnectionPool,
    /** True when the database is a file (`--data-dir`). */
    readonly persistent: boolean,
    /** The engine's logger (src/config/logger.ts). */
    readonly log: Logger = silentLogger,
  ) {
    this.cursors = new CursorPool(() => openConnection(instance), log);
  }
  /** Connections of cursors (openCursor). */
  private readonly cursors: CursorPool;
  /** Writes are serialised (BigQuery queues DML per table; DuckDB's optimistic writes would conflict). */
  private writeChain: Promise<unknown> = Promise.resolve();

  /** Write generations, per table (src/engine/duckdb/write-generations.ts). */
  readonly generations = new WriteGenerations();

  /** What the last write of each table knows of its rows (src/engine/duckdb/row-facts.ts). */
  readonly rowFacts = new RowFacts();

  /**
   * Moves when any write starts and when it ends: a value read from the database at generation g
   * is still current while the generation is g. Per-table generations: {@link generations}.
   */
  get writeGeneration(): number {
    return this.generations.now;
  }

  /**
   * Runs `f` after every earlier write finished; `scope` is what it changes (WriteScope: `'all'`
   * unless it names its tables). Reentrant: a write started inside `f` (same async context) runs
   * at once, so one statement can hold the write turn across several writes (time travel keeps the
   * table's previous version in the same turn, src/engine/history.ts); such a nested write counts
   * as part of the turn's scope unless it names tables of its own.
   */
  serializeWrite<T>(f: () => Promise<T>, scope: WriteScope = 'all'): Promise<T> {
    const bumped = (run: () => Promise<T>, top: boolean) => {
      this.rowFacts.begin(scope, top);
      this.generations.begin(scope);
      return run().finally(() => this.generations.end(scope));
    };
    if (currentWorkContext().writeTurn === this) return Array.isArray(scope) ? bumped(f, false) : f();
    const g = () => bumped(() => withWorkContext({ writeTurn: this }, f), true);
    const next = this.writeChain.then(g, g);
    // The chain only orders writes: each write's failure reaches its own caller through `next`.
    this.writeChain = next.catch(() => undefined);
    return next;
  }

  /**
   * Runs `f` with its reads naming `tables` (DuckDB names): the statements it prepares are kept
   * until one of those tables (or anything) is written, not until any write (prepared-statements.ts).
   * The caller vouches that `f`'s SQL reads no other table.
   */
  withReadScope<T>(tables: readonly string[], f: () => Promise<T>): Promise<T> {
    return withWorkContext({ readTables: tables }, f);
  }
  /** The private spill directory chosen for an in-memory database (removed on close). */
  private ownTempDir?: string;

  /**
   * Opens the database: `:memory:` or `<dataDir>/bqemu.duckdb`, with DuckDB's `memory_limit` and
   * a spill directory (`temp_directory`) so a large query spills to disk, and past the limit fails
   * alone with BigQuery's "Resources exceeded" instead of taking the process down.
   */
  static async open(dataDir?: string, opts: DatabaseOptions = {}): Promise<Database> {
    let file = ':memory:';
    if (dataDir) {
      fs.mkdirSync(dataDir, { recursive: true });
      file = path.join(dataDir, 'bqemu.duckdb');
    }
    let ownTempDir: string | undefined;
    let tempDir = opts.tempDirectory ?? (dataDir ? path.join(dataDir, 'spill') : undefined);
    // DuckDB creates the directory when it first spills, so an emulator that never spills leaves none.
    if (!tempDir) tempDir = ownTempDir = path.join(os.tmpdir(), `bqemu-spill-${process.pid}-${randomUUID().slice(0, 8)}`);
    const instance = await DuckDBInstance.create(file, {
      default_null_order: 'nulls_first_on_asc_last_on_desc',
      memory_limit: duckMemoryLimit(opts.memoryLimit),
      temp_directory: tempDir,
    });
    const log = opts.log ?? silentLogger;
    const db = new Database(instance, await ConnectionPool.open(instance, log), file !== ':memory:', log);
    db.ownTempDir = ownTempDir;
    await db.run('CREATE TABLE IF NOT EXISTS __bqemu_meta (kind VARCHAR, key VARCHAR, json VARCHAR, PRIMARY KEY (kind, key))');
    await db.recoverCopies();
    db.pool.scheduleTopUp();
    return db;
  }

  /** Pooled connections open (not those being opened; for tests). */
  get connectionCount(): number {
    return this.pool.connectionCount;
  }

  /** Runs `f` with a pooled connection (connection-pool.ts ConnectionPool.withConnection). */
  withConnection<T>(f: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.pool.withConnection(f);
  }

  /**
   * Runs a statement; DuckDB errors become BigQuery errors. `metadataOnly`: the statement writes
   * only `__bqemu_meta` (Database.save), which no query reads, so it leaves `writeGeneration` as it
   * is — with `--data-dir` every finished job is saved, and bumping the generation made the next
   * query of any table rescan it for bytes processed and prepare its statements again.
   */
  async run(sql: string, metadataOnly = false): Promise<void> {
    await this.serializeWrite(() => this.withConnection(async (c) => {
      try {
        await runWithJsUdfs(() => c.run(sql));
      } catch (e) {
        throw mapDuckDBError(e, this.log);
      }
    }), metadataOnly ? 'none' : 'all');
  }

  /**
   * Runs a query and reads every row. The statement is prepared once per connection and kept
   * (least recently used first out, src/engine/duckdb/prepared-statements.ts): a repeated query skips
   * DuckDB's parse and plan (measured: `SELECT 1`-sized queries 0.41 → 0.21 ms). DuckDB re-binds a
   * kept statement when the catalog changed and evaluates CURRENT_TIMESTAMP, random() … per run.
   * Text DuckDB cannot prepare (several statements) runs unprepared.
   */
  async readAll(sql: string): Promise<DuckDBResultReader> {
    return this.runPrepared(
      sql,
      (p) => runWithJsUdfs(() => p.runAndReadAll()),
      (c) => runWithJsUdfs(() => c.runAndReadAll(sql)),
    );
  }

  /**
   * Runs a query and hands its rows to `visit` one DuckDB chunk (≤ 2,048 rows) at a time, as they
   * are produced: nothing is materialised beyond the chunk being visited, and `visit` may throw to
   * stop the query early (the result-size guard, src/engine/statements.ts readRows).
   * `materialize`: the caller knows the result has at most one chunk's rows (≤ 2,048,
   * src/engine/lower/row-bound.ts), so it is read whole from one call to DuckDB.
   */
  async readChunks(sql: string, visit: (chunk: DuckDBDataChunk) => void, restart?: () => void, materialize = false): Promise<void> {
    if (materialize) {
      // A result known to be one chunk at most: run to completion in one call to DuckDB (a kept
      // statement's execute, or node-api's `query` for a one-off text) and read its chunks
      // without more calls. Streaming costs three or more round trips through libuv's pool and
      // the event loop (execute, fetch, the empty last fetch; PREPARE/EXECUTE/DEALLOCATE for a
      // one-off text), each waiting for a turn of a busy event loop.
      const visitAll = (r: DuckDBMaterializedResult) => {
        restart?.();
        for (let i = 0, n = r.chunkCount; i < n; i++) visit(r.getChunk(i));
      };
      await this.runPrepared(
        sql,
        (p) => runWithJsUdfs(async () => visitAll(await p.run())),
        (c) => runWithJsUdfs(async () => visitAll(await c.run(sql))),
      );
      return;
    }
    // A statement re-run for a JavaScript UDF batch (runWithJsUdfs) streams from its first row
    // again: `restart` lets the caller drop what it kept of the abandoned run.
    const drain = async (open: () => Promise<DuckDBResult>) =>
      runWithJsUdfs(async () => {
        restart?.();
        const r = await open();
        for (let ch = await r.fetchChunk(); ch && ch.rowCount > 0; ch = await r.fetchChunk()) visit(ch);
      });
    await this.runPrepared(sql, (p) => drain(() => p.stream()), (c) => withSqlPrepared(c, sql, drain));
  }

  /**
   * Opens `sql` as a cursor: its rows pulled one DuckDB chunk at a time as the caller asks, on a
   * connection apart from the pool (src/engine/duckdb/cursor.ts). `reopen(position)`: the SQL
   * skipping the first `position` rows. @throws BigQueryError the query's errors, databaseClosed.
   */
  async openCursor(sql: string, reopen: (position: number) => string = () => sql): Promise<ChunkCursor> {
    if (this.pool.closing) throw BigQueryError.databaseClosed();
    return this.cursors.open(sql, reopen);
  }

  /** Opens a cursor connection ahead of need when none is idle (CursorPool.warm). */
  warmCursorConnection(): void {
    if (!this.pool.closing) this.cursors.warm();
  }

  /** Cursors open now (a test seam: a cancelled Storage Read stream must not leave one open). */
  get openCursors(): number {
    return this.cursors.openCount;
  }

  /** Runs `sql` through the connection's kept prepared statement (see readAll), or `unprepared`. */
  private async runPrepared<T>(sql: string, run: (p: DuckDBPreparedStatement) => Promise<T>, unprepared: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.withConnection(async (c) => {
      try {
        return await this.prepared.run(c, sql, run, unprepared, this.generations.of(currentWorkContext().readTables));
      } catch (e) {
        throw mapDuckDBError(e, this.log);
      }
    });
  }

  /** Prepared statements kept per pooled connection (see readAll). */
  private readonly prepared = new PreparedStatements();

  /** Runs several statements on one connection inside a transaction (all or nothing). */
  async transaction(statements: string[]): Promise<number[]> {
    // A JavaScript UDF batch still running fails the transaction (rolled back): the whole
    // transaction is run again once it answered.
    return this.serializeWrite(() => this.withConnection((c) => runWithJsUdfs(async () => {
      const counts: number[] = [];
      await c.run('BEGIN TRANSACTION');
      try {
        for (const s of statements) {
          const r = await c.run(s);
          counts.push(Number(r.rowsChanged));
        }
        await c.run('COMMIT');
        return counts;
      } catch (e) {
        // The statement's own error is the answer; a failed ROLLBACK (no transaction left) adds nothing.
        await c.run('ROLLBACK').catch(logIgnored(this.log, 'ROLLBACK after a failed write'));
        throw mapDuckDBError(e, this.log);
      }
    })));
  }

  /** Appends rows to a table with DuckDB's appender, in one transaction (all or nothing). */
  async append(table: string, fill: (a: DuckDBAppender) => void | Promise<void>): Promise<void> {
    await this.serializeWrite(() =>
      this.withConnection(async (c) => {
        await c.run('BEGIN TRANSACTION');
        let appender: DuckDBAppender | undefined;
        try {
          appender = await c.createAppender(table);
          await fill(appender);
          appender.closeSync();
          appender = undefined;
          await c.run('COMMIT');
        } catch (e) {
          try {
            appender?.closeSync();
          } catch (closeErr) {
            logIgnored(this.log, 'closing a failed appender (its own error is thrown below)')(closeErr);
          }
          await c.run('ROLLBACK').catch(logIgnored(this.log, 'ROLLBACK after a failed append'));
          throw mapDuckDBError(e, this.log);
        }
      }),
    );
  }

  async save(kind: string, key: string, json: string | null): Promise<void> {
    await this.run(metaSql({ kind, key, json }), true);
  }

  /**
   * Copies the rows of `relation` (a quoted DuckDB table name) aside for a multi-statement
   * transaction (src/scripting/transactions.ts), noting the copy in the metadata in the same
   * transaction: when the process dies before {@link dropCopies} or {@link restoreCopies}, the
   * next start puts the rows back, so an open transaction is rolled back, never half-applied
   * (BigQuery "Multi-statement transactions": a transaction commits or rolls back as a whole).
   * @returns the copy's table name.
   */
  async keepCopy(relation: string): Promise<string> {
    const copy = `__bqemu_txn_${randomUUID().replace(/-/g, '')}`;
    await this.transaction([`CREATE TABLE "${copy}" AS SELECT * FROM ${relation}`, metaSql({ kind: TXN_COPY, key: copy, json: JSON.stringify({ relation }) })]);
    return copy;
  }

  /** COMMIT of a multi-statement transaction: drops its copies and their notes, in one transaction. */
  async dropCopies(copies: string[]): Promise<void> {
    if (!copies.length) return;
    await this.transaction(copies.flatMap((copy) => [`DROP TABLE IF EXISTS "${copy}"`, metaSql({ kind: TXN_COPY, key: copy, json: null })]));
  }

  /** ROLLBACK: puts each relation's rows back from its copy and drops the copies, in one transaction. */
  async restoreCopies(saved: [relation: string, copy: string][]): Promise<void> {
    if (!saved.length) return;
    await this.transaction(
      saved.flatMap(([relation, copy]) => [`DELETE FROM ${relation}`, `INSERT INTO ${relation} SELECT * FROM "${copy}"`, `DROP TABLE "${copy}"`, metaSql({ kind: TXN_COPY, key: copy, json: null })]),
    );
  }

  /**
   * At start: rolls back the multi-statement transactions a crash left open (see {@link keepCopy}).
   * A copy whose table is gone or changed shape (dropped or altered by another job meanwhile) is
   * discarded.
   */
  private async recoverCopies(): Promise<void> {
    const rows = (await this.readAll(`SELECT key, json FROM __bqemu_meta WHERE kind = '${TXN_COPY}'`)).getRowsJS();
    for (const [copy, json] of rows) {
      const { relation } = JSON.parse(String(json)) as { relation: string };
      try {
        await this.restoreCopies([[relation, String(copy)]]);
      } catch (err) {
        // A copy that cannot be restored is dropped; its table keeps its committed state.
        this.log.warn({ err, copy: String(copy), relation }, 'could not restore a transaction copy at start; dropping it');
        await this.dropCopies([String(copy)]).catch(logIgnored(this.log, 'dropping an unrestorable transaction copy', 'warn'));
      }
    }
  }

  /** Runs `statements` and the metadata `changes` in one transaction (all or nothing); the statements' changed-row counts. */
  async saveWith(statements: string[], changes: { kind: string; key: string; json: string | null }[]): Promise<number[]> {
    const counts = await this.transaction([...statements, ...changes.map(metaSql)]);
    return counts.slice(0, statements.length);
  }

  /**
   * Every persisted metadata row. A table whose DuckDB data is gone is a DROP cut short by a crash
   * (data directories written before data and metadata changed in one transaction, see
   * CatalogStore.deleteTableWith, can hold one): its row is deleted here, so the table is absent
   * rather than listed and unreadable.
   */
  async loadAll(): Promise<{ kind: string; key: string; json: string }[]> {
    const r = await this.readAll('SELECT kind, key, json FROM __bqemu_meta');
    const rows = r.getRowsJS().map(([kind, key, json]) => ({ kind: String(kind), key: String(key), json: String(json) }));
    const stored = new Set((await this.readAll("SELECT lower(table_name) FROM duckdb_tables() WHERE schema_name = 'main'")).getRowsJS().map((x) => String(x[0])));
    const dangling = rows.filter((row) => {
      if (row.kind !== 'table') return false;
      const t = JSON.parse(row.json) as { type?: string; duckName?: string };
      return t.type === 'TABLE' && !!t.duckName && !stored.has(t.duckName.toLowerCase());
    });
    for (const row of dangling) await this.save('table', row.key, null);
    return dangling.length ? rows.filter((row) => !dangling.includes(row)) : rows;
  }

  /**
   * Closes the database. Work still running (an unfinished job) is interrupted, and its connection
   * closes once that work has unwound: closing a connection under a running query would leave the
   * query's promise unsettled forever.
   */
  close(): void {
    if (this.pool.closing) return;
    if (this.ownTempDir) fs.rmSync(this.ownTempDir, { recursive: true, force: true });
    // Idle cursor connections close now, open cursors' when they close.
    this.cursors.close();
    this.pool.close((c) => this.prepared.destroyAll(c));
  }
}

