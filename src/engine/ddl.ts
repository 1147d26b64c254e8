/**
 * DDL statements: CREATE [OR REPLACE | IF NOT EXISTS] TABLE (column list, AS SELECT), CREATE VIEW,
 * DROP TABLE/VIEW, CREATE/DROP SCHEMA, TRUNCATE TABLE. Messages are BigQuery's
 * (`Already Exists: Table p:d.t`, `Not found: Table p:d.t`, fixtures rest_crud/error_*).
 */
import { typeToSql } from '../types/types.js';
import type { Node } from '../analyzer/ast.js';
import { datasetLocation, type TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import { checkFieldNames, type Column } from '../types/schema.js';
import { MAX_TABLE_ID_LENGTH } from '../config/limits.js';
import { fromTypeProto } from '../analyzer/types.js';
import { literalOptions } from './options.js';
import { lowerExpr } from './lower/exprs.js';
import { makeAliaser } from './lower/context.js';
import { toDuckLiteral } from './duckdb/values.js';
import type { Engine, QueryOptions, StatementHandler, StatementHandlers, StatementResult } from './engine-types.js';
import { colName, ident, type LowerContext } from './lower/context.js';
import { lowerScan } from './lower/scans.js';
import { duckType } from './duckdb/types.js';
import { resolveTablePath, refText, type TableRef } from './names.js';
import { dropHistory, keepsHistory, retainReplaced, windowMs } from './history.js';
import { purgeDroppedDatasets } from './dataset-undelete.js';
import { dropTableObject } from './drop-table.js';
import { dropProcedure } from './routines.js';
import { dropModel } from './models.js';
import { datasetOptionFields, withDatasetDefaults, withExpirationExpression } from './expiration.js';
import { INGESTION_PSEUDO_DDL, isIngestionPartitioned, partitioningFields } from './partitioning.js';
import { picosColumnsDdl } from './picos-storage.js';
import { isLocationName, normalizeLocation, sameLocation } from '../types/locations.js';
import { detailsFromAnnotations, enforceSql } from './type-params.js';
import { checkTruncateOverStreamingBuffer } from './streaming-buffer.js';
import { createTableConstraints } from './table-constraints.js';

const now = () => Date.now();

function targetRef(stmt: Node, opts: QueryOptions): TableRef {
  return resolveTablePath(stmt.namePath as string[], opts);
}

/**
 * The target of a CREATE, refused beyond BigQuery's 1,024-character table and dataset ids
 * (src/config/limits.ts) with the texts tables.insert and datasets.insert answer.
 */
function createTargetRef(stmt: Node, opts: QueryOptions): TableRef {
  const r = targetRef(stmt, opts);
  if (r.datasetId.length > MAX_TABLE_ID_LENGTH) throw BigQueryError.invalidDatasetId(r.datasetId);
  if (r.tableId.length > MAX_TABLE_ID_LENGTH) throw BigQueryError.invalidTableId(r.tableId);
  return r;
}

/**
 * The target of CREATE TEMP TABLE: the script's or session's hidden dataset (created on first use).
 * @throws BigQueryError invalidQuery outside a script or session, or for a qualified name.
 */
async function tempTargetRef(e: Engine, stmt: Node, opts: QueryOptions): Promise<TableRef> {
  const parts = (stmt.namePath as string[]).flatMap((s) => s.split('.'));
  if (!opts.temp) throw BigQueryError.tempTableOutsideScript();
  if (parts.length !== 1) throw BigQueryError.tempTableQualified(parts.join('.'));
  const { projectId, datasetId } = opts.temp;
  if (!opts.dryRun && !e.catalog.getDataset(projectId, datasetId))
    await e.catalog.putDataset({ projectId, datasetId, creationTime: now(), lastModifiedTime: now(), fields: {} });
  if (!opts.dryRun) opts.temp.tables.add(parts[0].toLowerCase());
  return { projectId, datasetId, tableId: parts[0] };
}

/** @throws BigQueryError notFound when the dataset is missing or (for a job with a location) lives elsewhere. */
function requireDataset(e: Engine, r: TableRef, location?: string): void {
  const d = e.catalog.getDataset(r.projectId, r.datasetId);
  if (!d || (location && !sameLocation(datasetLocation(d), location))) throw BigQueryError.datasetNotFound(r.projectId, r.datasetId, true, location);
}

const options = literalOptions;

/**
 * Columns of CREATE TABLE / ADD COLUMN definitions: type, NOT NULL, OPTIONS(description), DEFAULT,
 * and the FieldDetails of src/engine/type-params.ts (type parameters; no mode written).
 */
export function columnsFromDefinitions(defs: Node[]): Column[] {
  return defs.map((d) => {
    const opts = options(d.annotations?.optionList);
    const type = fromTypeProto(d.type);
    // BigQuery's 300-character limit on column names, nested fields included (src/types/schema.ts).
    checkFieldNames(String(d.name), type);
    const c: Column = { name: String(d.name), type, required: !!d.annotations?.notNull, ...detailsFromAnnotations(type, d.annotations) };
    if (typeof opts.description === 'string') c.description = opts.description;
    return d.defaultValue?.expression ? { ...c, ...columnDefault(d.defaultValue) } : c;
  });
}

/**
 * A column's DEFAULT (a resolved ColumnDefaultValue: `expression` and its GoogleSQL `sql`): the
 * text for REST's `defaultValueExpression` and the lowered DuckDB expression the table's DEFAULT
 * holds (https://cloud.google.com/bigquery/docs/default-values).
 */
export function columnDefault(dv: Node): Pick<Column, 'defaultValueExpression' | 'defaultSql'> {
  return {
    defaultValueExpression: String(dv.sql ?? ''),
    defaultSql: lowerExpr(dv.expression, {
      tables: new Map(), namedParams: new Map(), positionalParams: [], duckType, literal: toDuckLiteral, alias: makeAliaser(), scan: lowerScan,
    }),
  };
}

/**
 * The DuckDB DEFAULT of REST schema columns with a `defaultValueExpression` (tables.insert): the
 * expressions are analyzed as the column definitions of a CREATE TABLE statement, so they are
 * checked and lowered exactly as a DDL `DEFAULT` is (columnsFromDefinitions).
 * @returns `columns` with `defaultSql` set where a default is given.
 * @throws BigQueryError invalid with the analyzer's text for an expression that does not analyze.
 */
export async function withDefaultSql(e: Engine, projectId: string, columns: Column[]): Promise<Column[]> {
  const withDefault = columns.filter((c) => c.defaultValueExpression);
  if (!withDefault.length) return columns;
  const defs = withDefault.map((c) => `\`${c.name.replace(/[`\\]/g, '\\$&')}\` ${typeToSql(c.type)} DEFAULT (${c.defaultValueExpression})`).join(', ');
  let a;
  try {
    a = await e.statements.analyze(`CREATE TEMP TABLE __bqemu_default_values (${defs})`, 0, { projectId }, {});
  } catch (err) {
    throw err instanceof BigQueryError ? BigQueryError.invalid(err.message) : err;
  }
  const lowered = columnsFromDefinitions((a.stmt as Node).columnDefinitionList ?? []);
  const byName = new Map(lowered.map((c) => [c.name.toLowerCase(), c.defaultSql]));
  return columns.map((c) => (c.defaultValueExpression ? { ...c, defaultSql: byName.get(c.name.toLowerCase()) } : c));
}

