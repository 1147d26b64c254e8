/**
 * A query's result kept as DuckDB data chunks (owned copies node-api fetched from a streamed
 * result), read again by SQL without running the query again: the chunks are appended to a
 * temporary table of one pooled connection (DuckDB's appender, `appendDataChunk`: one native copy
 * per vector) and `sql` over that table is streamed chunk by chunk, in the table's order (a scan
 * keeps insertion order, https://duckdb.org/docs/stable/sql/dialect/order_preservation).
 *
 * Cost: about what a second run of a scan would (bench/results/2026-11-27-large-results.md:
 * for 1M rows of INT64, STRING, FLOAT64, reading the row texts back from the table cost ~260 ms
 * more than running the scan again); worth it when the query did its work before its first row
 * (an aggregate, a sort with LIMIT). A temporary table is the connection's own catalog: creating
 * one leaves the connection's other prepared statements bound (checked on raw DuckDB: no rebind
 * after CREATE/DROP TEMP TABLE, where a table of the main catalog makes the next run bind again).
 */
import type { DuckDBDataChunk } from '@duckdb/node-api';
import { EventLoopSlices } from '../../config/limits.js';
import type { Database } from './db.js';
import { mapDuckDBError } from './duckdb-errors.js';
import { currentInterrupter, interruptedError } from './interrupts.js';
import { runCleanup, withSqlPrepared } from './sql-prepared.js';

let sequence = 0;

/**
 * Appends `chunks` (whose columns have the DuckDB types `columnTypes`, as DuckDB names them, e.g.
 * `DECIMAL(18,3)`) to a temporary table with columns `c0`, `c1`, …, streams `sqlOver(table)` (the
 * table's qualified, quoted name) to `visit` one chunk at a time, and drops the table.
 * @throws BigQueryError mapped from DuckDB's error (a type it cannot name again, the SQL's own
 *   errors), interruptedError when the job was cancelled; whatever `visit` throws.
 */
export async function readKeptChunks(
  db: Database,
  chunks: readonly DuckDBDataChunk[],
  columnTypes: readonly string[],
  sqlOver: (table: string) => string,
  visit: (chunk: DuckDBDataChunk) => void,
): Promise<void> {
  await db.withConnection(async (c) => {
    const name = `__bqemu_kept_${++sequence}`;
    const table = `temp.main."${name}"`;
    try {
      await c.run(`CREATE TEMP TABLE "${name}" (${columnTypes.map((t, j) => `c${j} ${t}`).join(', ')})`);
      const a = await c.createAppender(name, 'main', 'temp');
      try {
        // appendDataChunk copies on the main thread (raw DuckDB, a chunk of 2,048 rows × 50 columns,
        // half BIGINT, half short VARCHAR: 1.3 ms, up to 10): other work runs between slices
        // (src/config/limits.ts EventLoopSlices).
        const slices = new EventLoopSlices();
        for (const chunk of chunks) {
          if (slices.due()) await slices.next();
          a.appendDataChunk(chunk);
        }
        a.flushSync();
      } finally {
        a.closeSync();
      }
      // DuckDB drops an interrupt that reached the connection before its next query starts (the
      // appends above are no query): a job cancelled meanwhile stops here instead of reading on.
      if (currentInterrupter()?.interrupted) throw interruptedError();
      await withSqlPrepared(c, sqlOver(table), async (open) => {
        const r = await open();
        for (let ch = await r.fetchChunk(); ch && ch.rowCount > 0; ch = await r.fetchChunk()) visit(ch);
      });
    } catch (e) {
      // A cancelled job's connection was interrupted: its error is the cancellation, not DuckDB's text.
      if (currentInterrupter()?.interrupted) throw interruptedError();
      throw mapDuckDBError(e, db.log);
    } finally {
      // A table that cannot be dropped stays with its connection's temporary catalog until it closes.
      if (!(await runCleanup(c, `DROP TABLE IF EXISTS ${table}`))) db.log.warn({ table }, 'could not drop a kept result table');
    }
  });
}
