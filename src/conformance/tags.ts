/**
 * Variation tags (conformance/README.md "Variation tags"): every fixture is classified into one or
 * more of seven locked tags. `happy_path` applies only when no other tag applies. The detection
 * rules below are the corpus' own (summarised in conformance/README.md "Variation tags"); the light
 * SQL lexer here (string literals, comments, code) is shared with the coverage report.
 */
import type { Fixture } from './fixtures.js';

/** The seven locked tags, in report order (the set is closed: an eighth tag changes every coverage report). */
export const VARIATION_TAGS = ['happy_path', 'null_input', 'empty_input', 'boundary_value', 'unicode', 'error_path', 'timezone'] as const;
export type VariationTag = (typeof VARIATION_TAGS)[number];

/** One string or bytes literal found in SQL text. */
export interface SqlLiteral {
  /** Prefix letters as written (`''`, `r`, `b`, `rb`, …), lower-cased. */
  prefix: string;
  /** The literal's body between its quotes, escapes left as written. */
  body: string;
  /** True for a bytes literal (`b` in the prefix). */
  bytes: boolean;
}

/** SQL text split by {@link lexSql}. */
export interface LexedSql {
  /**
   * The text with comments blanked to a space, every string/bytes literal replaced by `''` and every
   * backtick-quoted identifier by `_q_`; positions are not preserved.
   */
  code: string;
  literals: SqlLiteral[];
}

const IDENT_CHAR = /[A-Za-z0-9_]/;

/**
 * A small GoogleSQL lexer: skips `--`, `#` and block comments, extracts string and bytes literals
 * (single, double and triple quoted, with `r`/`b`/`rb`/`br` prefixes and backslash escapes) and
 * backtick-quoted identifiers. Unterminated literals run to the end of the text.
 */
export function lexSql(sql: string): LexedSql {
  const literals: SqlLiteral[] = [];
  let code = '';
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if ((c === '-' && next === '-') || c === '#') {
      while (i < n && sql[i] !== '\n') i++;
      code += ' ';
      continue;
    }
    if (c === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      code += ' ';
      continue;
    }
    if (c === '`') {
      const end = sql.indexOf('`', i + 1);
      i = end < 0 ? n : end + 1;
      code += '_q_';
      continue;
    }
    if (c === "'" || c === '"') {
      // Prefix letters written right before the quote (and not the tail of a longer identifier).
      const m = /([rRbB]{1,2})$/.exec(code);
      let prefix = '';
      if (m) {
        const before = code[code.length - m[1]!.length - 1];
        if (before === undefined || !IDENT_CHAR.test(before)) prefix = m[1]!.toLowerCase();
      }
      if (prefix) code = code.slice(0, code.length - prefix.length);
      const triple = sql.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      let body = '';
      while (j < n) {
        if (sql[j] === '\\' && j + 1 < n) {
          body += sql.slice(j, j + 2);
          j += 2;
          continue;
        }
        if (sql.startsWith(quote, j)) break;
        body += sql[j];
        j++;
      }
      i = Math.min(n, j + quote.length);
      literals.push({ prefix, body, bytes: prefix.includes('b') });
      code += "''";
      continue;
    }
    code += c;
    i++;
  }
  return { code, literals };
}

/** What the detection rules look at: the fixture name, its canonical query and `expected.json`. */
export interface TagInput {
  /** Fixture name (the `<name>` of `<phase>/<name>`). */
  name: string;
  /** The canonical query text (`query.sql`). */
  query: string;
  /** Parsed `expected.json` (raw or validated); `error_path` fires when it has a top-level `error` key. */
  expected?: unknown;
}

const BOUNDARY_NAME_TOKENS = new Set(['max', 'min', 'inf', 'nan']);

/** `null_input`: name contains `null`, or the query contains IS NULL, IS NOT NULL or NULL as a word. */
export function isNullInput(name: string, query: string): boolean {
  return name.toLowerCase().includes('null') || /\bIS\s+NOT\s+NULL\b|\bIS\s+NULL\b|\bNULL\b/i.test(query);
}

