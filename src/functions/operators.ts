/**
 * Operators and conditional expressions (GoogleSQL "Operators" and "Conditional expressions"
 * pages; NULLIFZERO and quantified LIKE ANY/ALL included). ZetaSQL names operators `$name`. COUNT,
 * SUM, AVG, MIN and MAX are in aggregate.ts.
 *
 * BigQuery runtime errors (docs/ARCHITECTURE.md §4): `division by zero: 1 / 0` for `/`, DIV and MOD; integer
 * overflow texts are produced by the engine's DuckDB error mapping.
 */
import { raise, rename, template, RECHECK_MARKER, type FnCall, type FnTable } from './registry.js';
import { exactNumeric } from './numeric-exact.js';
import { datePlusDays, datetimePlusInterval, timestampPlusInterval } from './datetime-interval.js';
import { intervalArithmetic } from './interval.js';
import { bigNumericArith, bigNumericCompare, bigNumericNegate } from './bignumeric-exact.js';
import { nullIfAnyNull } from './util.js';

const isInt = (c: FnCall, i: number) => c.argTypes[i]?.kind === 'INT64';
const isNumeric = (c: FnCall, i: number) => c.argTypes[i]?.kind === 'NUMERIC' || c.argTypes[i]?.kind === 'BIGNUMERIC';

/** A number's text as BigQuery prints it in error messages (`1`, not `1.0`). */
export const numText = (x: string): string => `regexp_replace(CAST(${x} AS VARCHAR), '\\.0$', '')`;

/**
 * An operand's text in an arithmetic error message, the way ZetaSQL prints it (absl::StrCat):
 * FLOAT64 with 6 significant digits (`-4.61169e+18`), NUMERIC without trailing zeros (`1.5`).
 */
function operandText(c: FnCall, i: number, asDouble: boolean): string {
  const x = c.args[i]!;
  if (asDouble) return `printf('%.6g', CAST(${x} AS DOUBLE))`;
  if (isNumeric(c, i)) return `regexp_replace(regexp_replace(CAST(${x} AS VARCHAR), '(\\.[0-9]*?)0+$', '\\1'), '\\.$', '')`;
  return numText(x);
}

/** `r` with the recheck mark raised when it is not finite (see doubleOverflow). */
export const recheckMarked = (r: string): string => `CASE WHEN NOT isfinite(${r}) THEN error('${RECHECK_MARKER}') ELSE ${r} END`;

/**
 * The unchecked `+ - *` tree of `x` when `x` is such a tree checked with a recheck mark: an
 * enclosing SUM or AVG may mark its own result instead of every row (src/functions/aggregate.ts).
 */
export function markedF64Tree(x: string): string | undefined {
  return f64Tree(x, true)?.unchecked;
}

/**
 * FLOAT64 `+ - * /` of finite operands that overflows raises `double overflow: 1e+308 * 10`
 * (ZetaSQL arithmetics.h, which BigQuery runs); non-finite operands give IEEE results.
 * The check of one operation (`nestedCheck`) repeats its operands, so checks nested in checks grow
 * 4× per level (`a * (1 - b) * (1 + c)` was 5 kB of SQL evaluated about 3× over). A tree of `+ - *`
 * is therefore computed unchecked and checked once, at its root: + - * never turn ±inf or NaN back
 * into a finite number, so a finite result had no overflow anywhere below; only rows whose result is
 * ±inf or NaN evaluate the nested form, which raises BigQuery's error naming the operation that
 * overflowed (or gives the IEEE value when an operand was already non-finite). A NULL result stays
 * NULL. `/` is not merged (its own check also raises division by zero).
 *
 * With `c.recheck` (a statement run again when the check fires) a non-finite result only raises
 * RECHECK_MARKER: the nested form, duplicated operands and message included, is what DuckDB spent
 * its planning time on (TPC-H q01's lowered SQL: PREPARE ~8 ms, ~2.5–4 ms with the mark, ~1.5 ms
 * for the DuckDB twin); the run that follows a mark is lowered exactly and decides between
 * BigQuery's error and an IEEE answer from non-finite operands.
 */
