/**
 * The metadata store: projects (implicit), datasets and tables, kept in memory and written
 * through to the DuckDB database (table `__bqemu_meta`) so a `--data-dir` database survives a
 * restart.
 *
 * Names: dataset and table ids are case-sensitive (BigQuery). Stored tables live in DuckDB under
 * generated names (`t<n>`), because DuckDB identifiers are case-insensitive.
 */
import type { Column } from '../types/schema.js';
import { DEFAULT_LOCATION } from '../types/locations.js';
import type { BqType } from '../types/types.js';
import { iamKey, type IamPolicyMeta, type IamResource } from './iam-policies.js';

export interface DatasetMeta {
  projectId: string;
  datasetId: string;
  creationTime: number;
  lastModifiedTime: number;
  /** Where the dataset lives (`US`, `EU`, `asia-northeast1` …; src/types/locations.ts); absent = US. */
  location?: string;
  /** Every other REST field the client set (description, labels, friendlyName, defaultTableExpirationMs …). */
  fields: Record<string, unknown>;
}

/** The location of a dataset (BigQuery's default, US, when it was created without one). */
export function datasetLocation(d: DatasetMeta | undefined): string {
  return d?.location ?? DEFAULT_LOCATION;
}

export interface TableMeta {
  projectId: string;
  datasetId: string;
  tableId: string;
  type: 'TABLE' | 'VIEW';
  /** The DuckDB table name (tables only). */
  duckName: string;
  columns: Column[];
  /** GoogleSQL text of a view. */
  viewQuery?: string;
  creationTime: number;
  lastModifiedTime: number;
  /** Every other REST field the client set (description, labels, expirationTime, timePartitioning …). */
  fields: Record<string, unknown>;
  /** A wildcard table's members (never stored; built per statement by the analyzer bridge). */
  wildcard?: { table: TableMeta; suffix: string }[];
  /** An INFORMATION_SCHEMA view (never stored; bound per statement, src/engine/information-schema.ts). */
  infoSchema?: { view: string; projectId: string; datasetId?: string };
}

/** An argument of a routine (REST `Argument`): no `dataType` means ANY TYPE. */
export interface RoutineArgument {
  name: string;
  dataType?: BqType;
  /** Procedures: IN (default), OUT, INOUT. */
  mode?: 'IN' | 'OUT' | 'INOUT';
  /** Aggregate functions: false for a `NOT AGGREGATE` parameter (REST `Argument.isAggregate`). */
  isAggregate?: boolean;
}

/** A routine (REST `Routine`): scalar or aggregate function, procedure or table-valued function. */
export interface RoutineMeta {
  projectId: string;
  datasetId: string;
  routineId: string;
  routineType: 'SCALAR_FUNCTION' | 'AGGREGATE_FUNCTION' | 'PROCEDURE' | 'TABLE_VALUED_FUNCTION';
  language: 'SQL' | 'JAVASCRIPT';
  arguments: RoutineArgument[];
  /** Declared return type (absent: inferred at each call). */
  returnType?: BqType;
  /** Table-valued functions: the output columns. */
  returnTableType?: { name: string; type: BqType }[];
  definitionBody: string;
  creationTime: number;
  lastModifiedTime: number;
  /** Other REST fields (description, importedLibraries, determinismLevel …). */
  fields: Record<string, unknown>;
}

/** A row access policy (REST `RowAccessPolicy`; DDL CREATE ROW ACCESS POLICY). */
export interface RowAccessPolicyMeta {
  projectId: string;
  datasetId: string;
  tableId: string;
  policyId: string;
  /** GoogleSQL boolean expression over the table's columns. */
  filterPredicate: string;
  /** IAM members the policy grants (`user:…`, `group:…`, `domain:…`, `allUsers` …). */
  grantees: string[];
  creationTime: number;
  lastModifiedTime: number;
}

/** Kinds of persisted metadata rows. */
export type MetaKind = 'dataset' | 'table' | 'seq' | 'job' | 'routine' | 'rowAccessPolicy' | 'iamPolicy' | 'droppedDataset';

/**
 * A deleted dataset kept for datasets.undelete / UNDROP SCHEMA until `retainUntil` (ms): the
 * metadata rows it had (dataset, tables, routines, row access policies, IAM policies) as they were
 * stored; its tables' DuckDB data stays under their private names until it is restored or purged.
 */
