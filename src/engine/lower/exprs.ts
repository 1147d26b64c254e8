/**
 * Lowers resolved-AST expressions to DuckDB SQL (docs/ARCHITECTURE.md §1). Function calls go through the
 * declarative function table (src/functions); a function without an entry is rejected with a clear
 * "not supported" error, never lowered to something silently wrong.
 */
import { bindRepeatedArguments } from './repeated-arguments.js';
import type {
  Node,
  ResolvedCast,
  ResolvedExprKind,
  ResolvedGetJsonField,
  ResolvedGetStructField,
  ResolvedLiteral,
  ResolvedMakeStruct,
  ResolvedNodeOf,
  ResolvedOrderByItem,
  ResolvedParameter,
  ResolvedSubqueryExpr,
  Unkinded,
} from '../../analyzer/ast.js';
import { valueFromProto } from '../../analyzer/values.js';
import { BigQueryError } from '../../errors/errors.js';
import { lookupFunction } from '../../functions/index.js';
import { sqlString, type FnCall } from '../../functions/registry.js';
import type { BqType } from '../../types/types.js';
import { colName, exprType, ident, type LowerContext } from './context.js';
import { duckFieldName } from '../duckdb/types.js';
import { jsUdfIdOf, lowerJsUdfCall } from '../../functions/js-udf.js';
import { castParams, enforceSql } from '../type-params.js';
import { collatedCall, icuLocale, sortKey } from '../../functions/collation.js';
import { bigNumericSortKey } from '../../functions/bignumeric-exact.js';
import { fromTypeProto } from '../../analyzer/types.js';
import { exprNeverNull, neverNullColumns } from './nullability.js';
import { exprNanFree } from './nan-free.js';

/** How each expression kind lowers; `null` marks a kind that is not lowered (lowerExpr refuses it). */
type ExprLowerings = { [K in ResolvedExprKind]: ((n: ResolvedNodeOf<K>, ctx: LowerContext) => string) | null };

/**
 * Lowers an ORDER BY item list (`OrderByItem` nodes) with BigQuery's default NULL order (NULLS FIRST
 * on ASC, NULLS LAST on DESC). A key that cannot be NULL in `input`'s rows (src/engine/lower/nullability.ts)
 * gets NULLS LAST, the order DuckDB's fast plans need; in a window kept by `rn <= n` (`topN`), a single
 * nullable INT64, DATE, DATETIME or TIMESTAMP key sorting NULLs first is written as the key with NULL
 * mapped below (ASC) or above (DESC) every value BigQuery can hold, NULLS LAST: the same order, and
 * DuckDB's grouped top-N plan.
 * @param input the scan whose output the keys read (omitted: every key is taken as nullable)
 */
export function lowerOrderBy(items: readonly Unkinded<ResolvedOrderByItem>[], ctx: LowerContext, input?: Node, topN = false): string {
  const known = input ? neverNullColumns(input, ctx) : new Set<string>();
  return items
    .map((it) => {
      // `expression` is not a field of ResolvedOrderByItem (resolved_ast.proto); read loosely as before.
      const expression: Node | undefined = (it as Node).expression;
      const raw = it.columnRef ? colName(it.columnRef.column!) : lowerExpr((expression ?? it) as Node, ctx);
      // ORDER BY under a collation orders by ICU sort keys (src/functions/collation.ts).
      const locale = it.collation?.collationName ? icuLocale(String(it.collation.collationName)) : undefined;
      const t = it.columnRef ? it.columnRef.column?.type : expression?.type;
      // BIGNUMERIC is stored as text: ordered by its order-preserving key (src/functions/bignumeric-exact.ts).
      const e = locale ? sortKey(raw, locale) : t?.typeKind === 'TYPE_BIGNUMERIC' ? bigNumericSortKey(raw) : raw;
      const desc = !!it.isDescending;
      const neverNull = it.columnRef ? known.has(String(it.columnRef.column?.columnId)) : exprNeverNull(expression, known);
      const nullsFirst = !neverNull && (it.nullOrder === 'NULLS_FIRST' || (it.nullOrder !== 'NULLS_LAST' && !desc));
      const dir = desc ? 'DESC' : 'ASC';
      if (nullsFirst && topN && items.length === 1 && !locale) {
        const mapped = nullMappedKey(e, fromTypeProto(t), desc, ctx);
        if (mapped) return `${mapped} ${dir} NULLS LAST`;
      }
      const key = `${e} ${dir} ${nullsFirst ? 'NULLS FIRST' : 'NULLS LAST'}`;
      // A key that cannot be NaN orders as BigQuery's with the NULLS clause alone.
      const nanFree = it.columnRef ? !!ctx.nanFree?.has(String(it.columnRef.column?.columnId)) : exprNanFree(expression, ctx.nanFree);
      if (t?.typeKind !== 'TYPE_DOUBLE' || nanFree) return key;
      // BigQuery orders NaN right after NULL (before -inf); DuckDB puts NaN above +inf.
      const nanRank = `CASE WHEN ${e} IS NULL THEN ${nullsFirst ? 0 : 3} WHEN isnan(${e}) THEN ${desc ? 2 : 1} ELSE ${desc ? 1 : 2} END`;
      return `${nanRank} ASC, ${key}`;
    })
    .join(', ');
}

