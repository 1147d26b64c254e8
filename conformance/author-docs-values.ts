/**
 * GoogleSQL type names and documented display values → the recorded form of `expected.json`
 * (conformance/README.md "Recording notes" 2), for conformance/author-docs.ts.
 */
import { N, Raw, type Val } from './author-docs-specs.js';

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

export interface Ty {
  kind: string; // INT64, FLOAT64, …, ARRAY, STRUCT, RANGE
  element?: Ty; // ARRAY element, RANGE element
  fields?: { name: string; type: Ty }[];
}

/** Split at top-level commas (outside <>, (), [], {} and quotes). */
function splitTop(s: string, sep = ','): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      cur += c;
      if (c === '\\') {
        cur += s[++i] ?? '';
      } else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      cur += c;
      continue;
    }
    if ('<([{'.includes(c)) depth++;
    if ('>)]}'.includes(c)) depth--;
    if (c === sep && depth === 0) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur.trim() !== '' || out.length > 0) out.push(cur.trim());
  return out;
}

export function parseType(t: string): Ty {
  const s = t.trim();
  let m = /^ARRAY<(.*)>$/s.exec(s);
  if (m) return { kind: 'ARRAY', element: parseType(m[1]!) };
  m = /^RANGE<(.*)>$/s.exec(s);
  if (m) return { kind: 'RANGE', element: parseType(m[1]!) };
  m = /^STRUCT<(.*)>$/s.exec(s);
  if (m) {
    const fields = splitTop(m[1]!).map((f) => {
      const fm = /^(\w+)\s+(.*)$/s.exec(f);
      if (!fm) throw new Error(`bad STRUCT field ${f}`);
      return { name: fm[1]!, type: parseType(fm[2]!) };
    });
    return { kind: 'STRUCT', fields };
  }
  const known = ['INT64', 'FLOAT64', 'NUMERIC', 'BIGNUMERIC', 'BOOL', 'STRING', 'BYTES', 'DATE', 'DATETIME', 'TIME', 'TIMESTAMP', 'INTERVAL', 'JSON'];
  if (!known.includes(s)) throw new Error(`unknown type ${s}`);
  return { kind: s };
}

const LEGACY: Record<string, string> = { INT64: 'INTEGER', FLOAT64: 'FLOAT', BOOL: 'BOOLEAN', STRUCT: 'RECORD' };

export interface SchemaField {
  name: string;
  type: string;
  mode: string;
  fields?: SchemaField[];
}

/** The REST schema field of a column (legacy type names, REPEATED for arrays, as recorded). */
export function schemaField(name: string, ty: Ty): SchemaField {
  if (ty.kind === 'ARRAY') return { ...schemaField(name, ty.element!), mode: 'REPEATED' };
  const f: SchemaField = { name, type: LEGACY[ty.kind] ?? ty.kind, mode: 'NULLABLE' };
  if (ty.kind === 'STRUCT') f.fields = ty.fields!.map((x) => schemaField(x.name, x.type));
  return f;
}

// ---------------------------------------------------------------------------------------------
// Display → recorded form
// ---------------------------------------------------------------------------------------------

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && (t[0] === "'" || t[0] === '"') && t[t.length - 1] === t[0]) return t.slice(1, -1);
  return t;
}

