/**
 * Copy jobs (REST JobConfigurationTableCopy, src/server/rest/bigquery-v2-discovery.json): the rows of
 * `sourceTable` (or of every table of `sourceTables`, appended in order) are written into
 * `destinationTable`.
 *
 * - writeDisposition: WRITE_EMPTY by default (discovery: "The default value is WRITE_EMPTY"; a
 *   destination holding rows is a `duplicate` error, `Already Exists: Table p:d.t`),
 *   WRITE_TRUNCATE, WRITE_APPEND; createDisposition CREATE_IF_NEEDED (default) / CREATE_NEVER —
 *   the write goes through destination.ts like a query job's destination (snapshots refused,
 *   schema mismatch on append `Provided Schema does not match Table p:d.t. …`). A column whose
 *   type differs is `Provided Schema does not match Table p:d.t. Field f has changed type from X
 *   to Y` (BigQuery's wording with legacy type names).
 * - A table the job creates (or truncates) takes the source's columns (modes, descriptions),
 *   partitioning and clustering.
 * - operationType (JobConfigurationTableCopy.operationType): COPY (default) as above; SNAPSHOT:
 *   one TABLE source, the destination becomes a read-only table snapshot with
 *   `snapshotDefinition` (as CREATE SNAPSHOT TABLE, src/engine/ddl-clone.ts; writes refused by
 *   src/engine/table-guards.ts); CLONE: a table with `cloneDefinition`; RESTORE: the source must be
 *   a snapshot, the destination is an ordinary table.
 * - destinationExpirationTime: the destination's expirationTime (RFC 3339 text or epoch ms).
 * - statistics.copy: copiedRows, copiedLogicalBytes (logical bytes of the sources, bytes.ts).
 * - Rows still in a source's streaming buffer (tabledata.insertAll) are not copied: "The streamed
 *   data can take up to 90 minutes to become available for copy operations"
 *   (https://cloud.google.com/bigquery/docs/data-manipulation-language#limitations;
 *   src/engine/streaming-buffer.ts). So a WRITE_EMPTY copy of a table whose rows are all buffered
 *   leaves the destination empty, and the same copy again succeeds.
 */