/** Outside INT64's range: below (above) every value an INT64 key holds, as a HUGEINT. */
const BELOW_INT64 = '-9223372036854775809';
const ABOVE_INT64 = '9223372036854775808';

/**
 * Key `e` with NULL replaced by a value sorting before every value of type `t` (after, for DESC), or
 * undefined when the type has no such value in DuckDB. DATE, DATETIME and TIMESTAMP use DuckDB's
 * infinities, which no BigQuery value reaches (years 1–9999).
 */
function nullMappedKey(e: string, t: BqType, desc: boolean, ctx: LowerContext): string | undefined {
  if (t.kind === 'INT64') return `COALESCE(CAST(${e} AS HUGEINT), CAST(${desc ? ABOVE_INT64 : BELOW_INT64} AS HUGEINT))`;
  if (t.kind !== 'DATE' && t.kind !== 'DATETIME' && t.kind !== 'TIMESTAMP') return undefined;
  const duck = ctx.duckType(t);
  if (!/^(DATE|TIMESTAMP|TIMESTAMPTZ|TIMESTAMP WITH TIME ZONE)$/i.test(duck)) return undefined;
  return `COALESCE(${e}, CAST('${desc ? 'infinity' : '-infinity'}' AS ${duck}))`;
}

function functionName(n: Node): string {
  const full: string = n.function?.name ?? '';
  return full.replace(/^[A-Za-z]+:/, ''); // 'ZetaSQL:upper', 'ZetaSQL:min_by' (catalog-declared)
}

/** Builds the FnCall a function lowering sees. */
/**
 * Enum arguments (date parts of EXTRACT/DATE_TRUNC…, NORMALIZE modes) are constants: they lower to
 * the enum number and are typed INT64 for the function table (src/functions/util.ts `enumName`).
 */
const isEnum = (a: Node) => a.type?.typeKind === 'TYPE_ENUM';

function fnCall(n: Node, ctx: LowerContext, name: string): FnCall {
  const args: Node[] = n.argumentList ?? [];
  const ahead = ctx.argumentsAhead?.get(n);
  return {
    name,
    args: args.map((a, i) => ahead?.sql[i] ?? (isEnum(a) && a.kind === 'Literal' ? String(a.value?.value?.enumValue ?? 0) : lowerExpr(a, ctx))),
    argTypes: args.map((a, i) => ahead?.types[i] ?? (isEnum(a) ? { kind: 'INT64' as const } : exprType(a))),
    returnType: exprType(n),
    safe: n.errorMode === 'SAFE_ERROR_MODE',
    condition: ctx.conditions?.has(n) === true,
    ...(ctx.recheck ? { recheck: true } : {}),
    ...(ctx.nanFree ? { nanFree: args.map((a) => exprNanFree(a, ctx.nanFree)) } : {}),
    duckType: ctx.duckType,
  };
}