function doubleOverflow(c: FnCall, op: string): string {
  const recheck = c.recheck === true && !c.safe;
  if (op === '/') {
    const apply = (x: string, y: string) => `(CAST(${x} AS DOUBLE) / CAST(${y} AS DOUBLE))`;
    return recheck ? recheckMarked(apply(c.args[0]!, c.args[1]!)) : nestedCheck(c, op, c.args[0]!, c.args[1]!, apply);
  }
  const [a, b] = c.args.map((x) => f64Tree(x!, recheck) ?? { unchecked: x!, nested: x! });
  const unchecked = `(${a.unchecked} ${op} ${b.unchecked})`;
  const nested = recheck ? undefined : nestedCheck(c, op, a.nested!, b.nested!, (x, y) => `(${x} ${op} ${y})`);
  const sql = nested === undefined ? recheckMarked(unchecked) : `CASE WHEN NOT isfinite(${unchecked}) THEN ${nested} ELSE ${unchecked} END`;
  if (F64_TREES.size >= F64_TREES_MAX) F64_TREES.clear();
  F64_TREES.set(sql, { unchecked, nested });
  return sql;
}

/**
 * Operands at least this long (together, in characters of SQL) are bound once in the nested check,
 * through a one-element `list_transform`: the check names each operand three times, so inline
 * copies nested in checks grow 3× per level (`SELECT 0.5 + 0 + 1 + … + 10` was 92 MB of SQL, and 11
 * terms past JavaScript's longest string).
 */
const BIND_OPERANDS_CHARS = 256;

/**
 * One operation's check: raises on an infinite result of finite operands `a` and `b`.
 * @param apply the operation's SQL over two operand texts.
 */
function nestedCheck(c: FnCall, op: string, a: string, b: string, apply: (x: string, y: string) => string): string {
  if (a.length + b.length < BIND_OPERANDS_CHARS) return checkOnce(c, op, apply(a, b), a, b);
  const x = '__f64_operands[1]';
  const y = '__f64_operands[2]';
  return `list_transform([[CAST(${a} AS DOUBLE), CAST(${b} AS DOUBLE)]], __f64_operands -> ${checkOnce(c, op, apply(x, y), x, y)})[1]`;
}

function checkOnce(c: FnCall, op: string, r: string, a: string, b: string): string {
  const msg = `'double overflow: ' || printf('%.6g', CAST(${a} AS DOUBLE)) || ' ${op} ' || printf('%.6g', CAST(${b} AS DOUBLE))`;
  return `CASE WHEN isinf(${r}) AND isfinite(${a}) AND isfinite(${b}) THEN ${raise(c, msg)} ELSE ${r} END`;
}

/**
 * Checked `+ - *` trees by their SQL text (what an enclosing operation receives as an argument):
 * the tree unchecked and its nested per-operation form (none for a tree checked with a recheck
 * mark). Bounded; a miss only costs the enclosing operation its merge.
 */
const F64_TREES = new Map<string, { unchecked: string; nested: string | undefined }>();
const F64_TREES_MAX = 2000;

/**
 * The checked tree an argument's SQL is, also when the lowering wrapped it in parentheses; only a
 * tree checked the same way (`recheck`) as the enclosing operation.
 */
function f64Tree(x: string, recheck: boolean): { unchecked: string; nested: string | undefined } | undefined {
  const t = F64_TREES.get(x) ?? (x.startsWith('(') && x.endsWith(')') ? F64_TREES.get(x.slice(1, -1)) : undefined);
  return t && (t.nested === undefined) === recheck ? t : undefined;
}

