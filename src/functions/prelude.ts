/**
 * The function prelude: what every DuckDB connection needs before lowered SQL can run on it — the
 * JavaScript scalar UDFs the builtin lowerings call (declared with `defineUdf`,
 * src/functions/builtin-udfs.ts), the JavaScript UDF runner (js-udf.ts), the `error()` override of
 * ERROR/IFERROR (debugging.ts) and `SET ieee_floating_point_ops = true`.
 *
 * DuckDB keeps a scalar function registered through a connection in the database's catalog, for
 * every connection, and `ieee_floating_point_ops` is a global setting: the engine installs the
 * prelude once per database, through its first connection (src/engine/duckdb/settings.ts
 * openConnection). Importing the function table (index.ts) here makes sure every category file has
 * declared its UDFs first.
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
import { EventLoopSlices } from '../config/limits.js';
import { declaredUdfs, type UdfType } from './builtin-udfs.js';
import { installRaise } from './debugging.js';
import './index.js';
import { installJsUdfRunner } from './js-udf.js';

const DUCK: Record<UdfType, DuckDBType> = { VARCHAR, BLOB, BIGINT, DOUBLE, BOOLEAN };

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

/**
 * Registers every declared UDF in the database of `con`, in event-loop slices (EventLoopSlices):
 * the 165 registrations take ~8–12 ms of the main thread.
 */
export async function installFunctionPrelude(con: DuckDBConnection): Promise<void> {
  // IEEE results (inf, NaN) instead of NULL for non-finite floating-point results; the lowerings
  // raise BigQuery's errors before DuckDB sees a domain error.
  await con.run('SET ieee_floating_point_ops = true');
  installJsUdfRunner(con);
  installRaise(con);
  const slices = new EventLoopSlices();
  for (const d of declaredUdfs()) {
    if (slices.due()) await slices.next();
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
export const udfNames = (): string[] => declaredUdfs().map((d) => d.name).sort();
