/**
 * TIMESTAMP columns with picosecond precision through @google-cloud/bigquery: a schema field
 * `timestampPrecision: '12'` (echoed as the string '12'), insertAll of a value with twelve
 * fractional digits, and table.getRows under each `formatOptions.timestampOutputFormat` /
 * `useInt64Timestamp` pair. Expected values reproduce the behaviours the official client's own
 * system test checks against BigQuery (nodejs-bigquery system-test/timestamp_output_format.ts:
 * INT64, FLOAT64 and the unspecified format carry microseconds; ISO8601_STRING all twelve digits;
 * useInt64Timestamp true with FLOAT64 or ISO8601_STRING is refused with "Cannot specify both
 * use_int64_timestamp and timestamp_output_format."), and the formats BigQuery's reference
 * documents (DataFormatOptions: FLOAT64 "float64 seconds since Unix epoch", INT64 "int64
 * microseconds since Unix epoch", ISO8601_STRING "YYYY-MM-DDTHH:MM:SS.FFFFFFFFFFFFZ";
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/tabledata/list#query-parameters).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Table } from '@google-cloud/bigquery';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';

let t: TestEmulator;
let table: Table;
const P = 'picos-project';
const D = 'picos_ds';
const INSERTED = '2023-01-01T12:00:00.123456789123Z';
// What @google-cloud/bigquery's BigQueryTimestamp makes of 1672574400123456 µs (a PreciseDate, nine digits).
const MICROS = '2023-01-01T12:00:00.123456000Z';
const CONFLICT = 'Cannot specify both use_int64_timestamp and timestamp_output_format.';

beforeAll(async () => {
  // No streaming buffer: the UPDATE and copy below touch rows just inserted.
  t = await startTestEmulator({ projectId: P, streamingBufferSeconds: 0 });
  await t.bq.createDataset(D);
  [table] = await t.bq.dataset(D).createTable('ts12', { schema: { fields: [{ name: 'ts', type: 'TIMESTAMP', timestampPrecision: '12' } as never, { name: 'n', type: 'INTEGER' }] } });
  await table.insert([{ ts: INSERTED, n: 1 }]);
});
afterAll(async () => {
  await t?.emu.close();
});

describe('timestampPrecision in table schemas', () => {
  it('a TIMESTAMP(12) field answers timestampPrecision "12"; a default field none', async () => {
    const [m] = await table.getMetadata();
    expect(m.schema.fields).toEqual([
      { name: 'ts', type: 'TIMESTAMP', timestampPrecision: '12' },
      { name: 'n', type: 'INTEGER' },
    ]);
    const [six] = await t.bq.dataset(D).createTable('ts6', { schema: { fields: [{ name: 'ts', type: 'TIMESTAMP', timestampPrecision: '6' } as never] } });
    expect((await six.getMetadata())[0].schema.fields).toEqual([{ name: 'ts', type: 'TIMESTAMP' }]);
  });

  it('a precision other than 6 or 12, or on another type, is a 400 invalid', async () => {
    for (const field of [{ name: 'ts', type: 'TIMESTAMP', timestampPrecision: '9' }, { name: 's', type: 'STRING', timestampPrecision: '12' }]) {
      const e = await errorOf(t.bq.dataset(D).createTable(`bad_${field.name}`, { schema: { fields: [field as never] } }));
      expect(e.code).toBe(400);
      expect(e.errors?.[0]?.reason).toBe('invalid');
    }
  });
});

describe('table.getRows of a TIMESTAMP(12) value under formatOptions', () => {
  const cases: { tof?: string; int64?: boolean; value?: string; error?: string }[] = [
    { tof: 'TIMESTAMP_OUTPUT_FORMAT_UNSPECIFIED', int64: true, value: MICROS },
    { tof: 'TIMESTAMP_OUTPUT_FORMAT_UNSPECIFIED', int64: false, value: MICROS },
    { tof: 'TIMESTAMP_OUTPUT_FORMAT_UNSPECIFIED', value: MICROS },
    { tof: 'FLOAT64', int64: true, error: CONFLICT },
    { tof: 'FLOAT64', int64: false, value: MICROS },
    { tof: 'FLOAT64', value: MICROS },
    { tof: 'INT64', int64: true, value: MICROS },
    { tof: 'INT64', int64: false, value: MICROS },
    { tof: 'INT64', value: MICROS },
    { tof: 'ISO8601_STRING', int64: true, error: CONFLICT },
    { tof: 'ISO8601_STRING', int64: false, value: INSERTED },
    { tof: 'ISO8601_STRING', value: INSERTED },
    { int64: true, value: MICROS },
    { int64: false, value: MICROS },
  ];
  for (const c of cases)
    it(`timestampOutputFormat ${c.tof ?? '(none)'}, useInt64Timestamp ${c.int64 ?? '(none)'} → ${c.error ? 'error' : c.value}`, async () => {
      const opts: Record<string, unknown> = {};
      if (c.tof !== undefined) opts['formatOptions.timestampOutputFormat'] = c.tof;
      if (c.int64 !== undefined) opts['formatOptions.useInt64Timestamp'] = c.int64;
      if (c.error) {
        const e = await errorOf(table.getRows(opts));
        expect([e.code, e.message, e.errors?.[0]?.reason]).toEqual([400, c.error, 'invalid']);
        return;
      }
      const [rows] = await table.getRows(opts);
      expect(rows).toHaveLength(1);
      expect(rows[0].ts.value).toBe(c.value);
    });

  it('no options: the client asks ISO8601_STRING when BIGQUERY_PICOSECOND_SUPPORT is on, int64 µs otherwise', async () => {
    const saved = process.env.BIGQUERY_PICOSECOND_SUPPORT;
    try {
      process.env.BIGQUERY_PICOSECOND_SUPPORT = 'true';
      expect((await table.getRows())[0][0].ts.value).toBe(INSERTED);
      delete process.env.BIGQUERY_PICOSECOND_SUPPORT;
      expect((await table.getRows())[0][0].ts.value).toBe(MICROS);
    } finally {
      if (saved === undefined) delete process.env.BIGQUERY_PICOSECOND_SUPPORT;
      else process.env.BIGQUERY_PICOSECOND_SUPPORT = saved;
    }
  });

  it('the raw cells: INT64 µs text, FLOAT64 seconds, ISO8601_STRING twelve digits', async () => {
    const cell = async (qs: string) => (await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}/tables/ts12/data?${qs}`)).body.rows[0].f[0].v;
    expect(await cell('formatOptions.timestampOutputFormat=INT64')).toBe('1672574400123456');
    expect(await cell('formatOptions.timestampOutputFormat=FLOAT64')).toBe('1.672574400123456E9');
    expect(await cell('formatOptions.timestampOutputFormat=ISO8601_STRING')).toBe(INSERTED);
    const bad = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}/tables/ts12/data?formatOptions.timestampOutputFormat=SECONDS`);
    expect(bad.status).toBe(400);
  });
});

describe('queries over a TIMESTAMP(12) column', () => {
  it('compute at microsecond precision; ISO8601_STRING query results have twelve digits (jobs.query)', async () => {
    const [rows] = await t.bq.query({ query: `SELECT n, ts = TIMESTAMP '2023-01-01 12:00:00.123456' AS same FROM ${D}.ts12 WHERE ts > '2023-01-01'` });
    expect(rows).toEqual([{ n: 1, same: true }]);
    const r = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, {
      query: `SELECT TIMESTAMP '1999-12-31 23:59:59.5' AS ts`,
      formatOptions: { timestampOutputFormat: 'ISO8601_STRING' },
    });
    expect(r.body.rows[0].f[0].v).toBe('1999-12-31T23:59:59.500000000000Z');
    const [viaClient] = await t.bq.query({ query: `SELECT TIMESTAMP '1999-12-31 23:59:59.5' AS ts` }, { 'formatOptions.timestampOutputFormat': 'ISO8601_STRING' } as never);
    expect(viaClient[0].ts.value).toBe('1999-12-31T23:59:59.500000000000Z');
    // jobs.getQueryResults takes them as query parameters (job.getQueryResults of this client
    // parses every TIMESTAMP as int64, so the ISO cell is read raw); the client sends
    // useInt64Timestamp true unless told otherwise, so ISO8601_STRING alone is the conflict.
    const [job] = await t.bq.createQueryJob({ query: `SELECT TIMESTAMP '1999-12-31 23:59:59.5' AS ts` });
    await job.promise();
    const raw = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/queries/${job.id}?formatOptions.timestampOutputFormat=ISO8601_STRING&location=US`);
    expect(raw.body.rows[0].f[0].v).toBe('1999-12-31T23:59:59.500000000000Z');
    const bad = await errorOf(job.getQueryResults({ 'formatOptions.timestampOutputFormat': 'ISO8601_STRING' } as never));
    expect([bad.code, bad.message]).toEqual([400, CONFLICT]);
    const conflict = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, {
      query: 'SELECT 1',
      formatOptions: { timestampOutputFormat: 'FLOAT64', useInt64Timestamp: true },
    });
    expect([conflict.status, conflict.body.error.message]).toEqual([400, CONFLICT]);
  });

  it('a TIMESTAMP(12) query parameter with twelve digits is accepted (INT64 output: its microseconds)', async () => {
    const r = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, {
      query: 'SELECT ? AS ts',
      parameterMode: 'POSITIONAL',
      queryParameters: [{ parameterType: { type: 'TIMESTAMP', timestampPrecision: '12' }, parameterValue: { value: '2024-07-15T14:00:00.123456789123Z' } }],
      formatOptions: { timestampOutputFormat: 'INT64' },
    });
    expect(r.body.rows[0].f[0].v).toBe('1721052000123456');
  });

  it('a value rewritten by UPDATE reads at microseconds; a table clone keeps the picoseconds', async () => {
    const [tb] = await t.bq.dataset(D).createTable('ts12_upd', { schema: { fields: [{ name: 'ts', type: 'TIMESTAMP', timestampPrecision: '12' } as never, { name: 'k', type: 'INTEGER' }] } });
    await tb.insert([
      { ts: '2024-07-15 10:00:00.123456789123', k: 1 },
      { ts: '1969-12-31T23:59:59.000000000001Z', k: 2 },
    ]);
    await t.bq.query({ query: `CREATE TABLE ${D}.ts12_copy CLONE ${D}.ts12_upd` });
    await t.bq.query({ query: `UPDATE ${D}.ts12_upd SET ts = TIMESTAMP_ADD(ts, INTERVAL 1 SECOND) WHERE k = 1` });
    // Query results appended to the table (no picoseconds of their own) read at microseconds.
    const [job] = await t.bq.createQueryJob({ query: `SELECT TIMESTAMP '2000-01-01 00:00:00.5' AS ts, 3 AS k`, destination: tb, writeDisposition: 'WRITE_APPEND' });
    await job.getQueryResults();
    const iso: Record<string, unknown> = { 'formatOptions.timestampOutputFormat': 'ISO8601_STRING' };
    const byK = (rows: { k: number; ts: { value: string } }[]) => rows.sort((a, b) => a.k - b.k).map((r) => r.ts.value);
    expect(byK((await tb.getRows(iso))[0] as never)).toEqual(['2024-07-15T10:00:01.123456000000Z', '1969-12-31T23:59:59.000000000001Z', '2000-01-01T00:00:00.500000000000Z']);
    expect(byK((await t.bq.dataset(D).table('ts12_copy').getRows(iso))[0] as never)).toEqual(['2024-07-15T10:00:00.123456789123Z', '1969-12-31T23:59:59.000000000001Z']);
  });

  it('ALTER TABLE RENAME COLUMN and DROP COLUMN take the picoseconds along', async () => {
    const [tb] = await t.bq.dataset(D).createTable('ts12_alter', { schema: { fields: [{ name: 'a', type: 'TIMESTAMP', timestampPrecision: '12' } as never, { name: 'b', type: 'TIMESTAMP', timestampPrecision: '12' } as never] } });
    await tb.insert([{ a: '2020-02-02 02:02:02.000000000002', b: '2021-01-01 00:00:00.999999999999' }]);
    await t.bq.query({ query: `ALTER TABLE ${D}.ts12_alter RENAME COLUMN b TO c` });
    await t.bq.query({ query: `ALTER TABLE ${D}.ts12_alter DROP COLUMN a` });
    const [m] = await tb.getMetadata();
    expect(m.schema.fields).toEqual([{ name: 'c', type: 'TIMESTAMP', timestampPrecision: '12' }]);
    const [rows] = await tb.getRows({ 'formatOptions.timestampOutputFormat': 'ISO8601_STRING' } as Record<string, unknown>);
    expect(rows).toEqual([{ c: expect.objectContaining({ value: '2021-01-01T00:00:00.999999999999Z' }) }]);
  });
});