/**
 * INTERVAL / INT64 (operators "Interval arithmetic operators": `INTERVAL 10 YEAR / 3` is
 * `3-4 0 0:0:0`, `INTERVAL 1 MONTH / 12` is `0-0 2 12:0:0`): months are divided, their remainder
 * carried into days at 30 days a month, the days' remainder into the time part at 24 hours a day,
 * every step truncating toward zero.
 */
function intervalDivide(c: FnCall): string {
  const [i, n] = c.args;
  const months = `(datepart('year', ${i}) * 12 + datepart('month', ${i}))`;
  const micros = `(datepart('hour', ${i}) * 3600000000 + datepart('minute', ${i}) * 60000000 + datepart('microseconds', ${i}))`;
  const days = `(datepart('day', ${i}) + (${months} % ${n}) * 30)`;
  const time = `CAST((CAST(${micros} AS HUGEINT) + CAST(${days} % ${n} AS HUGEINT) * 86400000000) // ${n} AS BIGINT)`;
  const q = `(to_months(CAST(${months} // ${n} AS INTEGER)) + to_days(CAST(${days} // ${n} AS INTEGER)) + to_microseconds(${time}))`;
  return `CASE WHEN ${n} = 0 THEN ${raise(c, `'division by zero'`)} ELSE ${q} END`;
}

/**
 * TIMESTAMP ± INTERVAL: an interval with a month or year part is refused with ZetaSQL's
 * `TIMESTAMP +/- INTERVAL is not supported for intervals with non-zero MONTH or YEAR part.`
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/operators#datetime_subtraction).
 */
function timestampInterval(c: FnCall, op: '+' | '-'): string {
  const [t, i] = c.args;
  const months = `(datepart('year', ${i}) * 12 + datepart('month', ${i}))`;
  const err = raise(c, `'TIMESTAMP +/- INTERVAL is not supported for intervals with non-zero MONTH or YEAR part.'`);
  // A NULL timestamp gives NULL whatever the interval (reference evaluator: CAST(NULL AS TIMESTAMP) + INTERVAL 1 MONTH).
  return `CASE WHEN ${t} IS NOT NULL AND ${months} <> 0 THEN ${err} ELSE ${timestampPlusInterval(c, t!, i!, op)} END`;
}

/** `x / y` with BigQuery's division-by-zero error, result cast to the GoogleSQL return type. */
function divide(c: FnCall): string {
  if (c.argTypes[0]?.kind === 'INTERVAL') return intervalDivide(c);
  if (c.returnType.kind === 'BIGNUMERIC') return bigNumericArith(c, '/');
  const [a, b] = c.args;
  const t = c.duckType(c.returnType);
  const dec = isNumeric(c, 0) || isNumeric(c, 1);
  const q = dec ? `CAST(${a} AS ${t}) / CAST(${b} AS ${t})` : `CAST(${a} AS DOUBLE) / CAST(${b} AS DOUBLE)`;
  const quotient = c.returnType.kind === 'NUMERIC' ? exactNumeric(c, '/') : dec ? `CAST(${q} AS ${t})` : doubleOverflow(c, '/');
  return `CASE WHEN ${b} = 0 THEN ${raise(c, `'division by zero: ' || ${operandText(c, 0, !dec)} || ' / ' || ${operandText(c, 1, !dec)}`)} ELSE ${quotient} END`;
}

function binary(op: string) {
  return (c: FnCall) => `CAST((${c.args[0]} ${op} ${c.args[1]}) AS ${c.duckType(c.returnType)})`;
}

