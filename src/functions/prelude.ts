/**
 * The function prelude: JavaScript scalar UDFs that some lowerings call where DuckDB has no
 * equivalent (FarmHash, SHA-512, Unicode normalisation, base32, SOUNDEX, JSON mutation…).
 *
 * Category files declare their UDFs with `defineUdf` at import time; the engine must call
 * `installFunctionPrelude(connection)` on every DuckDB connection it opens (UDFs are registered
 * per connection; the prelude also sets `ieee_floating_point_ops`). UDF names start with `bq_`. A UDF returns NULL for input it
 * cannot handle and the lowering turns that into BigQuery's error text (or NULL under SAFE.),
 * unless declared with `raises` (its exception's message is the query's error).
 * SQL NULL arguments give NULL without calling the function.
 */
import {
  BIGINT,
  BLOB,
  BOOLEAN,
  DOUBLE,
  DuckDBBlobValue,
  DuckDBScalarFunction,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBType,
} from '@duckdb/node-api';

/** Argument/result kinds a UDF may use. */
export type UdfType = 'VARCHAR' | 'BLOB' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN';
type JsOf<T extends UdfType> = T extends 'VARCHAR' ? string : T extends 'BLOB' ? Uint8Array : T extends 'BIGINT' ? bigint : T extends 'DOUBLE' ? number : boolean;

interface UdfDef {
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

const DUCK: Record<UdfType, DuckDBType> = { VARCHAR, BLOB, BIGINT, DOUBLE, BOOLEAN };
const udfs = new Map<string, UdfDef>();

/** Declares a UDF (call at module load). */
export function defineUdf<P extends UdfType[], R extends UdfType>(
  name: string,
  params: [...P],
  returns: R,
  fn: (...args: { [K in keyof P]: JsOf<P[K]> }) => JsOf<R> | null,
  opts: UdfOptions = {},
): void {
  udfs.set(name, { name, params, returns, fn: fn as (...args: unknown[]) => unknown, opts });
}

function toDuck(t: UdfType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (t === 'BLOB') return new DuckDBBlobValue(v as Uint8Array);
  return v;
}

function fromDuck(t: UdfType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  // A copy: the bytes view DuckDB hands over may point at memory it reuses.
  if (t === 'BLOB') return new Uint8Array((v as DuckDBBlobValue).bytes);
  return v;
}

/** Registers every declared UDF on a connection. */
export async function installFunctionPrelude(con: DuckDBConnection): Promise<void> {
  await import('./index.js');
  // IEEE results (inf, NaN) instead of NULL for non-finite floating-point results; the lowerings
  // raise BigQuery's errors before DuckDB sees a domain error.
  await con.run('SET ieee_floating_point_ops = true');
  (await import('./js-udf.js')).installJsUdfRunner(con);
  (await import('./debugging.js')).installRaise(con);
  for (const d of udfs.values()) {
    con.registerScalarFunction(
      DuckDBScalarFunction.create({
        name: d.name,
        returnType: DUCK[d.returns],
        parameterTypes: d.params.map((p) => DUCK[p]),
        volatile: d.opts.volatile,
        mainFunction: (info, input, output) => {
          const cols = d.params.map((_p, i) => input.getColumnVector(i));
          for (let r = 0; r < input.rowCount; r++) {
            const args = cols.map((v, i) => fromDuck(d.params[i], v.getItem(r)));
            let out: unknown = null;
            if (!args.some((a) => a === null)) {
              try {
                out = d.fn(...args);
              } catch (e) {
                if (d.opts.raises) {
                  info.setError(e instanceof Error ? e.message : String(e));
                  return;
                }
                out = null;
              }
            }
            (output as { setItem(i: number, v: unknown): void }).setItem(r, toDuck(d.returns, out));
          }
          output.flush();
        },
      }),
    );
  }
}

/** Names of the declared UDFs (for tests and diagnostics). */
export const udfNames = (): string[] => [...udfs.keys()].sort();
