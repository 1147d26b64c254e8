/**
 * Running SQL text on a DuckDB connection with its result streamed, without freeing the plan on
 * the event loop.
 *
 * `DuckDBConnection.stream(sql)` of @duckdb/node-api prepares the text, executes it, and destroys
 * the prepared statement (`destroySync`, on the event loop) once the execution has returned. When
 * the execution failed — an interrupt (job timeout, cancel) while a blocking operator ran — the
 * prepared statement is by then the only owner of the plan and of its operators' state, so the
 * destroy frees all of it on the event loop: measured on DuckDB 1.5 for
 * `SELECT length(STRING_AGG(REPEAT('x', 1000000), ',')) FROM range(300)` interrupted after 150 ms,
 * 37–78 ms; in a fuzz run's CPU profile, 250–430 ms per destroy (1.6 s of event-loop stalls in
 * three minutes).
 *
 * Here the statement is destroyed right after its pending execution is created (which holds the
 * plan): the destroy then frees nothing (0.0 ms measured on the same query), and the plan goes with
 * the execution — freed on DuckDB's worker thread when the execution fails or the connection's next
 * query starts. Earlier statements of a multi-statement text run the same way.
 */
import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBResult } from '@duckdb/node-api';

/**
 * Executes `p` streamed (`streaming`) or materialised, after handing its plan to the execution.
 * `p` is destroyed whatever happens and must not be used again. @throws DuckDB's own errors.
 */
async function executeOnce(p: DuckDBPreparedStatement, streaming: boolean): Promise<DuckDBResult> {
  let pending;
  try {
    pending = streaming ? p.startStream() : p.start();
  } finally {
    p.destroySync();
  }
  return pending.getResult();
}

/**
 * Runs every statement of `sql` on `c` (held by the caller) and returns the last one's result,
 * streamed: the equivalent of `c.stream(sql)` whose prepared statements never free a plan on the
 * event loop. @throws DuckDB's own errors (the caller maps them), e.g. a text without statements.
 */
export async function streamText(c: DuckDBConnection, sql: string): Promise<DuckDBResult> {
  const statements = await c.extractStatements(sql);
  for (let i = 0; i < statements.count - 1; i++) await executeOnce(await statements.prepare(i), false);
  return executeOnce(await statements.prepare(statements.count - 1), true);
}
