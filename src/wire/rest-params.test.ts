import { describe, expect, it } from 'vitest';
import { BigQueryError } from '../errors/errors.js';
import { decodeQueryParameter } from './rest-values.js';

function errorOf(f: () => unknown): { reason: string; message: string; location?: string } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(BigQueryError);
    return (e as BigQueryError).toErrorProto();
  }
  throw new Error('expected a BigQueryError');
}

describe('decodeQueryParameter', () => {
  it('decodes scalars from their string values', () => {
    expect(decodeQueryParameter({ name: 'n', parameterType: { type: 'INT64' }, parameterValue: { value: '42' } })).toEqual({ name: 'n', type: { kind: 'INT64' }, value: 42n });
    expect(decodeQueryParameter({ parameterType: { type: 'FLOAT64' }, parameterValue: { value: '1.5' } })).toEqual({ type: { kind: 'FLOAT64' }, value: 1.5 });
    expect(decodeQueryParameter({ name: 'b', parameterType: { type: 'BOOL' }, parameterValue: { value: 'true' } }).value).toBe(true);
    expect(decodeQueryParameter({ name: 't', parameterType: { type: 'TIMESTAMP' }, parameterValue: { value: '2024-01-01 12:00:00.123456+00:00' } }).value).toBe(1_704_110_400_123_456n);
    expect(decodeQueryParameter({ name: 'd', parameterType: { type: 'DATETIME' }, parameterValue: { value: '2016-11-6' } }).value).toBe('2016-11-06T00:00:00');
    expect(decodeQueryParameter({ name: 'x', parameterType: { type: 'NUMERIC' }, parameterValue: { value: '3.140' } }).value).toBe('3.14');
    expect(decodeQueryParameter({ name: 'j', parameterType: { type: 'JSON' }, parameterValue: { value: '{"a": 1}' } }).value).toBe('{"a":1}');
    expect(decodeQueryParameter({ name: 'i', parameterType: { type: 'INTERVAL' }, parameterValue: { value: 'P1D' } }).value).toEqual({ months: 0, days: 1, micros: 0n });
  });
  it('accepts the legacy type names', () => {
    expect(decodeQueryParameter({ name: 'n', parameterType: { type: 'INTEGER' }, parameterValue: { value: '1' } }).type).toEqual({ kind: 'INT64' });
    expect(decodeQueryParameter({ name: 'f', parameterType: { type: 'FLOAT' }, parameterValue: { value: '1' } }).type).toEqual({ kind: 'FLOAT64' });
  });
  it('gives typed NULLs when the value is absent', () => {
    expect(decodeQueryParameter({ name: 'n', parameterType: { type: 'STRING' } })).toEqual({ name: 'n', type: { kind: 'STRING' }, value: null });
    expect(decodeQueryParameter({ name: 'n', parameterType: { type: 'INT64' }, parameterValue: {} }).value).toBeNull();
    expect(decodeQueryParameter({ name: 'a', parameterType: { type: 'ARRAY', arrayType: { type: 'INT64' } } }).value).toBeNull();
  });
  it('decodes ARRAY through arrayValues (recorded fixture rest_crud/param_named_array_int64 uses [1, 2, 3])', () => {
    const p = decodeQueryParameter({
      name: 'ids',
      parameterType: { type: 'ARRAY', arrayType: { type: 'INT64' } },
      parameterValue: { arrayValues: [{ value: '1' }, { value: '2' }, { value: '3' }] },
    });
    expect(p).toEqual({ name: 'ids', type: { kind: 'ARRAY', element: { kind: 'INT64' } }, value: [1n, 2n, 3n] });
    expect(decodeQueryParameter({ name: 'e', parameterType: { type: 'ARRAY', arrayType: { type: 'STRING' } }, parameterValue: {} }).value).toEqual([]);
  });
  it('decodes STRUCT through structTypes/structValues (the bq CLI request in google-cloud-node#1868)', () => {
    const p = decodeQueryParameter({
      name: 'obj',
      parameterType: {
        type: 'STRUCT',
        structTypes: [
          { name: 'b', type: { type: 'BOOL' } },
          { name: 'arr', type: { type: 'ARRAY', arrayType: { type: 'INT64' } } },
          { name: 'd', type: { type: 'DATETIME' } },
          { name: 'nested', type: { type: 'STRUCT', structTypes: [{ name: 'a', type: { type: 'INT64' } }] } },
          { name: 'nullable', type: { type: 'INT64' } },
        ],
      },
      parameterValue: {
        structValues: {
          b: { value: 'true' },
          arr: { arrayValues: [{ value: '2' }, { value: '3' }] },
          d: { value: '2016-11-6' },
          nested: { structValues: { A: { value: '3' } } },
        },
      },
    });
    expect(p.value).toEqual([true, [2n, 3n], '2016-11-06T00:00:00', [3n], null]);
    expect(p.type).toEqual({
      kind: 'STRUCT',
      fields: [
        { name: 'b', type: { kind: 'BOOL' } },
        { name: 'arr', type: { kind: 'ARRAY', element: { kind: 'INT64' } } },
        { name: 'd', type: { kind: 'DATETIME' } },
        { name: 'nested', type: { kind: 'STRUCT', fields: [{ name: 'a', type: { kind: 'INT64' } }] } },
        { name: 'nullable', type: { kind: 'INT64' } },
      ],
    });
  });
  it('decodes RANGE through rangeValue (missing bound = unbounded) or range text', () => {
    const t = { type: 'RANGE', rangeElementType: { type: 'DATE' } };
    expect(decodeQueryParameter({ name: 'r', parameterType: t, parameterValue: { rangeValue: { start: { value: '2020-10-01' } } } }).value).toEqual({ start: '2020-10-01', end: null });
    expect(decodeQueryParameter({ name: 'r', parameterType: t, parameterValue: { value: '[2020-10-01, 2020-12-31)' } }).value).toEqual({ start: '2020-10-01', end: '2020-12-31' });
    expect(decodeQueryParameter({ name: 'r', parameterType: t }).value).toBeNull();
  });
  it('reports bad values and types as invalid', () => {
    // "Bad int64 value: …" is the answer quoted in mozilla/bigquery-etl#1490
    expect(errorOf(() => decodeQueryParameter({ name: 'n', parameterType: { type: 'INT64' }, parameterValue: { value: '10058158527438782464' } }))).toEqual({
      reason: 'invalid', location: 'n', message: 'Bad int64 value: 10058158527438782464',
    });
    expect(errorOf(() => decodeQueryParameter({ name: 't', parameterType: { type: 'TIMESTAMP' }, parameterValue: { value: 'yesterday' } })).message).toBe("Invalid timestamp: 'yesterday'");
    expect(errorOf(() => decodeQueryParameter({ name: 'x', parameterType: { type: 'FOO' } })).message).toBe('Unsupported query parameter type: FOO');
    expect(errorOf(() => decodeQueryParameter({ name: 'x', parameterType: { type: 'ARRAY' } })).message).toMatch(/arrayType/);
    expect(errorOf(() => decodeQueryParameter({ name: 'x', parameterType: { type: 'RANGE', rangeElementType: { type: 'INT64' } } })).message).toMatch(/rangeElementType/);
  });
});
