/**
 * Temporary SQL functions of a request (BigQuery "User-defined functions": `CREATE TEMP FUNCTION
 * name(arg type | ANY TYPE, …) [RETURNS type] AS (sql_expression)`), visible to the statements
 * after them.
 *
 * Each is declared in the analyzer's catalog as a ZetaSQL templated SQL function (`FunctionProto`
 * with the body in `parse_resume_location` and the argument names); the analyzer resolves the
 * body at each call for the actual argument types (which is what ANY TYPE needs), and the
 * REWRITE_INLINE_SQL_FUNCTIONS rewrite inlines it into the resolved AST, so the lowering only sees
 * ordinary expressions. The signature is the one the analyzer resolved for the CREATE statement.
 * JavaScript functions run in the JS UDF runner; SQL aggregate functions are refused clearly (not built yet).
 */
import type { Node } from '../analyzer/ast.js';
import { BigQueryError } from '../errors/errors.js';
import { functionProto, functionRoutine } from '../engine/routine-definitions.js';

/** ZetaSQL's function group of templated SQL functions (what the catalog deserializer keys on). */
const TEMPLATED_GROUP = 'Templated_SQL_Function';

export class TempFunctions {
  /** `byName`: the definitions by lower-case name (a session's persist between its jobs). */
  constructor(private readonly byName = new Map<string, object>()) {}

  /** Catalog `FunctionProto`s for the analyzer. */
  protos(): object[] {
    return [...this.byName.values()];
  }

  /**
   * Declares the function a resolved `CreateFunctionStmt` (TEMP scope) defines.
   * @throws BigQueryError for an existing name (without OR REPLACE) and JavaScript aggregate functions.
   */
  define(stmt: Node): void {
    const name = String((stmt.namePath as string[]).join('.'));
    const key = name.toLowerCase();
    const lang = String(stmt.language ?? 'SQL').toUpperCase();
    if (lang !== 'SQL' && lang !== 'JS') throw BigQueryError.notSupported(`CREATE TEMP FUNCTION … LANGUAGE ${String(stmt.language).toLowerCase()}`);
    if (stmt.isAggregate && lang === 'JS') throw BigQueryError.notSupported('CREATE TEMP AGGREGATE FUNCTION … LANGUAGE js');
    if (this.byName.has(key)) {
      if (stmt.createMode === 'CREATE_IF_NOT_EXISTS') return;
      if (stmt.createMode !== 'CREATE_OR_REPLACE') throw BigQueryError.tempFunctionExists(name);
    }
    if (lang === 'JS' || stmt.isAggregate) {
      // JavaScript: run by the JS UDF runner (src/functions/js-udf.ts) through the lowering; SQL
      // aggregates: declared like persistent ones (REWRITE_INLINE_SQL_UDAS inlines them).
      this.byName.set(key, functionProto(functionRoutine(stmt, { projectId: '', datasetId: '', routineId: name }), [name]));
      return;
    }
    const sig = stmt.signature as { argument?: Record<string, unknown>[]; returnType?: Record<string, unknown> };
    const clean = (a: Record<string, unknown> | undefined) => {
      if (!a) return a;
      const options = { ...(a.options as Record<string, unknown>) };
      delete options.argumentTypeParseLocation;
      return { ...a, options, numOccurrences: 1 };
    };
    this.byName.set(key, {
      namePath: [name],
      group: TEMPLATED_GROUP,
      mode: 'SCALAR',
      signature: [{ argument: (sig.argument ?? []).map(clean), returnType: clean(sig.returnType), contextId: String(this.byName.size + 1000) }],
      parseResumeLocation: { input: String(stmt.code ?? ''), bytePosition: 0 },
      templatedSqlFunctionArgumentName: stmt.argumentNameList ?? [],
    });
  }

  /** Removes the analyzer's internal function-group prefix from error texts. */
  errorText(e: unknown): unknown {
    const prefix = new RegExp(`${TEMPLATED_GROUP}:`, 'gi');
    if (!(e instanceof BigQueryError) || !prefix.test(e.message)) return e;
    return BigQueryError.withMessage(e, e.message.replace(prefix, ''));
  }
}
