/**
 * Load jobs (REST JobConfigurationLoad, src/server/rest/bigquery-v2-discovery.json): the files of `sourceUris`
 * (or a media upload's data, src/server/rest/uploads.ts) are read into rows of BigQuery types and
 * written into `destinationTable` with the load job's dispositions (destination.ts).
 *
 * - sourceUris: as external tables read them (source-uris.ts `sourceFiles`: gs:// under BQEMU_GCS_DIR
 *   or in the Cloud Storage emulator of STORAGE_EMULATOR_HOST, with one `*` wildcard, file:// and absolute paths under the folders the user allowed; 403
 *   accessDenied outside them).
 * - sourceFormat: CSV (default), NEWLINE_DELIMITED_JSON, PARQUET, AVRO (load-avro.ts), ORC
 *   (load-orc.ts); the others are rejected as not supported.
 * - Schema: `schema`, else `autodetect`, else the destination table's schema; PARQUET, AVRO and
 *   ORC describe themselves. No schema at all: `No schema specified on job or table.`
 * - CSV options: skipLeadingRows, fieldDelimiter, quote, nullMarker, allowJaggedRows, encoding
 *   (external.ts readCsv); allowQuotedNewlines is accepted (quoted newlines are always read).
 * - Bad records (a value that does not convert, a JSON line that does not parse, an unknown field
 *   without ignoreUnknownValues): up to `maxBadRecords` (default 0) are skipped and listed in
 *   `status.errors`; one more fails the job with `Error while reading data, error message: <CSV|JSON>
 *   table encountered too many errors, giving up. Rows: <n>; errors: <m>. Please look into the
 *   errors[] collection for more details.` (text as BigQuery reports it, e.g. the job error quoted
 *   in https://github.com/HTTPArchive/legacy.httparchive.org/issues/129), followed by each bad record.
 * - writeDisposition: WRITE_APPEND by default (JobConfigurationLoad.writeDisposition), WRITE_TRUNCATE,
 *   WRITE_EMPTY; createDisposition, schemaUpdateOptions, timePartitioning, rangePartitioning and
 *   clustering as for query destinations; destinationTableProperties (description, friendlyName,
 *   labels) apply to a table the job creates.
 * - statistics.load: inputFiles, inputFileBytes, outputRows, outputBytes (logical bytes, bytes.ts),
 *   badRecords.
 */
import fs from 'node:fs';
import { parse as parseLossless } from 'lossless-json';
import type { Engine, StatementResult } from '../engine/engine.js';
import { duckType, quoteIdent } from '../engine/duckdb/types.js';
import { BigQueryError } from '../errors/errors.js';
import { columnFromField, type Column, type TableFieldSchema } from '../types/schema.js';
import type { Value } from '../types/types.js';
import { decodeJsonValue } from '../wire/rest-values.js';
import { sizeExpr } from './bytes.js';
import { applyDestination } from './destination.js';
import { describe, fileList, readCsv } from './external.js';
import { columnsOfDuckTypes } from './external-types.js';
import { isAvroFile, readAvro } from './load-avro.js';
import { readOrc } from './load-orc.js';
import type { JobRecord } from './jobs-model.js';
import { sourceFiles } from './source-uris.js';

const FORMATS = ['CSV', 'NEWLINE_DELIMITED_JSON', 'PARQUET', 'AVRO', 'ORC'];
/** Formats of JobConfigurationLoad.sourceFormat the emulator does not read. */
const UNSUPPORTED = ['DATASTORE_BACKUP', 'GOOGLE_SHEETS', 'BIGTABLE', 'ICEBERG'];
const WRITES = ['WRITE_APPEND', 'WRITE_TRUNCATE', 'WRITE_EMPTY'];
const CREATES = ['CREATE_IF_NEEDED', 'CREATE_NEVER'];

const notSupported = (what: string) => BigQueryError.notSupported(what, { in: 'request' });

