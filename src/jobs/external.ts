/**
 * Federated tables of a query job (JobConfigurationQuery.tableDefinitions: table name →
 * ExternalDataConfiguration,
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/Job#JobConfigurationQuery): each
 * definition becomes a table of the job's TEMP scope for the job's duration, so the query reads it
 * by its one-part name.
 *
 * - `sourceUris`: `gs://bucket/path` (the local Cloud Storage stand-in `BQEMU_GCS_DIR`, as EXPORT
 *   DATA writes it, src/engine/cloud-storage.ts; or the Cloud Storage emulator of
 *   `STORAGE_EMULATOR_HOST`, src/engine/storage-uris.ts), `file:///path` or an absolute local path under a
 *   folder the user allowed (source-uris.ts: 403 accessDenied outside). One `*` matches any
 *   characters, `/` included (BigQuery wildcard URIs). No matching file: 404 notFound.
 * - `sourceFormat`: CSV (default), NEWLINE_DELIMITED_JSON, PARQUET; others are "not supported".
 * - `schema` gives the columns and their BigQuery types; without it `autodetect` infers them
 *   (DuckDB's sniffer, its types mapped to BigQuery's); PARQUET describes itself.
 * - CSV: `csvOptions.skipLeadingRows`, `fieldDelimiter` (`\t`/`tab` too), `quote`, `nullMarker`,
 *   `allowJaggedRows`, `encoding`; an empty unquoted field is NULL, a quoted one is ''.
 *   With autodetect, skipLeadingRows follows CsvOptions' description (unset: header detected;
 *   0: no header; N: N-1 rows skipped and row N is the header).
 * - CSV and JSON values are decoded as insertAll decodes row values (src/wire/rest-json.ts), so
 *   each cell takes the BigQuery type of its column (BYTES base64, TIMESTAMP texts, STRUCT, ARRAY);
 *   PARQUET values are cast by DuckDB to the column types.
 * Reading errors are 400 invalid `Error while reading table: <name>, error message: <detail>`.
 */
import { logIgnored } from '../config/logger.js';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { parse as parseLossless } from 'lossless-json';
import type { TableMeta } from '../catalog/store.js';
import { createStoredTable } from '../engine/ddl.js';
import { dropTableObject } from '../engine/drop-table.js';
import { insertValues } from '../engine/dml-values.js';
import { duckType, quoteIdent } from '../engine/duckdb/types.js';
import type { Engine } from '../engine/engine.js';
import type { TempScope } from '../engine/names.js';
import { BigQueryError } from '../errors/errors.js';
import { columnFromField, type Column, type TableFieldSchema } from '../types/schema.js';
import type { Value } from '../types/types.js';
import { decodeJsonValue } from '../wire/rest-values.js';
import { columnsOfDuckTypes } from './external-types.js';
import { sourceFiles } from './source-uris.js';

const FORMATS = ['CSV', 'NEWLINE_DELIMITED_JSON', 'PARQUET'];

const sql = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** A file list as a DuckDB list literal. */
export const fileList = (files: string[]) => `[${files.map(sql).join(', ')}]`;

/** CSV reader options shared by sniffing and reading (csvOptions). */
function csvReaderOptions(def: Record<string, any>): string[] {
  const o = def.csvOptions ?? {};
  const opts: string[] = [];
  let delim = o.fieldDelimiter === undefined ? ',' : String(o.fieldDelimiter);
  if (delim === '\\t' || delim.toLowerCase() === 'tab') delim = '\t';
  opts.push(`delim=${sql(delim)}`);
  const quote = o.quote === undefined ? '"' : String(o.quote);
  opts.push(`quote=${sql(quote)}`, `escape=${sql(quote)}`);
  if (o.nullMarker !== undefined) opts.push(`nullstr=${sql(String(o.nullMarker))}`);
  if (o.allowJaggedRows === true) opts.push('null_padding=true');
  const enc = String(o.encoding ?? 'UTF-8').toUpperCase();
  if (enc === 'ISO-8859-1') opts.push(`encoding='latin-1'`);
  else if (enc !== 'UTF-8' && enc !== 'UTF8') throw BigQueryError.notSupported(`CSV encoding ${enc} of an external table`);
  if (String(def.compression ?? '').toUpperCase() === 'GZIP') opts.push(`compression='gzip'`);
  return opts;
}

