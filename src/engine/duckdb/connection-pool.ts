/**
 * The pooled DuckDB connections of one database (Database, db.ts): reads run side by side, each on
 * a connection of its own. A connection is handed out by {@link ConnectionPool.withConnection}
 * under the job's interrupter (interrupts.ts): jobs.cancel interrupts the connections a job holds.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { Logger } from '../../config/logger.js';
import { BigQueryError } from '../../errors/errors.js';
import { currentInterrupter, interruptedError } from './interrupts.js';
import { noteResult } from './native-memory.js';
import { openConnection } from './settings.js';

/**
 * Connections opened with the database: one (the first installs the function prelude, ~8–12 ms of
 * main-thread time for its 165 UDFs, src/functions/prelude.ts; the others only open and set their
 * session settings, settings.ts openConnection); POOL_TOP_UP_DELAY_MS later the pool is topped up
 * to POOL_SIZE (ConnectionPool.topUp), sooner on demand (acquire).
 */
export const POOL_AT_OPEN = 1;
const POOL_SIZE = 4;
export const POOL_TOP_UP_DELAY_MS = 1000;
/**
 * Most pooled connections: more are opened on demand up to this many, so that a `SELECT 1`
 * never waits for a connection while long queries hold the first ones (measured: with 4 queries
 * of ~2 s running, `SELECT n` waited 0.96–7.8 s for a connection of a pool of 4). Every running
 * query also holds a libuv thread while DuckDB executes it: bin/bqemu.js sizes libuv's pool
 * (UV_THREADPOOL_SIZE) above this.
 */
export const POOL_MAX = 16;

/** The connections of one DuckDB instance: a free stack, waiters, growth on demand, a top-up. */
export class ConnectionPool {
  /** Every open pooled connection, busy or free. */
  private readonly all: DuckDBConnection[];
  /** The idle ones, a stack: the most recently used (whose prepared statements are warm) on top. */
  private free: DuckDBConnection[];
  private waiters: ((c: DuckDBConnection) => void)[] = [];
  /** Connections being opened by grow. */
  private opening = 0;
  private topUpTimer: NodeJS.Timeout | undefined;
  private closingFlag = false;
  private busyAtClose = 0;

  /** A pool of the `opened` connections of `instance` (opened with settings.ts openConnection). */
  constructor(
    private readonly instance: DuckDBInstance,
    opened: DuckDBConnection[],
    private readonly log: Logger,
  ) {
    this.all = [...opened];
    this.free = [...opened];
  }

  /** Opens POOL_AT_OPEN connections of `instance`. @throws DuckDB's error when one cannot open. */
  static async open(instance: DuckDBInstance, log: Logger): Promise<ConnectionPool> {
    const opened: DuckDBConnection[] = [];
    for (let i = 0; i < POOL_AT_OPEN; i++) opened.push(await openConnection(instance));
    return new ConnectionPool(instance, opened, log);
  }

  /** Tops the pool up to POOL_SIZE connections POOL_TOP_UP_DELAY_MS from now (the timer does not hold the process). */
  scheduleTopUp(): void {
    this.topUpTimer = setTimeout(() => this.topUp(), POOL_TOP_UP_DELAY_MS);
    this.topUpTimer.unref();
  }

  /** Whether close was called. */
  get closing(): boolean {
    return this.closingFlag;
  }

  /** Pooled connections open (not those being opened; for tests). */
  get connectionCount(): number {
    return this.all.length;
  }

  /**
   * Runs `f` with a pooled connection, registered with the current job's interrupter while `f` runs.
   * @throws interruptedError when the job was cancelled before `f` started; databaseClosed after
   *   close; whatever `f` throws.
   */
  async withConnection<T>(f: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    const intr = currentInterrupter();
    if (intr?.interrupted) throw interruptedError();
    const c = await this.acquire();
    intr?.active.add(c);
    try {
      if (intr?.interrupted) throw interruptedError();
      return await f(c);
    } finally {
      intr?.active.delete(c);
      this.release(c);
      noteResult();
    }
  }

  private acquire(): Promise<DuckDBConnection> {
    if (this.closingFlag) return Promise.reject(BigQueryError.databaseClosed());
    const c = this.free.pop();
    if (c) return Promise.resolve(c);
    const waiting = new Promise<DuckDBConnection>((r) => this.waiters.push(r));
    if (this.all.length + this.opening < POOL_MAX) this.grow();
    return waiting;
  }

  /** Opens connections until the pool holds POOL_SIZE (counting those a burst of queries opened). */
  private topUp(): void {
    this.topUpTimer = undefined;
    while (!this.closingFlag && this.all.length + this.opening < POOL_SIZE) this.grow();
  }

  /** Opens one more pooled connection and hands it to the first waiter (or the free stack). */
  private grow(): void {
    this.opening++;
    openConnection(this.instance).then(
      (c) => {
        this.opening--;
        if (this.closingFlag) return c.closeSync();
        this.all.push(c);
        // Idle, a new connection goes under the warm ones (free is a stack): it holds none of their
        // prepared statements, and a top-up must not make the next queries plan again.
        const w = this.waiters.shift();
        if (w) w(c);
        else this.free.unshift(c);
      },
      (e: unknown) => {
        this.opening--;
        // The waiters keep waiting for a connection to be released.
        this.log.warn({ err: e }, 'could not open one more DuckDB connection');
      },
    );
  }

  private release(c: DuckDBConnection): void {
    if (this.closingFlag) {
      // Closed after its interrupted work unwound (see close).
      c.closeSync();
      if (--this.busyAtClose === 0) this.instance.closeSync();
      return;
    }
    const w = this.waiters.shift();
    if (w) w(c);
    else this.free.push(c);
  }

  /**
   * Closes the pool and then the instance. Idle connections close now (`beforeClose` runs on each
   * first); busy ones are interrupted and close once their work has unwound — closing a connection
   * under a running query would leave the query's promise unsettled forever — and the instance with
   * the last of them.
   */
  close(beforeClose: (c: DuckDBConnection) => void): void {
    if (this.closingFlag) return;
    this.closingFlag = true;
    clearTimeout(this.topUpTimer);
    const busy = this.all.filter((c) => !this.free.includes(c));
    for (const c of this.free) {
      beforeClose(c);
      c.closeSync();
    }
    this.free = [];
    this.busyAtClose = busy.length;
    for (const c of busy) c.interrupt();
    if (!busy.length) this.instance.closeSync();
  }
}
