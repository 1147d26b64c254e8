/**
 * 400 invalidQuery errors of multi-statement queries: variables, dynamic SQL, procedures,
 * transactions (https://cloud.google.com/bigquery/docs/reference/standard-sql/procedural-language,
 * https://cloud.google.com/bigquery/docs/transactions). Texts follow ZetaSQL's script executor
 * where it has one (`Undeclared variable`, `Variable 'x' redeclaration`).
 */
import type { BigQueryError } from './bigquery-error.js';
import { invalidQuery } from './reasons.js';

/** 400 invalidQuery `<message> at [line:column]` — an analysis error anchored at a 1-based position of the script or statement text. */
export function invalidQueryAt(message: string, line: number, column: number): BigQueryError {
  return invalidQuery(`${message} at [${line}:${column}]`);
}

/** 400 invalidQuery `Variable '<name>' redeclaration<at>` — DECLARE of a declared name; `at` is ` at [l:c]` or empty. */
export function variableRedeclared(name: string, at = ''): BigQueryError {
  return invalidQuery(`Variable '${name}' redeclaration${at}`);
}

/** 400 invalidQuery `Undeclared variable: <name><at>` — SET or EXECUTE IMMEDIATE … INTO of an undeclared name; `at` is ` at [l:c]` or empty. */
export function undeclaredVariable(name: string, at = ''): BigQueryError {
  return invalidQuery(`Undeclared variable: ${name}${at}`);
}

/** 400 invalidQuery `Unrecognized system variable: @@<path><at>` (system variables: https://cloud.google.com/bigquery/docs/reference/system-variables). */
export function unrecognizedSystemVariable(path: string, at = ''): BigQueryError {
  return invalidQuery(`Unrecognized system variable: @@${path}${at}`);
}

/** 400 invalidQuery `System variable @@<path> cannot be set<at>` — a read-only system variable (https://cloud.google.com/bigquery/docs/reference/system-variables). */
export function systemVariableReadOnly(path: string, at = ''): BigQueryError {
  return invalidQuery(`System variable @@${path} cannot be set${at}`);
}

/** 400 invalidQuery: RAISE without USING MESSAGE outside an exception handler (https://cloud.google.com/bigquery/docs/reference/standard-sql/procedural-language#raise). */
export function raiseOutsideHandler(at = ''): BigQueryError {
  return invalidQuery(`RAISE without USING MESSAGE is only allowed inside an exception handler${at}`);
}

/** 400 invalidQuery `Cannot coerce <what> of type <from> to type <to>` — a SET or DECLARE value of the wrong type. */
export function cannotCoerce(what: string, from: string, to: string): BigQueryError {
  return invalidQuery(`Cannot coerce ${what} of type ${from} to type ${to}`);
}

/** 400 invalidQuery `Cannot coerce expression <sql> to type <target> at [l:c]` — a script expression of the wrong type. */
export function cannotCoerceExpression(sql: string, target: string, line: number, column: number): BigQueryError {
  return invalidQueryAt(`Cannot coerce expression ${sql} to type ${target}`, line, column);
}

/** 400 invalidQuery `Expected a query` — a statement where the script grammar needs a query. */
export function expectedQuery(): BigQueryError {
  return invalidQuery('Expected a query');
}

/** The EXECUTE IMMEDIATE refusals (https://cloud.google.com/bigquery/docs/reference/standard-sql/procedural-language#execute_immediate). */
export const executeImmediate = {
  /** The SQL string is NULL. */
  nullSql: (): BigQueryError => invalidQuery('EXECUTE IMMEDIATE sql string cannot be NULL'),
  /** USING mixes named and positional arguments. */
  mixedArguments: (): BigQueryError => invalidQuery('EXECUTE IMMEDIATE … USING cannot mix named and positional arguments'),
  /** The SQL string holds more than one statement. */
  notSingleStatement: (): BigQueryError => invalidQuery('EXECUTE IMMEDIATE must run a single SQL statement'),
  /** INTO with a statement that is not a query. */
  intoNeedsQuery: (): BigQueryError => invalidQuery('EXECUTE IMMEDIATE … INTO requires a query'),
  /** INTO with a query that returned more than one row. */
  intoManyRows: (): BigQueryError => invalidQuery('EXECUTE IMMEDIATE … INTO: the query returned more than one row'),
  /** INTO with a variable count unlike the query's column count. */
  intoArity: (variables: number, columns: number): BigQueryError =>
    invalidQuery(`EXECUTE IMMEDIATE … INTO has ${variables} variables but the query returns ${columns} columns`),
};

/** 400 invalidQuery: BQ.ABORT_SESSION() without a session id outside a session (https://cloud.google.com/bigquery/docs/sessions-terminating). */
export function abortSessionOutsideSession(): BigQueryError {
  return invalidQuery('BQ.ABORT_SESSION() without an argument can only be called inside a session');
}

/** 400 invalidQuery: CALL BQ.REFRESH_MATERIALIZED_VIEW without the view name (https://cloud.google.com/bigquery/docs/materialized-views-manage#manual-refresh). */
export function refreshMaterializedViewName(): BigQueryError {
  return invalidQuery('BQ.REFRESH_MATERIALIZED_VIEW expects the materialized view name');
}

/** 400 invalidQuery `Procedure not found: <path> at [l:c]` — CALL of a procedure that does not exist; `path` as written. */
export function procedureNotFound(path: string, line: number, column: number): BigQueryError {
  return invalidQueryAt(`Procedure not found: ${path}`, line, column);
}

/** 400 invalidQuery: CALL with the wrong number of arguments. */
export function procedureArity(procedure: string, expected: number, given: number): BigQueryError {
  return invalidQuery(`Procedure ${procedure} expects ${expected} argument(s), ${given} given`);
}

/** 400 invalidQuery: an OUT or INOUT procedure argument that is not a variable (`mode` OUT/INOUT). */
export function procedureArgumentNotVariable(mode: string, argument: string, procedure: string): BigQueryError {
  return invalidQuery(`${mode} argument ${argument} of procedure ${procedure} must be a variable`);
}

/** The transaction refusals (https://cloud.google.com/bigquery/docs/transactions). */
export const transaction = {
  /** BEGIN inside an open transaction. */
  alreadyInProgress: (): BigQueryError => invalidQuery('Transaction is already in progress'),
  /** COMMIT with no open transaction. */
  noneToCommit: (): BigQueryError => invalidQuery('There is no active transaction to commit'),
  /** ROLLBACK with no open transaction. */
  noneToRollBack: (): BigQueryError => invalidQuery('There is no active transaction to roll back'),
};

/**
 * 400 invalidQuery with the message of `RAISE USING MESSAGE = <text>` (`NULL` for a NULL message),
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/procedural-language#raise.
 */
export function raised(message: string | null): BigQueryError {
  return invalidQuery(message === null ? 'NULL' : message);
}

/**
 * 400 invalidQuery `Assertion failed[: <description>]` — an ASSERT whose condition is not TRUE
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/debugging-statements#assert).
 */
export function assertionFailed(description?: string): BigQueryError {
  return invalidQuery(description !== undefined ? `Assertion failed: ${description}` : 'Assertion failed');
}
