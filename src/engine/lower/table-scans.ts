/**
 * Lowers table scans (ResolvedTableScan): the scanned columns of a table's DuckDB relation under
 * their `c<columnId>` names, as a projection subquery (`tableScan`) or — for a stored table the
 * statement scans more than once — as a bare table reference with a column alias list
 * (`tableReference`, src/engine/stored-columns.ts).
 */
import type { Node, ResolvedTableScan } from '../../analyzer/ast.js';
import { BigQueryError } from '../../errors/errors.js';
import { colName, ident, type LowerContext } from './context.js';

const cols = (n: Node): { columnId: string }[] => n.columnList ?? [];

/**
 * A scan of a stored table whose stored columns are known (BoundTable.stored: the statement scans
 * it more than once) as a bare table reference with a column alias list — `"t6" AS s5(c1, c2,
 * "s5_3")`, the scanned columns under their `c<columnId>` names and the others under names of this
 * alias — in a FROM clause whose SELECT lists its columns by name (joins, filters). Else undefined
 * (the scan is read through its projection subquery, `tableScan`). DuckDB finds a subplan repeated
 * in a statement only over bare table references (src/engine/stored-columns.ts).
 */
export function tableReference(n: Node, ctx: LowerContext): string | undefined {
  if (n.kind !== 'TableScan' || ctx.systemTime?.get(n)) return undefined;
  const t = ctx.tables.get(String(n.table?.serializationId ?? '0'));
  if (!t?.stored || t.read) return undefined;
  const idx: string[] = n.columnIndexList ?? [];
  const names = new Map<string, string>();
  const scanned = cols(n);
  for (let i = 0; i < scanned.length; i++) {
    const stored = t.columns[Number(idx[i] ?? i)];
    // A column scanned twice, or one the stored list does not hold: the projection subquery.
    if (stored === undefined || names.has(stored) || !t.stored.includes(stored)) return undefined;
    names.set(stored, colName(scanned[i]));
  }
  if (!names.size) return undefined;
  const a = ctx.alias();
  return `${t.relation} AS ${a}(${t.stored.map((c, i) => names.get(c) ?? ident(`${a}_${i + 1}`)).join(', ')})`;
}

/** A table scan as `SELECT <column> AS c<columnId>, … FROM <relation>` (time travel and row access filters applied). @throws BigQueryError unboundTable */
export function tableScan(n: ResolvedTableScan, ctx: LowerContext): string {
  const t = ctx.tables.get(String(n.table?.serializationId ?? '0'));
  if (!t) throw BigQueryError.unboundTable(n.table?.fullName ?? n.table?.name);
  const idx: string[] = n.columnIndexList ?? [];
  const items = cols(n).map((c, i) => `${ident(t.columns[Number(idx[i] ?? i)])} AS ${colName(c)}`);
  const rel = ctx.systemTime?.get(n) ?? t.read ?? t.relation;
  return `SELECT ${items.length ? items.join(', ') : 'NULL AS "__none"'} FROM ${rel}`;
}