function tableFields(stmt: Node): Record<string, unknown> {
  const o = options(stmt.optionList);
  const f: Record<string, unknown> = {};
  if (typeof o.description === 'string') f.description = o.description;
  if (typeof o.friendly_name === 'string') f.friendlyName = o.friendly_name;
  if (typeof o.expiration_timestamp === 'bigint') f.expirationTime = String(o.expiration_timestamp / 1000n);
  Object.assign(f, partitioningFields(stmt, o));
  return f;
}

const columnDdl = (c: Column) =>
  `${ident(c.name)} ${duckType(c.type)}${c.defaultSql ? ` DEFAULT (${c.defaultSql})` : ''}${c.required ? ' NOT NULL' : ''}`;

/** DDL jobs answer with the schema of the table or view they describe and no rows (recorded rest_crud/ddl_result_*). */
const schemaResult = (columns: Column[]) => ({ schema: columns.map((c) => ({ name: c.name, type: c.type, required: c.required })), rows: [] });

/**
 * Decides what CREATE does given the existing object and the create mode.
 * @returns 'CREATE' | 'REPLACE' | 'SKIP'
 * @throws BigQueryError duplicate when the object exists and neither OR REPLACE nor IF NOT EXISTS was given.
 */
function createDecision(existing: TableMeta | undefined, mode: string, r: TableRef, what: 'Table'): 'CREATE' | 'REPLACE' | 'SKIP' {
  if (!existing) return 'CREATE';
  if (mode === 'CREATE_OR_REPLACE') return 'REPLACE';
  if (mode === 'CREATE_IF_NOT_EXISTS') return 'SKIP';
  throw BigQueryError.alreadyExists(what, refText(r));
}

