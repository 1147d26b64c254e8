/**
 * Exact NUMERIC `*`, `/` and DIV (docs/ARCHITECTURE.md §4, NUMERIC: DuckDB's DECIMAL(38,9) `*` overflows its
 * scale-18 intermediate above 1e20, and DECIMAL `/` is computed in DOUBLE). GoogleSQL NUMERIC is
 * 38 digits with scale 9; products and quotients are rounded half away from zero to 9 digits, and
 * results beyond ±99999999999999999999999999999.999999999 raise
 * `numeric overflow: 99999999999999999999999999999 * 10` (ZetaSQL's NumericValue text, the same
 * for `/` and `DIV(a, b)`; found by the differential suite against the ZetaSQL reference).
 *
 * The arithmetic runs in JavaScript BigInt UDFs over DuckDB's decimal text; a UDF answers NULL on
 * overflow and the lowering turns that into the error (or NULL under SAFE / SAFE_*).
 */
import { defineUdf } from './builtin-udfs.js';
import { raise, type FnCall } from './registry.js';
import { divRoundHalfAway } from '../types/decimal.js';

const SCALE = 10n ** 9n;
const MAX_SCALED = 10n ** 38n - 1n;

/** DuckDB DECIMAL(38,9) text (`-12.500000000`) → value × 10^9. */
function scaledOf(text: string): bigint {
  const neg = text.startsWith('-');
  const [int, frac = ''] = (neg ? text.slice(1) : text).split('.');
  const v = BigInt(int || '0') * SCALE + BigInt((frac + '000000000').slice(0, 9) || '0');
  return neg ? -v : v;
}

/** value × 10^9 → decimal text DuckDB casts back exactly. */
function textOf(v: bigint): string {
  const neg = v < 0n;
  const a = neg ? -v : v;
  return `${neg ? '-' : ''}${a / SCALE}.${String(a % SCALE).padStart(9, '0')}`;
}

const fits = (v: bigint) => v <= MAX_SCALED && v >= -MAX_SCALED;

defineUdf('bq_numeric_mul', ['VARCHAR', 'VARCHAR'], 'VARCHAR', (a, b) => {
  const p = divRoundHalfAway(scaledOf(a) * scaledOf(b), SCALE);
  return fits(p) ? textOf(p) : null;
});

defineUdf('bq_numeric_div', ['VARCHAR', 'VARCHAR'], 'VARCHAR', (a, b) => {
  const d = scaledOf(b);
  if (d === 0n) return null;
  const q = divRoundHalfAway(scaledOf(a) * SCALE, d);
  return fits(q) ? textOf(q) : null;
});

defineUdf('bq_numeric_intdiv', ['VARCHAR', 'VARCHAR'], 'VARCHAR', (a, b) => {
  const d = scaledOf(b);
  if (d === 0n) return null;
  const q = (scaledOf(a) / d) * SCALE; // BigInt division truncates toward zero, as DIV does
  return fits(q) ? textOf(q) : null;
});

defineUdf('bq_numeric_round_even', ['VARCHAR', 'BIGINT'], 'VARCHAR', (a, digits) => {
  const v = scaledOf(a);
  if (digits >= 9n) return textOf(v);
  if (digits < -29n) return textOf(0n);
  const unit = 10n ** (9n - digits);
  const sign = v < 0n ? -1n : 1n;
  const q = v / unit; // truncated toward zero
  const twice = 2n * (v - q * unit) * sign;
  const up = twice > unit || (twice === unit && q % 2n !== 0n);
  const r = (up ? q + sign : q) * unit;
  return fits(r) ? textOf(r) : null;
});

/**
 * NUMERIC ROUND(x, digits, 'ROUND_HALF_EVEN'), exact (DuckDB's round_even goes through DOUBLE for
 * large decimals). Overflow (rounding up past the maximum) raises `numeric overflow`.
 */
export function numericRoundHalfEven(c: FnCall): string {
  const [x, n] = c.args;
  const digits = n ?? '0';
  const r = `bq_numeric_round_even(${dec(x!)}, CAST(${digits} AS BIGINT))`;
  return `CASE WHEN ${x} IS NULL OR ${digits} IS NULL THEN NULL WHEN ${r} IS NULL THEN ${raise(c, `'numeric overflow: ROUND(' || ${shown(x!)} || ')'`)} ELSE CAST(${r} AS DECIMAL(38,9)) END`;
}

/** Error-message text of a NUMERIC operand (no trailing zeros), as ZetaSQL prints it. */
const shown = (x: string) => `regexp_replace(regexp_replace(CAST(${x} AS VARCHAR), '(\\.[0-9]*?)0+$', '\\1'), '\\.$', '')`;
const dec = (x: string) => `CAST(CAST(${x} AS DECIMAL(38,9)) AS VARCHAR)`;

/**
 * Exact NUMERIC `a op b` (op `*`, `/`, or `DIV`); the divisor is known non-zero here (the callers
 * raise `division by zero` first). NULL in → NULL out; overflow raises unless `nullOnOverflow`
 * (SAFE_MULTIPLY / SAFE_DIVIDE) or the call is SAFE.
 */
export function exactNumeric(c: FnCall, op: '*' | '/' | 'DIV', nullOnOverflow = false): string {
  const [a, b] = c.args;
  const udf = op === '*' ? 'bq_numeric_mul' : op === '/' ? 'bq_numeric_div' : 'bq_numeric_intdiv';
  const r = `${udf}(${dec(a!)}, ${dec(b!)})`;
  const text = op === 'DIV' ? `'numeric overflow: DIV(' || ${shown(a!)} || ', ' || ${shown(b!)} || ')'` : `'numeric overflow: ' || ${shown(a!)} || ' ${op} ' || ${shown(b!)}`;
  const overflow = nullOnOverflow ? 'NULL' : raise(c, text);
  return `CASE WHEN ${a} IS NULL OR ${b} IS NULL THEN NULL WHEN ${r} IS NULL THEN ${overflow} ELSE CAST(${r} AS DECIMAL(38,9)) END`;
}
