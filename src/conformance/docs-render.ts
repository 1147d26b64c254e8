/**
 * Display renderer for the GoogleSQL documentation examples (conformance/docs-examples/,
 * conformance/README.md "Test data copied from the reference corpus"): turns a BigQuery value —
 * REST schema field plus the value the Node client decoded — into the docs' display style, and
 * matches a documented cell against a value.
 *
 * The docs print results as text tables: `[1, 2]` arrays, `{a: 1, b: "x"}` structs (also
 * positional `{1, 'a', NULL}`), strings unquoted at top level, `NULL`, timestamps as
 * `2008-12-25 15:30:00+00` (UTC), bytes as `b"\x00"`, ranges as `[2022-02-01, UNBOUNDED)`. The
 * style is not uniform across pages (`TRUE`/`true`, `110.0`/`3`, quoted or bare strings inside
 * arrays), so {@link cellMatches} compares by type: it reads the documented text the way the
 * value's type implies, with the tolerance the printed precision allows (cellMatches lives in
 * docs-match.ts, which builds on this module).
 */
import { BigQueryDate, BigQueryDatetime, BigQueryInt, BigQueryTime, BigQueryTimestamp, Geography } from '@google-cloud/bigquery';
import { parseTimestampMicros } from './values.js';

/** A REST `TableFieldSchema` as far as display needs it. */
export interface DisplayField {
  name: string;
  /** REST type name (`INTEGER`, `FLOAT`, `RECORD`, `RANGE`, … or their GoogleSQL names). */
  type: string;
  mode?: string;
  fields?: DisplayField[];
  rangeElementType?: { type: string };
}

/** Convert REST `schema.fields` to {@link DisplayField}s (keeps `rangeElementType`). */
export function toDisplayFields(fields: unknown): DisplayField[] {
  if (!Array.isArray(fields)) return [];
  return fields.map((f: Record<string, unknown>) => {
    const out: DisplayField = { name: String(f.name ?? ''), type: String(f.type ?? 'STRING') };
    if (typeof f.mode === 'string') out.mode = f.mode;
    if (Array.isArray(f.fields)) out.fields = toDisplayFields(f.fields);
    const r = f.rangeElementType as { type?: unknown } | undefined;
    if (r && typeof r.type === 'string') out.rangeElementType = { type: r.type };
    return out;
  });
}

const TYPE_NAMES: Record<string, string> = {
  INTEGER: 'INT64',
  INT64: 'INT64',
  FLOAT: 'FLOAT64',
  FLOAT64: 'FLOAT64',
  BOOLEAN: 'BOOL',
  BOOL: 'BOOL',
  RECORD: 'STRUCT',
  STRUCT: 'STRUCT',
  DECIMAL: 'NUMERIC',
  BIGDECIMAL: 'BIGNUMERIC',
};

/** GoogleSQL type name of a field (legacy REST names mapped). */
export function fieldType(f: DisplayField): string {
  const u = f.type.toUpperCase();
  return TYPE_NAMES[u] ?? u;
}

export function isRepeated(f: DisplayField): boolean {
  return (f.mode ?? '').toUpperCase() === 'REPEATED';
}

export function elementField(f: DisplayField): DisplayField {
  return { ...f, mode: 'NULLABLE' };
}

/** True when a struct field has no name of its own (BigQuery names those `_field_N` or ``). */
export function anonymous(name: string): boolean {
  return name === '' || /^_field_\d+$/.test(name);
}

// ---------------------------------------------------------------------------------------------
// Decoded client values → plain text
// ---------------------------------------------------------------------------------------------

export function valueText(v: unknown): string {
  if (v instanceof BigQueryInt) return v.value;
  if (v instanceof BigQueryTimestamp || v instanceof BigQueryDate || v instanceof BigQueryDatetime || v instanceof BigQueryTime || v instanceof Geography) {
    return String((v as { value: unknown }).value);
  }
  if (typeof v === 'object' && v !== null) {
    const ctor = (v as { constructor?: { name?: string } }).constructor?.name;
    if (ctor === 'Big') return (v as { toFixed(): string }).toFixed();
    if ('value' in v) return String((v as { value: unknown }).value);
  }
  return String(v);
}

function trimFraction(frac: string | undefined): string {
  const f = (frac ?? '').replace(/0+$/, '');
  return f ? `.${f.slice(0, 6).replace(/0+$/, '')}` : '';
}

