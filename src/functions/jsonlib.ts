/**
 * JavaScript side of the JSON functions: BigQuery's canonical JSON text (object keys sorted,
 * no whitespace, integers kept exactly, other numbers as doubles printed the way BigQuery's JSON
 * library prints them: shortest round-trip digits, `1.0` for integral doubles, exponent form
 * outside 1e-4 ≤ |x| < 1e15), JSONPath parsing, and the mutators JSON_SET, JSON_REMOVE,
 * JSON_ARRAY_INSERT, JSON_ARRAY_APPEND, JSON_STRIP_NULLS, JSON_KEYS (semantics from BigQuery's
 * JSON function reference). Registered as UDFs by json.ts.
 */
/** A JSON number, kept as its source text. */
export class JNum {
  constructor(readonly value: string) {}
}
type LosslessNumber = JNum;
const isLosslessNumber = (v: unknown): v is JNum => v instanceof JNum;

export type J = null | boolean | string | JNum | J[] | { [k: string]: J };

/** A strict JSON parser (RFC 8259); duplicate object keys keep the first value. */
function parse(text: string): J {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`Invalid JSON at ${i}`);
  };
  const value = (): J => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      const o: Record<string, J> = Object.create(null);
      ws();
      if (text[i] === '}') return i++, o;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const k = str();
        ws();
        if (text[i++] !== ':') fail();
        const v = value();
        if (!Object.prototype.hasOwnProperty.call(o, k)) o[k] = v;
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return i++, o;
        else fail();
      }
    }
    if (ch === '[') {
      i++;
      const a: J[] = [];
      ws();
      if (text[i] === ']') return i++, a;
      for (;;) {
        a.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return i++, a;
        else fail();
      }
    }
    if (ch === '"') return str();
    for (const [lit, v] of [['true', true], ['false', false], ['null', null]] as const)
      if (text.startsWith(lit, i)) return (i += lit.length), v;
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail();
    i += m![0].length;
    return new JNum(m![0]);
  };
  const str = (): string => {
    const m = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(text.slice(i));
    if (!m) fail();
    i += m![0].length;
    return JSON.parse(m![0]) as string;
  };
  const v = value();
  ws();
  if (i !== text.length) fail();
  return v;
}

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** A finite double as BigQuery's JSON prints it. */
export function jsonDouble(x: number): string {
  if (Object.is(x, -0)) return '-0.0';
  if (x === 0) return '0.0';
  const [mant, expText] = x.toExponential().split('e');
  const e = Number(expText);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  if (e >= -4 && e < 15) {
    let s: string;
    if (e >= 0) {
      const int = digits.slice(0, e + 1).padEnd(e + 1, '0');
      const frac = digits.slice(e + 1);
      s = `${int}.${frac || '0'}`;
    } else s = `0.${'0'.repeat(-e - 1)}${digits}`;
    return (neg ? '-' : '') + s;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${neg ? '-' : ''}${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

function numberText(n: LosslessNumber): string {
  const t = n.value;
  if (/^-?\d+$/.test(t)) {
    const b = BigInt(t);
    if (b >= INT64_MIN && b <= UINT64_MAX) return b.toString();
  }
  return jsonDouble(Number(t));
}

/** Canonical compact text of a JSON value (keys sorted by code unit order). */
export function emit(v: J): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return JSON.stringify(v);
  if (isLosslessNumber(v)) return numberText(v as LosslessNumber);
  if (Array.isArray(v)) return `[${v.map(emit).join(',')}]`;
  const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${emit((v as Record<string, J>)[k])}`).join(',')}}`;
}

/** Parses JSON text (numbers kept exactly); undefined when invalid. */
export function parseJson(text: string): J | undefined {
  try {
    return parse(text) as J;
  } catch {
    return undefined;
  }
}

export const canonical = (text: string): string | null => {
  const v = parseJson(text);
  return v === undefined ? null : emit(v);
};

/** Pretty text (TO_JSON_STRING(x, true)): two-space indents, `"key": value`. */
export function pretty(v: J, indent = ''): string {
  const inner = indent + '  ';
  if (Array.isArray(v)) return v.length ? `[\n${v.map((e) => inner + pretty(e, inner)).join(',\n')}\n${indent}]` : '[]';
  if (v !== null && typeof v === 'object' && !isLosslessNumber(v)) {
    const o = v as Record<string, J>;
    const keys = Object.keys(o);
    return keys.length ? `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${pretty(o[k], inner)}`).join(',\n')}\n${indent}}` : '{}';
  }
  return typeof v === 'string' ? JSON.stringify(v) : isLosslessNumber(v) ? (v as LosslessNumber).value : String(v);
}

type Step = { key: string } | { index: number };

/** Parses a JSONPath (`$`, `.a`, `."a b"`, `['a']`, `[0]`); undefined when invalid. */
export function parsePath(p: string): Step[] | undefined {
  if (!p.startsWith('$')) return undefined;
  const steps: Step[] = [];
  let i = 1;
  while (i < p.length) {
    let m: RegExpExecArray | null;
    const rest = p.slice(i);
    if ((m = /^\.([A-Za-z0-9_$@-]+)/.exec(rest))) steps.push({ key: m[1] });
    else if ((m = /^\."((?:[^"\\]|\\.)*)"/.exec(rest))) steps.push({ key: m[1].replace(/\\(.)/g, '$1') });
    else if ((m = /^\[\s*(\d+)\s*\]/.exec(rest))) steps.push({ index: Number(m[1]) });
    else if ((m = /^\[\s*'((?:[^'\\]|\\.)*)'\s*\]/.exec(rest)) || (m = /^\[\s*"((?:[^"\\]|\\.)*)"\s*\]/.exec(rest))) steps.push({ key: m[1].replace(/\\(.)/g, '$1') });
    else return undefined;
    i += m[0].length;
  }
  return steps;
}

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const isObj = (v: J): v is Record<string, J> => v !== null && typeof v === 'object' && !Array.isArray(v) && !isLosslessNumber(v);

/** JSON_SET of one path: replaces or creates; incompatible intermediate values leave `doc` unchanged. */
export function jsonSet(doc: J, path: Step[], value: J, create: boolean): J {
  if (!path.length) return value;
  const [step, ...rest] = path;
  let container = doc;
  if (container === null) {
    if (!create) return doc;
    container = 'key' in step ? {} : [];
  }
  if ('key' in step) {
    if (!isObj(container)) return doc;
    if (!has(container, step.key) && !create) return doc;
    const child = has(container, step.key) ? container[step.key] : null;
    return { ...container, [step.key]: jsonSet(child, rest, value, create) };
  }
  if (!Array.isArray(container)) return doc;
  if (step.index >= container.length && !create) return doc;
  const copy = [...container];
  while (copy.length <= step.index) copy.push(null);
  copy[step.index] = jsonSet(copy[step.index], rest, value, create);
  return copy;
}

/** The value at `path` (undefined when absent). */
export function getAt(doc: J, path: Step[]): J | undefined {
  let cur: J | undefined = doc;
  for (const s of path) {
    if (cur === undefined) return undefined;
    if ('key' in s) cur = isObj(cur) && has(cur, s.key) ? cur[s.key] : undefined;
    else cur = Array.isArray(cur) && s.index < cur.length ? cur[s.index] : undefined;
  }
  return cur;
}

/** Replaces the value at an existing `path` with f(old). */
function updateAt(doc: J, path: Step[], f: (old: J) => J): J {
  if (!path.length) return f(doc);
  const [step, ...rest] = path;
  if ('key' in step) return isObj(doc) && has(doc, step.key) ? { ...doc, [step.key]: updateAt(doc[step.key], rest, f) } : doc;
  if (!Array.isArray(doc) || step.index >= doc.length) return doc;
  const copy = [...doc];
  copy[step.index] = updateAt(copy[step.index], rest, f);
  return copy;
}

export function jsonRemove(doc: J, path: Step[]): J {
  if (!path.length) return doc;
  const parent = path.slice(0, -1);
  const last = path[path.length - 1];
  return updateAt(doc, parent, (p) => {
    if ('key' in last) {
      if (!isObj(p) || !has(p, last.key)) return p;
      const { [last.key]: _gone, ...restObj } = p;
      return restObj;
    }
    if (!Array.isArray(p) || last.index >= p.length) return p;
    return p.filter((_e, i) => i !== last.index);
  });
}

export function jsonArrayInsert(doc: J, path: Step[], value: J, each: boolean): J {
  const last = path[path.length - 1];
  if (!last || !('index' in last)) return doc;
  const items = each && Array.isArray(value) ? value : [value];
  const parent = path.slice(0, -1);
  const target = getAt(doc, parent);
  if (target === null) return jsonSet(doc, parent, [...Array(last.index).fill(null), ...items], true);
  return updateAt(doc, parent, (p) => {
    if (!Array.isArray(p)) return p;
    const copy = [...p];
    while (copy.length < last.index) copy.push(null);
    copy.splice(last.index, 0, ...items);
    return copy;
  });
}

export function jsonArrayAppend(doc: J, path: Step[], value: J, each: boolean): J {
  const items = each && Array.isArray(value) ? value : [value];
  return updateAt(doc, path, (p) => (Array.isArray(p) ? [...p, ...items] : p === null ? items : p));
}

export function jsonStripNulls(doc: J, path: Step[], arrays: boolean, removeEmpty: boolean): J {
  const strip = (v: J): J | undefined => {
    if (Array.isArray(v)) {
      if (!arrays) return v;
      const out = v.map(strip).filter((e): e is J => e !== undefined && e !== null);
      return removeEmpty && !out.length ? undefined : out;
    }
    if (isObj(v)) {
      const out: Record<string, J> = {};
      for (const [k, e] of Object.entries(v)) {
        const s = strip(e);
        if (s !== undefined && s !== null) out[k] = s;
      }
      return removeEmpty && !Object.keys(out).length ? undefined : out;
    }
    return v;
  };
  return updateAt(doc, path, (p) => strip(p) ?? null);
}

/** JSON_KEYS: unique keys (nested as `a.b`), sorted; arrays are not entered in strict mode. */
export function jsonKeys(doc: J, maxDepth: number, lax: boolean): string[] {
  const keys = new Set<string>();
  const walk = (v: J, prefix: string, depth: number) => {
    if (depth > maxDepth) return;
    if (Array.isArray(v)) {
      if (lax) for (const e of v) walk(e, prefix, depth);
      return;
    }
    if (!isObj(v)) return;
    for (const [k, e] of Object.entries(v)) {
      const name = /^[A-Za-z0-9_]+$/.test(k) ? k : JSON.stringify(k);
      const full = prefix ? `${prefix}.${name}` : name;
      keys.add(full);
      walk(e, full, depth + 1);
    }
  };
  walk(doc, '', 1);
  return [...keys].sort();
}
