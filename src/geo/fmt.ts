/**
 * Number text as BigQuery writes geography coordinates (WKT, GeoJSON): C's `%.15g` — 15
 * significant digits, trailing zeros dropped, exponent form (`4.76633008714216e-06`) when the
 * decimal exponent is below -4 or at least 15.
 */
export function g15(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mant, expText] = x.toExponential(14).split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 15) {
    const m = mant.includes('.') ? mant.replace(/0+$/, '').replace(/\.$/, '') : mant;
    const e = Math.abs(exp);
    return `${m}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  const fixed = x.toFixed(14 - exp);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}
