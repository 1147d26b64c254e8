/**
 * EXPORT DATA OPTIONS(uri = 'gs://bucket/path/*.ext', format = …) AS query (BigQuery "EXPORT DATA
 * statement"). `gs://bucket/path` is written under the local directory `BQEMU_GCS_DIR` (default
 * `$TMPDIR/bqemu-gcs`) as `<dir>/bucket/path`, or uploaded to the Cloud Storage emulator named by
 * `STORAGE_EMULATOR_HOST` (storage-uris.ts `openDestination`), the `*` becoming the shard number
 * `000000000000` as BigQuery names a single shard; a URI leaving its bucket is refused. CSV (header unless
 * `header = false`, `field_delimiter`), JSON (newline-delimited) and AVRO (`use_avro_logical_types`,
 * DEFLATE) carry BigQuery's export text through the writers extract jobs use (export-writers.ts);
 * PARQUET is written by DuckDB's COPY, and CSV too when every column's text is built in DuckDB
 * (export-csv.ts). GZIP compresses CSV and JSON.
 */
import fs from 'node:fs';
import type { Node } from '../analyzer/ast.js';
import { BigQueryError } from '../errors/errors.js';
import { openDestination } from './storage-uris.js';
import type { Engine, QueryOptions, StatementHandler, StatementHandlers, StatementResult } from './engine-types.js';
import { colName, type LowerContext } from './lower/context.js';
import { lowerScan } from './lower/scans.js';
import { literalOptions } from './options.js';
import { readRows, resultFields } from './statement-context.js';
import { writeAvro, writeTextFile } from './export-writers.js';
import { copyCsvSql, csvExportQuery } from './export-csv.js';

const FORMATS = new Set(['CSV', 'JSON', 'AVRO', 'PARQUET']);

async function exportData(e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const o = literalOptions(stmt.optionList);
  const uri = typeof o.uri === 'string' ? o.uri : '';
  // Recorded export_data/export_missing_uri: invalidQuery without a location.
  if (!uri) throw BigQueryError.exportUriMissing();
  const format = String(o.format ?? 'CSV').toUpperCase();
  if (!FORMATS.has(format)) throw BigQueryError.notSupported(`EXPORT DATA format ${format}`);
  const compression = String(o.compression ?? '').toUpperCase();
  if (compression && compression !== 'GZIP' && !(format === 'AVRO' && compression === 'DEFLATE') && !(format === 'PARQUET' && ['SNAPPY', 'ZSTD'].includes(compression)))
    throw BigQueryError.notSupported(`EXPORT DATA compression ${compression} for ${format}`);
  const result: StatementResult = { statementType: 'EXPORT_DATA', schema: [], rows: [] };
  if (opts.dryRun) return result;
  const dest = await openDestination(uri);
  if (dest.exists && o.overwrite !== true) {
    await dest.discard();
    throw BigQueryError.exportDestinationExists(uri);
  }
  const file = dest.file;
  try {
    // JobStatistics2.exportDataStatistics (recorded http/jobs/export_csv_query_job: one file, its rows).
    result.exportDataStatistics = { fileCount: 1, rowCount: await writeExport(e, stmt, ctx, o, file, format, compression) };
    await dest.commit();
  } catch (err) {
    await dest.discard();
    throw err;
  }
  return result;
}

/** Writes the query's rows to the local `file` in `format`; the number of rows written. */
async function writeExport(e: Engine, stmt: Node, ctx: LowerContext, o: Record<string, unknown>, file: string, format: string, compression: string): Promise<number> {
  const outs: Node[] = stmt.outputColumnList ?? [];
  const source = lowerScan(stmt.query, ctx);
  const csvQuery = () =>
    csvExportQuery(resultFields(outs), String(o.field_delimiter ?? ','), `SELECT ${outs.map((c) => colName(c.column)).join(', ')} FROM (${source})`);
  let rowCount: number;
  if (format === 'PARQUET') {
    const cols = outs.map((c) => `${colName(c.column)} AS "${String(c.name).replace(/"/g, '""')}"`).join(', ');
    const codec = compression ? `, COMPRESSION '${compression.toLowerCase()}'` : '';
    [rowCount] = await e.db.transaction([`COPY (SELECT ${cols} FROM (${source})) TO '${file.replace(/'/g, "''")}' (FORMAT PARQUET${codec})`]);
  } else if (format === 'CSV' && csvQuery()) {
    // The CSV text built and written by DuckDB, as for extract jobs (export-csv.ts).
    const opts = { delimiter: String(o.field_delimiter ?? ','), printHeader: o.header !== false, gzip: compression === 'GZIP' };
    [rowCount] = await e.db.transaction([copyCsvSql(csvQuery()!, file, opts)]);
  } else {
    // CSV, JSON and Avro carry BigQuery's export text and types: the same writers as extract jobs.
    const fields = resultFields(outs);
    const rows = await readRows(e, `SELECT ${outs.map((c) => colName(c.column)).join(', ')} FROM (${source})`, fields);
    const columns = fields.map((f) => ({ name: f.name, type: f.type, required: false }));
    if (format === 'AVRO') await writeAvro(file, columns, rows, compression === 'DEFLATE' ? 'deflate' : 'null', o.use_avro_logical_types === true);
    else {
      await writeTextFile(file, format === 'CSV' ? 'CSV' : 'NEWLINE_DELIMITED_JSON', columns, rows, { delimiter: String(o.field_delimiter ?? ','), printHeader: o.header !== false, gzip: compression === 'GZIP' });
    }
    rowCount = rows.length;
  }
  return rowCount;
}

export const EXPORT = { ExportDataStmt: exportData } satisfies StatementHandlers;