/**
 * A function call's SQL. `scalar`: a plain function call (not an aggregate or analytic one), whose
 * long repeated arguments are bound once (repeated-arguments.ts).
 */
function callFunction(n: Node, ctx: LowerContext, extra?: Partial<FnCall>, wrap = true, scalar = false): string {
  const jsId = jsUdfIdOf(String(n.function?.name ?? ''));
  if (jsId !== undefined) return `(${lowerJsUdfCall(jsId, fnCall(n, ctx, 'js_udf'))})`;
  const name = functionName(n);
  const f = lookupFunction(name);
  if (!f) throw BigQueryError.notSupported(`Function ${displayName(name)}`);
  if ('unsupported' in f) throw BigQueryError.notSupported(`Function ${displayName(name)} (${f.unsupported})`);
  const call = { ...fnCall(n, ctx, name), ...extra };
  const collation = n.collationList?.[0]?.collationName;
  const lower = (c: FnCall) => f(collation ? collatedCall(c, String(collation)) : c);
  const inline = lower(call);
  const sql = scalar ? bindRepeatedArguments(call, lower, inline) : inline;
  return wrap ? `(${sql})` : sql;
}

const BOUNDARY: Record<string, (e: string) => string> = {
  UNBOUNDED_PRECEDING: () => 'UNBOUNDED PRECEDING',
  OFFSET_PRECEDING: (e) => `${e} PRECEDING`,
  CURRENT_ROW: () => 'CURRENT ROW',
  OFFSET_FOLLOWING: (e) => `${e} FOLLOWING`,
  UNBOUNDED_FOLLOWING: () => 'UNBOUNDED FOLLOWING',
};

/**
 * The single ORDER BY key of a RANGE frame with an OFFSET PRECEDING/FOLLOWING boundary. The analyzer
 * allows such a frame over exactly one numeric key (BigQuery: "In a range-based window frame, there
 * must be exactly one expression in the ORDER BY clause, and the expression must have a numeric
 * type", https://cloud.google.com/bigquery/docs/reference/standard-sql/window-function-calls#def_window_frame);
 * frames bounded only by UNBOUNDED and CURRENT ROW keep every key (the same page's default frame
 * `RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW` follows any ORDER BY). DuckDB also takes one
 * key there, so the NaN rank `lowerOrderBy` puts before a FLOAT64 key is left out: frame membership
 * under offsets is the same (NaN ± n is NaN, whose peers are the NaN rows alone), but where NaN sits
 * matters to an UNBOUNDED side, whose FLOAT64 key is returned as `nanKey` for a guard.
 * @throws BigQueryError invalidQuery "not supported" for a BIGNUMERIC key (kept as exact decimal
 *   text, src/types/duckdb-types.ts, which DuckDB cannot offset)
 */
function rangeOffsetOrder(it: Unkinded<ResolvedOrderByItem>, ctx: LowerContext): { order: string; nanKey?: string } {
  const expression: Node | undefined = (it as Node).expression;
  const e = it.columnRef ? colName(it.columnRef.column!) : lowerExpr((expression ?? it) as Node, ctx);
  const t = it.columnRef ? it.columnRef.column?.type : expression?.type;
  if (t?.typeKind === 'TYPE_BIGNUMERIC') throw BigQueryError.notSupported('A RANGE window frame with an OFFSET boundary over a BIGNUMERIC ORDER BY key');
  const desc = !!it.isDescending;
  const nullsFirst = it.nullOrder === 'NULLS_FIRST' || (it.nullOrder !== 'NULLS_LAST' && !desc);
  return { order: `${e} ${desc ? 'DESC' : 'ASC'} ${nullsFirst ? 'NULLS FIRST' : 'NULLS LAST'}`, nanKey: t?.typeKind === 'TYPE_DOUBLE' ? e : undefined };
}

