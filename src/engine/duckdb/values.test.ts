import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { BqType, Value } from '../../types/types.js';
import { TIMESTAMP_MAX_MICROS, TIMESTAMP_MIN_MICROS } from '../../types/temporal.js';
import { INTERVAL_MAX_MICROS } from '../../types/interval.js';
import { duckType } from './types.js';
import { fromDuckValue, makeColumnDecoder, quoteString, toDuckLiteral } from './values.js';

const T = (kind: string) => ({ kind }) as BqType;
const arr = (element: BqType): BqType => ({ kind: 'ARRAY', element });
const range = (element: BqType): BqType => ({ kind: 'RANGE', element });
const struct = (...fields: [string, BqType][]): BqType => ({ kind: 'STRUCT', fields: fields.map(([name, type]) => ({ name, type })) });

const randomBytes = Uint8Array.from({ length: 300 }, (_x, i) => (i * 37 + 11) % 256);

/** Every type with canonical domain values, nested and repeated ones included. */
const SAMPLES: [BqType, Value[]][] = [
  [T('INT64'), [0n, 42n, -9_223_372_036_854_775_808n, 9_223_372_036_854_775_807n]],
  [T('FLOAT64'), [1.5, 0.1, -0, 0, NaN, Infinity, -Infinity, 5e-324, 1.7976931348623157e308, -2.5e-8, 1e21]],
  [T('NUMERIC'), ['0', '-0.000000001', '99999999999999999999999999999.999999999', '-99999999999999999999999999999.999999999', '123.456789012', '-3']],
  [T('BIGNUMERIC'), ['578960446186580977117854925043439539266.34992332820282019728792003956564819967', '1.5', '-0.00000000000000000000000000000000000001']],
  [T('BOOL'), [true, false]],
  [T('STRING'), ['', "it's", 'ünïcödé 🎉', 'line\nbreak\\', 'nul\u0000inside']],
  [T('BYTES'), [new Uint8Array([]), new Uint8Array([0, 1, 255]), randomBytes]],
  [T('DATE'), ['0001-01-01', '9999-12-31', '1969-12-31', '2024-02-29']],
  [T('DATETIME'), ['0001-01-01T00:00:00', '9999-12-31T23:59:59.999999', '2024-01-01T12:00:00.500', '1969-12-31T23:59:59.000001']],
  [T('TIME'), ['00:00:00', '23:59:59.999999', '12:30:00.123']],
  [T('TIMESTAMP'), [TIMESTAMP_MIN_MICROS, TIMESTAMP_MAX_MICROS, 0n, -1n, 1_704_110_400_123_456n]],
  [T('INTERVAL'), [{ months: 0, days: 0, micros: 0n }, { months: -120_000, days: 3_660_000, micros: -INTERVAL_MAX_MICROS }, { months: 14, days: -3, micros: 14_706_789_000n }]],
  [T('JSON'), ['{"a":[1,"x",null]}', '12345678901234567890', 'null', '"s"']],
  [T('GEOGRAPHY'), ['POINT(1 2)', 'LINESTRING(0 0, 1 1)']],
  [arr(T('INT64')), [[], [1n, 2n, 3n]]],
  [arr(T('BYTES')), [[new Uint8Array([7]), new Uint8Array([])]]],
  [arr(struct(['a', T('STRING')], ['b', arr(T('DATE'))])), [[['x', ['2024-01-01', '2024-01-02']], [null, []]], []]],
  [struct(['x', T('INT64')], ['X', T('STRING')], ['', T('BOOL')], ['ts', T('TIMESTAMP')]), [[1n, 'y', null, 5n], [null, null, true, null]]],
  [struct(['outer', struct(['inner', arr(T('TIMESTAMP'))], ['n', T('NUMERIC')])]), [[[[0n, -1n], '1.5']], [null]]],
  [range(T('DATE')), [{ start: '2024-01-01', end: null }, { start: null, end: null }, { start: '2024-01-01', end: '2024-12-31' }]],
  [range(T('DATETIME')), [{ start: '2024-01-01T00:00:00', end: '2024-01-02T00:00:00.250' }]],
  [range(T('TIMESTAMP')), [{ start: 1_704_067_200_000_000n, end: null }]],
  [arr(range(T('DATE'))), [[{ start: null, end: '2024-02-01' }]]],
  [arr(T('INTERVAL')), [[{ months: 1, days: 2, micros: 3n }]]],
];

