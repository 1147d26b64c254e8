import { describe, expect, it } from 'vitest';
import { BIGNUMERIC_MAX_SCALED, BIGNUMERIC_MIN_SCALED, normalizeBigNumeric, normalizeNumeric, parseScaled, scaledToText } from './decimal.js';

describe('scaledToText', () => {
  it('prints canonical decimal text', () => {
    expect(scaledToText(1_500_000_000n, 9)).toBe('1.5');
    expect(scaledToText(-1n, 9)).toBe('-0.000000001');
    expect(scaledToText(3_000_000_000n, 9)).toBe('3');
    expect(scaledToText(0n, 9)).toBe('0');
    expect(scaledToText(10n ** 38n - 1n, 9)).toBe('99999999999999999999999999999.999999999');
    expect(scaledToText(12n, 0)).toBe('12');
  });
});

describe('parseScaled', () => {
  it('accepts signs, exponents and bare fractions', () => {
    expect(parseScaled('+1.25', 2)).toBe(125n);
    expect(parseScaled('.5', 1)).toBe(5n);
    expect(parseScaled('5.', 0)).toBe(5n);
    expect(parseScaled('1.5E-3', 9)).toBe(1_500_000n);
    expect(parseScaled('1e3', 0)).toBe(1000n);
  });
  it('rounds half away from zero (GoogleSQL CAST to NUMERIC)', () => {
    expect(parseScaled('1.0000000005', 9)).toBe(1_000_000_001n);
    expect(parseScaled('-1.0000000005', 9)).toBe(-1_000_000_001n);
    expect(parseScaled('1.0000000004999', 9)).toBe(1_000_000_000n);
  });
  it('rejects non-decimals', () => {
    for (const s of ['', '.', 'abc', '1,5', '1.2.3', ' 1', 'NaN', '0x10']) expect(parseScaled(s, 9)).toBeNull();
  });
});

describe('NUMERIC and BIGNUMERIC ranges', () => {
  it('normalizes NUMERIC and rejects values past 38 digits', () => {
    expect(normalizeNumeric('123.456789012')).toBe('123.456789012');
    expect(normalizeNumeric('-0.0')).toBe('0');
    expect(normalizeNumeric('99999999999999999999999999999.999999999')).toBe('99999999999999999999999999999.999999999');
    expect(normalizeNumeric('100000000000000000000000000000')).toBeNull();
    expect(normalizeNumeric('1e28')).toBe('10000000000000000000000000000');
  });
  it('normalizes BIGNUMERIC within [-2^255, 2^255-1] × 10^-38', () => {
    const max = scaledToText(BIGNUMERIC_MAX_SCALED, 38);
    expect(max).toBe('578960446186580977117854925043439539266.34992332820282019728792003956564819967');
    expect(normalizeBigNumeric(max)).toBe(max);
    expect(normalizeBigNumeric(scaledToText(BIGNUMERIC_MIN_SCALED, 38))).toBe('-578960446186580977117854925043439539266.34992332820282019728792003956564819968');
    expect(normalizeBigNumeric('578960446186580977117854925043439539267')).toBeNull();
    expect(normalizeBigNumeric('0.000000000000000000000000000000000000015')).toBe('0.00000000000000000000000000000000000002');
  });
});
