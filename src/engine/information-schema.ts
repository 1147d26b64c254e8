/**
 * INFORMATION_SCHEMA views (BigQuery "Introduction to INFORMATION_SCHEMA"): SCHEMATA,
 * SCHEMATA_OPTIONS, TABLES, TABLE_OPTIONS, COLUMNS, COLUMN_FIELD_PATHS, VIEWS, PARTITIONS and
 * TABLE_STORAGE, at dataset scope (`[p.]d.INFORMATION_SCHEMA.X`) and region/project scope
 * (`[p.]region-us.INFORMATION_SCHEMA.X`); ROUTINES, ROUTINE_OPTIONS and PARAMETERS
 * (information-schema-routines.ts); JOBS / JOBS_BY_PROJECT at region scope
 * (information-schema-jobs.ts).
 *
 * The analyzer bridge binds such a path as a synthetic table (`infoSchema` set) with the view's
 * columns; its DuckDB relation is a VALUES list computed from the catalog store when the statement
 * runs, so a view always reflects the catalog of that moment.
 */
import type { CatalogStore, DatasetMeta, TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Column } from '../types/schema.js';
import { scalar, type BqType, type Value } from '../types/types.js';
import { columnTypeSql, type FieldDetails } from '../types/schema.js';
import { duckType } from './duckdb/types.js';
import { toDuckLiteral } from './duckdb/values.js';
import type { Engine } from './engine.js';
import type { NameDefaults } from './names.js';
import { ROUTINE_VIEWS, routineViewRows } from './information-schema-routines.js';
import { JOB_VIEWS, checkJobViewScope, jobViewRows } from './information-schema-jobs.js';

/** What an INFORMATION_SCHEMA path names: the view and its scope. */
export interface InfoSchemaScope {
  view: string;
  projectId: string;
  /** Dataset scope; undefined at region/project scope. */
  datasetId?: string;
  /** The region of a region-scoped path (`us` of `region-us`). */
  region?: string;
}

const S = scalar('STRING');
const I = scalar('INT64');
const TS = scalar('TIMESTAMP');
const B = scalar('BOOL');

type ColSpec = [string, BqType];

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

const VIEWS: Record<string, ColSpec[]> = { ...TABLE_VIEWS, ...ROUTINE_VIEWS, ...JOB_VIEWS };

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

const micros = (ms: number | string | undefined): Value => (ms === undefined || ms === '' ? null : BigInt(Math.trunc(Number(ms))) * 1000n);
const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
/** A GoogleSQL string literal as BigQuery writes option values (`"text"`). */
const strLit = (s: string) => JSON.stringify(s);

/** The DuckDB relation of an INFORMATION_SCHEMA view, computed now. */
export async function infoSchemaRelation(e: Engine, t: TableMeta): Promise<{ relation: string; columns: string[] }> {
  const scope = t.infoSchema! as InfoSchemaScope;
  const spec = VIEWS[scope.view];
  const rows = await viewRows(e, scope);
  const names = spec.map(([n]) => n);
  let relation: string;
  if (!rows.length) relation = `(SELECT ${spec.map(([n, ty]) => `NULL::${duckType(ty)} AS ${q(n)}`).join(', ')} WHERE FALSE)`;
  else {
    const values = rows.map((r) => `(${spec.map(([, ty], i) => toDuckLiteral(r[i] ?? null, ty)).join(', ')})`);
    relation = `(SELECT * FROM (VALUES ${values.join(', ')}) AS v(${names.map(q).join(', ')}))`;
  }
  return { relation, columns: names };
}

function datasetsOf(c: CatalogStore, scope: InfoSchemaScope): DatasetMeta[] {
  if (scope.datasetId) {
    const d = c.getDataset(scope.projectId, scope.datasetId);
    return d ? [d] : [];
  }
  return c.listDatasets(scope.projectId);
}

function tablesOf(c: CatalogStore, scope: InfoSchemaScope): TableMeta[] {
  return datasetsOf(c, scope).flatMap((d) => c.listTables(d.projectId, d.datasetId));
}

