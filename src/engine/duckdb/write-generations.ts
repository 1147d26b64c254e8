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
/**
 * What a write changes: `'all'` (anything: the default), `'none'` (nothing queries read: the
 * metadata table), or the DuckDB names of the tables it changes.
 */
export type WriteScope = 'all' | 'none' | readonly string[];

/** Per-table write generations of one database (see the file comment). */
export class WriteGenerations {
  /** Moves at the start and at the end of every write (Database.writeGeneration). */
  now = 0;
  /** The clock at the last write that changed "anything". */
  private anyStamp = 0;
  /** The clock at the last write naming each table (lower-cased: DuckDB names are case-insensitive). */
  private readonly stamps = new Map<string, number>();

  /** Writes under way: per table (lower-cased), and of "anything". */
  private readonly open = new Map<string, number>();
  private openAll = 0;

  /** Notes the start of a write of `scope`. */
  begin(scope: WriteScope): void {
    this.bump(scope, 1);
  }

  /** Notes the end of a write of `scope` (after its commit or rollback). */
  end(scope: WriteScope): void {
    this.bump(scope, -1);
  }

  private bump(scope: WriteScope, delta: 1 | -1): void {
    if (scope === 'none') return;
    this.now++;
    if (scope === 'all') {
      this.anyStamp = this.now;
      this.openAll += delta;
      return;
    }
    for (const name of scope) {
      const t = name.toLowerCase();
      this.stamps.set(t, this.now);
      const n = (this.open.get(t) ?? 0) + delta;
      if (n > 0) this.open.set(t, n);
      else this.open.delete(t);
    }
  }

  /**
   * True while a write of one of `tables` (or of anything) is under way: its rows may already be
   * committed although its generation has not moved at its end yet.
   */
  writing(tables: readonly string[]): boolean {
    return this.openAll > 0 || tables.some((t) => this.open.has(t.toLowerCase()));
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
