/**
 * EXPORT DATA OPTIONS(uri = 'gs://bucket/path/*.ext', format = …) AS query (BigQuery "EXPORT DATA
 * statement"). The emulator has no Cloud Storage: `gs://bucket/path` is written under the local
 * directory `BQEMU_GCS_DIR` (default `$TMPDIR/bqemu-gcs`) as `<dir>/bucket/path`, the `*` becoming
 * the shard number `000000000000` as BigQuery names a single shard. CSV (with header, optional GZIP),
 * JSON (newline-delimited) and PARQUET are written by DuckDB's COPY; AVRO is refused clearly.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Node } from '../analyzer/ast.js';
import { BigQueryError } from '../errors/errors.js';
import type { Engine, QueryOptions, StatementResult } from './engine.js';
import { colName, type LowerContext } from './lower/context.js';
import { lowerScan } from './lower/scans.js';
import { literalOptions } from './options.js';
import type { StatementHandler } from './statements.js';

/** Local directory standing in for Cloud Storage. */
export function gcsRoot(): string {
  return process.env.BQEMU_GCS_DIR || path.join(os.tmpdir(), 'bqemu-gcs');
}

/** The local file for a `gs://` URI (one shard). */
export function localPathOfUri(uri: string): string {
  const m = /^gs:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (!m) throw new BigQueryError('invalidQuery', `Invalid export URI: ${uri}`);
  const rel = m[2].replace('*', '000000000000');
  const file = path.resolve(gcsRoot(), m[1], rel);
  if (!file.startsWith(path.resolve(gcsRoot()) + path.sep)) throw new BigQueryError('invalidQuery', `Invalid export URI: ${uri}`);
  return file;
}

const FORMATS: Record<string, string> = { CSV: 'CSV', JSON: 'JSON', PARQUET: 'PARQUET' };

async function exportData(e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const o = literalOptions(stmt.optionList);
  const uri = typeof o.uri === 'string' ? o.uri : '';
  // Recorded export_data/export_missing_uri: invalidQuery without a location.
  if (!uri) throw new BigQueryError('invalidQuery', "Option 'uri' is missing or empty.");
  const format = String(o.format ?? 'CSV').toUpperCase();
  const duckFormat = FORMATS[format];
  if (!duckFormat) throw BigQueryError.notSupported(`EXPORT DATA format ${format}`);
  const result: StatementResult = { statementType: 'EXPORT_DATA', schema: [], rows: [] };
  if (opts.dryRun) return result;
  const file = localPathOfUri(uri);
  if (fs.existsSync(file) && o.overwrite !== true) throw new BigQueryError('invalidQuery', `Destination ${uri} already exists; set overwrite = true`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const outs: Node[] = stmt.outputColumnList ?? [];
  const cols = outs.map((c) => `${colName(c.column)} AS "${String(c.name).replace(/"/g, '""')}"`).join(', ');
  const copts = [`FORMAT ${duckFormat}`];
  if (duckFormat === 'CSV') copts.push(`HEADER ${o.header === false ? 'false' : 'true'}`, `DELIMITER '${String(o.field_delimiter ?? ',').replace(/'/g, "''")}'`);
  if (String(o.compression ?? '').toUpperCase() === 'GZIP') copts.push("COMPRESSION 'gzip'");
  const [rowCount] = await e.db.transaction([`COPY (SELECT ${cols} FROM (${lowerScan(stmt.query, ctx)})) TO '${file.replace(/'/g, "''")}' (${copts.join(', ')})`]);
  // JobStatistics2.exportDataStatistics (recorded http/jobs/export_csv_query_job: one file, its rows).
  result.exportDataStatistics = { fileCount: 1, rowCount };
  return result;
}

export const EXPORT: Record<string, StatementHandler> = { ExportDataStmt: exportData };
