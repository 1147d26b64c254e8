/**
 * The metadata store: projects (implicit), datasets and tables, kept in memory and written
 * through to the DuckDB database (table `__bqemu_meta`) so a `--data-dir` database survives a
 * restart (issue 2, deliverable 8).
 *
 * Names: dataset and table ids are case-sensitive (BigQuery). Stored tables live in DuckDB under
 * generated names (`t<n>`), because DuckDB identifiers are case-insensitive.
 */
import type { Column } from '../types/schema.js';

export interface DatasetMeta {
  projectId: string;
  datasetId: string;
  creationTime: number;
  lastModifiedTime: number;
  /** Every other REST field the client set (description, labels, friendlyName, defaultTableExpirationMs …). */
  fields: Record<string, unknown>;
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
}

/** What the store persists through (the engine's DuckDB connection). */
export interface MetaPersistence {
  save(kind: 'dataset' | 'table' | 'seq' | 'job', key: string, json: string | null): Promise<void>;
  loadAll(): Promise<{ kind: string; key: string; json: string }[]>;
}

const dkey = (p: string, d: string) => JSON.stringify([p, d]);
const tkey = (p: string, d: string, t: string) => JSON.stringify([p, d, t]);

export class CatalogStore {
  private datasets = new Map<string, DatasetMeta>();
  private tables = new Map<string, TableMeta>();
  private projects = new Set<string>();
  private seq = 0;
  /** Bumped on every schema change; part of the analysis cache key. */
  version = 0;

  constructor(private readonly persistence?: MetaPersistence) {}

  /** Loads persisted metadata (at start). */
  async load(): Promise<void> {
    if (!this.persistence) return;
    for (const r of await this.persistence.loadAll()) {
      if (r.kind === 'dataset') {
        const d = JSON.parse(r.json) as DatasetMeta;
        this.datasets.set(dkey(d.projectId, d.datasetId), d);
        this.projects.add(d.projectId);
      } else if (r.kind === 'table') {
        const t = JSON.parse(r.json) as TableMeta;
        this.tables.set(tkey(t.projectId, t.datasetId, t.tableId), t);
      } else if (r.kind === 'seq') this.seq = Number(r.json);
    }
    this.version++;
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
  async deleteDataset(projectId: string, datasetId: string): Promise<void> {
    this.datasets.delete(dkey(projectId, datasetId));
    this.version++;
    await this.persistence?.save('dataset', dkey(projectId, datasetId), null);
  }

  getTable(projectId: string, datasetId: string, tableId: string): TableMeta | undefined {
    return this.tables.get(tkey(projectId, datasetId, tableId));
  }
  listTables(projectId: string, datasetId: string): TableMeta[] {
    return [...this.tables.values()]
      .filter((t) => t.projectId === projectId && t.datasetId === datasetId)
      .sort((a, b) => (a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0));
  }
  async putTable(t: TableMeta): Promise<void> {
    this.tables.set(tkey(t.projectId, t.datasetId, t.tableId), t);
    this.version++;
    await this.persistence?.save('table', tkey(t.projectId, t.datasetId, t.tableId), JSON.stringify(t));
  }
  async deleteTable(projectId: string, datasetId: string, tableId: string): Promise<void> {
    this.tables.delete(tkey(projectId, datasetId, tableId));
    this.version++;
    await this.persistence?.save('table', tkey(projectId, datasetId, tableId), null);
  }

  /** A fresh DuckDB table name. */
  async newDuckName(): Promise<string> {
    const n = ++this.seq;
    await this.persistence?.save('seq', 'seq', String(n));
    return `t${n}`;
  }
}
