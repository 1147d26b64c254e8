import { describe, expect, it } from 'vitest';
import {
  compareCell,
  compareError,
  compareJobMetadata,
  compareOutcome,
  compareRows,
  compareSchema,
  pythonPatternToRegExp,
  scalarsEqual,
  type ActualError,
  type ActualSuccess,
} from './compare.js';
import type { Expected, ExpectedError, SchemaField } from './fixtures.js';
import { parseJsonSafe } from './jsonsafe.js';

const eq = (type: string, e: unknown, a: unknown) => scalarsEqual(type, e, a);

describe('tolerances (conformance/README.md "Tolerances")', () => {
  it('INT64: exact, including values beyond 2^53', () => {
    expect(eq('INT64', 9223372036854775807n, '9223372036854775807')).toBe(true);
    expect(eq('INT64', 9223372036854775807n, '9223372036854775806')).toBe(false);
    expect(eq('INT64', 9007199254740993n, '9007199254740992')).toBe(false);
    expect(eq('INT64', 42, '42')).toBe(true);
    expect(eq('INT64', 42, '43')).toBe(false);
    expect(eq('INT64', 42, '42.0')).toBe(false);
  });
  it('BOOL, DATE, BYTES: exact', () => {
    expect(eq('BOOL', true, true)).toBe(true);
    expect(eq('BOOL', true, 'true')).toBe(false);
    expect(eq('BOOL', false, true)).toBe(false);
    expect(eq('DATE', '2024-01-15', '2024-01-15')).toBe(true);
    expect(eq('DATE', '2024-01-15', '2024-1-15')).toBe(false);
    expect(eq('BYTES', 'aGVsbG8=', Buffer.from('hello'))).toBe(true);
    expect(eq('BYTES', 'aGVsbG8=', 'aGVsbG9=')).toBe(false);
  });
  it('STRING: exact unless WKT- or JSON-shaped', () => {
    expect(eq('STRING', 'abc', 'abc')).toBe(true);
    expect(eq('STRING', 'abc', 'ABC')).toBe(false);
    expect(eq('STRING', 'abc', 'abc ')).toBe(false);
  });
  it('STRING WKT-shaped: whitespace and capitalisation normalised', () => {
    expect(eq('STRING', 'POINT(1 2)', 'POINT (1 2)')).toBe(true);
    expect(eq('STRING', 'LINESTRING(1 2, 3 4)', 'linestring (1 2,3 4)')).toBe(true);
    expect(eq('STRING', 'POLYGON((0 0, 1 0, 1 1, 0 0))', 'POLYGON ((0 0,1 0,1 1,0 0))')).toBe(true);
    expect(eq('STRING', 'POINT(1 2)', 'POINT (1 3)')).toBe(false);
    expect(eq('STRING', 'POINT(1 2)', 'POINT(12)')).toBe(false);
    expect(eq('STRING', 'hello world', 'HELLO WORLD')).toBe(false);
  });
  it('STRING JSON-shaped: parsed, unordered keys, 3 == 3.0', () => {
    expect(eq('STRING', '{"a":1,"b":[2,3]}', '{ "b": [2, 3], "a": 1.0 }')).toBe(true);
    expect(eq('STRING', '[1, "two", true]', '[1,"two",true]')).toBe(true);
    expect(eq('STRING', '{"a":1,"b":[2,3]}', '{"a":1,"b":[3,2]}')).toBe(false);
    expect(eq('STRING', '{"a":1}', '{"a":1,"b":null}')).toBe(false);
    expect(eq('STRING', '{"a":"1"}', '{"a":1}')).toBe(false);
    expect(eq('STRING', '{"n":12345678901234567890}', '{"n":12345678901234567891}')).toBe(false);
  });
  it('STRING JSON-shaped: falls back to exact when either side does not parse', () => {
    expect(eq('STRING', '{not json', '{not json')).toBe(true);
    expect(eq('STRING', '{not json', '{not  json')).toBe(false);
    expect(eq('STRING', '[1,2]', '[1,2')).toBe(false);
  });
  it('NUMERIC / BIGNUMERIC: decimal equality', () => {
    expect(eq('NUMERIC', '1.0', '1')).toBe(true);
    expect(eq('NUMERIC', '100', '1E+2')).toBe(true);
    expect(eq('NUMERIC', '-0.50', '-0.5')).toBe(true);
    expect(eq('NUMERIC', '0', '-0.000')).toBe(true);
    expect(eq('NUMERIC', '1.0', '1.01')).toBe(false);
    expect(eq('NUMERIC', '-1', '1')).toBe(false);
    expect(eq('BIGNUMERIC', '12345678901234567890.123456789', '12345678901234567890.1234567890')).toBe(true);
    expect(eq('BIGNUMERIC', '12345678901234567890.123456789', '12345678901234567890.123456788')).toBe(false);
    expect(eq('NUMERIC', '1', 'abc')).toBe(false);
  });
  it('FLOAT64: rel 1e-12, abs 1e-15, NaN == NaN, infinities by sign', () => {
    expect(eq('FLOAT64', 1, 1 + 5e-13)).toBe(true);
    expect(eq('FLOAT64', 1, 1 + 5e-12)).toBe(false);
    expect(eq('FLOAT64', 1e20, 1e20 * (1 + 5e-13))).toBe(true);
    expect(eq('FLOAT64', 0, 5e-16)).toBe(true);
    expect(eq('FLOAT64', 0, 5e-15)).toBe(false);
    expect(eq('FLOAT64', Number.NaN, Number.NaN)).toBe(true);
    expect(eq('FLOAT64', Number.NaN, 0)).toBe(false);
    expect(eq('FLOAT64', Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY)).toBe(true);
    expect(eq('FLOAT64', Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY)).toBe(false);
    expect(eq('FLOAT64', 1e308, Number.POSITIVE_INFINITY)).toBe(false);
    expect(eq('FLOAT64', 2.5, '2.5')).toBe(true);
  });
  it('TIMESTAMP: within 1 µs, Python ISO vs client ISO', () => {
    expect(eq('TIMESTAMP', '2024-01-01T00:00:00+00:00', '2024-01-01T00:00:00.000Z')).toBe(true);
    expect(eq('TIMESTAMP', '2024-01-01T00:00:00.123456+00:00', '2024-01-01T00:00:00.123457Z')).toBe(true);
    expect(eq('TIMESTAMP', '2024-01-01T00:00:00.123456+00:00', '2024-01-01T00:00:00.123458Z')).toBe(false);
    expect(eq('TIMESTAMP', '2024-01-01T00:00:00.123456+00:00', '2024-01-01T00:00:00.123456000Z')).toBe(true);
    expect(eq('TIMESTAMP', '2024-01-01T05:30:00+05:30', '2024-01-01T00:00:00Z')).toBe(true);
    expect(eq('TIMESTAMP', '2024-01-01T00:00:00+00:00', '2024-01-01 00:00:00 UTC')).toBe(true);
    expect(eq('TIMESTAMP', '0001-01-01T00:00:00+00:00', '0001-01-01T00:00:00.000Z')).toBe(true);
    expect(eq('TIMESTAMP', '2024-01-01T00:00:00+00:00', '2024-01-01T00:00:01Z')).toBe(false);
    expect(eq('TIMESTAMP', '2024-01-01T00:00:00+00:00', 'not a timestamp')).toBe(false);
  });
  it('DATETIME and TIME: within 1 µs', () => {
    expect(eq('DATETIME', '2024-01-22T00:00:00', '2024-01-22T00:00:00.000001')).toBe(true);
    expect(eq('DATETIME', '2024-01-22T00:00:00', '2024-01-22 00:00:00')).toBe(true);
    expect(eq('DATETIME', '2024-01-22T00:00:00', '2024-01-22T00:00:00.000002')).toBe(false);
    expect(eq('TIME', '14:00:45', '14:00:45.000000')).toBe(true);
    expect(eq('TIME', '14:00:45.5', '14:00:45.500001')).toBe(true);
    expect(eq('TIME', '14:00:45', '14:00:46')).toBe(false);
  });
  it('GEOGRAPHY: WKT normalised', () => {
    expect(eq('GEOGRAPHY', 'POINT(1 2)', 'point (1 2)')).toBe(true);
    expect(eq('GEOGRAPHY', 'POINT(1 2)', 'POINT(2 1)')).toBe(false);
  });
  it('JSON: parsed equality', () => {
    expect(eq('JSON', '{"k1": 1, "k2": "two"}', '{"k2":"two","k1":1}')).toBe(true);
    expect(eq('JSON', '3', '3.0')).toBe(true);
    expect(eq('JSON', '[99, 1, 2, 3]', '[99,1,2,3]')).toBe(true);
    expect(eq('JSON', '[99, 1, 2, 3]', '[1,99,2,3]')).toBe(false);
    expect(eq('JSON', '{"a": 1}', '{"a": 2}')).toBe(false);
    expect(eq('JSON', '"x"', '"y"')).toBe(false);
  });
  it('INTERVAL: relativedelta text against canonical Y-M D H:M:S[.F]', () => {
    expect(eq('INTERVAL', 'relativedelta(years=+1, months=+2)', '1-2 0 0:0:0')).toBe(true);
    expect(eq('INTERVAL', 'relativedelta()', '0-0 0 0:0:0')).toBe(true);
    expect(eq('INTERVAL', 'relativedelta(months=+1, days=+10)', '0-1 10 0:0:0')).toBe(true);
    expect(eq('INTERVAL', 'relativedelta(years=+1, months=+2, days=+3, hours=+4, minutes=+5, seconds=+6)', '1-2 3 4:5:6')).toBe(true);
    expect(eq('INTERVAL', 'relativedelta(hours=+1, microseconds=+500000)', '0-0 0 1:0:0.5')).toBe(true);
    expect(eq('INTERVAL', 'relativedelta(years=-1, months=-2, days=-3, hours=-4)', '-1-2 -3 -4:0:0')).toBe(true);
    expect(eq('INTERVAL', 'relativedelta(days=+1, hours=+1)', '0-0 0 25:0:0')).toBe(true);
    expect(eq('INTERVAL', 'relativedelta(years=+1, months=+2)', '1-3 0 0:0:0')).toBe(false);
    expect(eq('INTERVAL', 'relativedelta(days=+1)', '0-0 0 24:0:0')).toBe(true);
    expect(eq('INTERVAL', 'relativedelta(days=+30)', '0-1 0 0:0:0')).toBe(false);
    expect(eq('INTERVAL', 'relativedelta(hours=+4)', '0-0 0 -4:0:0')).toBe(false);
    expect(eq('INTERVAL', 'relativedelta(hours=+4)', 'garbage')).toBe(false);
  });
  it('RANGE: start/end equality, unbounded as null', () => {
    expect(eq('RANGE', { start: '2024-01-01', end: '2024-12-31' }, { start: '2024-01-01', end: '2024-12-31' })).toBe(true);
    expect(eq('RANGE', { start: '2024-01-01', end: null }, { start: '2024-01-01', end: null })).toBe(true);
    expect(eq('RANGE', { start: '2024-01-01' }, { start: '2024-01-01', end: null })).toBe(true);
    expect(eq('RANGE', { start: '2024-01-01', end: null }, { start: '2024-01-01', end: '2024-12-31' })).toBe(false);
    expect(eq('RANGE', { start: '2024-01-01', end: '2024-12-31' }, { start: '2024-01-02', end: '2024-12-31' })).toBe(false);
  });
});

