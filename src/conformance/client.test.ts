import { BigQuery, BigQueryDate, BigQueryInt, BigQueryTimestamp } from '@google-cloud/bigquery';
import { describe, expect, it } from 'vitest';
import { HeaderInjectingAuthClient, mapJobConfig, mapParameters, needsJobInsert, toActualError, toPlainValue, toSchemaFields } from './client.js';

describe('mapJobConfig (conformance/README.md "Recording notes" 6)', () => {
  it('maps Python snake_case knobs to REST fields', () => {
    const m = mapJobConfig(
      {
        destination: 'p1.ds.target',
        write_disposition: 'WRITE_TRUNCATE',
        create_disposition: 'CREATE_NEVER',
        clustering_fields: ['a', 'b'],
        time_partitioning: { type: 'DAY', field: 'dt', expiration_ms: 5 },
        job_timeout_ms: 60000,
        use_legacy_sql: false,
        dry_run: true,
        create_session: true,
        connection_properties: [{ key: 'session_id', value: 'abc' }],
        labels: { 'cost-center': '1234', city: '東京' },
        maximum_bytes_billed: 1,
        priority: 'BATCH',
        default_dataset: 'p1.ds',
        schema_update_options: ['ALLOW_FIELD_ADDITION'],
        use_query_cache: false,
        range_partitioning: { field: 'x', range: { start: 0, end: 10, interval: 2 } },
      },
      'dflt',
    );
    expect(m.destination).toEqual({ projectId: 'p1', datasetId: 'ds', tableId: 'target' });
    expect(m.options).toEqual({
      writeDisposition: 'WRITE_TRUNCATE',
      createDisposition: 'CREATE_NEVER',
      clustering: { fields: ['a', 'b'] },
      timePartitioning: { type: 'DAY', field: 'dt', expirationMs: 5 },
      jobTimeoutMs: 60000,
      useLegacySql: false,
      dryRun: true,
      createSession: true,
      connectionProperties: [{ key: 'session_id', value: 'abc' }],
      labels: { 'cost-center': '1234', city: '東京' },
      maximumBytesBilled: '1',
      priority: 'BATCH',
      defaultDataset: { projectId: 'p1', datasetId: 'ds' },
      schemaUpdateOptions: ['ALLOW_FIELD_ADDITION'],
      useQueryCache: false,
      rangePartitioning: { field: 'x', range: { start: 0, end: 10, interval: 2 } },
    });
    expect(m.unknownKeys).toEqual([]);
  });
  it('fills the default project and keeps table definition names', () => {
    const m = mapJobConfig({ destination: 'ds.t', default_dataset: 'ds', table_definitions: { my_ext: { source_uris: ['gs://b/x.csv'], source_format: 'CSV' } } }, 'dflt');
    expect(m.destination).toEqual({ projectId: 'dflt', datasetId: 'ds', tableId: 't' });
    expect(m.options.defaultDataset).toEqual({ projectId: 'dflt', datasetId: 'ds' });
    expect(m.options.tableDefinitions).toEqual({ my_ext: { sourceUris: ['gs://b/x.csv'], sourceFormat: 'CSV' } });
  });
  it('passes unknown keys camel-cased and lists them; rejects a bad destination', () => {
    const m = mapJobConfig({ some_new_knob: { inner_key: 1 } }, 'p');
    expect(m.unknownKeys).toEqual(['some_new_knob']);
    expect(m.options.someNewKnob).toEqual({ innerKey: 1 });
    expect(() => mapJobConfig({ destination: 'just_a_table' }, 'p')).toThrow(/destination/);
  });
  it('labels keys are not camel-cased', () => {
    expect(mapJobConfig({ labels: { my_label: 'x' } }, 'p').options.labels).toEqual({ my_label: 'x' });
  });
});

describe('needsJobInsert', () => {
  it('keeps the jobs.query path for knobs the client forwards there', () => {
    expect(needsJobInsert({ useQueryCache: false, labels: {}, maximumBytesBilled: '1', createSession: true, connectionProperties: [], defaultDataset: {} })).toBe(false);
  });
  it('uses jobs.insert for knobs the fast path would drop', () => {
    expect(needsJobInsert({ writeDisposition: 'WRITE_APPEND' })).toBe(true);
    expect(needsJobInsert({ scriptOptions: {} })).toBe(true);
    expect(needsJobInsert({ jobTimeoutMs: 1 })).toBe(true);
  });
});

