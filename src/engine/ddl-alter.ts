/**
 * ALTER TABLE: ADD COLUMN [IF NOT EXISTS], DROP COLUMN [IF EXISTS], RENAME COLUMN, RENAME TO,
 * SET OPTIONS, ALTER COLUMN SET DATA TYPE / DROP NOT NULL / SET OPTIONS / SET DEFAULT / DROP DEFAULT,
 * ADD PRIMARY KEY / ADD [CONSTRAINT] FOREIGN KEY / DROP PRIMARY KEY / DROP CONSTRAINT (table-constraints.ts).
 * Source: BigQuery DDL reference (data-definition-language#alter_table_statement).
 */
import type { Node, ResolvedAlterActionKind } from '../analyzer/ast.js';
import { fromTypeProto } from '../analyzer/types.js';
import type { TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Column } from '../types/schema.js';
import type { Engine, QueryOptions, StatementHandler, StatementHandlers, StatementResult } from './engine-types.js';
import { duckType } from './duckdb/types.js';
import { ident, type LowerContext } from './lower/context.js';
import { resolveTablePath, refText } from './names.js';
import { literalOptions } from './options.js';
import { expirationOptionFields } from './expiration.js';
import { checkSnapshotAlter } from './table-guards.js';
import { columnDefault, columnsFromDefinitions } from './ddl.js';
import { checkSetDataType, detailsFromAnnotations } from './type-params.js';
import { addPicosColumnSql, isPicosColumn, picosColumnName } from './picos-storage.js';
import { addConstraint, dropConstraint } from './table-constraints.js';

type Action = (t: TableMeta, a: Node, ddl: string[], e: Engine) => Promise<void> | void;

const find = (t: TableMeta, name: string) => t.columns.findIndex((c) => c.name.toLowerCase() === name.toLowerCase());

/** The column an ALTER COLUMN action names (the analyzer gives `column` as the name string). */
const actionColumn = (a: Node): string => String(typeof a.column === 'string' ? a.column : a.column?.name ?? a.name);

/**
 * The index of the column an ALTER COLUMN action names.
 * @throws BigQueryError invalidQuery `Column not found: c` (undefined with IF EXISTS).
 */
function alteredColumn(t: TableMeta, a: Node): number | undefined {
  const i = find(t, actionColumn(a));
  if (i >= 0) return i;
  if (a.isIfExists) return undefined;
  throw BigQueryError.columnNotFound(actionColumn(a));
}

/** A column without its length / precision / scale (ALTER COLUMN SET DATA TYPE replaces them). */
function withoutParams(c: Column): Column {
  const { maxLength: _l, precision: _p, scale: _s, ...rest } = c;
  return rest;
}

/**
 * Every ALTER action kind of the analyzer's resolved_ast.proto: a handler, or `null` for an action
 * ALTER TABLE refuses ("ALTER TABLE action <name>" not supported). `RenameToAction` is handled by
 * alterTable itself.
 */
