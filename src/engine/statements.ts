/**
 * Executes one resolved statement (exhaustive dispatch by statement kind). Queries and DML live
 * here; DDL in ddl.ts. Every statement kind without a handler is rejected clearly.
 */
import { SCHEMA_DDL } from './ddl-schema.js';
import { walk, yieldIfLarge, type Node } from '../analyzer/ast.js';
import type { TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Value } from '../types/types.js';
import type { Engine, QueryOptions, ResultField, ScannedTable, StatementResult } from './engine.js';
import { colName, colType, makeAliaser, type BoundTable, type LowerContext } from './lower/context.js';
import { lowerExpr } from './lower/exprs.js';
import { lowerScan } from './lower/scans.js';
import { duckType } from './duckdb/types.js';
import { makeColumnDecoder, toDuckLiteral } from './duckdb/values.js';
import { approxValueBytes, FIXED_CELL_BYTES, guardValueSizes, isVariableSize } from './result-size.js';
import type { NameDefaults } from './names.js';
import { DDL } from './ddl.js';
import { EXPORT } from './export.js';
import { DML } from './dml.js';
import { ALTER } from './ddl-alter.js';
import { CLONE } from './ddl-clone.js';
import { ROUTINES } from './routines.js';
import { checkDmlAccess, filteredRelation, ROW_ACCESS } from './row-access.js';
import { checkTableGuards } from './table-guards.js';
import { bindSystemTime, versionedWrite, writeTarget } from './history.js';
import { expirePartitions } from './expiration.js';
import { columnHasParams, enforceSql } from './type-params.js';

export type StatementHandler = (e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions) => Promise<StatementResult>;

/** Builds the lowering context for a statement's bound tables. */
export async function makeContext(e: Engine, tables: Map<string, TableMeta>, opts: NameDefaults & Partial<QueryOptions> & { noRowAccess?: boolean }): Promise<LowerContext> {
  const bound = new Map<string, BoundTable>();
  for (const [id, t] of tables) {
    await expirePartitions(e, t);
    const b: BoundTable = await e.relationOf(t, opts);
    // Reads of a table with row access policies see only the rows granted to the caller.
    const read = opts.noRowAccess ? undefined : await filteredRelation(e, t, b, opts.caller);
    bound.set(id, { ...b, ...(read ? { read } : {}), ...(t.type === 'TABLE' ? { schema: t.columns } : {}) });
  }
  return {
    tables: bound,
    namedParams: opts.namedParams ?? new Map(),
    positionalParams: opts.positionalParams ?? [],
    duckType,
    literal: toDuckLiteral,
    alias: makeAliaser(),
  };
}

/**
 * BigQuery's names for result columns: anonymous ones are `f0_`, `f1_`, …; a repeated name gets
 * `_1`, `_2`, … (recorded standard_functions/tpcds_q39: `w_warehouse_sk`, `w_warehouse_sk_1`).
 */
export function resultFields(outputs: Node[]): ResultField[] {
  let anon = 0;
  const seen = new Map<string, number>();
  return outputs.map((o) => {
    let name = !o.name || String(o.name).startsWith('$') ? `f${anon++}_` : String(o.name);
    const key = name.toLowerCase();
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    if (n > 0) name = `${name}_${n}`;
    return { name, type: colType(o.column) };
  });
}

/** Lowers a query statement's scan to a SELECT of its output columns, in order. */
export function lowerQuery(stmt: Node, ctx: LowerContext): string {
  const outs: Node[] = stmt.outputColumnList ?? [];
  return `SELECT ${outs.map((o) => colName(o.column)).join(', ')} FROM (${lowerScan(stmt.query, ctx)})`;
}

/**
 * Runs a lowered SELECT and decodes its rows into domain values, chunk by chunk as DuckDB produces
 * them. A single STRING/BYTES/JSON value over 100 MB fails in DuckDB before it is decoded, and the
 * decoded size is counted as it grows (src/engine/result-size.ts): past `maxBytes` (default the
 * engine's response limit) the query stops.
 * @throws BigQueryError `responseTooLarge` (403) "Response too large to return. …" past the limit.
 */
export async function readRows(e: Engine, sql: string, fields: ResultField[], maxBytes = e.maxResponseBytes): Promise<Value[][]> {
  const decoders = fields.map((f) => makeColumnDecoder(f.type));
  const variable = fields.map((f) => isVariableSize(f.type));
  const fixedRowBytes = 16 + variable.filter((v) => !v).length * FIXED_CELL_BYTES;
  const out: Value[][] = [];
  let bytes = 0;
  await e.db.readChunks(guardValueSizes(sql, fields), (chunk) => {
    // Column-major read (cheaper than per-row arrays), decoded straight into rows.
    const columns = chunk.getColumns();
    const n = chunk.rowCount;
    const base = out.length;
    for (let i = 0; i < n; i++) out.push(new Array(decoders.length));
    bytes += n * fixedRowBytes;
    for (let j = 0; j < decoders.length; j++) {
      const col = columns[j];
      const dec = decoders[j];
      for (let i = 0; i < n; i++) {
        const v = dec(col[i]);
        out[base + i][j] = v;
        if (variable[j]) bytes += approxValueBytes(v);
      }
      if (bytes > maxBytes) throw BigQueryError.responseTooLarge();
    }
  }, () => {
    out.length = 0;
    bytes = 0;
  });
  checkNoNullArrayElements(out, fields);
  return out;
}

