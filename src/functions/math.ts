/**
 * Mathematical functions (GoogleSQL "Mathematical functions", "Bit functions"), PI_NUMERIC and
 * PI_BIGNUMERIC; COSINE_DISTANCE / EUCLIDEAN_DISTANCE are in math-distance.ts.
 *
 * Error rules follow ZetaSQL's functions/math.h and arithmetics.h, which BigQuery runs:
 * - a function whose finite inputs give a non-finite result raises
 *   `Floating point error in function: LN(-1)` (COSH/SINH/TAN: `Floating point overflow in
 *   function: COSH(1000)`); non-finite inputs pass through with IEEE results;
 * - `Argument to SQRT cannot be negative: -1`; MOD by zero `division by zero: MOD(10, 0)`; DIV by
 *   zero `division by zero: 10 / 0`;
 * - numbers inside messages print like absl::StrCat (`%.6g` for FLOAT64).
 * The prelude turns on DuckDB's `ieee_floating_point_ops` so that inf/NaN propagate (DuckDB
 * otherwise returns NULL for non-finite results).
 * GREATEST/LEAST return NULL if any argument is NULL and NaN if any FLOAT64 argument is NaN.
 */
import { template, type FnCall, type FnTable } from './registry.js';
import { enumName, fail, nullIfAnyNull } from './util.js';

/** zetasql.functions.RoundingMode, by enum number. */
const ROUNDING_MODES: Record<number, string> = { 1: 'ROUND_HALF_AWAY_FROM_ZERO', 2: 'ROUND_HALF_EVEN' };
import { exactNumeric, numericRoundHalfEven } from './numeric-exact.js';
import { bigNumericRounding } from './bignumeric-aggregates.js';
import { bigNumericAbs, bigNumericArith, bigNumericFromKey, bigNumericNegate, bigNumericSign, bigNumericSortKey } from './bignumeric-exact.js';

const kindOf = (c: FnCall, i = 0) => c.argTypes[i]?.kind;
const isF = (c: FnCall, i = 0) => kindOf(c, i) === 'FLOAT64';
const isDec = (c: FnCall, i = 0) => kindOf(c, i) === 'NUMERIC' || kindOf(c, i) === 'BIGNUMERIC';
const ret = (c: FnCall) => c.duckType(c.returnType);
const asRet = (c: FnCall, e: string) => `CAST(${e} AS ${ret(c)})`;

/** An argument as text the way ZetaSQL prints it in error messages. */
export function numText(c: FnCall, i: number): string {
  const a = c.args[i];
  if (isF(c, i) || kindOf(c, i) === undefined) return `printf('%.6g', CAST(${a} AS DOUBLE))`;
  if (isDec(c, i)) return `regexp_replace(regexp_replace(CAST(${a} AS VARCHAR), '(\\.[0-9]*?)0+$', '\\1'), '\\.$', '')`;
  return `CAST(${a} AS VARCHAR)`;
}

/** `Floating point error in function: NAME(args)` (or `… overflow …`). */
const fpError = (c: FnCall, name: string, kind: 'error' | 'overflow' = 'error') =>
  fail(c, `'Floating point ${kind} in function: ${name}(' || ${c.args.map((_a, i) => numText(c, i)).join(` || ', ' || `)} || ')'`);

/** DOUBLE math on NUMERIC inputs: compute in DOUBLE and cast back to the return type. */
const dbl = (c: FnCall, i = 0) => (isF(c, i) ? c.args[i] : `CAST(${c.args[i]} AS DOUBLE)`);
const finish = (c: FnCall, e: string) => (c.returnType.kind === 'FLOAT64' ? e : c.returnType.kind === 'BIGNUMERIC' ? bigNumericOfDouble(c, e) : asRet(c, e));

/**
 * A DOUBLE result as BIGNUMERIC text (`CAST(8.0 AS VARCHAR)` would give `8.0`, `1e+100`): the
 * double's value rounded to 38 digits (conversion.ts), and past BIGNUMERIC's range ZetaSQL's
 * `BIGNUMERIC overflow: POW(10, 100)` (the reference evaluator's text).
 */
function bigNumericOfDouble(c: FnCall, e: string): string {
  const name = c.name === 'power' ? 'POW' : c.name.toUpperCase();
  const call = `'${name}(' || ${c.args.map((_a, i) => numText(c, i)).join(` || ', ' || `)} || ')'`;
  return list1(e, (v) => `CASE WHEN ${v} IS NULL THEN NULL WHEN bq_double_to_bignumeric(${v}) IS NULL THEN ${fail(c, `'BIGNUMERIC overflow: ' || ${call}`)} ELSE bq_double_to_bignumeric(${v}) END`);
}
const list1 = (x: string, body: (v: string) => string) => `list_extract(list_transform([${x}], bq_d -> ${body('bq_d')}), 1)`;

