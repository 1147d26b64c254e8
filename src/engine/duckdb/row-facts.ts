/**
 * What the last write of a table knows of its rows: its row count and its largest rowid, noted by
 * that write (an append knows how many rows it added to a count it had) so that the next append
 * need not scan the table for them — a `SELECT count(*)` (time travel's version bounds,
 * src/engine/history.ts) and a `SELECT max(rowid)` (the streaming buffer's rowid ranges,
 * src/engine/streaming-buffer.ts) per append cost 0.7 ms and 1.6 ms on a 1M-row table, about 60
 * times per 1M rows of Storage Write API appends (bench --only write).
 *
 * A fact holds from the end of the write turn that noted it until the next write turn that may
 * change the table (Database.serializeWrite: a turn naming the table, or one changing "anything")
 * begins: that turn sees the fact as it stood when the turn started ({@link RowFacts.atTurnStart}),
 * valid until the turn itself changes the table, and the fact is forgotten for everyone else.
 */
import type { WriteScope } from './write-generations.js';

/** Facts about a table's rows; either may be unknown. */
export interface TableRowFacts {
  /** Rows of the table. */
  rows?: number;
  /** The largest rowid (in-memory databases only: a file database may renumber rowids at a checkpoint). */
  maxRowid?: number;
}

/** The row facts of one database's tables (see the file comment), by lower-cased DuckDB name. */
export class RowFacts {
  private facts = new Map<string, TableRowFacts>();
  private turnStart = new Map<string, TableRowFacts>();

  /**
   * Notes the start of a write of `scope` (Database.serializeWrite): `top` for a new write turn
   * (whose facts at its start are kept for it), false for a write nested in a turn. The tables the
   * write may change lose their facts.
   */
  begin(scope: WriteScope, top: boolean): void {
    if (scope === 'all') {
      // The turn may change any table: it takes every fact (no copy), and none is left.
      if (top) this.turnStart = this.facts;
      this.facts = new Map();
      return;
    }
    // A turn naming tables keeps their facts only (a table it names later, in a nested write, is counted).
    if (top) this.turnStart = new Map();
    if (scope === 'none') return;
    for (const t of scope) {
      const key = t.toLowerCase();
      const f = this.facts.get(key);
      if (top && f) this.turnStart.set(key, f);
      this.facts.delete(key);
    }
  }

  /**
   * The facts of the DuckDB table `duckName` as they stood when the current write turn started
   * (call it inside the turn, before the turn changes the table); undefined when unknown.
   */
  atTurnStart(duckName: string): TableRowFacts | undefined {
    return this.turnStart.get(duckName.toLowerCase());
  }

  /**
   * Notes facts of `duckName` made true by the current write turn (merged with those it noted
   * before); call it inside the turn, after its last change of the table.
   */
  note(duckName: string, facts: TableRowFacts): void {
    const key = duckName.toLowerCase();
    this.facts.set(key, { ...this.facts.get(key), ...facts });
  }
}