/** `csvOptions.skipLeadingRows` (int64 string or number), or undefined when unset. */
function skipLeadingRows(def: Record<string, any>): number | undefined {
  const v = def.csvOptions?.skipLeadingRows ?? def.skipLeadingRows;
  if (v === undefined || v === null || v === '') return undefined;
  if (!/^\d+$/.test(String(v))) throw BigQueryError.invalidValue('csvOptions.skipLeadingRows', String(v));
  return Number(v);
}

/** DuckDB's `DESCRIBE` of a relation: column names and DuckDB type texts. */
export async function describe(e: Engine, relation: string): Promise<{ name: string; type: string }[]> {
  const r = await e.db.readAll(`DESCRIBE SELECT * FROM ${relation}`);
  return r.getRowsJS().map((row) => ({ name: String(row[0]), type: String(row[1]) }));
}

/** The columns (given, or detected when undefined) and text rows of CSV files (load jobs reuse it, load.ts). */
export async function readCsv(e: Engine, files: string[], def: Record<string, any>, columns: Column[] | undefined, dryRun: boolean) {
  const base = csvReaderOptions(def);
  const skip = skipLeadingRows(def);
  let header = false;
  let rowsToSkip = skip ?? 0;
  if (!columns) {
    // Autodetect (CsvOptions.skipLeadingRows): unset → header detected; 0 → no header; N → skip N-1, row N is the header.
    const sniff = [...base, ...(skip === undefined ? [] : skip === 0 ? ['header=false'] : [`skip=${skip - 1}`, 'header=true'])];
    const described = await describe(e, `read_csv(${fileList(files)}, ${sniff.join(', ')})`);
    header = skip === undefined ? !described.every((c, i) => c.name === `column${i}`) : skip > 0;
    rowsToSkip = skip === undefined ? 0 : Math.max(0, skip - (header ? 1 : 0));
    columns = columnsOfDuckTypes(described, { generic: !header, naiveTimestamp: 'TIMESTAMP' });
    if (columns.some((c) => c.type.kind === 'ARRAY' || c.type.kind === 'STRUCT')) throw BigQueryError.csvCannotHoldNested();
  }
  if (columns.some((c) => c.type.kind === 'ARRAY' || c.type.kind === 'STRUCT'))
    throw BigQueryError.csvNestedNotSupported();
  if (dryRun) return { columns, rows: [] as (string | null)[][] };
  const spec = columns.map((_c, i) => `'c${i}': 'VARCHAR'`).join(', ');
  const opts = [...base, `header=${header}`, `skip=${rowsToSkip}`, 'auto_detect=false', `columns={${spec}}`, 'allow_quoted_nulls=false'];
  const r = await e.db.readAll(`SELECT * FROM read_csv(${fileList(files)}, ${opts.join(', ')})`);
  return { columns, rows: r.getRows() as (string | null)[][] };
}

/** The JSON objects of newline-delimited JSON files (numbers kept lossless). */
function readJsonLines(files: string[], def: Record<string, any>): Record<string, unknown>[] {
  const gzip = String(def.compression ?? '').toUpperCase() === 'GZIP';
  return files.flatMap((f) => {
    const raw = fs.readFileSync(f);
    const text = (gzip || f.endsWith('.gz') ? zlib.gunzipSync(raw) : raw).toString('utf8');
    return text
      .split(/\r?\n/)
      .filter((l) => l.trim())
      .map((l) => parseLossless(l) as Record<string, unknown>);
  });
}

/** Decodes text or JSON cells into the columns' BigQuery types (insertAll's decoding). */
function decodeRows(columns: Column[], cells: (unknown[] | Record<string, unknown>)[], ignoreUnknown: boolean): Value[][] {
  return cells.map((row) => {
    if (Array.isArray(row)) return columns.map((c, i) => (row[i] === null || row[i] === undefined ? null : decodeJsonValue(row[i], c.type, c.name)));
    const byName = new Map(Object.entries(row).map(([k, v]) => [k.toLowerCase(), v]));
    if (!ignoreUnknown) for (const k of Object.keys(row)) if (!columns.some((c) => c.name.toLowerCase() === k.toLowerCase())) throw BigQueryError.noSuchField(k);
    return columns.map((c) => decodeJsonValue(byName.get(c.name.toLowerCase()) ?? null, c.type, c.name, { ignoreUnknownValues: ignoreUnknown }));
  });
}