/**
 * A one-argument FLOAT64 function with a domain check: `bad` (SQL over `x`) marks the finite
 * inputs where BigQuery raises; `special` gives the IEEE result for non-finite inputs when DuckDB
 * would raise on them.
 */
function unary(duck: string, name: string, bad?: (x: string) => string, kind: 'error' | 'overflow' = 'error', special?: (x: string) => string) {
  return (c: FnCall) => {
    const x = dbl(c);
    let body = `${duck}(${x})`;
    if (special) body = `CASE WHEN NOT isfinite(${x}) THEN ${special(x)} ELSE ${body} END`;
    if (bad) body = `CASE WHEN ${bad(x)} THEN ${fpError(c, name, kind)} ELSE ${body} END`;
    return finish(c, body);
  };
}

const NAN = `'NaN'::DOUBLE`;
const fin = (x: string) => `isfinite(${x})`;
/** LN/LOG10 of a non-finite input: +inf for +inf, NaN for -inf and NaN (IEEE, as ZetaSQL). */
const lnNonFinite = (x: string) => `CASE WHEN ${x} = 'Infinity'::DOUBLE THEN ${x} ELSE ${NAN} END`;

/** MOD(x, y): INT64 and NUMERIC; sign follows x. */
function mod(c: FnCall): string {
  if (c.returnType.kind === 'BIGNUMERIC') return bigNumericArith(c, 'MOD');
  const [x, y] = c.args;
  const err = fail(c, `'division by zero: MOD(' || ${numText(c, 0)} || ', ' || ${numText(c, 1)} || ')'`);
  const body = isDec(c, 0) ? asRet(c, `${x} % ${y}`) : `CASE WHEN ${y} = -1 THEN 0 ELSE ${x} % ${y} END`;
  return nullIfAnyNull([x, y], `CASE WHEN ${y} = 0 THEN ${err} ELSE ${body} END`);
}

/** DIV(x, y): integer division truncating toward zero. */
function div(c: FnCall): string {
  if (c.returnType.kind === 'BIGNUMERIC') return bigNumericArith(c, 'DIV');
  const [x, y] = c.args;
  // ZetaSQL: NUMERIC `division by zero: DIV(1.5, 0)`, INT64 `division by zero: 10 / 0`.
  const err = isDec(c, 0)
    ? fail(c, `'division by zero: DIV(' || ${numText(c, 0)} || ', ' || ${numText(c, 1)} || ')'`)
    : fail(c, `'division by zero: ' || ${numText(c, 0)} || ' / ' || ${numText(c, 1)}`);
  // INT64_MIN DIV -1 overflows; under SAFE that is NULL (no TRY: it refuses arguments holding error()).
  const body = c.returnType.kind === 'NUMERIC' ? exactNumeric(c, 'DIV') : isDec(c, 0) ? asRet(c, `trunc(${x} / ${y})`) : c.safe ? `CASE WHEN ${x} = ${INT64_MIN} AND ${y} = -1 THEN NULL ELSE ${x} // ${y} END` : `(${x} // ${y})`;
  return nullIfAnyNull([x, y], `CASE WHEN ${y} = 0 THEN ${err} ELSE ${body} END`);
}

const INT64_MIN = '(-9223372036854775807 - 1)';
const HUGE_INT64 = (e: string) => `CAST(${e} AS HUGEINT)`;
/** A NUMERIC as its scaled HUGEINT (value × 10^9), exact. */
const scaled = (x: string) => `(CAST(trunc(${x}) AS HUGEINT) * 1000000000 + CAST((${x} - trunc(${x})) * 1000000000 AS HUGEINT))`;
const NUMERIC_SCALED_MAX = `CAST('99999999999999999999999999999999999999' AS HUGEINT)`;

/**
 * SAFE_ADD / SAFE_SUBTRACT / SAFE_MULTIPLY: NULL on overflow. INT64 is computed in HUGEINT and
 * range-checked, NUMERIC +/- on scaled HUGEINTs and NUMERIC `*` exactly (numeric-exact.ts): DuckDB's
 * TRY() refuses arguments that hold error() (a MOD or DIV inside), so TRY is kept only for BIGNUMERIC.
 */
