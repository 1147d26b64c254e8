/**
 * Pipe query syntax (`FROM t |> WHERE … |> AGGREGATE … GROUP BY …`), which this analyzer build
 * (about 2023) cannot parse, rewritten before analysis into standard GoogleSQL (BigQuery "Pipe
 * query syntax", https://cloud.google.com/bigquery/docs/reference/standard-sql/pipe-syntax).
 *
 * Each pipe operator applies to the whole query before it, so a chain becomes nested queries:
 * `q |> WHERE c` is `SELECT * FROM (q) WHERE c`; the operators are rendered by
 * ./pipe-operators.ts. A query may start with a FROM clause (`FROM t` alone is `SELECT * FROM t`).
 * Pipe syntax is found at every nesting level (subqueries, CTEs, set-operation inputs, views and
 * the statements of a script); the text is split with the lexical tokens of ./pipe-tokens.ts only
 * (brackets, `|>`, `;`), and every clause goes to the analyzer as written.
 *
 * Error locations: the rewritten text is assembled from pieces that remember where they came from
 * in the user's text, so `at [line:column]` in an analysis error is mapped back
 * ({@link PipeRewrite.relocate}).
 */
import { append, gen, isWord, matchBrackets, tokenize, topLevel, withEnd, type Frag, type Lexed } from './pipe-tokens.js';
import { renderChain } from './pipe-operators.js';

const QUERY_START = new Set(['SELECT', 'WITH', 'FROM']);

/**
 * The text of tokens [a, b) with the whitespace and comments between them, nested bracket groups
 * rewritten as queries in their own right ({@link rewriteQuery}), and each head identifier of a
 * path (`t` in `t.x`) named in `rename` replaced by its value.
 */
export function slice(lx: Lexed, a: number, b: number, rename: ReadonlyMap<string, string> = new Map()): Frag {
  const out: Frag = [];
  const { tokens, sql } = lx;
  if (a >= b) return out;
  // Original text is copied in runs; a respelled path head or a nested group ends a run.
  let from = tokens[a].start;
  const flush = (to: number) => {
    if (to > from) append(out, { text: sql.slice(from, to), orig: from });
  };
  for (let i = a; i < b; i++) {
    const t = tokens[i];
    const to = rename.size && t.kind === 'word' && tokens[i + 1]?.text === '.' && tokens[i - 1]?.text !== '.' ? rename.get(t.text) : undefined;
    if (to !== undefined) {
      flush(t.start);
      append(out, gen(to));
      from = t.end;
    }
    const m = lx.close.get(i);
    if (t.text === '(' && m !== undefined && m < b && m > i + 1) {
      flush(tokens[i + 1].start);
      append(out, rewriteQuery(lx, i + 1, m, false, rename));
      from = tokens[m - 1].end;
      i = m - 1;
    }
  }
  flush(tokens[b - 1].end);
  return out;
}

/**
 * The tokens [a, b) as a query context (a statement, or the inside of brackets): its pipe chain,
 * if any, rewritten; a query starting with FROM given its `SELECT *`.
 * @param statement true for a whole statement, whose query may follow a prefix (`CREATE VIEW v AS`)
 */
export function rewriteQuery(lx: Lexed, a: number, b: number, statement: boolean, rename: ReadonlyMap<string, string>): Frag {
  if (a >= b) return [];
  const pipes = topLevel(lx, a, b, (t) => t.kind === 'pipe');
  let qs = a;
  if (statement && pipes.length) {
    const first = topLevel(lx, a, pipes[0], (t, i) => (t.kind === 'word' && QUERY_START.has(t.text)) || (t.text === '(' && QUERY_START.has(lx.tokens[i + 1]?.text ?? '')));
    if (!first.length) return slice(lx, a, b, rename);
    qs = first[0];
  }
  const body = withEnd(lx, qs, b);
  if (!pipes.length) {
    if (!isWord(lx, body, 'FROM') || (!statement && body !== a && !isWord(lx, a, 'WITH'))) return slice(lx, a, b, rename);
    const out: Frag = [];
    if (body > a) append(out, slice(lx, a, body, rename), gen(' '));
    append(out, gen('SELECT * '), slice(lx, body, b, rename));
    return out;
  }
  const out: Frag = [];
  if (qs > a) append(out, slice(lx, a, qs, rename), gen(' '));
  append(out, renderChain({ lx, slice: (x, y, r) => slice(lx, x, y, r) }, qs, pipes, b, rename));
  return out;
}

