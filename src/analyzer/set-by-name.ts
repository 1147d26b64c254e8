/**
 * Name-matched set operations (`UNION ALL BY NAME`, `[FULL|LEFT] [OUTER] … CORRESPONDING`, `STRICT`,
 * `ON (…)`) that this analyzer build (about 2023) either cannot parse (`BY NAME`, `INNER`) or
 * rejects ("Column propagation mode (FULL/LEFT/STRICT) for set operations are not supported"),
 * rewritten into positional set operations over explicit projections (BigQuery
 * query-syntax "BY NAME or CORRESPONDING").
 *
 * 1. {@link byNameToCorresponding} respells `BY NAME` in the CORRESPONDING form this parser
 *    knows, per the reference: `BY NAME` = `STRICT CORRESPONDING`; `INNER … BY NAME` =
 *    `CORRESPONDING`; `FULL|LEFT [OUTER] … BY NAME` = `FULL|LEFT … CORRESPONDING`;
 *    `BY NAME ON (cols)` = `STRICT CORRESPONDING BY (cols)`. String literals and comments are left alone.
 * 2. {@link rewriteCorresponding} turns each CORRESPONDING set operation of the parse tree whose
 *    inputs are SELECTs with known output names (aliases or path expressions, no `*`) into
 *    `SELECT a, b FROM (input1) UNION ALL SELECT a, NULL AS b FROM (input2)`: the output columns
 *    are those of the first input that every input has (INNER, the default), the first input's
 *    (LEFT), the first input's then the others' new ones (FULL), or the `BY (…)` list; STRICT
 *    requires the same names in every input. Missing columns are NULL.
 */
import { BigQueryError } from '../errors/errors.js';
import { normalize, walk, type Node } from './ast.js';

