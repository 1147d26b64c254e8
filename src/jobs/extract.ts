/**
 * Extract jobs (REST JobConfigurationExtract, src/server/rest/bigquery-v2-discovery.json): a table's rows are
 * written to Cloud Storage URIs: `gs://bucket/path` is a file under BQEMU_GCS_DIR, or an object
 * uploaded to the Cloud Storage emulator named by `STORAGE_EMULATOR_HOST`, as for EXPORT DATA
 * (src/engine/storage-uris.ts `openDestination`: never outside its bucket); a `*` in a URI
 * becomes the shard number `000000000000` (the name BigQuery gives a single shard). With several
 * destination URIs the rows are split over them in order, one file each.
 *
 * - sourceTable (required); sourceModel (model export) is not supported by bqemu. A view cannot
 *   be extracted (BigQuery's `… is not allowed for this operation because it is currently a VIEW.`).
 * - destinationFormat CSV (default), NEWLINE_DELIMITED_JSON, AVRO, PARQUET (src/engine/export-writers.ts for
 *   the value text; Parquet through DuckDB's COPY, and CSV too when every column's text is built
 *   in DuckDB, src/engine/export-csv.ts). A CSV of a table with nested or repeated
 *   fields is refused (discovery: "Tables with nested or repeated fields cannot be exported as CSV").
 * - compression NONE (default), GZIP (CSV, JSON, Parquet), DEFLATE (Avro), SNAPPY (Parquet; Avro
 *   SNAPPY is not supported by bqemu), ZSTD (Parquet); other pairs are rejected.
 * - fieldDelimiter (`\t` / `tab` for a tab), printHeader (default true), useAvroLogicalTypes.
 * - Rows still in the table's streaming buffer (tabledata.insertAll) are not exported ("up to 90
 *   minutes to become available for copy" and export operations, BigQuery "Streaming data
 *   availability", https://cloud.google.com/bigquery/docs/streaming-data-into-bigquery#dataavailability;
 *   src/engine/streaming-buffer.ts).
 * - statistics.extract: destinationUriFileCounts (files per URI, in URI order), inputBytes (the
 *   table's logical bytes, bytes.ts).
 */
import type { Engine } from '../engine/engine.js';
import { quoteIdent } from '../engine/duckdb/types.js';
import { openDestination, type Destination } from '../engine/storage-uris.js';
import { readRows } from '../engine/statement-context.js';
import { flushedRowsPredicate } from '../engine/streaming-buffer.js';
import { BigQueryError } from '../errors/errors.js';
import type { Column } from '../types/schema.js';
import type { Value } from '../types/types.js';
import { writeAvro, writeTextFile } from '../engine/export-writers.js';
import { copyCsvSql, csvExportQuery } from '../engine/export-csv.js';
import type { JobRecord } from './jobs-model.js';
import { tableBytes } from './load.js';

const FORMATS = ['CSV', 'NEWLINE_DELIMITED_JSON', 'AVRO', 'PARQUET'];
/** Compressions each format accepts (JobConfigurationExtract.compression). */
const COMPRESSIONS: Record<string, string[]> = {
  CSV: ['NONE', 'GZIP'],
  NEWLINE_DELIMITED_JSON: ['NONE', 'GZIP'],
  AVRO: ['NONE', 'DEFLATE', 'SNAPPY'],
  PARQUET: ['NONE', 'GZIP', 'SNAPPY', 'ZSTD'],
};

const notSupported = (what: string) => BigQueryError.notSupported(what, { in: 'request' });

/** The destination URIs of an extract configuration (destinationUris, else the deprecated destinationUri). */
export function destinationUris(x: Record<string, any>): string[] {
  if (Array.isArray(x.destinationUris) && x.destinationUris.length) return x.destinationUris.map(String);
  return typeof x.destinationUri === 'string' && x.destinationUri ? [x.destinationUri] : [];
}

/**
 * Checks an extract configuration when the job is inserted.
 * @throws BigQueryError invalid for a missing sourceTable or destination URI, an unknown format or
 *   a compression the format does not take; not supported for model extracts, Avro SNAPPY and
 *   dry runs.
 */
export function validateExtractConfig(configuration: Record<string, any>): void {
  const x = configuration.extract;
  if (!x || typeof x !== 'object') throw BigQueryError.invalidValue('configuration.extract', undefined, 'configuration.extract');
  if (configuration.dryRun === true || configuration.dryRun === 'true') throw notSupported('A dry run of an extract job');
  if (x.sourceModel) throw notSupported('Extracting a model (sourceModel)');
  const s = x.sourceTable;
  if (!s || typeof s !== 'object' || !s.datasetId || !s.tableId) throw BigQueryError.requiredParameterMissing('sourceTable');
  const uris = destinationUris(x);
  if (!uris.length) throw BigQueryError.requiredParameterMissing('destinationUris');
  for (const u of uris) {
    if (!/^gs:\/\/[^/]+\/.+/.test(u)) throw BigQueryError.invalidExtractUri(u, 'Must be a valid Google Storage path.');
    if (u.indexOf('*') !== u.lastIndexOf('*')) throw BigQueryError.invalidExtractUri(u, 'Only one wildcard is allowed.');
  }
  const format = String(x.destinationFormat ?? 'CSV').toUpperCase();
  if (!FORMATS.includes(format)) throw BigQueryError.invalidValue('destinationFormat', String(x.destinationFormat), 'destinationFormat');
  const compression = String(x.compression ?? 'NONE').toUpperCase();
  if (!COMPRESSIONS[format].includes(compression))
    throw BigQueryError.invalidValue('compression', `${String(x.compression)} is not a valid value for ${format}`, 'compression');
  if (format === 'AVRO' && compression === 'SNAPPY') throw notSupported('SNAPPY compression of Avro files');
}

