/**
 * Small helpers shared by the category tables: reading constant arguments (enum parts, string and
 * integer literals) out of the lowered SQL, type tests, and common SQL shapes.
 *
 * Enum arguments (date parts of EXTRACT/DATE_TRUNC/…, NORMALIZE modes) reach the lowering as the
 * SQL text of an ENUM literal; `enumName` accepts the enum value's name as a SQL string (`'YEAR'`,
 * `'WEEK_MONDAY'`), a bare name (`YEAR`) or the enum number (`1`, `19`), optionally cast.
 */
import { BigQueryError } from '../errors/errors.js';
import type { BqType } from '../types/types.js';
import type { FnCall } from './registry.js';

/** zetasql.functions.DateTimestampPart, by enum number. */
export const DATE_PARTS: Record<number, string> = {
  1: 'YEAR', 2: 'MONTH', 3: 'DAY', 4: 'DAYOFWEEK', 5: 'DAYOFYEAR', 6: 'QUARTER', 7: 'HOUR', 8: 'MINUTE',
  9: 'SECOND', 10: 'MILLISECOND', 11: 'MICROSECOND', 12: 'NANOSECOND', 13: 'DATE', 14: 'WEEK',
  15: 'DATETIME', 16: 'TIME', 17: 'ISOYEAR', 18: 'ISOWEEK', 19: 'WEEK_MONDAY', 20: 'WEEK_TUESDAY',
  21: 'WEEK_WEDNESDAY', 22: 'WEEK_THURSDAY', 23: 'WEEK_FRIDAY', 24: 'WEEK_SATURDAY',
};

/** zetasql.functions.NormalizeMode, by enum number. */
export const NORMALIZE_MODES: Record<number, string> = { 0: 'NFC', 1: 'NFKC', 2: 'NFD', 3: 'NFKD' };

/** Strips redundant wrapping: parentheses, `CAST(x AS T)`, `x::T`. */
function unwrap(sql: string): string {
  let s = sql.trim();
  for (;;) {
    let m: RegExpExecArray | null;
    if (s.startsWith('(') && s.endsWith(')') && balanced(s.slice(1, -1))) s = s.slice(1, -1).trim();
    else if ((m = /^CAST\(([\s\S]*) AS [A-Z0-9_(), ]+\)$/i.exec(s)) && balanced(m[1])) s = m[1].trim();
    else if ((m = /^([\s\S]*)::[A-Z0-9_]+(\(\d+(,\s*\d+)?\))?$/i.exec(s)) && balanced(m[1])) s = m[1].trim();
    else return s;
  }
}

/** True when parentheses and single-quoted strings in `s` are balanced. */
function balanced(s: string): boolean {
  let depth = 0;
  let inStr = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (inStr) {
      if (ch === "'") {
        if (s[i + 1] === "'") i++;
        else inStr = false;
      }
    } else if (ch === "'") inStr = true;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0 && !inStr;
}

/** The value of a constant string argument (`'abc'`, `'a''b'::VARCHAR`, `('x' || chr(0) || 'y')`). */
export function stringLiteral(sql: string | undefined): string | undefined {
  if (sql === undefined) return undefined;
  const s = unwrap(sql);
  const parts = splitConcat(s);
  let out = '';
  for (const p of parts) {
    const q = unwrap(p);
    let m: RegExpExecArray | null;
    if (/^'(?:[^']|'')*'$/.test(q)) out += q.slice(1, -1).replace(/''/g, "'");
    else if ((m = /^chr\((\d+)\)$/i.exec(q))) out += String.fromCodePoint(Number(m[1]));
    else return undefined;
  }
  return out;
}

/** Splits `a || b || c` at top level (outside strings and parentheses). */
function splitConcat(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inStr = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (inStr) {
      if (ch === "'") {
        if (s[i + 1] === "'") i++;
        else inStr = false;
      }
    } else if (ch === "'") inStr = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && s[i + 1] === '|' && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  out.push(s.slice(start));
  return out;
}

