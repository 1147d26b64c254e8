/**
 * CAST / SAFE_CAST, PARSE_NUMERIC / PARSE_BIGNUMERIC and FORMAT. Expected values: recorded
 * fixtures standard_functions/cast_*, safe_cast_invalid, error_type_cast_str_to_date_invalid,
 * parse_*numeric_basic, str_format_*; BigQuery docs (conversion_functions, FORMAT %t/%T,
 * string_functions lpad-5, bit_functions bit-count-1 FORMAT("%T", bytes)).
 */
import { describe, expect, it } from 'vitest';
import { errorOf, ev, evText, lit, lower, T } from './testkit.js';
import type { Arg } from './testkit.js';

const cast = (x: Arg, to: Parameters<typeof ev>[1], safe = false) => lower('$cast', to, [x], { safe });

describe('CAST', () => {
  it('to STRING (cast_int_to_str, FLOAT64 round trip, BOOL, TIMESTAMP, INTERVAL)', async () => {
    const str = (x: Arg) => ev('$cast', T.str, [x]);
    expect(await str(lit.int(42))).toBe('42');
    expect(await str(lit.f64(1))).toBe('1');
    expect(await str(lit.f64(0.1))).toBe('0.1');
    expect(await str(lit.f64(1e20))).toBe('1e+20');
    expect(await str(lit.f64(1e15))).toBe('1e+15');
    expect(await str(lit.f64(123456789012345))).toBe('123456789012345');
    expect(await str(lit.f64(0.00001))).toBe('1e-05');
    expect(await str(lit.f64(0.1 + 0.2))).toBe('0.30000000000000004');
    expect(await str(lit.f64('Infinity'))).toBe('inf');
    expect(await str(lit.f64('-Infinity'))).toBe('-inf');
    expect(await str(lit.f64('NaN'))).toBe('nan');
    expect(await str(lit.num('1.500000000'))).toBe('1.5');
    expect(await str(lit.num('100'))).toBe('100');
    expect(await str(lit.bool(true))).toBe('true');
    expect(await str(lit.bytes('héllo'))).toBe('héllo');
    expect(await str(lit.ts('2008-12-25 15:30:00+00'))).toBe('2008-12-25 15:30:00+00');
    expect(await str(lit.dt('2008-12-25 15:30:00'))).toBe('2008-12-25 15:30:00');
    expect(await str(lit.sql(`INTERVAL 3 DAY`, T.interval))).toBe('0-0 3 0:0:0');
  });

  it('from STRING (cast_str_to_*, safe_cast_invalid, error_type_cast_str_to_date_invalid)', async () => {
    expect(await ev('$cast', T.int, [lit.str('42')])).toBe(42);
    expect(await ev('$cast', T.int, [lit.str(' -0x1A ')])).toBe(-26);
    expect(await errorOf(cast(lit.str('abc'), T.int))).toBe('Bad int64 value: abc');
    expect(await errorOf(cast(lit.str('1.5'), T.int))).toBe('Bad int64 value: 1.5');
    expect(await ev('$cast', T.int, [lit.str('not_a_number')], { safe: true })).toBe(null);
    expect(await ev('$cast', T.int, [lit.null(T.str)])).toBe(null);
    expect(await evText('$cast', T.num, [lit.str('123.456')])).toBe('123.456000000');
    expect(await ev('$cast', T.f64, [lit.str('-inf')])).toBe(-Infinity);
    expect(await errorOf(cast(lit.str('x1'), T.f64))).toBe('Bad double value: x1');
    expect(await ev('$cast', T.bool, [lit.str('TRUE')])).toBe(true);
    expect(await errorOf(cast(lit.str('yes'), T.bool))).toBe('Bad bool value: yes');
    expect(await evText('$cast', T.date, [lit.str('2024-01-15')])).toBe('2024-01-15');
    expect(await errorOf(cast(lit.str('not-a-date'), T.date))).toBe("Invalid date: 'not-a-date'");
    expect(await evText('$cast', T.ts, [lit.str('2024-01-15 10:00:00 America/New_York')])).toBe('2024-01-15 15:00:00+00');
    expect(await evText('$cast', T.dt, [lit.str('2024-01-15T10:00:00')])).toBe('2024-01-15 10:00:00');
    expect(await evText('$cast', T.bytes, [lit.str('hi')])).toBe('6869');
  });

  it('numeric narrowing rounds half away from zero (cast_int_to_float)', async () => {
    expect(await ev('$cast', T.f64, [lit.int(7)])).toBe(7);
    expect(await ev('$cast', T.int, [lit.f64(2.5)])).toBe(3);
    expect(await ev('$cast', T.int, [lit.f64(-2.5)])).toBe(-3);
    expect(await ev('$cast', T.int, [lit.num('2.5')])).toBe(3);
    expect(await errorOf(cast(lit.f64('NaN'), T.int))).toBe('Illegal conversion of non-finite floating point number to an integer: nan');
    expect(await errorOf(cast(lit.f64(1e20), T.int))).toBe('int64 out of range: 1e+20');
    expect(await ev('$cast', T.arr(T.str), [lit.sql('[1.5, 2]::DOUBLE[]', T.arr(T.f64))])).toEqual(['1.5', '2']);
  });

  it('PARSE_NUMERIC / PARSE_BIGNUMERIC (parse_numeric_basic, parse_bignumeric_basic)', async () => {
    expect(await evText('parse_numeric', T.num, [lit.str('123.456')])).toBe('123.456000000');
    expect(await evText('parse_numeric', T.num, [lit.str(' -  12.34 ')])).toBe('-12.340000000');
    expect(await ev('parse_bignumeric', T.bignum, [lit.str('12345678901234567890.12345')])).toBe('12345678901234567890.12345');
    expect(await ev('parse_bignumeric', T.bignum, [lit.str('1.23e2')])).toBe('123');
    expect(await ev('parse_bignumeric', T.bignum, [lit.str('-0.0')])).toBe('0');
  });
});

