/**
 * INFORMATION_SCHEMA views (BigQuery "Introduction to INFORMATION_SCHEMA"): SCHEMATA,
 * SCHEMATA_OPTIONS, TABLES, TABLE_OPTIONS, COLUMNS, COLUMN_FIELD_PATHS, VIEWS, PARTITIONS and
 * TABLE_STORAGE, at dataset scope (`[p.]d.INFORMATION_SCHEMA.X`) and region/project scope
 * (`[p.]region-us.INFORMATION_SCHEMA.X`); ROUTINES, ROUTINE_OPTIONS and PARAMETERS
 * (information-schema-routines.ts); JOBS / JOBS_BY_PROJECT at region scope
 * (information-schema-jobs.ts).
 *
 * The analyzer bridge binds such a path as a synthetic table (`infoSchema` set) with the view's
 * columns (information-schema-views.ts); its DuckDB relation is a VALUES list computed from the catalog store when the statement
 * runs, so a view always reflects the catalog of that moment.
 */
import { datasetLocation, type CatalogStore, type DatasetMeta, type TableMeta } from '../catalog/store.js';
import { sameLocation } from '../types/locations.js';
import type { BqType, Value } from '../types/types.js';
import { columnTypeSql, type FieldDetails } from '../types/schema.js';
import { duckType } from './duckdb/types.js';
import { toDuckLiteral } from './duckdb/values.js';
import type { Engine } from './engine-types.js';
import type { InfoSchemaScope } from './information-schema-scope.js';
import { VIEWS } from './information-schema-views.js';
import { ROUTINE_VIEWS, routineViewRows } from './information-schema-routines.js';
import { JOB_VIEWS, jobViewRows } from './information-schema-jobs.js';

/** Milliseconds (a number or its text) → microseconds; null when absent or not a finite number (no stored value breaks a read). */
const micros = (ms: number | string | undefined): Value => (ms === undefined || ms === '' || !Number.isFinite(Number(ms)) ? null : BigInt(Math.trunc(Number(ms))) * 1000n);
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
  // `region-eu.INFORMATION_SCHEMA.X`: the datasets of that location only.
  const all = c.listDatasets(scope.projectId);
  return scope.region ? all.filter((d) => sameLocation(datasetLocation(d), scope.region!)) : all;
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
        d.projectId, d.datasetId, null, micros(d.creationTime), micros(d.lastModifiedTime), datasetLocation(d),
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
