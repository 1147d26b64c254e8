/**
 * Checks a resolved statement makes before it runs, against the tables it binds:
 *
 * - Table snapshots are read-only (BigQuery "Introduction to table snapshots": "Table snapshots
 *   are read-only"; "Update table snapshot metadata": you can update a snapshot's metadata but
 *   not its data). INSERT, UPDATE, DELETE, MERGE and TRUNCATE TABLE into a snapshot, and ALTER
 *   TABLE actions that change its schema, are refused.
 * - `require_partition_filter` (table option; REST `requirePartitionFilter`, or the deprecated
 *   `timePartitioning.requirePartitionFilter`): a scan of such a partitioned table needs a filter
 *   on its partitioning column that can be used for partition elimination (BigQuery "Set
 *   partition filter requirements"). Decided on the resolved AST: some WHERE filter (FilterScan,
 *   an UPDATE/DELETE WHERE, a MERGE ON condition) has a conjunct that references the scan's
 *   partitioning column (or an alias of it projected by a subquery) and no other column and no
 *   subquery. The error text is BigQuery's (googleapis/google-cloud-go#5013, mozilla/bigquery-etl#2673).
 *   A view over such a table is not checked (its filter may come from the outer query).
 */
import { nodesOfKind, walk, type Node } from '../analyzer/ast.js';
import type { TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';

const WRITES = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt', 'TruncateStmt']);

/** ALTER TABLE actions that only change metadata, allowed on a snapshot. */
const METADATA_ACTIONS = new Set(['SetOptionsAction', 'AlterColumnOptionsAction', 'RenameToAction']);

const isSnapshot = (t: TableMeta | undefined): boolean => !!t?.fields.snapshotDefinition;

/** The refusal of a write to a table snapshot (`p:d.t is not allowed for this operation because it is currently a SNAPSHOT.`). */
function snapshotWrite(t: TableMeta): BigQueryError {
  return BigQueryError.operationNotAllowed(`${t.projectId}:${t.datasetId}.${t.tableId}`, 'SNAPSHOT', 'invalidQuery');
}

/**
 * Refuses any write into a table snapshot outside DML: tabledata.insertAll and a query job's
 * `destinationTable` (BigQuery "Introduction to table snapshots": snapshots are read-only).
 * @throws BigQueryError invalidQuery (`p:d.t is not allowed for this operation because it is
 *   currently a SNAPSHOT.`) when `t` is a snapshot.
 */
export function checkSnapshotWrite(t: TableMeta | undefined): void {
  if (t && isSnapshot(t)) throw snapshotWrite(t);
}

/**
 * Refuses ALTER TABLE actions that change a snapshot's schema or data (ADD/DROP/RENAME COLUMN,
 * ALTER COLUMN SET DATA TYPE / DROP NOT NULL); SET OPTIONS and RENAME TO are metadata.
 * @throws BigQueryError invalidQuery
 */
export function checkSnapshotAlter(t: TableMeta, actions: Node[]): void {
  if (isSnapshot(t) && actions.some((a) => !METADATA_ACTIONS.has(a.kind))) throw snapshotWrite(t);
}

/** Whether reads of the table must filter on its partitioning column. */
function requiresPartitionFilter(t: TableMeta): boolean {
  const tp = t.fields.timePartitioning as { requirePartitionFilter?: boolean } | undefined;
  return (t.fields.requirePartitionFilter === true || tp?.requirePartitionFilter === true) && !!(tp || t.fields.rangePartitioning);
}

/** The columns a partition filter may use, lower-case; and their names in BigQuery's message. */
function partitionColumns(t: TableMeta): { names: string[]; message: string } {
  const tp = t.fields.timePartitioning as { field?: string } | undefined;
  const field = tp ? tp.field : (t.fields.rangePartitioning as { field?: string } | undefined)?.field;
  if (field) return { names: [field.toLowerCase()], message: `'${field}'` };
  // Ingestion-time partitioning: BigQuery names its three pseudo-columns.
  return { names: ['_partitiontime', '_partitiondate'], message: "'_PARTITION_LOAD_TIME', '_PARTITIONDATE', '_PARTITIONTIME'" };
}

const isAnd = (n: Node) => n.kind === 'FunctionCall' && String(n.function?.name ?? '').replace(/^ZetaSQL:/, '') === '$and';

function conjuncts(e: Node | undefined, out: Node[]): Node[] {
  if (!e) return out;
  if (isAnd(e)) for (const a of e.argumentList ?? []) conjuncts(a, out);
  else out.push(e);
  return out;
}

/** Every WHERE-like predicate of the statement, split into conjuncts. */
function filterConjuncts(stmt: Node): Node[] {
  const out: Node[] = [];
  for (const n of nodesOfKind(stmt, 'FilterScan')) conjuncts(n.filterExpr, out);
  if (stmt.kind === 'UpdateStmt' || stmt.kind === 'DeleteStmt') conjuncts(stmt.whereExpr, out);
  if (stmt.kind === 'MergeStmt') conjuncts(stmt.mergeExpr, out);
  return out;
}

/**
 * Column ids that carry the same value as one of `ids` through projections (`SELECT dt AS d`)
 * and WITH references (a WithRefScan's columns are its WITH query's, by position).
 */
function withAliases(stmt: Node, ids: Set<string>): Set<string> {
  const links: [string, string][] = [];
  const withQueries = new Map<string, Node>();
  const unwrap = (e: Node | undefined): Node | undefined => (e?.kind === 'Cast' ? unwrap(e.expr) : e);
  for (const n of nodesOfKind(stmt, 'ProjectScan'))
    for (const c of n.exprList ?? []) {
      const e = unwrap(c.expr);
      if (e?.kind === 'ColumnRef') links.push([String(e.column?.columnId), String(c.column?.columnId)]);
    }
  for (const n of nodesOfKind(stmt, 'WithScan')) for (const w of n.withEntryList ?? []) withQueries.set(String(w.withQueryName), w.withSubquery);
  for (const n of nodesOfKind(stmt, 'WithRefScan')) {
    const q = withQueries.get(String(n.withQueryName));
    (n.columnList ?? []).forEach((c: Node, i: number) => {
      const from = q?.columnList?.[i];
      if (from) links.push([String(from.columnId), String(c.columnId)]);
    });
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [from, to] of links)
      if (ids.has(from) && !ids.has(to)) {
        ids.add(to);
        changed = true;
      }
  }
  return ids;
}