const tableType = (t: TableMeta): string => {
  const declared = (t as { type: string }).type;
  if (declared === 'VIEW') return t.fields.materializedView ? 'MATERIALIZED VIEW' : 'VIEW';
  if (t.fields.snapshotDefinition) return 'SNAPSHOT';
  if (t.fields.cloneDefinition) return 'CLONE';
  return 'BASE TABLE';
};

/** The partitioning column of a table, if it is partitioned on one. */
function partitionColumn(t: TableMeta): string | undefined {
  const tp = t.fields.timePartitioning as { field?: string; type?: string } | undefined;
  if (tp) return tp.field ?? '_PARTITIONTIME';
  const rp = t.fields.rangePartitioning as { field?: string } | undefined;
  return rp?.field;
}

/** TABLE_OPTIONS rows of a table: [name, type, value]. */
export function tableOptions(t: TableMeta): [string, string, string][] {
  const f = t.fields;
  const out: [string, string, string][] = [];
  if (typeof f.description === 'string') out.push(['description', 'STRING', strLit(f.description)]);
  if (typeof f.friendlyName === 'string') out.push(['friendly_name', 'STRING', strLit(f.friendlyName)]);
  if (f.expirationTime !== undefined) out.push(['expiration_timestamp', 'TIMESTAMP', `TIMESTAMP "${new Date(Number(f.expirationTime)).toISOString().replace('T', ' ').replace(/\.000Z$/, '+00').replace(/Z$/, '+00')}"`]);
  const labels = f.labels as Record<string, string> | undefined;
  if (labels && Object.keys(labels).length)
    out.push(['labels', 'ARRAY<STRUCT<STRING, STRING>>', `[${Object.entries(labels).map(([k, v]) => `STRUCT(${strLit(k)}, ${strLit(v)})`).join(', ')}]`]);
  const tp = f.timePartitioning as { expirationMs?: string; requirePartitionFilter?: boolean } | undefined;
  if (tp?.expirationMs !== undefined) out.push(['partition_expiration_days', 'FLOAT64', String(Number(tp.expirationMs) / 86400000)]);
  if (f.requirePartitionFilter === true || tp?.requirePartitionFilter === true) out.push(['require_partition_filter', 'BOOL', 'true']);
  return out;
}

function schemaOptions(d: DatasetMeta): [string, string, string][] {
  const f = d.fields;
  const out: [string, string, string][] = [];
  if (typeof f.description === 'string') out.push(['description', 'STRING', strLit(f.description)]);
  if (typeof f.friendlyName === 'string') out.push(['friendly_name', 'STRING', strLit(f.friendlyName)]);
  if (f.defaultTableExpirationMs !== undefined) out.push(['default_table_expiration_days', 'FLOAT64', String(Number(f.defaultTableExpirationMs) / 86400000)]);
  const labels = f.labels as Record<string, string> | undefined;
  if (labels && Object.keys(labels).length)
    out.push(['labels', 'ARRAY<STRUCT<STRING, STRING>>', `[${Object.entries(labels).map(([k, v]) => `STRUCT(${strLit(k)}, ${strLit(v)})`).join(', ')}]`]);
  return out;
}

/** Every (path, type, description) of a column's nested fields, the column itself first. */
/** Every field path of a column with its type text (parameters included) and description. */
function fieldPaths(path: string, type: BqType, d: FieldDetails | undefined, out: [string, string, string | undefined][]): void {
  out.push([path, columnTypeSql(type, d), d?.description]);
  const inner = type.kind === 'ARRAY' ? type.element : type;
  if (inner.kind === 'STRUCT') inner.fields.forEach((f, i) => fieldPaths(`${path}.${f.name}`, f.type, d?.subfields?.[i], out));
}

