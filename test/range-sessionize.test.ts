/**
 * RANGE_SESSIONIZE (src/analyzer/range-sessionize.ts) through the real client. Expected values come
 * from BigQuery's "Range functions" page (RANGE_SESSIONIZE examples over
 * my_sessionized_range_table) and the recorded fixtures specialized_types/range_sessionize_*,
 * error_range_sessionize_invalid_mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
/** The bounds of a RANGE column as strings (NULL = UNBOUNDED). */
const bounds = (c: string) => `CAST(RANGE_START(${c}) AS STRING) AS ${c}_start, CAST(RANGE_END(${c}) AS STRING) AS ${c}_end`;

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('rs');
  // The documentation's my_sessionized_range_table.
  await q('CREATE TABLE rs.my_sessionized_range_table (emp_id INT64, dept_id INT64, duration RANGE<DATE>)');
  await q(`INSERT rs.my_sessionized_range_table (emp_id, dept_id, duration)
    VALUES(10, 1000, RANGE<DATE> '[2010-01-10, 2010-03-10)'),
          (10, 2000, RANGE<DATE> '[2010-03-10, 2010-07-15)'),
          (10, 2000, RANGE<DATE> '[2010-06-15, 2010-08-18)'),
          (20, 2000, RANGE<DATE> '[2010-03-10, 2010-07-20)'),
          (20, 1000, RANGE<DATE> '[2020-05-10, 2020-09-20)')`);
});
afterAll(async () => t?.emu.close());

