/**
 * The DuckDB columns of stored tables in their stored order (`pragma_table_info`), so that the
 * lowering can read a table scanned more than once in a statement as a bare table reference with a
 * column alias list (`"t6" AS s5(c1, c2, c3, c4, "s5_5")`, src/engine/lower/scans.ts) instead of a
 * projection subquery. DuckDB's optimizer finds the same subplan read twice (a join repeated in a
 * scalar subquery, TPC-H q11's HAVING; a WITH clause read twice, q15) only over bare table
 * references: over projection subqueries it scans and joins the tables twice
 * (bench/results/2026-11-27-tpch-4.md). The renaming changes no value and no row.
 *
 * A stored table's DuckDB columns are not just its BigQuery columns: ingestion-time
 * pseudo-columns and the companions of TIMESTAMP(12) columns (src/engine/picos-storage.ts) are
 * stored too, and ALTER TABLE appends — hence the order is read from DuckDB, not derived.
 *
 * A list holds for one write generation of its table (src/engine/duckdb/write-generations.ts),
 * like the NULL facts of src/engine/column-stats.ts: a query lowered with it checks, once it has
 * read its rows, that the generation is still current, and otherwise runs again without it
 * (src/engine/statements.ts readScoped).
 */
import type { TableMeta } from '../catalog/store.js';
import type { Engine } from './engine-types.js';
import { quoteIdent } from './duckdb/types.js';

/** Lists kept per engine: DuckDB table name → generation and column names in stored order. */
const kept = new WeakMap<Engine, Map<string, { generation: number; columns: readonly string[] }>>();
/** Most tables whose lists are kept per engine (the oldest go first). */
const MAX_KEPT = 1000;
/** Widest table read as a bare reference: its alias list is one name per stored column. */
export const MAX_ALIASED_COLUMNS = 256;

/**
 * The DuckDB column names of stored table `t` in stored order, or undefined when it has more than
 * MAX_ALIASED_COLUMNS. @throws BigQueryError DuckDB's errors mapped (the table dropped meanwhile).
 */
export async function storedColumns(e: Engine, t: TableMeta): Promise<readonly string[] | undefined> {
  const tables = [t.duckName];
  const generation = e.db.generations.of(tables);
  let m = kept.get(e);
  if (!m) kept.set(e, (m = new Map()));
  const hit = m.get(t.duckName);
  if (hit?.generation === generation) return hit.columns.length ? hit.columns : undefined;
  // The name as a quoted identifier: pragma_table_info parses its argument as a qualified name.
  const sql = `SELECT name FROM pragma_table_info('${quoteIdent(t.duckName).replace(/'/g, "''")}') ORDER BY cid`;
  const rows = (await e.db.withReadScope(tables, () => e.db.readAll(sql))).getRowsJS();
  const columns = rows.length <= MAX_ALIASED_COLUMNS ? rows.map((r) => String(r[0])) : [];
  if (e.db.generations.of(tables) === generation) {
    m.delete(t.duckName);
    m.set(t.duckName, { generation, columns });
    if (m.size > MAX_KEPT) m.delete(m.keys().next().value!);
  }
  return columns.length ? columns : undefined;
}