describe('DuckDB round trip: domain → toDuckLiteral → SELECT → fromDuckValue', () => {
  let db: DuckDBInstance;
  let conn: DuckDBConnection;
  beforeAll(async () => {
    db = await DuckDBInstance.create(':memory:');
    conn = await db.connect();
    await conn.run("SET TimeZone='UTC'");
  });
  afterAll(() => {
    conn.closeSync();
    db.closeSync();
  });

  for (const [t, values] of SAMPLES) {
    it(`${duckType(t)}`, async () => {
      for (const v of [...values, null]) {
        const sql = `SELECT ${toDuckLiteral(v, t)}`;
        const r = await conn.runAndReadAll(sql);
        expect(r.columnTypes()[0].toString().replace(/"/g, '')).toBe(duckTypeAsReported(t));
        expect(fromDuckValue(r.getRows()[0][0], t), sql).toEqual(v);
      }
    });
  }

  it('stores and reads back through a table of every sample type', async () => {
    const cols = SAMPLES.map(([t], i) => `c${i} ${duckType(t)}`);
    await conn.run(`CREATE TABLE all_types (${cols.join(', ')})`);
    const width = Math.max(...SAMPLES.map(([, vs]) => vs.length));
    for (let row = 0; row < width; row++) {
      const lits = SAMPLES.map(([t, vs]) => toDuckLiteral(row < vs.length ? vs[row] : null, t));
      await conn.run(`INSERT INTO all_types VALUES (${lits.join(', ')})`);
    }
    const decoders = SAMPLES.map(([t]) => makeColumnDecoder(t));
    const rows = (await conn.runAndReadAll('SELECT * FROM all_types')).getRows();
    expect(rows.length).toBe(width);
    rows.forEach((row, r) =>
      SAMPLES.forEach(([, vs], c) => expect(decoders[c](row[c])).toEqual(r < vs.length ? vs[r] : null)),
    );
  });

  it('writes TIMESTAMP independently of the session time zone', async () => {
    const other = await db.connect();
    await other.run("SET TimeZone='America/Los_Angeles'");
    const r = await other.runAndReadAll(`SELECT ${toDuckLiteral(1_704_110_400_123_456n, T('TIMESTAMP'))}`);
    expect(fromDuckValue(r.getRows()[0][0], T('TIMESTAMP'))).toBe(1_704_110_400_123_456n);
    other.closeSync();
  });

  it('accepts the JS forms of getRowsJS where they are lossless', async () => {
    const t = struct(['i', T('INT64')], ['l', arr(T('STRING'))], ['t', T('TIME')], ['b', T('BYTES')], ['iv', T('INTERVAL')]);
    const v: Value = [7n, ['a'], '01:02:03.000004', new Uint8Array([9]), { months: 1, days: -1, micros: 5n }];
    const r = await conn.runAndReadAll(`SELECT ${toDuckLiteral(v, t)}`);
    expect(fromDuckValue(r.getRowsJS()[0][0], t)).toEqual(v);
  });
});

describe('toDuckLiteral text', () => {
  it('casts explicitly', () => {
    expect(toDuckLiteral(null, arr(T('INT64')))).toBe('NULL::BIGINT[]');
    expect(toDuckLiteral(NaN, T('FLOAT64'))).toBe("'NaN'::DOUBLE");
    expect(toDuckLiteral(1_704_110_400_123_456n, T('TIMESTAMP'))).toBe('make_timestamptz(CAST(1704110400123456 AS BIGINT))');
    expect(toDuckLiteral([1n, 'a'], struct(['n', T('INT64')], ['', T('STRING')]))).toBe(`{'n': CAST(1 AS BIGINT), '_f1': 'a'::VARCHAR}::STRUCT("n" BIGINT, "_f1" VARCHAR)`);
    expect(toDuckLiteral([], arr(T('DATE')))).toBe('[]::DATE[]');
    expect(quoteString("a'b")).toBe("'a''b'");
  });
  it('refuses a value of the wrong shape', () => {
    expect(() => toDuckLiteral('1', T('INT64'))).toThrow(/Cannot write/);
    expect(() => toDuckLiteral([1n], struct(['a', T('INT64')], ['b', T('INT64')]))).toThrow(/Cannot write/);
  });
});

/** DuckDB's own spelling of the storage type in result metadata (quotes dropped for comparison). */
function duckTypeAsReported(t: BqType): string {
  return duckType(t)
    .replace(/"/g, '')
    .replace(/TIMESTAMPTZ/g, 'TIMESTAMP WITH TIME ZONE')
    .replace(/\bJSON\b/g, 'VARCHAR');
}