export interface DroppedDataset {
  projectId: string;
  datasetId: string;
  /** When it was deleted (ms since the epoch). */
  deletionTime: number;
  retainUntil: number;
  rows: MetaChange[];
}

/** One metadata row to store (json) or remove (null). */
export interface MetaChange {
  kind: MetaKind;
  key: string;
  json: string | null;
}

/** What the store persists through (the engine's DuckDB connection). */
export interface MetaPersistence {
  save(kind: MetaKind, key: string, json: string | null): Promise<void>;
  /**
   * Runs the DuckDB `statements` (a table's data: CREATE, DROP, ALTER) and the metadata `changes`
   * in one transaction, all or nothing; resolves with the statements' changed-row counts.
   */
  saveWith(statements: string[], changes: MetaChange[]): Promise<number[]>;
  loadAll(): Promise<{ kind: string; key: string; json: string }[]>;
}

const dkey = (p: string, d: string) => JSON.stringify([p, d]);
const tkey = (p: string, d: string, t: string) => JSON.stringify([p, d, t]);
const pkey = (p: string, d: string, t: string, id: string) => JSON.stringify([p, d, t, id]);

export class CatalogStore {
  private datasets = new Map<string, DatasetMeta>();
  private tables = new Map<string, TableMeta>();
  private routines = new Map<string, RoutineMeta>();
  private policies = new Map<string, RowAccessPolicyMeta>();
  /** IAM policies of tables, views and routines (src/catalog/iam-policies.ts), by iamKey. */
  private iam = new Map<string, IamPolicyMeta>();
  /** Deleted datasets kept for undelete, by JSON [project, dataset, deletionTime]. */
  private dropped = new Map<string, DroppedDataset>();
  private projects = new Set<string>();
  private seq = 0;
  private versionNumber = 0;
  /** The earliest `expirationTime` among the tables (ms), or Infinity. */
  private nextExpiry = Infinity;

  /**
   * Bumped on every schema change, and when a table expires (checked on every read, so an expired
   * table never survives in the analysis cache); part of the analysis cache key.
   */
  get version(): number {
    if (Date.now() >= this.nextExpiry) this.sweepExpired();
    return this.versionNumber;
  }
  set version(v: number) {
    this.versionNumber = v;
  }

  constructor(private readonly persistence?: MetaPersistence) {}

  /** Loads persisted metadata (at start). */
  async load(): Promise<void> {
    if (!this.persistence) return;
    for (const r of await this.persistence.loadAll()) this.applyRow(r as MetaChange);
    this.version++;
  }

  /** Applies one metadata row (stored `json`, or null: removed) to the maps, under its store key. */
  private applyRow({ kind, key, json }: MetaChange): void {
    const maps: Partial<Record<MetaKind, Map<string, unknown>>> = {
      dataset: this.datasets, table: this.tables, routine: this.routines, rowAccessPolicy: this.policies, iamPolicy: this.iam, droppedDataset: this.dropped,
    };
    if (kind === 'seq') this.seq = Math.max(this.seq, Number(json));
    const m = maps[kind];
    if (!m) return;
    if (json === null) m.delete(key);
    else {
      const v = JSON.parse(json) as { projectId?: string };
      m.set(key, v);
      if (kind === 'dataset') this.projects.add(String(v.projectId));
      if (kind === 'table') this.noteExpiry(v as TableMeta);
    }
  }
  /** Records a project id seen in a URL (projects are implicit). */
  touchProject(projectId: string): void {
    this.projects.add(projectId);
  }
  listProjects(): string[] {
    return [...this.projects].sort();
  }