function safeOp(op: string) {
  return (c: FnCall) => {
    const [x, y] = c.args;
    if (c.returnType.kind === 'BIGNUMERIC') return bigNumericArith(c, op as '+' | '-' | '*', true);
    if (c.returnType.kind === 'FLOAT64') {
      const r = `(CAST(${x} AS DOUBLE) ${op} CAST(${y} AS DOUBLE))`;
      return `CASE WHEN isinf(${r}) AND isfinite(${x}) AND isfinite(${y}) THEN NULL ELSE ${r} END`;
    }
    if (c.returnType.kind === 'INT64') {
      const r = `(${HUGE_INT64(x)} ${op} ${HUGE_INT64(y)})`;
      return `CASE WHEN ${r} BETWEEN ${INT64_MIN} AND 9223372036854775807 THEN CAST(${r} AS BIGINT) ELSE NULL END`;
    }
    if (c.returnType.kind === 'NUMERIC' && op === '*') return exactNumeric(c, '*', true);
    if (c.returnType.kind === 'NUMERIC') {
      const [a, b] = [scaled(`CAST(${x} AS DECIMAL(38,9))`), scaled(`CAST(${y} AS DECIMAL(38,9))`)];
      const bb = op === '+' ? b : `(- ${b})`;
      const over = `(${bb} >= 0 AND ${a} > ${NUMERIC_SCALED_MAX} - ${bb}) OR (${bb} < 0 AND ${a} < - ${NUMERIC_SCALED_MAX} - ${bb})`;
      return `CASE WHEN ${over} THEN NULL ELSE CAST(CAST(${x} AS DECIMAL(38,9)) ${op} CAST(${y} AS DECIMAL(38,9)) AS DECIMAL(38,9)) END`;
    }
    return `TRY(CAST(CAST(${x} AS ${ret(c)}) ${op} CAST(${y} AS ${ret(c)}) AS ${ret(c)}))`;
  };
}

function safeDivide(c: FnCall): string {
  if (c.returnType.kind === 'BIGNUMERIC') return bigNumericArith(c, '/', true);
  const [x, y] = c.args;
  const t = ret(c);
  const r = `(CAST(${x} AS ${t}) / CAST(${y} AS ${t}))`;
  // Both arguments are evaluated first (an argument's error is raised even when y = 0).
  if (c.returnType.kind === 'FLOAT64')
    return `CASE WHEN (CAST(${r} IS NULL AS INTEGER) + CAST(${y} = 0 AS INTEGER)) > 0 THEN NULL WHEN isinf(${r}) AND isfinite(${x}) AND isfinite(${y}) THEN NULL ELSE ${r} END`;
  if (c.returnType.kind === 'NUMERIC') return nullIfAnyNull([x, y], `CASE WHEN ${y} = 0 THEN NULL ELSE ${exactNumeric(c, '/', true)} END`);
  return `CASE WHEN ${y} = 0 THEN NULL ELSE TRY(CAST(${r} AS ${t})) END`;
}

function pow(c: FnCall): string {
  const [x, y] = [dbl(c, 0), dbl(c, 1)];
  const bad = `${fin(x)} AND ${fin(y)} AND ((${x} = 0 AND ${y} < 0) OR (${x} < 0 AND ${y} <> floor(${y})) OR NOT isfinite(pow(${x}, ${y})))`;
  return finish(c, `CASE WHEN ${bad} THEN ${fpError(c, 'POW')} ELSE pow(${x}, ${y}) END`);
}

/** LOG(x [, base]): ln(x) / ln(base); finite inputs giving a non-finite result raise. */
function log(c: FnCall): string {
  if (c.args.length === 1) return unary('ln', 'LOG', (x) => `${fin(x)} AND ${x} <= 0`, 'error', lnNonFinite)(c);
  const [x, b] = [dbl(c, 0), dbl(c, 1)];
  const bad = `${fin(x)} AND ${fin(b)} AND (${x} <= 0 OR ${b} <= 0 OR ${b} = 1)`;
  const special = `CASE WHEN ${x} = 'Infinity'::DOUBLE AND ${b} > 1 AND ${fin(b)} THEN 'Infinity'::DOUBLE WHEN ${x} = 'Infinity'::DOUBLE AND ${b} > 0 AND ${b} < 1 THEN '-Infinity'::DOUBLE ELSE ${NAN} END`;
  return finish(c, nullIfAnyNull([x, b], `CASE WHEN ${bad} THEN ${fpError(c, 'LOG')} WHEN NOT (${fin(x)} AND ${fin(b)}) THEN ${special} ELSE ln(${x}) / ln(${b}) END`));
}

