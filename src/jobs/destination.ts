/**
 * Writes a query's result into `configuration.query.destinationTable` with the create and write
 * dispositions of JobConfigurationQuery (CREATE_IF_NEEDED / CREATE_NEVER; WRITE_EMPTY / WRITE_TRUNCATE /
 * WRITE_APPEND;
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/Job#JobConfigurationQuery). The response
 * still carries the SELECT's projection.
 *
 * Appends match result columns to table columns by name (table columns the result lacks are NULL).
 * Schema evolution (`schemaUpdateOptions`): ALLOW_FIELD_ADDITION adds result columns the table
 * lacks (NULLABLE); ALLOW_FIELD_RELAXATION turns REQUIRED columns the result writes as NULLABLE
 * into NULLABLE. Without the option BigQuery rejects the job (`Provided Schema does not match
 * Table p:d.t. …`); the options with WRITE_TRUNCATE on a whole table (or WRITE_EMPTY) are
 * rejected too. `timePartitioning` / `rangePartitioning` / `clusteringFields` apply to a table the
 * job creates or truncates; their fields must exist in the result schema.
 */
import type { Engine, StatementResult } from '../engine/engine.js';
import { createStoredTable } from '../engine/ddl.js';
import { insertRelation, insertValues } from '../engine/dml-values.js';
import { columnHasParams } from '../engine/type-params.js';
import { readRows } from '../engine/statement-context.js';
import { readResultRows } from '../engine/query-results.js';
import { checkSnapshotWrite } from '../engine/table-guards.js';
import { BigQueryError } from '../errors/errors.js';
import type { TableMeta } from '../catalog/store.js';
import { ident } from '../engine/lower/context.js';
import { duckType } from '../engine/duckdb/types.js';
import type { BqType, Value } from '../types/types.js';
import { randomUUID } from 'node:crypto';

/**
 * Prefix of the DuckDB tables a query job with a destination table stages its result in
 * (`CREATE TABLE AS`, so a failing query leaves the destination untouched; dropped when the job
 * ends, src/jobs/execute.ts). No BigQuery table maps to a DuckDB name with this prefix.
 */
export const STAGE_PREFIX = '__bqemu_qr_';

/** A new staging table's DuckDB name ({@link STAGE_PREFIX}). */
export function stageTableName(): string {
  return `${STAGE_PREFIX}${randomUUID().replace(/-/g, '')}`;
}

/**
 * Drops the staging tables ({@link STAGE_PREFIX}) a process that ended mid-job left in a
 * `--data-dir` database; run at start, before any job. @returns how many were dropped.
 */
export async function dropOrphanedStages(e: Engine): Promise<number> {
  const r = await e.db.readAll(`SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND starts_with(table_name, '${STAGE_PREFIX}')`);
  const names = r.getRowsJS().map((x) => String(x[0]));
  for (const n of names) await e.db.run(`DROP TABLE IF EXISTS ${ident(n)}`);
  return names.length;
}

/** The destination's partitioning and clustering from the job configuration, validated against the result columns. */
function layoutFields(q: Record<string, any>, names: string[]): Record<string, unknown> {
  const has = (f: unknown) => typeof f === 'string' && names.some((n) => n.toLowerCase() === f.toLowerCase());
  const f: Record<string, unknown> = {};
  if (q.timePartitioning && typeof q.timePartitioning === 'object') {
    const field = q.timePartitioning.field;
    if (field !== undefined && !has(field)) throw BigQueryError.partitioningFieldNotFound();
    f.timePartitioning = { type: 'DAY', ...q.timePartitioning };
  }
  if (q.rangePartitioning && typeof q.rangePartitioning === 'object') {
    if (!has(q.rangePartitioning.field)) throw BigQueryError.partitioningFieldNotFound();
    f.rangePartitioning = q.rangePartitioning;
  }
  const clustering = Array.isArray(q.clusteringFields) ? q.clusteringFields : q.clustering?.fields;
  if (Array.isArray(clustering) && clustering.length) {
    for (const c of clustering)
      if (!has(c)) throw BigQueryError.clusteringFieldNotFound(String(c));
    f.clustering = { fields: clustering.map(String) };
  }
  return f;
}

