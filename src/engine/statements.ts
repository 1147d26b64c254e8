/**
 * Executes one resolved statement (exhaustive dispatch by statement kind). Queries and INSERT live
 * here; DDL in ddl.ts, the rest in the handler modules merged into HANDLERS. Every statement kind
 * without a handler is rejected clearly. What the handlers share (the lowering context, result
 * fields, reading rows, views) is statement-context.ts.
 */
import { SCHEMA_DDL } from './ddl-schema.js';
import { MODELS } from './models.js';
import { UNDROP } from './dataset-undelete.js';
import { isLarge, nodesOfKind, walk, yieldIfLarge, type Node, type ResolvedNodeOf, type ResolvedStatementKind } from '../analyzer/ast.js';
import type { TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Engine, HandlerOf, QueryOptions, ResultField, ScannedTable, StatementHandler, StatementResult } from './engine-types.js';
import { colName, ident, type BoundTable, type LowerContext } from './lower/context.js';
import { lowerExpr } from './lower/exprs.js';
import { lowerScan } from './lower/scans.js';
import { duckType } from './duckdb/types.js';
import { DDL } from './ddl.js';
import { EXPORT } from './export.js';
import { DML } from './dml.js';
import { ALTER } from './ddl-alter.js';
import { CLONE } from './ddl-clone.js';
import { ROUTINES } from './routines.js';
import { checkDmlAccess, ROW_ACCESS } from './row-access.js';
import { checkTableGuards } from './table-guards.js';
import { versionedWrite, writeTarget } from './history.js';
import { bindSystemTime } from './system-time.js';
import { columnHasParams, enforceSql } from './type-params.js';
import { columnFacts } from './column-stats.js';
import { nanFreeColumns } from './lower/nan-free.js';
import { storedColumns } from './stored-columns.js';
import { lowerQuery, makeContext, readRows, resultFields } from './statement-context.js';
import { readResultRows } from './query-results.js';
import { rowsAtMost } from './lower/row-bound.js';
import { lowerLiteralsAhead } from './lower/literals-ahead.js';
import { RECHECK_MARKER } from '../functions/registry.js';

/**
 * A query statement. It is lowered first with checks that only mark a failing row
 * (LowerContext.recheck: FLOAT64 overflow, src/functions/operators.ts), which DuckDB plans in a
 * fraction of the time; a run that meets the mark had no effect (a query's rows, or a destination
 * table never created) and the statement is lowered with every check spelled out and run again,
 * so its error or its answer is BigQuery's. @throws BigQueryError the statement's errors
 */
async function queryStmt(e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const schema = resultFields(stmt.outputColumnList ?? []);
  if (opts.dryRun) return { statementType: 'SELECT', schema, rows: [] };
  try {
    return await runQuery(e, stmt, { ...ctx, recheck: true }, opts, schema);
  } catch (err) {
    if (!String((err as Error)?.message).includes(RECHECK_MARKER)) throw err;
    return runQuery(e, stmt, ctx, opts, schema);
  }
}

