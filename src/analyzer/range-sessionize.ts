/**
 * RANGE_SESSIONIZE as a documented source rewrite. This analyzer build (about 2023)
 * does not know BigQuery's table function
 *
 *     RANGE_SESSIONIZE(TABLE t | (subquery), 'range_column', ['partition_col', …] [, 'MEETS' | 'OVERLAPS'])
 *
 * and its TVF kinds cannot declare "the input's columns plus one whose type depends on the input",
 * so the call is replaced, before analysis, by an equivalent GoogleSQL subquery. Semantics follow
 * BigQuery's "Range functions" page (RANGE_SESSIONIZE): the output is every input column plus
 * `session_range RANGE<T>`; within each partition the ranges, ordered by start, are merged into
 * sessions — with `MEETS` (the default) ranges that meet or overlap, with `OVERLAPS` only ranges
 * that overlap (`[a, b)` and `[b, c)` stay apart). Gaps-and-islands over the ordered ranges:
 *
 * 1. `s = RANGE_START(r)`, `e = RANGE_END(r)` (NULL = UNBOUNDED);
 * 2. a row starts a new session when it is the first of its partition, or when no earlier range
 *    is unbounded at the end and `s > MAX(e)` of the earlier rows (`s >= …` for OVERLAPS);
 * 3. a running `SUM` of those starts (RANGE frame, so rows with equal starts share it) numbers
 *    the sessions;
 * 4. `session_range = RANGE(first s of the session, MAX(e) of the session, or UNBOUNDED)`.
 *
 * A NULL range is not documented; it is kept apart from the sessions and gets a NULL
 * `session_range`. Mode texts are matched exactly; anything else is BigQuery's error (recorded
 * specialized_types/error_range_sessionize_invalid_mode, range_sessionize_overlaps_or_meets_alias):
 * `Could not cast literal "X" to type RANGE_SESSIONIZE_MODE at [l:c]`. The rewrite works on the
 * analyzer's parse tree (byte ranges of AST nodes); analyzer errors in the rewritten text are
 * mapped back to the original statement (`remap`).
 */
import { BigQueryError } from '../errors/errors.js';
import { normalize, walk, type Node } from './ast.js';

/** The rewritten statement and the map from its error locations back to the original text. */
export interface SessionizeRewrite {
  sql: string;
  /** Rewrites `… at [l:c]` locations of an error about `sql` to the original statement. */
  remap(e: unknown): unknown;
}

/** A piece of the rewritten text: copied from the original at `origin` (chars), or generated for it. */
interface Piece {
  text: string;
  origin: number;
  copied: boolean;
}

const MODES = new Set(['MEETS', 'OVERLAPS']);
const H = '__bqemu_rs_';

/** True when `e` is the analyzer's `Table-valued function not found: RANGE_SESSIONIZE`. */
export function isMissingRangeSessionize(e: unknown): boolean {
  return e instanceof BigQueryError && /Table-valued function not found: RANGE_SESSIONIZE\b/i.test(e.message);
}

/** 1-based line and column (characters) of a character offset of `text`. */
function lineCol(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/** 1-based line and column (characters) of a UTF-8 byte offset of `text`. */
export function lineColOf(text: string, byte: number): { line: number; column: number } {
  const before = Buffer.from(text, 'utf8').subarray(0, byte).toString('utf8');
  return lineCol(before, before.length);
}

/** Character offset of a `[line:column]` position of `text`. */
function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split('\n');
  let off = column - 1;
  for (let i = 0; i < line - 1 && i < lines.length; i++) off += lines[i].length + 1;
  return off;
}

/** Replaces every `at [l:c]` of a BigQuery error by `map(l, c)`. */
export function mapLocations(e: unknown, map: (line: number, column: number) => { line: number; column: number }): unknown {
  if (!(e instanceof BigQueryError)) return e;
  const message = e.message.replace(/ at \[(\d+):(\d+)\]/g, (_m, l: string, c: string) => {
    const p = map(Number(l), Number(c));
    return ` at [${p.line}:${p.column}]`;
  });
  return message === e.message ? e : BigQueryError.withMessage(e, message);
}

/** Backquoted identifier for a column named by a string literal. */
const ident = (name: string) => '`' + name.replace(/\\/g, '\\\\').replace(/`/g, '\\`') + '`';

/** A string as ZetaSQL prints a literal in messages: `"x"`. */
const quoted = (s: string) => (s.includes('"') && !s.includes("'") ? `'${s}'` : `"${s.replace(/"/g, '\\"')}"`);