/** `2008-12-25T15:30:00.123000Z` (or micros) → `2008-12-25 15:30:00.123+00`, in UTC. */
export function renderTimestamp(text: string): string {
  const micros = parseTimestampMicros(text);
  if (micros === undefined) return text;
  const secs = micros >= 0n ? micros / 1_000_000n : -((-micros + 999_999n) / 1_000_000n);
  const frac = micros - secs * 1_000_000n;
  const d = new Date(Number(secs) * 1000);
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ (years 0..9999)
  const f = frac === 0n ? '' : trimFraction(frac.toString().padStart(6, '0'));
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${f}+00`;
}

/** `2008-12-25T15:30:00.450000` → `2008-12-25 15:30:00.45`. */
export function renderDatetime(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?$/.exec(text.trim());
  return m ? `${m[1]} ${m[2]}${trimFraction(m[3])}` : text;
}

function renderTime(text: string): string {
  const m = /^(\d{2}:\d{2}:\d{2})(?:\.(\d+))?$/.exec(text.trim());
  return m ? `${m[1]}${trimFraction(m[2])}` : text;
}

/** FLOAT64 in the docs' style: shortest round-trip digits, `inf`/`-inf`/`NaN`. */
export function renderFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (Object.is(x, -0)) return '-0';
  return String(x);
}

/** BYTES as `b"…"`: printable ASCII kept, `\n` `\t` `\r` `\\` `\"` escaped, everything else `\xHH`. */
export function renderBytes(buf: Uint8Array): string {
  let s = '';
  for (const b of buf) {
    if (b === 0x5c) s += '\\\\';
    else if (b === 0x22) s += '\\"';
    else if (b === 0x0a) s += '\\n';
    else if (b === 0x09) s += '\\t';
    else if (b === 0x0d) s += '\\r';
    else if (b >= 0x20 && b < 0x7f) s += String.fromCharCode(b);
    else s += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return `b"${s}"`;
}

function quoteString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

export function rangeBound(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  return v;
}

/**
 * Render one value in the docs' display style. `nested` is true inside arrays, structs and ranges
 * (strings are then quoted).
 */
export function renderValue(v: unknown, f: DisplayField, nested = false): string {
  if (isRepeated(f)) {
    if (v === null || v === undefined) return 'NULL';
    const arr = Array.isArray(v) ? v : [v];
    const ef = elementField(f);
    return `[${arr.map((x) => renderValue(x, ef, true)).join(', ')}]`;
  }
  if (v === null || v === undefined) return 'NULL';
  const t = fieldType(f);
  switch (t) {
    case 'STRUCT': {
      const o = v as Record<string, unknown>;
      const fs = f.fields ?? [];
      const parts = fs.map((sf) => {
        const r = renderValue(o[sf.name], sf, true);
        return anonymous(sf.name) ? r : `${sf.name}: ${r}`;
      });
      return `{${parts.join(', ')}}`;
    }
    case 'BOOL':
      return v === true || v === 'true' ? 'true' : 'false';
    case 'INT64':
      return valueText(v);
    case 'FLOAT64':
      return renderFloat(typeof v === 'number' ? v : Number(valueText(v)));
    case 'NUMERIC':
    case 'BIGNUMERIC':
      return valueText(v);
    case 'STRING':
      return nested ? quoteString(String(v)) : String(v);
    case 'BYTES':
      return renderBytes(Buffer.isBuffer(v) || v instanceof Uint8Array ? v : Buffer.from(String(v), 'base64'));
    case 'TIMESTAMP':
      return renderTimestamp(valueText(v));
    case 'DATETIME':
      return renderDatetime(valueText(v));
    case 'TIME':
      return renderTime(valueText(v));
    case 'DATE':
    case 'GEOGRAPHY':
    case 'INTERVAL':
      return valueText(v);
    case 'JSON':
      return typeof v === 'string' ? v : JSON.stringify(v);
    case 'RANGE': {
      const r = v as { start?: unknown; end?: unknown };
      const ef: DisplayField = { name: '', type: f.rangeElementType?.type ?? 'DATE' };
      const b = (x: unknown) => (rangeBound(x) === null ? 'UNBOUNDED' : renderValue(x, ef));
      return typeof v === 'string' ? v : `[${b(r.start)}, ${b(r.end)})`;
    }
    default:
      return typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
}

/** Render a decoded row (values in schema order). */
export function renderRow(values: unknown[], fields: DisplayField[]): string[] {
  return fields.map((f, i) => renderValue(values[i], f));
}
