import { describe, expect, it } from 'vitest';
import { parse as parseLossless } from 'lossless-json';
import type { BqType } from '../types/types.js';
import { BigQueryError } from '../errors/errors.js';
import { decodeJsonValue } from './rest-values.js';

const T = (kind: string) => ({ kind }) as BqType;

/** The BigQueryError a decode throws, as {reason, message, location}. */
function errorOf(f: () => unknown): { reason: string; message: string; location?: string } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(BigQueryError);
    return (e as BigQueryError).toErrorProto();
  }
  throw new Error('expected a BigQueryError');
}

describe('scalars', () => {
  it('INT64 from numbers and digit strings; the recorded insertAll error otherwise', () => {
    expect(decodeJsonValue(1, T('INT64'), 'n')).toBe(1n);
    expect(decodeJsonValue('-9223372036854775808', T('INT64'), 'n')).toBe(-9_223_372_036_854_775_808n);
    const big = (parseLossless('{"n": 9223372036854775807}') as Record<string, unknown>).n;
    expect(decodeJsonValue(big, T('INT64'), 'n')).toBe(9_223_372_036_854_775_807n);
    expect(decodeJsonValue(2.0, T('INT64'), 'n')).toBe(2n);
    // recorded fixture http/jobs/insertall_skip_invalid_rows: {reason: invalid, location: n, message: …}
    expect(errorOf(() => decodeJsonValue('not-a-number', T('INT64'), 'n'))).toEqual({
      reason: 'invalid', location: 'n', message: 'Cannot convert value to integer (bad value): not-a-number',
    });
    expect(errorOf(() => decodeJsonValue(1.5, T('INT64'), 'n')).message).toBe('Cannot convert value to integer (bad value): 1.5');
    expect(errorOf(() => decodeJsonValue('9223372036854775808', T('INT64'), 'n')).message).toMatch(/bad value/);
  });
  it('FLOAT64 from numbers, numeric strings and NaN/Infinity', () => {
    expect(decodeJsonValue(3.14, T('FLOAT64'), 'f')).toBe(3.14);
    expect(decodeJsonValue('1e20', T('FLOAT64'), 'f')).toBe(1e20);
    expect(decodeJsonValue('NaN', T('FLOAT64'), 'f')).toBeNaN();
    expect(decodeJsonValue('-Infinity', T('FLOAT64'), 'f')).toBe(-Infinity);
    expect(decodeJsonValue('inf', T('FLOAT64'), 'f')).toBe(Infinity);
    // text quoted by Cloud Logging sink errors: "Cannot convert value to floating point (bad value): SPY"
    expect(errorOf(() => decodeJsonValue('SPY', T('FLOAT64'), 'f')).message).toBe('Cannot convert value to floating point (bad value): SPY');
  });
  it('NUMERIC and BIGNUMERIC exactly, rounding past the scale', () => {
    expect(decodeJsonValue('123.4567890125', T('NUMERIC'), 'x')).toBe('123.456789013');
    expect(decodeJsonValue(0.1, T('NUMERIC'), 'x')).toBe('0.1');
    const lossless = (parseLossless('{"x": 12345678901234567890.123456789}') as Record<string, unknown>).x;
    expect(decodeJsonValue(lossless, T('NUMERIC'), 'x')).toBe('12345678901234567890.123456789');
    expect(decodeJsonValue('1e-38', T('BIGNUMERIC'), 'x')).toBe('0.00000000000000000000000000000000000001');
    expect(errorOf(() => decodeJsonValue('1e29', T('NUMERIC'), 'x')).message).toBe('Invalid NUMERIC value: 1e29');
  });
  it('BOOL from booleans and "true"/"false"', () => {
    expect(decodeJsonValue(true, T('BOOL'), 'b')).toBe(true);
    expect(decodeJsonValue('FALSE', T('BOOL'), 'b')).toBe(false);
    // confluentinc/kafka-connect-bigquery#176 quotes BigQuery: "Cannot convert string value to boolean: 1"
    expect(errorOf(() => decodeJsonValue('1', T('BOOL'), 'b')).message).toBe('Cannot convert string value to boolean: 1');
  });
  it('STRING accepts numbers, refuses booleans', () => {
    expect(decodeJsonValue('x', T('STRING'), 's')).toBe('x');
    expect(decodeJsonValue(12, T('STRING'), 's')).toBe('12');
    expect(errorOf(() => decodeJsonValue(true, T('STRING'), 's')).message).toBe('Conversion from bool to std::string is unsupported.');
  });
  it('BYTES from base64 (standard or URL-safe)', () => {
    expect(decodeJsonValue('q83v', T('BYTES'), 'b')).toEqual(new Uint8Array([0xab, 0xcd, 0xef]));
    expect(decodeJsonValue('-_8=', T('BYTES'), 'b')).toEqual(new Uint8Array([0xfb, 0xff]));
    expect(decodeJsonValue('', T('BYTES'), 'b')).toEqual(new Uint8Array([]));
    expect(errorOf(() => decodeJsonValue('not base64!', T('BYTES'), 'b')).message).toBe('Could not decode base64 string to bytes. Field: b; Value: not base64!');
  });
  it('DATE, DATETIME, TIME to canonical text', () => {
    expect(decodeJsonValue('2024-1-5', T('DATE'), 'd')).toBe('2024-01-05');
    // GoogleCloudPlatform/DataflowTemplates#1345 quotes the insertAll error "Invalid date: '2023-07-26Z'"
    expect(errorOf(() => decodeJsonValue('2023-07-26Z', T('DATE'), 'estimated_delivery_date'))).toEqual({
      reason: 'invalid', location: 'estimated_delivery_date', message: "Invalid date: '2023-07-26Z'",
    });
    expect(decodeJsonValue('2024-01-01 12:00:00.5', T('DATETIME'), 'd')).toBe('2024-01-01T12:00:00.500');
    expect(decodeJsonValue('2024-01-01T12:00', T('DATETIME'), 'd')).toBe('2024-01-01T12:00:00');
    expect(decodeJsonValue('4:05:06.123456', T('TIME'), 't')).toBe('04:05:06.123456');
    expect(errorOf(() => decodeJsonValue('25:00:00', T('TIME'), 't')).message).toBe("Invalid time: '25:00:00'");
  });
  it('TIMESTAMP from text forms and epoch seconds', () => {
    const base = 1_704_110_400_000_000n;
    expect(decodeJsonValue('2024-01-01 12:00:00', T('TIMESTAMP'), 't')).toBe(base);
    expect(decodeJsonValue('2024-01-01T12:00:00.000Z', T('TIMESTAMP'), 't')).toBe(base);
    expect(decodeJsonValue('2024-01-01 14:00:00+02:00', T('TIMESTAMP'), 't')).toBe(base);
    expect(decodeJsonValue('2024-01-01 12:00:00 UTC', T('TIMESTAMP'), 't')).toBe(base);
    expect(decodeJsonValue(1_704_110_400.25, T('TIMESTAMP'), 't')).toBe(base + 250_000n);
    expect(decodeJsonValue('1704110400', T('TIMESTAMP'), 't')).toBe(base);
    // the insertAll answer quoted in fluent-plugin-bigquery (2015) and load-job errors (2023)
    expect(errorOf(() => decodeJsonValue('2015-10-13 20:05:43 +0900', T('TIMESTAMP'), 'foo')).message).toBe(
      "Could not parse '2015-10-13 20:05:43 +0900' as a timestamp. Required format is YYYY-MM-DD HH:MM[:SS[.SSSSSS]] or YYYY/MM/DD HH:MM[:SS[.SSSSSS]]",
    );
    expect(errorOf(() => decodeJsonValue('2015-03-18 01:00:00 INVALID_TIME_ZONE', T('TIMESTAMP'), 't')).message).toBe('Unrecognized timezone: INVALID_TIME_ZONE');
    expect(errorOf(() => decodeJsonValue('10000-01-01', T('TIMESTAMP'), 't')).message).toMatch(/Could not parse/);
  });
  it('INTERVAL from canonical and ISO text', () => {
    expect(decodeJsonValue('1-2 3 4:5:6.789', T('INTERVAL'), 'i')).toEqual({ months: 14, days: 3, micros: 14_706_789_000n });
    expect(decodeJsonValue('PT49H', T('INTERVAL'), 'i')).toEqual({ months: 0, days: 0, micros: 176_400_000_000n });
    expect(errorOf(() => decodeJsonValue('1 day', T('INTERVAL'), 'i')).message).toBe("Invalid INTERVAL value '1 day'");
  });
  it('JSON from any JSON value or from JSON text, compact', () => {
    expect(decodeJsonValue({ a: [1, 'x', null] }, T('JSON'), 'j')).toBe('{"a":[1,"x",null]}');
    expect(decodeJsonValue('{"a": 1, "b": [true]}', T('JSON'), 'j')).toBe('{"a":1,"b":[true]}');
    expect(decodeJsonValue('12345678901234567890', T('JSON'), 'j')).toBe('12345678901234567890');
    expect(decodeJsonValue(5, T('JSON'), 'j')).toBe('5');
    expect(errorOf(() => decodeJsonValue('{oops', T('JSON'), 'j')).message).toBe('Invalid JSON value: {oops');
  });
  it('GEOGRAPHY text passes through', () => {
    expect(decodeJsonValue('POINT(1 2)', T('GEOGRAPHY'), 'g')).toBe('POINT(1 2)');
  });
  it('RANGE from [a, b) text or {start, end}', () => {
    const r: BqType = { kind: 'RANGE', element: T('DATE') };
    expect(decodeJsonValue('[2024-01-01, UNBOUNDED)', r, 'r')).toEqual({ start: '2024-01-01', end: null });
    expect(decodeJsonValue({ start: null, end: '2024-2-1' }, r, 'r')).toEqual({ start: null, end: '2024-02-01' });
    const ts: BqType = { kind: 'RANGE', element: T('TIMESTAMP') };
    expect(decodeJsonValue('[2024-01-01 00:00:00+00, 2024-02-01 00:00:00+00)', ts, 'r')).toEqual({ start: 1_704_067_200_000_000n, end: 1_706_745_600_000_000n });
    expect(errorOf(() => decodeJsonValue('2024-01-01', r, 'r')).message).toBe('Invalid RANGE value: 2024-01-01');
  });
  it('null stays null', () => {
    expect(decodeJsonValue(null, T('INT64'), 'n')).toBeNull();
    expect(decodeJsonValue(undefined, { kind: 'ARRAY', element: T('INT64') }, 'n')).toBeNull();
  });
});

