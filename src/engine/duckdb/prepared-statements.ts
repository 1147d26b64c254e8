/**
 * The prepared statements each pooled DuckDB connection keeps (src/engine/duckdb/db.ts readAll,
 * readChunks): a repeated query skips DuckDB's parse and plan (`SELECT 1`-sized queries
 * 0.41 → 0.21 ms). DuckDB re-binds a kept statement when the catalog changed and evaluates
 * CURRENT_TIMESTAMP, random() … per run.
 *
 * Destroying a prepared statement (`destroySync`) runs on the event loop, and in the fuzz run
 * single calls took 100–440 ms (a large plan freed while other queries hold DuckDB's buffer
 * manager) — so long texts are never prepared here (they are unlikely to repeat; DuckDB prepares
 * and frees them inside its own worker thread), and a kept statement is destroyed only when no
 * query of it can still be running.
 *
 * A kept statement is planned with the tables' statistics of its preparation: DuckDB does not
 * re-plan it when rows change, and a plan over stale statistics answers wrong rows (measured on
 * DuckDB 1.5: `SELECT id FROM s ORDER BY id` prepared over ids 1–4 answers 256 for an id of
 * 100000000000 appended later — compressed materialization — and `count(*) … WHERE id > 10`
 * stays 0 — statistics propagation). So a statement is kept for one write generation only
 * (`Database.writeGeneration`): after any write it is prepared again.
 *
 * A text is prepared only the second time it is seen (SEEN_TEXTS most recent texts remembered):
 * most texts run once (generated queries, literals inlined), and a one-off text prepared here costs
 * a `destroySync` on the event loop when it is evicted or fails — in a 3-minute fuzz run 2.0 s of
 * event-loop stalls came from destroying failed statements. Unprepared, DuckDB parses, plans and
 * frees it inside its own worker thread.
 *
 * And a text is prepared only when its first run was quick (PREPARE_MAX_FIRST_RUN_MS): a kept
 * plan holds its aggregates' state until destroyed, so a plan that aggregated large values frees
 * them on the event loop (measured on raw DuckDB: `STRING_AGG(REPEAT('x', 1000000))` over 300 MB,
 * 195 ms to destroy after a normal run, 0.7–1.2 s after an interrupt), while preparing saves
 * ~0.2 ms a run — nothing next to a query that takes tens of milliseconds.
 */
import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';
import { currentInterrupter, interruptedError } from './interrupts.js';

/** Prepared statements kept per connection (least recently used first out). */
const PREPARED_PER_CONNECTION = 32;

/** Longest SQL text (characters) kept prepared; longer texts run unprepared. */
export const PREPARED_MAX_CHARS = 16 * 1024;

/** Texts remembered as seen once (most recent first out of mind): a second sighting prepares. */
const SEEN_TEXTS = 1024;

/** Longest first run (milliseconds, wall clock) after which a text may be prepared on its second sighting. */
export const PREPARE_MAX_FIRST_RUN_MS = 25;

/** Per-connection caches of prepared statements, keyed by SQL text. */
export class PreparedStatements {
  private readonly byConnection = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();
  /** The write generation each kept statement was prepared in. */
  private readonly generationOf = new WeakMap<DuckDBPreparedStatement, number>();
  /** Texts run once (unprepared) recently and quickly, oldest first. */
  private readonly seenOnce = new Set<string>();

  /**
   * Runs `sql` on `c` (which the caller holds) through its kept prepared statement, preparing and
   * keeping it first; a text's first run, texts over PREPARED_MAX_CHARS, and text DuckDB cannot
   * prepare (several statements) go to `unprepared`. Errors are DuckDB's own (the caller maps them); a statement
   * whose run failed is dropped.
   */
  async run<T>(c: DuckDBConnection, sql: string, run: (p: DuckDBPreparedStatement) => Promise<T>, unprepared: (c: DuckDBConnection) => Promise<T>, generation = 0): Promise<T> {
    // The metadata table's writes leave the write generation as it is (Database.run
    // `metadataOnly`), so a plan over it could be stale: its reads are never kept.
    if (sql.length > PREPARED_MAX_CHARS || sql.includes('__bqemu_meta')) return unprepared(c);
    let cache = this.byConnection.get(c);
    if (!cache) this.byConnection.set(c, (cache = new Map()));
    let p = cache.get(sql);
    if (!p && !this.seenOnce.delete(sql)) {
      const started = performance.now();
      // A run that fails is not remembered: the text's next run is unprepared again.
      const out = await unprepared(c);
      if (performance.now() - started <= PREPARE_MAX_FIRST_RUN_MS) {
        this.seenOnce.add(sql);
        if (this.seenOnce.size > SEEN_TEXTS) this.seenOnce.delete(this.seenOnce.values().next().value!);
      }
      return out;
    }
    let evicted: DuckDBPreparedStatement | undefined;
    if (p && this.generationOf.get(p) !== generation) {
      // Planned before a write: prepared again below, the stale one destroyed once that has run.
      cache.delete(sql);
      evicted = p;
      p = undefined;
    }
    try {
      if (p) {
        // Most recently used last.
        cache.delete(sql);
        cache.set(sql, p);
      } else {
        try {
          p = await c.prepare(sql);
        } catch {
          // Not preparable (e.g. several statements, or a statement DuckDB cannot prepare): run it unprepared.
          evicted?.destroySync();
          return await unprepared(c);
        }
        cache.set(sql, p);
        this.generationOf.set(p, generation);
        // A cancel that arrived while preparing interrupted nothing: honour it before running.
        if (currentInterrupter()?.interrupted) throw interruptedError();
        if (cache.size > PREPARED_PER_CONNECTION && !evicted) {
          const [oldest, stmt] = cache.entries().next().value as [string, DuckDBPreparedStatement];
          cache.delete(oldest);
          // Destroyed once `p` has run: by then no result of it can still be the connection's query.
          evicted = stmt;
        }
      }
      const out = await run(p);
      evicted?.destroySync();
      return out;
    } catch (e) {
      if (p && cache.get(sql) === p) {
        cache.delete(sql);
        await retireFailed(c, p);
      }
      evicted?.destroySync();
      throw e;
    }
  }

  /** Destroys every statement kept for `c` (the connection is closing and idle). */
  destroyAll(c: DuckDBConnection): void {
    for (const p of this.byConnection.get(c)?.values() ?? []) p.destroySync();
    this.byConnection.delete(c);
  }
}

/**
 * Destroys a prepared statement whose run failed or was stopped early. Its query can still be the
 * connection's active one (a streamed result left unread, an interrupted scan winding down), and
 * DuckDB cleans an active query up in whichever thread touches it next: running a trivial
 * statement first has that cleanup happen on a DuckDB worker thread.
 */
async function retireFailed(c: DuckDBConnection, p: DuckDBPreparedStatement): Promise<void> {
  try {
    await c.run('SELECT 1');
  } catch {
    // The connection is unusable anyway: the destroy below is all that is left to do.
  }
  p.destroySync();
}
