/** Matching a documented cell of the GoogleSQL documentation examples against a value (docs-render.ts). */
import {
  canonicalDecimal,
  decimalsEqual,
  floatsEqual,
  intervalsEqual,
  jsonValuesEqual,
  normaliseWkt,
  parseTimeMicros,
  parseTimestampMicros,
  tryParseJson,
} from './values.js';
import { anonymous, elementField, fieldType, isRepeated, rangeBound, renderValue, valueText, type DisplayField } from './docs-render.js';

/**
 * Split the inside of a documented `[…]` / `{…}` at top-level commas, respecting nested brackets,
 * parentheses and quotes. Returns the trimmed parts (`[]` for an empty body).
 */
export function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let cur = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quote) {
      cur += c;
      if (c === '\\' && i + 1 < body.length) {
        cur += body[++i];
        continue;
      }
      if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") {
      // A quote opens a quoted token only at the start of a part (after optional `name:` / `b`).
      if (/^\s*(?:[A-Za-z_]\w*\s*:\s*)?[bBrR]{0,2}$/.test(cur)) quote = c;
      cur += c;
      continue;
    }
    if (c === '[' || c === '{' || c === '(') depth++;
    else if (c === ']' || c === '}' || c === ')') depth--;
    if (c === ',' && depth === 0) {
      parts.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur.trim() !== '' || parts.length > 0) parts.push(cur.trim());
  return parts;
}

/** Unquote `"…"` / `'…'` (with simple backslash escapes); undefined when not quoted. */
export function unquote(s: string): string | undefined {
  const t = s.trim();
  if (t.length < 2) return undefined;
  const q = t[0];
  if ((q !== '"' && q !== "'") || t[t.length - 1] !== q) return undefined;
  return t.slice(1, -1).replace(/\\(.)/gs, (_m, c: string) => ({ n: '\n', t: '\t', r: '\r' })[c] ?? c);
}