/** Creates (or replaces) a stored table from columns and an optional SELECT filling it. */
export async function createStoredTable(
  e: Engine,
  r: TableRef,
  columns: Column[],
  fields: Record<string, unknown>,
  fill?: string,
  existing?: TableMeta,
): Promise<TableMeta> {
  const duckName = await e.catalog.newDuckName();
  const created = now();
  fields = withDatasetDefaults(e, r, fields, created);
  const pseudo = isIngestionPartitioned({ fields }) ? INGESTION_PSEUDO_DDL : [];
  // TIMESTAMP(12) columns keep their picoseconds in hidden companions (src/engine/picos-storage.ts).
  const stmts = [`CREATE TABLE ${ident(duckName)} (${[...columns.map(columnDdl), ...pseudo, ...picosColumnsDdl(columns)].join(', ')})`];
  if (fill) stmts.push(`INSERT INTO ${ident(duckName)} ${fill}`);
  // A replaced table's rows stay readable through time travel (src/engine/history.ts).
  const keep = keepsHistory(existing);
  if (existing?.type === 'TABLE' && !keep) stmts.push(`DROP TABLE IF EXISTS ${ident(existing.duckName)}`);
  const t: TableMeta = {
    ...r,
    type: 'TABLE',
    duckName,
    columns,
    creationTime: created,
    lastModifiedTime: created,
    fields,
  };
  // Data and metadata in one transaction: a crash leaves the whole table or nothing.
  await e.catalog.putTableWith(t, stmts);
  if (keep) await retainReplaced(e, existing!, t);
  return t;
}

async function createTable(e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const r = stmt.createScope === 'CREATE_TEMP' ? await tempTargetRef(e, stmt, opts) : createTargetRef(stmt, opts);
  // A TEMP table's hidden dataset goes with the job wherever it runs.
  if (stmt.createScope !== 'CREATE_TEMP' || !opts.dryRun) requireDataset(e, r, stmt.createScope === 'CREATE_TEMP' ? undefined : opts.location);
  const existing = e.catalog.getTable(r.projectId, r.datasetId, r.tableId);
  const op = createDecision(existing, stmt.createMode, r, 'Table');
  const isCtas = stmt.kind === 'CreateTableAsSelectStmt';
  const statementType = isCtas ? 'CREATE_TABLE_AS_SELECT' : 'CREATE_TABLE';
  let columns: Column[];
  let fill: string | undefined;
  if (isCtas) {
    const outs: Node[] = stmt.outputColumnList ?? [];
    const defs = stmt.columnDefinitionList?.length ? columnsFromDefinitions(stmt.columnDefinitionList) : undefined;
    columns = outs.map((o, i) => defs?.[i] ?? { name: String(o.name), type: fromTypeProto(o.column.type), required: false });
    // A column list's type parameters apply to the rows written (src/engine/type-params.ts).
    const items = outs.map((o, i) => enforceSql(`CAST(${colName(o.column)} AS ${duckType(columns[i].type)})`, columns[i].type, columns[i], columns[i].name));
    fill = `SELECT ${items.join(', ')} FROM (${lowerScan(stmt.query, ctx)})`;
  } else columns = columnsFromDefinitions(stmt.columnDefinitionList ?? []);
  for (const c of columns) checkFieldNames(c.name, c.type);
  const base = { statementType, ddlOperationPerformed: op, ddlTargetTable: r, ...schemaResult(columns) } as StatementResult;
  if (op === 'SKIP' || opts.dryRun) return base;
  const fields = { ...tableFields(stmt), ...createTableConstraints(e, stmt) };
  await createStoredTable(e, r, columns, await withExpirationExpression(e, stmt.optionList, ctx, fields), fill, existing);
  return base;
}