/** Lowers and runs a query statement (see queryStmt). */
async function runQuery(e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions, schema: ResultField[]): Promise<StatementResult> {
  const sql = lowerQuery(stmt, ctx);
  if (opts.resultTable) {
    // Rows for a destination table stay inside DuckDB: the whole query runs here (its errors are
    // the statement's, before the destination changes) and the job layer writes them from there.
    const cols = schema.map((_f, i) => `v${i}`);
    await e.db.run(`CREATE TABLE ${ident(opts.resultTable)} AS SELECT * FROM (${sql}) AS __q(${cols.map(ident).join(', ')})`);
    return { statementType: 'SELECT', schema, relation: `SELECT ${cols.map(ident).join(', ')} FROM ${ident(opts.resultTable)} ORDER BY rowid` };
  }
  // A job's own result: a large one's REST text is built inside DuckDB (src/engine/result-json.ts).
  const bound = rowsAtMost(stmt.query);
  if (opts.encodeResult) return { statementType: 'SELECT', schema, ...(await readResultRows(e, sql, schema, bound)) };
  const rows = await readRows(e, sql, schema, e.maxResponseBytes, undefined, bound);
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

/**
 * Statement kinds not executed here: executeStatement refuses them with "Statement <name>" not
 * supported. (Script statements such as BEGIN, CALL, ASSERT, SET and EXECUTE IMMEDIATE are run by
 * src/scripting from the parse tree.)
 */
const NOT_EXECUTED = {
  AbortBatchStmt: null,
  AlterAllRowAccessPoliciesStmt: null,
  AlterApproxViewStmt: null,
  AlterDatabaseStmt: null,
  AlterEntityStmt: null,
  AlterMaterializedViewStmt: null,
  AlterModelStmt: null,
  AlterPrivilegeRestrictionStmt: null,
  AlterRowAccessPolicyStmt: null,
  AlterViewStmt: null,
  AnalyzeStmt: null,
  AssertStmt: null,
  AssignmentStmt: null,
  AuxLoadDataStmt: null,
  BeginStmt: null,
  CallStmt: null,
  CloneDataStmt: null,
  CommitStmt: null,
  CreateApproxViewStmt: null,
  CreateConstantStmt: null,
  CreateDatabaseStmt: null,
  CreateEntityStmt: null,
  CreateExternalTableStmt: null,
  CreateIndexStmt: null,
  CreateModelStmt: null,
  CreatePrivilegeRestrictionStmt: null,
  DefineTableStmt: null,
  DescribeStmt: null,
  DropIndexStmt: null,
  DropPrivilegeRestrictionStmt: null,
  ExecuteImmediateStmt: null,
  ExplainStmt: null,
  ExportMetadataStmt: null,
  ExportModelStmt: null,
  GrantStmt: null,
  ImportStmt: null,
  ModuleStmt: null,
  RenameStmt: null,
  RevokeStmt: null,
  RollbackStmt: null,
  RunBatchStmt: null,
  SetTransactionStmt: null,
  ShowStmt: null,
  StartBatchStmt: null,
  UndropStmt: null,
} as const;

/**
 * Every statement kind of the analyzer's resolved_ast.proto, so that a kind added there fails
 * typechecking here until it has a handler or is listed as not executed (`null`).
 */
const HANDLERS: { [K in ResolvedStatementKind]: HandlerOf<K> | null } = {
  ...NOT_EXECUTED, // first: a handler added later for one of these kinds wins
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
  ...MODELS,
  ...UNDROP,
};

const STATEMENT_NAMES: Record<string, string> = { UpdateStmt: 'UPDATE', DeleteStmt: 'DELETE', MergeStmt: 'MERGE' };

/** Executes one analyzed statement. */
export async function executeStatement(e: Engine, stmt: Node, tables: Map<string, TableMeta>, opts: QueryOptions): Promise<StatementResult> {
  const h = HANDLERS[stmt.kind as ResolvedStatementKind] as StatementHandler | null | undefined;
  if (!h) throw BigQueryError.notSupported(`Statement ${STATEMENT_NAMES[stmt.kind] ?? stmt.kind.replace(/Stmt$/, '')}`);
  // Read-only table snapshots and required partition filters (table-guards.ts).
  // Each pass over a large statement is a step of its own (other clients run in between).
  await yieldIfLarge(stmt);
  checkTableGuards(stmt, tables);
  const ctx = await makeContext(e, tables, opts);
  // A dry run is not lowered (queryStmt answers its schema first): nothing to convert ahead.
  if (isLarge(stmt) && !opts.dryRun) await lowerLiteralsAhead(nodesOfKind(stmt, 'FunctionCall'), ctx);
  await yieldIfLarge(stmt);
  await bindSystemTime(e, stmt, tables, ctx);
  checkDmlAccess(e, stmt, tables, opts.caller);
  await yieldIfLarge(stmt);
  const scans = scannedTables(stmt, tables);
  if (opts.onScan) await opts.onScan(scans);
  await yieldIfLarge(stmt);
  // A write keeps the table's previous rows for time travel, in the same write turn.
  const target = opts.dryRun ? undefined : writeTarget(stmt, tables);
  // A query naming only stored tables keeps its prepared statement until one of them is written.
  const reads = stmt.kind === 'QueryStmt' ? readTables(tables, ctx) : undefined;
  const run = () => (reads ? readScoped(e, stmt, tables, scans, reads, ctx, opts, (c) => h(e, stmt, c, opts)) : h(e, stmt, ctx, opts));
  const r = await versionedWrite(e, target, run, stmt.kind === 'InsertStmt' ? 'append' : 'rewrite');
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
  for (const n of nodesOfKind(stmt, 'TableScan')) {
    const table = tables.get(String(n.table?.serializationId ?? ''));
    if (!table) continue;
    if (n === target && stmt.kind === 'InsertStmt') continue;
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
  }
  return [...byId.values()];
}

/**
 * The DuckDB tables a query's lowered SQL reads, when they are exactly its bound tables: every one
 * a stored table read as it is (no view, wildcard, INFORMATION_SCHEMA view, row access filter or
 * time travel, whose SQL reads other tables). Otherwise undefined: its statements are then kept
 * for one write generation of the whole database (src/engine/duckdb/write-generations.ts).
 */
function readTables(tables: Map<string, TableMeta>, ctx: LowerContext): string[] | undefined {
  if (ctx.systemTime?.size) return undefined;
  const out: string[] = [];
  for (const [id, t] of tables) {
    const b = ctx.tables.get(id);
    if (t.type !== 'TABLE' || t.wildcard || t.infoSchema || !t.duckName || !b || b.read || b.relation !== `"${t.duckName}"`) return undefined;
    out.push(t.duckName);
  }
  return out;
}

/** Ids (serialization ids) of the tables `stmt` scans more than once. */
function repeatedTables(stmt: Node): Set<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const n of nodesOfKind(stmt, 'TableScan')) {
    const id = String(n.table?.serializationId ?? '0');
    if (seen.has(id)) repeated.add(id);
    seen.add(id);
  }
  return repeated;
}