describe('RANGE_SESSIONIZE', () => {
  it('merges ranges that meet or overlap by default (docs example)', async () => {
    const rows = await q(`SELECT emp_id, ${bounds('duration')}, ${bounds('session_range')}
      FROM RANGE_SESSIONIZE(TABLE rs.my_sessionized_range_table, 'duration', ['emp_id'])
      ORDER BY emp_id, duration_start`);
    expect(rows.map((r) => [r.emp_id, r.duration_start, r.session_range_start, r.session_range_end])).toEqual([
      [10, '2010-01-10', '2010-01-10', '2010-08-18'],
      [10, '2010-03-10', '2010-01-10', '2010-08-18'],
      [10, '2010-06-15', '2010-01-10', '2010-08-18'],
      [20, '2010-03-10', '2010-03-10', '2010-07-20'],
      [20, '2020-05-10', '2020-05-10', '2020-09-20'],
    ]);
  });

  it("'OVERLAPS' keeps ranges that only meet apart (docs example)", async () => {
    const rows = await q(`SELECT emp_id, ${bounds('duration')}, ${bounds('session_range')}
      FROM RANGE_SESSIONIZE(TABLE rs.my_sessionized_range_table, 'duration', ['emp_id'], 'OVERLAPS')
      ORDER BY emp_id, duration_start`);
    expect(rows.map((r) => [r.emp_id, r.duration_start, r.session_range_start, r.session_range_end])).toEqual([
      [10, '2010-01-10', '2010-01-10', '2010-03-10'],
      [10, '2010-03-10', '2010-03-10', '2010-08-18'],
      [10, '2010-06-15', '2010-03-10', '2010-08-18'],
      [20, '2010-03-10', '2010-03-10', '2010-07-20'],
      [20, '2020-05-10', '2020-05-10', '2020-09-20'],
    ]);
  });

  it("normalizes with GROUP BY over 'MEETS' sessions (docs example)", async () => {
    const rows = await q(`SELECT emp_id, ${bounds('normalized')} FROM (
        SELECT emp_id, session_range AS normalized
        FROM RANGE_SESSIONIZE(TABLE rs.my_sessionized_range_table, 'duration', ['emp_id'], 'MEETS'))
      GROUP BY emp_id, normalized ORDER BY emp_id, normalized_start`);
    expect(rows).toEqual([
      { emp_id: 10, normalized_start: '2010-01-10', normalized_end: '2010-08-18' },
      { emp_id: 20, normalized_start: '2010-03-10', normalized_end: '2010-07-20' },
      { emp_id: 20, normalized_start: '2020-05-10', normalized_end: '2020-09-20' },
    ]);
  });

  it('returns the input columns plus session_range RANGE (recorded range_sessionize_three_partition_cols)', async () => {
    await q('CREATE TABLE rs.events3 (org STRING, user_id STRING, region STRING, active RANGE<DATE>)');
    await q(`INSERT INTO rs.events3 (org, user_id, region, active) VALUES
      ("acme", "alice", "NORTH", RANGE<DATE> "[2024-01-01, 2024-01-03)"),
      ("acme", "alice", "NORTH", RANGE<DATE> "[2024-01-03, 2024-01-05)"),
      ("acme", "alice", "SOUTH", RANGE<DATE> "[2024-01-04, 2024-01-06)"),
      ("acme", "bob",   "NORTH", RANGE<DATE> "[2024-01-02, 2024-01-04)")`);
    const [job] = await t.bq.createQueryJob({ query: "SELECT * FROM RANGE_SESSIONIZE(TABLE rs.events3, 'active', ['org', 'user_id', 'region'])" });
    const [, , res] = await job.getQueryResults({ autoPaginate: false });
    const fields = (res as { schema: { fields: { name: string; type: string }[] } }).schema.fields;
    expect(fields.map((f) => [f.name, f.type])).toEqual([
      ['org', 'STRING'],
      ['user_id', 'STRING'],
      ['region', 'STRING'],
      ['active', 'RANGE'],
      ['session_range', 'RANGE'],
    ]);
    const rows = await q(`SELECT user_id, region, ${bounds('session_range')}
      FROM RANGE_SESSIONIZE(TABLE rs.events3, 'active', ['org', 'user_id', 'region'])
      ORDER BY org, user_id, region, RANGE_START(active)`);
    expect(rows.map((r) => [r.user_id, r.region, r.session_range_start, r.session_range_end])).toEqual([
      ['alice', 'NORTH', '2024-01-01', '2024-01-05'],
      ['alice', 'NORTH', '2024-01-01', '2024-01-05'],
      ['alice', 'SOUTH', '2024-01-04', '2024-01-06'],
      ['bob', 'NORTH', '2024-01-02', '2024-01-04'],
    ]);
  });

  it('takes a subquery and TIMESTAMP ranges (recorded range_sessionize_timestamp_element)', async () => {
    const rows = await q(`SELECT ${bounds('session_range')} FROM RANGE_SESSIONIZE(
        (SELECT "alice" AS user_id, RANGE<TIMESTAMP> "[2024-01-01 09:00:00+00, 2024-01-01 10:00:00+00)" AS duration
         UNION ALL SELECT "alice", RANGE<TIMESTAMP> "[2024-01-01 10:00:00+00, 2024-01-01 11:00:00+00)"
         UNION ALL SELECT "alice", RANGE<TIMESTAMP> "[2024-01-01 14:00:00+00, 2024-01-01 15:00:00+00)"),
        'duration', ['user_id'])
      ORDER BY RANGE_START(duration)`);
    expect(rows.map((r) => [r.session_range_start, r.session_range_end])).toEqual([
      ['2024-01-01 09:00:00+00', '2024-01-01 11:00:00+00'],
      ['2024-01-01 09:00:00+00', '2024-01-01 11:00:00+00'],
      ['2024-01-01 14:00:00+00', '2024-01-01 15:00:00+00'],
    ]);
  });

  it('rejects an unknown mode with BigQuery\'s message and location (recorded error_range_sessionize_invalid_mode)', async () => {
    const err = await errorOf(
      q(`SELECT * FROM RANGE_SESSIONIZE(
  TABLE rs.my_sessionized_range_table,
  'duration',
  ['emp_id'],
  'BOGUS_MODE'
)`),
    );
    expect(err.errors?.[0]?.reason).toBe('invalidQuery');
    expect(err.message).toBe('Could not cast literal "BOGUS_MODE" to type RANGE_SESSIONIZE_MODE at [5:3]');
  });
});
