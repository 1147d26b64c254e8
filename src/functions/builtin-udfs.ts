/**
 * The declarations of the JavaScript scalar UDFs that builtin lowerings call where DuckDB has no
 * equivalent (FarmHash, SHA-512, Unicode normalisation, base32, SOUNDEX, JSON mutation…).
 *
 * Category files declare their UDFs with `defineUdf` at import time; src/functions/prelude.ts
 * registers every declaration on each DuckDB connection. UDF names start with `bq_`. A UDF returns
 * NULL for input it cannot handle and the lowering turns that into BigQuery's error text (or NULL
 * under SAFE.), unless declared with `raises` (its exception's message is the query's error).
 * SQL NULL arguments give NULL without calling the function.
 */
import { BigQueryError } from '../errors/errors.js';

/** Argument/result kinds a UDF may use. */
export type UdfType = 'VARCHAR' | 'BLOB' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN';
type JsOf<T extends UdfType> = T extends 'VARCHAR' ? string : T extends 'BLOB' ? Uint8Array : T extends 'BIGINT' ? bigint : T extends 'DOUBLE' ? number : boolean;

/** One declared UDF: its SQL name, argument and result kinds, the JavaScript body and options. */
export interface UdfDef {
  name: string;
  params: UdfType[];
  returns: UdfType;
  fn: (...args: any[]) => unknown;
  opts: UdfOptions;
}

/**
 * `raises`: an exception thrown by the function fails the query with its message (instead of a
 * NULL result); `volatile`: the result may differ between calls with the same arguments (random
 * keys, nonces), so DuckDB neither folds nor shares calls.
 */
export interface UdfOptions {
  raises?: boolean;
  volatile?: boolean;
}

const udfs = new Map<string, UdfDef>();

/** Every UDF declared so far, in declaration order. */
export const declaredUdfs = (): UdfDef[] => [...udfs.values()];

/**
 * Declares a UDF (call at module load).
 * @throws BigQueryError internal when a UDF of that name is already declared (two lowerings would
 *   otherwise share one name and the later body would silently replace the earlier one).
 */
export function defineUdf<P extends UdfType[], R extends UdfType>(
  name: string,
  params: [...P],
  returns: R,
  fn: (...args: { [K in keyof P]: JsOf<P[K]> }) => JsOf<R> | null,
  opts: UdfOptions = {},
): void {
  if (udfs.has(name)) throw BigQueryError.functionTable.udfDeclaredTwice(name);
  udfs.set(name, { name, params, returns, fn: fn as (...args: unknown[]) => unknown, opts });
}