/**
 * Evolves an existing table's schema for an append of `schema` (ALLOW_FIELD_ADDITION /
 * ALLOW_FIELD_RELAXATION) and answers the table to append to.
 * @throws BigQueryError invalid when the result does not fit and no option allows the change.
 */
async function evolveForAppend(e: Engine, t: TableMeta, schema: { name: string; type: any; required?: boolean }[], options: string[]): Promise<TableMeta> {
  const name = `${t.projectId}:${t.datasetId}.${t.tableId}`;
  const mismatch = (why: string) => BigQueryError.schemaMismatch(name, why);
  const ddl: string[] = [];
  const columns = t.columns.map((c) => ({ ...c }));
  for (const f of schema) {
    const c = columns.find((x) => x.name.toLowerCase() === f.name.toLowerCase());
    if (!c) {
      if (!options.includes('ALLOW_FIELD_ADDITION')) throw mismatch(`Cannot add fields (field: ${f.name})`);
      columns.push({ name: f.name, type: f.type, required: false });
      ddl.push(`ALTER TABLE ${ident(t.duckName)} ADD COLUMN ${ident(f.name)} ${duckType(f.type)}`);
    } else if (c.required && !f.required) {
      if (!options.includes('ALLOW_FIELD_RELAXATION')) throw mismatch(`Field ${c.name} has changed mode from REQUIRED to NULLABLE`);
      c.required = false;
      c.modeOmitted = false; // a relaxed column answers mode NULLABLE
      ddl.push(`ALTER TABLE ${ident(t.duckName)} ALTER COLUMN ${ident(c.name)} DROP NOT NULL`);
    }
  }
  // Table columns the result lacks: REQUIRED ones can only be relaxed.
  for (const c of columns)
    if (c.required && !schema.some((f) => f.name.toLowerCase() === c.name.toLowerCase())) {
      if (!options.includes('ALLOW_FIELD_RELAXATION')) throw mismatch(`Field ${c.name} is missing in new schema`);
      c.required = false;
      c.modeOmitted = false; // a relaxed column answers mode NULLABLE
      ddl.push(`ALTER TABLE ${ident(t.duckName)} ALTER COLUMN ${ident(c.name)} DROP NOT NULL`);
    }
  if (!ddl.length) return t;
  const evolved: TableMeta = { ...t, columns, lastModifiedTime: Date.now() };
  // The DuckDB columns and the metadata change together (one transaction).
  await e.catalog.putTableWith(evolved, ddl);
  return evolved;
}

/** The result rows in the table's column order (by name; columns the result lacks are undefined). */
function rowsFor(t: TableMeta, schema: { name: string }[], rows: Value[][]): (Value | undefined)[][] {
  const idx = t.columns.map((c) => schema.findIndex((f) => f.name.toLowerCase() === c.name.toLowerCase()));
  if (idx.every((i, j) => i === j) && schema.length === t.columns.length) return rows;
  return rows.map((r) => idx.map((i) => (i < 0 ? undefined : r[i])));
}

/** A result whose rows stay in DuckDB: a SELECT with one column per result field, in order. */
export interface RelationSource {
  select: string;
}

/**
 * Writes `rows` (or the rows of `source`, inside DuckDB) into `t`: result columns matched to table
 * columns by name (`byName`, appends) or by position. Rows of a source go through JavaScript only
 * when a table column has type parameters or a matched column's type differs (insertValues then
 * checks and converts them).
 * @returns the number of rows written.
 */
async function write(e: Engine, t: TableMeta, schema: { name: string; type: BqType }[], rows: Value[][], source: RelationSource | undefined, byName: boolean): Promise<number> {
  const fit = (r: Value[][]) => (byName ? rowsFor(t, schema, r) : r);
  if (!source) {
    await insertValues(e, t, fit(rows));
    return rows.length;
  }
  const target = byName ? schema.map((f) => t.columns.find((c) => c.name.toLowerCase() === f.name.toLowerCase())) : schema.map((_, i) => t.columns[i]);
  const direct = (byName || schema.length === t.columns.length) && target.every((c, i) => c && !columnHasParams(c) && duckType(c.type) === duckType(schema[i].type));
  if (direct) return insertRelation(e, t, target.map((c) => c!.name), source.select);
  const read = await readRows(e, source.select, schema.map((f) => ({ name: f.name, type: f.type })));
  await insertValues(e, t, fit(read));
  return read.length;
}

