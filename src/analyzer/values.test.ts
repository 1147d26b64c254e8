import { describe, expect, it } from 'vitest';
import { dateFromDays, leBytesToBigInt, scaledToDecimal, valueFromProto } from './values.js';

describe('ValueProto decoding', () => {
  it('NUMERIC bytes are little-endian two’s complement of value × 10^9', () => {
    // 1.5 × 10^9 = 1_500_000_000 = 0x59682F00
    expect(valueFromProto({ value: 'numericValue', numericValue: Buffer.from([0x00, 0x2f, 0x68, 0x59]) }, { kind: 'NUMERIC' })).toBe('1.5');
    // -1 × 10^9 = -1_000_000_000 = 0xC4653600 as 32-bit two's complement
    expect(valueFromProto({ value: 'numericValue', numericValue: Buffer.from([0x00, 0x36, 0x65, 0xc4]) }, { kind: 'NUMERIC' })).toBe('-1');
  });

  it('scaled integers print without trailing zeros', () => {
    expect(scaledToDecimal(123456000000n, 9)).toBe('123.456');
    expect(scaledToDecimal(-5n, 9)).toBe('-0.000000005');
    expect(leBytesToBigInt(new Uint8Array([0xff]))).toBe(-1n);
  });

  it('DATE is days since 1970-01-01', () => {
    expect(dateFromDays(0)).toBe('1970-01-01');
    expect(dateFromDays(19723)).toBe('2024-01-01');
    expect(dateFromDays(-1)).toBe('1969-12-31');
  });

  it('TIMESTAMP is seconds + nanos → microseconds', () => {
    expect(valueFromProto({ value: 'timestampValue', timestampValue: { seconds: '1704067200', nanos: 123456000 } }, { kind: 'TIMESTAMP' })).toBe(1704067200123456n);
  });

  it('INTERVAL bytes: micros, days, sign-magnitude months', () => {
    // INTERVAL '1-2 3 4:5:6.789' YEAR TO SECOND, bytes as measured from the analyzer
    const pos = Buffer.from('88ca976c030000000300000000c00100', 'hex');
    expect(valueFromProto({ value: 'intervalValue', intervalValue: pos }, { kind: 'INTERVAL' })).toEqual({ months: 14, days: 3, micros: 14706789000n });
    const neg = Buffer.from('803f7493fcfffffffdffffff00c00180', 'hex');
    expect(valueFromProto({ value: 'intervalValue', intervalValue: neg }, { kind: 'INTERVAL' })).toEqual({ months: -14, days: -3, micros: -14706000000n });
  });

  it('an unset oneof is NULL', () => {
    expect(valueFromProto({}, { kind: 'INT64' })).toBeNull();
  });
});