/**
 * Lowers an analytic function call with its window: `f(args) OVER (PARTITION BY … ORDER BY … frame)`.
 * The function table entry gives the call; `window` holds the PARTITION BY / ORDER BY parts and
 * `orderItems` the window's ORDER BY items (a RANGE frame with offsets orders by its one key,
 * `rangeOffsetOrder`). A FLOAT64 key holding NaN in a RANGE frame with an offset and an UNBOUNDED
 * side fails the query as not supported: BigQuery orders NaN first (after NULL), DuckDB last, so the
 * unbounded side would take other rows.
 */
export function lowerWindowCall(n: Node, ctx: LowerContext, window: string[], orderItems?: readonly Unkinded<ResolvedOrderByItem>[]): string {
  let parts = [...window];
  const fr = n.windowFrame;
  let nanGuard: string | undefined;
  if (fr) {
    const b = (x: Node) => BOUNDARY[x.boundaryType](x.expression ? lowerExpr(x.expression, ctx) : '');
    const kinds = [String(fr.startExpr?.boundaryType), String(fr.endExpr?.boundaryType)];
    if (fr.frameUnit === 'RANGE' && orderItems?.length === 1 && kinds.some((k) => k.startsWith('OFFSET_'))) {
      const r = rangeOffsetOrder(orderItems[0], ctx);
      parts = parts.map((p) => (p.startsWith('ORDER BY ') ? `ORDER BY ${r.order}` : p));
      if (r.nanKey && kinds.some((k) => k.startsWith('UNBOUNDED_'))) {
        const partition = parts.filter((p) => p.startsWith('PARTITION BY ')).join(' ');
        const refusal = BigQueryError.notSupported('A RANGE window frame with an OFFSET and an UNBOUNDED boundary over a FLOAT64 ORDER BY key holding NaN');
        nanGuard = `WHEN bool_or(isnan(${r.nanKey})) OVER (${partition}) THEN error(${sqlString(refusal.message)})`;
      }
    }
    parts.push(`${fr.frameUnit === 'RANGE' ? 'RANGE' : 'ROWS'} BETWEEN ${b(fr.startExpr)} AND ${b(fr.endExpr)}`);
  }
  const over = parts.join(' ');
  const call = callFunction(n, ctx, {
    distinct: !!n.distinct,
    nullHandling: n.nullHandlingModifier === 'IGNORE_NULLS' ? 'IGNORE' : n.nullHandlingModifier === 'RESPECT_NULLS' ? 'RESPECT' : undefined,
    over,
  }, false);
  // Lowerings built with `aggregate`/`windowed` place the window themselves (inside any CAST or
  // CASE); for the others it is appended.
  const sql = call.includes(`OVER (${over})`) ? call : `${call} OVER (${over})`;
  return nanGuard ? `(CASE ${nanGuard} ELSE ${sql} END)` : sql;
}

function displayName(name: string): string {
  return name.startsWith('$') ? `operator ${name.slice(1)}` : name.toUpperCase();
}

/** A Literal's DuckDB literal. */
export function lowerLiteral(n: ResolvedLiteral, ctx: LowerContext): string {
  const t = exprType(n);
  return ctx.literal(valueFromProto(n.value?.value, t), t);
}

function lowerParameter(n: ResolvedParameter, ctx: LowerContext): string {
  const t = exprType(n);
  const p = n.name ? ctx.namedParams.get(String(n.name).toLowerCase()) : ctx.positionalParams[Number(n.position) - 1];
  if (!p) throw BigQueryError.queryParameterNotFound(String(n.name ?? n.position));
  return ctx.literal(p.value, t);
}

/**
 * Keys under which script variables (catalog constants, resolved as `Constant`) and system
 * variables (`@@x.y`, resolved as `SystemVariable`) travel in `LowerContext.namedParams`
 * (src/scripting). Neither can clash with a query parameter name (an identifier).
 */
export const scriptVariableKey = (name: string): string => `$${name.toLowerCase()}`;
export const systemVariableKey = (path: string[]): string => `@@${path.join('.').toLowerCase()}`;

function lowerNamedValue(n: Node, ctx: LowerContext, key: string, what: string): string {
  const p = ctx.namedParams.get(key);
  if (!p) throw BigQueryError.unrecognizedName(what);
  return ctx.literal(p.value, exprType(n));
}

