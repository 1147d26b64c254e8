/**
 * Exact BIGNUMERIC arithmetic and comparison. BIGNUMERIC is stored as its canonical decimal text
 * (VARCHAR, src/types/duckdb-types.ts), which DuckDB can neither add nor order numerically, so the
 * operators run in JavaScript BigInt UDFs over value × 10^38.
 *
 * GoogleSQL BIGNUMERIC (https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#decimal_types):
 * scale 38, range [-2^255, 2^255-1] × 10^-38; products and quotients are rounded half away from
 * zero to 38 digits. Past the range ZetaSQL's BigNumericValue raises
 * `BIGNUMERIC overflow: <a> <op> <b>` (`BIGNUMERIC overflow: DIV(<a>, <b>)` for DIV), and a zero
 * divisor `division by zero: <a> / <b>` (texts checked against the ZetaSQL reference evaluator by
 * the differential suite, test/differential/families-numbers.ts). A UDF answers NULL on overflow and
 * the lowering turns that into the error (or NULL under SAFE).
 */
import { BIGNUMERIC_MAX_SCALED, BIGNUMERIC_MIN_SCALED, BIGNUMERIC_SCALE, divRoundHalfAway, parseScaled, scaledToText } from '../types/decimal.js';
import { defineUdf } from './builtin-udfs.js';
import { raise, type FnCall } from './registry.js';

const UNIT = 10n ** BigInt(BIGNUMERIC_SCALE);

const scaledOf = (text: string): bigint => parseScaled(text.trim(), BIGNUMERIC_SCALE) ?? 0n;
const fits = (v: bigint) => v <= BIGNUMERIC_MAX_SCALED && v >= BIGNUMERIC_MIN_SCALED;
const out = (v: bigint): string | null => (fits(v) ? scaledToText(v, BIGNUMERIC_SCALE) : null);

/**
 * `a op b` on BIGNUMERIC texts (op `+ - * / DIV MOD`): the canonical text, or NULL on overflow or
 * a zero divisor (the lowering raises the divisor's error before calling).
 */
export function bigNumericOp(a: string, op: string, b: string): string | null {
  const [x, y] = [scaledOf(a), scaledOf(b)];
  switch (op) {
    case '+':
      return out(x + y);
    case '-':
      return out(x - y);
    case '*':
      return out(divRoundHalfAway(x * y, UNIT));
    case '/':
      return y === 0n ? null : out(divRoundHalfAway(x * UNIT, y));
    case 'DIV':
      return y === 0n ? null : out((x / y) * UNIT); // BigInt division truncates toward zero, as DIV does
    case 'MOD':
      return y === 0n ? null : out(x % y); // the sign follows x, as MOD's
    default:
      return null;
  }
}

defineUdf('bq_bignumeric_op', ['VARCHAR', 'VARCHAR', 'VARCHAR'], 'VARCHAR', (a, op, b) => bigNumericOp(a, op, b));
defineUdf('bq_bignumeric_cmp', ['VARCHAR', 'VARCHAR'], 'BIGINT', (a, b) => {
  const [x, y] = [scaledOf(a), scaledOf(b)];
  return x < y ? -1n : x > y ? 1n : 0n;
});
defineUdf('bq_bignumeric_neg', ['VARCHAR'], 'VARCHAR', (a) => out(-scaledOf(a)));

/** The operand's text in an error message: the canonical text, which is how ZetaSQL prints it. */
const shown = (x: string) => `CAST(${x} AS VARCHAR)`;

/**
 * BIGNUMERIC `a op b` (op `+ - * / DIV MOD`), both arguments BIGNUMERIC text. NULL in → NULL out;
 * a zero divisor raises `division by zero: …`; overflow raises `BIGNUMERIC overflow: …` unless
 * `nullOnError` (SAFE_ functions) or the call is SAFE.
 */
