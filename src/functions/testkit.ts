/**
 * Test helpers for the function table: build a FnCall from typed argument SQL, lower it through the
 * registered table, and run the DuckDB SQL on a real in-memory DuckDB (TimeZone UTC, the function
 * prelude installed). Expected answers in the tests come from BigQuery's documentation or the
 * recorded fixtures, never from this code's output.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { lookupFunction } from './index.js';
import { installFunctionPrelude } from './prelude.js';
import type { FnCall } from './registry.js';
import { duckType } from '../types/duckdb-types.js';
import type { BqType, ScalarKind } from '../types/types.js';

const s = <K extends ScalarKind>(kind: K): BqType => ({ kind });
export const T = {
  int: s('INT64'), f64: s('FLOAT64'), num: s('NUMERIC'), bignum: s('BIGNUMERIC'), bool: s('BOOL'), str: s('STRING'),
  bytes: s('BYTES'), date: s('DATE'), dt: s('DATETIME'), time: s('TIME'), ts: s('TIMESTAMP'), interval: s('INTERVAL'),
  json: s('JSON'), arr: (e: BqType): BqType => ({ kind: 'ARRAY', element: e }),
  struct: (...fields: [string, BqType][]): BqType => ({ kind: 'STRUCT', fields: fields.map(([name, type]) => ({ name, type })) }),
};

/** A typed argument: DuckDB SQL and its GoogleSQL type. */
export type Arg = [sql: string, type: BqType];

const quote = (x: string) => `'${x.replace(/'/g, "''")}'`;
export const lit = {
  str: (x: string): Arg => [`${quote(x)}::VARCHAR`, T.str],
  int: (n: number | bigint): Arg => [`CAST(${n} AS BIGINT)`, T.int],
  f64: (x: number | string): Arg => [`'${x}'::DOUBLE`, T.f64],
  num: (x: string): Arg => [`${quote(x)}::DECIMAL(38,9)`, T.num],
  bool: (b: boolean): Arg => [b ? 'TRUE' : 'FALSE', T.bool],
  bytes: (x: string): Arg => [`encode(${quote(x)})`, T.bytes],
  hex: (h: string): Arg => [`unhex('${h}')`, T.bytes],
  date: (x: string): Arg => [`${quote(x)}::DATE`, T.date],
  dt: (x: string): Arg => [`${quote(x)}::TIMESTAMP`, T.dt],
  time: (x: string): Arg => [`${quote(x)}::TIME`, T.time],
  ts: (x: string): Arg => [`${quote(x)}::TIMESTAMPTZ`, T.ts],
  json: (x: string): Arg => [`${quote(x)}::JSON`, T.json],
  null: (t: BqType): Arg => [`NULL::${duckType(t)}`, t],
  /** An enum argument (date part, normalize mode) as the lowering sees it. */
  part: (name: string): Arg => [quote(name), T.str],
  arr: (el: BqType, ...xs: Arg[]): Arg => [`[${xs.map((x) => x[0]).join(', ')}]::${duckType(T.arr(el))}`, T.arr(el)],
  ints: (...xs: (number | null)[]): Arg => [`[${xs.map((x) => (x === null ? 'NULL' : x)).join(', ')}]::BIGINT[]`, T.arr(T.int)],
  strs: (...xs: (string | null)[]): Arg => [`[${xs.map((x) => (x === null ? 'NULL' : quote(x))).join(', ')}]::VARCHAR[]`, T.arr(T.str)],
  sql: (sql: string, t: BqType): Arg => [sql, t],
};

/** Lowers `name(args)` through the function table. */
export function lower(name: string, ret: BqType, args: Arg[], extra: Partial<FnCall> = {}): string {
  const f = lookupFunction(name);
  if (!f) throw new Error(`no entry for ${name}`);
  if ('unsupported' in f) throw new Error(`${name} unsupported: ${f.unsupported}`);
  return f({ name, args: args.map((a) => a[0]), argTypes: args.map((a) => a[1]), returnType: ret, safe: false, duckType, ...extra });
}

/** `lower` as a typed argument, for nesting calls. */
export const call = (name: string, ret: BqType, args: Arg[], extra: Partial<FnCall> = {}): Arg => [`(${lower(name, ret, args, extra)})`, ret];

let conn: Promise<DuckDBConnection> | undefined;
async function connection(): Promise<DuckDBConnection> {
  conn ??= (async () => {
    const db = await DuckDBInstance.create(':memory:', { default_null_order: 'nulls_first_on_asc_last_on_desc' });
    const c = await db.connect();
    await c.run("SET TimeZone='UTC'");
    await installFunctionPrelude(c);
    return c;
  })();
  return conn;
}

const plain = (v: unknown): unknown => {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object' && v.constructor === Object) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
};

/** Runs a query; the rows as JS values (BIGINT as number when safe, else decimal text). */
export async function rows(sql: string): Promise<unknown[][]> {
  const c = await connection();
  const r = await c.runAndReadAll(sql);
  return r.getRowsJS().map((row) => row.map(plain));
}

/** The single value of `SELECT expr`. */
export async function val(expr: string): Promise<unknown> {
  return (await rows(`SELECT ${expr}`))[0][0];
}

/** The single value of `SELECT CAST(expr AS VARCHAR)` (for dates, times, decimals, blobs as hex…). */
export async function text(expr: string, t?: BqType): Promise<string | null> {
  const e = t?.kind === 'BYTES' ? `lower(hex(${expr}))` : `CAST(${expr} AS VARCHAR)`;
  return (await val(e)) as string | null;
}

/** Lowers and evaluates a call (value as JS). */
export async function ev(name: string, ret: BqType, args: Arg[], extra: Partial<FnCall> = {}): Promise<unknown> {
  return val(lower(name, ret, args, extra));
}

/** Lowers and evaluates a call, giving its text. */
export async function evText(name: string, ret: BqType, args: Arg[], extra: Partial<FnCall> = {}): Promise<string | null> {
  return text(`(${lower(name, ret, args, extra)})`, ret);
}

/** The error message DuckDB raises for `expr` (the first line, without DuckDB's prefix). */
export async function errorOf(expr: string): Promise<string> {
  try {
    await val(expr);
  } catch (e) {
    return (e as Error).message.split('\n')[0].replace(/^[A-Za-z ]+ Error: /, '');
  }
  return '(no error)';
}

/** Evaluates an aggregate lowering over `VALUES` rows: `SELECT <agg> FROM (VALUES …) t(cols)`. */
export async function agg(expr: string, cols: string[], values: string[][]): Promise<unknown> {
  const v = values.map((r) => `(${r.join(', ')})`).join(', ');
  return (await rows(`SELECT ${expr} FROM (VALUES ${v}) AS t(${cols.join(', ')})`))[0][0];
}
