/**
 * Cell-by-cell comparison of a table loaded from an ORC file with the ORC project's expected
 * content of that file (test/data/orc/expected/<name>.jsn.gz: one JSON object per row, as the
 * ORC project's reader prints it). Both sides are turned into one canonical text per row, typed
 * by the loaded table's schema, under BigQuery's ORC conversions
 * (https://cloud.google.com/bigquery/docs/loading-data-cloud-storage-orc#orc_conversions):
 * - INTEGER: decimal digits (the client's BigQueryInt text; the expected JSON number, read
 *   losslessly); FLOAT: the number (ORC `float` columns, listed by the caller, to 7 significant
 *   digits: the expected files print a float's shortest text, the table holds it widened to double);
 * - NUMERIC / BIGNUMERIC: the decimal without trailing fraction zeros; STRING: the text itself
 *   (a decimal loaded as STRING keeps its scale's digits, as the expected files print them);
 * - BYTES: hex; DATE: `YYYY-MM-DD`; TIMESTAMP: `YYYY-MM-DD HH:MM:SS.ffffff` (ORC's nanoseconds
 *   truncated to microseconds, as BigQuery converts them);
 * - RECORD: its fields by name; a union (`{tag, value}` in the expected files) → the RECORD whose
 *   field `field_<tag>` holds the value; REPEATED: the list (a NULL list loads as an empty one);
 *   a map (`[{key, value}]` in the expected files) → the REPEATED RECORD of `key` and `value`.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { parse as parseLossless } from 'lossless-json';

/** A REST TableFieldSchema (what tables.get answers). */
export interface Field {
  name: string;
  type: string;
  mode?: string;
  fields?: Field[];
}

const noTrailingZeros = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
const float7 = (x: number) => String(Number(x.toPrecision(7)));

/** Microsecond timestamp text of `YYYY-MM-DD[ T]HH:MM:SS[.fraction][Z]`. */
function timestampText(s: string): string {
  const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d+))?Z?$/.exec(s);
  if (!m) return `unparsed:${s}`;
  return `${m[1]} ${m[2]}.${((m[3] ?? '') + '000000').slice(0, 6)}`;
}

/** The canonical text of a cell the client returned (`@google-cloud/bigquery` row values, integers wrapped). */
export function clientCell(f: Field, v: any, floats: Set<string>, path = f.name): string {
  if (f.mode === 'REPEATED') return `[${((v ?? []) as any[]).map((x) => clientCell({ ...f, mode: 'NULLABLE' }, x, floats, path)).join(',')}]`;
  if (v === null || v === undefined) return 'null';
  switch (f.type) {
    case 'RECORD':
      return `{${f.fields!.map((c) => `${c.name}:${clientCell(c, v[c.name], floats, `${path}.${c.name}`)}`).join(',')}}`;
    case 'INTEGER':
      return String(v.value ?? v);
    case 'FLOAT':
      return floats.has(path) ? float7(v) : String(v);
    case 'NUMERIC':
    case 'BIGNUMERIC':
      return noTrailingZeros(v.toFixed());
    case 'BYTES':
      return Buffer.from(v).toString('hex');
    case 'DATE':
      return String(v.value);
    case 'TIMESTAMP':
      return timestampText(String(v.value));
    default:
      return String(v);
  }
}

/** The canonical text of a value of the expected file, typed by the loaded field. */
export function expectedCell(f: Field, v: any, floats: Set<string>, path = f.name): string {
  if (f.mode === 'REPEATED') return `[${((v ?? []) as any[]).map((x) => expectedCell({ ...f, mode: 'NULLABLE' }, x, floats, path)).join(',')}]`;
  if (v === null || v === undefined) return 'null';
  switch (f.type) {
    case 'RECORD':
      if (f.fields!.every((c, k) => c.name === `field_${k}`) && typeof v === 'object' && 'tag' in v) {
        const tag = Number(String(v.tag));
        return `{${f.fields!.map((c, k) => `${c.name}:${k === tag ? expectedCell(c, v.value, floats, `${path}.${c.name}`) : 'null'}`).join(',')}}`;
      }
      return `{${f.fields!.map((c) => `${c.name}:${expectedCell(c, v[c.name], floats, `${path}.${c.name}`)}`).join(',')}}`;
    case 'INTEGER':
      return String(v);
    case 'FLOAT':
      return floats.has(path) ? float7(Number(String(v))) : String(Number(String(v)));
    case 'NUMERIC':
    case 'BIGNUMERIC':
      return noTrailingZeros(String(v));
    case 'BYTES':
      return Buffer.from((v as unknown[]).map((x) => Number(String(x)))).toString('hex');
    case 'TIMESTAMP':
      return timestampText(String(v));
    case 'BOOLEAN':
      return String(v);
    default:
      return String(v);
  }
}

/** The rows of an expected file (gzip JSON lines, numbers kept exact). */
export function expectedRows(file: string): Record<string, unknown>[] {
  return zlib
    .gunzipSync(fs.readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => parseLossless(l) as Record<string, unknown>);
}

/**
 * Compares loaded rows with expected rows as multisets of canonical row texts (a table has no row
 * order). Returns the first differences (at most `limit`), empty when every row matches.
 */
export function rowDifferences(fields: Field[], loaded: any[], expected: Record<string, unknown>[], floats: Set<string>, limit = 5): string[] {
  const got = loaded.map((r) => fields.map((f) => `${f.name}=${clientCell(f, r[f.name], floats)}`).join(' | ')).sort();
  const want = expected.map((r) => fields.map((f) => `${f.name}=${expectedCell(f, r[f.name], floats)}`).join(' | ')).sort();
  const out: string[] = [];
  if (got.length !== want.length) out.push(`${got.length} rows loaded, ${want.length} expected`);
  for (let i = 0; i < Math.max(got.length, want.length) && out.length < limit; i++)
    if (got[i] !== want[i]) out.push(`loaded:   ${got[i]}\nexpected: ${want[i]}`);
  return out;
}