/**
 * CAST(x AS STRING(10)) / NUMERIC(5, 2) …: the type parameters apply to the cast value (ZetaSQL
 * reference: type_parameter_constraints.cc; src/engine/type-params.ts); SAFE_CAST gives NULL.
 */
function lowerCast(n: ResolvedCast, ctx: LowerContext): string {
  const sql = lowerPlainCast(n, ctx);
  const params = castParams(exprType(n), n.typeModifiers?.typeParameters as Node | undefined);
  if (!params) return sql;
  return enforceSql(sql, exprType(n), params, '', 0, !!n.returnNullOnError);
}

function lowerPlainCast(n: ResolvedCast, ctx: LowerContext): string {
  const from = exprType(n.expr!);
  const to = exprType(n);
  const arg = lowerExpr(n.expr!, ctx);
  if (n.format) {
    // CAST(x AS t FORMAT fmt [AT TIME ZONE tz]): src/functions/cast-format.ts.
    const ff = lookupFunction('$cast_format');
    if (!ff || 'unsupported' in ff) throw BigQueryError.notSupported('CAST with a FORMAT clause');
    const extra = [n.format, ...(n.timeZone ? [n.timeZone] : [])] as Node[];
    const call: FnCall = { name: '$cast_format', args: [arg, ...extra.map((e) => lowerExpr(e, ctx))], argTypes: [from, ...extra.map(exprType)], returnType: to, safe: !!n.returnNullOnError, duckType: ctx.duckType };
    return `(${bindRepeatedArguments(call, ff, ff(call))})`;
  }
  const f = lookupFunction('$cast');
  if (f && !('unsupported' in f)) {
    // A cast's lowering names its operand several times (checks, then the value): bound once when long.
    const call: FnCall = { name: '$cast', args: [arg], argTypes: [from], returnType: to, safe: !!n.returnNullOnError, duckType: ctx.duckType };
    return `(${bindRepeatedArguments(call, f, f(call))})`;
  }
  return `${n.returnNullOnError ? 'TRY_CAST' : 'CAST'}(${arg} AS ${ctx.duckType(to)})`;
}

function lowerMakeStruct(n: ResolvedMakeStruct, ctx: LowerContext): string {
  const t = exprType(n) as Extract<BqType, { kind: 'STRUCT' }>;
  const fields = (n.fieldList ?? []) as Node[];
  if (!fields.length) return `NULL`;
  const parts = fields.map((f, i) => `${ident(duckFieldName(t, i))} := ${lowerExpr(f, ctx)}`);
  return `struct_pack(${parts.join(', ')})`;
}

function lowerGetStructField(n: ResolvedGetStructField, ctx: LowerContext): string {
  const t = exprType(n.expr!) as Extract<BqType, { kind: 'STRUCT' }>;
  const idx = Number(n.fieldIdx ?? 0);
  return `struct_extract(${lowerExpr(n.expr!, ctx)}, '${duckFieldName(t, idx).replace(/'/g, "''")}')`;
}

/** `(SELECT expr)` with no FROM: the expression itself (one row, one value), or undefined. */
function singleValueSubquery(n: ResolvedSubqueryExpr): Node | undefined {
  const scan: Node = n.subquery!;
  if (n.subqueryType !== 'SCALAR' || scan?.kind !== 'ProjectScan' || scan.inputScan?.kind !== 'SingleRowScan') return undefined;
  const cc = (scan.exprList ?? []) as Node[];
  return cc.length === 1 && String(cc[0].column?.columnId) === String(scan.columnList?.[0]?.columnId) ? cc[0].expr : undefined;
}

