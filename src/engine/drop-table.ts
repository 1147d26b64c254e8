/**
 * Dropping a stored table or view: its DuckDB data, its catalog metadata and its time-travel
 * history. Used by DROP TABLE / DROP VIEW (ddl.ts), table expiration (expiration.ts) and the end of
 * a session or script's TEMP tables (src/jobs/sessions.ts).
 */
import type { TableMeta } from '../catalog/store.js';
import type { Engine } from './engine-types.js';
import { dropHistory } from './history.js';
import { ident } from './lower/context.js';

/** Drops a stored table or view's data and metadata. */
export async function dropTableObject(e: Engine, t: TableMeta): Promise<void> {
  // Data and metadata in one transaction (a crash never leaves a listed table without its data).
  if (t.type === 'TABLE' && t.duckName) await e.catalog.deleteTableWith(t.projectId, t.datasetId, t.tableId, [`DROP TABLE IF EXISTS ${ident(t.duckName)}`]);
  else await e.catalog.deleteTable(t.projectId, t.datasetId, t.tableId);
  await dropHistory(e, t);
}