/** The delimiter text of `fieldDelimiter` (`\t` and `tab` name a tab). */
function delimiterOf(v: unknown): string {
  const d = v === undefined ? ',' : String(v);
  return d === '\\t' || d.toLowerCase() === 'tab' ? '\t' : d;
}

/**
 * Runs an extract job: reads the source table, writes the files, sets `job.extractStats`.
 * @throws BigQueryError notFound for a missing dataset or table; invalid for a view, a CSV of
 *   nested or repeated fields, or a column type without an Avro mapping.
 */
export async function executeExtractJob(e: Engine, job: JobRecord): Promise<void> {
  const x = job.configuration.extract as Record<string, any>;
  const s = x.sourceTable;
  const ref = { projectId: String(s.projectId ?? job.projectId), datasetId: String(s.datasetId), tableId: String(s.tableId) };
  if (!e.catalog.getDataset(ref.projectId, ref.datasetId)) throw BigQueryError.datasetNotFound(ref.projectId, ref.datasetId);
  const t = e.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId);
  if (!t) throw BigQueryError.tableNotFound(ref.projectId, ref.datasetId, ref.tableId);
  if (t.type !== 'TABLE')
    throw BigQueryError.operationNotAllowed(`${ref.projectId}:${ref.datasetId}.${ref.tableId}`, t.type);
  const format = String(x.destinationFormat ?? 'CSV').toUpperCase();
  const compression = String(x.compression ?? 'NONE').toUpperCase();
  const columns = t.columns;
  if (format === 'CSV') {
    const nested = columns.find((c) => c.type.kind === 'ARRAY' || c.type.kind === 'STRUCT');
    if (nested) throw BigQueryError.nestedSchemaNotExportable(nested.name);
  }
  const uris = destinationUris(x);
  const dests: Destination[] = [];
  try {
    for (const u of uris) dests.push(await openDestination(u));
    await writeFiles(e, x, t.duckName, columns, dests.map((d) => d.file), format, compression, await flushedRowsPredicate(e, t));
    for (const d of dests) await d.commit();
  } catch (err) {
    for (const d of dests) await d.discard();
    throw err;
  }
  job.extractStats = { destinationUriFileCounts: uris.map(() => 1), inputBytes: await tableBytes(e, ref) };
}

/** Writes the table's flushed rows (`flushed`, a predicate) to the local `files`, split in order. */
async function writeFiles(e: Engine, x: Record<string, any>, duckName: string, columns: Column[], files: string[], format: string, compression: string, flushed: string): Promise<void> {
  const list = columns.map((c) => quoteIdent(c.name)).join(', ');
  // Rows still in the streaming buffer are not exported (src/engine/streaming-buffer.ts).
  const from = `${quoteIdent(duckName)} WHERE ${flushed}`;
  // One file per URI; several URIs split the rows by rowid ranges.
  const parts = async (): Promise<string[]> => {
    if (files.length === 1) return [''];
    const n = Number((await e.db.readAll(`SELECT count(*) FROM ${from}`)).getRowsJS()[0][0]);
    const per = Math.ceil(n / files.length);
    return files.map((_f, i) => ` LIMIT ${per} OFFSET ${i * per}`);
  };
  // A table scan keeps the table's order in DuckDB (https://duckdb.org/docs/stable/sql/dialect/order_preservation,
  // COPY with preserve_insertion_order): no ORDER BY rowid, whose sort of the whole table came
  // before the first row was written (BigQuery promises no row order in exported files anyway).
  const csvQuery = (limit: string) => csvExportQuery(columns, delimiterOf(x.fieldDelimiter), `SELECT ${list} FROM ${from}${limit}`);
  if (format === 'PARQUET') {
    const codec = compression === 'NONE' ? 'uncompressed' : compression.toLowerCase();
    const limits = await parts();
    await e.db.transaction(files.map((f, i) => `COPY (SELECT ${list} FROM ${from} ORDER BY rowid${limits[i]}) TO '${f.replace(/'/g, "''")}' (FORMAT PARQUET, COMPRESSION '${codec}')`));
  } else if (format === 'CSV' && csvQuery('')) {
    // CSV text built and written by DuckDB (src/engine/export-csv.ts): no row reaches JavaScript.
    const limits = await parts();
    const opts = { delimiter: delimiterOf(x.fieldDelimiter), printHeader: x.printHeader !== false && x.printHeader !== 'false', gzip: compression === 'GZIP' };
    await e.db.transaction(files.map((f, i) => copyCsvSql(csvQuery(limits[i]!)!, f, opts)));
  } else {
    const fields = columns.map((c) => ({ name: c.name, type: c.type }));
    const rows = await readRows(e, `SELECT ${list} FROM ${from} ORDER BY rowid`, fields);
    const per = Math.ceil(rows.length / files.length);
    for (let i = 0; i < files.length; i++) {
      const part: Value[][] = rows.slice(i * per, (i + 1) * per);
      if (format === 'AVRO') {
        await writeAvro(files[i], columns, part, compression === 'DEFLATE' ? 'deflate' : 'null', x.useAvroLogicalTypes === true || x.useAvroLogicalTypes === 'true');
        continue;
      }
      await writeTextFile(files[i], format === 'CSV' ? 'CSV' : 'NEWLINE_DELIMITED_JSON', columns, part, {
        delimiter: delimiterOf(x.fieldDelimiter),
        printHeader: x.printHeader !== false && x.printHeader !== 'false',
        gzip: compression === 'GZIP',
      });
    }
  }
}
