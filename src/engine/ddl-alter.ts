/**
 * ALTER TABLE: ADD COLUMN [IF NOT EXISTS], DROP COLUMN [IF EXISTS], RENAME COLUMN, RENAME TO,
 * SET OPTIONS, ALTER COLUMN SET DATA TYPE / DROP NOT NULL / SET OPTIONS.
 * Source: BigQuery DDL reference (data-definition-language#alter_table_statement).
 */
import type { Node } from '../analyzer/ast.js';
import { fromTypeProto } from '../analyzer/types.js';
import type { TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Column } from '../types/schema.js';
import type { Engine, QueryOptions, StatementResult } from './engine.js';
import { duckType } from './duckdb/types.js';
import { ident, type LowerContext } from './lower/context.js';
import { resolveTablePath, refText } from './names.js';
import type { StatementHandler } from './statements.js';
import { literalOptions } from './options.js';
import { expirationOptionFields } from './expiration.js';
import { checkSnapshotAlter } from './table-guards.js';

type Action = (t: TableMeta, a: Node, ddl: string[]) => Promise<void> | void;

const find = (t: TableMeta, name: string) => t.columns.findIndex((c) => c.name.toLowerCase() === name.toLowerCase());

const ACTIONS: Record<string, Action> = {
  AddColumnAction: (t, a, ddl) => {
    const d: Node = a.columnDefinition;
    if (find(t, d.name) >= 0) {
      if (a.isIfNotExists) return;
      throw BigQueryError.invalidQuery(`Column already exists: ${d.name}`);
    }
    const c: Column = { name: String(d.name), type: fromTypeProto(d.type), required: false };
    const desc = literalOptions(d.annotations?.optionList).description;
    if (typeof desc === 'string') c.description = desc;
    t.columns = [...t.columns, c];
    ddl.push(`ALTER TABLE ${ident(t.duckName)} ADD COLUMN ${ident(c.name)} ${duckType(c.type)}`);
  },
  DropColumnAction: (t, a, ddl) => {
    const i = find(t, a.name);
    if (i < 0) {
      if (a.isIfExists) return;
      throw BigQueryError.invalidQuery(`Column not found: ${a.name}`);
    }
    ddl.push(`ALTER TABLE ${ident(t.duckName)} DROP COLUMN ${ident(t.columns[i].name)}`);
    t.columns = t.columns.filter((_, j) => j !== i);
  },
  RenameColumnAction: (t, a, ddl) => {
    const i = find(t, a.name);
    if (i < 0) {
      if (a.isIfExists) return;
      throw BigQueryError.invalidQuery(`Column not found: ${a.name}`);
    }
    ddl.push(`ALTER TABLE ${ident(t.duckName)} RENAME COLUMN ${ident(t.columns[i].name)} TO ${ident(a.newName)}`);
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
    const i = find(t, a.column?.name ?? a.name);
    const type = fromTypeProto(a.updatedType);
    ddl.push(`ALTER TABLE ${ident(t.duckName)} ALTER COLUMN ${ident(t.columns[i].name)} TYPE ${duckType(type)}`);
    t.columns = t.columns.map((c, j) => (j === i ? { ...c, type } : c));
  },
  AlterColumnDropNotNullAction: (t, a, ddl) => {
    const i = find(t, a.column?.name ?? a.name);
    ddl.push(`ALTER TABLE ${ident(t.duckName)} ALTER COLUMN ${ident(t.columns[i].name)} DROP NOT NULL`);
    t.columns = t.columns.map((c, j) => (j === i ? { ...c, required: false } : c));
  },
  AlterColumnOptionsAction: (t, a) => {
    const i = find(t, a.column?.name ?? a.name);
    const desc = literalOptions(a.optionList).description;
    if (i >= 0 && typeof desc === 'string') t.columns = t.columns.map((c, j) => (j === i ? { ...c, description: desc } : c));
  },
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
    const f = ACTIONS[a.kind];
    if (!f) throw BigQueryError.notSupported(`ALTER TABLE action ${a.kind.replace(/Action$/, '')}`);
    await f(t, a, ddl);
  }
  if (opts.dryRun) return base;
  if (ddl.length) await e.db.transaction(ddl);
  t.lastModifiedTime = Date.now();
  if (renameTo) {
    const nr = resolveTablePath(renameTo.length === 1 ? [r.datasetId, renameTo[0]] : renameTo, { projectId: r.projectId });
    if (e.catalog.getTable(nr.projectId, nr.datasetId, nr.tableId)) throw BigQueryError.duplicate(`Already Exists: Table ${refText(nr)}`);
    await e.catalog.deleteTable(r.projectId, r.datasetId, r.tableId);
    await e.catalog.putTable({ ...t, ...nr });
  } else await e.catalog.putTable(t);
  return base;
}

/** ALTER TABLE … SET OPTIONS(…), which the analyzer resolves as its own statement kind. */
const alterTableSetOptions: StatementHandler = (e, stmt, ctx, opts) =>
  alterTable(e, { ...stmt, alterActionList: [{ kind: 'SetOptionsAction', optionList: stmt.optionList }] }, ctx, opts);

export const ALTER: Record<string, StatementHandler> = { AlterTableStmt: alterTable, AlterTableSetOptionsStmt: alterTableSetOptions };