const ACTIONS: Record<ResolvedAlterActionKind, Action | null> = {
  AddColumnAction: (t, a, ddl) => {
    const d: Node = a.columnDefinition;
    if (find(t, d.name) >= 0) {
      if (a.isIfNotExists) return;
      throw BigQueryError.columnAlreadyExists(d.name);
    }
    // Type parameters, OPTIONS(description) and DEFAULT as in CREATE TABLE; added columns are
    // NULLABLE. The DEFAULT applies to rows written from now on: the table's rows so far read NULL
    // (https://cloud.google.com/bigquery/docs/default-values), so DuckDB's ADD COLUMN gets none.
    const c = { ...columnsFromDefinitions([d])[0]!, required: false };
    t.columns = [...t.columns, c];
    ddl.push(`ALTER TABLE ${ident(t.duckName)} ADD COLUMN ${ident(c.name)} ${duckType(c.type)}`);
    if (c.defaultSql) ddl.push(`ALTER TABLE ${ident(t.duckName)} ALTER COLUMN ${ident(c.name)} SET DEFAULT (${c.defaultSql})`);
  },
  DropColumnAction: (t, a, ddl) => {
    const i = find(t, a.name);
    if (i < 0) {
      if (a.isIfExists) return;
      throw BigQueryError.columnNotFound(a.name);
    }
    ddl.push(`ALTER TABLE ${ident(t.duckName)} DROP COLUMN ${ident(t.columns[i].name)}`);
    // A TIMESTAMP(12) column's picosecond companion goes with it (src/engine/picos-storage.ts).
    if (isPicosColumn(t.columns[i])) ddl.push(`ALTER TABLE ${ident(t.duckName)} DROP COLUMN IF EXISTS ${ident(picosColumnName(t.columns[i].name))}`);
    t.columns = t.columns.filter((_, j) => j !== i);
  },
  RenameColumnAction: (t, a, ddl) => {
    const i = find(t, a.name);
    if (i < 0) {
      if (a.isIfExists) return;
      throw BigQueryError.columnNotFound(a.name);
    }
    ddl.push(`ALTER TABLE ${ident(t.duckName)} RENAME COLUMN ${ident(t.columns[i].name)} TO ${ident(a.newName)}`);
    if (isPicosColumn(t.columns[i]))
      ddl.push(addPicosColumnSql(t.duckName, t.columns[i]), `ALTER TABLE ${ident(t.duckName)} RENAME COLUMN ${ident(picosColumnName(t.columns[i].name))} TO ${ident(picosColumnName(String(a.newName)))}`);
    t.columns = t.columns.map((c, j) => (j === i ? { ...c, name: String(a.newName) } : c));
  },
  SetOptionsAction: (t, a) => {
    const o = literalOptions(a.optionList);
    if (typeof o.description === 'string') t.fields = { ...t.fields, description: o.description };
    if (typeof o.friendly_name === 'string') t.fields = { ...t.fields, friendlyName: o.friendly_name };
    if (typeof o.require_partition_filter === 'boolean') t.fields = { ...t.fields, requirePartitionFilter: o.require_partition_filter };
    t.fields = expirationOptionFields(t.fields, o);
  },
  AlterColumnSetDataTypeAction: (t, a, ddl) => {
    const i = alteredColumn(t, a);
    if (i === undefined) return;
    const type = fromTypeProto(a.updatedType);
    const { maxLength, precision, scale } = detailsFromAnnotations(type, a.updatedAnnotations);
    const params = Object.fromEntries(Object.entries({ maxLength, precision, scale }).filter(([, v]) => v !== undefined));
    checkSetDataType(t.columns[i], type, params);
    if (duckType(type) !== duckType(t.columns[i].type)) ddl.push(`ALTER TABLE ${ident(t.duckName)} ALTER COLUMN ${ident(t.columns[i].name)} TYPE ${duckType(type)}`);
    t.columns = t.columns.map((c, j) => (j === i ? { ...withoutParams(c), type, ...params } : c));
  },
  AlterColumnDropNotNullAction: (t, a, ddl) => {
    const i = alteredColumn(t, a);
    if (i === undefined) return;
    ddl.push(`ALTER TABLE ${ident(t.duckName)} ALTER COLUMN ${ident(t.columns[i].name)} DROP NOT NULL`);
    // A relaxed column answers mode NULLABLE (as relaxation through a query append does).
    t.columns = t.columns.map((c, j) => (j === i ? { ...c, required: false, modeOmitted: false } : c));
  },
  AlterColumnOptionsAction: (t, a) => {
    const i = alteredColumn(t, a) ?? -1;
    const desc = literalOptions(a.optionList).description;
    if (i >= 0 && typeof desc === 'string') t.columns = t.columns.map((c, j) => (j === i ? { ...c, description: desc } : c));
  },
  AddConstraintAction: (t, a, _ddl, e) => addConstraint(e, t, a),
  AddSubEntityAction: null,
  AddToRestricteeListAction: null,
  AlterColumnSetDefaultAction: (t, a, ddl) => {
    const i = alteredColumn(t, a);
    if (i === undefined) return;
    const dv = columnDefault(a.defaultValue);
    ddl.push(`ALTER TABLE ${ident(t.duckName)} ALTER COLUMN ${ident(t.columns[i].name)} SET DEFAULT (${dv.defaultSql})`);
    t.columns = t.columns.map((c, j) => (j === i ? { ...c, ...dv } : c));
  },
  AlterColumnDropDefaultAction: (t, a, ddl) => {
    const i = alteredColumn(t, a);
    if (i === undefined) return;
    ddl.push(`ALTER TABLE ${ident(t.duckName)} ALTER COLUMN ${ident(t.columns[i].name)} DROP DEFAULT`);
    t.columns = t.columns.map((c, j) => {
      if (j !== i) return c;
      const { defaultSql: _s, defaultValueExpression: _e, ...rest } = c;
      return rest;
    });
  },
  AlterSubEntityAction: null,
  DropConstraintAction: (t, a) => dropConstraint(t, String(a.name), !!a.isIfExists),
  DropPrimaryKeyAction: (t, a) => dropConstraint(t, undefined, !!a.isIfExists),
  DropSubEntityAction: null,
  FilterUsingAction: null,
  GrantToAction: null,
  RemoveFromRestricteeListAction: null,
  RestrictToAction: null,
  RevokeFromAction: null,
  SetAsAction: null,
  SetCollateClause: null,
  RenameToAction: null,
};

