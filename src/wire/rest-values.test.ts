import { describe, expect, it } from 'vitest';
import { BigQuery } from '@google-cloud/bigquery';
import type { BqType, Value } from '../types/types.js';
import { cellJsonEncoder, encodeCell, encodeRow, formatFloat64, formatTimestampSeconds } from './rest-values.js';
import { mulberry32 } from '../../test/helpers/seeded-random.js';

const T = (kind: string) => ({ kind }) as BqType;
const float = { useInt64Timestamp: false };
const int64ts = { useInt64Timestamp: true };

/** Reads one REST cell the way @google-cloud/bigquery 8.x does for tabledata.list / getQueryResults. */
function clientRead(cell: unknown, field: Record<string, unknown>, useInt64Timestamp: boolean): unknown {
  const rows = BigQuery.mergeSchemaWithRows_({ fields: [{ name: 'x', ...field }] } as never, [{ f: [{ v: cell }] }] as never, {
    wrapIntegers: false, selectedFields: [], parseJSON: false, listParams: { 'formatOptions.useInt64Timestamp': useInt64Timestamp },
  } as never);
  return (rows[0] as Record<string, unknown>).x;
}

describe('formatFloat64 (Java Double.toString, as the REST API writes FLOAT64 and TIMESTAMP)', () => {
  it('uses plain notation in [1e-3, 1e7) with at least one fractional digit', () => {
    expect(formatFloat64(1.5)).toBe('1.5');
    expect(formatFloat64(3)).toBe('3.0');
    expect(formatFloat64(100)).toBe('100.0');
    expect(formatFloat64(0.001)).toBe('0.001');
    expect(formatFloat64(-3.14159)).toBe('-3.14159');
    expect(formatFloat64(9_999_999.5)).toBe('9999999.5');
  });
  it('uses d.dddE±n outside that range', () => {
    expect(formatFloat64(1e20)).toBe('1.0E20');
    expect(formatFloat64(1e7)).toBe('1.0E7');
    expect(formatFloat64(1e-4)).toBe('1.0E-4');
    expect(formatFloat64(-1.2345e-10)).toBe('-1.2345E-10');
    expect(formatFloat64(Number.MAX_VALUE)).toBe('1.7976931348623157E308');
    expect(formatFloat64(5e-324)).toBe('4.9E-324'); // Double.toString(Double.MIN_VALUE) per the Java docs
    expect(formatFloat64(1e23)).toBe('1.0E23');
    expect(formatFloat64(0.002)).toBe('0.002');
  });
  it('agrees with the Java form built from the shortest digits of toExponential() over random doubles', () => {
    // ECMA-262 Number.prototype.toExponential(undefined): the fewest digits that identify the
    // double; Double.toString's exponent form is those digits as d.ddd, `E`, the exponent.
    const javaForm = (x: number): string => {
      const [m, ex] = Math.abs(x).toExponential().split('e');
      const digits = m!.replace('.', '');
      return `${x < 0 ? '-' : ''}${digits[0]}.${digits.slice(1) || '0'}E${Number(ex)}`;
    };
    const r = mulberry32(99);
    const dv = new DataView(new ArrayBuffer(8));
    let checked = 0;
    for (let i = 0; i < 200_000; i++) {
      const k = i % 3;
      let x: number;
      if (k === 0) {
        dv.setUint32(0, r());
        dv.setUint32(4, r());
        x = dv.getFloat64(0);
      } else if (k === 1) x = (r() * (i + 1)) / 7;
      else x = (r() % 1_000_000) * 10 ** ((r() % 60) - 30);
      const a = Math.abs(x);
      if (!Number.isFinite(x) || x === 0 || (a >= 1e-3 && a < 1e7)) continue;
      // One significant digit takes Java's two-digit rule, checked above.
      if (a.toExponential().split('e')[0]!.length === 1) continue;
      checked++;
      expect(formatFloat64(x), String(x)).toBe(javaForm(x));
    }
    expect(checked).toBeGreaterThan(100_000);
    for (const x of [1e21, 1.5e21, 1e-7, 1.5e-7, 12345678.9, 123456789012345680000, 2 ** 63, 9.999999999999999e22, 0.00099, -7142857142.857143])
      expect(formatFloat64(x), String(x)).toBe(javaForm(x));
  });
  it('spells the special values', () => {
    expect(formatFloat64(NaN)).toBe('NaN');
    expect(formatFloat64(Infinity)).toBe('Infinity');
    expect(formatFloat64(-Infinity)).toBe('-Infinity');
    expect(formatFloat64(0)).toBe('0.0');
    expect(formatFloat64(-0)).toBe('-0.0');
  });
});