/** `empty_input`: name contains `empty`, or the query has LIMIT 0, an empty array literal or an empty string literal. */
export function isEmptyInput(name: string, query: string, lexed: LexedSql = lexSql(query)): boolean {
  if (name.toLowerCase().includes('empty')) return true;
  if (/\bLIMIT\s+0(?![\w.])/i.test(query)) return true;
  if (/\[\s*\]/.test(lexed.code)) return true;
  return lexed.literals.some((l) => !l.bytes && l.body === '');
}

/**
 * `boundary_value`: a name token (snake-case split) in max, min, inf, nan; or the name contains
 * `boundary` or `overflow`; or the query has an integer literal of 15 or more digits (decimal, or
 * hexadecimal after `0x`); or an inf/infinity/nan string literal (optional sign, any case).
 */
export function isBoundaryValue(name: string, query: string, lexed: LexedSql = lexSql(query)): boolean {
  const lower = name.toLowerCase();
  if (lower.split('_').some((t) => BOUNDARY_NAME_TOKENS.has(t))) return true;
  if (lower.includes('boundary') || lower.includes('overflow')) return true;
  if (/(?<![\w.])\d{15,}(?![\w.])/.test(lexed.code)) return true;
  if (/(?<![\w.])0[xX][0-9a-fA-F]{15,}(?![\w.])/.test(lexed.code)) return true;
  return lexed.literals.some((l) => !l.bytes && /^\s*[+-]?(inf|infinity|nan)\s*$/i.test(l.body));
}

/** `unicode`: name contains `unicode`, or the query has any non-ASCII code point. */
export function isUnicode(name: string, query: string): boolean {
  return name.toLowerCase().includes('unicode') || /[^\u0000-\u007f]/.test(query);
}

/** `error_path`: `expected.json` has a top-level `error` key. */
export function isErrorPath(expected: unknown): boolean {
  return typeof expected === 'object' && expected !== null && !Array.isArray(expected) && Object.prototype.hasOwnProperty.call(expected, 'error') && (expected as { error?: unknown }).error !== undefined;
}

/** An `Area/Location`-shaped zone name (`America/Los_Angeles`, `America/Argentina/Buenos_Aires`, `Etc/GMT+5`). */
const AREA_LOCATION = /^\s*[A-Z][A-Za-z]+(?:\/[A-Za-z][A-Za-z0-9_+\-]*)+\s*$/;
/** A `[+-]HH:MM` offset, alone or closing a date/time text (`2008-12-25 15:30:00+05:30`). */
const OFFSET_LITERAL = /(?:^|[\d\s])[+-]\d{2}:\d{2}\s*$/;

/** `timezone`: name starts with `tz_`, or AT TIME ZONE, an `Area/Location`-shaped literal or a `[+-]HH:MM` offset literal. */
export function isTimezone(name: string, query: string, lexed: LexedSql = lexSql(query)): boolean {
  if (name.toLowerCase().startsWith('tz_')) return true;
  if (/\bAT\s+TIME\s+ZONE\b/i.test(query)) return true;
  return lexed.literals.some((l) => !l.bytes && (AREA_LOCATION.test(l.body) || OFFSET_LITERAL.test(l.body)));
}

/**
 * Classify one fixture (conformance/README.md "Variation tags"). Returns the tags that fire, in
 * {@link VARIATION_TAGS} order; `['happy_path']` when none of the other six does.
 */
export function detectTags(input: TagInput): VariationTag[] {
  const { name, query } = input;
  const lexed = lexSql(query);
  const tags: VariationTag[] = [];
  if (isNullInput(name, query)) tags.push('null_input');
  if (isEmptyInput(name, query, lexed)) tags.push('empty_input');
  if (isBoundaryValue(name, query, lexed)) tags.push('boundary_value');
  if (isUnicode(name, query)) tags.push('unicode');
  if (isErrorPath(input.expected)) tags.push('error_path');
  if (isTimezone(name, query, lexed)) tags.push('timezone');
  return tags.length === 0 ? ['happy_path'] : tags;
}

/** Tags of a loaded fixture (its `expected.error` stands for the top-level `error` key). */
export function tagFixture(fx: Pick<Fixture, 'name' | 'query' | 'expected'>): VariationTag[] {
  return detectTags({ name: fx.name, query: fx.query, expected: fx.expected });
}