describe('shapes', () => {
  const rec: BqType = {
    kind: 'STRUCT',
    fields: [
      { name: 'name', type: T('STRING') },
      { name: 'Tags', type: { kind: 'ARRAY', element: T('STRING') } },
      { name: 'fields', type: { kind: 'ARRAY', element: { kind: 'STRUCT', fields: [{ name: 'value', type: T('INT64') }] } } },
    ],
  };
  it('STRUCT by case-insensitive field name, missing fields NULL', () => {
    expect(decodeJsonValue({ NAME: 'a', tags: ['x'], fields: [{ value: '7' }] }, rec, 'r')).toEqual(['a', ['x'], [[7n]]]);
    expect(decodeJsonValue({}, rec, 'r')).toEqual([null, null, null]);
  });
  it('unknown keys: `no such field`, or dropped with ignoreUnknownValues', () => {
    // google/weather-tools#94: {'reason': 'invalid', 'location': 'step', 'message': 'no such field: step.'}
    expect(errorOf(() => decodeJsonValue({ step: 1 }, rec, ''))).toEqual({ reason: 'invalid', location: 'step', message: 'no such field: step.' });
    expect(errorOf(() => decodeJsonValue({ fields: [{ extra: 1 }] }, rec, 'r')).location).toBe('r.fields[0].extra');
    expect(decodeJsonValue({ name: 'a', step: 1 }, rec, '', { ignoreUnknownValues: true })).toEqual(['a', null, null]);
  });
  it('arrays for scalars and objects for non-records are refused with BigQuery texts', () => {
    // glific#3477: message "Array specified for non-repeated field: value.", location "fields[0].value"
    expect(errorOf(() => decodeJsonValue({ fields: [{ value: [1] }] }, rec, ''))).toEqual({
      reason: 'invalid', location: 'fields[0].value', message: 'Array specified for non-repeated field: value.',
    });
    expect(errorOf(() => decodeJsonValue({ name: { x: 1 } }, rec, '')).message).toBe('This field: name is not a record.');
    expect(errorOf(() => decodeJsonValue({ tags: 'x' }, rec, '')).message).toBe('Repeated field must be imported as a JSON array. Field: tags.');
    expect(errorOf(() => decodeJsonValue({ tags: ['x', null] }, rec, '')).message).toBe('Only optional fields can be set to NULL. Field: tags; Value: NULL');
    expect(errorOf(() => decodeJsonValue('x', rec, 'r')).message).toBe('Cannot convert value to record (bad value): x');
  });
  it('ARRAY elements may be null in the parameter dialect', () => {
    expect(decodeJsonValue([1, null], { kind: 'ARRAY', element: T('INT64') }, 'p', { dialect: 'param' })).toEqual([1n, null]);
  });
});
