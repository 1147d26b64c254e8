/**
 * Entry point of scripting (docs/ARCHITECTURE.md §1): `runScript` decides whether a request is a script and,
 * if so, runs it with the interpreter; otherwise it answers `undefined` and the engine runs the
 * single statement itself.
 *
 * BigQuery ("Multi-statement queries"): a request with several statements is a script (statement
 * type SCRIPT), except CREATE TEMP FUNCTION statements followed by one query, which is a plain
 * query; a procedural statement alone (DECLARE, IF, BEGIN, EXECUTE IMMEDIATE …) is a script too.
 * The answer is the result of the last SELECT, DML or DDL statement executed.
 *
 * A cheap scan of the text (top-level `;` outside strings and comments, first keyword) keeps the
 * parse request off the path of ordinary single statements.
 */
import type { Node } from '../analyzer/ast.js';
import { normalize } from '../analyzer/ast.js';
import type { Engine, QueryOptions, StatementResult } from '../engine/engine.js';
import { BigQueryError } from '../errors/errors.js';
import { Interpreter } from './interpreter.js';
import { PROCEDURAL } from './procedural.js';
import { ScriptSource } from './source.js';
import { validateScript } from './validate.js';
import { hasSessionState } from '../engine/session-state.js';
import { yieldIfLongText } from '../config/limits.js';

const PROCEDURAL_WORDS = new Set([
  'DECLARE', 'SET', 'IF', 'LOOP', 'WHILE', 'REPEAT', 'FOR', 'BEGIN', 'CALL', 'RAISE', 'RETURN',
  'EXECUTE', 'CASE', 'ASSERT', 'BREAK', 'LEAVE', 'CONTINUE', 'ITERATE',
]);

