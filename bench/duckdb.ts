/**
 * The raw reference: a separate in-memory DuckDB (same `@duckdb/node-api` as the emulator) holding
 * the same rows, queried directly with every row materialised in JS (as a client would).
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

export class RawDuck {
  private constructor(
    private readonly db: DuckDBInstance,
    private readonly conn: DuckDBConnection,
  ) {}

  static async create(): Promise<RawDuck> {
    const db = await DuckDBInstance.create(':memory:');
    return new RawDuck(db, await db.connect());
  }

  /** Runs a statement, discarding any result. */
  async run(sql: string): Promise<void> {
    await this.conn.run(sql);
  }

  /** Runs a query and materialises every row (JS values). */
  async rows(sql: string): Promise<unknown[][]> {
    const reader = await this.conn.runAndReadAll(sql);
    return reader.getRowsJS();
  }

  /** DuckDB's version string. */
  async version(): Promise<string> {
    const reader = await this.conn.runAndReadAll('SELECT version()');
    return String(reader.getRowsJS()[0][0]);
  }

  /** Appends rows of (id BIGINT, name VARCHAR, v DOUBLE) with the appender (the raw bulk path). */
  async append(table: string, rows: { id: number; name: string; v: number }[]): Promise<void> {
    const app = await this.conn.createAppender(table);
    for (const r of rows) {
      app.appendBigInt(BigInt(r.id));
      app.appendVarchar(r.name);
      app.appendDouble(r.v);
      app.endRow();
    }
    app.closeSync();
  }

  close(): void {
    this.conn.closeSync();
    this.db.closeSync();
  }
}