/** BigQuery refuses arrays with NULL elements in results (DESIGN §3). */
function checkNoNullArrayElements(rows: Value[][], fields: ResultField[]): void {
  const arrayCols = fields.map((f, i) => (f.type.kind === 'ARRAY' ? i : -1)).filter((i) => i >= 0);
  if (!arrayCols.length) return;
  for (const r of rows)
    for (const i of arrayCols) {
      const v = r[i];
      if (Array.isArray(v) && v.some((x) => x === null))
        throw BigQueryError.arrayNullElement(fields[i].name);
    }
}

async function queryStmt(e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const schema = resultFields(stmt.outputColumnList ?? []);
  if (opts.dryRun) return { statementType: 'SELECT', schema, rows: [] };
  const rows = await readRows(e, lowerQuery(stmt, ctx), schema);
  return { statementType: 'SELECT', schema, rows };
}

function targetOf(ctx: LowerContext, scan: Node): BoundTable {
  const t = ctx.tables.get(String(scan.table?.serializationId));
  if (!t) throw BigQueryError.targetNotBound('DML target');
  return t;
}

async function insertStmt(e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const target = targetOf(ctx, stmt.tableScan);
  const idx: string[] = stmt.tableScan.columnIndexList ?? [];
  const scanCols: Node[] = stmt.tableScan.columnList ?? [];
  const nameOf = new Map(scanCols.map((c, i) => [String(c.columnId), target.columns[Number(idx[i] ?? i)]]));
  const names = (stmt.insertColumnList as Node[]).map((c) => nameOf.get(String(c.columnId))!);
  const cols = names.map((n) => `"${n.replace(/"/g, '""')}"`);
  // Columns with type parameters (STRING(10), NUMERIC(5, 2)…) check the values written (type-params.ts).
  const metas = names.map((n) => target.schema?.find((c) => c.name.toLowerCase() === n.toLowerCase()));
  const checked = metas.some(columnHasParams);
  let source: string;
  if (stmt.query) {
    const outs: Node[] = stmt.queryOutputColumnList ?? [];
    source = `SELECT ${outs.map((c) => colName(c)).join(', ')} FROM (${lowerScan(stmt.query, ctx)})`;
  } else {
    // DEFAULT cannot stand in a VALUES list that is wrapped in a SELECT: the checked form spells out the default.
    const value = (v: Node, i: number) =>
      v.value?.kind === 'Dmldefault' ? (checked ? (metas[i]?.defaultSql ? `(${metas[i]!.defaultSql})` : 'NULL') : 'DEFAULT') : lowerExpr(v.value, ctx);
    const rows = (stmt.rowList as Node[]).map((r) => `(${(r.valueList as Node[]).map(value).join(', ')})`);
    source = `VALUES ${rows.join(', ')}`;
  }
  if (checked) {
    const items = metas.map((m, i) => (m ? enforceSql(`CAST(__src.v${i} AS ${duckType(m.type)})`, m.type, m, m.name) : `__src.v${i}`));
    source = `SELECT ${items.join(', ')} FROM (${source}) AS __src(${names.map((_n, i) => `v${i}`).join(', ')})`;
  }
  if (opts.dryRun) return { statementType: 'INSERT', numDmlAffectedRows: 0 };
  const [n] = await e.db.transaction([`INSERT INTO ${target.relation} (${cols.join(', ')}) ${source}`]);
  return { statementType: 'INSERT', numDmlAffectedRows: n };
}

const HANDLERS: Record<string, StatementHandler> = {
  QueryStmt: queryStmt,
  InsertStmt: insertStmt,
  ...DDL,
  ...DML,
  ...ALTER,
  ...CLONE,
  ...ROUTINES,
  ...ROW_ACCESS,
  ...EXPORT,
  ...SCHEMA_DDL,
};

const STATEMENT_NAMES: Record<string, string> = { UpdateStmt: 'UPDATE', DeleteStmt: 'DELETE', MergeStmt: 'MERGE' };

