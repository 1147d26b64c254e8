/**
 * Exact decimal text for NUMERIC and BIGNUMERIC domain values.
 *
 * GoogleSQL (https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#decimal_types):
 * NUMERIC has precision 38 and scale 9 (|v| ≤ 99999999999999999999999999999.999999999); BIGNUMERIC
 * has scale 38 and range [-2^255, 2^255-1] × 10^-38. Converting text with more fractional digits
 * rounds half away from zero, as `CAST(... AS NUMERIC)` does. The canonical text (the domain value
 * and the REST cell) has no exponent, no `+`, no trailing fractional zeros and no trailing dot.
 */

export const NUMERIC_SCALE = 9;
export const BIGNUMERIC_SCALE = 38;
export const NUMERIC_MAX_SCALED = 10n ** 38n - 1n;
export const BIGNUMERIC_MAX_SCALED = 2n ** 255n - 1n;
export const BIGNUMERIC_MIN_SCALED = -(2n ** 255n);

const DECIMAL_RE = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** n / d rounded half away from zero (d ≠ 0): the rounding of NUMERIC and BIGNUMERIC division. */
export function divRoundHalfAway(n: bigint, d: bigint): bigint {
  const neg = n < 0n !== d < 0n;
  const [an, ad] = [n < 0n ? -n : n, d < 0n ? -d : d];
  const t = an / ad;
  const q = 2n * (an - t * ad) >= ad ? t + 1n : t;
  return neg ? -q : q;
}

/** Canonical decimal text of `value × 10^-scale`. */
export function scaledToText(value: bigint, scale: number): string {
  const neg = value < 0n;
  let digits = (neg ? -value : value).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    const intPart = digits.slice(0, digits.length - scale);
    const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
    digits = frac ? `${intPart}.${frac}` : intPart;
  } else if (scale < 0) {
    digits = value === 0n ? '0' : digits + '0'.repeat(-scale);
  }
  return neg && digits !== '0' ? '-' + digits : digits;
}

/**
 * Parses decimal text (`[+-]digits[.digits][e[+-]n]`, at least one digit) into `value × 10^scale`,
 * rounding half away from zero. Returns null on a syntax error (no range check).
 */
export function parseScaled(text: string, scale: number): bigint | null {
  const m = DECIMAL_RE.exec(text);
  if (!m) return null;
  const intDigits = m[2] ?? '';
  const fracDigits = m[3] ?? '';
  if (intDigits === '' && fracDigits === '') return null;
  const exp = m[4] === undefined ? 0 : Number(m[4]);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 10_000) return null;
  // All digits as one integer, with the decimal point `shift` places from the right after scaling.
  const all = (intDigits + fracDigits).replace(/^0+(?=\d)/, '');
  const shift = scale + exp - fracDigits.length; // value = all × 10^shift
  let result: bigint;
  if (shift >= 0) result = BigInt(all) * 10n ** BigInt(shift);
  else {
    const cut = -shift;
    if (cut > all.length) result = 0n;
    else {
      const keep = all.slice(0, all.length - cut);
      const firstDropped = all[all.length - cut];
      result = BigInt(keep === '' ? '0' : keep);
      if (firstDropped >= '5') result += 1n;
    }
  }
  return m[1] === '-' ? -result : result;
}

/** Canonical NUMERIC text, or null if `text` is not a decimal or out of NUMERIC range. */
export function normalizeNumeric(text: string): string | null {
  const v = parseScaled(text, NUMERIC_SCALE);
  if (v === null || v > NUMERIC_MAX_SCALED || v < -NUMERIC_MAX_SCALED) return null;
  return scaledToText(v, NUMERIC_SCALE);
}

/** Canonical BIGNUMERIC text, or null if `text` is not a decimal or out of BIGNUMERIC range. */
export function normalizeBigNumeric(text: string): string | null {
  const v = parseScaled(text, BIGNUMERIC_SCALE);
  if (v === null || v > BIGNUMERIC_MAX_SCALED || v < BIGNUMERIC_MIN_SCALED) return null;
  return scaledToText(v, BIGNUMERIC_SCALE);
}

/** Shortest decimal text of a finite JS number that parseScaled accepts (`1e+21` → `1e21`). */
export function numberToDecimalText(n: number): string {
  return String(n).replace('e+', 'e');
}