/**
 * Rewrites every `RANGE_SESSIONIZE(…)` in FROM clauses of one statement into a subquery. Nested
 * calls (one inside another's input) are handled by rewriting the outermost; the caller retries.
 * @param stmt one statement's text (no trailing `;`)
 * @param parsed the analyzer's parse tree of `stmt` (ParseResponse.parsedStatement, raw)
 * @returns undefined when the statement holds no such call
 * @throws BigQueryError invalidQuery for a bad mode or argument, located in `stmt`
 */
export function rewriteRangeSessionize(stmt: string, parsed: unknown): SessionizeRewrite | undefined {
  const tree = normalize(parsed);
  const buf = Buffer.from(stmt, 'utf8');
  const ch = (byte: number) => buf.subarray(0, byte).toString('utf8').length;
  const text = (n: Node) => buf.subarray(Number(n.parseLocationRange.start), Number(n.parseLocationRange.end)).toString('utf8');
  const fail = (msg: string, n: Node): never => {
    const { line, column } = lineCol(stmt, ch(Number(n.parseLocationRange.start)));
    throw BigQueryError.invalidQueryAt(msg, line, column);
  };
  const calls: Node[] = [];
  walk(tree, (n) => {
    if (n.kind !== 'Tvf') return;
    const names: Node[] = n.name?.names ?? [];
    if (names.length === 1 && String(names[0].idString).toUpperCase() === 'RANGE_SESSIONIZE') calls.push(n);
  });
  const outer = calls.filter((c) => !calls.some((o) => o !== c && o.parseLocationRange.start <= c.parseLocationRange.start && o.parseLocationRange.end >= c.parseLocationRange.end));
  if (!outer.length) return undefined;
  outer.sort((a, b) => Number(a.parseLocationRange.start) - Number(b.parseLocationRange.start));

  const pieces: Piece[] = [];
  let at = 0; // byte offset copied so far
  for (const call of outer) {
    const start = Number(call.parseLocationRange.start);
    const end = callEnd(buf, call);
    if (end < 0) fail('Syntax error: unexpected RANGE_SESSIONIZE call', call);
    pieces.push({ text: buf.subarray(at, start).toString('utf8'), origin: ch(at), copied: true });
    pieces.push(...sessionizePieces(call, text, ch, fail));
    at = end;
  }
  pieces.push({ text: buf.subarray(at).toString('utf8'), origin: ch(at), copied: true });

  let sql = '';
  const spans: { at: number; piece: Piece }[] = [];
  for (const p of pieces) {
    spans.push({ at: sql.length, piece: p });
    sql += p.text;
  }
  const remap = (e: unknown) =>
    mapLocations(e, (line, column) => {
      const off = offsetOf(sql, line, column);
      let span = spans[0];
      for (const s of spans) if (s.at <= off) span = s;
      const o = span.piece.copied ? span.piece.origin + Math.min(off - span.at, span.piece.text.length) : span.piece.origin;
      return lineCol(stmt, o);
    });
  return { sql, remap };
}

/** Byte offset just past the `)` closing a TVF call (its range may include an alias), or -1. */
function callEnd(buf: Buffer, call: Node): number {
  const args: Node[] = call.argumentEntries ?? [];
  let i = args.length ? Number(args[args.length - 1].parseLocationRange.end) : Number(call.name.parseLocationRange.end);
  const s = buf.toString('latin1'); // byte-indexed view; only ASCII is inspected
  for (;;) {
    if (/\s/.test(s[i] ?? '')) i++;
    else if (s.startsWith('/*', i)) i = s.indexOf('*/', i) < 0 ? -1 : s.indexOf('*/', i) + 2;
    else if (s.startsWith('--', i) || s[i] === '#') i = s.indexOf('\n', i) < 0 ? s.length : s.indexOf('\n', i) + 1;
    else if (!args.length && s[i] === '(') i++;
    else break;
    if (i < 0) return -1;
  }
  return s[i] === ')' ? i + 1 : -1;
}

