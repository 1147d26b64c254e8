/**
 * The literal arguments of a large statement's wide function calls converted to DuckDB literals
 * before its lowering, a slice of the event loop at a time.
 *
 * Lowering is one synchronous pass over the resolved AST. For a 1 MB `x IN (0, 1, …)` (100,000
 * literals, within BigQuery's 1,024K-character query limit) that pass held the event loop
 * 90–106 ms, most of it converting the literals (`valueFromProto`, their types, the DuckDB
 * spelling). Converted here first, in slices, the lowering takes each call's arguments as a list.
 */
import type { Node, ResolvedLiteral } from '../../analyzer/ast.js';
import { EventLoopSlices } from '../../config/limits.js';
import type { BqType } from '../../types/types.js';
import { exprType, type LowerContext } from './context.js';
import { lowerLiteral } from './exprs.js';

/** Calls with at least this many arguments have their literal arguments converted ahead. */
export const WIDE_CALL_ARGUMENTS = 64;

/** Arguments converted between two checks of the slice clock. */
const CHECK_EVERY = 256;

/**
 * Fills `ctx.argumentsAhead` for each call of `calls` (FunctionCall nodes of the statement about to
 * be lowered with `ctx`) with at least WIDE_CALL_ARGUMENTS arguments: the DuckDB literal and type
 * of each Literal argument, yielding to the event loop between slices. Enum literals (lowered by
 * their number, exprs.ts `fnCall`), other expressions and literals whose conversion fails are left
 * to the lowering, which converts them in place (and raises any error there).
 */
export async function lowerLiteralsAhead(calls: readonly Node[], ctx: LowerContext): Promise<void> {
  const slices = new EventLoopSlices();
  let done = 0;
  for (const call of calls) {
    const args: Node[] = call.argumentList ?? [];
    if (args.length < WIDE_CALL_ARGUMENTS) continue;
    const sql: (string | undefined)[] = new Array(args.length);
    const types: (BqType | undefined)[] = new Array(args.length);
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a.kind === 'Literal' && a.type?.typeKind !== 'TYPE_ENUM') {
        try {
          sql[i] = lowerLiteral(a as ResolvedLiteral, ctx);
          types[i] = exprType(a);
        } catch {
          // Converted (and reported) in place by the lowering.
        }
      }
      if (++done % CHECK_EVERY === 0 && slices.due()) await slices.next();
    }
    (ctx.argumentsAhead ??= new Map()).set(call, { sql, types });
  }
}