/**
 * CREATE [OR REPLACE] VIEW [IF NOT EXISTS]. The dataset's default table expiration applies to the
 * view unless it sets `expiration_timestamp` itself (BigQuery "Manage logical views": the dataset
 * default "affects both tables and views"; an expiration set when the view is created wins).
 */
async function createView(e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const r = createTargetRef(stmt, opts);
  requireDataset(e, r, opts.location);
  const existing = e.catalog.getTable(r.projectId, r.datasetId, r.tableId);
  const op = createDecision(existing, stmt.createMode, r, 'Table');
  const outs: Node[] = stmt.outputColumnList ?? [];
  const columns: Column[] = outs.map((o) => ({ name: String(o.name), type: fromTypeProto(o.column.type), required: false }));
  const base: StatementResult = { statementType: 'CREATE_VIEW', ddlOperationPerformed: op, ddlTargetTable: r, ...schemaResult(columns) };
  if (op === 'SKIP' || opts.dryRun) return base;
  const created = now();
  const fields = withDatasetDefaults(e, r, await withExpirationExpression(e, stmt.optionList, ctx, tableFields(stmt)), created);
  // A replaced table's data goes in the same transaction as the view's metadata.
  const drop = existing?.type === 'TABLE' ? [`DROP TABLE IF EXISTS ${ident(existing.duckName)}`] : [];
  await e.catalog.putTableWith({ ...r, type: 'VIEW', duckName: '', columns, viewQuery: String(stmt.sql), creationTime: created, lastModifiedTime: created, fields }, drop);
  return base;
}

async function dropStmt(e: Engine, stmt: Node, _ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const kind = String(stmt.objectType ?? 'TABLE').toUpperCase();
  if (kind === 'SCHEMA') return dropSchema(e, stmt, opts);
  if (kind === 'PROCEDURE') return dropProcedure(e, stmt, opts);
  if (kind === 'MODEL') return dropModel(e, stmt, opts);
  if (kind !== 'TABLE' && kind !== 'VIEW' && kind !== 'MATERIALIZED VIEW') throw BigQueryError.notSupported(`DROP ${kind}`);
  const r = targetRef(stmt, opts);
  const statementType = kind === 'TABLE' ? 'DROP_TABLE' : 'DROP_VIEW';
  const t = e.catalog.getTable(r.projectId, r.datasetId, r.tableId);
  if (!t) {
    if (stmt.isIfExists) return { statementType, ddlOperationPerformed: 'SKIP', ddlTargetTable: r };
    requireDataset(e, r, opts.location);
    throw BigQueryError.resourceNotFound(kind === 'TABLE' ? 'Table' : 'View', refText(r));
  }
  if (!opts.dryRun) await dropTableObject(e, t);
  return { statementType, ddlOperationPerformed: 'DROP', ddlTargetTable: r };
}

function schemaRef(stmt: Node, opts: QueryOptions): { projectId: string; datasetId: string } {
  const parts = (stmt.namePath as string[]).flatMap((s) => s.split('.'));
  if (parts.length === 1) return { projectId: opts.projectId, datasetId: parts[0] };
  return { projectId: parts[0], datasetId: parts[1] };
}

