/**
 * Row-level security: which row access policies grant the caller, the filtered
 * relation of a table with policies, and the DDL statements CREATE [OR REPLACE] ROW ACCESS POLICY
 * [IF NOT EXISTS] and DROP [ALL] ROW ACCESS POLICY/POLICIES.
 *
 * BigQuery's rule: on a table with row access policies a caller sees the union of the rows of the
 * policies whose grantees include them (directly, through a group, their domain, `allUsers` or
 * `allAuthenticatedUsers`); a table with policies of which none grants the caller reads as empty.
 * Non-query operations — DML that reads its target, tabledata.list — need a `TRUE` filter granted
 * to the caller (checkFullAccess); INSERT is not filtered.
 */
import type { Node } from '../analyzer/ast.js';
import type { RowAccessPolicyMeta, TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Engine, QueryOptions, StatementResult } from './engine-types.js';
import { resolveTablePath, type NameDefaults } from './names.js';
import { isIngestionPartitioned } from './partitioning.js';

/** The identity a statement runs as: an IAM member string and the groups it belongs to. */
export interface Caller {
  principal: string;
  groups: string[];
}

/** The emulator's own principal: the caller of requests without identity headers. */
export const DEFAULT_PRINCIPAL = 'user:bqemu@localhost';

/**
 * The caller in effect: the explicit one (resolved from the request by src/server/rest/context.ts
 * `callerFromHeaders` and passed down in options), else the default principal.
 */
export function effectiveCaller(explicit?: Caller): Caller {
  return explicit ?? { principal: DEFAULT_PRINCIPAL, groups: [] };
}

/** Whether a policy's grantee list includes the caller. IAM member emails compare case-insensitively. */
export function grants(grantees: string[], caller: Caller): boolean {
  const lc = (s: string) => s.trim().toLowerCase();
  const principal = lc(caller.principal);
  const groups = new Set(caller.groups.map(lc));
  const domain = principal.includes('@') ? principal.slice(principal.lastIndexOf('@') + 1) : undefined;
  return grantees.some((g0) => {
    const g = lc(g0);
    if (g === 'allusers' || g === 'allauthenticatedusers') return true;
    if (g === principal || groups.has(g)) return true;
    return g.startsWith('domain:') && g.slice(7) === domain;
  });
}

const GRANTEE = /^(allUsers|allAuthenticatedUsers|(user|group|serviceAccount|domain|principal|principalSet):\S+)$/;

/** Checks grantee strings. @throws BigQueryError invalid */
export function checkGrantees(grantees: unknown): string[] {
  if (!Array.isArray(grantees)) throw BigQueryError.granteesNotList();
  for (const g of grantees)
    if (typeof g !== 'string' || !GRANTEE.test(g.trim())) throw BigQueryError.invalidGrantee(String(g));
  return grantees.map((g: string) => g.trim());
}

const POLICY_ID = /^[A-Za-z0-9_]{1,256}$/;

/** Checks a policy id. @throws BigQueryError invalid */
export function checkPolicyId(id: unknown): string {
  if (typeof id !== 'string' || !id) throw BigQueryError.requiredParameterMissing('rowAccessPolicyReference.policyId');
  if (!POLICY_ID.test(id))
    throw BigQueryError.invalidRowAccessPolicyId(id);
  return id;
}