/**
 * Checks a load configuration when the job is inserted.
 * @throws BigQueryError invalid for a missing destinationTable or sourceUris (none needed with a
 *   media upload), an unknown sourceFormat or disposition; not supported for other
 *   formats, and for dry runs of load jobs.
 */
export function validateLoadConfig(configuration: Record<string, any>, upload: boolean): void {
  const load = configuration.load;
  if (!load || typeof load !== 'object') throw BigQueryError.invalidValue('configuration.load', undefined, 'configuration.load');
  if (configuration.dryRun === true || configuration.dryRun === 'true') throw notSupported('A dry run of a load job');
  const d = load.destinationTable;
  if (!d || typeof d !== 'object' || !d.datasetId || !d.tableId) throw BigQueryError.requiredParameterMissing('destinationTable');
  const format = String(load.sourceFormat ?? 'CSV').toUpperCase();
  if (UNSUPPORTED.includes(format)) throw notSupported(`Load jobs of format ${format}`);
  if (!FORMATS.includes(format)) throw BigQueryError.invalidValue('sourceFormat', String(load.sourceFormat), 'sourceFormat');
  if (load.writeDisposition !== undefined && !WRITES.includes(String(load.writeDisposition).toUpperCase()))
    throw BigQueryError.invalidValue('writeDisposition', String(load.writeDisposition), 'writeDisposition');
  if (load.createDisposition !== undefined && !CREATES.includes(String(load.createDisposition).toUpperCase()))
    throw BigQueryError.invalidValue('createDisposition', String(load.createDisposition), 'createDisposition');
  if (!upload && !(Array.isArray(load.sourceUris) ? load.sourceUris.length : load.sourceUris))
    throw BigQueryError.requiredParameterMissing('sourceUris');
}

/** Rows read from the source files: raw cells per row (text cells, JSON objects), or typed rows. */
interface Read {
  columns: Column[];
  /** Cells to decode: text arrays (CSV) or JSON objects (JSON, Avro); a string is a line that did not parse. */
  cells?: (unknown[] | Record<string, unknown> | string)[];
  /** Byte offset of each JSON line (its error messages name it). */
  offsets?: number[];
  /** Rows already typed (ORC). */
  rows?: Value[][];
  /** Rows that stay inside DuckDB (Parquet): a SELECT of the columns, each cast to its storage type. */
  select?: string;
  kind: 'CSV' | 'JSON' | 'Avro';
}

/** The CSV options of a load configuration in the CsvOptions form external.ts reads. */
function csvDef(load: Record<string, any>): Record<string, any> {
  const { fieldDelimiter, quote, nullMarker, allowJaggedRows, encoding, skipLeadingRows } = load;
  return { csvOptions: { fieldDelimiter, quote, nullMarker, allowJaggedRows, encoding, skipLeadingRows } };
}

/** The lines of newline-delimited JSON files with their byte offsets; a line that does not parse stays text. */
function jsonLines(files: string[]): { cells: (Record<string, unknown> | string)[]; offsets: number[] } {
  const cells: (Record<string, unknown> | string)[] = [];
  const offsets: number[] = [];
  for (const f of files) {
    const buf = fs.readFileSync(f);
    let start = 0;
    while (start < buf.length) {
      let end = buf.indexOf(0x0a, start);
      if (end < 0) end = buf.length;
      const line = buf.subarray(start, end).toString('utf8').replace(/\r$/, '');
      if (line.trim()) {
        offsets.push(start);
        try {
          const v = parseLossless(line);
          cells.push(v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : line);
        } catch {
          // Not JSON: kept as text (this function's contract); the caller reports the bad row.
          cells.push(line);
        }
      }
      start = end + 1;
    }
  }
  return { cells, offsets };
}