async function alterTable(e: Engine, stmt: Node, _ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const r = resolveTablePath(stmt.namePath as string[], opts);
  const base: StatementResult = { statementType: 'ALTER_TABLE', ddlOperationPerformed: 'ALTER', ddlTargetTable: r };
  const existing = e.catalog.getTable(r.projectId, r.datasetId, r.tableId);
  if (!existing) {
    if (stmt.isIfExists) return { ...base, ddlOperationPerformed: 'SKIP' };
    throw BigQueryError.tableNotFound(r.projectId, r.datasetId, r.tableId);
  }
  checkSnapshotAlter(existing, stmt.alterActionList ?? []);
  const t: TableMeta = { ...existing, columns: [...existing.columns], fields: { ...existing.fields } };
  const ddl: string[] = [];
  let renameTo: string[] | undefined;
  for (const a of (stmt.alterActionList ?? []) as Node[]) {
    if (a.kind === 'RenameToAction') {
      renameTo = a.newPath as string[];
      continue;
    }
    const f = ACTIONS[a.kind as ResolvedAlterActionKind] as Action | null | undefined;
    if (!f) throw BigQueryError.notSupported(`ALTER TABLE action ${a.kind.replace(/Action$/, '')}`);
    await f(t, a, ddl, e);
  }
  if (opts.dryRun) return base;
  t.lastModifiedTime = Date.now();
  // The DuckDB changes and the new metadata (a rename: both names) in one transaction.
  if (renameTo) {
    const nr = resolveTablePath(renameTo.length === 1 ? [r.datasetId, renameTo[0]] : renameTo, { projectId: r.projectId });
    if (e.catalog.getTable(nr.projectId, nr.datasetId, nr.tableId)) throw BigQueryError.alreadyExists('Table', refText(nr));
    await e.catalog.putTableWith({ ...t, ...nr }, ddl, r);
  } else await e.catalog.putTableWith(t, ddl);
  return base;
}

/** ALTER TABLE … SET OPTIONS(…), which the analyzer resolves as its own statement kind. */
const alterTableSetOptions: StatementHandler = (e, stmt, ctx, opts) =>
  alterTable(e, { ...stmt, alterActionList: [{ kind: 'SetOptionsAction', optionList: stmt.optionList }] }, ctx, opts);

export const ALTER = { AlterTableStmt: alterTable, AlterTableSetOptionsStmt: alterTableSetOptions } satisfies StatementHandlers;