/** `a + b` / `a - b`: date/time arithmetic passes through DuckDB; numbers keep the return type. */
function additive(op: '+' | '-') {
  return (c: FnCall) => {
    const k0 = c.argTypes[0]?.kind;
    const k1 = c.argTypes[1]?.kind;
    if (k0 === 'DATE' && k1 === 'INT64') return datePlusDays(c, c.args[0]!, c.args[1]!, op);
    if ((k0 === 'DATE' || k0 === 'DATETIME') && k1 === 'INTERVAL') return datetimePlusInterval(c, c.args[0]!, c.args[1]!, op);
    if (k0 === 'INTERVAL' && (k1 === 'DATE' || k1 === 'DATETIME') && op === '+') return datetimePlusInterval(c, c.args[1]!, c.args[0]!, op);
    if (k0 === 'INTERVAL' && k1 === 'TIMESTAMP' && op === '+') return timestampInterval({ ...c, args: [c.args[1]!, c.args[0]!], argTypes: [c.argTypes[1]!, c.argTypes[0]!] }, op);
    if (k0 === 'DATE' && k1 === 'DATE') return `(${c.args[0]} - ${c.args[1]}) * INTERVAL 1 DAY`;
    if (k0 === 'TIMESTAMP' && k1 === 'TIMESTAMP') return `to_microseconds(epoch_us(${c.args[0]}) - epoch_us(${c.args[1]}))`;
    if (k0 === 'TIMESTAMP' && k1 === 'INTERVAL') return timestampInterval(c, op);
    if (k0 === 'INTERVAL' && k1 === 'INTERVAL') return intervalArithmetic(c, op);
    if (isInt(c, 0) && isInt(c, 1)) return `(${c.args[0]} ${op} ${c.args[1]})`;
    if (c.returnType.kind === 'BIGNUMERIC') return bigNumericArith(c, op);
    if (c.returnType.kind === 'FLOAT64') return doubleOverflow(c, op);
    return `CAST((${c.args[0]} ${op} ${c.args[1]}) AS ${c.duckType(c.returnType)})`;
  };
}

const isFloat = (c: FnCall, i: number) => c.argTypes[i]?.kind === 'FLOAT64';
/** A lowered number literal (`'300'::DOUBLE`, `CAST(24 AS BIGINT)`, `1.5`): never NULL, never NaN. */
const NUMBER_LITERAL = /^(?:'-?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?'::DOUBLE|CAST\(-?[0-9]+ AS BIGINT\)|-?[0-9]+(?:\.[0-9]+)?)$/;
const isBigNumeric = (c: FnCall, i: number) => c.argTypes[i]?.kind === 'BIGNUMERIC';
const NAN_FALSE: Record<string, boolean> = { '=': true, '<>': false, '<': true, '<=': true, '>': true, '>=': true };

/**
 * Comparison operators. FLOAT64 follows IEEE (BigQuery docs, "Floating point semantics"): NaN
 * compared with anything is FALSE, except `!=` which is TRUE; DuckDB orders NaN above +inf and
 * makes NaN = NaN true, so FLOAT64 comparisons test NaN first (NULL still wins).
 */