  getDataset(projectId: string, datasetId: string): DatasetMeta | undefined {
    return this.datasets.get(dkey(projectId, datasetId));
  }
  listDatasets(projectId: string): DatasetMeta[] {
    return [...this.datasets.values()].filter((d) => d.projectId === projectId).sort((a, b) => a.datasetId.localeCompare(b.datasetId));
  }
  async putDataset(d: DatasetMeta): Promise<void> {
    this.datasets.set(dkey(d.projectId, d.datasetId), d);
    this.projects.add(d.projectId);
    this.version++;
    await this.persistence?.save('dataset', dkey(d.projectId, d.datasetId), JSON.stringify(d));
  }
  /**
   * Removes a dataset with its tables, routines and row access policies, together with the DuckDB
   * `statements` that drop the tables' data, in one transaction (DROP SCHEMA … CASCADE,
   * datasets.delete with deleteContents): a crash leaves the whole dataset or nothing of it.
   * `keep`: the dataset is kept as a DroppedDataset until `retainUntil` (in the same transaction).
   * @returns the tables removed.
   */
  async deleteDatasetWith(projectId: string, datasetId: string, statements: string[], keep?: { deletionTime: number; retainUntil: number }): Promise<TableMeta[]> {
    const inDataset = <T extends { projectId: string; datasetId: string }>(x: T) => x.projectId === projectId && x.datasetId === datasetId;
    const tables = [...this.tables.entries()].filter(([, t]) => inDataset(t));
    const routines = [...this.routines.entries()].filter(([, r]) => inDataset(r));
    const policies = [...this.policies.entries()].filter(([, p]) => inDataset(p));
    const iam = [...this.iam.entries()].filter(([, p]) => p.resource.path[0] === projectId && p.resource.path[1] === datasetId);
    const changes: MetaChange[] = [
      ...tables.map(([key]) => ({ kind: 'table' as const, key, json: null })),
      ...routines.map(([key]) => ({ kind: 'routine' as const, key, json: null })),
      ...policies.map(([key]) => ({ kind: 'rowAccessPolicy' as const, key, json: null })),
      ...iam.map(([key]) => ({ kind: 'iamPolicy' as const, key, json: null })),
      { kind: 'dataset', key: dkey(projectId, datasetId), json: null },
    ];
    if (keep) {
      const dropped: DroppedDataset = { projectId, datasetId, ...keep, rows: changes.map((c) => ({ ...c, json: JSON.stringify(this.rowValue(c.kind, c.key)) })) };
      changes.push({ kind: 'droppedDataset', key: JSON.stringify([projectId, datasetId, keep.deletionTime]), json: JSON.stringify(dropped) });
    }
    await this.persistence?.saveWith(statements, changes);
    for (const c of changes) if (c.kind === 'droppedDataset') this.applyRow(c);
    for (const [key] of tables) this.tables.delete(key);
    for (const [key] of routines) this.routines.delete(key);
    for (const [key] of policies) this.policies.delete(key);
    for (const [key] of iam) this.iam.delete(key);
    this.datasets.delete(dkey(projectId, datasetId));
    this.version++;
    return tables.map(([, t]) => t);
  }
  private rowValue(kind: MetaKind, key: string): unknown {
    const m = { dataset: this.datasets, table: this.tables, routine: this.routines, rowAccessPolicy: this.policies, iamPolicy: this.iam }[kind as 'dataset'];
    return (m as Map<string, unknown>).get(key);
  }

  /** The deleted datasets kept for undelete, oldest deletion first. */
  listDroppedDatasets(): DroppedDataset[] {
    return [...this.dropped.values()].sort((a, b) => a.deletionTime - b.deletionTime);
  }
  /**
   * Ends a kept deleted dataset, in one transaction with the DuckDB `statements` (dropping its
   * tables' data when it is purged); `restore` puts its rows back first (datasets.undelete).
   */
  async endDroppedDataset(d: DroppedDataset, statements: string[], restore: boolean): Promise<void> {
    const changes: MetaChange[] = [...(restore ? d.rows : []), { kind: 'droppedDataset', key: JSON.stringify([d.projectId, d.datasetId, d.deletionTime]), json: null }];
    await this.persistence?.saveWith(statements, changes);
    for (const c of changes) this.applyRow(c);
    this.version++;
  }
  async deleteDataset(projectId: string, datasetId: string): Promise<void> {
    this.datasets.delete(dkey(projectId, datasetId));
    this.version++;
    await this.persistence?.save('dataset', dkey(projectId, datasetId), null);
  }

  /**
   * Called with a table whose `expirationTime` has passed when it is found (BigQuery deletes an
   * expired table; the engine drops its data, src/engine/expiration.ts).
   */
  onExpire?: (t: TableMeta) => void;