const TOKEN = /--[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/|[rRbB]{0,2}(?:'{3}[\s\S]*?'{3}|"{3}[\s\S]*?"{3}|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")|`(?:\\.|[^`\\])*`/g;

/** Applies `f` to the code between string literals, quoted identifiers and comments. */
function mapCode(sql: string, f: (code: string) => string): string {
  let out = '';
  let last = 0;
  for (const m of sql.matchAll(TOKEN)) {
    out += f(sql.slice(last, m.index)) + m[0];
    last = m.index! + m[0].length;
  }
  return out + f(sql.slice(last));
}

const OP = String.raw`(UNION|INTERSECT|EXCEPT)\s+(ALL|DISTINCT)\s+BY\s+NAME\b`;

/** `BY NAME` set operations respelled with CORRESPONDING; undefined when the text has none. */
export function byNameToCorresponding(sql: string): string | undefined {
  const out = mapCode(sql, (code) =>
    code
      .replace(new RegExp(String.raw`\bINNER\s+${OP}`, 'gi'), '$1 $2 CORRESPONDING')
      .replace(new RegExp(String.raw`\b(FULL|LEFT)(?:\s+OUTER)?\s+${OP}`, 'gi'), '$1 $2 $3 CORRESPONDING')
      .replace(new RegExp(String.raw`\b${OP}(\s+ON\b)?`, 'gi'), (_m, op: string, q: string, on?: string) => `${op} ${q} STRICT CORRESPONDING${on ?? ''}`)
      .replace(/\bCORRESPONDING\s+ON\s*\(/gi, 'CORRESPONDING BY ('),
  );
  return out === sql ? undefined : out;
}

interface Range {
  start: number;
  end: number;
}

const identText = (n: Node | undefined): string | undefined => (n?.idString === undefined ? undefined : String(n.idString));

/** Output column names of a SELECT input, or undefined when they are not known from the text. */
function outputNames(input: Node): string[] | undefined {
  // A parenthesized input (`… UNION ALL BY NAME (SELECT …)`, as pipe syntax writes them) is a Query around its SELECT.
  if (input.kind === 'Query' && !input.withClause && !input.orderBy && !input.limitOffset && input.queryExpr) return outputNames(input.queryExpr);
  if (input.kind !== 'Select') return undefined;
  const names: string[] = [];
  for (const c of (input.selectList?.columns ?? []) as Node[]) {
    const alias = identText(c.alias?.identifier);
    if (alias !== undefined) names.push(alias);
    else if (c.expression?.kind === 'PathExpression') names.push(String((c.expression.names as Node[]).at(-1)?.idString));
    else return undefined;
  }
  return names;
}

const lower = (s: string) => s.toLowerCase();

/** BigQuery's `[line:column]` (1-based, characters) of a UTF-8 byte offset of the statement. */
function locationOf(buf: Buffer, byte: number): string {
  const before = buf.subarray(0, byte).toString('utf8');
  const line = before.split('\n').length;
  return `[${line}:${before.length - before.lastIndexOf('\n')}]`;
}
const quote = (s: string) => '`' + s.replace(/[`\\]/g, '\\$&') + '`';

/** The rewritten text of one CORRESPONDING set operation, or undefined when it does not apply. */
function rewriteOne(op: Node, buf: Buffer): string | undefined {
  const inputs = (op.inputs ?? []) as Node[];
  const metas = (op.metadata?.setOperationMetadataList ?? []) as Node[];
  if (inputs.length < 2 || metas.length !== inputs.length - 1) return undefined;
  const m0 = metas[0];
  const key = (m: Node) => [m.opType?.value, m.allOrDistinct?.value, m.columnMatchMode?.value, m.columnPropagationMode?.value ?? 'INNER'].join(' ');
  if (metas.some((m) => key(m) !== key(m0))) return undefined;
  const match = String(m0.columnMatchMode?.value ?? '');
  if (match !== 'CORRESPONDING' && match !== 'CORRESPONDING_BY') return undefined;
  const mode = String(m0.columnPropagationMode?.value ?? 'INNER');
  const names = inputs.map(outputNames);
  if (inputs.some((i) => !i.parseLocationRange)) return undefined;
  if (names.some((n) => !n)) {
    // Names not known from the text (`SELECT *`): STRICT's result is the INNER one, which this
    // analyzer resolves itself (its name check is then not made); other modes are left alone.
    if (mode !== 'STRICT' || match !== 'CORRESPONDING') return undefined;
    const texts = inputs.map((i) => buf.subarray(i.parseLocationRange.start, i.parseLocationRange.end).toString('utf8'));
    return texts.join(` ${m0.opType?.value} ${m0.allOrDistinct?.value} CORRESPONDING `);
  }
  const sets = (names as string[][]).map((n) => new Set(n.map(lower)));
  const at = (i: number) => locationOf(buf, inputs[i].parseLocationRange.start);
  sets.forEach((s, i) => {
    if (s.size === names[i]!.length) return;
    const dup = names[i]!.find((n, k) => names[i]!.findIndex((m) => lower(m) === lower(n)) !== k)!;
    throw BigQueryError.corresponding.duplicateColumns(dup, i + 1, at(i));
  });
  let out: string[];
  if (match === 'CORRESPONDING_BY') out = ((m0.correspondingByColumnList?.identifiers ?? []) as Node[]).map((i) => String(i.idString));
  else if (mode === 'FULL') out = [...new Map((names as string[][]).flat().map((n) => [lower(n), n])).values()];
  else if (mode === 'LEFT') out = names[0]!;
  else out = names[0]!.filter((n) => sets.every((s) => s.has(lower(n))));
  // STRICT without a list: the same names in every input; with `BY (…)` (`BY NAME ON (…)`) every input has the listed ones.
  if (mode === 'STRICT' && match === 'CORRESPONDING' && sets.some((s) => s.size !== sets[0].size || [...s].some((n) => !sets[0].has(n))))
    throw BigQueryError.corresponding.strictMismatch();
  // At least one column in common (INNER, LEFT: the first input with each other one), reported at the operator.
  const opAt = locationOf(buf, m0.parseLocationRange?.start ?? inputs[1].parseLocationRange.start);
  if (!out.length || (mode === 'LEFT' && match === 'CORRESPONDING' && sets.slice(1).some((s) => ![...s].some((n) => sets[0].has(n)))))
    throw BigQueryError.corresponding.noCommonColumns(opAt);
  // FULL: a listed column must be in some input; LEFT: in the first one; otherwise in every input.
  if (match === 'CORRESPONDING_BY') {
    for (const n of out) {
      const where = sets.map((s) => s.has(lower(n)));
      if (mode === 'FULL' ? !where.some(Boolean) : mode === 'LEFT' ? !where[0] : !where.every(Boolean)) throw BigQueryError.corresponding.missingColumn(n);
    }
  }
  const outer = mode === 'FULL' || mode === 'LEFT';
  const words = `${m0.opType?.value} ${m0.allOrDistinct?.value}`;
  const branches = inputs.map((input, i) => {
    const text = buf.subarray(input.parseLocationRange.start, input.parseLocationRange.end).toString('utf8');
    const items = out.map((n) => {
      if (sets[i].has(lower(n))) return quote(n);
      if (outer) return `NULL AS ${quote(n)}`;
      throw BigQueryError.corresponding.missingColumn(n);
    });
    return `SELECT ${items.join(', ')} FROM (${text})`;
  });
  return branches.join(` ${words} `);
}

/**
 * Rewrites the CORRESPONDING set operations of a statement into positional ones.
 * @param sql one statement's text
 * @param parsed the analyzer's parse tree of `sql` (ParseResponse.parsedStatement, raw)
 * @returns the rewritten text, or undefined when nothing applies
 * @throws BigQueryError invalidQuery when the inputs' names do not fit the mode (STRICT, BY)
 */
export function rewriteCorresponding(sql: string, parsed: unknown): string | undefined {
  const tree = normalize(parsed);
  const buf = Buffer.from(sql, 'utf8');
  const edits: { range: Range; text: string }[] = [];
  walk(tree, (n) => {
    if (n.kind !== 'SetOperation' || !n.parseLocationRange) return;
    if (edits.some((e) => e.range.start <= n.parseLocationRange.start && n.parseLocationRange.end <= e.range.end)) return;
    const text = rewriteOne(n, buf);
    if (text !== undefined) edits.push({ range: n.parseLocationRange, text });
  });
  if (!edits.length) return undefined;
  edits.sort((a, b) => b.range.start - a.range.start);
  let out = buf;
  for (const e of edits) out = Buffer.concat([out.subarray(0, e.range.start), Buffer.from(e.text), out.subarray(e.range.end)]);
  return out.toString('utf8');
}