/** Characters that can start a comment, a quoted token or a statement's end. */
const SHAPE_MARKS = /[-#/;'"`]/g;

/** Shape of a request's text: several statements, and its first words (whitespace collapsed). */
export function scanShape(sql: string): { multi: boolean; first: string } {
  let i = 0;
  let sawSemicolon = false;
  let head = '';
  const n = sql.length;
  while (i < n) {
    if (head.length >= 64 && !sawSemicolon) {
      // The first words are known: only comments, quotes and a semicolon matter now — jump to the
      // next character that can start one (a 1 MB IN list: one regex search instead of a step per character).
      SHAPE_MARKS.lastIndex = i;
      if (!SHAPE_MARKS.test(sql)) break;
      i = SHAPE_MARKS.lastIndex - 1;
    }
    const c = sql.charCodeAt(i);
    if (c === 45 /* - */ && sql.charCodeAt(i + 1) === 45 || c === 35 /* # */) {
      const e = sql.indexOf('\n', i);
      i = e < 0 ? n : e + 1;
      continue;
    }
    if (c === 47 /* / */ && sql.charCodeAt(i + 1) === 42 /* * */) {
      const e = sql.indexOf('*/', i + 2);
      i = e < 0 ? n : e + 2;
      continue;
    }
    if (c <= 32) {
      if (head && head.length < 64 && !head.endsWith(' ')) head += ' ';
      i++;
      continue;
    }
    if (sawSemicolon) return { multi: true, first: head.trim() };
    if (c === 59 /* ; */) {
      sawSemicolon = true;
      i++;
      continue;
    }
    if (c === 39 || c === 34 || c === 96 /* ' " ` */) {
      const q = sql[i];
      const close = q !== '`' && sql.startsWith(q + q + q, i) ? q + q + q : q;
      i = closingQuote(sql, i + close.length, close) + close.length;
      if (head.length < 64) head += '?';
      continue;
    }
    if (head.length < 64) head += sql[i];
    i++;
  }
  return { multi: false, first: head.trim() };
}

/** Index of the quote closing a literal (a quote after an odd number of backslashes is escaped). */
function closingQuote(sql: string, from: number, close: string): number {
  for (let j = sql.indexOf(close, from); j >= 0; j = sql.indexOf(close, j + 1)) {
    let k = j;
    while (k > from && sql.charCodeAt(k - 1) === 92) k--;
    if ((j - k) % 2 === 0) return j;
  }
  return sql.length;
}

/** Whether a single statement's text starts like a procedural statement (or a temp function). */
function looksProcedural(first: string): boolean {
  const word = /^[A-Za-z_]+/.exec(first)?.[0]?.toUpperCase() ?? '';
  if (PROCEDURAL_WORDS.has(word)) return true;
  if (/^[A-Za-z_]\w*\s?:/.test(first)) return true; // a label
  return /^CREATE (OR REPLACE )?(TEMP(ORARY)? FUNCTION|PROCEDURE)/i.test(first);
}

const parseCache = new Map<string, Node[]>();

async function parseScript(engine: Engine, sql: string): Promise<Node[]> {
  const hit = parseCache.get(sql);
  if (hit) return hit;
  const res = await engine.analyzer.call('parse', { sqlStatement: sql, allowScript: true, options: engine.analyzer.languageOptions }).catch((e: unknown) => {
    throw parseErrorText(e, sql);
  });
  const list: Node[] = normalize(res.parsedScript)?.statementListNode?.statementList ?? [];
  if (parseCache.size >= 500) parseCache.delete(parseCache.keys().next().value as string);
  parseCache.set(sql, list);
  return list;
}

/**
 * The script parser reports an unknown word where a statement starts as `Expected end of input
 * but got identifier "SLECT"`; BigQuery says `Unexpected identifier "SLECT"` (recorded
 * standard_functions fixture of a misspelt SELECT), as the statement parser does.
 */
function parseErrorText(e: unknown, sql: string): unknown {
  if (!(e instanceof BigQueryError)) return e;
  const m = /^Syntax error: Expected end of input but got (.+) at \[(\d+):(\d+)\]$/.exec(e.message);
  if (!m) return e;
  const lines = sql.split('\n');
  const before = [...lines.slice(0, Number(m[2]) - 1), lines[Number(m[2]) - 1]?.slice(0, Number(m[3]) - 1) ?? ''].join('\n');
  const previous = before.replace(/--[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\//g, '').trim();
  if (previous && !previous.endsWith(';')) return e;
  return BigQueryError.withMessage(e, `Syntax error: Unexpected ${m[1]} at [${m[2]}:${m[3]}]`);
}

/** Transaction statements alone are the engine's (they span the jobs of a session). */
const TRANSACTION_CONTROL = new Set(['BeginStatement', 'CommitStatement', 'RollbackStatement']);

const isTempFunction = (n: Node) => n.kind === 'CreateFunctionStatement' && n.scope === 'TEMPORARY';

/**
 * Whether a statement alone is for the interpreter: a procedural statement or a temp function.
 * A lone BEGIN/COMMIT/ROLLBACK TRANSACTION only means something in a session: the engine answers it.
 */
const runsAlone = (n: Node) =>
  n.kind === 'CreateProcedureStatement' ||
  !!PROCEDURAL[n.kind] && !['BeginStatement', 'CommitStatement', 'RollbackStatement'].includes(n.kind) && (n.kind !== 'CreateFunctionStatement' || isTempFunction(n));

/**
 * Runs `sql` as a script when it is one.
 * @returns every SELECT/DML/DDL result (the last one answers the request), or undefined when
 *   the request is a single non-procedural statement for the engine.
 * @throws BigQueryError the script's syntax or runtime error.
 */
export async function runScript(engine: Engine, sql: string, opts: QueryOptions): Promise<StatementResult[] | undefined> {
  const shape = scanShape(sql);
  await yieldIfLongText(sql);
  // A plain statement runs here too when it may name session variables, temp functions or
  // system variables (`@@…`), which only the interpreter binds.
  const stateful = hasSessionState(opts) || sql.includes('@@');
  if (!shape.multi && !looksProcedural(shape.first) && !stateful) return undefined;
  const list = await parseScript(engine, sql);
  if (!list.length) return undefined;
  const single = list.length === 1 && !runsAlone(list[0]);
  if (single && (!stateful || TRANSACTION_CONTROL.has(list[0].kind))) return undefined;
  validateScript(new ScriptSource(sql), list, new Set(Object.keys(PROCEDURAL)));
  if (opts.dryRun && !single) return [{ statementType: 'SCRIPT', schema: [], rows: [] }];

  const it = new Interpreter(engine, sql, opts, PROCEDURAL, single);
  await it.run(list);
  // A plain statement keeps its own statement type.
  if (single) return it.results;

  const results = it.results;
  const last = list[list.length - 1];
  // CREATE TEMP FUNCTION statements and one query: a query, not a script.
  if (list.length > 1 && last.kind === 'QueryStatement' && list.slice(0, -1).every(isTempFunction)) return results.slice(-1);
  if (list.length === 1 && last.kind === 'AssertStatement') return [{ statementType: 'ASSERT' }];
  if (list.length === 1 && isTempFunction(last)) return results;
  if (!results.length) return [{ statementType: 'SCRIPT', schema: [], rows: [] }];
  if (results.length === 1) return [{ ...results[0], statementType: 'SCRIPT' }];
  return results;
}
