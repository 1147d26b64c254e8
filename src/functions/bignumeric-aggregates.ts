/**
 * BIGNUMERIC SUM, AVG and rounding (ROUND, TRUNC, CEIL, FLOOR). BIGNUMERIC is stored as canonical
 * decimal text (src/types/duckdb-types.ts), which DuckDB cannot add or round, so:
 *
 * - SUM / AVG split each value × 10^38 (at most 77 digits) into three signed HUGEINT chunks of at
 *   most 26 digits, sum each chunk in DuckDB (exact for up to 10^12 rows, and windowable), and
 *   join the chunk sums in a BigInt UDF; SUM(DISTINCT) / AVG(DISTINCT) collect the distinct texts
 *   instead. A sum past BIGNUMERIC's range raises ZetaSQL's `BIGNUMERIC overflow: SUM`; AVG is the
 *   exact mean rounded half away from zero to 38 digits (checked against the ZetaSQL reference
 *   evaluator by the differential suite, test/differential/families-numbers.ts).
 * - ROUND / TRUNC / CEIL / FLOOR run on value × 10^38 in a BigInt UDF; a result past the range
 *   raises `BIGNUMERIC overflow: CEIL(<x>)` (the reference evaluator's text).
 *
 * BigQuery: BIGNUMERIC has scale 38 and range [-2^255, 2^255-1] × 10^-38
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#decimal_types); SUM and
 * AVG of BIGNUMERIC return BIGNUMERIC
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/aggregate_functions#sum).
 */
import { BIGNUMERIC_MAX_SCALED, BIGNUMERIC_MIN_SCALED, BIGNUMERIC_SCALE, divRoundHalfAway, parseScaled, scaledToText } from '../types/decimal.js';
import { defineUdf } from './builtin-udfs.js';
import { aggregate, raise, type FnCall } from './registry.js';

const fits = (v: bigint) => v <= BIGNUMERIC_MAX_SCALED && v >= BIGNUMERIC_MIN_SCALED;
const scaledOf = (text: string): bigint => parseScaled(text.trim(), BIGNUMERIC_SCALE) ?? 0n;

/** Digits of |v| × 10^38, split at these (1-based start, length): 25 + 26 + 26 = 39 + 38. */
const CHUNKS: [number, number, bigint][] = [
  [1, 25, 10n ** 52n],
  [26, 26, 10n ** 26n],
  [52, 26, 1n],
];

/** Sum (`n` < 0) or mean over `n` rows of the chunk sums: canonical text, or null past the range. */
export function bigNumericTotal(sums: string[], n: bigint): string | null {
  const total = sums.reduce((acc, s, i) => acc + BigInt(s) * CHUNKS[i]![2], 0n);
  const v = n < 0n ? total : divRoundHalfAway(total, n);
  return fits(v) ? scaledToText(v, BIGNUMERIC_SCALE) : null;
}

/** Sum (`avg` false) or mean of space-separated BIGNUMERIC texts: canonical text, or null past the range. */
export function bigNumericTextTotal(texts: string, avg: boolean): string | null {
  const xs = texts.split(' ').filter(Boolean);
  if (!xs.length) return null;
  const total = xs.reduce((acc, x) => acc + scaledOf(x), 0n);
  const v = avg ? divRoundHalfAway(total, BigInt(xs.length)) : total;
  return fits(v) ? scaledToText(v, BIGNUMERIC_SCALE) : null;
}

defineUdf('bq_bignumeric_total', ['VARCHAR', 'VARCHAR', 'VARCHAR', 'BIGINT'], 'VARCHAR', (a, b, c, n) => bigNumericTotal([a, b, c], n));
defineUdf('bq_bignumeric_text_total', ['VARCHAR', 'BOOLEAN'], 'VARCHAR', (t, avg) => bigNumericTextTotal(t, avg));

/** One signed HUGEINT chunk of a BIGNUMERIC text `x` (a column or expression). */
function chunk(x: string, [start, len]: [number, number, bigint]): string {
  const digits = `lpad(split_part(ltrim(${x}, '-'), '.', 1), 39, '0') || rpad(split_part(${x}, '.', 2), ${BIGNUMERIC_SCALE}, '0')`;
  return `(CAST(substr(${digits}, ${start}, ${len}) AS HUGEINT) * CASE WHEN starts_with(${x}, '-') THEN -1 ELSE 1 END)`;
}

/**
 * SUM / AVG of BIGNUMERIC (`c.args[0]` its text): NULL over no non-NULL row; SUM past the range
 * raises `BIGNUMERIC overflow: SUM` (NULL under SAFE).
 */