/** Rows and logical bytes of a stored table, by partition id (null: the table is not partitioned). */
async function partitionsOf(e: Engine, t: TableMeta): Promise<{ id: string | null; rows: number }[]> {
  if ((t as { type: string }).type === 'VIEW' || !t.duckName) return [];
  const col = partitionColumn(t);
  if (!col) {
    const r = (await e.db.readAll(`SELECT count(*) FROM ${q(t.duckName)}`)).getRows();
    return [{ id: null, rows: Number(r[0][0]) }];
  }
  const tp = t.fields.timePartitioning as { type?: string } | undefined;
  let key: string;
  if (tp) {
    const fmt = { HOUR: '%Y%m%d%H', MONTH: '%Y%m', YEAR: '%Y' }[String(tp.type ?? 'DAY')] ?? '%Y%m%d';
    const c = t.columns.find((x) => x.name === col);
    const v = c?.type.kind === 'TIMESTAMP' || !c ? `timezone('UTC', ${q(col)})` : q(col);
    key = `coalesce(strftime(${v}, '${fmt}'), '__NULL__')`;
  } else {
    const rp = t.fields.rangePartitioning as { range?: { start?: string; end?: string; interval?: string } };
    const start = Number(rp.range?.start ?? 0);
    const end = Number(rp.range?.end ?? 0);
    const step = Number(rp.range?.interval ?? 1) || 1;
    const c = q(col);
    key = `CASE WHEN ${c} IS NULL THEN '__NULL__' WHEN ${c} < ${start} OR ${c} >= ${end} THEN '__UNPARTITIONED__' ELSE CAST(${start} + ((${c} - ${start}) // ${step}) * ${step} AS VARCHAR) END`;
  }
  const r = (await e.db.readAll(`SELECT ${key} AS k, count(*) FROM ${q(t.duckName)} GROUP BY k ORDER BY k`)).getRows();
  return r.map((x) => ({ id: String(x[0]), rows: Number(x[1]) }));
}

/** A rough logical size: 8 bytes per scalar value per row (the emulator does not track storage). */
const logicalBytes = (t: TableMeta, rows: number) => rows * t.columns.length * 8;

