/**
 * 500 backendError: faults of the emulator itself — its SQL analyzer child process, its DuckDB
 * database, a value it cannot convert. Never a client mistake (clients retry 5xx); the texts are
 * the emulator's own (reason backendError, https://cloud.google.com/bigquery/docs/error-messages).
 */
import type { BigQueryError } from './bigquery-error.js';
import { internal } from './reasons.js';

/** The SQL analyzer child process's failures (src/analyzer/pool.ts, src/analyzer/client.ts). */
export const analyzer = {
  /** The analyzer pool was stopped (the emulator is closing). */
  stopped: (): BigQueryError => internal('The SQL analyzer was stopped'),
  /** The analyzer did not start (cause unknown). */
  didNotStart: (): BigQueryError => internal('The SQL analyzer did not start'),
  /** The analyzer did not start; `cause` the error message it failed with. */
  failedToStart: (cause: unknown): BigQueryError => internal(`The SQL analyzer did not start: ${cause}`),
  /** The analyzer's gRPC service answered UNAVAILABLE; `detail` its text. */
  unavailable: (detail: string): BigQueryError => internal(`The SQL analyzer is unavailable: ${detail}`),
  /** A call to the analyzer failed; `method` the gRPC method. */
  callFailed: (method: string, detail: string): BigQueryError => internal(`The SQL analyzer call ${method} failed: ${detail}`),
};

/** 500 `<what> not bound` — a statement's target table the engine did not resolve (`DML target`, `TRUNCATE target`). */
export function targetNotBound(what: string): BigQueryError {
  return internal(`${what} not bound`);
}

/** 500 `Unbound table <name>` — a scanned table the engine did not resolve. */
export function unboundTable(name: string | undefined): BigQueryError {
  return internal(`Unbound table ${name}`);
}

/** 500 `The database is closed` — work sent to the DuckDB database after the emulator began closing. */
export function databaseClosed(): BigQueryError {
  return internal('The database is closed');
}

/** 500: a DuckDB value that does not fit its column's BigQuery type (`shown` the value, `kind` the type kind). */
export function unexpectedDuckValue(shown: string, kind: string): BigQueryError {
  return internal(`Unexpected DuckDB value ${shown} for a ${kind} column`);
}

/** 500: a value the engine cannot write as a DuckDB literal of a type. */
export function cannotWriteDuckLiteral(shown: string, kind: string): BigQueryError {
  return internal(`Cannot write ${shown} as a DuckDB literal of type ${kind}`);
}

/** 500: a value the wire layer cannot encode as a REST cell of a type. */
export function cannotEncodeRestCell(shown: string, kind: string): BigQueryError {
  return internal(`Cannot encode ${shown} as a REST cell of type ${kind}`);
}

/** 500: a domain value the wire layer cannot encode as an Arrow value of a type (Storage Read API, src/wire/arrow.ts). */
export function cannotEncodeArrowValue(shown: string, kind: string): BigQueryError {
  return internal(`Cannot encode ${shown} as an Arrow value of type ${kind}`);
}

/** 500: a helper that needs a STRUCT type was handed another kind. */
export function notAStruct(what: string, kind: string): BigQueryError {
  return internal(`${what} of non-STRUCT type ${kind}`);
}

/** 500: a function's lowering met a return type it was not written for (`name` the function, `expected` the type). */
export function unexpectedReturnType(name: string, expected: string): BigQueryError {
  return internal(`${name} must return ${expected}`);
}

/** 500: the SQL of a SAFE./try expression that the lowering could not balance. */
export function unbalancedTrySql(): BigQueryError {
  return internal('unbalanced SQL in a try expression');
}

/**
 * The function table's own consistency checks, raised while the emulator's modules load
 * (src/functions/registry.ts, src/functions/builtin-udfs.ts): a builtin declared twice would
 * otherwise silently shadow another. Emulator texts; never reach a client.
 */
export const functionTable = {
  /** `function <name> is registered twice: <first> and <second>` (each `file (TABLE_EXPORT)`). */
  registeredTwice: (name: string, first: string, second: string): BigQueryError => internal(`function ${name} is registered twice: ${first} and ${second}`),
  /** `UDF <name> is declared twice` — a DuckDB UDF of the prelude declared by two pages. */
  udfDeclaredTwice: (name: string): BigQueryError => internal(`UDF ${name} is declared twice`),
  /** `page(<file>): expected one exported table, got <n>`. */
  pageTableCount: (file: string, n: number): BigQueryError => internal(`page(${file}): expected one exported table, got ${n}`),
};

/** 500: a domain value the wire layer cannot encode as an Avro value of a type (Storage Read API, src/wire/avro.ts). */
export function cannotEncodeAvroValue(shown: string, kind: string): BigQueryError {
  return internal(`Cannot encode ${shown} as an Avro value of type ${kind}`);
}