async function createSchema(e: Engine, stmt: Node, _ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const r = schemaRef(stmt, opts);
  if (r.datasetId.length > MAX_TABLE_ID_LENGTH) throw BigQueryError.invalidDatasetId(r.datasetId);
  const existing = e.catalog.getDataset(r.projectId, r.datasetId);
  const base = { statementType: 'CREATE_SCHEMA', ddlTargetDataset: r };
  if (existing) {
    if (stmt.createMode === 'CREATE_IF_NOT_EXISTS') return { ...base, ddlOperationPerformed: 'SKIP' };
    if (stmt.createMode !== 'CREATE_OR_REPLACE') throw BigQueryError.alreadyExists('Dataset', `${r.projectId}:${r.datasetId}`);
  }
  if (!opts.dryRun) {
    const o = options(stmt.optionList);
    const fields: Record<string, unknown> = {};
    if (typeof o.description === 'string') fields.description = o.description;
    Object.assign(fields, datasetOptionFields(o));
    // OPTIONS(location = …), else the job's location (BigQuery "CREATE SCHEMA statement").
    const location = typeof o.location === 'string' && isLocationName(o.location) ? normalizeLocation(o.location) : opts.location;
    await e.catalog.putDataset({ ...r, creationTime: now(), lastModifiedTime: now(), ...(location ? { location } : {}), fields });
  }
  return { ...base, ddlOperationPerformed: existing ? 'REPLACE' : 'CREATE' };
}

async function dropSchema(e: Engine, stmt: Node, opts: QueryOptions): Promise<StatementResult> {
  const r = schemaRef(stmt, opts);
  const base = { statementType: 'DROP_SCHEMA', ddlTargetDataset: r };
  if (!e.catalog.getDataset(r.projectId, r.datasetId)) {
    if (stmt.isIfExists) return { ...base, ddlOperationPerformed: 'SKIP' };
    throw BigQueryError.datasetNotFound(r.projectId, r.datasetId, false);
  }
  if (opts.dryRun) {
    if (stmt.dropMode !== 'CASCADE') checkDatasetEmpty(e, r.projectId, r.datasetId);
  } else await dropDataset(e, r.projectId, r.datasetId, stmt.dropMode === 'CASCADE');
  return { ...base, ddlOperationPerformed: 'DROP' };
}

/**
 * A dataset that still holds tables, views or routines cannot be dropped without CASCADE /
 * `deleteContents` (BigQuery "Manage datasets": delete a dataset).
 * @throws BigQueryError resourceInUse (HTTP 400) `Dataset p:d is still in use`
 */
export function checkDatasetEmpty(e: Engine, projectId: string, datasetId: string): void {
  if (e.catalog.listTables(projectId, datasetId).length || e.catalog.listRoutines(projectId, datasetId).length)
    throw BigQueryError.datasetInUse(projectId, datasetId);
}

/**
 * Deletes a dataset (DROP SCHEMA, datasets.delete); with `cascade` (CASCADE, `deleteContents`)
 * its tables, views and routines go with it, else it must be empty.
 * @throws BigQueryError resourceInUse when not cascading and the dataset is not empty.
 */
export async function dropDataset(e: Engine, projectId: string, datasetId: string, cascade: boolean): Promise<void> {
  if (!cascade) checkDatasetEmpty(e, projectId, datasetId);
  // All the dataset's metadata in one transaction (all or nothing), kept with its tables' data for
  // undelete within its time-travel window (src/engine/dataset-undelete.ts).
  const deletionTime = Date.now();
  const keep = { deletionTime, retainUntil: deletionTime + windowMs(e, { projectId, datasetId }) };
  for (const t of await e.catalog.deleteDatasetWith(projectId, datasetId, [], keep)) await dropHistory(e, t);
  await purgeDroppedDatasets(e, { projectId, datasetId, before: deletionTime });
}

async function truncateStmt(e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const t = ctx.tables.get(String(stmt.tableScan?.table?.serializationId));
  if (!t) throw BigQueryError.targetNotBound('TRUNCATE target');
  let n = 0;
  // Rows still in the streaming buffer cannot be truncated (src/engine/streaming-buffer.ts).
  if (!opts.dryRun) await checkTruncateOverStreamingBuffer(e, t.relation);
  if (!opts.dryRun) [n] = await e.db.transaction([`DELETE FROM ${t.relation}`]);
  return { statementType: 'TRUNCATE_TABLE', numDmlAffectedRows: n };
}

export const DDL = {
  CreateTableStmt: createTable,
  CreateTableAsSelectStmt: createTable,
  CreateViewStmt: createView,
  DropStmt: dropStmt,
  CreateSchemaStmt: createSchema,
  TruncateStmt: truncateStmt,
} satisfies StatementHandlers;