describe('compareCell: ARRAY and STRUCT', () => {
  const arr: SchemaField = { name: 'a', type: 'INTEGER', mode: 'REPEATED' };
  it('ARRAY: ordered element-wise by element type', () => {
    expect(compareCell([1, 2, 3], ['1', '2', '3'], arr, 'a')).toBeUndefined();
    expect(compareCell([1, 2, 3], ['1', '3', '2'], arr, 'a')).toMatch(/a\[1\]/);
    expect(compareCell([1, 2, 3], ['1', '2'], arr, 'a')).toMatch(/array length/);
    expect(compareCell([], null, arr, 'a')).toBeUndefined();
    const floats: SchemaField = { name: 'f', type: 'FLOAT', mode: 'REPEATED' };
    expect(compareCell([0.1], [0.1 + 1e-17], floats, 'f')).toBeUndefined();
  });
  it('STRUCT: per field by declared type, recursively', () => {
    const st: SchemaField = {
      name: 's',
      type: 'RECORD',
      fields: [
        { name: 'inner', type: 'RECORD', fields: [{ name: 'n', type: 'NUMERIC' }, { name: 't', type: 'TIMESTAMP' }] },
        { name: 'label', type: 'STRING' },
      ],
    };
    const e = { inner: { n: '1.50', t: '2024-01-01T00:00:00+00:00' }, label: 'top' };
    expect(compareCell(e, { inner: { n: '1.5', t: '2024-01-01T00:00:00.000Z' }, label: 'top' }, st, 's')).toBeUndefined();
    expect(compareCell(e, { inner: { n: '1.51', t: '2024-01-01T00:00:00.000Z' }, label: 'top' }, st, 's')).toMatch(/s\.inner\.n/);
    expect(compareCell(e, { inner: { n: '1.5', t: '2024-01-01T00:00:00.000Z' }, label: 'Top' }, st, 's')).toMatch(/s\.label/);
    expect(compareCell(e, null, st, 's')).toMatch(/NULL mismatch/);
  });
  it('NULL equals only NULL', () => {
    expect(compareCell(null, null, { name: 'x', type: 'STRING' }, 'x')).toBeUndefined();
    expect(compareCell(null, '', { name: 'x', type: 'STRING' }, 'x')).toMatch(/NULL mismatch/);
    expect(compareCell(0, null, { name: 'x', type: 'INTEGER' }, 'x')).toMatch(/NULL mismatch/);
  });
});

