/**
 * Write generations per DuckDB table: what tells a value read from the database (a table's bytes
 * processed, src/jobs/bytes.ts; a prepared statement planned over a table's statistics,
 * src/engine/duckdb/prepared-statements.ts) that it is still current.
 *
 * One clock (`now`) moves at the start and at the end of every write. A write names the tables it
 * changes (a DML statement, insertAll, an append: its target) or changes "anything" (DDL, loads,
 * copies, every write that names nothing). Each named table remembers the clock of its last write
 * (`stamps`), the "anything" writes the clock of the last one (`anyStamp`). The generation of a set
 * of tables is the largest of those stamps: it changes exactly when one of the tables, or anything,
 * was written. A read that cannot name its tables uses the clock itself (any write moves it).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a write changes: `'all'` (anything: the default), `'none'` (nothing queries read: the
 * metadata table), or the DuckDB names of the tables it changes.
 */
export type WriteScope = 'all' | 'none' | readonly string[];

/** The DuckDB tables a read names, set around a query whose tables are all known (Database.withReadScope). */
export const readScope = new AsyncLocalStorage<readonly string[]>();

/** Per-table write generations of one database (see the file comment). */
export class WriteGenerations {
  /** Moves at the start and at the end of every write (Database.writeGeneration). */
  now = 0;
  /** The clock at the last write that changed "anything". */
  private anyStamp = 0;
  /** The clock at the last write naming each table (lower-cased: DuckDB names are case-insensitive). */
  private readonly stamps = new Map<string, number>();

  /** Notes the start or the end of a write of `scope`. */
  bump(scope: WriteScope): void {
    if (scope === 'none') return;
    this.now++;
    if (scope === 'all') this.anyStamp = this.now;
    else for (const t of scope) this.stamps.set(t.toLowerCase(), this.now);
  }

  /**
   * The generation of reads of `tables`: unchanged while none of them and nothing else was
   * written; without `tables`, the clock (changed by every write).
   */
  of(tables?: readonly string[]): number {
    if (!tables) return this.now;
    let g = this.anyStamp;
    for (const t of tables) g = Math.max(g, this.stamps.get(t.toLowerCase()) ?? 0);
    return g;
  }
}
