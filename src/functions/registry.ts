/**
 * The declarative function table: every GoogleSQL builtin, keyed by its ZetaSQL function name
 * (the resolved AST's `function.name` without the `ZetaSQL:` prefix, e.g. `$add`, `concat`,
 * `date_trunc`, `$case_with_value`), maps to a lowering that produces DuckDB SQL.
 *
 * A lowering receives the already-lowered DuckDB SQL of each argument plus the GoogleSQL types,
 * and returns one DuckDB SQL expression. Runtime errors are raised in DuckDB with `error('<BigQuery
 * text>')`; when `safe` is true (SAFE. prefix or SAFE_ function) the lowering must return NULL
 * where BigQuery would raise. Functions with no entry are rejected with a clear "not supported"
 * error by the lowering — never a silently wrong answer.
 *
 * The table itself is assembled in index.ts from each category file's exported table; this module
 * holds the types and the small helpers the category files share.
 */
import { BigQueryError } from '../errors/errors.js';
import type { BqType } from '../types/types.js';

/** What a function lowering sees. */
export interface FnCall {
  /** ZetaSQL function name without the `ZetaSQL:` prefix, lower-case for named functions. */
  name: string;
  /** DuckDB SQL of each argument, in order (already parenthesised where needed). */
  args: string[];
  /** GoogleSQL type of each argument. */
  argTypes: BqType[];
  /** GoogleSQL result type. */
  returnType: BqType;
  /** SAFE. call: return NULL instead of raising. */
  safe: boolean;
  /**
   * The call is a whole conjunct of a WHERE/HAVING condition or a join's ON, where a FALSE answer and a NULL one
   * filter the row alike (src/engine/lower/context.ts LowerContext.conditions).
   */
  condition?: boolean;
  /**
   * The statement runs again with every check spelled out when one of these checks fires
   * ({@link RECHECK_MARKER}): a check may then only mark the row instead of building BigQuery's
   * message (src/functions/operators.ts doubleOverflow; src/engine/statements.ts queryStmt).
   */
  recheck?: boolean;
  /**
   * Per argument, true when it cannot be NaN (src/engine/lower/nan-free.ts: a FLOAT64 column whose
   * statistics show no NaN): its NaN handling may be left out. Absent when nothing is known.
   */
  nanFree?: boolean[];
  /** Aggregates only: DISTINCT, IGNORE/RESPECT NULLS, ORDER BY (DuckDB SQL list), LIMIT (SQL). */
  distinct?: boolean;
  nullHandling?: 'IGNORE' | 'RESPECT';
  orderBy?: string;
  limit?: string;
  /**
   * Aggregates only: a row condition the aggregate must apply as a FILTER (the lowering's
   * `HAVING MAX/MIN` modifier, src/engine/lower/scans.ts). The `aggregate` helper applies it;
   * the caller rejects a lowering whose SQL does not contain it.
   */
  filter?: string;
  /**
   * Analytic calls: the window text (`PARTITION BY … ORDER BY … frame`) without `OVER`. When set,
   * the lowering applies it to every aggregate/analytic call it emits (the `aggregate` and
   * `windowed` helpers do), so lowerings may wrap the call (CASE, CAST…). When unset the caller
   * appends `OVER (…)` to the returned text.
   */
  over?: string;
  /** Lowers a GoogleSQL type to the DuckDB type name (for CASTs inside templates). */
  duckType: (t: BqType) => string;
}

export type FnLowering = (c: FnCall) => string;

/** One table entry: the lowering, or why the function is rejected ("not supported: <reason>"). */
export type FnEntry = FnLowering | { unsupported: string };

/** One category's table: function name → lowering, or a string giving why it is not supported. */
export type FnTable = Record<string, FnEntry>;

/**
 * One category file of the function table: the file (repository path), the name of the table it
 * exports, and the table. Category files are named after BigQuery's function reference pages
 * (string.ts ← string_functions, geography-measures.ts ← the measures of geography_functions…).
 */
export interface FnPage {
  file: string;
  exportName: string;
  table: FnTable;
}

/** A registered function: its entry and the category file that declares it. */
export interface FnSource {
  entry: FnEntry;
  page: FnPage;
}

/**
 * A category page for `buildFunctionTable`: `page('string.ts', { STRING_FUNCTIONS })` names the
 * file under src/functions/ and the exported table (the object key gives the export's name).
 */
export function page(file: string, exported: Record<string, FnTable>): FnPage {
  const names = Object.keys(exported);
  if (names.length !== 1) throw BigQueryError.functionTable.pageTableCount(file, names.length);
  return { file: `src/functions/${file}`, exportName: names[0], table: exported[names[0]] };
}

/**
 * Builds the function table from the category pages: name → entry and the page declaring it.
 * @throws BigQueryError internal when two pages (or one page twice) declare the same name — each
 *   function has exactly one entry, so no registration can silently shadow another.
 */
export function buildFunctionTable(pages: readonly FnPage[]): Map<string, FnSource> {
  const byName = new Map<string, FnSource>();
  for (const p of pages) {
    for (const [name, entry] of Object.entries(p.table)) {
      const seen = byName.get(name);
      if (seen) {
        throw BigQueryError.functionTable.registeredTwice(name, `${seen.page.file} (${seen.page.exportName})`, `${p.file} (${p.exportName})`);
      }
      byName.set(name, { entry, page: p });
    }
  }
  return byName;
}

// ---------- small helpers shared by category tables ----------

/** `name(a, b, …)` — a plain rename to a DuckDB function. */
export const rename =
  (duck: string): FnLowering =>
  (c) =>
    `${duck}(${c.args.join(', ')})`;

/** A template with $1…$n placeholders for the arguments, e.g. `($1 || $2)`. */
export const template =
  (tpl: string): FnLowering =>
  (c) =>
    tpl.replace(/\$(\d+)/g, (_, n) => c.args[Number(n) - 1] ?? 'NULL');

/** A SQL string literal for DuckDB. */
export const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/**
 * The text of the error a {@link FnCall.recheck} check raises: never shown to a client — the
 * statement that meets it is lowered again without `recheck` and run again, and that run raises
 * BigQuery's own error (or answers, when the row held non-finite values BigQuery computes with).
 */
export const RECHECK_MARKER = '__bqemu_recheck__';

/**
 * Raise BigQuery's runtime error `message` (a DuckDB SQL string expression) unless `safe`,
 * in which case the value is NULL. Use inside CASE branches.
 */
export const raise = (c: FnCall, messageSql: string): string => (c.safe ? 'NULL' : `error(${messageSql})`);

/** Appends the call's window (`OVER (…)`) when it is an analytic call lowered with `c.over`. */
export const windowed = (c: FnCall, call: string): string => (c.over !== undefined ? `${call} OVER (${c.over})` : call);

/**
 * An aggregate call with DISTINCT / ORDER BY modifiers applied, an optional FILTER condition, and
 * the window when `c.over` is set.
 */
export function aggregate(duck: string, c: FnCall, args = c.args, filter?: string): string {
  const distinct = c.distinct ? 'DISTINCT ' : '';
  const order = c.orderBy && c.over === undefined ? ` ORDER BY ${c.orderBy}` : '';
  const cond = [filter, c.filter].filter((x): x is string => !!x).map((x) => `(${x})`).join(' AND ');
  const f = cond ? ` FILTER (WHERE ${cond})` : '';
  return windowed(c, `${duck}(${distinct}${args.join(', ')}${order})${f}`);
}
