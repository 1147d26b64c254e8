/**
 * File writers of EXPORT DATA (export.ts) and extract jobs (src/jobs/extract.ts): rows (domain
 * values, src/types/types.ts) as CSV, newline-delimited JSON and Avro object container files.
 *
 * Value text (BigQuery "Export table data to Cloud Storage" / "Exported data formats"):
 * - TIMESTAMP as `YYYY-MM-DD HH:MM:SS[.ffffff] UTC` (the documented CSV/JSON example
 *   `2019-01-13 00:00:00 UTC`); DATETIME `YYYY-MM-DDTHH:MM:SS[.ffffff]`; DATE, TIME, NUMERIC,
 *   BIGNUMERIC, JSON, GEOGRAPHY (WKT) and INTERVAL as their canonical text; BYTES base64; BOOL
 *   `true` / `false`; FLOAT64 in its shortest round-trip text (as CAST(x AS STRING)).
 * - CSV: NULL is an empty field; fields holding the delimiter, a quote or a line break are quoted
 *   with doubled quotes (RFC 4180); a header row unless `printHeader` is false.
 * - JSON: "INT64 (integer) data types are encoded as JSON strings to preserve 64-bit precision";
 *   NUMERIC / BIGNUMERIC are strings too (exact); NULL fields are left out; ARRAY → JSON array,
 *   STRUCT → object, a JSON column is embedded as its JSON value.
 * - Avro (BigQuery "Avro export details"): the export mapping of src/wire/avro.ts (one schema
 *   builder and avsc encoder shared with the Storage Read API): INT64 → long, FLOAT64 → double,
 *   BOOL → boolean, STRING / GEOGRAPHY / JSON → string, BYTES → bytes, NUMERIC → decimal(38, 9)
 *   bytes, BIGNUMERIC → decimal(77, 38) bytes, TIMESTAMP → long timestamp-micros; with
 *   `useAvroLogicalTypes` DATE → int date, TIME → long time-micros, DATETIME → string datetime
 *   (else all three strings); NULLABLE → union with null, REPEATED → array, RECORD → record.
 *   Codecs: null and deflate (avsc's own); SNAPPY is not supported by bqemu.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import avro from 'avsc';
import { avroRowWriter } from '../wire/avro.js';
import type { Column } from '../types/schema.js';
import { formatInterval } from '../types/interval.js';
import { formatTimestampUtc } from '../types/temporal.js';
import type { BqType, IntervalValue, RangeValue, Value } from '../types/types.js';

/** The export text of a scalar (non-NULL, not ARRAY/STRUCT) value. */
export function exportText(v: Value, t: BqType): string {
  switch (t.kind) {
    case 'TIMESTAMP':
      return `${formatTimestampUtc(v as bigint).slice(0, -3)} UTC`;
    case 'FLOAT64':
      return Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : String(v);
    case 'BYTES':
      return Buffer.from(v as Uint8Array).toString('base64');
    case 'INTERVAL':
      return formatInterval(v as IntervalValue);
    case 'RANGE': {
      const r = v as RangeValue;
      const b = (x: Value) => (x === null ? 'UNBOUNDED' : exportText(x, t.element));
      return `[${b(r.start)}, ${b(r.end)})`;
    }
    default:
      return String(v);
  }
}