function lowerSubquery(n: ResolvedSubqueryExpr, ctx: LowerContext): string {
  // Inlined so that IFERROR/ISERROR/NULLIFERROR can catch its errors (DuckDB's try() refuses
  // subqueries; src/functions/debugging.ts).
  const single = singleValueSubquery(n);
  if (single) return `(${lowerExpr(single, ctx)})`;
  const scan: Node = n.subquery!;
  const inner = ctx.scan(scan, ctx);
  const out = scan.columnList?.[0];
  switch (n.subqueryType) {
    case 'SCALAR':
      return `(SELECT ${colName(out)} FROM (${inner}))`;
    case 'ARRAY':
      // DuckDB's ARRAY(subquery) keeps the subquery's order and gives [] for no rows, like BigQuery.
      return `ARRAY(SELECT ${colName(out)} FROM (${inner}))`;
    case 'EXISTS':
      return `(EXISTS (${inner}))`;
    case 'IN':
      return `(${lowerExpr(n.inExpr!, ctx)} IN (SELECT ${colName(out)} FROM (${inner})))`;
    default:
      throw BigQueryError.notSupported(`Subquery kind ${n.subqueryType}`);
  }
}

function lowerGetJsonField(n: ResolvedGetJsonField, ctx: LowerContext): string {
  const name = String(n.fieldName).replace(/"/g, '\\"');
  return `json_extract(${lowerExpr(n.expr!, ctx)}, '$."${name.replace(/'/g, "''")}"')`;
}

/**
 * Every expression kind of the analyzer's resolved_ast.proto (src/analyzer/generated/resolved-ast.ts),
 * so that a kind added there fails typechecking here until it is lowered or listed as not lowered.
 */
const EXPRS: ExprLowerings = {
  Literal: lowerLiteral,
  Parameter: lowerParameter,
  Constant: (n, ctx) => lowerNamedValue(n, ctx, scriptVariableKey(String(n.constant?.name ?? '')), String(n.constant?.name)),
  SystemVariable: (n, ctx) => lowerNamedValue(n, ctx, systemVariableKey(n.namePath ?? []), `@@${(n.namePath ?? []).join('.')}`),
  ColumnRef: (n) => colName(n.column!),
  FunctionCall: (n, ctx) => callFunction(n, ctx, undefined, true, true),
  AggregateFunctionCall: (n, ctx) => {
    const filter = n.havingModifier ? ctx.havingFilters?.get(n) : undefined;
    if (n.havingModifier && !filter) throw BigQueryError.notSupported(`HAVING ${(n.havingModifier as Node).kind_ ?? n.havingModifier.kind} modifier of an aggregate in this position`);
    const sql = callFunction(n, ctx, {
      distinct: !!n.distinct,
      nullHandling: n.nullHandlingModifier === 'IGNORE_NULLS' ? 'IGNORE' : n.nullHandlingModifier === 'RESPECT_NULLS' ? 'RESPECT' : undefined,
      orderBy: n.orderByItemList?.length ? lowerOrderBy(n.orderByItemList, ctx, ctx.aggregateInput) : undefined,
      limit: n.limit ? lowerExpr(n.limit, ctx) : undefined,
      filter,
    });
    if (filter && !sql.includes(filter)) throw BigQueryError.notSupported(`Function ${displayName(functionName(n))} with a HAVING MAX/MIN modifier`);
    return sql;
  },
  Cast: lowerCast,
  MakeStruct: lowerMakeStruct,
  GetStructField: lowerGetStructField,
  SubqueryExpr: lowerSubquery,
  GetJsonField: lowerGetJsonField,
  // Not lowered: refused with "Expression <kind>" (BigQueryError.notSupported). `Dmldefault` is
  // handled by the DML lowering (src/engine/dml.ts, statements.ts) before it reaches here.
  AnalyticFunctionCall: null,
  ArgumentRef: null,
  CatalogColumnRef: null,
  Dmldefault: null,
  ExpressionColumn: null,
  FilterField: null,
  Flatten: null,
  FlattenedArg: null,
  GetProtoField: null,
  MakeProto: null,
  ReplaceField: null,
  WithExpr: null,
};

/** Lowers one expression node to DuckDB SQL. */
export function lowerExpr(n: Node, ctx: LowerContext): string {
  const f = EXPRS[n.kind as ResolvedExprKind] as ((n: Node, ctx: LowerContext) => string) | null | undefined;
  if (!f) throw BigQueryError.notSupported(`Expression ${n.kind}`);
  return f(n, ctx);
}