export function bigNumericSumAvg(c: FnCall, avg: boolean): string {
  const x = c.args[0]!;
  let total: string;
  let empty: string;
  if (c.distinct) {
    const texts = `array_to_string(${aggregate('list', c, [x], `${x} IS NOT NULL`)}, ' ')`;
    total = `bq_bignumeric_text_total(${texts}, ${avg})`;
    empty = `${aggregate('count', c, [x])} = 0`;
  } else {
    const sums = CHUNKS.map((ch) => `CAST(${aggregate('sum', c, [chunk(x, ch)])} AS VARCHAR)`);
    const n = avg ? aggregate('count', c, [x]) : '-1';
    total = `bq_bignumeric_total(${sums.join(', ')}, ${n})`;
    empty = `${sums[0]} IS NULL`;
  }
  return `CASE WHEN ${empty} THEN NULL WHEN ${total} IS NULL THEN ${raise(c, `'BIGNUMERIC overflow: ${avg ? 'AVG' : 'SUM'}'`)} ELSE ${total} END`;
}

/**
 * ARRAY_SUM / ARRAY_AVG of an ARRAY<BIGNUMERIC> (`c.args[0]`): NULL elements skipped, NULL when
 * none is left; a sum past the range raises `BIGNUMERIC overflow: SUM` (NULL under SAFE).
 */
export function bigNumericArrayTotal(c: FnCall, avg: boolean): string {
  const a = c.args[0]!;
  const texts = `array_to_string(list_filter(${a}, v -> v IS NOT NULL), ' ')`;
  const total = `bq_bignumeric_text_total(${texts}, ${avg})`;
  return `CASE WHEN ${a} IS NULL OR len(list_filter(${a}, v -> v IS NOT NULL)) = 0 THEN NULL WHEN ${total} IS NULL THEN ${raise(c, `'BIGNUMERIC overflow: ${avg ? 'AVG' : 'SUM'}'`)} ELSE ${total} END`;
}

// ---------------------------------------------------------------- rounding

/** Rounding of value × 10^38 to `digits` fraction digits by `mode`; null past the range. */
export function bigNumericRound(x: string, digits: bigint, mode: string): string | null {
  const v = scaledOf(x);
  if (digits >= BigInt(BIGNUMERIC_SCALE)) return scaledToText(v, BIGNUMERIC_SCALE);
  // Beyond 10^77 every value rounds to 0 (|v| < 2^255 × 10^-38 < 10^39).
  const drop = digits < -40n ? 78n : BigInt(BIGNUMERIC_SCALE) - digits;
  const unit = 10n ** drop;
  const t = v / unit; // toward zero
  const rest = v - t * unit;
  let q = t;
  if (mode === 'FLOOR' && rest < 0n) q = t - 1n;
  else if (mode === 'CEIL' && rest > 0n) q = t + 1n;
  else if (mode === 'ROUND' || mode === 'ROUND_HALF_EVEN') {
    const twice = 2n * (rest < 0n ? -rest : rest);
    const away = twice > unit || (twice === unit && (mode === 'ROUND' || t % 2n !== 0n));
    if (away) q = v < 0n ? t - 1n : t + 1n;
  }
  const r = q * unit;
  return fits(r) ? scaledToText(r, BIGNUMERIC_SCALE) : null;
}

defineUdf('bq_bignumeric_round', ['VARCHAR', 'BIGINT', 'VARCHAR'], 'VARCHAR', (x, d, mode) => bigNumericRound(x, d, mode));

/**
 * ROUND / TRUNC / CEIL / FLOOR of BIGNUMERIC (`c.args[0]`, `c.args[1]` the digits when given;
 * `mode` ROUND, ROUND_HALF_EVEN, TRUNC, CEIL or FLOOR). NULL in → NULL out; past the range
 * `BIGNUMERIC overflow: <FN>(<x>[, <digits>])` (NULL under SAFE).
 */
export function bigNumericRounding(c: FnCall, mode: string): string {
  const [x, d] = [c.args[0]!, c.args[1]];
  const r = `bq_bignumeric_round(${x}, ${d ?? '0'}, '${mode}')`;
  const fn = mode === 'ROUND_HALF_EVEN' ? 'ROUND' : mode;
  const shown = `'${fn}(' || ${x}${d === undefined ? '' : ` || ', ' || CAST(${d} AS VARCHAR)`} || ')'`;
  return `CASE WHEN ${x} IS NULL${d === undefined ? '' : ` OR ${d} IS NULL`} THEN NULL WHEN ${r} IS NULL THEN ${raise(c, `'BIGNUMERIC overflow: ' || ${shown}`)} ELSE ${r} END`;
}