/**
 * Writes `result` into `q.destinationTable` with `q`'s dispositions, schema update options and layout.
 * `opts.keepModes`: a created table keeps the result fields' REQUIRED modes (load jobs with a
 * schema); `opts.readBack: false` leaves `result` as it is (load jobs answer no rows).
 * `opts.source`: the rows are those of this DuckDB query instead of `result.rows` (load jobs
 * reading Parquet), written without leaving DuckDB.
 */
export async function applyDestination(
  e: Engine,
  projectId: string,
  q: Record<string, any>,
  result: StatementResult,
  opts: { keepModes?: boolean; readBack?: boolean; source?: RelationSource } = {},
): Promise<void> {
  const d = q.destinationTable;
  const ref = { projectId: d.projectId ?? projectId, datasetId: d.datasetId, tableId: d.tableId };
  if (!e.catalog.getDataset(ref.projectId, ref.datasetId)) throw BigQueryError.datasetNotFound(ref.projectId, ref.datasetId);
  const existing = e.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId);
  checkSnapshotWrite(existing); // snapshots are read-only, as for DML (src/engine/table-guards.ts)
  const disposition = String(q.writeDisposition ?? 'WRITE_EMPTY').toUpperCase();
  const create = String(q.createDisposition ?? 'CREATE_IF_NEEDED').toUpperCase();
  const schema = result.schema ?? [];
  const rows = result.rows ?? [];
  let written = rows.length;
  const updates: string[] = (Array.isArray(q.schemaUpdateOptions) ? q.schemaUpdateOptions : []).map((o: unknown) => String(o).toUpperCase());
  if (updates.length && disposition !== 'WRITE_APPEND' && !(disposition === 'WRITE_TRUNCATE' && ref.tableId.includes('$')))
    throw BigQueryError.schemaUpdateDisposition();
  const resultColumns = () => schema.map((f) => ({ name: f.name, type: f.type, required: opts.keepModes === true && f.required === true }));
  if (!existing) {
    if (create === 'CREATE_NEVER') throw BigQueryError.tableNotFound(ref.projectId, ref.datasetId, ref.tableId, false);
    const t = await createStoredTable(e, ref, resultColumns(), layoutFields(q, schema.map((f) => f.name)));
    written = await write(e, t, schema, rows, opts.source, false);
  } else {
    if (disposition === 'WRITE_EMPTY') {
      const r = await e.db.readAll(`SELECT count(*) FROM "${existing.duckName}"`);
      if (Number(r.getRowsJS()[0][0]) > 0)
        throw BigQueryError.alreadyExists('Table', `${ref.projectId}:${ref.datasetId}.${ref.tableId}`);
    }
    if (disposition === 'WRITE_TRUNCATE') {
      const layout = layoutFields(q, schema.map((f) => f.name));
      const t = await createStoredTable(e, ref, resultColumns(), { ...existing.fields, ...layout }, undefined, existing);
      written = await write(e, t, schema, rows, opts.source, false);
    } else if (disposition === 'WRITE_APPEND') {
      const t = await evolveForAppend(e, existing, schema, updates);
      written = await write(e, t, schema, rows, opts.source, true);
    } else written = await write(e, existing, schema, rows, opts.source, false);
  }
  result.destinationRowsWritten = written;
  if (opts.readBack === false) return;
  // A query job's results are its destination table (recorded api_configuration/write_append_*).
  const t = e.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId)!;
  const fields = t.columns.map((c) => ({ name: c.name, type: c.type }));
  const list = t.columns.map((c) => `"${c.name.replace(/"/g, '""')}"`).join(', ');
  result.schema = fields;
  // In the table's insertion order without sorting it: DuckDB keeps the order of a result without
  // ORDER BY under preserve_insertion_order, its default
  // (https://duckdb.org/docs/stable/sql/dialect/order_preservation); `ORDER BY rowid` sorted the
  // whole table (~0.1 s of CPU per 1M rows).
  const sql = `SELECT ${list} FROM "${t.duckName}"`;
  // A large result is read back as REST text built inside DuckDB (src/engine/result-json.ts).
  const read = await readResultRows(e, sql, fields);
  if ('encodedRows' in read) result.encodedRows = read.encodedRows;
  else result.rows = read.rows;
}