describe('TIMESTAMP cells', () => {
  it('writes float seconds like the API (cells seen in the wild)', () => {
    // tylertreat/BigQuery-Python#72: {"dt": "1.447216127E9"}; googleapis/elixir-google-api#1713: "1.561017697269367E9"
    expect(formatTimestampSeconds(1_447_216_127_000_000n)).toBe('1.447216127E9');
    expect(formatTimestampSeconds(1_561_017_697_269_367n)).toBe('1.561017697269367E9');
    expect(formatTimestampSeconds(1_704_067_200_000_000n)).toBe('1.7040672E9');
    expect(formatTimestampSeconds(0n)).toBe('0.0');
    expect(formatTimestampSeconds(-1_500_000n)).toBe('-1.5');
  });
  it('writes integer microseconds with useInt64Timestamp (the node client comment shows 1672574400123456)', () => {
    expect(encodeCell(1_672_574_400_123_456n, T('TIMESTAMP'), int64ts)).toBe('1672574400123456');
  });
  it('round-trips to the microsecond through @google-cloud/bigquery in both modes', () => {
    const samples = [
      0n, 1n, 999_999n, 1_000_000n, 1_704_067_200_000_000n, 1_704_110_400_123_456n, 1_704_110_400_000_001n,
      1_704_110_400_999_999n, 1_999_999_999_999_999n, 4_102_444_799_999_999n, 8_589_934_591_999_999n,
    ];
    for (let i = 0; i < 2000; i++) samples.push(BigInt(Math.floor(Math.random() * 4_102_444_800)) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000)));
    for (const micros of samples) {
      const exact = clientRead(encodeCell(micros, T('TIMESTAMP'), int64ts), { type: 'TIMESTAMP' }, true);
      const viaFloat = clientRead(encodeCell(micros, T('TIMESTAMP'), float), { type: 'TIMESTAMP' }, false);
      expect(viaFloat, `micros ${micros}`).toEqual(exact);
    }
    const expected = clientRead('1704110400123456', { type: 'TIMESTAMP' }, true) as { value: string };
    expect(expected.value).toBe('2024-01-01T12:00:00.123456000Z');
  });
});