/** Creates one external table in `scope` and fills it. */
async function createOne(e: Engine, scope: TempScope, name: string, def: Record<string, any>, dryRun: boolean): Promise<TableMeta> {
  const format = String(def.sourceFormat ?? 'CSV').toUpperCase();
  if (!FORMATS.includes(format)) throw BigQueryError.notSupported(`External table format ${format}`);
  const files = await sourceFiles(e, def.sourceUris);
  const fields: TableFieldSchema[] | undefined = def.schema?.fields?.length ? def.schema.fields : undefined;
  let columns = fields?.map(columnFromField);
  if (!columns && format !== 'PARQUET' && def.autodetect !== true) throw BigQueryError.noSchemaSpecified();
  const ref = { projectId: scope.projectId, datasetId: scope.datasetId, tableId: name };
  const ignoreUnknown = def.ignoreUnknownValues === true;
  try {
    if (format === 'CSV') {
      const r = await readCsv(e, files, def, columns, dryRun);
      const t = await createStoredTable(e, ref, r.columns.map((c) => ({ ...c })), {});
      await insertValues(e, t, decodeRows(r.columns, r.rows, ignoreUnknown));
      return t;
    }
    if (format === 'NEWLINE_DELIMITED_JSON') {
      if (!columns) columns = columnsOfDuckTypes(await describe(e, `read_json(${fileList(files)}, format='newline_delimited')`), { naiveTimestamp: 'TIMESTAMP', reverseFields: true });
      const t = await createStoredTable(e, ref, columns, {});
      if (!dryRun) await insertValues(e, t, decodeRows(columns, readJsonLines(files, def), ignoreUnknown));
      return t;
    }
    const relation = `read_parquet(${fileList(files)})`;
    if (!columns) columns = columnsOfDuckTypes(await describe(e, relation), { naiveTimestamp: 'DATETIME' });
    const items = columns.map((c) => `CAST(${quoteIdent(c.name)} AS ${duckType(c.type)})`).join(', ');
    return await createStoredTable(e, ref, columns, {}, dryRun ? undefined : `SELECT ${items} FROM ${relation}`);
  } catch (err) {
    if (err instanceof BigQueryError && err.reason === 'invalidQuery' && /not supported/.test(err.message)) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    throw BigQueryError.externalReadError(name, detail);
  }
}

/**
 * Creates the job's external tables in its TEMP scope (the hidden dataset is created when needed).
 * A dry run creates them empty (their schemas only).
 * @returns the tables created (drop them with {@link dropExternalTables}).
 * @throws BigQueryError invalid for a malformed definition or unreadable data; notFound for a
 *   source URI matching no file.
 */
export async function createExternalTables(e: Engine, scope: TempScope, defs: unknown, dryRun: boolean): Promise<TableMeta[]> {
  if (!defs || typeof defs !== 'object' || Array.isArray(defs)) throw BigQueryError.invalidValue('tableDefinitions', 'expected an object', 'tableDefinitions');
  if (!e.catalog.getDataset(scope.projectId, scope.datasetId)) {
    const now = Date.now();
    await e.catalog.putDataset({ projectId: scope.projectId, datasetId: scope.datasetId, creationTime: now, lastModifiedTime: now, fields: {} });
  }
  const made: TableMeta[] = [];
  try {
    for (const [name, def] of Object.entries(defs as Record<string, unknown>)) {
      if (!/^[\p{L}\p{M}\p{N}\p{Pc}\p{Pd}]{1,1024}$/u.test(name)) throw BigQueryError.invalidExternalTableName(name);
      if (scope.tables.has(name.toLowerCase())) throw BigQueryError.externalTableNameTaken(name);
      if (!def || typeof def !== 'object') throw BigQueryError.invalidValue(`tableDefinitions.${name}`, undefined, 'tableDefinitions');
      made.push(await createOne(e, scope, name, def as Record<string, any>, dryRun));
      scope.tables.add(name.toLowerCase());
    }
  } catch (err) {
    await dropExternalTables(e, scope, made);
    throw err;
  }
  return made;
}

/** Drops external tables created by {@link createExternalTables} (jobs in a session keep the session's own TEMP tables). */
export async function dropExternalTables(e: Engine, scope: TempScope, tables: TableMeta[]): Promise<void> {
  for (const t of tables) {
    scope.tables.delete(t.tableId.toLowerCase());
    // Cleanup of the job's temporary external table: the job's answer stands either way.
    await dropTableObject(e, t).catch(logIgnored(e.log, 'dropping a temporary external table'));
  }
}