function sqrt(c: FnCall): string {
  const x = dbl(c);
  const err = fail(c, `'Argument to SQRT cannot be negative: ' || ${numText(c, 0)}`);
  return finish(c, `CASE WHEN ${x} < 0 THEN ${err} ELSE sqrt(${x}) END`);
}

function ieeeDivide(c: FnCall): string {
  const [x, y] = [dbl(c, 0), dbl(c, 1)];
  return `CASE WHEN ${x} IS NULL OR ${y} IS NULL THEN NULL WHEN ${y} = 0 THEN (CASE WHEN ${x} = 0 OR isnan(${x}) THEN ${NAN} WHEN (${x} > 0) <> signbit(${y}) THEN 'Infinity'::DOUBLE ELSE '-Infinity'::DOUBLE END) ELSE ${x} / ${y} END`;
}

/** GREATEST / LEAST: NULL if any argument is NULL; NaN if any FLOAT64 argument is NaN. */
function extremum(fn: 'greatest' | 'least') {
  return (c: FnCall) => {
    // BIGNUMERIC (text) compares by its order-preserving key (bignumeric-exact.ts), not as text.
    const body = c.returnType.kind === 'BIGNUMERIC' ? bigNumericFromKey(`${fn}(${c.args.map(bigNumericSortKey).join(', ')})`) : `${fn}(${c.args.join(', ')})`;
    const nan = c.returnType.kind === 'FLOAT64' ? `WHEN ${c.args.map((a) => `isnan(${a})`).join(' OR ')} THEN ${NAN} ` : '';
    return `CASE WHEN ${c.args.map((a) => `${a} IS NULL`).join(' OR ')} THEN NULL ${nan}ELSE ${body} END`;
  };
}

function sign(c: FnCall): string {
  const x = c.args[0];
  if (c.returnType.kind === 'BIGNUMERIC') return bigNumericSign(c);
  if (isF(c)) return `CASE WHEN isnan(${x}) THEN ${x} ELSE CAST(sign(${x}) AS DOUBLE) END`;
  return asRet(c, `sign(${x})`);
}

/** ROUND / TRUNC with an optional digit count (and, for NUMERIC ROUND, a rounding mode). */
function rounding(fn: 'round' | 'trunc') {
  return (c: FnCall) => {
    const x = c.args[0];
    const n = c.args[1] !== undefined ? `, CAST(${c.args[1]} AS INTEGER)` : '';
    if (isF(c)) return `CASE WHEN NOT isfinite(${x}) THEN ${x} ELSE ${fn}(${x}${n}) END`;
    if (c.returnType.kind === 'BIGNUMERIC') {
      const even = fn === 'round' && c.args[2] !== undefined && enumName(c.args[2], ROUNDING_MODES) === 'ROUND_HALF_EVEN';
      return bigNumericRounding({ ...c, args: c.args.slice(0, 2) }, fn === 'trunc' ? 'TRUNC' : even ? 'ROUND_HALF_EVEN' : 'ROUND');
    }
    // ROUND(x, n, 'ROUND_HALF_EVEN') rounds ties to even (BigQuery docs, ROUND rounding_mode).
    if (fn === 'round' && c.args[2] !== undefined && enumName(c.args[2], ROUNDING_MODES) === 'ROUND_HALF_EVEN')
      return c.returnType.kind === 'NUMERIC' ? numericRoundHalfEven(c) : asRet(c, `round_even(${x}${n || ', 0'})`);
    if (c.returnType.kind === 'NUMERIC' && fn === 'round') return numericOverflowChecked(c, `round(${x}${n})`, `ROUND(' || ${numText(c, 0)} || ', ' || ${c.args[1] === undefined ? `'0'` : `CAST(${c.args[1]} AS VARCHAR)`} || ')`);
    return asRet(c, `${fn}(${x}${n})`);
  };
}

/**
 * A NUMERIC result rounded past NUMERIC's 29 integer digits: ZetaSQL's `numeric overflow: ROUND(x, 0)`
 * (`FLOOR(x)`, `CEIL(x)`) instead of DuckDB's failed cast. `call` is the message's SQL text piece.
 */