/** The value of a constant integer argument, or undefined. */
export function intLiteral(sql: string | undefined): bigint | undefined {
  if (sql === undefined) return undefined;
  const s = unwrap(sql);
  return /^-?\d+$/.test(s) ? BigInt(s) : undefined;
}

/** True when the argument is a NULL literal. */
export const isNullLiteral = (sql: string | undefined): boolean => sql !== undefined && /^NULL$/i.test(unwrap(sql));

/** The name of an enum argument (see the file comment). */
export function enumName(sql: string, names: Record<number, string>): string {
  const s = unwrap(sql);
  const str = stringLiteral(s);
  if (str !== undefined) return str.toUpperCase();
  if (/^\d+$/.test(s) && names[Number(s)]) return names[Number(s)];
  if (/^[A-Za-z_]+$/.test(s)) return s.toUpperCase();
  throw BigQueryError.notSupported(`a non-constant enum argument (${sql})`);
}

/** The date part named by argument `i`. */
export const datePart = (c: FnCall, i: number): string => enumName(c.args[i], DATE_PARTS);

/** Kind of argument `i`'s type. */
export const argKind = (c: FnCall, i: number): string | undefined => c.argTypes[i]?.kind;

export const isKind = (t: BqType | undefined, ...kinds: string[]): boolean => !!t && kinds.includes(t.kind);

/** A SQL string literal (quotes doubled). */
export const q = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/**
 * True when `sql` is one literal that is not NULL, as the lowering writes them
 * (src/engine/duckdb/values.ts toDuckLiteral): a number or a quoted string, in casts
 * (`CAST(-90 AS BIGINT)`, `'GERMANY'::VARCHAR`, `'1998-12-01'::DATE`).
 */
export function isNonNullLiteral(sql: string): boolean {
  return /^(?:-?\d+(?:\.\d+)?|'(?:[^']|'')*')$/.test(unwrap(sql));
}

/**
 * `CASE WHEN a IS NULL OR b IS NULL … THEN NULL ELSE expr END`; literal arguments that cannot be
 * NULL are left out of the test (DuckDB folds them, but a smaller expression plans faster: TPC-H
 * q22's SUBSTR(c_phone, 1, 2) three times).
 */
export function nullIfAnyNull(args0: string[], expr: string): string {
  const args = args0.filter((a) => !isNonNullLiteral(a));
  if (!args.length) return expr;
  if (args.length === 1) return `CASE WHEN ${args[0]} IS NULL THEN NULL ELSE ${expr} END`;
  // Every argument is evaluated, so an argument's runtime error is raised even when another is
  // NULL (as the ZetaSQL reference evaluator does): `+` evaluates both sides, OR would stop early.
  return `CASE WHEN (${args.map((a) => `CAST(${a} IS NULL AS INTEGER)`).join(' + ')}) > 0 THEN NULL ELSE ${expr} END`;
}

/** `error(msg)` or NULL under SAFE (same as registry.raise, re-exported for brevity). */
export const fail = (c: FnCall, messageSql: string): string => (c.safe ? 'NULL' : `error(${messageSql})`);

/** Throws the "not supported" error for a form of a function the emulator does not implement. */
export function unsupportedForm(c: FnCall, what: string): never {
  throw BigQueryError.notSupported(`Function ${c.name.toUpperCase()} ${what}`);
}

/** Floor division of integers (DuckDB `//` truncates toward zero). */
export const floorDiv = (a: string, b: string): string => `((${a}) // (${b}) - CASE WHEN (${a}) % (${b}) < 0 THEN 1 ELSE 0 END)`;

/** A text value of BYTES as lower-case hex (2 chars per byte) and back. */
export const hexOf = (b: string): string => `lower(hex(${b}))`;
export const fromHexText = (h: string): string => `unhex(${h})`;
