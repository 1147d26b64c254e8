/**
 * The INFORMATION_SCHEMA views' columns and their binding (BigQuery "Introduction to
 * INFORMATION_SCHEMA"): reading a path as written (`infoSchemaScope`) and the synthetic table the
 * analyzer binds for it (`infoSchemaTable`). The rows are computed by information-schema.ts when a
 * statement runs.
 */
import type { CatalogStore, TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Column } from '../types/schema.js';
import { scalar, type BqType } from '../types/types.js';
import type { NameDefaults } from './names.js';
import type { InfoSchemaScope } from './information-schema-scope.js';
import { ROUTINE_VIEWS } from './information-schema-routines.js';
import { JOB_VIEWS, checkJobViewScope } from './information-schema-jobs.js';

const S = scalar('STRING');
const I = scalar('INT64');
const TS = scalar('TIMESTAMP');
const B = scalar('BOOL');

export type ColSpec = [string, BqType];

const TABLE_VIEWS: Record<string, ColSpec[]> = {
  SCHEMATA: [
    ['catalog_name', S], ['schema_name', S], ['schema_owner', S], ['creation_time', TS], ['last_modified_time', TS],
    ['location', S], ['ddl', S], ['default_collation_name', S],
  ],
  SCHEMATA_OPTIONS: [['catalog_name', S], ['schema_name', S], ['option_name', S], ['option_type', S], ['option_value', S]],
  TABLES: [
    ['table_catalog', S], ['table_schema', S], ['table_name', S], ['table_type', S], ['is_insertable_into', S], ['is_typed', S],
    ['is_change_history_enabled', S], ['creation_time', TS], ['base_table_catalog', S], ['base_table_schema', S],
    ['base_table_name', S], ['snapshot_time_ms', TS], ['ddl', S], ['default_collation_name', S],
    ['upsert_stream_apply_watermark', TS],
  ],
  TABLE_OPTIONS: [['table_catalog', S], ['table_schema', S], ['table_name', S], ['option_name', S], ['option_type', S], ['option_value', S]],
  COLUMNS: [
    ['table_catalog', S], ['table_schema', S], ['table_name', S], ['column_name', S], ['ordinal_position', I],
    ['is_nullable', S], ['data_type', S], ['is_generated', S], ['generation_expression', S], ['is_stored', S],
    ['is_hidden', S], ['is_updatable', S], ['is_system_defined', S], ['is_partitioning_column', S],
    ['clustering_ordinal_position', I], ['collation_name', S], ['column_default', S], ['rounding_mode', S],
  ],
  COLUMN_FIELD_PATHS: [
    ['table_catalog', S], ['table_schema', S], ['table_name', S], ['column_name', S], ['field_path', S], ['data_type', S],
    ['description', S], ['collation_name', S], ['rounding_mode', S],
  ],
  VIEWS: [['table_catalog', S], ['table_schema', S], ['table_name', S], ['view_definition', S], ['check_option', S], ['use_standard_sql', S]],
  PARTITIONS: [
    ['table_catalog', S], ['table_schema', S], ['table_name', S], ['partition_id', S], ['total_rows', I],
    ['total_logical_bytes', I], ['total_billable_bytes', I], ['last_modified_time', TS], ['storage_tier', S],
  ],
  TABLE_STORAGE: [
    ['project_id', S], ['project_number', I], ['table_catalog', S], ['table_schema', S], ['table_name', S], ['creation_time', TS],
    ['total_rows', I], ['total_partitions', I], ['total_logical_bytes', I], ['active_logical_bytes', I],
    ['long_term_logical_bytes', I], ['current_physical_bytes', I], ['total_physical_bytes', I], ['active_physical_bytes', I],
    ['long_term_physical_bytes', I], ['time_travel_physical_bytes', I], ['storage_last_modified_time', TS], ['deleted', B],
    ['table_type', S], ['fail_safe_physical_bytes', I],
  ],
};

/** Every view's columns by view name. */
export const VIEWS: Record<string, ColSpec[]> = { ...TABLE_VIEWS, ...ROUTINE_VIEWS, ...JOB_VIEWS };

/**
 * Reads an INFORMATION_SCHEMA path as written (segments may hold dots).
 * @returns undefined when the path does not name an INFORMATION_SCHEMA view.
 */
export function infoSchemaScope(segments: string[], d: NameDefaults): InfoSchemaScope | undefined {
  const parts = segments.flatMap((s) => s.split('.'));
  const at = parts.findIndex((p) => p.toUpperCase() === 'INFORMATION_SCHEMA');
  if (at < 0 || at !== parts.length - 2) return undefined;
  const view = parts[at + 1].toUpperCase();
  if (!VIEWS[view]) return undefined;
  const before = parts.slice(0, at);
  const isRegion = (s: string) => /^region-/i.test(s);
  const region = (s: string) => s.slice('region-'.length);
  if (before.length === 1) {
    if (isRegion(before[0])) return { view, projectId: d.projectId, region: region(before[0]) };
    return { view, projectId: d.defaultDataset?.projectId ?? d.projectId, datasetId: before[0] };
  }
  if (before.length === 2) {
    if (isRegion(before[1])) return { view, projectId: before[0], region: region(before[1]) };
    return { view, projectId: before[0], datasetId: before[1] };
  }
  if (before.length === 0 && d.defaultDataset) return { view, projectId: d.defaultDataset.projectId, datasetId: d.defaultDataset.datasetId };
  return undefined;
}

/**
 * The synthetic table bound for an INFORMATION_SCHEMA view.
 * @throws BigQueryError notFound when a dataset-scoped view names a missing dataset; invalidQuery
 *   for a job view at dataset scope.
 */
export function infoSchemaTable(catalog: CatalogStore, scope: InfoSchemaScope): TableMeta {
  if (JOB_VIEWS[scope.view]) checkJobViewScope(scope);
  if (scope.datasetId && !catalog.getDataset(scope.projectId, scope.datasetId))
    throw BigQueryError.datasetNotFound(scope.projectId, scope.datasetId);
  const columns: Column[] = VIEWS[scope.view].map(([name, type]) => ({ name, type, required: false }));
  return {
    projectId: scope.projectId,
    datasetId: scope.datasetId ?? 'INFORMATION_SCHEMA',
    tableId: scope.view,
    type: 'VIEW',
    duckName: '',
    columns,
    creationTime: 0,
    lastModifiedTime: 0,
    fields: {},
    infoSchema: scope,
  };
}

