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
 * - Avro (BigQuery "Avro export details"): INT64 → long, FLOAT64 → double, BOOL → boolean,
 *   STRING / GEOGRAPHY / JSON → string, BYTES → bytes, NUMERIC → decimal(38, 9) bytes, BIGNUMERIC →
 *   decimal(77, 38) bytes, TIMESTAMP → long timestamp-micros; with `useAvroLogicalTypes` DATE → int
 *   date, TIME → long time-micros, DATETIME → string datetime (else all three strings); NULLABLE →
 *   union with null, REPEATED → array, RECORD → record. Codecs: null and deflate (avsc's own);
 *   SNAPPY is not supported by bqemu.
 */
import fs from 'node:fs';
import avro from 'avsc';
import { twosComplement } from '../wire/avro.js';
import { BigQueryError } from '../errors/errors.js';
import type { Column } from '../types/schema.js';
import { parseScaled } from '../types/decimal.js';
import { formatInterval } from '../types/interval.js';
import { formatDatetimeMicros, formatTimestampUtc } from '../types/temporal.js';
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

interface AvroField {
  schema: unknown;
  conv: (v: Value) => unknown;
}

function avroType(t: BqType, logical: boolean, name: string, nullable: boolean): AvroField {
  const inner = ((): AvroField => {
    switch (t.kind) {
      case 'INT64':
        return { schema: 'long', conv: (v) => Number(v) };
      case 'FLOAT64':
        return { schema: 'double', conv: (v) => v };
      case 'BOOL':
        return { schema: 'boolean', conv: (v) => v };
      case 'BYTES':
        return { schema: 'bytes', conv: (v) => Buffer.from(v as Uint8Array) };
      case 'NUMERIC':
      case 'BIGNUMERIC': {
        const [precision, scale] = t.kind === 'NUMERIC' ? [38, 9] : [77, 38];
        return { schema: { type: 'bytes', logicalType: 'decimal', precision, scale }, conv: (v) => Buffer.from(twosComplement(parseScaled(String(v), scale) ?? 0n)) };
      }
      case 'TIMESTAMP':
        return { schema: { type: 'long', logicalType: 'timestamp-micros' }, conv: (v) => Number(v) };
      case 'DATE':
        if (logical) return { schema: { type: 'int', logicalType: 'date' }, conv: (v) => Math.round(Date.parse(`${String(v)}T00:00:00Z`) / 86_400_000) };
        return { schema: 'string', conv: (v) => String(v) };
      case 'TIME':
        if (logical)
          return {
            schema: { type: 'long', logicalType: 'time-micros' },
            conv: (v) => {
              const [h, m, s] = String(v).split(':');
              return (Number(h) * 3600 + Number(m) * 60) * 1_000_000 + Math.round(Number(s) * 1_000_000);
            },
          };
        return { schema: 'string', conv: (v) => String(v) };
      case 'DATETIME':
        return { schema: logical ? { type: 'string', logicalType: 'datetime' } : 'string', conv: (v) => (typeof v === 'bigint' ? formatDatetimeMicros(v) : String(v)) };
      case 'STRING':
      case 'JSON':
      case 'GEOGRAPHY':
        return { schema: 'string', conv: (v) => String(v) };
      case 'ARRAY': {
        const e = avroType(t.element, logical, name, false);
        return { schema: { type: 'array', items: e.schema }, conv: (v) => ((v as Value[]) ?? []).map(e.conv) };
      }
      case 'STRUCT': {
        const fields = t.fields.map((f, i) => ({ name: f.name ?? `_field_${i + 1}`, a: avroType(f.type, logical, `${name}_${f.name ?? i + 1}`, true) }));
        return {
          schema: { type: 'record', name, fields: fields.map((f) => ({ name: f.name, type: f.a.schema })) },
          conv: (v) => Object.fromEntries(fields.map((f, i) => [f.name, f.a.conv((v as Value[])[i])])),
        };
      }
      default:
        throw BigQueryError.notSupported(`Extracting ${t.kind} columns to AVRO`, { in: 'request' });
    }
  })();
  if (!nullable) return inner;
  return { schema: ['null', inner.schema], conv: (v) => (v === null || v === undefined ? null : inner.conv(v)) };
}

/**
 * Writes rows to an Avro object container file (record `Root`), codec `null` or `deflate`.
 * @throws BigQueryError invalid for a column type without an Avro mapping.
 */
export async function writeAvro(file: string, columns: Column[], rows: Value[][], codec: 'null' | 'deflate', logical: boolean): Promise<void> {
  const fields = columns.map((c) => ({ c, a: avroType(c.type, logical, `Root_${c.name}`, !c.required || c.type.kind === 'ARRAY') }));
  // A REPEATED column is an array, never a union (BigQuery's REPEATED mode has no NULL).
  for (const f of fields) if (f.c.type.kind === 'ARRAY') f.a = avroType(f.c.type, logical, `Root_${f.c.name}`, false);
  // The schema object itself (not a Type) keeps logicalType attributes in the file header.
  const schema = { type: 'record', name: 'Root', fields: fields.map((f) => ({ name: f.c.name, type: f.a.schema })) };
  await new Promise<void>((resolve, reject) => {
    const enc = new avro.streams.BlockEncoder(schema as any, { codec } as any);
    const out = fs.createWriteStream(file);
    enc.on('error', reject);
    out.on('error', reject);
    out.on('close', () => resolve());
    enc.pipe(out);
    for (const r of rows) enc.write(Object.fromEntries(fields.map((f, i) => [f.c.name, f.a.conv(r[i])])));
    enc.end();
  });
}