/** Reads the source files into columns and cells. */
async function readSource(e: Engine, format: string, files: string[], load: Record<string, any>, fallback: Column[] | undefined): Promise<Read> {
  const given = load.schema?.fields?.length ? (load.schema.fields as TableFieldSchema[]).map(columnFromField) : undefined;
  const autodetect = load.autodetect === true || load.autodetect === 'true';
  const columns = given ?? (autodetect ? undefined : fallback);
  if (format === 'PARQUET') {
    // Read by DuckDB and written by `INSERT … SELECT` (destination.ts): the BigQuery type mapping of
    // Parquet's types (https://cloud.google.com/bigquery/docs/loading-data-cloud-storage-parquet#parquet_conversions)
    // is done in SQL, as casts to the storage types; no row passes through JavaScript.
    const relation = `read_parquet(${fileList(files)})`;
    const cols = columnsOfDuckTypes(await describe(e, relation), { naiveTimestamp: 'DATETIME' });
    const items = cols.map((c) => `CAST(${quoteIdent(c.name)} AS ${duckType(c.type)}) AS ${quoteIdent(c.name)}`).join(', ');
    return { columns: cols, select: `SELECT ${items} FROM ${relation}`, kind: 'CSV' };
  }
  if (format === 'AVRO') {
    for (const f of files) if (!isAvroFile(f)) throw BigQueryError.avroInvalid();
    const r = await readAvro(files, load.useAvroLogicalTypes === true);
    return { columns: r.columns, cells: r.rows, kind: 'Avro' };
  }
  if (format === 'ORC') {
    const r = await readOrc(files, load, fallback);
    return { columns: r.columns, rows: r.rows, kind: 'CSV' };
  }
  if (!columns && !autodetect) throw BigQueryError.noSchemaSpecified();
  if (format === 'CSV') {
    const r = await readCsv(e, files, csvDef(load), columns, false);
    return { columns: r.columns, cells: r.rows, kind: 'CSV' };
  }
  const cols = columns ?? columnsOfDuckTypes(await describe(e, `read_json(${fileList(files)}, format='newline_delimited')`), { naiveTimestamp: 'TIMESTAMP', reverseFields: true });
  return { columns: cols, ...jsonLines(files), kind: 'JSON' };
}