/** The pieces of the subquery replacing one call; validates its arguments. */
function sessionizePieces(call: Node, text: (n: Node) => string, ch: (byte: number) => number, fail: (msg: string, n: Node) => never): Piece[] {
  const args: Node[] = call.argumentEntries ?? [];
  const at = (n: Node) => ch(Number(n.parseLocationRange.start));
  const signature = 'No matching signature for RANGE_SESSIONIZE. Supported signature: RANGE_SESSIONIZE(TABLE, STRING, ARRAY<STRING>, [RANGE_SESSIONIZE_MODE])';
  if (args.length < 3 || args.length > 4) fail(signature, call);
  if (args.some((a) => a.name)) fail('Named arguments are not supported by bqemu for RANGE_SESSIONIZE', call);
  // 1. The input relation: TABLE path, or a parenthesised query.
  const input = args[0];
  let source: Piece;
  if (input.tableClause?.tablePath) {
    if (input.tableClause.tvf) fail('RANGE_SESSIONIZE over a table-valued function call is not supported by bqemu', input);
    source = { text: text(input.tableClause.tablePath), origin: at(input.tableClause.tablePath), copied: true };
  } else if (input.expr?.kind === 'ExpressionSubquery' && input.expr.modifier === 'NONE') {
    source = { text: text(input.expr), origin: at(input.expr), copied: true };
  } else return fail(`${signature}; its first argument must be TABLE name or a subquery`, input);
  // 2. The range column; 3. the partitioning columns: literals.
  const rangeArg = args[1].expr;
  if (rangeArg?.kind !== 'StringLiteral') return fail(`${signature}; range_column must be a STRING literal`, args[1]);
  const arr = args[2].expr;
  if (arr?.kind !== 'ArrayConstructor') return fail(`${signature}; partitioning_columns must be an ARRAY<STRING> literal`, args[2]);
  const parts: Node[] = arr.elements ?? [];
  for (const p of parts) if (p.kind !== 'StringLiteral') fail(`${signature}; partitioning_columns must be an ARRAY<STRING> literal`, p);
  // 4. The mode.
  let overlaps = false;
  if (args[3]) {
    const m: Node = args[3].expr;
    if (m?.kind === 'StringLiteral' || m?.kind === 'IntLiteral' || m?.kind === 'FloatLiteral' || m?.kind === 'BooleanLiteral') {
      const v = m.kind === 'StringLiteral' ? String(m.stringValue ?? '') : String(m.image);
      if (m.kind !== 'StringLiteral' || !MODES.has(v)) fail(`Could not cast literal ${m.kind === 'StringLiteral' ? quoted(v) : v} to type RANGE_SESSIONIZE_MODE`, m);
      overlaps = v === 'OVERLAPS';
    } else if (m?.kind === 'ParameterExpr') fail('A query parameter as the RANGE_SESSIONIZE mode is not supported by bqemu', m);
    else fail(`${signature}; sessionize_option must be a STRING literal`, args[3]);
  }

  // Generated text; column references map back to their literal, the rest to the call.
  const origin = at(call);
  const out: Piece[] = [];
  const gen = (t: string) => out.push({ text: t, origin, copied: false });
  const col = (lit: Node) => out.push({ text: ident(String(lit.stringValue ?? '')), origin: at(lit), copied: false });
  const partitionBy = () => {
    gen('PARTITION BY ');
    for (const p of parts) {
      col(p);
      gen(', ');
    }
    col(rangeArg);
    gen(' IS NULL');
  };
  const [S, E, N, ID] = [`${H}start`, `${H}end`, `${H}new`, `${H}id`];
  // Level 3: the session of each row.
  const w3 = () => {
    gen(' OVER (');
    partitionBy();
    gen(`, ${ID} ORDER BY ${S} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)`);
  };
  gen(`(SELECT * EXCEPT (${S}, ${E}, ${ID}), IF(`);
  col(rangeArg);
  gen(` IS NULL, NULL, RANGE(FIRST_VALUE(${S})`);
  w3();
  gen(`, IF(LOGICAL_OR(${E} IS NULL)`);
  w3();
  gen(`, NULL, MAX(${E})`);
  w3();
  gen(`))) AS session_range FROM `);
  // Level 2: session ids.
  gen(`(SELECT * EXCEPT (${N}), SUM(${N}) OVER (`);
  partitionBy();
  gen(` ORDER BY ${S}) AS ${ID} FROM `);
  // Level 1: session starts.
  const w1 = () => {
    gen(' OVER (');
    partitionBy();
    gen(` ORDER BY ${S} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)`);
  };
  gen('(SELECT *, IF(COUNT(*)');
  w1();
  gen(` = 0 OR IFNULL(NOT LOGICAL_OR(${E} IS NULL)`);
  w1();
  gen(` AND ${S} ${overlaps ? '>=' : '>'} MAX(${E})`);
  w1();
  gen(`, FALSE), 1, 0) AS ${N} FROM `);
  // Level 0: the bounds.
  gen('(SELECT *, ');
  out.push({ text: `RANGE_START(${ident(String(rangeArg.stringValue ?? ''))})`, origin: at(rangeArg), copied: false });
  gen(` AS ${S}, `);
  out.push({ text: `RANGE_END(${ident(String(rangeArg.stringValue ?? ''))})`, origin: at(rangeArg), copied: false });
  gen(` AS ${E} FROM `);
  out.push(source);
  gen(` AS ${H}in) AS ${H}t0) AS ${H}t1) AS ${H}t2)`);
  return out;
}
