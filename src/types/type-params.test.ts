/**
 * NUMERIC/BIGNUMERIC precision and scale (src/types/type-params.ts). Expected values: the
 * TableFieldSchema.roundingMode enum descriptions of the discovery document (scale 0: 1.1–1.4 ⇒ 1,
 * 1.5–1.9 ⇒ 2; ROUND_HALF_EVEN: 1.5 ⇒ 2, 2.5 ⇒ 2), TableFieldSchema.precision's ranges
 * ([-10^(P-S) + 10^-S, 10^(P-S) - 10^-S]) and the ZetaSQL compliance text for NUMERIC(5).
 */
import { describe, expect, it } from 'vitest';
import { applyNumericParams, paramBound, paramTypeText, paramsFromField } from './type-params.js';

const round = (v: string, precision: number, scale?: number, roundingMode?: string) => applyNumericParams(v, 'NUMERIC', { precision, scale, roundingMode });

describe('applyNumericParams', () => {
  it('rounds half away from zero by default', () => {
    expect(['1.1', '1.4', '1.5', '1.9'].map((v) => round(v, 5))).toEqual(['1', '1', '2', '2']);
    expect(round('-1.5', 5)).toBe('-2');
    expect(round('1.005', 5, 2)).toBe('1.01');
    expect(round('-0.004', 5, 2)).toBe('0');
    expect(round('1.5e1', 5)).toBe('15');
    expect(round('12.50000', 5, 1)).toBe('12.5');
  });

  it('ROUND_HALF_EVEN rounds exact halves to the even neighbour', () => {
    expect(['1.5', '2.5', '1.6', '2.51'].map((v) => round(v, 5, 0, 'ROUND_HALF_EVEN'))).toEqual(['2', '2', '2', '3']);
  });

  it('checks the range after rounding', () => {
    expect(round('999.994', 5, 2)).toBe('999.99');
    expect(() => round('999.995', 5, 2)).toThrow('NUMERIC(5, 2) has precision 5 and scale 2 but got a value that is not in range of [-999.99, 999.99]');
    expect(() => round('123456', 5)).toThrow('NUMERIC(5) has precision 5 and scale 0 but got a value that is not in range of [-99999, 99999]');
  });
});

describe('parameter texts and REST validation', () => {
  it('spells types and bounds', () => {
    expect(paramTypeText('STRING', { maxLength: 10 })).toBe('STRING(10)');
    expect(paramTypeText('NUMERIC', { precision: 9 })).toBe('NUMERIC(9)');
    expect(paramBound(5, 2)).toBe('999.99');
  });

  it('accepts the documented ranges and rejects the rest', () => {
    expect(paramsFromField({ name: 'n', precision: '38', scale: '9' }, { kind: 'NUMERIC' })).toEqual({ precision: 38, scale: 9 });
    expect(paramsFromField({ name: 'n', precision: '76', scale: '38' }, { kind: 'BIGNUMERIC' })).toEqual({ precision: 76, scale: 38 });
    expect(() => paramsFromField({ name: 'n', precision: '39', scale: '9' }, { kind: 'NUMERIC' })).toThrow();
    expect(() => paramsFromField({ name: 'n', precision: '10', scale: '10' }, { kind: 'NUMERIC' })).toThrow();
    expect(() => paramsFromField({ name: 's', maxLength: '0' }, { kind: 'STRING' })).toThrow();
    expect(paramsFromField({ name: 's', maxLength: '3' }, { kind: 'ARRAY', element: { kind: 'STRING' } })).toEqual({ maxLength: 3 });
  });
});