describe('mapParameters (conformance/README.md "Fixture files")', () => {
  it('builds named params and types, never touching the SQL', () => {
    const { params, types } = mapParameters({
      mode: 'named',
      parameters: [
        { name: 'ids', type: { type: 'ARRAY', arrayType: { type: 'INT64' } }, value: [1, 2, 3] },
        { name: 'd', type: 'DATE', value: '2024-01-15' },
        { name: 's', type: 'STRING', value: null },
        { name: 'p', type: { type: 'STRUCT', structTypes: [{ name: 'name', type: 'STRING' }, { name: 'age', type: 'INT64' }] }, value: { name: 'Alice', age: 30 } },
        { name: 'big', type: 'INT64', value: 9223372036854775807n },
      ],
    });
    expect(types).toEqual({ ids: ['INT64'], d: 'DATE', s: 'STRING', p: { name: 'STRING', age: 'INT64' }, big: 'INT64' });
    const p = params as Record<string, unknown>;
    expect(p.ids).toEqual(['1', '2', '3']);
    expect(p.d).toBeInstanceOf(BigQueryDate);
    expect(p.s).toBeNull();
    expect(p.big).toBe('9223372036854775807');
    // The client turns them into REST queryParameters with the declared types.
    const qp = BigQuery.valueToQueryParameter_(p.p, (types as Record<string, never>).p);
    expect(qp.parameterType).toEqual({ type: 'STRUCT', structTypes: [{ name: 'name', type: { type: 'STRING' } }, { name: 'age', type: { type: 'INT64' } }] });
    expect(BigQuery.valueToQueryParameter_(p.d, 'DATE').parameterValue).toEqual({ value: '2024-01-15' });
    expect(BigQuery.valueToQueryParameter_(p.s, 'STRING').parameterValue).toEqual({ value: null });
  });
  it('builds positional arrays', () => {
    const { params, types } = mapParameters({ mode: 'positional', parameters: [{ type: 'INT64', value: 7 }, { type: 'TIMESTAMP', value: '2024-01-15 12:00:00+00:00' }] });
    expect(types).toEqual(['INT64', 'TIMESTAMP']);
    const ps = params as unknown[];
    expect(ps[0]).toBe('7');
    expect(ps[1]).toBeInstanceOf(BigQueryTimestamp);
  });
  it('rejects types it cannot express', () => {
    expect(() => mapParameters({ mode: 'positional', parameters: [{ type: { nope: 1 }, value: 1 }] })).toThrow(/type not understood/);
    expect(() => mapParameters({ mode: 'positional', parameters: [{ type: { type: 'ARRAY', arrayType: { type: 'INT64' } }, value: 5 }] })).toThrow(/ARRAY/);
  });
});

describe('toPlainValue', () => {
  it('converts the client decoded forms', () => {
    expect(toPlainValue(new BigQueryInt('9223372036854775807'))).toBe('9223372036854775807');
    expect(toPlainValue(BigQuery.date('2024-01-15'))).toBe('2024-01-15');
    expect(toPlainValue(BigQuery.timestamp('2024-01-15T09:00:00.123456Z'))).toBe('2024-01-15T09:00:00.123456000Z');
    expect(toPlainValue(Buffer.from('hello'))).toBe('aGVsbG8=');
    expect(toPlainValue(BigQuery.geography('POINT(1 2)'))).toBe('POINT(1 2)');
    expect(toPlainValue(BigQuery.range('[2024-01-01, UNBOUNDED)', 'DATE'))).toEqual({ start: '2024-01-01', end: null });
    expect(toPlainValue({ a: [new BigQueryInt('1'), null], b: { c: 1.5, d: true } })).toEqual({ a: ['1', null], b: { c: 1.5, d: true } });
  });
  it('renders NUMERIC (Big) without exponent', () => {
    const rows = BigQuery.mergeSchemaWithRows_({ fields: [{ name: 'n', type: 'NUMERIC' }, { name: 'b', type: 'BIGNUMERIC' }] }, [{ f: [{ v: '0.000000001' }, { v: '12345678901234567890123.5' }] }], { wrapIntegers: true, selectedFields: [], parseJSON: false });
    expect(toPlainValue(rows[0])).toEqual({ n: '0.000000001', b: '12345678901234567890123.5' });
  });
});

describe('toSchemaFields', () => {
  it('keeps name, type, mode and nested fields', () => {
    expect(toSchemaFields([{ name: 'r', type: 'RECORD', mode: 'REPEATED', fields: [{ name: 'x', type: 'INTEGER', description: 'd' }] }])).toEqual([
      { name: 'r', type: 'RECORD', mode: 'REPEATED', fields: [{ name: 'x', type: 'INTEGER' }] },
    ]);
    expect(toSchemaFields(undefined)).toEqual([]);
  });
});

describe('toActualError', () => {
  it('reads an HTTP error (status from the response)', () => {
    const err = Object.assign(new Error('Not found: Table p:d.t'), { code: 404, errors: [{ reason: 'notFound', message: 'Not found: Table p:d.t', domain: 'global' }] });
    expect(toActualError(err)).toEqual({ kind: 'error', reason: 'notFound', location: null, httpStatus: 404, message: 'Not found: Table p:d.t' });
  });
  it('reads a job error (status mapped from the reason, errorResult preferred)', () => {
    const err = Object.assign(new Error('combined'), {
      errors: [{ reason: 'invalid', message: 'other' }],
      response: { status: { errorResult: { reason: 'duplicate', message: 'Already Exists: Table p:d.t', location: 'q' } } },
    });
    expect(toActualError(err)).toEqual({ kind: 'error', reason: 'duplicate', location: 'q', httpStatus: 409, message: 'Already Exists: Table p:d.t' });
  });
  it('is undefined for non-API failures', () => {
    expect(toActualError(new TypeError('x.map is not a function'))).toBeUndefined();
    expect(toActualError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBeUndefined();
    expect(toActualError('boom')).toBeUndefined();
  });
});

describe('HeaderInjectingAuthClient', () => {
  it('adds headers only while set', async () => {
    const c = new HeaderInjectingAuthClient();
    expect([...(await c.getRequestHeaders()).keys()]).toEqual([]);
    c.extraHeaders = { 'X-Bqemu-Caller': 'user:a@b.c' };
    expect((await c.getRequestHeaders()).get('x-bqemu-caller')).toBe('user:a@b.c');
  });
});
