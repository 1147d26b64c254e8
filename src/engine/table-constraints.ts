/**
 * Table constraints (REST `Table.tableConstraints`, bigquery-v2-discovery.json TableConstraints:
 * `primaryKey.columns`, `foreignKeys[]` of `{name?, referencedTable{projectId, datasetId,
 * tableId}, columnReferences[{referencingColumn, referencedColumn}]}`) from the DDL that declares
 * them: CREATE TABLE's `PRIMARY KEY (…) NOT ENFORCED` and `[CONSTRAINT name] FOREIGN KEY (…)
 * REFERENCES t(…) NOT ENFORCED`, and ALTER TABLE ADD PRIMARY KEY / ADD [CONSTRAINT name] FOREIGN
 * KEY / DROP PRIMARY KEY / DROP CONSTRAINT (https://cloud.google.com/bigquery/docs/primary-foreign-keys).
 * BigQuery does not enforce them; neither does the emulator — they are metadata.
 */
import type { Node } from '../analyzer/ast.js';
import type { TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Engine } from './engine-types.js';

/** One foreign key of `tableConstraints.foreignKeys`. */
export interface ForeignKey {
  name?: string;
  referencedTable: { projectId: string; datasetId: string; tableId: string };
  columnReferences: { referencingColumn: string; referencedColumn: string }[];
}

/** `Table.tableConstraints`. */
export interface TableConstraints {
  primaryKey?: { columns: string[] };
  foreignKeys?: ForeignKey[];
}

/** The primary key of a resolved PrimaryKey node (its column names, in key order). */
function primaryKeyOf(pk: Node): { columns: string[] } {
  return { columns: (pk.columnNameList ?? []).map(String) };
}

/**
 * The foreign key of a resolved ForeignKey node; the referenced columns are named from the
 * referenced table's schema (the analyzer gives their offsets).
 * @throws BigQueryError notFound when the referenced table is gone.
 */
function foreignKeyOf(e: Engine, fk: Node): ForeignKey {
  const full = String(fk.referencedTable?.fullName ?? fk.referencedTable?.name ?? '');
  const parts = full.split('.');
  const [projectId, datasetId, tableId] = [parts.slice(0, -2).join('.'), parts[parts.length - 2] ?? '', parts[parts.length - 1] ?? ''];
  const referenced = e.catalog.getTable(projectId, datasetId, tableId);
  if (!referenced) throw BigQueryError.resourceNotFound('Table', `${projectId}:${datasetId}.${tableId}`);
  const referencing: string[] = (fk.referencingColumnList ?? []).map(String);
  const offsets: string[] = fk.referencedColumnOffsetList ?? [];
  return {
    ...(fk.constraintName ? { name: String(fk.constraintName) } : {}),
    referencedTable: { projectId, datasetId, tableId },
    columnReferences: referencing.map((c, i) => ({ referencingColumn: c, referencedColumn: referenced.columns[Number(offsets[i])]?.name ?? '' })),
  };
}

/** The `tableConstraints` field of a CREATE TABLE statement, or {} when it declares none. */
export function createTableConstraints(e: Engine, stmt: Node): { tableConstraints?: TableConstraints } {
  const c: TableConstraints = {};
  if (stmt.primaryKey) c.primaryKey = primaryKeyOf(stmt.primaryKey);
  const fks: Node[] = stmt.foreignKeyList ?? [];
  if (fks.length) c.foreignKeys = fks.map((fk) => foreignKeyOf(e, fk));
  return c.primaryKey || c.foreignKeys ? { tableConstraints: c } : {};
}

/** `t`'s fields with `tableConstraints` replaced by `c` (removed when it holds no constraint). */
function withConstraints(t: TableMeta, c: TableConstraints): void {
  const { tableConstraints: _old, ...rest } = (t.fields ?? {}) as Record<string, unknown>;
  const kept: TableConstraints = {};
  if (c.primaryKey) kept.primaryKey = c.primaryKey;
  if (c.foreignKeys?.length) kept.foreignKeys = c.foreignKeys;
  t.fields = kept.primaryKey || kept.foreignKeys ? { ...rest, tableConstraints: kept } : rest;
}

const constraintsOf = (t: TableMeta): TableConstraints => ((t.fields as { tableConstraints?: TableConstraints } | undefined)?.tableConstraints ?? {});

/**
 * ALTER TABLE ADD PRIMARY KEY / ADD [CONSTRAINT name] FOREIGN KEY (`a`: AddConstraintAction).
 * @throws BigQueryError invalidQuery when the table already has a primary key or a constraint of
 * that name (skipped under IF NOT EXISTS).
 */
export function addConstraint(e: Engine, t: TableMeta, a: Node): void {
  const c = constraintsOf(t);
  const k: Node = a.constraint;
  if (k?.kind === 'PrimaryKey') {
    if (c.primaryKey) {
      if (a.isIfNotExists) return;
      throw BigQueryError.primaryKeyExists(t.tableId);
    }
    withConstraints(t, { ...c, primaryKey: primaryKeyOf(k) });
    return;
  }
  const fk = foreignKeyOf(e, k);
  if (fk.name && c.foreignKeys?.some((f) => f.name?.toLowerCase() === fk.name!.toLowerCase())) {
    if (a.isIfNotExists) return;
    throw BigQueryError.constraintExists(fk.name, t.tableId);
  }
  withConstraints(t, { ...c, foreignKeys: [...(c.foreignKeys ?? []), fk] });
}

/**
 * ALTER TABLE DROP PRIMARY KEY (`name` undefined) or DROP CONSTRAINT name.
 * @throws BigQueryError invalidQuery when there is no such constraint (skipped under IF EXISTS).
 */
export function dropConstraint(t: TableMeta, name: string | undefined, ifExists: boolean): void {
  const c = constraintsOf(t);
  if (name === undefined) {
    if (!c.primaryKey) {
      if (ifExists) return;
      throw BigQueryError.noPrimaryKey(t.tableId);
    }
    withConstraints(t, { ...c, primaryKey: undefined });
    return;
  }
  const kept = (c.foreignKeys ?? []).filter((f) => f.name?.toLowerCase() !== name.toLowerCase());
  if (kept.length === (c.foreignKeys ?? []).length) {
    if (ifExists) return;
    throw BigQueryError.constraintNotFound(name, t.tableId);
  }
  withConstraints(t, { ...c, foreignKeys: kept });
}