/** Executes one analyzed statement. */
export async function executeStatement(e: Engine, stmt: Node, tables: Map<string, TableMeta>, opts: QueryOptions): Promise<StatementResult> {
  const h = HANDLERS[stmt.kind];
  if (!h) throw BigQueryError.notSupported(`Statement ${STATEMENT_NAMES[stmt.kind] ?? stmt.kind.replace(/Stmt$/, '')}`);
  // Read-only table snapshots and required partition filters (table-guards.ts).
  // Each pass over a large statement is a step of its own (other clients run in between).
  await yieldIfLarge(stmt);
  checkTableGuards(stmt, tables);
  const ctx = await makeContext(e, tables, opts);
  await yieldIfLarge(stmt);
  await bindSystemTime(e, stmt, tables, ctx);
  checkDmlAccess(e, stmt, tables, opts.caller);
  await yieldIfLarge(stmt);
  const scans = scannedTables(stmt, tables);
  if (opts.onScan) await opts.onScan(scans);
  await yieldIfLarge(stmt);
  // A write keeps the table's previous rows for time travel, in the same write turn.
  const target = opts.dryRun ? undefined : writeTarget(stmt, tables);
  const r = await versionedWrite(e, target, () => h(e, stmt, ctx, opts), stmt.kind === 'InsertStmt' ? 'append' : 'rewrite');
  if (!r.referencedTables && scans.length) r.referencedTables = scans.map(({ table: t }) => ({ projectId: t.projectId, datasetId: t.datasetId, tableId: t.tableId }));
  // A dry run of DML answers the target table's schema (recorded api_configuration/dry_run_insert).
  if (opts.dryRun && !r.schema && (stmt.kind === 'InsertStmt' || STATEMENT_NAMES[stmt.kind] !== undefined)) {
    const t = tables.get(String(stmt.tableScan?.table?.serializationId ?? ''));
    if (t) r.schema = t.columns.map((c) => ({ name: c.name, type: c.type }));
  }
  return r;
}

/**
 * The tables a statement reads, each with the columns its scans use (the analyzer prunes unused
 * columns). The target of an INSERT is written, not read; the target of UPDATE, DELETE and a MERGE
 * with an UPDATE or DELETE clause is read whole.
 */
function scannedTables(stmt: Node, tables: Map<string, TableMeta>): ScannedTable[] {
  const byId = new Map<string, ScannedTable>();
  const target = stmt.tableScan as Node | undefined;
  const rewrites = stmt.kind === 'UpdateStmt' || stmt.kind === 'DeleteStmt' || (stmt.kind === 'MergeStmt' && (stmt.whenClauseList ?? []).some((w: Node) => /UPDATE|DELETE/.test(String(w.actionType))));
  // An inserting-only MERGE reads the target columns its expressions use, not those it inserts into.
  const used = new Set<string>();
  if (stmt.kind === 'MergeStmt' && !rewrites) walk(stmt, (n) => void (n.kind === 'ColumnRef' && used.add(String(n.column?.columnId))));
  walk(stmt, (n) => {
    if (n.kind !== 'TableScan') return;
    const table = tables.get(String(n.table?.serializationId ?? ''));
    if (!table) return;
    if (n === target && stmt.kind === 'InsertStmt') return;
    // One entry per table, however often it is scanned (self-joins, table functions).
    const id = JSON.stringify([table.projectId, table.datasetId, table.tableId]);
    const s = byId.get(id) ?? { table, columns: [] };
    byId.set(id, s);
    if (n === target && rewrites) s.whole = true;
    const idx: string[] = n.columnIndexList ?? [];
    (n.columnList ?? []).forEach((c: Node, i: number) => {
      if (n === target && stmt.kind === 'MergeStmt' && !rewrites && !used.has(String(c.columnId))) return;
      const name = table.columns[Number(idx[i] ?? -1)]?.name ?? String(c.name ?? '');
      if (name && !s.columns.includes(name)) s.columns.push(name);
    });
  });
  return [...byId.values()];
}

/** The relation of a view: its query analyzed and lowered, exposing the view's column names. */
export async function lowerView(e: Engine, t: TableMeta, opts: NameDefaults & Pick<QueryOptions, 'caller'>): Promise<{ relation: string; columns: string[] }> {
  const defaults: NameDefaults = { projectId: t.projectId, defaultDataset: undefined };
  const a = await e.statements.analyze(t.viewQuery!, 0, defaults, {});
  // The view's tables are read as the caller (row access policies apply through views).
  const ctx = await makeContext(e, a.tables, { ...defaults, caller: opts.caller });
  await bindSystemTime(e, a.stmt, a.tables, ctx);
  const outs: Node[] = a.stmt.outputColumnList ?? [];
  const names = t.columns.map((c) => c.name);
  const items = outs.map((o, i) => `${colName(o.column)} AS "${(names[i] ?? `f${i}_`).replace(/"/g, '""')}"`);
  return { relation: `(SELECT ${items.join(', ')} FROM (${lowerScan(a.stmt.query, ctx)}))`, columns: names };
}