/** Whether a conjunct can prune partitions: it uses a partition column, no other column, no subquery. */
function prunes(conjunct: Node, partitionIds: Set<string>): boolean {
  let usesPartition = false;
  let other = false;
  walk(conjunct, (n) => {
    if (n.kind === 'SubqueryExpr') other = true;
    else if (n.kind === 'ColumnRef') {
      if (partitionIds.has(String(n.column?.columnId))) usesPartition = true;
      else other = true;
    }
  });
  return usesPartition && !other;
}

/**
 * Runs the checks of this module on a statement before it executes (dry runs included).
 * @throws BigQueryError invalidQuery: a write to a table snapshot; a scan without the required
 *   partition filter (`Cannot query over table 'p.d.t' without a filter over column(s) 'c' that
 *   can be used for partition elimination`).
 */
export function checkTableGuards(stmt: Node, tables: Map<string, TableMeta>): void {
  const target: Node | undefined = stmt.tableScan;
  if (WRITES.has(stmt.kind) && target) {
    const t = tables.get(String(target.table?.serializationId ?? ''));
    if (t && isSnapshot(t)) throw snapshotWrite(t);
  }
  let filters: Node[] | undefined;
  for (const n of nodesOfKind(stmt, 'TableScan')) {
    if (n === target && stmt.kind === 'InsertStmt') continue;
    const t = tables.get(String(n.table?.serializationId ?? ''));
    if (!t || !requiresPartitionFilter(t)) continue;
    const cols = partitionColumns(t);
    const ids = new Set<string>(
      (n.columnList ?? []).filter((c: Node) => cols.names.includes(String(c.name).toLowerCase())).map((c: Node) => String(c.columnId)),
    );
    filters ??= filterConjuncts(stmt);
    const all = ids.size ? withAliases(stmt, ids) : ids;
    if (!filters.some((f) => prunes(f, all)))
      throw BigQueryError.partitionFilterRequired(`${t.projectId}.${t.datasetId}.${t.tableId}`, cols.message);
  }
}
