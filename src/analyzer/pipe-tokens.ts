/**
 * The lexical layer of the pipe-syntax rewrite (./pipe-syntax.ts): GoogleSQL text split into tokens
 * with their offsets, using the same literal, comment and quoted-identifier patterns as the other
 * pre-parse rewrites (./set-by-name.ts, ./literal-concat.ts; BigQuery lexical structure,
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/lexical). No grammar: it only
 * knows words, literals, `|>`, punctuation and how brackets nest, so that clause boundaries at one
 * nesting level can be found; every clause is analyzed by the analyzer after the rewrite.
 */

/** One significant token: its kind, text (upper case for words) and UTF-16 offsets in the text. */
export interface Token {
  kind: 'word' | 'qid' | 'str' | 'num' | 'pipe' | 'punct';
  text: string;
  start: number;
  end: number;
}

/** Comments, string and bytes literals (with r/b prefixes), quoted identifiers: the same patterns as ./set-by-name.ts. */
const QUOTED = /--[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/|([rRbB]{0,2}(?:'{3}[\s\S]*?'{3}|"{3}[\s\S]*?"{3}|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"))|(`(?:\\.|[^`\\])*`)/y;

const isWordStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isWordPart = (c: number) => isWordStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number) => c >= 48 && c <= 57;

/** The significant tokens of `sql` (whitespace and comments dropped; their text stays between offsets). One pass over the characters. */
export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  const n = sql.length;
  let i = 0;
  while (i < n) {
    const c = sql.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11) {
      i++;
      continue;
    }
    const next = sql.charCodeAt(i + 1);
    // Quotes, comments and prefixed literals (r'…', b"…", rb'…').
    const quoteNext = next === 39 || next === 34 || ((next === 114 || next === 82 || next === 98 || next === 66) && (sql.charCodeAt(i + 2) === 39 || sql.charCodeAt(i + 2) === 34));
    if (c === 39 || c === 34 || c === 96 || c === 35 || (c === 45 && next === 45) || (c === 47 && next === 42) || ((c === 114 || c === 82 || c === 98 || c === 66) && quoteNext)) {
      QUOTED.lastIndex = i;
      const m = QUOTED.exec(sql);
      if (m) {
        const end = i + m[0].length;
        if (m[1] !== undefined) out.push({ kind: 'str', text: m[0], start: i, end });
        else if (m[2] !== undefined) out.push({ kind: 'qid', text: m[0], start: i, end });
        i = end;
        continue;
      }
    }
    if (isWordStart(c)) {
      let j = i + 1;
      while (j < n && isWordPart(sql.charCodeAt(j))) j++;
      out.push({ kind: 'word', text: sql.slice(i, j).toUpperCase(), start: i, end: j });
      i = j;
    } else if (isDigit(c)) {
      let j = i + 1;
      while (j < n && (isWordPart(sql.charCodeAt(j)) || sql.charCodeAt(j) === 46)) j++;
      out.push({ kind: 'num', text: sql.slice(i, j), start: i, end: j });
      i = j;
    } else if (c === 124 && next === 62) {
      out.push({ kind: 'pipe', text: '|>', start: i, end: i + 2 });
      i += 2;
    } else {
      out.push({ kind: 'punct', text: sql[i], start: i, end: i + 1 });
      i++;
    }
  }
  return out;
}

/**
 * For each opening bracket, the index of its closing one: `(`/`)`, `[`/`]`, and the angle
 * brackets of a type after ARRAY, STRUCT or RANGE (`STRUCT<a INT64, b STRING>`), so that commas
 * inside them are not taken as list separators. Unbalanced brackets are left unmatched.
 */
export function matchBrackets(tokens: Token[]): Map<number, number> {
  const out = new Map<number, number>();
  const stack: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const prev = tokens[i - 1];
    const angleOpen = t.text === '<' && prev?.kind === 'word' && (prev.text === 'ARRAY' || prev.text === 'STRUCT' || prev.text === 'RANGE');
    if (t.text === '(' || t.text === '[' || angleOpen) stack.push(i);
    else if ((t.text === ')' || t.text === ']' || t.text === '>' || t.text === '>>') && stack.length) {
      const open = tokens[stack.at(-1)!].text;
      const fits = (t.text === ')' && open === '(') || (t.text === ']' && open === '[') || (t.text.startsWith('>') && open === '<');
      if (!fits) continue;
      out.set(stack.pop()!, i);
    }
  }
  return out;
}

/** A piece of rewritten text and the UTF-16 offset it was copied from (undefined: generated). */
export interface Piece {
  text: string;
  orig?: number;
}
export type Frag = Piece[];

/** Generated text. */
export const gen = (text: string): Piece => ({ text });

/** Appends `pieces` to `out` (no argument spread: a long IN list is many pieces), merging adjacent copied text. */
export function append(out: Frag, ...pieces: (Piece | Frag)[]): void {
  for (const p of pieces) {
    if (Array.isArray(p)) {
      for (const x of p) append(out, x);
      continue;
    }
    const last = out[out.length - 1];
    if (last && last.orig !== undefined && p.orig !== undefined && last.orig + last.text.length === p.orig) out[out.length - 1] = { text: last.text + p.text, orig: last.orig };
    else out.push(p);
  }
}

/** The token view shared with the operator renderers. */
export interface Lexed {
  sql: string;
  tokens: Token[];
  close: Map<number, number>;
}

/** True when token `i` is the word `w`. */
export const isWord = (lx: Lexed, i: number, w: string): boolean => lx.tokens[i]?.kind === 'word' && lx.tokens[i].text === w;

/** Index after the bracket group opened at `i` (or i + 1 for any other token). */
export const skip = (lx: Lexed, i: number): number => (lx.close.has(i) ? lx.close.get(i)! + 1 : i + 1);

/** Indices in [a, b) of tokens at nesting depth 0 satisfying `pred`. */
export function topLevel(lx: Lexed, a: number, b: number, pred: (t: Token, i: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = a; i < b; i = skip(lx, i)) if (pred(lx.tokens[i], i)) out.push(i);
  return out;
}

/** Splits [a, b) at depth-0 commas into [start, end) ranges (a trailing empty item is dropped). */
export function splitCommas(lx: Lexed, a: number, b: number): [number, number][] {
  const out: [number, number][] = [];
  let s = a;
  for (const c of topLevel(lx, a, b, (t) => t.text === ',')) {
    out.push([s, c]);
    s = c + 1;
  }
  if (s < b) out.push([s, b]);
  return out;
}

/** End of the WITH clause starting at `a` (the index of the query body), or `a` when there is none. */
export function withEnd(lx: Lexed, a: number, b: number): number {
  if (!isWord(lx, a, 'WITH')) return a;
  let i = a + 1;
  if (isWord(lx, i, 'RECURSIVE')) i++;
  for (;;) {
    // name AS ( … )
    while (i < b && !(lx.tokens[i].text === '(' && isWord(lx, i - 1, 'AS'))) i = skip(lx, i);
    if (i >= b) return a;
    i = skip(lx, i);
    if (lx.tokens[i]?.text !== ',') return i;
    i++;
    if (i >= b || lx.tokens[i].kind === 'pipe') return i;
  }
}

/** Text of tokens [a, b) with nested query groups rewritten and path heads renamed (./pipe-syntax.ts `slice`). */
export type Slicer = (a: number, b: number, rename?: ReadonlyMap<string, string>) => Frag;

/** What the operator renderers get from ./pipe-syntax.ts. */
export interface ChainContext {
  lx: Lexed;
  slice: Slicer;
}
