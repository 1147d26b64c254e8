/**
 * Table snapshots, clones and copies (BigQuery "Introduction to table snapshots", "Introduction to
 * table clones"): CREATE SNAPSHOT TABLE … CLONE src [FOR SYSTEM_TIME AS OF t], CREATE TABLE … CLONE
 * src, CREATE TABLE … COPY src; and CREATE MATERIALIZED VIEW (a view whose reads are always
 * current, with the REST `materializedView` field).
 *
 * The new table gets its own copy of the source's rows and its metadata (partitioning,
 * clustering, description, labels …), overridden by the statement's OPTIONS; a snapshot records
 * `snapshotDefinition` and a clone `cloneDefinition` (tables.get), both naming the base table.
 */
import type { Node } from '../analyzer/ast.js';
import type { TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Engine, QueryOptions, StatementHandler, StatementHandlers, StatementResult } from './engine-types.js';
import { DDL, createStoredTable } from './ddl.js';
import type { LowerContext } from './lower/context.js';
import { lowerExpr } from './lower/exprs.js';
import { literalOptions } from './options.js';
import { withExpirationExpression } from './expiration.js';
import { partitioningFields } from './partitioning.js';
import { refText, resolveTablePath, type TableRef } from './names.js';

/** Table-level OPTIONS of the statement as REST fields. */
function optionFields(stmt: Node): Record<string, unknown> {
  const o = literalOptions(stmt.optionList);
  const f: Record<string, unknown> = {};
  if (typeof o.description === 'string') f.description = o.description;
  if (typeof o.friendly_name === 'string') f.friendlyName = o.friendly_name;
  if (typeof o.expiration_timestamp === 'bigint') f.expirationTime = String(o.expiration_timestamp / 1000n);
  const p = partitioningFields({ kind: 'none' } as Node, o);
  if (p.requirePartitionFilter) f.requirePartitionFilter = true;
  return f;
}

/** The source table of a CLONE/COPY (the analyzer's TableScan). */
function sourceOf(e: Engine, scan: Node, opts: QueryOptions): TableMeta {
  const full = String(scan.table?.fullName ?? '');
  const ref = resolveTablePath([full], opts);
  const t = e.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId);
  if (!t) throw BigQueryError.tableNotFound(ref.projectId, ref.datasetId, ref.tableId);
  if (t.type === 'VIEW') throw BigQueryError.operationNotAllowed(refText(ref), 'VIEW', 'invalidQuery');
  return t;
}

/** The microsecond timestamp of `FOR SYSTEM_TIME AS OF` (now when absent). */
async function asOf(e: Engine, scan: Node, ctx: LowerContext): Promise<number> {
  if (!scan.forSystemTimeExpr) return Date.now();
  const r = (await e.db.readAll(`SELECT epoch_ms(${lowerExpr(scan.forSystemTimeExpr, ctx)})`)).getRows();
  const ms = Number(r[0]?.[0]);
  if (ms > Date.now() + 1000) throw BigQueryError.timestampInFuture();
  return Number.isFinite(ms) ? ms : Date.now();
}

async function cloneStmt(e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const snapshot = stmt.kind === 'CreateSnapshotTableStmt';
  const scan: Node = stmt.cloneFrom ?? stmt.copyFrom;
  const r: TableRef = resolveTablePath(stmt.namePath as string[], opts);
  if (!e.catalog.getDataset(r.projectId, r.datasetId)) throw BigQueryError.datasetNotFound(r.projectId, r.datasetId);
  const src = sourceOf(e, scan, opts);
  const existing = e.catalog.getTable(r.projectId, r.datasetId, r.tableId);
  let op: 'CREATE' | 'REPLACE' | 'SKIP' = 'CREATE';
  if (existing) {
    if (stmt.createMode === 'CREATE_OR_REPLACE') op = 'REPLACE';
    else if (stmt.createMode === 'CREATE_IF_NOT_EXISTS') op = 'SKIP';
    else throw BigQueryError.alreadyExists('Table', refText(r));
  }
  const statementType = snapshot ? 'CREATE_SNAPSHOT_TABLE' : 'CREATE_TABLE';
  const schema = src.columns.map((c) => ({ name: c.name, type: c.type, required: c.required }));
  const base: StatementResult = { statementType, ddlOperationPerformed: op, ddlTargetTable: r, schema, rows: [] };
  if (op === 'SKIP' || opts.dryRun) return base;
  const time = await asOf(e, scan, ctx);
  const inherited = { ...src.fields };
  delete inherited.snapshotDefinition;
  delete inherited.cloneDefinition;
  delete inherited.expirationTime;
  const baseTableReference = { projectId: src.projectId, datasetId: src.datasetId, tableId: src.tableId };
  const fields: Record<string, unknown> = await withExpirationExpression(e, stmt.optionList, ctx, { ...inherited, ...optionFields(stmt) });
  if (snapshot) fields.snapshotDefinition = { baseTableReference, snapshotTime: new Date(time).toISOString() };
  else if (stmt.cloneFrom) fields.cloneDefinition = { baseTableReference, cloneTime: new Date(time).toISOString() };
  // FOR SYSTEM_TIME AS OF: the version bound by src/engine/history.ts; else the current rows.
  const relation = ctx.systemTime?.get(scan) ?? (await e.relationOf(src, opts)).relation;
  await createStoredTable(e, r, src.columns.map((c) => ({ ...c })), fields, `SELECT * FROM ${relation}`, existing);
  return base;
}

/** CREATE TABLE with CLONE or COPY goes here; any other CREATE TABLE to the ordinary handler. */
const createTable: StatementHandler = (e, stmt, ctx, opts) =>
  stmt.cloneFrom || stmt.copyFrom ? cloneStmt(e, stmt, ctx, opts) : DDL.CreateTableStmt(e, stmt, ctx, opts);

/** CREATE MATERIALIZED VIEW: a view (reads always current) marked as materialized. */
const createMaterializedView: StatementHandler = async (e, stmt, ctx, opts) => {
  const res = await DDL.CreateViewStmt(e, stmt, ctx, opts);
  res.statementType = 'CREATE_MATERIALIZED_VIEW';
  if (res.ddlOperationPerformed === 'SKIP' || opts.dryRun || !res.ddlTargetTable) return res;
  const r = res.ddlTargetTable;
  const t = e.catalog.getTable(r.projectId, r.datasetId, r.tableId);
  if (t) await e.catalog.putTable({ ...t, fields: { ...t.fields, materializedView: { query: t.viewQuery, enableRefresh: true, refreshIntervalMs: '1800000' } } });
  return res;
};

/** DROP MATERIALIZED VIEW / DROP SNAPSHOT TABLE: the generic DROP with BigQuery's statement type. */
const dropAs = (objectType: string, statementType: string): StatementHandler => async (e, stmt, ctx, opts) => {
  const res = await DDL.DropStmt(e, { ...stmt, objectType }, ctx, opts);
  return { ...res, statementType };
};

export const CLONE = {
  DropMaterializedViewStmt: dropAs('MATERIALIZED VIEW', 'DROP_MATERIALIZED_VIEW'),
  DropSnapshotTableStmt: dropAs('TABLE', 'DROP_SNAPSHOT_TABLE'),
  CreateTableStmt: createTable,
  CreateSnapshotTableStmt: cloneStmt,
  CreateMaterializedViewStmt: createMaterializedView,
} satisfies StatementHandlers;