/** Decode an escaped bytes display (b'…', b"…" or bare `\xab\n…` / octal `\377`) to base64. */
export function bytesDisplayToBase64(text: string): string {
  let s = text.trim();
  const m = /^b(['"])(.*)\1$/s.exec(s);
  if (m) s = m[2]!;
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\') {
      out.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const d = s[++i]!;
    if (d === 'x') {
      out.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (/[0-7]/.test(d)) {
      const oct = /^[0-7]{1,3}/.exec(s.slice(i))![0];
      out.push(parseInt(oct, 8));
      i += oct.length - 1;
    } else {
      const map: Record<string, number> = { n: 10, t: 9, r: 13, '\\': 92, "'": 39, '"': 34, '0': 0 };
      if (!(d in map)) throw new Error(`unknown escape \\${d} in ${text}`);
      out.push(map[d]!);
    }
  }
  return Buffer.from(out).toString('base64');
}

/** Python's isoformat drops a zero fraction. */
function isoFraction(f: string | undefined): string {
  if (!f) return '';
  const six = f.padEnd(6, '0').slice(0, 6);
  return /^0+$/.test(six) ? '' : `.${six}`;
}

function stripLiteralPrefix(s: string, kw: string): string {
  const m = new RegExp(`^${kw}\\s*(['"])(.*)\\1$`, 's').exec(s.trim());
  return m ? m[2]! : s.trim();
}

/**
 * Canonical INTERVAL text → the Python client's relativedelta repr (conformance/README.md
 * "Recording notes" 3).
 */
export function intervalToRelativedelta(text: string): string {
  const m = /^(-)?(\d+)-(\d+) (-?\d+) (-)?(\d+):(\d+):(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) throw new Error(`bad INTERVAL ${text}`);
  const cs = m[1] ? -1 : 1;
  const ts = m[5] ? -1 : 1;
  let years = cs * Number(m[2]);
  let months = cs * Number(m[3]);
  let days = Number(m[4]);
  let hours = ts * Number(m[6]);
  let minutes = ts * Number(m[7]);
  let seconds = ts * Number(m[8]);
  let micros = m[9] ? ts * Number(m[9].padEnd(6, '0').slice(0, 6)) : 0;
  // relativedelta._fix: carry overflowing units with their sign (days are not carried into months).
  const carry = (v: number, lim: number): [number, number] => {
    if (Math.abs(v) > lim) {
      const s = Math.sign(v);
      const q = Math.floor((s * v) / (lim + 1));
      return [v - q * (lim + 1) * s, q * s];
    }
    return [v, 0];
  };
  let c: number;
  [micros, c] = carry(micros, 999999);
  seconds += c;
  [seconds, c] = carry(seconds, 59);
  minutes += c;
  [minutes, c] = carry(minutes, 59);
  hours += c;
  [hours, c] = carry(hours, 23);
  days += c;
  [months, c] = carry(months, 11);
  years += c;
  const parts: string[] = [];
  for (const [k, v] of [['years', years], ['months', months], ['days', days], ['hours', hours], ['minutes', minutes], ['seconds', seconds], ['microseconds', micros]] as const) {
    if (v !== 0) parts.push(`${k}=${v > 0 ? '+' : ''}${v}`);
  }
  return `relativedelta(${parts.join(', ')})`;
}

function isNullText(s: string): boolean {
  return /^null$/i.test(s.trim());
}

/** Convert one documented cell to its recorded value under the column's declared type. */
export function convert(ty: Ty, text: string, nested = false): Val {
  const s = text.trim();
  if (ty.kind === 'ARRAY') {
    if (isNullText(s)) return []; // BigQuery returns a NULL array as [] (data-types: NULLs and the array type)
    const m = /^\[(.*)\]$/s.exec(s);
    if (!m) throw new Error(`not an array: ${text}`);
    const inner = m[1]!.trim().replace(/,\s*$/, '');
    if (inner === '') return [];
    return splitTop(inner).map((e) => {
      if (isNullText(e)) throw new Error(`NULL array element in ${text} (BigQuery cannot return it)`);
      return convert(ty.element!, e, true);
    });
  }
  if (isNullText(s)) return null;
  switch (ty.kind) {
    case 'INT64':
      if (!/^-?\d+$/.test(s)) throw new Error(`not an INT64: ${text}`);
      return N(s);
    case 'FLOAT64': {
      if (/^nan$/i.test(s)) return N('NaN');
      if (/^\+?inf(inity)?$/i.test(s)) return N('Infinity');
      if (/^-inf(inity)?$/i.test(s)) return N('-Infinity');
      if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(s)) throw new Error(`not a FLOAT64: ${text}`);
      return N(s);
    }
    case 'NUMERIC':
    case 'BIGNUMERIC':
      if (!/^-?\d+(\.\d+)?$/.test(s)) throw new Error(`not a ${ty.kind}: ${text}`);
      return s;
    case 'BOOL':
      if (/^true$/i.test(s)) return true;
      if (/^false$/i.test(s)) return false;
      throw new Error(`not a BOOL: ${text}`);
    case 'STRING':
      return nested ? unquote(s) : text;
    case 'JSON':
      return text;
    case 'BYTES':
      return bytesDisplayToBase64(s);
    case 'DATE': {
      const v = stripLiteralPrefix(s, 'DATE');
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) throw new Error(`not a DATE: ${text}`);
      return v;
    }
    case 'DATETIME': {
      const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{1,2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(stripLiteralPrefix(s, 'DATETIME'));
      if (!m) throw new Error(`not a DATETIME: ${text}`);
      return `${m[1]}T${m[2]!.padStart(2, '0')}:${m[3]}:${m[4]}${isoFraction(m[5])}`;
    }
    case 'TIME': {
      const m = /^(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(stripLiteralPrefix(s, 'TIME'));
      if (!m) throw new Error(`not a TIME: ${text}`);
      return `${m[1]!.padStart(2, '0')}:${m[2]}:${m[3]}${isoFraction(m[4])}`;
    }
    case 'TIMESTAMP': {
      const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{1,2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:\s*(?:\+00(?::?00)?|UTC|Z))$/.exec(stripLiteralPrefix(s, 'TIMESTAMP'));
      if (!m) throw new Error(`not a UTC TIMESTAMP: ${text}`);
      return `${m[1]}T${m[2]!.padStart(2, '0')}:${m[3]}:${m[4]}${isoFraction(m[5])}+00:00`;
    }
    case 'INTERVAL':
      return intervalToRelativedelta(s);
    case 'RANGE': {
      const m = /^\[(.*)\)$/s.exec(s);
      if (!m) throw new Error(`not a RANGE: ${text}`);
      const [a, b] = splitTop(m[1]!);
      const bound = (x: string | undefined): Val => (x === undefined || /^(unbounded|null)$/i.test(x.trim()) ? null : convert(ty.element!, x, true));
      return { start: bound(a), end: bound(b) };
    }
    case 'STRUCT': {
      const m = /^[{(](.*)[})]$/s.exec(s);
      if (!m) throw new Error(`not a STRUCT: ${text}`);
      const parts = splitTop(m[1]!);
      const fields = ty.fields!;
      if (parts.length !== fields.length) throw new Error(`STRUCT arity ${parts.length} vs ${fields.length}: ${text}`);
      const out: Record<string, Val> = {};
      parts.forEach((p, i) => {
        const named = /^(\w+)\s*:\s*(.*)$/s.exec(p);
        if (named) {
          const f = fields.find((x) => x.name === named[1]);
          if (!f) throw new Error(`unknown field ${named[1]} in ${text}`);
          out[f.name] = convert(f.type, named[2]!, true);
        } else {
          out[fields[i]!.name] = convert(fields[i]!.type, p, true);
        }
      });
      return out;
    }
    default:
      throw new Error(`no conversion for ${ty.kind}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

/** JSON text with 2-space indent; Raw values are written as their exact number text. */
export function stringify(v: unknown, indent = ''): string {
  const next = `${indent}  `;
  if (v instanceof Raw) return v.text;
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => next + stringify(x, next)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, x]) => `${next}${JSON.stringify(k)}: ${stringify(x, next)}`).join(',\n')}\n${indent}}`;
}

