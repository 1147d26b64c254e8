/**
 * Deleted datasets kept for undelete: datasets.undelete and UNDROP SCHEMA [IF NOT EXISTS]
 * (https://cloud.google.com/bigquery/docs/restore-deleted-datasets,
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/datasets/undelete).
 *
 * A dataset deleted (DROP SCHEMA, datasets.delete) is kept with its tables (their DuckDB data under
 * their private names), views, routines, row access policies and IAM policies for its time-travel
 * window (`maxTimeTravelHours`, 48–168, default 168; src/engine/history.ts `windowMs`), persisted
 * with `--data-dir` (src/catalog/store.ts DroppedDataset). Undelete restores the most recently
 * deleted version; a dataset of that id that exists again is 409 `Already Exists: Dataset p:d`, and
 * nothing to restore is 404 `Not found: Dataset p:d`. Kept datasets past their window, and older
 * deletions of an id deleted again, are purged (their data dropped) when a dataset is deleted or
 * undeleted, and past MAX_KEPT_DELETED_DATASETS (src/config/limits.ts) the oldest deletions. Time-travel versions of the tables are not kept (the restored tables hold the rows they
 * had when the dataset was deleted).
 */
import type { DatasetMeta, DroppedDataset, TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Engine, QueryOptions, StatementHandlers, StatementResult } from './engine-types.js';
import { ident } from './lower/context.js';
import { MAX_KEPT_DELETED_DATASETS } from '../config/limits.js';

/** The DuckDB statements dropping a kept dataset's table data. */
function dataDrops(d: DroppedDataset): string[] {
  return d.rows.flatMap((r) => {
    if (r.kind !== 'table' || !r.json) return [];
    const t = JSON.parse(r.json) as TableMeta;
    return t.type === 'TABLE' && t.duckName ? [`DROP TABLE IF EXISTS ${ident(t.duckName)}`] : [];
  });
}

/**
 * Purges kept datasets whose window has passed, and (with `superseded`) the deletions of that
 * dataset id older than `superseded.before`: only the most recent deletion can be undeleted.
 */
export async function purgeDroppedDatasets(e: Engine, superseded?: { projectId: string; datasetId: string; before: number }): Promise<void> {
  const now = Date.now();
  const kept: DroppedDataset[] = [];
  for (const d of e.catalog.listDroppedDatasets()) {
    const old = superseded && d.projectId === superseded.projectId && d.datasetId === superseded.datasetId && d.deletionTime < superseded.before;
    if (d.retainUntil <= now || old) await e.catalog.endDroppedDataset(d, dataDrops(d), false);
    else kept.push(d);
  }
  // At most MAX_KEPT_DELETED_DATASETS kept: the oldest deletions go first (src/config/limits.ts).
  kept.sort((a, b) => a.deletionTime - b.deletionTime);
  for (const d of kept.slice(0, Math.max(0, kept.length - MAX_KEPT_DELETED_DATASETS))) await e.catalog.endDroppedDataset(d, dataDrops(d), false);
}

/**
 * Restores the most recently deleted version of `projectId:datasetId` still within its window.
 * @returns the restored dataset.
 * @throws BigQueryError 409 `Already Exists: Dataset p:d` when the dataset exists;
 *   404 `Not found: Dataset p:d` when no deletion of it is kept.
 */
export async function undeleteDataset(e: Engine, projectId: string, datasetId: string): Promise<DatasetMeta> {
  await e.catalog.endDroppedDataset(await undeletable(e, projectId, datasetId), [], true);
  return e.catalog.getDataset(projectId, datasetId)!;
}

/** The kept deletion undelete would restore, or its 409 / 404 (see undeleteDataset). */
async function undeletable(e: Engine, projectId: string, datasetId: string): Promise<DroppedDataset> {
  await purgeDroppedDatasets(e);
  if (e.catalog.getDataset(projectId, datasetId)) throw BigQueryError.alreadyExists('Dataset', `${projectId}:${datasetId}`);
  const kept = e.catalog.listDroppedDatasets().filter((d) => d.projectId === projectId && d.datasetId === datasetId).pop();
  if (!kept) throw BigQueryError.datasetNotFound(projectId, datasetId, false);
  return kept;
}

/** UNDROP SCHEMA [IF NOT EXISTS] [project.]dataset: IF NOT EXISTS skips a dataset that exists. */
async function undropStmt(e: Engine, stmt: { namePath?: string[]; isIfNotExists?: boolean; schemaObjectKind?: string }, opts: QueryOptions): Promise<StatementResult> {
  const parts = (stmt.namePath ?? []).flatMap((s) => s.split('.'));
  const r = parts.length === 1 ? { projectId: opts.projectId, datasetId: parts[0] } : { projectId: parts[0], datasetId: parts[1] };
  const base = { statementType: 'UNDROP_SCHEMA', ddlTargetDataset: r };
  if (stmt.isIfNotExists && e.catalog.getDataset(r.projectId, r.datasetId)) return { ...base, ddlOperationPerformed: 'SKIP' };
  if (opts.dryRun) await undeletable(e, r.projectId, r.datasetId);
  else await undeleteDataset(e, r.projectId, r.datasetId);
  return { ...base, ddlOperationPerformed: 'CREATE' };
}

/** The UNDROP statement handler (spread into HANDLERS, src/engine/statements.ts). */
export const UNDROP = {
  UndropStmt: async (e, stmt, _ctx, opts) => {
    if (stmt.forSystemTimeExpr) throw BigQueryError.notSupported('UNDROP SCHEMA … FOR SYSTEM_TIME AS OF');
    return undropStmt(e, stmt, opts);
  },
} satisfies StatementHandlers;
