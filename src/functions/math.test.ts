/**
 * Mathematical functions. Expected values: recorded fixtures standard_functions/math_*, num_*,
 * bound_*, null_*; BigQuery docs (mathematical_functions: ROUND half away from zero, IEEE_DIVIDE,
 * GREATEST/LEAST NULL rule, bit_functions BIT_COUNT example); error texts from ZetaSQL's
 * functions/math.h and arithmetics.h.
 */
import { describe, expect, it } from 'vitest';
import { errorOf, ev, evText, lit, lower, T, text } from './testkit.js';

const f = (name: string, ...xs: (number | string)[]) => ev(name, T.f64, xs.map((x) => lit.f64(x)));

describe('math', () => {
  it('ROUND rounds half away from zero (math_round_half_away, num_round)', async () => {
    expect(await f('round', 2.5)).toBe(3);
    expect(await f('round', 3.5)).toBe(4);
    expect(await f('round', -2.5)).toBe(-3);
    expect(await ev('round', T.f64, [lit.f64(2.675), lit.int(1)])).toBe(2.7);
    expect(await ev('round', T.f64, [lit.f64(123.45), lit.int(-1)])).toBe(120);
    expect(await evText('round', T.num, [lit.num('2.5')])).toBe('3.000000000');
    expect(await evText('round', T.num, [lit.num('-1.235'), lit.int(2)])).toBe('-1.240000000');
    expect(await ev('round', T.f64, [lit.null(T.f64)])).toBe(null);
  });

  it('CEIL/FLOOR/TRUNC/SIGN', async () => {
    expect(await f('ceil', 3.2)).toBe(4);
    expect(await f('ceil', -3.2)).toBe(-3);
    expect(await f('floor', -3.2)).toBe(-4);
    expect(await f('trunc', -3.7)).toBe(-3);
    expect(await ev('trunc', T.f64, [lit.f64(1.59), lit.int(1)])).toBe(1.5);
    expect(await ev('sign', T.int, [lit.int(0)])).toBe(0);
    expect(await ev('sign', T.int, [lit.int(-7)])).toBe(-1);
    expect(await f('sign', 'Infinity')).toBe(1);
    expect(await f('sign', '-Infinity')).toBe(-1);
    expect(await f('sign', 'NaN')).toBeNaN();
    expect(await ev('sign', T.int, [lit.null(T.int)])).toBe(null);
  });

  it('MOD and DIV with BigQuery errors', async () => {
    expect(await ev('mod', T.int, [lit.int(10), lit.int(3)])).toBe(1);
    expect(await ev('mod', T.int, [lit.int(-10), lit.int(3)])).toBe(-1);
    expect(await ev('mod', T.int, [lit.int(9223372036854775807n), lit.int(3)])).toBe(1);
    expect(await ev('mod', T.int, [lit.int(-9223372036854775808n), lit.int(3)])).toBe(-2);
    expect(await ev('mod', T.int, [lit.int(-9223372036854775808n), lit.int(-1)])).toBe(0);
    expect(await ev('mod', T.int, [lit.null(T.int), lit.int(0)])).toBe(null);
    expect(await errorOf(lower('mod', T.int, [lit.int(10), lit.int(0)]))).toBe('division by zero: MOD(10, 0)');
    expect(await evText('mod', T.num, [lit.num('5.5'), lit.num('2')])).toBe('1.500000000');
    expect(await ev('div', T.int, [lit.int(10), lit.int(3)])).toBe(3);
    expect(await ev('div', T.int, [lit.int(-10), lit.int(3)])).toBe(-3);
    expect(await errorOf(lower('div', T.int, [lit.int(10), lit.int(0)]))).toBe('division by zero: 10 / 0');
    expect(await ev('div', T.int, [lit.int(10), lit.int(0)], { safe: true })).toBe(null);
  });

  it('SAFE_ arithmetic (bound_zero_div_safe*, math_safe_*, bound_int64_overflow_safe)', async () => {
    expect(await ev('safe_divide', T.f64, [lit.f64(1), lit.f64(0)])).toBe(null);
    expect(await ev('safe_divide', T.f64, [lit.f64(0), lit.f64(0)])).toBe(null);
    expect(await ev('safe_divide', T.f64, [lit.f64(1), lit.f64(4)])).toBe(0.25);
    expect(await ev('safe_divide', T.f64, [lit.null(T.f64), lit.f64(2)])).toBe(null);
    expect(await ev('safe_divide', T.f64, [lit.f64(1e308), lit.f64(1e-308)])).toBe(null);
    expect(await ev('safe_add', T.int, [lit.int(1), lit.int(2)])).toBe(3);
    expect(await ev('safe_add', T.int, [lit.int(9223372036854775806n), lit.int(1)])).toBe('9223372036854775807');
    expect(await ev('safe_add', T.int, [lit.int(9223372036854775807n), lit.int(1)])).toBe(null);
    expect(await ev('safe_subtract', T.int, [lit.int(5), lit.int(3)])).toBe(2);
    expect(await ev('safe_multiply', T.int, [lit.int(4611686018427387904n), lit.int(2)])).toBe(null);
    expect(await ev('safe_negate', T.int, [lit.int(5)])).toBe(-5);
    expect(await ev('safe_negate', T.int, [lit.int(-9223372036854775808n)])).toBe(null);
    expect(await ev('safe_add', T.f64, [lit.f64(1.7e308), lit.f64(1.7e308)])).toBe(null);
  });

  it('POW, SQRT, EXP, LN, LOG, LOG10 (num_*, math_power_fractional, bound_neg_log_safe)', async () => {
    expect(await f('pow', 16, 0.5)).toBe(4);
    expect(await f('pow', 2, 10)).toBe(1024);
    expect(await errorOf(lower('pow', T.f64, [lit.f64(0), lit.f64(-1)]))).toBe('Floating point error in function: POW(0, -1)');
    expect(await errorOf(lower('pow', T.f64, [lit.f64(-8), lit.f64(0.5)]))).toBe('Floating point error in function: POW(-8, 0.5)');
    expect(await f('sqrt', 16)).toBe(4);
    expect(await errorOf(lower('sqrt', T.f64, [lit.f64(-1)]))).toBe('Argument to SQRT cannot be negative: -1');
    expect(await ev('sqrt', T.f64, [lit.null(T.f64)])).toBe(null);
    expect(await f('sqrt', 'Infinity')).toBe(Infinity);
    expect(await f('ln', Math.E)).toBe(1);
    expect(await errorOf(lower('ln', T.f64, [lit.f64(-1)]))).toBe('Floating point error in function: LN(-1)');
    expect(await errorOf(lower('ln', T.f64, [lit.f64(0)]))).toBe('Floating point error in function: LN(0)');
    expect(await ev('ln', T.f64, [lit.f64(-1)], { safe: true })).toBe(null);
    expect(await f('ln', 'Infinity')).toBe(Infinity);
    expect(await f('log10', 1000)).toBe(3);
    expect(await f('log', 100, 10)).toBe(2);
    expect(await errorOf(lower('log', T.f64, [lit.f64(10), lit.f64(1)]))).toBe('Floating point error in function: LOG(10, 1)');
    expect(await f('exp', 0)).toBe(1);
    expect(await errorOf(lower('exp', T.f64, [lit.f64(1000)]))).toBe('Floating point error in function: EXP(1000)');
    expect(await f('exp', '-Infinity')).toBe(0);
  });

  it('trigonometry (math_* fixtures, rounded)', async () => {
    const r = async (name: string, x: number, d = 6) => Number(((await f(name, x)) as number).toFixed(d));
    expect(await r('acos', 1, 12)).toBe(0);
    expect(await r('asin', 1, 12)).toBe(1.570796326795);
    expect(await r('atan', 1, 12)).toBe(0.785398163397);
    expect(await r('cot', -1)).toBe(-0.642093);
    expect(await r('coth', 1)).toBe(1.313035);
    expect(await r('csc', 1)).toBe(1.188395);
    expect(await r('csc', -1.5)).toBe(-1.002511);
    expect(await r('csch', -2)).toBe(-0.275721);
    expect(await r('sec', -1)).toBe(1.850816);
    expect(await r('sech', 1)).toBe(0.648054);
    expect(await r('cosh', 0)).toBe(1);
    expect(await r('sinh', 0)).toBe(0);
    expect(await r('tanh', 0)).toBe(0);
    expect(await r('atanh', 0)).toBe(0);
    expect(await r('acosh', 1)).toBe(0);
    expect(await r('cbrt', -8)).toBe(-2);
    expect(await errorOf(lower('acos', T.f64, [lit.f64(2)]))).toBe('Floating point error in function: ACOS(2)');
    expect(await errorOf(lower('cot', T.f64, [lit.f64(0)]))).toBe('Floating point error in function: COT(0)');
    expect(await errorOf(lower('cosh', T.f64, [lit.f64(1000)]))).toBe('Floating point overflow in function: COSH(1000)');
    expect(await f('sin', 'Infinity')).toBeNaN();
  });

  it('GREATEST/LEAST return NULL for any NULL argument (num_least)', async () => {
    expect(await ev('least', T.int, [lit.int(1), lit.int(5), lit.int(3)])).toBe(1);
    expect(await ev('greatest', T.int, [lit.int(1), lit.int(5), lit.int(3)])).toBe(5);
    expect(await ev('greatest', T.int, [lit.int(1), lit.null(T.int)])).toBe(null);
    expect(await ev('least', T.f64, [lit.f64(1), lit.f64('NaN')])).toBeNaN();
    expect(await ev('greatest', T.str, [lit.str('a'), lit.str('b')])).toBe('b');
  });

  it('IEEE_DIVIDE, IS_INF, IS_NAN, RANGE_BUCKET', async () => {
    expect(await f('ieee_divide', 1, 0)).toBe(Infinity);
    expect(await f('ieee_divide', -1, 0)).toBe(-Infinity);
    expect(await f('ieee_divide', 0, 0)).toBeNaN();
    expect(await f('ieee_divide', 1, 4)).toBe(0.25);
    expect(await ev('is_inf', T.bool, [lit.f64('Infinity')])).toBe(true);
    expect(await ev('is_inf', T.bool, [lit.f64(1)])).toBe(false);
    expect(await ev('is_nan', T.bool, [lit.f64('NaN')])).toBe(true);
    expect(await ev('range_bucket', T.int, [lit.int(20), lit.ints(0, 10, 20, 30, 40)])).toBe(3);
    expect(await ev('range_bucket', T.int, [lit.int(25), lit.ints(0, 10, 20, 30, 40)])).toBe(3);
    expect(await ev('range_bucket', T.int, [lit.int(-10), lit.ints(5, 10, 20, 30, 40)])).toBe(0);
    expect(await ev('range_bucket', T.int, [lit.int(80), lit.ints(0, 10, 20, 30, 40)])).toBe(5);
    expect(await ev('range_bucket', T.int, [lit.int(15), lit.ints()])).toBe(0);
    expect(await ev('range_bucket', T.int, [lit.null(T.int), lit.ints(10, 20, 30)])).toBe(null);
  });

  it('BIT_COUNT and bitwise operators (bit_functions docs example)', async () => {
    expect(await ev('bit_count', T.int, [lit.int(7)])).toBe(3);
    expect(await ev('bit_count', T.int, [lit.int(-2)])).toBe(63);
    expect(await ev('bit_count', T.int, [lit.int(-1)])).toBe(64);
    expect(await ev('bit_count', T.int, [lit.hex('0008')])).toBe(1);
    expect(await ev('bit_count', T.int, [lit.hex('')])).toBe(0);
    expect(await ev('bit_count', T.int, [lit.hex('FFFFFFFFFFFFFFFFFFFF')])).toBe(80);
    expect(await ev('$bitwise_left_shift', T.int, [lit.int(1), lit.int(63)])).toBe('-9223372036854775808');
    expect(await ev('$bitwise_left_shift', T.int, [lit.int(1), lit.int(64)])).toBe(0);
    expect(await ev('$bitwise_right_shift', T.int, [lit.int(-1), lit.int(1)])).toBe('9223372036854775807');
    expect(await ev('$bitwise_right_shift', T.int, [lit.int(16), lit.int(2)])).toBe(4);
    expect(await ev('$bitwise_xor', T.int, [lit.int(5), lit.int(3)])).toBe(6);
  });

  it('random and uuid are typed', async () => {
    const r = (await ev('rand', T.f64, [])) as number;
    expect(r >= 0 && r < 1).toBe(true);
    expect(String(await text(lower('generate_uuid', T.str, [])))).toMatch(/^[0-9a-f-]{36}$/);
  });
});