import type { Engine, StatementResult } from '../engine/engine.js';
import { createStoredTable } from '../engine/ddl.js';
import { addPicosColumnSql, isPicosColumn } from '../engine/picos-storage.js';
import { quoteIdent } from '../engine/duckdb/types.js';
import { readRows } from '../engine/statement-context.js';
import { flushedRowsPredicate } from '../engine/streaming-buffer.js';
import type { TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import { fieldFromType } from '../types/schema.js';
import type { Value } from '../types/types.js';
import { applyDestination } from './destination.js';
import type { JobRecord } from './jobs-model.js';
import { tableBytes } from './load.js';

type Ref = { projectId: string; datasetId: string; tableId: string };

const WRITES = ['WRITE_APPEND', 'WRITE_TRUNCATE', 'WRITE_EMPTY'];
const CREATES = ['CREATE_IF_NEEDED', 'CREATE_NEVER'];
const OPERATIONS = ['OPERATION_TYPE_UNSPECIFIED', 'COPY', 'SNAPSHOT', 'RESTORE', 'CLONE'];

const isRef = (r: any) => r && typeof r === 'object' && r.datasetId && r.tableId;

/** The source references of a copy configuration (sourceTables, else sourceTable). */
function sourcesOf(c: Record<string, any>): any[] {
  return Array.isArray(c.sourceTables) && c.sourceTables.length ? c.sourceTables : c.sourceTable ? [c.sourceTable] : [];
}

/**
 * Checks a copy configuration when the job is inserted.
 * @throws BigQueryError invalid for a missing destination or source, an unknown disposition or
 *   operation type, several sources of a SNAPSHOT / CLONE / RESTORE; not supported for dry runs.
 */
export function validateCopyConfig(configuration: Record<string, any>): void {
  const c = configuration.copy;
  if (!c || typeof c !== 'object') throw BigQueryError.invalidValue('configuration.copy', undefined, 'configuration.copy');
  if (configuration.dryRun === true || configuration.dryRun === 'true') throw BigQueryError.notSupported('A dry run of a copy job', { in: 'request' });
  if (!isRef(c.destinationTable)) throw BigQueryError.requiredParameterMissing('destinationTable');
  const sources = sourcesOf(c);
  if (!sources.length || !sources.every(isRef)) throw BigQueryError.requiredParameterMissing('sourceTable');
  for (const [k, allowed] of [['writeDisposition', WRITES], ['createDisposition', CREATES], ['operationType', OPERATIONS]] as const)
    if (c[k] !== undefined && !allowed.includes(String(c[k]).toUpperCase())) throw BigQueryError.invalidValue(k, String(c[k]), k);
  const op = String(c.operationType ?? 'COPY').toUpperCase();
  if (['SNAPSHOT', 'CLONE', 'RESTORE'].includes(op) && sources.length > 1) throw BigQueryError.copySingleSource(op);
}

/** epoch ms of destinationExpirationTime (RFC 3339 or digits), undefined when absent. */
function expirationMs(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const ms = /^\d+$/.test(String(v)) ? Number(v) : Date.parse(String(v));
  if (!Number.isFinite(ms)) throw BigQueryError.invalidValue('destinationExpirationTime', String(v), 'destinationExpirationTime');
  return ms;
}

/** Legacy REST type name of a column type (INTEGER, FLOAT, RECORD …) as BigQuery's schema errors use. */
const typeName = (t: TableMeta['columns'][number]['type']) => String(fieldFromType('x', t).type);

/** Refuses an append whose same-named columns differ in type. */
function checkTypes(dest: TableMeta, src: TableMeta): void {
  for (const c of src.columns) {
    const d = dest.columns.find((x) => x.name.toLowerCase() === c.name.toLowerCase());
    if (d && JSON.stringify(fieldFromType(d.name, d.type)) !== JSON.stringify(fieldFromType(d.name, c.type)))
      throw BigQueryError.schemaMismatch(`${dest.projectId}:${dest.datasetId}.${dest.tableId}`, `Field ${d.name} has changed type from ${typeName(d.type)} to ${typeName(c.type)}`);
  }
}

/** SNAPSHOT / CLONE / RESTORE: a new table with its own copy of the source's rows and metadata. */
async function cloneCopy(e: Engine, op: string, src: TableMeta, ref: Ref, existing: TableMeta | undefined, expiration: number | undefined): Promise<void> {
  const fields: Record<string, unknown> = { ...src.fields };
  delete fields.snapshotDefinition;
  delete fields.cloneDefinition;
  delete fields.expirationTime;
  const baseTableReference = { projectId: src.projectId, datasetId: src.datasetId, tableId: src.tableId };
  const now = new Date().toISOString();
  if (op === 'SNAPSHOT') fields.snapshotDefinition = { baseTableReference, snapshotTime: now };
  if (op === 'CLONE') fields.cloneDefinition = { baseTableReference, cloneTime: now };
  if (expiration !== undefined) fields.expirationTime = String(expiration);
  await createStoredTable(e, ref, src.columns.map((c) => ({ ...c })), fields, `SELECT * FROM ${quoteIdent(src.duckName)}`, existing);
}

/**
 * Runs a copy job and sets `job.copyStats`.
 * @throws BigQueryError notFound for a missing source table or dataset (`Not found: Table p:d.t
 *   was not found in location US`) or destination (CREATE_NEVER); duplicate for WRITE_EMPTY on a
 *   table with rows; invalid for a view source, a schema mismatch, a SNAPSHOT of a snapshot or a
 *   RESTORE of a non-snapshot; invalidQuery for a write into a snapshot.
 */
export async function executeCopyJob(e: Engine, job: JobRecord): Promise<void> {
  const c = job.configuration.copy as Record<string, any>;
  const refOf = (r: any): Ref => ({ projectId: String(r.projectId ?? job.projectId), datasetId: String(r.datasetId), tableId: String(r.tableId) });
  const sources = sourcesOf(c).map((r) => {
    const ref = refOf(r);
    const t = e.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId);
    if (!t) throw BigQueryError.tableNotFound(ref.projectId, ref.datasetId, ref.tableId);
    if (t.type !== 'TABLE') throw BigQueryError.operationNotAllowed(`${ref.projectId}:${ref.datasetId}.${ref.tableId}`, t.type);
    return t;
  });
  const ref = refOf(c.destinationTable);
  if (!e.catalog.getDataset(ref.projectId, ref.datasetId)) throw BigQueryError.datasetNotFound(ref.projectId, ref.datasetId);
  const existing = e.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId);
  const op = String(c.operationType ?? 'COPY').toUpperCase();
  const write = String(c.writeDisposition ?? 'WRITE_EMPTY').toUpperCase();
  const create = String(c.createDisposition ?? 'CREATE_IF_NEEDED').toUpperCase();
  const expiration = expirationMs(c.destinationExpirationTime);
  let copiedLogicalBytes = 0;
  for (const s of sources) copiedLogicalBytes += await tableBytes(e, s);
  const name = (t: Ref) => `${t.projectId}:${t.datasetId}.${t.tableId}`;
  if (op === 'SNAPSHOT' || op === 'CLONE' || op === 'RESTORE') {
    const src = sources[0];
    const snap = !!src.fields.snapshotDefinition;
    if (op === 'RESTORE' && !snap) throw BigQueryError.notATableSnapshot(name(src));
    if (op !== 'RESTORE' && snap) throw BigQueryError.operationNotAllowed(name(src), 'SNAPSHOT');
    if (existing) {
      if (write === 'WRITE_EMPTY' || write === 'WRITE_APPEND') throw BigQueryError.alreadyExists('Table', name(ref));
    } else if (create === 'CREATE_NEVER') throw BigQueryError.tableNotFound(ref.projectId, ref.datasetId, ref.tableId, false);
    await cloneCopy(e, op, src, ref, existing, expiration);
  } else {
    const first = sources[0];
    for (const s of sources.slice(1)) checkTypes(first, s);
    if (existing && write === 'WRITE_APPEND') for (const s of sources) checkTypes(existing, s);
    const schema = first.columns.map((col) => ({ name: col.name, type: col.type, required: col.required }));
    const rows: Value[][] = [];
    for (const s of sources) {
      // Rows by column name (a later source may order its columns differently).
      const list = first.columns.map((col) => (s.columns.some((x) => x.name.toLowerCase() === col.name.toLowerCase()) ? quoteIdent(col.name) : 'NULL')).join(', ');
      // Rows still in the streaming buffer are not copied (src/engine/streaming-buffer.ts).
      rows.push(...(await readRows(e, `SELECT ${list} FROM ${quoteIdent(s.duckName)} WHERE ${await flushedRowsPredicate(e, s)} ORDER BY rowid`, schema)));
    }
    const layout: Record<string, unknown> = {};
    for (const k of ['timePartitioning', 'rangePartitioning', 'clustering']) if (first.fields[k] !== undefined) layout[k] = first.fields[k];
    const q = { ...layout, destinationTable: ref, writeDisposition: write, createDisposition: create };
    const result: StatementResult = { statementType: 'COPY', schema, rows };
    await applyDestination(e, job.projectId, q, result, { keepModes: true, readBack: false });
    const made = e.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId);
    // A table the job created or truncated takes the source's column metadata (descriptions, …).
    if (made && (!existing || write === 'WRITE_TRUNCATE')) {
      const fields = { ...made.fields };
      for (const k of ['description', 'friendlyName', 'labels']) if (!existing && first.fields[k] !== undefined) fields[k] = first.fields[k];
      if (expiration !== undefined) fields.expirationTime = String(expiration);
      // TIMESTAMP(12) columns get their companions; copied rows carry microseconds (src/engine/picos-storage.ts).
      const picos = first.columns.filter(isPicosColumn).map((col) => addPicosColumnSql(made.duckName, col));
      await e.catalog.putTableWith({ ...made, columns: first.columns.map((col) => ({ ...col })), fields }, picos);
    } else if (made && expiration !== undefined) await e.catalog.putTable({ ...made, fields: { ...made.fields, expirationTime: String(expiration) } });
  }
  const counts = await Promise.all(sources.map(async (s) => `(SELECT count(*) FROM ${quoteIdent(s.duckName)} WHERE ${await flushedRowsPredicate(e, s)})`));
  const copiedRows = sources.length ? Number((await e.db.readAll(`SELECT ${counts.join(' + ')}`)).getRowsJS()[0][0]) : 0;
  job.copyStats = { copiedRows, copiedLogicalBytes };
}
