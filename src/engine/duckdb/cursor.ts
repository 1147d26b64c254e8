/**
 * Cursors of the embedded DuckDB (Database.openCursor): a query's rows pulled one DuckDB chunk
 * (≤ 2,048 rows) at a time, on demand, on connections kept apart from the query pool. A Storage
 * Read stream holds its cursor while its reader consumes it (minutes for a slow reader), so
 * cursors never take the pool's connections from queries.
 */
import type { DuckDBConnection, DuckDBDataChunk, DuckDBResult } from '@duckdb/node-api';
import { logIgnored, type Logger } from '../../config/logger.js';
import { mapDuckDBError } from './duckdb-errors.js';
import { runWithJsUdfs } from './interrupts.js';

/** Connections kept for cursors: more open cursors than this wait for one to close. */
export const CURSOR_CONNECTIONS = 8;

/**
 * A query's rows pulled one DuckDB chunk at a time: DuckDB computes the next rows only when asked
 * (one chunk ahead), so a slow reader holds back the query instead of buffering its rows.
 */
export interface ChunkCursor {
  /** The next chunk of rows, or null after the last. @throws BigQueryError (DuckDB errors mapped). */
  next(): Promise<DuckDBDataChunk | null>;
  /** Ends the query and frees its connection (safe to call twice or after the end). */
  close(): void;
}

/** The connections cursors run on, opened on demand up to CURSOR_CONNECTIONS. */
export class CursorPool {
  private readonly all = new Set<DuckDBConnection>();
  private free: DuckDBConnection[] = [];
  private waiters: ((c: DuckDBConnection) => void)[] = [];
  private closing = false;

  /** `connect` opens a connection set up like every other (UTC, NULL order, function prelude). */
  constructor(
    private readonly connect: () => Promise<DuckDBConnection>,
    private readonly log: Logger,
  ) {}

  /** Cursors open now (a test seam: a cancelled Storage Read stream must not leave one open). */
  get openCount(): number {
    return this.all.size - this.free.length;
  }

  /**
   * Opens `sql` as a cursor: rows are produced as {@link ChunkCursor.next} asks for them, and
   * {@link ChunkCursor.close} ends the query. The query reads one consistent snapshot of the
   * database (its own transaction) however long it is read. A statement whose JavaScript UDF batch
   * is pending is re-run (runWithJsUdfs) from the row the cursor had reached: `reopen(position)`
   * gives the SQL that skips the first `position` rows.
   * @throws BigQueryError the query's errors (DuckDB errors mapped).
   */
  async open(sql: string, reopen: (position: number) => string): Promise<ChunkCursor> {
    let c = this.free.pop();
    if (!c && this.all.size < CURSOR_CONNECTIONS) {
      c = await this.connect();
      this.all.add(c);
    }
    if (!c) c = await new Promise<DuckDBConnection>((r) => this.waiters.push(r));
    const conn = c;
    let result: DuckDBResult | undefined;
    let position = 0;
    let done = false;
    // One chunk is fetched ahead: DuckDB computes it while the caller encodes the previous one.
    let ahead: Promise<DuckDBDataChunk | null> | undefined;
    const close = () => {
      if (done) return;
      done = true;
      result = undefined;
      // A fetch still running on the connection settles before the connection is reused.
      const release = () => this.release(conn);
      if (ahead) ahead.then(release, release);
      else release();
    };
    const fetch = () =>
      runWithJsUdfs(async () => {
        try {
          result ??= await conn.stream(position ? reopen(position) : sql);
          const ch = await result.fetchChunk();
          position += ch?.rowCount ?? 0;
          return ch;
        } catch (e) {
          result = undefined; // a re-run starts from `position`
          throw e;
        }
      });
    const cursor: ChunkCursor = {
      next: async () => {
        if (done) return null;
        try {
          const ch = await (ahead ?? fetch());
          ahead = undefined;
          if (!ch || ch.rowCount === 0) {
            close();
            return null;
          }
          if (!done) {
            ahead = fetch();
            ahead.catch(() => undefined); // its error is the next call's
          }
          return ch;
        } catch (e) {
          ahead = undefined;
          close();
          throw mapDuckDBError(e, this.log);
        }
      },
      close,
    };
    try {
      // The query starts now, so errors in the SQL surface from open().
      result = await runWithJsUdfs(() => conn.stream(sql));
    } catch (e) {
      close();
      throw mapDuckDBError(e, this.log);
    }
    return cursor;
  }

  /**
   * Opens a connection ahead of need when none is idle (a new connection installs the function
   * prelude, ~100 ms), so that the next cursor finds one ready. Failures are logged only.
   */
  warm(): void {
    if (this.closing || this.free.length || this.all.size >= CURSOR_CONNECTIONS) return;
    const placeholder = {} as DuckDBConnection; // counts toward the cap while it opens
    this.all.add(placeholder);
    this.connect().then(
      (c) => {
        this.all.delete(placeholder);
        this.all.add(c);
        this.release(c);
      },
      (err) => {
        this.all.delete(placeholder);
        logIgnored(this.log, 'opening a cursor connection ahead of need', 'warn')(err);
      },
    );
  }

  /** Closes the idle connections now, the others when their cursor closes. */
  close(): void {
    this.closing = true;
    for (const c of this.free) this.discard(c);
    this.free = [];
  }

  private discard(c: DuckDBConnection): void {
    this.all.delete(c);
    c.closeSync();
  }

  /**
   * Gives a cursor's connection back. A query left half-read still holds its transaction and
   * buffers: a trivial statement ends it before the connection is reused.
   */
  private release(c: DuckDBConnection): void {
    if (this.closing) return this.discard(c);
    c.run('SELECT 1').then(
      () => {
        if (this.closing) return this.discard(c);
        const w = this.waiters.shift();
        if (w) w(c);
        else this.free.push(c);
      },
      (err) => {
        // A connection that cannot run SELECT 1 is not reused; a waiter gets a new one.
        this.log.warn({ err }, 'closing a cursor connection that failed to reset');
        this.discard(c);
        const w = this.waiters.shift();
        if (w)
          this.connect().then(
            (n) => (this.all.add(n), w(n)),
            logIgnored(this.log, 'opening a cursor connection', 'warn'),
          );
      },
    );
  }
}