export function bigNumericArith(c: FnCall, op: '+' | '-' | '*' | '/' | 'DIV' | 'MOD', nullOnError = false): string {
  const [a, b] = [c.args[0]!, c.args[1]!];
  const fail = (text: string) => (nullOnError ? 'NULL' : raise(c, text));
  const call = op === 'DIV' || op === 'MOD';
  const expr = call ? `'${op}(' || ${shown(a)} || ', ' || ${shown(b)} || ')'` : `${shown(a)} || ' ${op} ' || ${shown(b)}`;
  const r = `bq_bignumeric_op(${a}, '${op}', ${b})`;
  const zero = op === '/' || call ? `WHEN bq_bignumeric_cmp(${b}, '0') = 0 THEN ${fail(`'division by zero: ' || ${expr}`)} ` : '';
  return `CASE WHEN ${a} IS NULL OR ${b} IS NULL THEN NULL ${zero}WHEN ${r} IS NULL THEN ${fail(`'BIGNUMERIC overflow: ' || ${expr}`)} ELSE ${r} END`;
}

/** BIGNUMERIC comparison `a op b` (`= <> < <= > >=`): numeric, not textual, order. */
export function bigNumericCompare(a: string, op: string, b: string): string {
  return `(bq_bignumeric_cmp(${a}, ${b}) ${op} 0)`;
}

/** BIGNUMERIC unary minus: `BIGNUMERIC overflow: -(<a>)` past the range (−(−2^255 × 10^-38) does not fit). */
export function bigNumericNegate(c: FnCall): string {
  const a = c.args[0]!;
  const r = `bq_bignumeric_neg(${a})`;
  return `CASE WHEN ${a} IS NULL THEN NULL WHEN ${r} IS NULL THEN ${raise(c, `'BIGNUMERIC overflow: -(' || ${shown(a)} || ')'`)} ELSE ${r} END`;
}

/** BIGNUMERIC SIGN: `-1`, `0` or `1` as BIGNUMERIC text. */
export function bigNumericSign(c: FnCall): string {
  return `CAST(bq_bignumeric_cmp(${c.args[0]}, '0') AS VARCHAR)`;
}

/**
 * BIGNUMERIC ABS: −2^255 × 10^-38, whose opposite does not fit, raises ZetaSQL's
 * `Floating point overflow in function: ABS(<a>)` (the reference evaluator's text, functions/math.h).
 */
export function bigNumericAbs(c: FnCall): string {
  const a = c.args[0]!;
  const r = `bq_bignumeric_neg(${a})`;
  const neg = `CASE WHEN ${r} IS NULL THEN ${raise(c, `'Floating point overflow in function: ABS(' || ${shown(a)} || ')'`)} ELSE ${r} END`;
  return `CASE WHEN ${a} IS NULL THEN NULL WHEN bq_bignumeric_cmp(${a}, '0') < 0 THEN ${neg} ELSE ${a} END`;
}

// ---------------------------------------------------------------- order

/** Integer and fraction digits of a BIGNUMERIC's magnitude: |v| < 2^255 × 10^-38 has at most 39 integer digits. */
const INT_DIGITS = 39;
const FRAC_DIGITS = BIGNUMERIC_SCALE;

/** `body` over `x` with `x`'s SQL text written once (a bare column name is used as is). */
const bound = (x: string, body: (v: string) => string): string => (/^"?[\w$]+"?$/.test(x) ? body(x) : `list_extract(list_transform([${x}], bq_bn -> ${body('bq_bn')}), 1)`);

/**
 * An order-preserving VARCHAR key of a BIGNUMERIC text (NULL for NULL): `1` and the 77 digits of
 * |v| × 10^38 for v ≥ 0, `0` and their nines' complement for v < 0, so that DuckDB's byte-wise
 * VARCHAR order is numeric order (−10 < −1 < 9.5 < 10; BigQuery orders BIGNUMERIC by value, docs
 * "Data types", https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#orderable_data_types).
 * Equal values have equal keys (the stored text is canonical). Pure SQL: cheap in ORDER BY and MIN/MAX.
 */