function numericOverflowChecked(c: FnCall, value: string, call: string): string {
  const v = `TRY_CAST(${value} AS DECIMAL(38,9))`;
  return `CASE WHEN ${c.args.map((a) => `${a} IS NULL`).join(' OR ')} THEN NULL WHEN ${v} IS NULL THEN ${fail(c, `'numeric overflow: ${call}'`)} ELSE ${v} END`;
}

const passNonFinite = (fn: string) => (c: FnCall) => {
  if (c.returnType.kind === 'BIGNUMERIC') return bigNumericRounding(c, fn.toUpperCase());
  if (c.returnType.kind === 'NUMERIC') return numericOverflowChecked(c, `${fn}(${c.args[0]})`, `${fn.toUpperCase()}(' || ${numText(c, 0)} || ')`);
  return isF(c) ? `CASE WHEN NOT isfinite(${c.args[0]}) THEN ${c.args[0]} ELSE ${fn}(${c.args[0]}) END` : asRet(c, `${fn}(${c.args[0]})`);
};

/** 1 / f(x) style reciprocal trig functions: raise where f(x) = 0 for finite x. */
const recip = (f: string, name: string, zero: (x: string) => string) =>
  unary(`1 / ${f}`, name, zero, 'error', () => NAN);

/** RANGE_BUCKET(point, boundaries): number of boundaries <= point (boundaries sorted). */
function rangeBucket(c: FnCall): string {
  const [x, arr] = c.args;
  const nullErr = fail(c, `'Elements in the second argument of RANGE_BUCKET cannot be NULL'`);
  const le = c.argTypes[0]?.kind === 'BIGNUMERIC' ? `${bigNumericSortKey('b')} <= ${bigNumericSortKey(x)}` : `b <= ${x}`;
  return `CASE WHEN ${x} IS NULL OR ${arr} IS NULL THEN NULL WHEN list_contains(list_transform(${arr}, b -> b IS NULL), true) THEN ${nullErr} ELSE CAST(len(list_filter(${arr}, b -> ${le})) AS BIGINT) END`;
}

const U64 = `CAST('18446744073709551615' AS HUGEINT)`;
const toSigned = (h: string) => `CAST(CASE WHEN ${h} >= CAST('9223372036854775808' AS HUGEINT) THEN ${h} - CAST('18446744073709551616' AS HUGEINT) ELSE ${h} END AS BIGINT)`;

/** `x << n` on 64-bit two's complement (no overflow error; n >= 64 gives 0). */
function shiftLeft(c: FnCall): string {
  const [x, n] = c.args;
  if (c.argTypes[0]?.kind === 'BYTES') throw new Error('bitwise shifts of BYTES are not supported');
  const neg = fail(c, `'Bitwise shift by negative amount'`);
  return nullIfAnyNull([x, n], `CASE WHEN ${n} < 0 THEN ${neg} WHEN ${n} >= 64 THEN 0 ELSE ${toSigned(`(((CAST(${x} AS HUGEINT) & ${U64}) << CAST(${n} AS INTEGER)) & ${U64})`)} END`);
}

/** `x >> n`: a logical shift (no sign extension), as in BigQuery. */
function shiftRight(c: FnCall): string {
  const [x, n] = c.args;
  const neg = fail(c, `'Bitwise shift by negative amount'`);
  return nullIfAnyNull([x, n], `CASE WHEN ${n} < 0 THEN ${neg} WHEN ${n} >= 64 THEN 0 WHEN ${n} = 0 OR ${x} >= 0 THEN ${x} >> CAST(${n} AS INTEGER) ELSE (${x} >> CAST(${n} AS INTEGER)) & (9223372036854775807 >> CAST(${n} - 1 AS INTEGER)) END`);
}

function bitCount(c: FnCall): string {
  const x = c.args[0];
  if (c.argTypes[0]?.kind === 'BYTES')
    return `CASE WHEN ${x} IS NULL THEN NULL ELSE CAST(coalesce(list_sum(list_transform(string_split(hex(${x}), ''), h -> CASE WHEN h = '' THEN 0 ELSE bit_count(CAST(('0x' || h) AS INTEGER)) END)), 0) AS BIGINT) END`;
  return `CAST(bit_count(${x}) AS BIGINT)`;
}

const bytesUnsupported = (op: string, duck: (c: FnCall) => string) => (c: FnCall) => {
  if (c.argTypes.some((t) => t?.kind === 'BYTES')) throw new Error(`bitwise ${op} of BYTES is not supported`);
  return duck(c);
};