  /** A table past its `expirationTime` (ms since the epoch) leaves the catalog on access. */
  private expired(t: TableMeta): boolean {
    const at = t.fields.expirationTime;
    if (at === undefined || at === null) return false;
    const ms = Number(at);
    if (!Number.isFinite(ms) || ms > Date.now()) return false;
    this.tables.delete(tkey(t.projectId, t.datasetId, t.tableId));
    this.versionNumber++;
    this.onExpire?.(t);
    return true;
  }

  private noteExpiry(t: TableMeta): void {
    const ms = Number(t.fields.expirationTime);
    if (t.fields.expirationTime != null && Number.isFinite(ms)) this.nextExpiry = Math.min(this.nextExpiry, ms);
  }

  /** Removes every expired table and recomputes the next expiry. */
  private sweepExpired(): void {
    this.nextExpiry = Infinity;
    for (const t of [...this.tables.values()]) if (!this.expired(t)) this.noteExpiry(t);
  }

  getTable(projectId: string, datasetId: string, tableId: string): TableMeta | undefined {
    const t = this.tables.get(tkey(projectId, datasetId, tableId));
    return t && this.expired(t) ? undefined : t;
  }
  listTables(projectId: string, datasetId: string): TableMeta[] {
    return [...this.tables.values()]
      .filter((t) => t.projectId === projectId && t.datasetId === datasetId && !this.expired(t))
      .sort((a, b) => (a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0));
  }
  async putTable(t: TableMeta): Promise<void> {
    this.tables.set(tkey(t.projectId, t.datasetId, t.tableId), t);
    this.noteExpiry(t);
    this.version++;
    await this.persistence?.save('table', tkey(t.projectId, t.datasetId, t.tableId), JSON.stringify(t));
  }
  /**
   * Stores `t` together with the DuckDB `statements` that shape its data (CREATE … AS, DROP of a
   * replaced table, ALTER), in one transaction: a crash leaves both or neither, never metadata
   * that does not match the data. `renamedFrom`: the table's previous name, removed in the same
   * transaction (its row access policies are removed after). Readers see `t` once it is stored.
   */
  async putTableWith(t: TableMeta, statements: string[], renamedFrom?: { projectId: string; datasetId: string; tableId: string }): Promise<void> {
    const key = tkey(t.projectId, t.datasetId, t.tableId);
    const old = renamedFrom && tkey(renamedFrom.projectId, renamedFrom.datasetId, renamedFrom.tableId);
    const changes: MetaChange[] = [...(old ? [{ kind: 'table' as const, key: old, json: null }] : []), { kind: 'table', key, json: JSON.stringify(t) }];
    await this.persistence?.saveWith(statements, changes);
    if (old) this.tables.delete(old);
    this.tables.set(key, t);
    this.noteExpiry(t);
    this.version++;
    if (renamedFrom) {
      for (const p of this.listRowAccessPolicies(renamedFrom.projectId, renamedFrom.datasetId, renamedFrom.tableId)) await this.deleteRowAccessPolicy(p.projectId, p.datasetId, p.tableId, p.policyId);
      await this.deleteIamPolicy({ type: 'table', path: [renamedFrom.projectId, renamedFrom.datasetId, renamedFrom.tableId] });
    }
  }
  /**
   * Removes a table's metadata together with the DuckDB `statements` that drop its data, in one
   * transaction (see {@link putTableWith}); its row access policies are removed after.
   */
  async deleteTableWith(projectId: string, datasetId: string, tableId: string, statements: string[]): Promise<void> {
    const key = tkey(projectId, datasetId, tableId);
    await this.persistence?.saveWith(statements, [{ kind: 'table', key, json: null }]);
    this.tables.delete(key);
    this.version++;
    for (const p of this.listRowAccessPolicies(projectId, datasetId, tableId)) await this.deleteRowAccessPolicy(projectId, datasetId, tableId, p.policyId);
    await this.deleteIamPolicy({ type: 'table', path: [projectId, datasetId, tableId] });
  }
  async deleteTable(projectId: string, datasetId: string, tableId: string): Promise<void> {
    this.tables.delete(tkey(projectId, datasetId, tableId));
    this.version++;
    await this.persistence?.save('table', tkey(projectId, datasetId, tableId), null);
    // A table's row access policies and IAM policy go with it.
    for (const p of this.listRowAccessPolicies(projectId, datasetId, tableId)) await this.deleteRowAccessPolicy(projectId, datasetId, tableId, p.policyId);
    await this.deleteIamPolicy({ type: 'table', path: [projectId, datasetId, tableId] });
  }