export function bigNumericSortKey(x: string): string {
  return bound(x, (v) => {
    const digits = `lpad(split_part(ltrim(${v}, '-'), '.', 1), ${INT_DIGITS}, '0') || rpad(split_part(${v}, '.', 2), ${FRAC_DIGITS}, '0')`;
    return `CASE WHEN starts_with(${v}, '-') THEN '0' || translate(${digits}, '0123456789', '9876543210') ELSE '1' || ${digits} END`;
  });
}

/** The BIGNUMERIC canonical text of a {@link bigNumericSortKey} key (NULL for NULL). */
export function bigNumericFromKey(k: string): string {
  return bound(k, (v) => {
    const digits = `CASE WHEN starts_with(${v}, '0') THEN translate(substr(${v}, 2), '0123456789', '9876543210') ELSE substr(${v}, 2) END`;
    return list1(digits, (d) => {
      const int = `coalesce(nullif(ltrim(substr(${d}, 1, ${INT_DIGITS}), '0'), ''), '0')`;
      const frac = `rtrim(substr(${d}, ${INT_DIGITS + 1}), '0')`;
      return `(CASE WHEN starts_with(${v}, '0') THEN '-' ELSE '' END) || ${int} || (CASE WHEN ${frac} = '' THEN '' ELSE '.' || ${frac} END)`;
    });
  });
}

const list1 = (x: string, body: (v: string) => string) => `list_extract(list_transform([${x}], bq_bd -> ${body('bq_bd')}), 1)`;

/** MIN / MAX of a BIGNUMERIC column: the extreme key, decoded (`agg` builds the aggregate call over the key). */
export function bigNumericExtremeAgg(x: string, agg: (key: string) => string): string {
  return bigNumericFromKey(agg(bigNumericSortKey(x)));
}

// ---------------------------------------------------------------- GENERATE_ARRAY

/** ⌊(b − a) / step⌋ of BIGNUMERIC texts (the last element's index), −1 when the series is empty, capped at `cap`. */
export function bigNumericSeriesLast(a: string, b: string, step: string, cap: bigint): bigint {
  const [x, y, s] = [scaledOf(a), scaledOf(b), scaledOf(step)];
  if (s === 0n || (s > 0n && x > y) || (s < 0n && x < y)) return -1n;
  const n = (y - x) / s; // both of one sign: truncation is the floor
  return n > cap ? cap : n;
}

defineUdf('bq_bignumeric_series_last', ['VARCHAR', 'VARCHAR', 'VARCHAR', 'BIGINT'], 'BIGINT', (a, b, s, cap) => bigNumericSeriesLast(a, b, s, cap));

/**
 * GENERATE_ARRAY over BIGNUMERIC (array_functions, GENERATE_ARRAY): `start + i × step` for
 * i = 0 … ⌊(end − start) / step⌋, exact. `zero` and `tooMany` are the lowering's CASE branches
 * for a zero step and for a series longer than `max` elements (checked before any element is built).
 */
export function bigNumericSeries(c: FnCall, max: number, zero: string, tooMany: string): string {
  const [a, b] = [c.args[0]!, c.args[1]!];
  const step = c.args[2] ?? `'1'`;
  const last = `bq_bignumeric_series_last(${a}, ${b}, ${step}, ${max})`;
  const body = `list_transform(range(0, ${last} + 1), i -> bq_bignumeric_op(${a}, '+', bq_bignumeric_op(CAST(i AS VARCHAR), '*', ${step})))`;
  return `CASE WHEN ${a} IS NULL OR ${b} IS NULL OR ${step} IS NULL THEN NULL WHEN bq_bignumeric_cmp(${step}, '0') = 0 THEN ${zero} WHEN ${last} >= ${max} THEN ${tooMany} ELSE ${body} END`;
}