/** The mathematical_functions page (and the bit functions and bitwise operators). */
export const MATHEMATICAL_FUNCTIONS: FnTable = {
  abs: (c) => {
    if (c.returnType.kind === 'BIGNUMERIC') return bigNumericAbs(c);
    if (c.returnType.kind === 'INT64' && c.safe) return `CASE WHEN ${c.args[0]} = ${INT64_MIN} THEN NULL ELSE abs(${c.args[0]}) END`;
    return c.returnType.kind === 'INT64' || isF(c) ? `abs(${c.args[0]})` : asRet(c, `abs(${c.args[0]})`);
  },
  sign,
  round: rounding('round'),
  trunc: rounding('trunc'),
  ceil: passNonFinite('ceil'),
  floor: passNonFinite('floor'),
  mod,
  div,
  safe_divide: safeDivide,
  safe_add: safeOp('+'),
  safe_subtract: safeOp('-'),
  safe_multiply: safeOp('*'),
  safe_negate: (c) => (c.returnType.kind === 'BIGNUMERIC' ? bigNumericNegate({ ...c, safe: true }) : c.returnType.kind === 'INT64' ? `CASE WHEN ${c.args[0]} = ${INT64_MIN} THEN NULL ELSE - ${c.args[0]} END` : `(- ${c.args[0]})`),
  pow,
  sqrt,
  cbrt: (c) => finish(c, `cbrt(${dbl(c)})`),
  exp: unary('exp', 'EXP', (x) => `${fin(x)} AND ${x} > 709.782712893384`),
  ln: unary('ln', 'LN', (x) => `${fin(x)} AND ${x} <= 0`, 'error', lnNonFinite),
  log,
  log10: unary('log10', 'LOG10', (x) => `${fin(x)} AND ${x} <= 0`, 'error', lnNonFinite),
  greatest: extremum('greatest'),
  least: extremum('least'),
  is_inf: template('isinf($1)'),
  is_nan: template('isnan($1)'),
  ieee_divide: ieeeDivide,
  range_bucket: rangeBucket,
  rand: () => 'random()',
  pi: () => 'pi()',
  zeroifnull: (c) => `coalesce(${c.args[0]}, CAST(0 AS ${ret(c)}))`,
  sin: unary('sin', 'SIN', undefined, 'error', () => NAN),
  cos: unary('cos', 'COS', undefined, 'error', () => NAN),
  tan: unary('tan', 'TAN', undefined, 'overflow', () => NAN),
  asin: unary('asin', 'ASIN', (x) => `abs(${x}) > 1`),
  acos: unary('acos', 'ACOS', (x) => `abs(${x}) > 1`),
  atan: unary('atan', 'ATAN'),
  atan2: (c) => finish(c, `atan2(${dbl(c, 0)}, ${dbl(c, 1)})`),
  sinh: unary('sinh', 'SINH', (x) => `${fin(x)} AND abs(${x}) > 710.4758600739439`, 'overflow'),
  cosh: unary('cosh', 'COSH', (x) => `${fin(x)} AND abs(${x}) > 710.4758600739439`, 'overflow'),
  tanh: unary('tanh', 'TANH'),
  asinh: unary('asinh', 'ASINH'),
  acosh: unary('acosh', 'ACOSH', (x) => `${x} < 1`),
  atanh: unary('atanh', 'ATANH', (x) => `abs(${x}) >= 1`),
  cot: recip('tan', 'COT', (x) => `${x} = 0`),
  csc: recip('sin', 'CSC', (x) => `${x} = 0`),
  sec: recip('cos', 'SEC', () => 'false'),
  coth: recip('tanh', 'COTH', (x) => `${x} = 0`),
  csch: recip('sinh', 'CSCH', (x) => `${x} = 0`),
  sech: recip('cosh', 'SECH', () => 'false'),
  bit_count: bitCount,
  $bitwise_not: bytesUnsupported('NOT', (c) => `(~ ${c.args[0]})`),
  $bitwise_and: bytesUnsupported('AND', (c) => `(${c.args[0]} & ${c.args[1]})`),
  $bitwise_or: bytesUnsupported('OR', (c) => `(${c.args[0]} | ${c.args[1]})`),
  $bitwise_xor: bytesUnsupported('XOR', (c) => `xor(${c.args[0]}, ${c.args[1]})`),
  $bitwise_left_shift: shiftLeft,
  $bitwise_right_shift: shiftRight,
  pi_numeric: () => `CAST('3.141592654' AS DECIMAL(38,9))`,
  pi_bignumeric: () => `'3.1415926535897932384626433832795028842'`,
};