const cmp = (op: string) => (c: FnCall) => {
  const [a, b] = c.args;
  if (isBigNumeric(c, 0) && isBigNumeric(c, 1)) return bigNumericCompare(a!, op, b!);
  if (!isFloat(c, 0) && !isFloat(c, 1)) return `(${a} ${op} ${b})`;
  // Against a number literal (never NULL or NaN) only the other side can be NaN, and DuckDB's order
  // (NaN above +inf) already answers BigQuery's FALSE for `=`, and for `<`, `<=` with NaN on the
  // left (`>`, `>=` with NaN on the right), and TRUE for `<>`: the other cases exclude NaN. NULL
  // stays NULL. The plain comparison keeps DuckDB's filter pushdown and zone maps.
  const lit = [a, b].map((x) => NUMBER_LITERAL.test(x!));
  // An operand known not to hold NaN (FnCall.nanFree, a column's statistics) is a number or NULL:
  // with both sides so, DuckDB's comparison is BigQuery's (NULL stays NULL).
  const nanFree = [0, 1].map((i) => lit[i] || c.nanFree?.[i] === true);
  if (nanFree[0] && nanFree[1]) return `(${a} ${op} ${b})`;
  if (nanFree[0] !== nanFree[1]) {
    const x = nanFree[0] ? b : a;
    const nanIsTrue = nanFree[0] ? op === '<' || op === '<=' : op === '>' || op === '>=';
    if (!nanIsTrue) return `(${a} ${op} ${b})`;
    // `NOT isnan(x)` makes NULL op NaN FALSE instead of NULL: alike only in a condition, or when
    // the other side is a literal (never NULL). A scalar subquery is not repeated in a guard: the
    // forms below test its NaN inside it.
    if (!isScalarSubquery(x!) && (lit[0] || lit[1] || c.condition)) return `((${a} ${op} ${b}) AND NOT isnan(${x}))`;
  }
  const nanResult = NAN_FALSE[op] ? 'FALSE' : 'TRUE';
  const full = (x: string, y: string) => `CASE WHEN ${x} IS NULL OR ${y} IS NULL THEN NULL WHEN isnan(${x}) OR isnan(${y}) THEN ${nanResult} ELSE (${x} ${op} ${y}) END`;
  // A scalar subquery operand would be evaluated three times (DuckDB plans each copy): the
  // comparison is evaluated inside it instead, over its one value (no row: NULL, as before).
  const sub = [a, b].findIndex((x) => isScalarSubquery(x!));
  // `=` as a whole WHERE/HAVING conjunct: DuckDB's `=` differs from BigQuery's only for NaN = NaN
  // (TRUE), excluded by testing the other side; NaN = NULL gives FALSE instead of NULL, the same
  // there. The subquery stays uncorrelated and is planned once (the form below made TPC-H q15 a
  // correlated subquery, 21× raw DuckDB at SF 1).
  if (sub >= 0 && op === '=' && c.condition) return `((${a} = ${b}) AND NOT isnan(${sub === 0 ? b : a}))`;
  if (c.condition && op !== '<>') return conditionCompare(a!, op, b!, nanFree);
  if (sub >= 0) return `(SELECT ${sub === 0 ? full('"__cmp"', b!) : full(a!, '"__cmp"')} FROM ${sub === 0 ? a : b} AS "__cmp_s"("__cmp"))`;
  return full(a!, b!);
};

/**
 * A FLOAT64 comparison (`=`, `<`, `<=`, `>`, `>=`) that is a whole WHERE/HAVING/ON conjunct, where
 * FALSE and NULL drop the row alike: BigQuery keeps the row only when neither side is NULL or NaN
 * and the values compare. DuckDB's plain comparison agrees on numbers and NULL, so the row is
 * kept by `a op b` once NaN is excluded: `NOT isnan(x)` for a plain operand, and a scalar
 * subquery's NaN made NULL inside it (one evaluation; it stays as correlated as it was — the
 * select-list form above references the other operand inside the subquery, which made TPC-H q17's
 * `l_quantity < (SELECT 0.2 * AVG(…) … WHERE l_partkey = p_partkey)` a subquery correlated on
 * every (quantity, part) pair). The plain comparison keeps DuckDB's filter pushdown and hash joins.
 */
function conditionCompare(a: string, op: string, b: string, known: boolean[] = [false, false]): string {
  const nanFree: string[] = [];
  const side = (x: string, guard: boolean) => {
    if (isScalarSubquery(x)) return `(SELECT CASE WHEN isnan("__cmp") THEN NULL ELSE "__cmp" END FROM ${x} AS "__cmp_s"("__cmp"))`;
    if (guard && !NUMBER_LITERAL.test(x)) nanFree.push(` AND NOT isnan(${x})`);
    return x;
  };
  let [guardLeft, guardRight] = NAN_GUARDS[op] ?? [true, true];
  // An operand known NaN-free (FnCall.nanFree) needs no guard of its own.
  if (known[0]) guardLeft = false;
  if (known[1]) guardRight = false;
  // `x = y`: one operand that cannot be NaN is enough.
  if (op === '=' && (NUMBER_LITERAL.test(b) || isScalarSubquery(b) || known[1])) guardLeft = false;
  const l = side(a, guardLeft);
  const r = side(b, guardRight);
  return `((${l} ${op} ${r})${nanFree.join('')})`;
}

