/**
 * JavaScript UDFs (`CREATE [TEMP] FUNCTION f(x INT64) RETURNS INT64 LANGUAGE js AS "…"`).
 *
 * Each definition gets its own `node:vm` context (no `require`, `process` or host globals) and
 * every call runs under a time limit (`BQEMU_JS_UDF_TIMEOUT_MS`, default 5,000 ms): a function
 * that never returns is stopped with a clear error and the emulator keeps answering.
 *
 * Calls reach the code through one DuckDB scalar function, `bq_js_udf(id, args_json)`, registered
 * on every connection by the prelude: the lowering passes the arguments as a JSON array
 * (`to_json`), the runner decodes them with BigQuery's JavaScript type mapping, calls the function,
 * and answers the result as JSON text that the lowering casts to the declared return type. A
 * thrown error fails the query with BigQuery's text (`Error: boom at f(INT64) line 1, column 1`,
 * recorded routines_scripting/js_udf_throws).
 *
 * Type mapping (BigQuery "JavaScript UDFs", SQL type encodings): INT64 arrives as a decimal
 * string (recorded js_udf_int_to_int: `return x + 1` with 41 answers 411); FLOAT64 and NUMERIC
 * as numbers; BOOL as boolean; STRING as string; BYTES as a base64 string; DATE, DATETIME, TIME
 * as strings; TIMESTAMP as a Date; ARRAY as an array; STRUCT as an object; JSON as the parsed value.
 */
import vm from 'node:vm';
import { DuckDBScalarFunction, BIGINT, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import type { BqType } from '../types/types.js';

export interface JsUdfDef {
  /** Display name in error texts (`js_boom`). */
  name: string;
  argNames: string[];
  argTypes: BqType[];
  returnType: BqType;
  code: string;
}

interface Compiled extends JsUdfDef {
  context?: vm.Context;
  call?: vm.Script;
}

const registry = new Map<number, Compiled>();
const byKey = new Map<string, number>();
let nextId = 1;

/** The analyzer function group of JS UDF `id` (the lowering recognises `JsUdf_<id>:name`). */
export const jsUdfGroup = (id: number) => `JsUdf_${id}`;
export const jsUdfIdOf = (fullName: string): number | undefined => {
  const m = /^JsUdf_(\d+):/.exec(fullName);
  return m ? Number(m[1]) : undefined;
};
export const jsUdf = (id: number): JsUdfDef | undefined => registry.get(id);

/** Registers a definition (identical definitions share an id). */
export function registerJsUdf(def: JsUdfDef): number {
  const key = JSON.stringify(def);
  const hit = byKey.get(key);
  if (hit !== undefined) return hit;
  const id = nextId++;
  registry.set(id, { ...def });
  byKey.set(key, id);
  return id;
}

const timeoutMs = () => Number(process.env.BQEMU_JS_UDF_TIMEOUT_MS ?? 5000);

export function typeText(t: BqType): string {
  if (t.kind === 'ARRAY') return `ARRAY<${typeText(t.element)}>`;
  if (t.kind === 'STRUCT') return `STRUCT<${t.fields.map((f) => (f.name ? `${f.name} ${typeText(f.type)}` : typeText(f.type))).join(', ')}>`;
  return t.kind;
}

/** JSON value (DuckDB's `to_json`) → the JavaScript value BigQuery passes for type `t`. */
function toJs(v: unknown, t: BqType): unknown {
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'INT64':
      return typeof v === 'string' ? v : String(v);
    case 'FLOAT64':
    case 'NUMERIC':
    case 'BIGNUMERIC':
      return typeof v === 'number' ? v : Number(v);
    case 'BOOL':
      return !!v;
    case 'TIMESTAMP':
      return new Date(String(v).replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
    case 'JSON':
      return v;
    case 'ARRAY':
      return (v as unknown[]).map((e) => toJs(e, t.element));
    case 'STRUCT': {
      const o: Record<string, unknown> = {};
      const src = v as Record<string, unknown>;
      for (const f of t.fields) o[f.name ?? ''] = toJs(src[f.name ?? ''], f.type);
      return o;
    }
    default:
      return typeof v === 'string' ? v : JSON.stringify(v);
  }
}

/** A JavaScript result → JSON-ready value castable by DuckDB to the declared type. */
function fromJs(v: unknown, t: BqType, where: string): unknown {
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'INT64': {
      const n = typeof v === 'bigint' ? Number(v) : Number(v);
      if (!Number.isFinite(n)) throw new Error(`Cannot convert ${String(v)} to INT64 in ${where}`);
      return Math.trunc(n);
    }
    case 'FLOAT64':
    case 'NUMERIC':
    case 'BIGNUMERIC':
      return Number(v);
    case 'BOOL':
      return !!v;
    case 'STRING':
      return String(v);
    case 'TIMESTAMP':
      return v instanceof Object && typeof (v as Date).toISOString === 'function' ? (v as Date).toISOString() : String(v);
    case 'JSON':
      return v;
    case 'ARRAY':
      if (!Array.isArray(v)) throw new Error(`Expected an array result in ${where}`);
      return v.map((e) => fromJs(e, t.element, where));
    case 'STRUCT': {
      const o: Record<string, unknown> = {};
      const src = v as Record<string, unknown>;
      for (const f of t.fields) o[f.name ?? ''] = fromJs(src[f.name ?? ''], f.type, where);
      return o;
    }
    default:
      return String(v);
  }
}

