import { describe, expect, it } from 'vitest';
import { formatInterval, INTERVAL_MAX_MICROS, parseInterval } from './interval.js';

const H = 3_600_000_000n;

describe('formatInterval (ZetaSQL IntervalValue::ToString)', () => {
  it('prints the fully expanded form', () => {
    expect(formatInterval({ months: 0, days: 0, micros: 49n * H })).toBe('0-0 0 49:0:0'); // docs/ARCHITECTURE.md §4 (INTERVAL)
    expect(formatInterval({ months: 14, days: 3, micros: 4n * H + 5n * 60_000_000n + 6_789_000n })).toBe('1-2 3 4:5:6.789');
    expect(formatInterval({ months: 0, days: 0, micros: 123_456n })).toBe('0-0 0 0:0:0.123456');
    expect(formatInterval({ months: 0, days: 0, micros: 0n })).toBe('0-0 0 0:0:0');
  });
  it('gives each part its own sign', () => {
    expect(formatInterval({ months: -14, days: -3, micros: -(4n * H + 5n * 60_000_000n + 6_789_000n) })).toBe('-1-2 -3 -4:5:6.789');
    expect(formatInterval({ months: -1, days: 0, micros: 0n })).toBe('-0-1 0 0:0:0');
    expect(formatInterval({ months: 0, days: 5, micros: -1n })).toBe('0-0 5 -0:0:0.000001');
  });
});

describe('parseInterval', () => {
  it('reads the documented EXTRACT example literals', () => {
    // interval_functions docs: INTERVAL '1-2 3 4:5:6.789999' YEAR TO SECOND and '0-13 370 48:61:61'
    expect(parseInterval('1-2 3 4:5:6.789999')).toEqual({ months: 14, days: 3, micros: 4n * H + 5n * 60_000_000n + 6_789_999n });
    const v = parseInterval('0-13 370 48:61:61')!;
    expect(formatInterval(v)).toBe('1-1 370 49:2:1');
  });
  it('tells the shorter layouts apart', () => {
    expect(parseInterval('1-2')).toEqual({ months: 14, days: 0, micros: 0n });
    expect(parseInterval('-1-2 5')).toEqual({ months: -14, days: 5, micros: 0n });
    expect(parseInterval('10 -5:30:00')).toEqual({ months: 0, days: 10, micros: -(5n * H + 30n * 60_000_000n) });
    expect(parseInterval('1 6')).toBeNull(); // DAY TO HOUR is not an unqualified layout
    expect(parseInterval('12:30:00.5')).toEqual({ months: 0, days: 0, micros: 12n * H + 30n * 60_000_000n + 500_000n });
    expect(parseInterval('3 10 1:2')).toEqual({ months: 3, days: 10, micros: H + 2n * 60_000_000n });
  });
  it('reads ISO 8601 durations', () => {
    expect(parseInterval('P1Y2M3DT4H5M6.789S')).toEqual({ months: 14, days: 3, micros: 4n * H + 5n * 60_000_000n + 6_789_000n });
    expect(parseInterval('P2W')).toEqual({ months: 0, days: 14, micros: 0n });
    expect(parseInterval('PT-1.5S')).toEqual({ months: 0, days: 0, micros: -1_500_000n });
    expect(parseInterval('P-1Y')).toEqual({ months: -12, days: 0, micros: 0n });
    expect(parseInterval('P')).toBeNull();
    expect(parseInterval('P1.5D')).toBeNull();
    expect(parseInterval('PT1H2')).toBeNull();
  });
  it('enforces the INTERVAL range', () => {
    expect(parseInterval('10000-0')).toEqual({ months: 120_000, days: 0, micros: 0n });
    expect(parseInterval('10001-0')).toBeNull();
    expect(parseInterval('87840000:0:0')).toEqual({ months: 0, days: 0, micros: INTERVAL_MAX_MICROS });
    expect(parseInterval('87840000:0:1')).toBeNull();
    expect(parseInterval('garbage')).toBeNull();
  });
  it('round-trips its own text', () => {
    const samples = [
      { months: 0, days: 0, micros: 0n }, { months: -120_000, days: 3_660_000, micros: -INTERVAL_MAX_MICROS },
      { months: 7, days: -2, micros: 1n }, { months: -5, days: 0, micros: 59_999_999n },
    ];
    for (const s of samples) expect(parseInterval(formatInterval(s))).toEqual(s);
  });
});