const CSV_SPECIAL = /["\r\n]/;

/** CSV text of rows; `delimiter` one character (or a longer separator), header per `printHeader`. */
export function csvText(columns: Column[], rows: Value[][], delimiter: string, printHeader: boolean): string {
  const quote = (s: string) => (s.includes(delimiter) || CSV_SPECIAL.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const lines: string[] = [];
  if (printHeader) lines.push(columns.map((c) => quote(c.name)).join(delimiter));
  for (const r of rows) lines.push(columns.map((c, i) => (r[i] === null || r[i] === undefined ? '' : quote(exportText(r[i], c.type)))).join(delimiter));
  return lines.length ? `${lines.join('\n')}\n` : '';
}

function jsonValue(v: Value, t: BqType): unknown {
  if (t.kind === 'ARRAY') return ((v as Value[]) ?? []).map((x) => (x === null ? null : jsonValue(x, t.element)));
  if (t.kind === 'STRUCT') {
    const o: Record<string, unknown> = {};
    t.fields.forEach((f, i) => {
      const x = (v as Value[])[i];
      if (x !== null && x !== undefined) o[f.name ?? `_field_${i + 1}`] = jsonValue(x, f.type);
    });
    return o;
  }
  if (t.kind === 'BOOL') return v;
  if (t.kind === 'FLOAT64') return Number.isFinite(v) ? v : exportText(v, t);
  if (t.kind === 'JSON') return JSON.parse(String(v));
  return exportText(v, t);
}

/** Newline-delimited JSON text of rows (NULL fields left out). */
export function ndjsonText(columns: Column[], rows: Value[][]): string {
  return rows
    .map((r) => {
      const o: Record<string, unknown> = {};
      columns.forEach((c, i) => {
        if (r[i] !== null && r[i] !== undefined && !(c.type.kind === 'ARRAY' && !(r[i] as Value[]).length)) o[c.name] = jsonValue(r[i], c.type);
      });
      return `${JSON.stringify(o)}\n`;
    })
    .join('');
}

/** Rows turned into file text between two yields to the event loop (a few ms of work). */
const WRITE_SLICE_ROWS = 4_096;

/** Options of {@link writeTextFile}. */
export interface TextFileOptions {
  /** CSV field delimiter (CSV only). */
  delimiter?: string;
  /** CSV header row (CSV only; default true). */
  printHeader?: boolean;
  /** Gzip the file. */
  gzip?: boolean;
}

/**
 * Writes rows as a CSV or newline-delimited JSON file ({@link csvText}, {@link ndjsonText}),
 * WRITE_SLICE_ROWS rows at a time through a file stream (gzipped when asked): a 1M-row extract
 * built its whole text and wrote it synchronously, stalling every client for ~1.5 s (bench
 * server-stalls). The bytes equal those of the whole text written at once.
 * @throws the file system's error.
 */
export async function writeTextFile(file: string, format: 'CSV' | 'NEWLINE_DELIMITED_JSON', columns: Column[], rows: Value[][], opts: TextFileOptions = {}): Promise<void> {
  const text = (part: Value[][], first: boolean) =>
    format === 'CSV' ? csvText(columns, part, opts.delimiter ?? ',', first && opts.printHeader !== false) : ndjsonText(columns, part);
  async function* slices(): AsyncGenerator<string> {
    if (!rows.length) {
      yield text([], true);
      return;
    }
    for (let i = 0; i < rows.length; i += WRITE_SLICE_ROWS) {
      if (i) await new Promise<void>((resolve) => setImmediate(resolve));
      yield text(rows.slice(i, i + WRITE_SLICE_ROWS), i === 0);
    }
  }
  const out = fs.createWriteStream(file);
  if (opts.gzip) await pipeline(Readable.from(slices()), zlib.createGzip(), out);
  else await pipeline(Readable.from(slices()), out);
}

/**
 * Writes rows to an Avro object container file (record `Root`), codec `null` or `deflate`, with
 * BigQuery's export mapping (`avroRowWriter`, src/wire/avro.ts; `logical`: the job's
 * useAvroLogicalTypes / use_avro_logical_types).
 * @throws BigQueryError notSupported for a column type without an Avro export mapping (INTERVAL, RANGE).
 */
export async function writeAvro(file: string, columns: Column[], rows: Value[][], codec: 'null' | 'deflate', logical: boolean): Promise<void> {
  const w = avroRowWriter(columns, { target: 'export', logicalTypes: logical });
  await new Promise<void>((resolve, reject) => {
    const enc = new avro.streams.BlockEncoder(w.type, { codec });
    // avsc writes `type.getSchema()` into the header when built from a Type, which drops the
    // logicalType attributes; a BlockEncoder built from a schema keeps that schema for its header
    // (`_schema`, avsc 5.7 containers.js) — set it so the file header is BigQuery's schema.
    (enc as unknown as { _schema: unknown })._schema = w.schema;
    const out = fs.createWriteStream(file);
    enc.on('error', reject);
    out.on('error', reject);
    out.on('close', () => resolve());
    enc.pipe(out);
    // A slice of rows at a time, then back to the event loop (a 1M-row file was one long loop).
    const writeFrom = (at: number) => {
      try {
        const end = Math.min(rows.length, at + WRITE_SLICE_ROWS);
        for (let i = at; i < end; i++) enc.write(w.record(rows[i]!));
        if (end < rows.length) setImmediate(() => writeFrom(end));
        else enc.end();
      } catch (err) {
        reject(err);
      }
    };
    writeFrom(0);
  });
}