/** Header lines before the body in the compiled source (for error line numbers). */
const HEADER_LINES = 1;

function compile(d: Compiled): void {
  if (d.call) return;
  const sandbox = Object.create(null) as Record<string, unknown>;
  d.context = vm.createContext(sandbox, { codeGeneration: { strings: false, wasm: false } });
  const params = d.argNames.map((n) => (/^[A-Za-z_$][\w$]*$/.test(n) ? n : '_')).join(', ');
  new vm.Script(`globalThis.__udf = function(${params}) {\n${d.code}\n};`, { filename: 'udf' }).runInContext(d.context, { timeout: timeoutMs() });
  d.call = new vm.Script('__out = __udf.apply(null, __in);', { filename: 'udf-call' });
}

/** Runs JS UDF `id` on a JSON array of arguments; returns the result's JSON text. */
export function runJsUdf(id: number, argsJson: string): string {
  const d = registry.get(id);
  if (!d) throw new Error('JavaScript UDF no longer defined');
  const sig = `${d.name}(${d.argTypes.map(typeText).join(', ')})`;
  try {
    compile(d);
    const args = (JSON.parse(argsJson) as unknown[]).map((a, i) => toJs(a, d.argTypes[i]));
    const ctx = d.context as Record<string, unknown>;
    ctx.__in = args;
    d.call!.runInContext(d.context!, { timeout: timeoutMs() });
    const out = fromJs(ctx.__out, d.returnType, sig);
    ctx.__in = ctx.__out = undefined;
    return JSON.stringify(out === undefined ? null : out);
  } catch (e) {
    const err = e as { code?: string; stack?: string; message?: string; name?: string };
    if (err?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new Error(`JavaScript UDF ${sig} timed out: it ran for more than ${timeoutMs()} ms`);
    const text = e instanceof Object && 'name' in (e as object) && 'message' in (e as object) ? `${err.name}: ${err.message}` : String(e);
    const pos = /udf:(\d+):(\d+)/.exec(String(err?.stack ?? ''));
    const line = pos ? Math.max(1, Number(pos[1]) - HEADER_LINES) : 1;
    // BigQuery points at the statement: the first non-blank column of the line.
    const text0 = d.code.split('\n')[line - 1] ?? '';
    const col = pos ? Math.min(Number(pos[2]), text0.length - text0.trimStart().length + 1) : 1;
    throw new Error(`${text} at ${sig} line ${line}, column ${col}`);
  }
}

/** Registers `bq_js_udf(BIGINT, VARCHAR) → VARCHAR` on a connection (called by the prelude). */
export function installJsUdfRunner(con: DuckDBConnection): void {
  con.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: 'bq_js_udf',
      returnType: VARCHAR,
      parameterTypes: [BIGINT, VARCHAR],
      mainFunction: (info, input, output) => {
        const ids = input.getColumnVector(0);
        const args = input.getColumnVector(1);
        for (let r = 0; r < input.rowCount; r++) {
          try {
            (output as { setItem(i: number, v: unknown): void }).setItem(r, runJsUdf(Number(ids.getItem(r)), String(args.getItem(r))));
          } catch (e) {
            info.setError((e instanceof Error ? e.message : String(e)).replace(/\s*\n\s*/g, ' '));
            return;
          }
        }
        output.flush();
      },
    }),
  );
}

/**
 * Lowers a call: arguments as a JSON array (NULL arguments stay JSON null), result cast from JSON.
 * `duckType` is the DuckDB type of the return type.
 */
export function lowerJsUdfCall(id: number, args: string[], returnDuckType: string): string {
  const arr = args.length ? `to_json([${args.map((a) => `to_json(${a})`).join(', ')}])::VARCHAR` : `'[]'`;
  const call = `CAST(bq_js_udf(${id}, ${arr}) AS JSON)`;
  return returnDuckType === 'VARCHAR' ? `(${call} ->> '$')` : `CAST(${call} AS ${returnDuckType})`;
}
