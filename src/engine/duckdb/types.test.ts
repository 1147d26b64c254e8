import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { BqType } from '../../types/types.js';
import { duckFieldName, duckFieldNames, duckType, quoteIdent } from './types.js';

const T = (kind: string) => ({ kind }) as BqType;

describe('duckType', () => {
  it('maps every scalar type', () => {
    const expected: Record<string, string> = {
      INT64: 'BIGINT', FLOAT64: 'DOUBLE', NUMERIC: 'DECIMAL(38,9)', BIGNUMERIC: 'VARCHAR', BOOL: 'BOOLEAN', STRING: 'VARCHAR',
      BYTES: 'BLOB', DATE: 'DATE', DATETIME: 'TIMESTAMP', TIME: 'TIME', TIMESTAMP: 'TIMESTAMPTZ', INTERVAL: 'INTERVAL',
      JSON: 'JSON', GEOGRAPHY: 'VARCHAR',
    };
    for (const [k, v] of Object.entries(expected)) expect(duckType(T(k))).toBe(v);
  });
  it('maps ARRAY, STRUCT and RANGE', () => {
    expect(duckType({ kind: 'ARRAY', element: T('INT64') })).toBe('BIGINT[]');
    expect(duckType({ kind: 'RANGE', element: T('DATE') })).toBe('STRUCT("start" DATE, "end" DATE)');
    const s: BqType = { kind: 'STRUCT', fields: [{ name: 'a', type: T('INT64') }, { name: '', type: { kind: 'ARRAY', element: T('STRING') } }, { name: 'we"ird', type: T('BOOL') }] };
    expect(duckType(s)).toBe('STRUCT("a" BIGINT, "_f1" VARCHAR[], "we""ird" BOOLEAN)');
    expect(() => duckType({ kind: 'STRUCT', fields: [] })).toThrow(/not supported/);
  });
  it('quotes identifiers', () => {
    expect(quoteIdent('a"b')).toBe('"a""b"');
  });
});

describe('duckFieldName', () => {
  it('keeps unique non-empty names, numbers the others', () => {
    const s: BqType = { kind: 'STRUCT', fields: [{ name: 'x', type: T('INT64') }, { name: 'X', type: T('INT64') }, { name: '', type: T('INT64') }, { name: 'y', type: T('INT64') }] };
    expect(duckFieldNames(s)).toEqual(['_f0', '_f1', '_f2', 'y']);
    expect(duckFieldName(s, 3)).toBe('y');
  });
  it('never lets a kept name collide with a generated one', () => {
    const s: BqType = { kind: 'STRUCT', fields: [{ name: '_F2', type: T('INT64') }, { name: '_f1', type: T('INT64') }, { name: '', type: T('INT64') }] };
    const names = duckFieldNames(s);
    expect(names).toEqual(['_f0', '_f1', '_f2']);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(3);
  });
});

describe('the types exist in DuckDB', () => {
  let db: DuckDBInstance;
  let conn: DuckDBConnection;
  beforeAll(async () => {
    db = await DuckDBInstance.create(':memory:');
    conn = await db.connect();
  });
  afterAll(() => {
    conn.closeSync();
    db.closeSync();
  });
  it('creates a table with every mapped type', async () => {
    const nested: BqType = {
      kind: 'ARRAY',
      element: { kind: 'STRUCT', fields: [{ name: 'a', type: T('NUMERIC') }, { name: 'a', type: { kind: 'RANGE', element: T('TIMESTAMP') } }] },
    };
    const cols = ['INT64', 'FLOAT64', 'NUMERIC', 'BIGNUMERIC', 'BOOL', 'STRING', 'BYTES', 'DATE', 'DATETIME', 'TIME', 'TIMESTAMP', 'INTERVAL', 'JSON', 'GEOGRAPHY']
      .map((k, i) => `c${i} ${duckType(T(k))}`);
    await conn.run(`CREATE TABLE t (${cols.join(', ')}, n ${duckType(nested)})`);
    const r = await conn.runAndReadAll(`SELECT column_type FROM (DESCRIBE t) WHERE column_name = 'n'`);
    expect(r.getRows()[0][0]).toBe('STRUCT(_f0 DECIMAL(38,9), _f1 STRUCT("start" TIMESTAMP WITH TIME ZONE, "end" TIMESTAMP WITH TIME ZONE))[]');
  });
});