/** A bad record's message (BigQuery's reading-error forms; CSV positions are column indexes). */
function decodeRow(r: Read, i: number, ignoreUnknown: boolean): Value[] {
  const row = r.cells![i];
  const where = r.kind === 'JSON' ? `JSON parsing error in row starting at position ${r.offsets![i]}: ` : '';
  if (typeof row === 'string') throw BigQueryError.readError(`${where}Parser terminated before end of string`);
  if (Array.isArray(row))
    return r.columns.map((c, k) => {
      const cell = row[k];
      if (cell === null || cell === undefined) {
        if (c.required) throw BigQueryError.readError(`Required field ${c.name} cannot be null`);
        return null;
      }
      try {
        return decodeJsonValue(cell, c.type, c.name);
      } catch {
        throw BigQueryError.readError(`Could not parse '${String(cell)}' as ${c.type.kind} for field ${c.name} (position ${k}) in row ${i + 1}`);
      }
    });
  try {
    const byName = new Map(Object.entries(row).map(([k, v]) => [k.toLowerCase(), v]));
    if (!ignoreUnknown) for (const k of Object.keys(row)) if (!r.columns.some((c) => c.name.toLowerCase() === k.toLowerCase())) throw BigQueryError.noSuchField(k);
    return r.columns.map((c) => {
      const v = byName.get(c.name.toLowerCase()) ?? null;
      if (v === null && c.required) throw BigQueryError.missingRequiredField(c.name);
      return decodeJsonValue(v, c.type, c.name, { ignoreUnknownValues: ignoreUnknown });
    });
  } catch (e) {
    throw BigQueryError.readError(`${where}${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Logical bytes of a table's rows (bytes.ts sizes), 0 for a missing table (also extract.ts, copy.ts). */
export async function tableBytes(e: Engine, ref: { projectId: string; datasetId: string; tableId: string }): Promise<number> {
  const t = e.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId);
  if (!t || t.type !== 'TABLE' || !t.columns.length) return 0;
  const sum = t.columns.map((c) => sizeExpr(quoteIdent(c.name), c.type)).join(' + ');
  const r = await e.db.readAll(`SELECT coalesce(sum(${sum}), 0) FROM ${quoteIdent(t.duckName)}`);
  return Number(r.getRowsJS()[0][0]);
}

/**
 * Runs a load job: reads its files, writes the destination, sets `job.loadStats` and (bad
 * records) `job.errors`.
 * @throws BigQueryError with BigQuery's reading error, notFound for a source URI matching no file
 *   or a missing dataset / table (CREATE_NEVER), duplicate for WRITE_EMPTY on a non-empty table.
 */
export async function executeLoadJob(e: Engine, job: JobRecord): Promise<void> {
  try {
    await runLoad(e, job);
  } finally {
    // A media upload's data is kept only for its job.
    if (job.uploadFile) fs.rmSync(job.uploadFile, { force: true });
  }
}

async function runLoad(e: Engine, job: JobRecord): Promise<void> {
  const load = job.configuration.load as Record<string, any>;
  const format = String(load.sourceFormat ?? 'CSV').toUpperCase();
  const files = job.uploadFile ? [job.uploadFile] : await sourceFiles(e, load.sourceUris);
  const d = load.destinationTable;
  const ref = { projectId: d.projectId ?? job.projectId, datasetId: String(d.datasetId), tableId: String(d.tableId) };
  if (!e.catalog.getDataset(ref.projectId, ref.datasetId)) throw BigQueryError.datasetNotFound(ref.projectId, ref.datasetId);
  const existing = e.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId);
  let read: Read;
  try {
    read = await readSource(e, format, files, load, existing?.type === 'TABLE' ? existing.columns : undefined);
  } catch (err) {
    if (err instanceof BigQueryError) throw err;
    throw BigQueryError.readError(`${err instanceof Error ? err.message : String(err)}`);
  }
  const max = Number(load.maxBadRecords ?? 0) || 0;
  const bad: { reason: string; message: string }[] = [];
  let rows = read.rows;
  if (!rows && read.select === undefined) {
    rows = [];
    const ignoreUnknown = load.ignoreUnknownValues === true;
    for (let i = 0; i < read.cells!.length; i++) {
      try {
        rows.push(decodeRow(read, i, ignoreUnknown));
      } catch (err) {
        bad.push(BigQueryError.invalid(err instanceof Error ? err.message : String(err)).toErrorProto());
        if (bad.length > max) {
          const tooMany = BigQueryError.tooManyBadRecords(read.kind, i + 1, bad.length);
          job.errors = [tooMany.toErrorProto(), ...bad];
          throw tooMany;
        }
      }
    }
  }
  const before = existing && String(load.writeDisposition ?? 'WRITE_APPEND').toUpperCase() === 'WRITE_APPEND' ? await tableBytes(e, ref) : 0;
  const q = { ...load, destinationTable: ref, writeDisposition: load.writeDisposition ?? 'WRITE_APPEND' };
  const result: StatementResult = { statementType: 'LOAD', schema: read.columns.map((c) => ({ name: c.name, type: c.type, required: c.required })), rows: rows ?? [] };
  const source = read.select === undefined ? undefined : { select: read.select };
  await applyDestination(e, job.projectId, q, result, { keepModes: true, readBack: false, source });
  const props = load.destinationTableProperties;
  const made = e.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId);
  if (!existing && made && props && typeof props === 'object') {
    const fields = { ...made.fields };
    for (const k of ['description', 'friendlyName', 'labels']) if (props[k] !== undefined) fields[k] = props[k];
    await e.catalog.putTable({ ...made, fields });
  }
  if (bad.length) job.errors = bad;
  job.loadStats = {
    inputFiles: files.length,
    inputFileBytes: files.reduce((n, f) => n + fs.statSync(f).size, 0),
    outputRows: result.destinationRowsWritten ?? 0,
    outputBytes: Math.max(0, (await tableBytes(e, ref)) - before),
    badRecords: bad.length,
  };
}
