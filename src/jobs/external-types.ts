/**
 * Schema auto-detection of external tables (external.ts): DuckDB's type texts (`DESCRIBE` of
 * read_csv / read_json / read_parquet) → BigQuery column types. Integers → INT64, floating point →
 * FLOAT64, DECIMAL(p,s) with s ≤ 9 and p − s ≤ 29 → NUMERIC, BOOLEAN → BOOL, strings and UUID →
 * STRING, BLOB → BYTES, DATE, TIME, INTERVAL, JSON; TIMESTAMP WITH TIME ZONE → TIMESTAMP; a
 * timestamp without zone → TIMESTAMP for CSV/JSON text, DATETIME for Parquet (BigQuery maps
 * Parquet timestamps not adjusted to UTC to DATETIME); `T[]` → ARRAY; STRUCT(...) → STRUCT.
 * Other DuckDB types (MAP, UNION, wide DECIMAL, …) are rejected as not supported.
 */
import { BigQueryError } from '../errors/errors.js';
import type { Column } from '../types/schema.js';
import type { BqType } from '../types/types.js';

interface Options {
  /** CSV without a header: DuckDB's `column<i>` names become BigQuery's `<type>_field_<i>`. */
  generic?: boolean;
  /** BigQuery type of a timestamp without time zone. */
  naiveTimestamp: 'TIMESTAMP' | 'DATETIME';
}

/** Splits a DuckDB type list `a T, "b c" U(1,2)` at top-level commas. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let cur = '';
  for (const ch of s) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '(') depth++;
    else if (!quoted && ch === ')') depth--;
    if (!quoted && depth === 0 && ch === ',') {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** A DuckDB type text → BigQuery type. @throws BigQueryError for types BigQuery has no equivalent of. */
export function bqTypeOfDuck(text: string, o: Options): BqType {
  const t = text.trim();
  if (t.endsWith('[]')) return { kind: 'ARRAY', element: bqTypeOfDuck(t.slice(0, -2), o) };
  const struct = /^STRUCT\((.*)\)$/is.exec(t);
  if (struct)
    return {
      kind: 'STRUCT',
      fields: splitTop(struct[1]).map((f) => {
        const m = /^("(?:[^"]|"")*"|\S+)\s+(.+)$/s.exec(f);
        if (!m) throw BigQueryError.notSupported(`Detected type ${t} of an external table`);
        const name = m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1];
        return { name, type: bqTypeOfDuck(m[2], o) };
      }),
    };
  const dec = /^DECIMAL\((\d+),\s*(\d+)\)$/i.exec(t);
  if (dec) {
    const [p, s] = [Number(dec[1]), Number(dec[2])];
    if (s <= 9 && p - s <= 29) return { kind: 'NUMERIC' };
    throw BigQueryError.notSupported(`Detected type ${t} of an external table`);
  }
  const u = t.toUpperCase();
  if (/^(U?(TINYINT|SMALLINT|INTEGER|BIGINT)|HUGEINT|UHUGEINT)$/.test(u)) return { kind: 'INT64' };
  if (u === 'DOUBLE' || u === 'FLOAT') return { kind: 'FLOAT64' };
  if (u === 'BOOLEAN') return { kind: 'BOOL' };
  if (u === 'VARCHAR' || u === 'UUID' || u === 'NULL') return { kind: 'STRING' };
  if (u === 'BLOB') return { kind: 'BYTES' };
  if (u === 'DATE') return { kind: 'DATE' };
  if (u === 'TIME') return { kind: 'TIME' };
  if (u === 'INTERVAL') return { kind: 'INTERVAL' };
  if (u === 'JSON') return { kind: 'JSON' };
  if (u === 'TIMESTAMP WITH TIME ZONE' || u === 'TIMESTAMPTZ') return { kind: 'TIMESTAMP' };
  if (/^TIMESTAMP(_S|_MS|_NS)?$/.test(u)) return { kind: o.naiveTimestamp };
  throw BigQueryError.notSupported(`Detected type ${t} of an external table`);
}

/** The generic name stem BigQuery gives a headerless CSV column of this type. */
function stem(t: BqType): string {
  return t.kind === 'FLOAT64' ? 'double' : t.kind.toLowerCase();
}

/** The same type with every STRUCT's fields in reverse order (see `reverseFields`). */
function reversed(t: BqType): BqType {
  if (t.kind === 'ARRAY') return { kind: 'ARRAY', element: reversed(t.element) };
  if (t.kind === 'STRUCT') return { kind: 'STRUCT', fields: t.fields.map((f) => ({ name: f.name, type: reversed(f.type) })).reverse() };
  return t;
}

/**
 * Columns (all NULLABLE) of `DESCRIBE` rows. `reverseFields`: BigQuery's JSON schema
 * auto-detection lists fields, nested ones too, in the reverse order of the keys (recorded
 * http/jobs/upload_multipart_json_autodetect_new_table and _nested_new_table: `{"id", "name"}`
 * gives name, id).
 */
export function columnsOfDuckTypes(described: { name: string; type: string }[], o: Options & { reverseFields?: boolean }): Column[] {
  if (o.reverseFields)
    return columnsOfDuckTypes(described, { ...o, reverseFields: false })
      .map((c) => ({ ...c, type: reversed(c.type) }))
      .reverse();
  return described.map((d, i) => {
    const type = bqTypeOfDuck(d.type, o);
    const name = o.generic && /^column\d+$/.test(d.name) ? `${stem(type)}_field_${i}` : d.name;
    return { name, type, required: false };
  });
}
