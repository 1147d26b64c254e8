/**
 * Debugging functions (BigQuery debugging_functions): ERROR, and the ones that catch evaluation
 * errors: IFERROR, ISERROR, NULLIFERROR. An evaluation error anywhere in the try expression (ERROR(), division by
 * zero, an out-of-bounds OFFSET, a bad cast, an overflow…) is caught; an error in IFERROR's
 * catch expression is not.
 *
 * Lowering: DuckDB's `try(e)` gives NULL for rows where `e` raises; `try([x])` is NULL only when
 * `x` raised (a NULL value gives `[NULL]`). `try` refuses volatile
 * functions, and DuckDB's `error()` is volatile, so inside the try expression every `error(m)`
 * the lowerings emitted is rewritten to `bq_raise(m)`, a non-volatile scalar function with the
 * same effect (registered on every connection by the function prelude). `try` also refuses
 * subqueries: a scalar subquery that is just `(SELECT expr)` is inlined by the expression lowering,
 * any other subquery (and RAND()/GENERATE_UUID()) inside a try expression is rejected with a
 * clear "not supported" error.
 */
import { BOOLEAN, DuckDBScalarFunction, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import { BigQueryError } from '../errors/errors.js';
import type { FnCall, FnTable } from './registry.js';

/** Registers `bq_raise(VARCHAR) → BOOLEAN`: raises its argument as the error message. */
export function installRaise(con: DuckDBConnection): void {
  con.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: 'bq_raise',
      returnType: BOOLEAN,
      parameterTypes: [VARCHAR],
      specialHandling: true,
      mainFunction: (info, input) => {
        const v = input.rowCount ? input.getColumnVector(0).getItem(0) : null;
        info.setError(v === null || v === undefined ? '' : String(v));
      },
    }),
  );
}

/** DuckDB functions `try` refuses (volatile), by the GoogleSQL function that lowers to them. */
const VOLATILE: Record<string, string> = {
  random: 'RAND',
  uuid: 'GENERATE_UUID',
  gen_random_uuid: 'GENERATE_UUID',
  nextval: 'a sequence',
  ...Object.fromEntries(
    Object.entries({ bq_keys_new_keyset: 'KEYS.NEW_KEYSET', bq_keys_rotate_keyset: 'KEYS.ROTATE_KEYSET', bq_keys_add_key_from_raw_bytes: 'KEYS.ADD_KEY_FROM_RAW_BYTES', bq_aead_encrypt: 'AEAD.ENCRYPT' }).flatMap(
      ([udf, fn]) => [[udf, fn], [`${udf}_safe`, fn]],
    ),
  ),
};

const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;

/** Index just past the parenthesised group opening at `open` (skipping quoted text). */
function closeParen(sql: string, open: number): number {
  let depth = 0;
  for (let i = open; i < sql.length; i++) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') i = skipQuoted(sql, i) - 1;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i + 1;
  }
  throw BigQueryError.unbalancedTrySql();
}

/** Index just past the quoted text ('…' or "…", doubled quotes escaped) starting at `i`. */
function skipQuoted(sql: string, i: number): number {
  const q = sql[i];
  let j = i + 1;
  for (;;) {
    const k = sql.indexOf(q, j);
    if (k < 0) return sql.length;
    if (sql[k + 1] === q) j = k + 2;
    else return k + 1;
  }
}

/**
 * The DuckDB SQL of a try expression made catchable by `try`: `error(m)` → `bq_raise(m)` (typed
 * like `error`, i.e. NULL); throws "not supported" for subqueries and volatile functions.
 */
export function catchable(c: FnCall, sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      const end = skipQuoted(sql, i);
      out += sql.slice(i, end);
      i = end;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(sql)?.[0];
    if (!word) {
      out += ch;
      i++;
      continue;
    }
    const lower = word.toLowerCase();
    const call = sql[i + word.length] === '(';
    if (lower === 'select')
      throw BigQueryError.notSupported(`Function ${c.name.toUpperCase()} over an expression with a subquery (other than a single-value SELECT)`);
    if (call && VOLATILE[lower]) throw BigQueryError.notSupported(`Function ${c.name.toUpperCase()} over ${VOLATILE[lower]}`);
    if (call && lower === 'error') {
      const end = closeParen(sql, i + word.length);
      const inner = catchable(c, sql.slice(i + word.length + 1, end - 1));
      out += `(CASE WHEN bq_raise(${inner}) THEN NULL END)`;
      i = end;
      continue;
    }
    out += word;
    i += word.length;
  }
  return out;
}

/**
 * `[x]`, or NULL when evaluating `x` (already catchable) raises. The expression sits in a lambda
 * body: DuckDB's common-subexpression optimizer would otherwise hoist repeated parts of `x`
 * (lowerings repeat their arguments) out of the `try`, where their errors escape.
 */
const attempt = (x: string) => `try(list_transform([NULL], bq_try_ -> ${x}))`;

/** The debugging_functions page. */
export const DEBUGGING_FUNCTIONS: FnTable = {
  iserror: (c) => `(${attempt(catchable(c, c.args[0]))} IS NULL)`,
  nulliferror: (c) => `(${attempt(catchable(c, c.args[0]))})[1]`,
  iferror: (c) => {
    const r = attempt(catchable(c, c.args[0]));
    return `(CASE WHEN ${r} IS NULL THEN ${c.args[1]} ELSE (${r})[1] END)`;
  },
  error: (c) => `error(${c.args[0]})`,
};