  /** A table's row access policies, by policy id. */
  listRowAccessPolicies(projectId: string, datasetId: string, tableId: string): RowAccessPolicyMeta[] {
    if (!this.policies.size) return [];
    return [...this.policies.values()]
      .filter((p) => p.projectId === projectId && p.datasetId === datasetId && p.tableId === tableId)
      .sort((a, b) => (a.policyId < b.policyId ? -1 : a.policyId > b.policyId ? 1 : 0));
  }
  /** Policy ids are case-sensitive. */
  getRowAccessPolicy(projectId: string, datasetId: string, tableId: string, policyId: string): RowAccessPolicyMeta | undefined {
    return this.policies.get(pkey(projectId, datasetId, tableId, policyId));
  }
  async putRowAccessPolicy(p: RowAccessPolicyMeta): Promise<void> {
    const k = pkey(p.projectId, p.datasetId, p.tableId, p.policyId);
    this.policies.set(k, p);
    await this.persistence?.save('rowAccessPolicy', k, JSON.stringify(p));
  }
  async deleteRowAccessPolicy(projectId: string, datasetId: string, tableId: string, policyId: string): Promise<void> {
    const k = pkey(projectId, datasetId, tableId, policyId);
    this.policies.delete(k);
    await this.persistence?.save('rowAccessPolicy', k, null);
  }

  /** Routine ids are case-insensitive in BigQuery name resolution; the stored id keeps its case. */
  getRoutine(projectId: string, datasetId: string, routineId: string): RoutineMeta | undefined {
    return this.routines.get(tkey(projectId, datasetId, routineId)) ??
      [...this.routines.values()].find((r) => r.projectId === projectId && r.datasetId === datasetId && r.routineId.toLowerCase() === routineId.toLowerCase());
  }
  listRoutines(projectId: string, datasetId: string): RoutineMeta[] {
    return [...this.routines.values()]
      .filter((t) => t.projectId === projectId && t.datasetId === datasetId)
      .sort((a, b) => (a.routineId < b.routineId ? -1 : a.routineId > b.routineId ? 1 : 0));
  }
  async putRoutine(r: RoutineMeta): Promise<void> {
    const old = this.getRoutine(r.projectId, r.datasetId, r.routineId);
    if (old && old.routineId !== r.routineId) await this.deleteRoutine(old.projectId, old.datasetId, old.routineId);
    this.routines.set(tkey(r.projectId, r.datasetId, r.routineId), r);
    this.version++;
    await this.persistence?.save('routine', tkey(r.projectId, r.datasetId, r.routineId), JSON.stringify(r));
  }
  async deleteRoutine(projectId: string, datasetId: string, routineId: string): Promise<void> {
    this.routines.delete(tkey(projectId, datasetId, routineId));
    this.version++;
    await this.persistence?.save('routine', tkey(projectId, datasetId, routineId), null);
    await this.deleteIamPolicy({ type: 'routine', path: [projectId, datasetId, routineId] });
  }

  /**
   * The IAM policy set on a resource, if any. A policy is stored with its resource's creation time
   * and answers only for that resource: one left by an expired table is not the policy of a new
   * table of the same name.
   */
  getIamPolicy(r: IamResource, resourceCreationTime: number): IamPolicyMeta | undefined {
    const p = this.iam.get(iamKey(r));
    return p && p.resourceCreationTime === resourceCreationTime ? p : undefined;
  }
  async putIamPolicy(p: IamPolicyMeta): Promise<void> {
    this.iam.set(iamKey(p.resource), p);
    await this.persistence?.save('iamPolicy', iamKey(p.resource), JSON.stringify(p));
  }
  async deleteIamPolicy(r: IamResource): Promise<void> {
    const k = iamKey(r);
    if (!this.iam.delete(k)) return;
    await this.persistence?.save('iamPolicy', k, null);
  }

  /** A fresh DuckDB table name. */
  async newDuckName(): Promise<string> {
    const n = ++this.seq;
    await this.persistence?.save('seq', 'seq', String(n));
    return `t${n}`;
  }
}