describe('compareSchema', () => {
  const exp: SchemaField[] = [
    { name: 'i', type: 'INTEGER', mode: 'NULLABLE' },
    { name: 'r', type: 'RECORD', mode: 'REPEATED', fields: [{ name: 'b', type: 'BOOLEAN', mode: 'NULLABLE' }] },
  ];
  it('normalises aliases and the default mode, recursing into fields', () => {
    expect(compareSchema(exp, [{ name: 'i', type: 'INT64' }, { name: 'r', type: 'STRUCT', mode: 'REPEATED', fields: [{ name: 'b', type: 'BOOL' }] }])).toBeUndefined();
  });
  it('reports name, type, mode, count and nested differences', () => {
    expect(compareSchema(exp, [{ name: 'I', type: 'INT64' }, exp[1]!])?.cause).toBe('schema name');
    expect(compareSchema(exp, [{ name: 'i', type: 'STRING' }, exp[1]!])?.cause).toBe('schema type INT64 vs STRING');
    expect(compareSchema(exp, [{ name: 'i', type: 'INT64', mode: 'REQUIRED' }, exp[1]!])?.cause).toBe('schema mode NULLABLE vs REQUIRED');
    expect(compareSchema(exp, [exp[0]!])?.cause).toBe('schema field count');
    expect(compareSchema(exp, [exp[0]!, { name: 'r', type: 'RECORD', mode: 'REPEATED', fields: [{ name: 'b', type: 'STRING' }] }])?.path).toBe('schema[1].fields[0]');
    expect(compareSchema(exp, [{ name: 'i', type: 'FLOAT' }, exp[1]!])).toBeDefined();
  });
});

