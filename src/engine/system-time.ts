/**
 * `FOR SYSTEM_TIME AS OF` (BigQuery "Access historical data",
 * https://cloud.google.com/bigquery/docs/access-historical-data): each such scan of a statement is
 * bound to the DuckDB relation of the table version it reads (src/engine/history.ts relationAsOf).
 */
import type { Node } from '../analyzer/ast.js';
import { nodesOfKind } from '../analyzer/ast.js';
import type { TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Engine } from './engine-types.js';
import { relationAsOf } from './history.js';
import { lowerExpr } from './lower/exprs.js';
import type { LowerContext } from './lower/context.js';

/** Evaluates a constant TIMESTAMP expression (FOR SYSTEM_TIME AS OF) to microseconds since the epoch. */
export async function timestampMicros(e: Engine, expr: Node, ctx: LowerContext): Promise<number> {
  const r = await e.db.readAll(`SELECT epoch_us(CAST((${lowerExpr(expr, ctx)}) AS TIMESTAMPTZ))`);
  const v = r.getRowsJS()[0]?.[0];
  if (v === null || v === undefined) throw BigQueryError.timeTravelNull();
  return Number(v);
}

/** The `FOR SYSTEM_TIME AS OF` scans of each statement tree seen. */
const timeTravelScans = new WeakMap<Node, Node[]>();

/**
 * Binds every `FOR SYSTEM_TIME AS OF` scan of a statement to the table version it reads
 * (`ctx.systemTime`, read by the TableScan lowering).
 */
export async function bindSystemTime(e: Engine, stmt: Node, tables: Map<string, TableMeta>, ctx: LowerContext): Promise<void> {
  // Analyses are cached, so one statement tree is walked once.
  let scans = timeTravelScans.get(stmt);
  if (!scans) {
    // From the statement's kind index (one pass shared with the other checks, built in slices for
    // a large statement by yieldIfLarge) instead of a walk of its own.
    scans = nodesOfKind(stmt, 'TableScan').filter((n) => n.forSystemTimeExpr && n.table);
    timeTravelScans.set(stmt, scans);
  }
  if (!scans.length) return;
  ctx.systemTime ??= new Map();
  for (const n of scans) {
    const t = tables.get(String(n.table.serializationId ?? ''));
    if (!t) continue;
    ctx.systemTime.set(n, await relationAsOf(e, t, await timestampMicros(e, n.forSystemTimeExpr, ctx)));
  }
}
