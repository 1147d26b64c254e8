/**
 * Columns of stored tables that hold no NULL right now, from DuckDB's own column statistics
 * (`stats(col)`: "[Has Null: false, …]" is a guarantee, kept by DuckDB as rows are written), so
 * that the lowering can write ORDER BY keys on them NULLS LAST — the same order as BigQuery's
 * NULLS FIRST for a key with no NULL, and the order DuckDB's fast plans need (grouped top-N of
 * `ROW_NUMBER() … <= n`; src/engine/lower/nullability.ts).
 *
 * BigQuery's NULL order: https://cloud.google.com/bigquery/docs/reference/standard-sql/query-syntax#order_by_clause
 *
 * A fact holds for one write generation of its table (src/engine/duckdb/write-generations.ts): a
 * query lowered with it must check, once it has read its rows, that the generation it was lowered
 * at is still current, and otherwise run again without it (src/engine/statements.ts).
 */
import type { TableMeta } from '../catalog/store.js';
import type { Engine } from './engine-types.js';
import { quoteIdent } from './duckdb/types.js';

/** Column types whose NULLS FIRST key the lowering otherwise maps to a slower wider key (exprs.ts nullMappedKey). */
const ORDERED_KINDS = new Set(['INT64', 'DATE', 'DATETIME', 'TIMESTAMP', 'FLOAT64', 'NUMERIC', 'STRING', 'BOOL', 'BYTES', 'TIME']);

/** Facts kept per engine: DuckDB table name → generation, columns without NULL and FLOAT64 columns without NaN. */
const kept = new WeakMap<Engine, Map<string, { generation: number; columns: string[]; nonNull: Set<string>; nanFree: Set<string> }>>();
/** Most tables whose facts are kept per engine (the oldest go first). */
const MAX_KEPT = 1000;

/**
 * A FLOAT64 column's statistics show no NaN when they name a maximum other than NaN: DuckDB orders
 * NaN above every number (https://duckdb.org/docs/stable/sql/data_types/numeric), so a NaN is the
 * maximum, and DuckDB keeps the maximum as rows are written and updated (`[Min: 0.0, Max: nan]`).
 */
const NAN_FREE_STATS = /\bMax: (?!nan\])[^\]]+\]/;

/**
 * The columns among `columns` of stored table `t` holding no NULL (names as stored), the FLOAT64
 * ones among them holding no NaN, and the write generation of `t` they hold for. An empty table,
 * or columns of other types, count as possibly NULL. @throws BigQueryError DuckDB's errors mapped
 * (the table dropped meanwhile).
 */
export async function columnFacts(e: Engine, t: TableMeta, columns: readonly string[]): Promise<{ generation: number; nonNull: ReadonlySet<string>; nanFree: ReadonlySet<string> }> {
  const tables = [t.duckName];
  const generation = e.db.generations.of(tables);
  const wanted = t.columns
    .filter((c) => columns.includes(c.name) && ((!c.required && ORDERED_KINDS.has(c.type.kind)) || c.type.kind === 'FLOAT64'))
    .map((c) => c.name);
  if (!wanted.length) return { generation, nonNull: new Set(), nanFree: new Set() };
  let m = kept.get(e);
  if (!m) kept.set(e, (m = new Map()));
  const hit = m.get(t.duckName);
  const current = hit?.generation === generation ? hit : undefined;
  if (current && wanted.every((c) => current.columns.includes(c))) return { generation, nonNull: current.nonNull, nanFree: current.nanFree };
  // Measured together with the columns other queries of the table asked for at this generation.
  const asked = [...new Set([...(current?.columns ?? []), ...wanted])].filter((c) => t.columns.some((x) => x.name === c));
  const sql = `SELECT ${asked.map((c) => `stats(${quoteIdent(c)})`).join(', ')} FROM ${quoteIdent(t.duckName)} LIMIT 1`;
  const rows = (await e.db.withReadScope(tables, () => e.db.readAll(sql))).getRowsJS();
  const nonNull = new Set(asked.filter((_c, i) => rows.length > 0 && /\[Has Null: false\b/.test(String(rows[0][i]))));
  const float = new Set(t.columns.filter((c) => c.type.kind === 'FLOAT64').map((c) => c.name));
  const nanFree = new Set(asked.filter((c, i) => float.has(c) && rows.length > 0 && NAN_FREE_STATS.test(String(rows[0][i]))));
  if (e.db.generations.of(tables) === generation) {
    m.delete(t.duckName);
    m.set(t.duckName, { generation, columns: asked, nonNull, nanFree });
    if (m.size > MAX_KEPT) m.delete(m.keys().next().value!);
  }
  return { generation, nonNull, nanFree };
}