async function viewRows(e: Engine, scope: InfoSchemaScope): Promise<Value[][]> {
  const c = e.catalog;
  if (ROUTINE_VIEWS[scope.view]) return routineViewRows(c, scope.view, datasetsOf(c, scope));
  if (JOB_VIEWS[scope.view]) return jobViewRows(e.jobsProvider, scope);
  switch (scope.view) {
    case 'SCHEMATA':
      return datasetsOf(c, scope).map((d) => [
        d.projectId, d.datasetId, null, micros(d.creationTime), micros(d.lastModifiedTime), String(d.fields.location ?? 'US'),
        `CREATE SCHEMA \`${d.projectId}.${d.datasetId}\``, null,
      ]);
    case 'SCHEMATA_OPTIONS':
      return datasetsOf(c, scope).flatMap((d) => schemaOptions(d).map(([n, ty, v]) => [d.projectId, d.datasetId, n, ty, v]));
    case 'TABLES':
      return tablesOf(c, scope).map((t) => {
        const base = (t.fields.snapshotDefinition ?? t.fields.cloneDefinition) as { baseTableReference?: { projectId: string; datasetId: string; tableId: string }; snapshotTime?: string } | undefined;
        const ty = tableType(t);
        return [
          t.projectId, t.datasetId, t.tableId, ty, ty === 'BASE TABLE' || ty === 'CLONE' ? 'YES' : 'NO', 'NO', 'NO', micros(t.creationTime),
          base?.baseTableReference?.projectId ?? null, base?.baseTableReference?.datasetId ?? null, base?.baseTableReference?.tableId ?? null,
          base?.snapshotTime ? micros(Date.parse(base.snapshotTime)) : null, ddlOf(t), null, null,
        ];
      });
    case 'TABLE_OPTIONS':
      return tablesOf(c, scope).flatMap((t) => tableOptions(t).map(([n, ty, v]) => [t.projectId, t.datasetId, t.tableId, n, ty, v]));
    case 'COLUMNS':
      return tablesOf(c, scope).flatMap((t) => {
        const pcol = partitionColumn(t);
        const clustering = ((t.fields.clustering as { fields?: string[] } | undefined)?.fields ?? []).map((f) => f.toLowerCase());
        const cols: Value[][] = t.columns.map((col, i) => {
          const ci = clustering.indexOf(col.name.toLowerCase());
          return [
            t.projectId, t.datasetId, t.tableId, col.name, BigInt(i + 1), col.required ? 'NO' : 'YES', columnTypeSql(col.type, col), 'NEVER', null, null,
            'NO', null, 'NO', pcol === col.name ? 'YES' : 'NO', ci >= 0 ? BigInt(ci + 1) : null, 'NULL', col.defaultValueExpression ?? 'NULL', null,
          ];
        });
        if (pcol === '_PARTITIONTIME') {
          const n = BigInt(t.columns.length);
          cols.push([t.projectId, t.datasetId, t.tableId, '_PARTITIONTIME', n + 1n, 'YES', 'TIMESTAMP', 'NEVER', null, null, 'YES', null, 'YES', 'YES', null, 'NULL', 'NULL', null]);
          cols.push([t.projectId, t.datasetId, t.tableId, '_PARTITIONDATE', n + 2n, 'YES', 'DATE', 'NEVER', null, null, 'YES', null, 'YES', 'NO', null, 'NULL', 'NULL', null]);
        }
        return cols;
      });
    case 'COLUMN_FIELD_PATHS':
      return tablesOf(c, scope).flatMap((t) =>
        t.columns.flatMap((col) => {
          const paths: [string, string, string | undefined][] = [];
          fieldPaths(col.name, col.type, col, paths);
          return paths.map(([p, ty, desc]) => [t.projectId, t.datasetId, t.tableId, col.name, p, ty, desc ?? null, 'NULL', null]);
        }),
      );
    case 'VIEWS':
      return tablesOf(c, scope)
        .filter((t) => (t as { type: string }).type === 'VIEW' && !t.fields.materializedView)
        .map((t) => [t.projectId, t.datasetId, t.tableId, t.viewQuery ?? '', 'NONE', 'YES']);
    case 'PARTITIONS': {
      const out: Value[][] = [];
      for (const t of tablesOf(c, scope))
        for (const p of await partitionsOf(e, t)) {
          const bytes = BigInt(logicalBytes(t, p.rows));
          out.push([t.projectId, t.datasetId, t.tableId, p.id, BigInt(p.rows), bytes, bytes, micros(t.lastModifiedTime), 'ACTIVE']);
        }
      return out;
    }
    case 'TABLE_STORAGE': {
      const out: Value[][] = [];
      for (const t of tablesOf(c, scope)) {
        if ((t as { type: string }).type === 'VIEW') continue;
        const parts = await partitionsOf(e, t);
        const rows = parts.reduce((a, p) => a + p.rows, 0);
        const bytes = BigInt(logicalBytes(t, rows));
        out.push([
          t.projectId, null, t.projectId, t.datasetId, t.tableId, micros(t.creationTime), BigInt(rows), BigInt(parts.filter((p) => p.id !== null).length),
          bytes, bytes, 0n, bytes, bytes, bytes, 0n, 0n, micros(t.lastModifiedTime), false, tableType(t), 0n,
        ]);
      }
      return out;
    }
  }
  return [];
}

/** A CREATE statement describing a table or view (TABLES.ddl). */
function ddlOf(t: TableMeta): string {
  const name = `\`${t.projectId}.${t.datasetId}.${t.tableId}\``;
  if ((t as { type: string }).type === 'VIEW') return `CREATE ${t.fields.materializedView ? 'MATERIALIZED ' : ''}VIEW ${name}\nAS ${t.viewQuery ?? ''};`;
  const cols = t.columns.map((c) => `  ${c.name} ${columnTypeSql(c.type, c)}${c.required ? ' NOT NULL' : ''}`).join(',\n');
  return `CREATE TABLE ${name}\n(\n${cols}\n);`;
}
