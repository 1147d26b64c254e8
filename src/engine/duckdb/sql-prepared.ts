/**
 * One-off query texts streamed through DuckDB's SQL-level `PREPARE` / `EXECUTE` / `DEALLOCATE`
 * (https://duckdb.org/docs/sql/query_syntax/prepared_statements) instead of node-api's
 * `connection.stream(sql)`.
 *
 * Why: an interrupted query (jobs.cancel, a job timeout) leaves its operators' state — an
 * aggregate's strings, a hash table — in its prepared statement's plan, and node-api's
 * `stream(sql)` destroys that prepared statement with `destroySync` on the event loop. Measured
 * on this machine, raw DuckDB, `STRING_AGG(REPEAT('x', 1000000))` over 400 rows interrupted after
 * 150 ms: 38–58 ms of `destroySync` on the main thread; in a 3-minute fuzz run five such destroys
 * blocked every client for 207–337 ms each. Through `PREPARE n AS …` the plan belongs to the
 * connection, the statement node-api prepares (`EXECUTE n`) holds none of it, and the state is
 * freed by `DEALLOCATE n`, which DuckDB runs on its own thread: the event loop's longest gap over
 * the same interrupted query was 2.6–4.7 ms.
 *
 * Cost: two more round trips to DuckDB per text, ~0.5 ms of wall time per query (raw DuckDB,
 * `SELECT <n>`: 0.41–0.49 ms by `stream(sql)`, 0.90–1.03 ms this way). Repeated quick texts keep
 * their own prepared statements (prepared-statements.ts) and never come here.
 */
import type { DuckDBConnection, DuckDBResult } from '@duckdb/node-api';
import { currentInterrupter, interruptedError } from './interrupts.js';

let sequence = 0;

/**
 * Calls `use` with a function that opens `sql` as a streamed result (it may be called again, e.g.
 * for a JavaScript UDF batch re-run), and deallocates the statement once `use` settled.
 * A text of several statements (any `;`) or one DuckDB cannot `PREPARE` (its error, or a
 * statement type PREPARE does not take) is streamed by `connection.stream(sql)` as before, so
 * its answer or error is DuckDB's own — except after a cancellation, which fails at once.
 * @throws whatever `use` or DuckDB throws; interruptedError when the job was cancelled.
 */
export async function withSqlPrepared<T>(c: DuckDBConnection, sql: string, use: (open: () => Promise<DuckDBResult>) => Promise<T>): Promise<T> {
  if (sql.includes(';')) return use(() => c.stream(sql));
  const name = `__bqemu_q${++sequence}`;
  try {
    await c.run(`PREPARE ${name} AS ${sql}`);
  } catch {
    if (currentInterrupter()?.interrupted) throw interruptedError();
    return use(() => c.stream(sql));
  }
  try {
    return await use(() => c.stream(`EXECUTE ${name}`));
  } finally {
    // The connection is released only after this: its next query never meets the name.
    await deallocate(c, name);
  }
}

/**
 * `DEALLOCATE name`, tried again a few times ({@link runCleanup}). A statement that still cannot be
 * deallocated stays with its connection (freed when it closes).
 */
function deallocate(c: DuckDBConnection, name: string): Promise<boolean> {
  return runCleanup(c, `DEALLOCATE ${name}`);
}

/**
 * Runs a statement that frees what a query left on its connection (`DEALLOCATE`, `DROP TABLE` of a
 * temporary table), tried again a few times: a cancelled job's connection is interrupted again
 * every few milliseconds while the job holds it (Interrupter.interrupt), which can stop this too.
 * @returns whether it ran; never throws.
 */
export async function runCleanup(c: DuckDBConnection, sql: string): Promise<boolean> {
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      await c.run(sql);
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 10 * (attempt + 1)));
    }
  }
  return false;
}
