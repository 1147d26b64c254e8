/**
 * Inserts domain rows into a stored table (insertAll, query destinations): through DuckDB's
 * appender when every column is scalar, else as batched `INSERT … VALUES` of typed literals; one
 * transaction either way.
 */
import type { TableMeta } from '../catalog/store.js';
import type { Value } from '../types/types.js';
import type { Engine } from './engine-types.js';
import { toDuckLiteral } from './duckdb/values.js';
import { appendersFor, appendSliced } from './duckdb/appender.js';
import { ident } from './lower/context.js';
import { versionedWrite } from './history.js';
import { enforceRows } from './type-params.js';
import { isPicosColumn, picosColumnName, picosLiteral } from './picos-storage.js';
import { isIngestionPartitioned } from './partitioning.js';

const BATCH = 1000;

/**
 * Inserts `rows` (values in the table's column order; `undefined` = column default/NULL).
 * `picos`: per row, the picoseconds of the table's TIMESTAMP(12) columns in column order
 * (src/engine/picos-storage.ts; insertAll), written to their companions.
 * @returns the number of rows inserted.
 */
export async function insertValues(e: Engine, t: TableMeta, rows: (Value | undefined)[][], picos?: (bigint | null)[][]): Promise<number> {
  if (!rows.length) return 0;
  // Columns with type parameters check (and round) the values first (src/engine/type-params.ts).
  const checked = enforceRows(t.columns, rows);
  // The table's previous rows stay readable through time travel (src/engine/history.ts).
  return versionedWrite(e, t, () => insertNow(e, t, checked, picos), 'append', { appendedRows: checked.length });
}

async function insertNow(e: Engine, t: TableMeta, rows: (Value | undefined)[][], picos?: (bigint | null)[][]): Promise<number> {
  // A table with more DuckDB columns than t.columns (TIMESTAMP(12) companions, ingestion-time
  // pseudo-columns filled by their DEFAULT) is written with INSERT: the appender needs every column.
  const companions = t.columns.some(isPicosColumn);
  const withPicos = picos !== undefined && companions;
  const fns = companions || isIngestionPartitioned(t) ? undefined : appendersFor(t.columns.map((c) => c.type));
  if (fns) {
    await e.db.append(t.duckName, (a) => appendSliced(a, t.columns.map((c) => c.type), fns, [rows]));
    t.lastModifiedTime = Date.now();
    return rows.length;
  }
  const names = t.columns.map((c) => ident(c.name));
  if (withPicos) names.push(...t.columns.filter(isPicosColumn).map((c) => ident(picosColumnName(c.name))));
  const cols = names.join(', ');
  const stmts: string[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const values = rows.slice(i, i + BATCH).map((r, k) => {
      const cells = t.columns.map((c, j) => toDuckLiteral(r[j] === undefined ? null : (r[j] as Value), c.type));
      if (withPicos) cells.push(...picos[i + k].map(picosLiteral));
      return `(${cells.join(', ')})`;
    });
    stmts.push(`INSERT INTO ${ident(t.duckName)} (${cols}) VALUES ${values.join(', ')}`);
  }
  await e.db.transaction(stmts);
  t.lastModifiedTime = Date.now();
  return rows.length;
}

/**
 * Inserts the rows of a DuckDB query into a stored table inside DuckDB (load jobs reading Parquet:
 * no row passes through JavaScript). `select` is a SELECT whose columns are, in order, the values
 * of the table columns named in `columns` (each already of the column's DuckDB storage type);
 * table columns not named get their default (NULL). The table's earlier rows stay readable through
 * time travel, as for insertValues.
 * @returns the number of rows inserted.
 * @throws BigQueryError DuckDB's errors mapped (src/engine/duckdb/duckdb-errors.ts), e.g. a NULL
 *   into a REQUIRED column; a table with type parameters (type-params.ts) is the caller's to avoid.
 */
export async function insertRelation(e: Engine, t: TableMeta, columns: string[], select: string): Promise<number> {
  const sql = `INSERT INTO ${ident(t.duckName)} (${columns.map(ident).join(', ')}) ${select}`;
  const [n] = await versionedWrite(e, t, () => e.db.transaction([sql]), 'append');
  t.lastModifiedTime = Date.now();
  return n ?? 0;
}
