/**
 * EXECUTE IMMEDIATE sql_expression [INTO variable[, …]] [USING expression [AS name][, …]]
 * (BigQuery procedural language reference, EXECUTE IMMEDIATE).
 *
 * The string is one SQL statement. USING binds query parameters: named (`@name`, from `AS name`)
 * or positional (`?`), never both. INTO assigns the columns of the query's single row (no row:
 * NULLs) to variables with GoogleSQL's implicit coercions. Without INTO the statement's result
 * is a result of the script.
 */
import type { Node } from '../analyzer/ast.js';
import { preParseRewrites } from '../analyzer/pre-parse.js';
import { stripComments } from '../engine/analyze.js';
import { checkQueryText } from '../engine/query-text-limits.js';
import type { ParamValue } from '../engine/lower/context.js';
import { BigQueryError } from '../errors/errors.js';
import type { BqType, Value } from '../types/types.js';
import type { Flow, Interpreter } from './interpreter.js';
import { coerceValue } from './variables.js';

export async function executeImmediate(it: Interpreter, n: Node): Promise<Flow> {
  const sqlValue = await it.evaluate(n.sql, { type: { kind: 'STRING' } });
  if (sqlValue.value === null) throw BigQueryError.executeImmediate.nullSql();
  // A built statement meets the same text limits as a request's query (src/engine/query-text-limits.ts),
  // and gets the same pre-parse rewrites (pipe syntax, BY NAME, adjacent literals: src/analyzer/pre-parse.ts).
  checkQueryText(String(sqlValue.value));
  const text = preParseRewrites(String(sqlValue.value));

  const named = new Map<string, ParamValue>();
  const positional: ParamValue[] = [];
  for (const arg of (n.usingClause?.arguments ?? []) as Node[]) {
    const v = await it.evaluate(arg.expression);
    const alias: string | undefined = arg.alias?.identifier?.idString;
    if (alias) named.set(alias.toLowerCase(), v);
    else positional.push(v);
  }
  if (named.size && positional.length) throw BigQueryError.executeImmediate.mixedArguments();

  const types = new Map<string, BqType>([...named].map(([k, v]) => [k, v.type]));
  const a = await it.engine.statements.analyze(text, 0, it.defaults, it.paramTypes(types, positional.map((p) => p.type)));
  if (stripComments(Buffer.from(text).subarray(a.next).toString('utf8').replace(/^\s*;/, '')))
    throw BigQueryError.executeImmediate.notSingleStatement();
  const into: Node[] = n.intoClause?.identifiers?.identifierList ?? [];
  // With INTO the statement is not a result of the script: no per-statement job hooks.
  const r = await it.execute(a, it.options(!into.length, { namedParams: named, positionalParams: positional }));

  const { start, end } = it.src.range(n);
  if (!into.length) {
    it.record(r, start, end);
    return undefined;
  }
  if (a.stmt.kind !== 'QueryStmt') throw BigQueryError.executeImmediate.intoNeedsQuery();
  const rows = r.rows ?? [];
  if (rows.length > 1) throw BigQueryError.executeImmediate.intoManyRows();
  const fields = r.schema ?? [];
  if (fields.length !== into.length)
    throw BigQueryError.executeImmediate.intoArity(into.length, fields.length);
  into.forEach((id, i) => {
    const v = it.scopes.lookup(id.idString);
    if (!v) throw BigQueryError.undeclaredVariable(id.idString);
    v.value = coerceValue((rows[0]?.[i] ?? null) as Value, fields[i].type, v.type, `column ${fields[i].name}`);
  });
  return undefined;
}
