import { describe, expect, it } from 'vitest';
import {
  civilFromDays, DATE_MAX_DAYS, DATE_MIN_DAYS, daysFromCivil, formatDateDays, formatDatetimeMicros, formatFraction,
  formatTimeMicros, formatTimestampUtc, parseDateText, parseDatetimeText, parseTimestampText, parseTimeText,
  TIMESTAMP_MAX_MICROS, TIMESTAMP_MIN_MICROS,
} from './temporal.js';

describe('civil dates', () => {
  it('maps the DATE range bounds (0001-01-01, 9999-12-31) to the day counts DuckDB reports', () => {
    // DuckDB: DATE '0001-01-01' → days -719162, DATE '9999-12-31' → 2932896
    expect(daysFromCivil(1, 1, 1)).toBe(DATE_MIN_DAYS);
    expect(daysFromCivil(9999, 12, 31)).toBe(DATE_MAX_DAYS);
    expect(daysFromCivil(1970, 1, 1)).toBe(0);
    expect(formatDateDays(DATE_MIN_DAYS)).toBe('0001-01-01');
    expect(formatDateDays(-1)).toBe('1969-12-31');
  });
  it('round-trips every day across leap rules', () => {
    for (let d = -800_000; d <= 3_000_000; d += 997) {
      const c = civilFromDays(d);
      expect(daysFromCivil(c.year, c.month, c.day)).toBe(d);
    }
    expect(formatDateDays(daysFromCivil(2000, 2, 29))).toBe('2000-02-29');
  });
});

describe('formatting', () => {
  it('prints fractions in groups of three like ZetaSQL', () => {
    expect(formatFraction(0)).toBe('');
    expect(formatFraction(500_000)).toBe('.500');
    expect(formatFraction(123_456)).toBe('.123456');
    expect(formatFraction(1)).toBe('.000001');
  });
  it('formats TIME, DATETIME and TIMESTAMP', () => {
    expect(formatTimeMicros(0n)).toBe('00:00:00');
    expect(formatTimeMicros(86_399_999_999n)).toBe('23:59:59.999999');
    expect(formatDatetimeMicros(1_704_110_400_500_000n)).toBe('2024-01-01T12:00:00.500');
    expect(formatDatetimeMicros(-1n)).toBe('1969-12-31T23:59:59.999999');
    expect(formatTimestampUtc(TIMESTAMP_MIN_MICROS)).toBe('0001-01-01 00:00:00+00');
    expect(formatTimestampUtc(TIMESTAMP_MAX_MICROS)).toBe('9999-12-31 23:59:59.999999+00');
  });
});

describe('parsing', () => {
  it('parses DATE as YYYY-[M]M-[D]D only', () => {
    expect(parseDateText('2024-1-5')).toBe(daysFromCivil(2024, 1, 5));
    expect(parseDateText('2023-02-29')).toBeNull();
    expect(parseDateText('2023-07-26Z')).toBeNull();
    expect(parseDateText('0000-01-01')).toBeNull();
    expect(parseDateText('24-01-01')).toBeNull();
  });
  it('parses TIME and DATETIME', () => {
    expect(parseTimeText('4:5:6.7')).toBe(14_706_700_000n);
    expect(parseTimeText('12:30')).toBe(45_000_000_000n);
    expect(parseTimeText('24:00:00')).toBeNull();
    expect(parseTimeText('12:00:00.1234567891')).toBeNull();
    expect(parseTimeText('12:00:00.123456789')).toBe(43_200_123_456n);
    expect(parseDatetimeText('2024-01-01')).toBe(1_704_067_200_000_000n);
    expect(parseDatetimeText('2024-01-01T12:00:00.5')).toBe(1_704_110_400_500_000n);
    expect(parseDatetimeText('2024-01-01 12:00:00')).toBe(1_704_110_400_000_000n);
    expect(parseDatetimeText('2024-01-01X12:00:00')).toBeNull();
  });
  it('parses TIMESTAMP zones: none, Z, UTC, offsets and IANA names', () => {
    const base = 1_704_110_400_000_000n; // 2024-01-01 12:00:00 UTC
    expect(parseTimestampText('2024-01-01 12:00:00')).toEqual({ micros: base });
    expect(parseTimestampText('2024-01-01T12:00:00Z')).toEqual({ micros: base });
    expect(parseTimestampText('2024-01-01 12:00:00 UTC')).toEqual({ micros: base });
    expect(parseTimestampText('2024/01/01 12:00')).toEqual({ micros: base });
    expect(parseTimestampText('2024-01-01 13:30:00+01:30')).toEqual({ micros: base });
    expect(parseTimestampText('2024-01-01 07:00:00-05')).toEqual({ micros: base });
    expect(parseTimestampText('2024-01-01 21:00:00+0900')).toEqual({ micros: base });
    expect(parseTimestampText('2024-01-01 04:00:00 America/Los_Angeles')).toEqual({ micros: base });
    expect(parseTimestampText('2024-07-01 05:00:00 America/Los_Angeles')).toEqual({ micros: 1_719_835_200_000_000n });
    expect(parseTimestampText('2024-01-01 12:00:00.123456+00')).toEqual({ micros: base + 123_456n });
  });
  it('reports bad syntax, unknown zones and out-of-range instants', () => {
    // BigQuery rejects a space before a numeric offset (insertAll example "2015-10-13 20:05:43 +0900").
    expect(parseTimestampText('2015-10-13 20:05:43 +0900')).toEqual({ error: 'syntax' });
    expect(parseTimestampText('2015-03-18 01:00:00 INVALID_TIME_ZONE')).toEqual({ error: 'zone', zone: 'INVALID_TIME_ZONE' });
    expect(parseTimestampText('9999-12-31 23:59:59-01:00')).toEqual({ error: 'range' });
    expect(parseTimestampText('0001-01-01 00:00:00')).toEqual({ micros: TIMESTAMP_MIN_MICROS });
    expect(parseTimestampText('not a timestamp')).toEqual({ error: 'syntax' });
  });
});
