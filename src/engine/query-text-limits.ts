/**
 * BigQuery's limits on a query text, checked before the analyzer sees it: the length
 * (1,024K characters) and the nesting of parentheses and brackets (the analyzer's stack). The
 * nesting scan is deliberately minimal and conservative — it only skips string literals, quoted
 * identifiers and comments so that brackets inside them do not count — and is not a parser:
 * everything else is left to the analyzer.
 */
import { MAX_EXPRESSION_NESTING, MAX_QUERY_LENGTH_CHARS } from '../config/limits.js';
import { BigQueryError } from '../errors/errors.js';

/**
 * Characters of `sql` as BigQuery counts them (Unicode code points), counted only when the UTF-16
 * length could pass `limit`.
 */
function exceedsLength(sql: string, limit: number): boolean {
  if (sql.length <= limit) return false;
  let n = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < sql.length) {
      const d = sql.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    if (++n > limit) return true;
  }
  return false;
}

/**
 * The deepest nesting of `(` and `[` in `sql` outside string and bytes literals (single, double and
 * triple quoted, raw or not: a backslash always keeps the next character inside), backquoted
 * identifiers and comments (`--`, `#`, `/* … *\/`). Stops
 * counting once `stopAt` is passed.
 */
export function nestingDepth(sql: string, stopAt = Infinity): number {
  let depth = 0;
  let max = 0;
  const n = sql.length;
  // Jumps from one character that matters to the next (a 1 MB IN list: one regex search per
  // bracket or quote instead of a step per character; measured 5–15 ms per pass before).
  const marks = NESTING_MARKS;
  marks.lastIndex = 0;
  for (let m = marks.exec(sql); m; m = marks.exec(sql)) {
    const i = m.index;
    const c = m[0];
    if (c === '(' || c === '[') {
      if (++depth > max) {
        max = depth;
        if (max > stopAt) return max;
      }
    } else if (c === ')' || c === ']') {
      if (depth > 0) depth--;
    } else if (c === '-') {
      if (sql[i + 1] === '-') marks.lastIndex = lineEnd(sql, i);
    } else if (c === '#') marks.lastIndex = lineEnd(sql, i);
    else if (c === '/') {
      if (sql[i + 1] === '*') {
        const e = sql.indexOf('*/', i + 2);
        marks.lastIndex = e < 0 ? n : e + 2;
      }
    } else {
      // A backslash keeps the next character inside the literal, raw literals included
      // (GoogleSQL: r"\"" is a raw string holding a backslash and a quote).
      marks.lastIndex = quotedEnd(sql, i, c);
    }
  }
  return max;
}

/** The characters {@link nestingDepth} acts on: brackets, comment starts and quotes. */
const NESTING_MARKS = /[()[\]\-#/`'"]/g;

function lineEnd(sql: string, i: number): number {
  const e = sql.indexOf('\n', i);
  return e < 0 ? sql.length : e + 1;
}

/** What can end or escape inside each kind of quoted token (searched for, not stepped to). */
const QUOTED_STOPS: Record<string, RegExp> = {
  '`': /[`\\]/g,
  "'": /['\\\n]/g,
  '"': /["\\\n]/g,
  "'''": /\\|'''/g,
  '"""': /\\|"""/g,
};

/**
 * The index after the literal or quoted identifier that starts at `i` with quote `q`: a backslash
 * keeps the next character inside; a single-quoted literal or identifier also ends at the line (an
 * unterminated one is the analyzer's syntax error). Jumps between the characters that matter (a
 * 1 MB literal: one regex search, not a step per character).
 */
function quotedEnd(sql: string, i: number, q: string): number {
  const triple = q !== '`' && sql[i + 1] === q && sql[i + 2] === q;
  const stops = QUOTED_STOPS[triple ? q + q + q : q];
  stops.lastIndex = i + (triple ? 3 : 1);
  for (let m = stops.exec(sql); m; m = stops.exec(sql)) {
    if (m[0] === '\\') {
      stops.lastIndex = m.index + 2;
      continue;
    }
    return m.index + m[0].length;
  }
  return sql.length;
}

/**
 * Checks a query (or script) text against BigQuery's limits before analysis.
 * @throws BigQueryError `invalid` "The query is too large. …" beyond 1,024K characters
 *   (https://cloud.google.com/bigquery/quotas#query_jobs), `invalidQuery` "Out of stack space
 *   due to deeply nested query expression during query resolution" beyond
 *   {@link MAX_EXPRESSION_NESTING} nested parentheses/brackets.
 */
export function checkQueryText(sql: string): void {
  if (exceedsLength(sql, MAX_QUERY_LENGTH_CHARS)) throw BigQueryError.queryTooLarge();
  if (nestingDepth(sql, MAX_EXPRESSION_NESTING) > MAX_EXPRESSION_NESTING) throw BigQueryError.outOfStackSpace();
}