describe('FORMAT', () => {
  const fmt = (f: string, ...args: Arg[]) => ev('format', T.str, [lit.str(f), ...args]);
  it('specifiers (str_format_*)', async () => {
    expect(await fmt('')).toBe('');
    expect(await fmt('%x', lit.int(255))).toBe('ff');
    expect(await fmt('0x%X', lit.int(11259375))).toBe('0xABCDEF');
    expect(await fmt('%05d', lit.int(42))).toBe('00042');
    expect(await fmt('|%-10s|', lit.str('hi'))).toBe('|hi        |');
    expect(await fmt('%s=%d', lit.str('n'), lit.int(7))).toBe('n=7');
    expect(await fmt('%.3f|%e|%g', lit.f64(3.14159), lit.f64(1.5), lit.f64(0.00001))).toBe('3.142|1.500000e+00|1e-05');
    expect(await fmt('%d%%', lit.int(50))).toBe('50%');
    // A NULL argument nulls the result except under %t / %T (docs FORMAT "NULL argument handling";
    // the ZetaSQL reference evaluator: FORMAT('%s', CAST(NULL AS STRING)) is NULL, FORMAT('%t', …) 'NULL').
    expect(await fmt('%s', lit.null(T.str))).toBeNull();
    expect(await fmt('%t', lit.null(T.str))).toBe('NULL');
  });
  it('%t and %T (docs FORMAT, lpad-5, bit-count-1)', async () => {
    expect(await fmt('%T', lit.bytes('ghdghdgabc'))).toBe('b"ghdghdgabc"');
    expect(await fmt('%T', lit.hex('00ff'))).toBe('b"\\x00\\xff"');
    expect(await fmt('%t', lit.f64(1))).toBe('1.0');
    expect(await fmt('%T', lit.str('a"b'))).toBe('"a\\"b"');
    expect(await fmt('%t', lit.date('2011-02-03'))).toBe('2011-02-03');
    expect(await fmt('%T', lit.date('2011-02-03'))).toBe('DATE "2011-02-03"');
    expect(await fmt('%t', lit.ints(1, 2))).toBe('[1, 2]');
    expect(await fmt('%t', lit.sql(`{'a': 1::BIGINT, 'b': 'x'}`, T.struct(['a', T.int], ['b', T.str])))).toBe('(1, x)');
    expect(await fmt('%T', lit.sql(`{'a': 1::BIGINT, 'b': 'x'}`, T.struct(['a', T.int], ['b', T.str])))).toBe('(1, "x")');
    expect(await fmt('Error: x must be positive but is %t', lit.int(-1))).toBe('Error: x must be positive but is -1');
  });
});