describe('encodeCell', () => {
  it('writes scalars as strings', () => {
    expect(encodeCell(42n, T('INT64'), float)).toBe('42'); // recorded fixture tabledata_list_first_page_only
    expect(encodeCell(-9_223_372_036_854_775_808n, T('INT64'), float)).toBe('-9223372036854775808');
    expect(encodeCell('only', T('STRING'), float)).toBe('only');
    expect(encodeCell(false, T('BOOL'), float)).toBe('false'); // apache/airflow#1390 raw cell u'false'
    expect(encodeCell(0.5, T('FLOAT64'), float)).toBe('0.5');
    expect(encodeCell('123.456789012', T('NUMERIC'), float)).toBe('123.456789012');
    expect(encodeCell(new Uint8Array([0xab, 0xcd, 0xef]), T('BYTES'), float)).toBe('q83v');
    expect(encodeCell('2024-01-15', T('DATE'), float)).toBe('2024-01-15');
    expect(encodeCell('2024-01-15T12:00:00', T('DATETIME'), float)).toBe('2024-01-15T12:00:00');
    // google-cloud-python _time_from_json accepts only HH:MM:SS (8) or HH:MM:SS.ffffff (15 characters).
    expect(encodeCell('12:00:00.500', T('TIME'), float)).toBe('12:00:00.500000');
    expect(encodeCell('2024-01-15T12:00:00.5', T('DATETIME'), float)).toBe('2024-01-15T12:00:00.500000');
    expect(encodeCell('{"a":1}', T('JSON'), float)).toBe('{"a":1}');
    expect(encodeCell('POINT(1 2)', T('GEOGRAPHY'), float)).toBe('POINT(1 2)');
  });
  it('writes INTERVAL in canonical text', () => {
    expect(encodeCell({ months: 0, days: 0, micros: 49n * 3_600_000_000n }, T('INTERVAL'), float)).toBe('0-0 0 49:0:0');
    expect(encodeCell({ months: 14, days: 3, micros: 14_706_789_000n }, T('INTERVAL'), float)).toBe('1-2 3 4:5:6.789');
  });
  it('writes RANGE as [start, end) with UNBOUNDED, bounds encoded like cells of the element type', () => {
    const dateRange: BqType = { kind: 'RANGE', element: T('DATE') };
    expect(encodeCell({ start: '2020-10-01', end: '2020-12-31' }, dateRange, float)).toBe('[2020-10-01, 2020-12-31)');
    expect(encodeCell({ start: '2024-01-01', end: null }, dateRange, float)).toBe('[2024-01-01, UNBOUNDED)');
    const tsRange: BqType = { kind: 'RANGE', element: T('TIMESTAMP') };
    const cell = encodeCell({ start: 1_704_067_200_000_000n, end: null }, tsRange, int64ts);
    expect(cell).toBe('[1704067200000000, UNBOUNDED)');
    const read = clientRead(cell, { type: 'RANGE', rangeElementType: { type: 'TIMESTAMP' } }, true) as { start: { value: string }; end: unknown };
    expect(read.start.value).toBe('2024-01-01T00:00:00.000Z');
    expect(read.end).toBeNull();
  });
  it('nests ARRAY as [{v}] and STRUCT as {f:[{v}]}, NULL as null', () => {
    const t: BqType = { kind: 'STRUCT', fields: [{ name: 'a', type: T('INT64') }, { name: 'tags', type: { kind: 'ARRAY', element: T('STRING') } }] };
    expect(encodeCell([1n, ['x', 'y']], t, float)).toEqual({ f: [{ v: '1' }, { v: [{ v: 'x' }, { v: 'y' }] }] });
    expect(encodeCell([null, []], t, float)).toEqual({ f: [{ v: null }, { v: [] }] });
    expect(encodeCell(null, t, float)).toBeNull();
    const arr: BqType = { kind: 'ARRAY', element: t };
    expect(encodeCell([[2n, []]], arr, float)).toEqual([{ v: { f: [{ v: '2' }, { v: [] }] } }]);
  });
  it('is read back by the node client', () => {
    expect(clientRead(encodeCell(1e20, T('FLOAT64'), float), { type: 'FLOAT' }, false)).toBe(1e20);
    expect(clientRead(encodeCell(-Infinity, T('FLOAT64'), float), { type: 'FLOAT' }, false)).toBe(-Infinity);
    expect(clientRead(encodeCell(true, T('BOOL'), float), { type: 'BOOLEAN' }, false)).toBe(true);
    const bytes = clientRead(encodeCell(new Uint8Array([1, 2, 255]), T('BYTES'), float), { type: 'BYTES' }, false);
    expect([...(bytes as Buffer)]).toEqual([1, 2, 255]);
  });
  it('rejects a value that does not match its type (engine bug) with a 500', () => {
    expect(() => encodeCell('x', T('INT64'), float)).toThrow(/Cannot encode/);
    expect(() => encodeCell([1n], { kind: 'STRUCT', fields: [] }, float)).toThrow(/Cannot encode/);
  });
});

describe('encodeRow', () => {
  it('builds {f:[{v}]}', () => {
    expect(encodeRow([42n, 'only'], [T('INT64'), T('STRING')], float)).toEqual({ f: [{ v: '42' }, { v: 'only' }] });
  });
});

describe('cellJsonEncoder', () => {
  it('writes the same text as JSON.stringify(encodeCell(...)) for every scalar kind and NULL', () => {
    const cases: [BqType, Value[]][] = [
      [{ kind: 'INT64' }, [0n, -9223372036854775808n, 9223372036854775807n, null]],
      [{ kind: 'FLOAT64' }, [0, -0, 1.5, 1e20, 4.9e-324, NaN, Infinity, -Infinity, 1 / 7, null]],
      [{ kind: 'BOOL' }, [true, false, null]],
      [{ kind: 'STRING' }, ['', 'a"b\\c\n', 'é😀', null]],
      [{ kind: 'DATE' }, ['2024-02-29', null]],
      [{ kind: 'NUMERIC' }, ['-1.5', null]],
      [{ kind: 'TIMESTAMP' }, [1704067200123456n, null]],
      [{ kind: 'ARRAY', element: { kind: 'INT64' } }, [[1n, 2n], [], null]],
      [{ kind: 'STRUCT', fields: [{ name: 'a', type: { kind: 'STRING' } }] }, [['x'], null]],
    ];
    for (const useInt64Timestamp of [false, true])
      for (const [t, values] of cases) {
        const enc = cellJsonEncoder(t, { useInt64Timestamp });
        for (const v of values) {
          const c = encodeCell(v, t, { useInt64Timestamp });
          expect(enc(v)).toBe(c === null ? 'null' : JSON.stringify(c));
        }
      }
  });
});
