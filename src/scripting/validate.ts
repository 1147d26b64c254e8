/**
 * Static checks of a parsed script before anything runs (BigQuery procedural language reference):
 * DECLARE only at the start of the script or of a BEGIN block, before other procedural
 * statements (SQL statements and temp functions may precede it); BREAK/LEAVE and CONTINUE/ITERATE
 * only inside a loop; a label they name must enclose them, and CONTINUE's label must be a loop's;
 * `RAISE` without a message only inside an exception handler. The analyzer's parser accepts all of
 * these, BigQuery rejects the script before running it.
 */
import type { Node } from '../analyzer/ast.js';
import { BigQueryError } from '../errors/errors.js';
import type { ScriptSource } from './source.js';

interface Enclosing {
  label?: string;
  loop: boolean;
}

const LOOPS = new Set(['WhileStatement', 'RepeatStatement', 'ForInStatement']);

/**
 * @param procedural parse-tree kinds of the procedural statements
 * @throws BigQueryError invalidQuery at the offending statement.
 */
export function validateScript(src: ScriptSource, list: Node[], procedural: Set<string>): void {
  const fail = (n: Node, message: string): never => {
    const { line, column } = src.lineCol(src.range(n).start);
    throw BigQueryError.invalidQueryAt(message, line, column);
  };

  const visitList = (stmts: Node[] | undefined, declarations: boolean, stack: Enclosing[], inHandler: boolean) => {
    let afterProcedural = false;
    for (const s of stmts ?? []) {
      if (s.kind === 'VariableDeclaration') {
        if (!declarations || afterProcedural) fail(s, 'Variable declarations are allowed only at the start of a block or script');
        continue;
      }
      if (procedural.has(s.kind) && s.kind !== 'CreateFunctionStatement') afterProcedural = true;
      visit(s, stack, inHandler);
    }
  };

  const visit = (s: Node, stack: Enclosing[], inHandler: boolean) => {
    const label: string | undefined = s.label?.name?.idString;
    const inner = [...stack, { label, loop: LOOPS.has(s.kind) }];
    switch (s.kind) {
      case 'BeginEndBlock':
        visitList(s.statementListNode?.statementList, true, inner, inHandler);
        for (const h of (s.handlerList?.exceptionHandlerList ?? []) as Node[]) visitList(h.statementList?.statementList, false, stack, true);
        break;
      case 'IfStatement':
        visitList(s.thenList?.statementList, false, stack, inHandler);
        for (const c of (s.elseifClauses?.elseifClauses ?? []) as Node[]) visitList(c.body?.statementList, false, stack, inHandler);
        visitList(s.elseList?.statementList, false, stack, inHandler);
        break;
      case 'CaseStatement':
        for (const c of (s.whenThenClauses?.whenThenClauses ?? []) as Node[]) visitList(c.body?.statementList, false, stack, inHandler);
        visitList(s.elseList?.statementList, false, stack, inHandler);
        break;
      case 'WhileStatement':
      case 'RepeatStatement':
      case 'ForInStatement':
        visitList(s.body?.statementList, false, inner, inHandler);
        break;
      case 'BreakStatement':
      case 'ContinueStatement': {
        const keyword = String(s.keyword ?? (s.kind === 'BreakStatement' ? 'BREAK' : 'CONTINUE'));
        const name: string | undefined = s.label?.name?.idString;
        if (!name) {
          if (!stack.some((e) => e.loop)) fail(s, `${keyword} is only allowed inside a loop`);
          break;
        }
        const target = [...stack].reverse().find((e) => e.label?.toLowerCase() === name.toLowerCase());
        if (!target) fail(s, `Unknown label: ${name}`);
        else if (s.kind === 'ContinueStatement' && !target.loop) fail(s, `${keyword} cannot refer to label ${name}, which is not a loop`);
        break;
      }
      case 'RaiseStatement':
        if (!s.message && !inHandler) fail(s, 'RAISE without USING MESSAGE is only allowed inside an exception handler');
        break;
    }
  };

  visitList(list, true, [], false);
}