/**
 * Which operands of a condition comparison need NaN excluded, [left, right]. DuckDB orders NaN
 * above every number and equal to itself (https://duckdb.org/docs/sql/data_types/numeric), so a NaN
 * makes `x < NaN`, `x <= NaN`, `NaN > x`, `NaN >= x` and `NaN = NaN` TRUE — and only those: `NaN < x`
 * and `x > NaN` are already FALSE, and `NaN <= x` / `x >= NaN` / `NaN = x` are FALSE once the other
 * operand is not NaN (a number literal, a subquery whose NaN is made NULL, or a guarded operand). Guarding one operand where one suffices keeps the other side's scan free of a
 * per-row `isnan` (TPC-H q17: `l_quantity < (subquery)` guarded `l_quantity` on all of lineitem).
 */
const NAN_GUARDS: Record<string, [boolean, boolean]> = { '<': [false, true], '<=': [false, true], '>': [true, false], '>=': [true, false], '=': [true, false] };

/** True when `x` is exactly one lowered scalar subquery, `(SELECT c<n> FROM (…))` (src/engine/lower/exprs.ts). */
function isScalarSubquery(x: string): boolean {
  if (!/^\(SELECT c\d+ FROM \(/.test(x)) return false;
  let depth = 0;
  for (let i = 0; i < x.length; i++) {
    const ch = x[i];
    if (ch === "'") {
      i = x.indexOf("'", i + 1);
      while (i >= 0 && x[i + 1] === "'") i = x.indexOf("'", i + 2);
      if (i < 0) return false;
    } else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i === x.length - 1;
  }
  return false;
}

/** CASE WHEN … (ZetaSQL `$case_no_value`: when1, then1, …, [else]). */
function caseNoValue(c: FnCall): string {
  const a = c.args;
  let s = 'CASE';
  for (let i = 0; i + 1 < a.length; i += 2) s += ` WHEN ${a[i]} THEN ${a[i + 1]}`;
  if (a.length % 2 === 1) s += ` ELSE ${a[a.length - 1]}`;
  return s + ' END';
}

/** CASE x WHEN … (ZetaSQL `$case_with_value`: value, when1, then1, …, [else]). */
function caseWithValue(c: FnCall): string {
  const [v, ...rest] = c.args;
  let s = `CASE ${v}`;
  for (let i = 0; i + 1 < rest.length; i += 2) s += ` WHEN ${rest[i]} THEN ${rest[i + 1]}`;
  if (rest.length % 2 === 1) s += ` ELSE ${rest[rest.length - 1]}`;
  return s + ' END';
}

/** CONCAT / `||`: NULL if any argument is NULL (DuckDB's concat skips NULLs). */
function concat(c: FnCall): string {
  if (c.returnType.kind === 'ARRAY') return c.args.reduce((x, y) => `list_concat(${x}, ${y})`);
  const joined = `(${c.args.map((a) => `${a}`).join(' || ')})`;
  // Typed again: DuckDB binds `NULL::VARCHAR || x` (and `NULL::BLOB || x`) to an untyped NULL, on
  // which an overloaded function picks the wrong signature — `repeat` the BLOB one, after which
  // REPEAT's `strlen` cannot bind (`REPEAT(CONCAT('a', CAST(NULL AS STRING)), 2)`), octet_length()
  // none at all.
  return `CAST(${joined} AS ${c.returnType.kind === 'BYTES' ? 'BLOB' : 'VARCHAR'})`;
}

/** arr[OFFSET(i)] / arr[ORDINAL(i)] with BigQuery's out-of-bounds error. */
function arrayAt(base: 0 | 1, safe: boolean) {
  return (c: FnCall) => {
    const [arr, i] = c.args;
    const idx = base === 0 ? `(${i}) + 1` : `(${i})`;
    const oob = safe || c.safe ? 'NULL' : `error('Array index ' || CAST(${i} AS VARCHAR) || ' is out of bounds')`;
    // `+`, not OR: the array is evaluated (its errors raised) even when the index is NULL or out of range.
    return `CASE WHEN (CAST(${arr} IS NULL AS INTEGER) + CAST(${i} IS NULL AS INTEGER)) > 0 THEN NULL WHEN ${idx} < 1 OR ${idx} > len(${arr}) THEN ${oob} ELSE list_extract(${arr}, ${idx}) END`;
  };
}

function makeArray(c: FnCall): string {
  if (!c.args.length) return `CAST([] AS ${c.duckType(c.returnType)})`;
  return `CAST([${c.args.join(', ')}] AS ${c.duckType(c.returnType)})`;
}

/** `x IN (…)`; a FLOAT64 NaN equals nothing (NULL when the list holds a NULL, else FALSE). */
function inList(c: FnCall): string {
  const [x, ...list] = c.args;
  const plain = `(${x} IN (${list.join(', ')}))`;
  if (!isFloat(c, 0)) return plain;
  return `CASE WHEN isnan(${x}) THEN (CASE WHEN ${list.map((e) => `${e} IS NULL`).join(' OR ')} THEN NULL ELSE FALSE END) ELSE ${plain} END`;
}

/**
 * `x IN UNNEST(arr)` (BigQuery docs, "IN operator"): FALSE for an empty or NULL array; else NULL
 * when x is NULL; TRUE on a match; NULL when no match but the array holds a NULL; else FALSE.
 * A FLOAT64 NaN matches nothing.
 */
function inArray(c: FnCall): string {
  const [x, arr] = c.args;
  const hasNull = `list_contains(list_transform(${arr}, e -> e IS NULL), true)`;
  const nan = isFloat(c, 0) ? `WHEN isnan(${x}) THEN (CASE WHEN ${hasNull} THEN NULL ELSE FALSE END) ` : '';
  return `CASE WHEN ${arr} IS NULL OR len(${arr}) = 0 THEN FALSE WHEN ${x} IS NULL THEN NULL ${nan}WHEN list_contains(${arr}, ${x}) THEN TRUE WHEN ${hasNull} THEN NULL ELSE FALSE END`;
}

/** x LIKE ANY (p1, p2, …) / LIKE ALL: OR / AND of the single comparisons (three-valued). */
/**
 * `x LIKE p` with BigQuery's backslash escapes. A pattern literal without a backslash needs no
 * ESCAPE clause, and DuckDB optimises only LIKE without one (a `%word%` or `prefix%` pattern
 * becomes contains / prefix: measured 4–5× faster on 2M strings).
 */
const like = (x: string, p: string): string => (/^'(?:[^'\\]|'')*'::VARCHAR$/.test(p) ? `(${x} LIKE ${p})` : `(${x} LIKE ${p} ESCAPE '\\')`);
const likeList = (op: 'OR' | 'AND') => (c: FnCall) => `(${c.args.slice(1).map((p) => like(c.args[0]!, p!)).join(` ${op} `)})`;
/** The array forms: NULL array or value gives NULL. */
const likeArray = (op: 'OR' | 'AND') => (c: FnCall) => {
  const [x, a] = c.args;
  const matches = `list_transform(${a}, p -> ${x} LIKE p ESCAPE '\\')`;
  const body = op === 'OR'
    ? `CASE WHEN list_contains(${matches}, true) THEN true WHEN list_contains(list_transform(${matches}, m -> m IS NULL), true) THEN NULL ELSE false END`
    : `CASE WHEN list_contains(${matches}, false) THEN false WHEN list_contains(list_transform(${matches}, m -> m IS NULL), true) THEN NULL ELSE true END`;
  return nullIfAnyNull([x, a], body);
};

/** The operators and conditional expressions pages (ZetaSQL names operators `$name`). */
export const OPERATOR_FUNCTIONS: FnTable = {
  $add: additive('+'),
  $subtract: additive('-'),
  $multiply: (c) => {
    if (isInt(c, 0) && isInt(c, 1)) return `(${c.args[0]} * ${c.args[1]})`;
    if (c.returnType.kind === 'INTERVAL') return intervalArithmetic(c, '*');
    if (c.returnType.kind === 'BIGNUMERIC') return bigNumericArith(c, '*');
    if (c.returnType.kind === 'NUMERIC') {
      // DuckDB multiplies DECIMAL(38,9)s exactly while the scale-18 product stays under 38 digits.
      const small = c.args.map((a) => `abs(${a}) < 1000000000`).join(' AND ');
      return `CASE WHEN ${small} THEN ${binary('*')(c)} ELSE ${exactNumeric(c, '*')} END`;
    }
    return c.returnType.kind === 'FLOAT64' ? doubleOverflow(c, '*') : binary('*')(c);
  },
  $divide: divide,
  $unary_minus: (c) => (c.returnType.kind === 'BIGNUMERIC' ? bigNumericNegate(c) : `(- ${c.args[0]})`),
  $equal: cmp('='),
  $not_equal: cmp('<>'),
  $less: cmp('<'),
  $less_or_equal: cmp('<='),
  $greater: cmp('>'),
  $greater_or_equal: cmp('>='),
  $and: (c) => `(${c.args.join(' AND ')})`,
  $or: (c) => `(${c.args.join(' OR ')})`,
  $not: template('(NOT $1)'),
  $is_null: template('($1 IS NULL)'),
  $is_true: template('($1 IS TRUE)'),
  $is_false: template('($1 IS FALSE)'),
  $is_distinct_from: template('($1 IS DISTINCT FROM $2)'),
  $is_not_distinct_from: template('($1 IS NOT DISTINCT FROM $2)'),
  $like: (c) => like(c.args[0]!, c.args[1]!),
  $in: inList,
  $in_array: inArray,
  $between: (c) => {
    const [x, lo, hi] = c.args;
    const plain = `(${x} BETWEEN ${lo} AND ${hi})`;
    if (isBigNumeric(c, 0) && isBigNumeric(c, 1) && isBigNumeric(c, 2)) return `(${bigNumericCompare(x!, '>=', lo!)} AND ${bigNumericCompare(x!, '<=', hi!)})`;
    if (!isFloat(c, 0)) return plain;
    // Both bounds number literals (never NULL or NaN): a NaN x fails DuckDB's `x <= hi` (NaN orders
    // above every number), so DuckDB's BETWEEN answers BigQuery's FALSE with no isnan per row.
    if (NUMBER_LITERAL.test(lo!) && NUMBER_LITERAL.test(hi!)) return plain;
    return `(${cmp('>=')({ ...c, args: [x, lo] })} AND ${cmp('<=')({ ...c, args: [x, hi] })})`;
  },
  $case_no_value: caseNoValue,
  $case_with_value: caseWithValue,
  $concat_op: concat,
  concat: concat,
  $make_array: makeArray,
  $array_at_offset: arrayAt(0, false),
  $array_at_ordinal: arrayAt(1, false),
  $safe_array_at_offset: arrayAt(0, true),
  $safe_array_at_ordinal: arrayAt(1, true),
  if: template('CASE WHEN $1 THEN $2 ELSE $3 END'),
  ifnull: rename('coalesce'),
  coalesce: rename('coalesce'),
  nullif: rename('nullif'),
  nullifzero: (c) => `nullif(${c.args[0]}, 0)`,
  $like_any: likeList('OR'),
  $like_all: likeList('AND'),
  $like_any_array: likeArray('OR'),
  $like_all_array: likeArray('AND'),
};