const bq = (s: string) => '`' + s.replace(/\\/g, '\\\\').replace(/`/g, '\\`') + '`';

/** The GoogleSQL query whose rows a set of filter predicates leaves visible. */
export function filterQuery(t: TableMeta, predicates: string[]): string {
  const pseudo = isIngestionPartitioned(t) ? ', _PARTITIONTIME, _PARTITIONDATE' : '';
  const where = predicates.map((p) => `(${p})`).join(' OR ');
  return `SELECT *${pseudo} FROM ${bq(t.projectId)}.${bq(t.datasetId)}.${bq(t.tableId)} WHERE ${where}`;
}

/**
 * Analyzes a filter predicate against its table (REST insert/update validate with it).
 * @throws BigQueryError invalidQuery when the predicate does not analyze or is not BOOL.
 */
export async function checkPredicate(e: Engine, t: TableMeta, predicate: unknown): Promise<string> {
  if (typeof predicate !== 'string' || !predicate.trim()) throw BigQueryError.requiredParameterMissing('filterPredicate');
  await e.statements.analyze(filterQuery(t, [predicate]), 0, { projectId: t.projectId, defaultDataset: { projectId: t.projectId, datasetId: t.datasetId } }, {});
  return predicate;
}

/** Whether one of the caller's granted policies is the `TRUE` filter (full access to the rows). */
function hasTrueFilter(policies: RowAccessPolicyMeta[], caller: Caller): boolean {
  return policies.some((p) => grants(p.grantees, caller) && /^\(*\s*true\s*\)*$/i.test(p.filterPredicate.trim()));
}

const READING_DML: Record<string, string> = { UpdateStmt: 'UPDATE', DeleteStmt: 'DELETE', MergeStmt: 'MERGE', TruncateStmt: 'TRUNCATE TABLE' };

/**
 * DML that reads its target (UPDATE, DELETE, MERGE, TRUNCATE) on a table with row access policies
 * needs the `TRUE` filter (BigQuery "Use row-level security with other BigQuery features": "When
 * you use a DML operation on a table protected by row access policies, you must use a TRUE filter
 * which implies access to the whole table"). INSERT does not read the table and is allowed.
 * @throws BigQueryError accessDenied (403) when the caller is granted no TRUE filter.
 */
export function checkDmlAccess(e: Engine, stmt: Node, tables: Map<string, TableMeta>, caller: Caller | undefined): void {
  const what = READING_DML[stmt.kind];
  if (!what) return;
  const t = tables.get(String(stmt.tableScan?.table?.serializationId ?? ''));
  if (t?.type === 'TABLE') checkFullAccess(e, t, caller, what);
}

/**
 * A non-query operation on a table with row access policies (DML that reads it, tabledata.list —
 * what `bq head` calls) needs full access: a `TRUE` filter granted to the caller (BigQuery "Use
 * row-level security with other BigQuery features": "To run non-query operations, such as DML,
 * you need full access to all rows in the table … Some bq command-line tool commands, such as the
 * bq head command").
 * @throws BigQueryError accessDenied (403) when the table has policies and none is a TRUE filter
 *   granted to the caller.
 */
export function checkFullAccess(e: Engine, t: TableMeta, caller: Caller | undefined, what: string): void {
  const policies = e.catalog.listRowAccessPolicies(t.projectId, t.datasetId, t.tableId);
  if (!policies.length || hasTrueFilter(policies, effectiveCaller(caller))) return;
  throw BigQueryError.rowAccessFullAccessRequired(`${t.projectId}:${t.datasetId}.${t.tableId}`, what);
}

function policyTable(e: Engine, segs: string[], opts: NameDefaults): TableMeta {
  const ref = resolveTablePath(segs, opts);
  if (!e.catalog.getDataset(ref.projectId, ref.datasetId)) throw BigQueryError.datasetNotFound(ref.projectId, ref.datasetId, true);
  const t = e.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId);
  if (!t) throw BigQueryError.tableNotFound(ref.projectId, ref.datasetId, ref.tableId, true);
  return t;
}

const tableName = (t: TableMeta) => `${t.projectId}.${t.datasetId}.${t.tableId}`;

async function createPolicy(e: Engine, stmt: Node, _ctx: unknown, opts: QueryOptions): Promise<StatementResult> {
  const t = policyTable(e, stmt.targetNamePath as string[], opts);
  if (t.type !== 'TABLE') throw BigQueryError.rowAccessPolicyOnView(tableName(t));
  const policyId = checkPolicyId(String(stmt.name));
  const grantees = checkGrantees(((stmt.granteeExprList ?? []) as Node[]).map((g) => String(g.value?.value?.stringValue ?? '')));
  const ref = { projectId: t.projectId, datasetId: t.datasetId, tableId: t.tableId };
  const base: StatementResult = { statementType: 'CREATE_ROW_ACCESS_POLICY', ddlTargetTable: ref };
  const old = e.catalog.getRowAccessPolicy(t.projectId, t.datasetId, t.tableId, policyId);
  if (old && stmt.createMode === 'CREATE_IF_NOT_EXISTS') return { ...base, ddlOperationPerformed: 'SKIP' };
  if (old && stmt.createMode !== 'CREATE_OR_REPLACE') throw BigQueryError.rowAccessPolicyAlreadyExists(policyId, tableName(t));
  if (opts.dryRun) return base;
  const now = Date.now();
  await e.catalog.putRowAccessPolicy({
    ...ref,
    policyId,
    filterPredicate: String(stmt.predicateStr ?? ''),
    grantees,
    creationTime: old?.creationTime ?? now,
    lastModifiedTime: now,
  } satisfies RowAccessPolicyMeta);
  return { ...base, ddlOperationPerformed: old ? 'REPLACE' : 'CREATE' };
}

async function dropPolicy(e: Engine, stmt: Node, _ctx: unknown, opts: QueryOptions): Promise<StatementResult> {
  const t = policyTable(e, stmt.targetNamePath as string[], opts);
  const ref = { projectId: t.projectId, datasetId: t.datasetId, tableId: t.tableId };
  if (stmt.isDropAll) {
    const all = e.catalog.listRowAccessPolicies(t.projectId, t.datasetId, t.tableId);
    if (!opts.dryRun) for (const p of all) await e.catalog.deleteRowAccessPolicy(p.projectId, p.datasetId, p.tableId, p.policyId);
    return { statementType: 'DROP_ALL_ROW_ACCESS_POLICIES', ddlTargetTable: ref, ddlOperationPerformed: 'DROP' };
  }
  const policyId = String(stmt.name);
  const base: StatementResult = { statementType: 'DROP_ROW_ACCESS_POLICY', ddlTargetTable: ref };
  if (!e.catalog.getRowAccessPolicy(t.projectId, t.datasetId, t.tableId, policyId)) {
    if (stmt.isIfExists) return { ...base, ddlOperationPerformed: 'SKIP' };
    throw BigQueryError.rowAccessPolicyNotFound(policyId, tableName(t));
  }
  if (!opts.dryRun) await e.catalog.deleteRowAccessPolicy(t.projectId, t.datasetId, t.tableId, policyId);
  return { ...base, ddlOperationPerformed: 'DROP' };
}

/** Statement handlers (merged into statements.ts HANDLERS). */
export const ROW_ACCESS = {
  CreateRowAccessPolicyStmt: createPolicy,
  DropRowAccessPolicyStmt: dropPolicy,
};