describe('compareRows', () => {
  const schema: SchemaField[] = [{ name: 'x', type: 'INTEGER' }];
  it('compares rows in order', () => {
    expect(compareRows(schema, [{ x: 1 }, { x: 2 }], [{ x: '1' }, { x: '2' }])).toEqual([]);
    const d = compareRows(schema, [{ x: 1 }, { x: 2 }], [{ x: '1' }, { x: '3' }]);
    expect(d[0]?.kind).toBe('rows');
    expect(d[0]?.path).toBe('rows[1].x');
  });
  it('reports a row-order difference when the multiset matches', () => {
    const d = compareRows(schema, [{ x: 1 }, { x: 2 }], [{ x: '2' }, { x: '1' }]);
    expect(d).toHaveLength(1);
    expect(d[0]?.kind).toBe('row-order');
  });
  it('reports the row count first', () => {
    expect(compareRows(schema, [{ x: 1 }], [])[0]?.kind).toBe('row-count');
  });
});

describe('job_metadata', () => {
  const job = { statistics: { query: { statementType: 'INSERT', numDmlAffectedRows: '1', cacheHit: false, ddlOperationPerformed: 'CREATE' } }, configuration: { labels: { a: 'b' } } };
  it('maps snake_case keys onto the job statistics', () => {
    expect(compareJobMetadata({ statement_type: 'INSERT', num_dml_affected_rows: 1, cache_hit: false, ddl_operation_performed: 'CREATE', labels: { a: 'b' } }, job)).toEqual([]);
  });
  it('reports differing and absent keys', () => {
    expect(compareJobMetadata({ statement_type: 'SELECT' }, job)[0]?.cause).toBe('job_metadata.statement_type');
    expect(compareJobMetadata({ num_dml_affected_rows: 2 }, job)).toHaveLength(1);
    expect(compareJobMetadata({ cache_hit: false }, { statistics: { query: {} } })[0]?.cause).toBe('job_metadata.cache_hit absent');
    expect(compareJobMetadata({ cache_hit: false }, undefined)).toHaveLength(1);
  });
});