/** Decode a documented bytes cell: `b"\x00ab"`, `b'\x48'`, or bare Python-style `\xa3o\x88W`. */
export function parseDocBytes(text: string): Buffer | undefined {
  let t = text.trim();
  const m = /^[bB]([rR]?)(["'])(.*)\2$/s.exec(t);
  if (m) t = m[3]!;
  else if (/^[rR]?[bB](["'])(.*)\1$/s.test(t)) t = t.replace(/^[rR]?[bB](["'])(.*)\1$/s, '$2');
  const out: number[] = [];
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === '\\' && i + 1 < t.length) {
      const n = t[i + 1]!;
      if (n === 'x' && /^[0-9a-fA-F]{2}$/.test(t.slice(i + 2, i + 4))) {
        out.push(parseInt(t.slice(i + 2, i + 4), 16));
        i += 3;
        continue;
      }
      if (/[0-7]/.test(n) && /^[0-7]{3}$/.test(t.slice(i + 1, i + 4))) {
        out.push(parseInt(t.slice(i + 1, i + 4), 8));
        i += 3;
        continue;
      }
      const esc: Record<string, number> = { n: 10, t: 9, r: 13, '\\': 92, '"': 34, "'": 39, '0': 0, a: 7, b: 8, f: 12, v: 11 };
      if (esc[n] !== undefined) {
        out.push(esc[n]!);
        i += 1;
        continue;
      }
    }
    const code = c.codePointAt(0)!;
    if (code > 0x7f) {
      const enc = Buffer.from(String.fromCodePoint(code));
      out.push(...enc);
      if (code > 0xffff) i++;
    } else out.push(code);
  }
  return Buffer.from(out);
}

/** A documented number and the size of its last printed digit. */
interface DocNumber {
  value: number;
  /** 10^(place of the last printed digit); 0 when printed without a fraction or exponent. */
  ulp: number;
}

export function parseDocNumber(text: string): DocNumber | undefined {
  const t = text.trim().replace(/^\+/, '');
  if (/^-?(inf|infinity)$/i.test(t)) return { value: t.startsWith('-') ? -Infinity : Infinity, ulp: 0 };
  if (/^-?nan$/i.test(t)) return { value: NaN, ulp: 0 };
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(t);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const value = Number(t);
  if (Number.isNaN(value)) return undefined;
  const fracDigits = (m[3] ?? '').length;
  const exp = Number(m[4] ?? 0);
  const ulp = m[3] === undefined && m[4] === undefined ? 0 : Math.pow(10, exp - fracDigits);
  return { value, ulp };
}

/** A documented number matches a value when equal to the printed precision (rounded or truncated). */
function numberClose(doc: DocNumber, actual: number): boolean {
  if (floatsEqual(doc.value, actual)) return true;
  if (!Number.isFinite(doc.value) || !Number.isFinite(actual)) return false;
  const tol = doc.ulp > 0 ? doc.ulp * 1.000001 : Math.abs(doc.value) * 1e-9;
  return Math.abs(doc.value - actual) <= tol;
}

function isNullText(s: string): boolean {
  return /^null$/i.test(s.trim());
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * C0 control characters other than line breaks and tabs, DEL, and the zero-width format characters
 * (U+200B–U+200F, U+2060–U+2064, U+FEFF): nothing shows for them in a printed table.
 */
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u200B-\u200F\u2060-\u2064\uFEFF]/;

function stringMatches(expected: string, actual: string, nested: boolean): boolean {
  if (expected === actual) return true;
  // A printed table shows nothing for a NUL (string_functions/code-points-to-string-2: `a\0例` prints
  // `a例`) or a word joiner (collation-concepts/caveats-1: `oran\u2060ge1` prints `orange1`).
  if (INVISIBLE.test(actual) && !INVISIBLE.test(expected)) return stringMatches(expected, actual.replace(new RegExp(INVISIBLE.source, 'g'), ''), nested);
  const e = expected.trim();
  if (e === actual.trim()) return true;
  const uq = unquote(e);
  if (uq !== undefined && (uq === actual || uq.trim() === actual.trim())) return true;
  // Multi-line cells are reflowed by the docs' tables.
  if (/\n/.test(expected) || /\n/.test(actual)) {
    if (collapse(e) === collapse(actual)) return true;
    if (uq !== undefined && collapse(uq) === collapse(actual)) return true;
  }
  void nested;
  return false;
}

function wktMatches(expected: string, actual: string): boolean {
  const e = normaliseWkt(unquote(expected) ?? expected);
  const a = normaliseWkt(actual);
  if (e === a) return true;
  // Same shape, coordinates equal to the printed precision.
  const num = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  if (e.replace(num, '#') !== a.replace(num, '#')) return false;
  const en = e.match(num) ?? [];
  const an = a.match(num) ?? [];
  return en.length === an.length && en.every((x, i) => {
    const d = parseDocNumber(x);
    return d !== undefined && (numberClose(d, Number(an[i])) || Math.abs(d.value - Number(an[i])) <= 1e-9 * Math.max(1, Math.abs(d.value)));
  });
}

function stripTypedLiteral(s: string): string {
  const m = /^(?:DATE|DATETIME|TIMESTAMP|TIME)\s+(['"])(.*)\1$/is.exec(s.trim());
  return m ? m[2]! : (unquote(s) ?? s.trim());
}

/**
 * Strip the field name from a struct part: a leading `name:` (any name when the field is anonymous)
 * or the trailing ` name` some pages print after the value (`{[25, 75] prices}`).
 */
function stripFieldName(part: string, field: DisplayField): string | undefined {
  const m = /^\s*([A-Za-z_]\w*)\s*:\s*(.*)$/s.exec(part);
  if (m && (m[1]!.toLowerCase() === field.name.toLowerCase() || anonymous(field.name))) return m[2]!;
  const s = /^(.*\S)\s+([A-Za-z_]\w*)\s*$/s.exec(part);
  if (s && !anonymous(field.name) && s[2]!.toLowerCase() === field.name.toLowerCase()) return s[1]!;
  if (!anonymous(field.name) && part.trim().toLowerCase() === field.name.toLowerCase()) return ''; // an empty string value
  return undefined;
}

/**
 * True when the documented cell `expected` shows the value `v` of field `f`. Reads the text the way
 * the type implies: numbers to the printed precision, timestamps as instants (no zone = UTC),
 * bytes decoded from their escapes, JSON by value, WKT by shape and coordinates, arrays/structs
 * element by element (names optional, strings quoted or not). Falls back to comparing with
 * {@link renderValue}'s text, whitespace and quote style aside.
 */
export function cellMatches(expected: string, v: unknown, f: DisplayField, nested = false): boolean {
  if (typedMatch(expected, v, f, nested)) return true;
  const rendered = renderValue(v, f, nested);
  if (expected === rendered) return true;
  const t = fieldType(f);
  if (isRepeated(f) || t === 'STRUCT' || t === 'RANGE') {
    const squash = (s: string) => s.replace(/\s+/g, '').replace(/'/g, '"');
    const bare = (s: string) => squash(s).replace(/"/g, '');
    return squash(expected) === squash(rendered) || bare(expected) === bare(rendered);
  }
  return false;
}

function typedMatch(expected: string, v: unknown, f: DisplayField, nested: boolean): boolean {
  const e = expected.trim();
  const t = fieldType(f);
  if (isRepeated(f)) {
    const arr = v === null || v === undefined ? [] : Array.isArray(v) ? v : [v];
    // BigQuery returns a NULL array as an empty one.
    if (arr.length === 0 && (isNullText(e) || /^\[\s*\]$/.test(e))) return true;
    if (!e.startsWith('[') || !e.endsWith(']')) return false;
    // Arrays printed one element a line end with a comma after the last element
    // (range-functions/generate-range-array-1).
    const body = /\n/.test(e) ? e.slice(1, -1).replace(/,\s*$/, '') : e.slice(1, -1);
    const parts = splitTopLevel(body);
    if (parts.length !== arr.length) return false;
    const ef = elementField(f);
    return parts.every((p, i) => cellMatches(p, arr[i], ef, true));
  }
  if (v === null || v === undefined) {
    if (t === 'JSON' || t === 'STRING') return e === 'NULL';
    return isNullText(e);
  }
  switch (t) {
    case 'STRUCT': {
      const m = /^[{(]([\s\S]*)[})]$/.exec(e);
      if (!m) return false;
      const fs = f.fields ?? [];
      const parts = splitTopLevel(m[1]!);
      if (parts.length !== fs.length) return false;
      const o = v as Record<string, unknown>;
      return fs.every((sf, i) => {
        const p = parts[i]!;
        if (cellMatches(p, o[sf.name], sf, true)) return true;
        const rest = stripFieldName(p, sf);
        return rest !== undefined && cellMatches(rest, o[sf.name], sf, true);
      });
    }
    case 'BOOL':
      return e.toLowerCase() === (v === true || v === 'true' ? 'true' : 'false');
    case 'INT64': {
      const a = valueText(v);
      if (e.replace(/^\+/, '') === a) return true;
      const d = parseDocNumber(e);
      return d !== undefined && Number.isFinite(d.value) && Number.isInteger(d.value) && BigInt(Math.trunc(d.value)) === BigInt(a) && Math.abs(d.value) < 2 ** 53;
    }
    case 'FLOAT64': {
      const d = parseDocNumber(unquote(e) ?? e);
      const a = typeof v === 'number' ? v : Number(valueText(v));
      return d !== undefined && numberClose(d, a);
    }
    case 'NUMERIC':
    case 'BIGNUMERIC': {
      const a = valueText(v);
      const ee = unquote(e) ?? e;
      if (decimalsEqual(ee, a)) return true;
      const d = parseDocNumber(ee);
      return d !== undefined && canonicalDecimal(ee) !== undefined && d.ulp > 0 && numberClose(d, Number(a));
    }
    case 'STRING':
      return stringMatches(expected, String(v), nested);
    case 'BYTES': {
      const buf = Buffer.isBuffer(v) || v instanceof Uint8Array ? Buffer.from(v) : Buffer.from(String(v), 'base64');
      const decoded = parseDocBytes(e);
      if (decoded && decoded.equals(buf)) return true;
      return e === buf.toString('base64');
    }
    case 'TIMESTAMP': {
      const a = parseTimestampMicros(valueText(v));
      // Some pages print only the time of day of a timestamp column (`03:08:58`).
      const tod = parseTimeMicros(e);
      if (tod !== undefined && a !== undefined) return ((a % 86_400_000_000n) + 86_400_000_000n) % 86_400_000_000n === tod;
      const x = parseTimestampMicros(stripTypedLiteral(e));
      return a !== undefined && x !== undefined && (a > x ? a - x : x - a) <= 1n;
    }
    case 'DATETIME': {
      const a = parseTimestampMicros(valueText(v));
      const x = parseTimestampMicros(stripTypedLiteral(e));
      return a !== undefined && x !== undefined && !/(Z|UTC|[+-]\d\d(:?\d\d)?)$/i.test(stripTypedLiteral(e)) && (a > x ? a - x : x - a) <= 1n;
    }
    case 'TIME': {
      const a = parseTimeMicros(valueText(v));
      const x = parseTimeMicros(stripTypedLiteral(e));
      return a !== undefined && x !== undefined && (a > x ? a - x : x - a) <= 1n;
    }
    case 'DATE':
      return stripTypedLiteral(e) === valueText(v);
    case 'GEOGRAPHY':
      return wktMatches(e, valueText(v));
    case 'JSON': {
      const text = typeof v === 'string' ? v : JSON.stringify(v);
      if (e === text) return true;
      const x = tryParseJson(e);
      const a = tryParseJson(text);
      if (x && a && jsonValuesEqual(x.value, a.value)) return true;
      // Some pages print a JSON value in single quotes, as its literal (json_functions/json-set-2: `'{"a": 1}'`).
      const lit = e.startsWith("'") ? unquote(e) : undefined;
      const xq = lit !== undefined ? tryParseJson(lit) : undefined;
      if (xq && a && jsonValuesEqual(xq.value, a.value)) return true;
      return e.replace(/\s+/g, '') === text.replace(/\s+/g, '');
    }
    case 'INTERVAL': {
      const a = valueText(v);
      return e === a || intervalsEqual(e, a);
    }
    case 'RANGE': {
      const m = /^\[([\s\S]*)\)$/.exec(e);
      if (!m) return false;
      const parts = splitTopLevel(m[1]!);
      if (parts.length !== 2) return false;
      const r = (typeof v === 'object' ? v : {}) as { start?: unknown; end?: unknown };
      const ef: DisplayField = { name: '', type: f.rangeElementType?.type ?? 'DATE' };
      const bound = (p: string, x: unknown) => {
        if (/^(UNBOUNDED|NULL)$/i.test(p.trim())) return rangeBound(x) === null;
        return rangeBound(x) !== null && cellMatches(stripTypedLiteral(p), x, ef, false);
      };
      return bound(parts[0]!, r.start) && bound(parts[1]!, r.end);
    }
    default:
      return stringMatches(expected, renderValue(v, f, nested), nested);
  }
}