/** A pipe-syntax rewrite: the standard text and the map of its error locations back to the user's text. */
export interface PipeRewrite {
  text: string;
  /** `at [line:column]` markers of an error message about `text`, given for the user's text. */
  relocate(message: string): string;
}

/** Line and column (1-based, UTF-16 code units) of an offset. */
function lineCol(sql: string, off: number): [number, number] {
  let line = 1;
  let last = -1;
  for (let i = 0; i < off && i < sql.length; i++) if (sql.charCodeAt(i) === 10) {
    line++;
    last = i;
  }
  return [line, off - last];
}

/** Offset of a 1-based line and column. */
function offsetOf(sql: string, line: number, col: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const nl = sql.indexOf('\n', off);
    if (nl < 0) return sql.length;
    off = nl + 1;
  }
  return off + col - 1;
}

/**
 * Rewrites the pipe syntax of a request's text (every statement) into standard GoogleSQL.
 * @returns undefined when the text has no pipe operator and no query starting with FROM
 */
export function rewritePipeSyntax(sql: string): PipeRewrite | undefined {
  const tokens = tokenize(sql);
  const lx: Lexed = { sql, tokens, close: matchBrackets(tokens) };
  const hasPipe = tokens.some((t) => t.kind === 'pipe');
  const opens = new Map([...lx.close].map(([o, c]) => [c, o]));
  // FROM first in a statement, in brackets, or after a WITH clause (`AS ( … ) FROM`).
  const fromStart = tokens.some((t, i) => {
    if (!isWord(lx, i, 'FROM')) return false;
    const prev = tokens[i - 1]?.text;
    return prev === undefined || prev === ';' || prev === '(' || (prev === ')' && isWord(lx, (opens.get(i - 1) ?? 0) - 1, 'AS'));
  });
  if (!hasPipe && !fromStart) return undefined;
  const out: Frag = [];
  let s = 0;
  const ends = [...topLevel(lx, 0, tokens.length, (t) => t.text === ';'), tokens.length];
  let pos = 0;
  for (const e of ends) {
    if (s < e) {
      if (tokens[s].start > pos) append(out, { text: sql.slice(pos, tokens[s].start), orig: pos });
      append(out, rewriteQuery(lx, s, e, true, new Map()));
      pos = tokens[e - 1].end;
    }
    if (e < tokens.length) {
      if (tokens[e].start > pos) append(out, { text: sql.slice(pos, tokens[e].start), orig: pos });
      append(out, { text: ';', orig: tokens[e].start });
      pos = tokens[e].end;
    }
    s = e + 1;
  }
  append(out, { text: sql.slice(pos), orig: pos });
  const text = out.map((p) => p.text).join('');
  if (text === sql) return undefined;
  const starts: number[] = [];
  let at = 0;
  for (const p of out) {
    starts.push(at);
    at += p.text.length;
  }
  const toOriginal = (off: number): number => {
    let k = 0;
    while (k + 1 < out.length && starts[k + 1] <= off) k++;
    for (let j = k; j < out.length; j++) {
      const p = out[j];
      if (p.orig !== undefined) return p.orig + (j === k ? Math.min(off - starts[k], p.text.length) : 0);
    }
    return sql.length;
  };
  return {
    text,
    relocate: (message) =>
      message.replace(/at \[(\d+):(\d+)\]/g, (_m, l: string, c: string) => {
        const [line, col] = lineCol(sql, toOriginal(offsetOf(text, Number(l), Number(c))));
        return `at [${line}:${col}]`;
      }),
  };
}