describe('error parity (conformance/README.md "Error parity")', () => {
  const exp: ExpectedError = {
    reason: 'invalidQuery',
    location: 'query',
    http_status: 400,
    message_pattern: 'Syntax\\ error:\\ Unexpected\\ identifier\\ "SLECT"\\ at\\ \\[\\d+:\\d+\\]',
  };
  const act: ActualError = { kind: 'error', reason: 'invalidQuery', location: 'query', httpStatus: 400, message: 'Syntax error: Unexpected identifier "SLECT" at [1:1]' };
  it('matches reason, location, status and message pattern', () => {
    expect(compareError(exp, act)).toEqual([]);
  });
  it('reports each field separately', () => {
    expect(compareError(exp, { ...act, reason: 'invalid' }).map((d) => d.kind)).toEqual(['error-reason']);
    expect(compareError(exp, { ...act, location: 'q' }).map((d) => d.kind)).toEqual(['error-location']);
    expect(compareError(exp, { ...act, location: null }).map((d) => d.kind)).toEqual(['error-location']);
    expect(compareError(exp, { ...act, httpStatus: 500 }).map((d) => d.kind)).toEqual(['error-status']);
    expect(compareError(exp, { ...act, message: 'Syntax error: Unexpected identifier "SELECT" at [1:1]' }).map((d) => d.kind)).toEqual(['error-message']);
  });
  it('treats absent, null and empty location alike', () => {
    expect(compareError({ ...exp, location: null }, { ...act, location: undefined })).toEqual([]);
    expect(compareError({ ...exp, location: null }, { ...act, location: '' })).toEqual([]);
  });
  it('searches (not full-match) with dot matching newline', () => {
    const multi: ExpectedError = { ...exp, message_pattern: 'SUBSTR\\\n\\ \\ Argument\\ types:.*INT64' };
    expect(compareError(multi, { ...act, message: 'No matching signature for function SUBSTR\n  Argument types: STRING\n  Signature: SUBSTR(STRING, INT64)' })).toEqual([]);
    expect(pythonPatternToRegExp('a.b').test('xxa\nbyy')).toBe(true);
    expect(pythonPatternToRegExp('^a.b$').test('xa\nb')).toBe(false);
  });
  it('translates Python-only regex syntax', () => {
    expect(pythonPatternToRegExp('(?P<w>ab)(?P=w)').test('abab')).toBe(true);
    expect(pythonPatternToRegExp('(?i)not found').test('Not Found')).toBe(true);
    expect(pythonPatternToRegExp('\\Aabc\\Z').test('abc')).toBe(true);
    expect(pythonPatternToRegExp('\\Aabc\\Z').test('abc\n')).toBe(false);
    expect(pythonPatternToRegExp('[\\w\\-\\.:]+').test('your-bigquery-project:ds_1')).toBe(true);
  });
});

describe('compareOutcome', () => {
  const success = parseJsonSafe('{"schema":[{"name":"n","type":"INTEGER","mode":"NULLABLE"}],"rows":[{"n":1}],"job_metadata":{"statement_type":"SELECT"}}') as Expected;
  const failure: Expected = { error: { reason: 'notFound', location: null, http_status: 404, message_pattern: 'Not found' } };
  const okActual: ActualSuccess = { kind: 'success', schema: [{ name: 'n', type: 'INTEGER', mode: 'NULLABLE' }], rows: [{ n: '1' }], job: { statistics: { query: { statementType: 'SELECT' } } } };
  const errActual: ActualError = { kind: 'error', reason: 'notFound', httpStatus: 404, message: 'Not found: Table x' };
  it('passes matching outcomes of both forms', () => {
    expect(compareOutcome(success, okActual)).toEqual([]);
    expect(compareOutcome(failure, errActual)).toEqual([]);
  });
  it('reports kind mismatch before any per-field diff', () => {
    const a = compareOutcome(success, errActual);
    expect(a).toHaveLength(1);
    expect(a[0]?.kind).toBe('kind mismatch');
    expect(a[0]?.message).toMatch(/^kind mismatch/);
    const b = compareOutcome(failure, okActual);
    expect(b).toHaveLength(1);
    expect(b[0]?.kind).toBe('kind mismatch');
  });
  it('checks schema before rows and rows before job_metadata', () => {
    expect(compareOutcome(success, { ...okActual, schema: [{ name: 'n', type: 'STRING' }], rows: [{ n: '2' }] })[0]?.kind).toBe('schema');
    expect(compareOutcome(success, { ...okActual, rows: [{ n: '2' }], job: {} })[0]?.kind).toBe('rows');
    expect(compareOutcome(success, { ...okActual, job: { statistics: { query: { statementType: 'SCRIPT' } } } })[0]?.kind).toBe('job-metadata');
  });
  it('treats an absent actual schema as empty for DML baselines', () => {
    const dml = { schema: [], rows: [] } as Expected;
    expect(compareOutcome(dml, { kind: 'success', schema: [], rows: [] })).toEqual([]);
    expect(compareOutcome(dml, { kind: 'success', schema: [{ name: 'x', type: 'INT64' }], rows: [] })[0]?.kind).toBe('schema');
  });
});