/**
 * Runs a query whose SQL reads exactly the stored tables `reads` (readTables). A query with an
 * analytic function is lowered knowing which scanned columns DuckDB's statistics show hold no NULL
 * (src/engine/column-stats.ts: their ORDER BY keys need no NULLS FIRST, and DuckDB plans its grouped
 * top-N), and a table it scans more than once is read as a bare table reference over its stored
 * columns (src/engine/stored-columns.ts); if one of its tables was written while it ran, those facts
 * may no longer hold and it runs again without them. `handler` lowers and runs the statement with the context it is given.
 */
async function readScoped(e: Engine, stmt: Node, tables: Map<string, TableMeta>, scans: ScannedTable[], reads: string[], ctx: LowerContext, opts: QueryOptions, handler: (c: LowerContext) => Promise<StatementResult>): Promise<StatementResult> {
  const generation = e.db.generations.of(reads);
  let known = ctx;
  const scansFloat = () => scans.some((s) => s.table.columns.some((c) => c.type.kind === 'FLOAT64' && s.columns.includes(c.name)));
  // A write under way may have committed rows its generation does not show yet: no facts then. A
  // query into a result table writes (CREATE TABLE), which moves the generations: it is never run
  // twice, so it is lowered without facts that would need a second run to stay true.
  const facts = !opts.dryRun && !opts.resultTable && !e.db.generations.writing(reads);
  if (facts && (nodesOfKind(stmt, 'AnalyticScan').length || scansFloat())) {
    const bound = new Map(ctx.tables);
    for (const [id, t] of tables) {
      const s = scans.find((x) => x.table === t);
      const b = bound.get(id);
      if (!s || !b) continue;
      const { nonNull, nanFree } = await columnFacts(e, t, s.columns);
      if (nonNull.size || nanFree.size) bound.set(id, { ...b, ...(nonNull.size ? { nonNull } : {}), ...(nanFree.size ? { nanFree } : {}) });
    }
    if ([...bound.values()].some((b) => b.nonNull || b.nanFree)) {
      known = { ...ctx, tables: bound };
      const nanFree = nanFreeColumns(stmt, known);
      if (nanFree) known.nanFree = nanFree;
    }
  }
  // A table scanned more than once is read as a bare table reference (src/engine/stored-columns.ts).
  const repeated = repeatedTables(stmt);
  if (facts && repeated.size) {
    const bound = new Map(known.tables);
    for (const id of repeated) {
      const t = tables.get(id);
      const b = bound.get(id);
      if (!t || !b) continue;
      const stored = await storedColumns(e, t);
      if (stored) bound.set(id, { ...b, stored });
    }
    if ([...bound.values()].some((b) => b.stored)) known = { ...known, tables: bound };
  }
  const r = await e.db.withReadScope(reads, () => handler(known));
  if (known === ctx || e.db.generations.of(reads) === generation) return r;
  return e.db.withReadScope(reads, () => handler(ctx));
}
