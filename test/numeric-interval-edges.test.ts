/**
 * Wrong answers and DuckDB-worded errors at the edges of BIGNUMERIC, INTERVAL and the civil types,
 * through the real `@google-cloud/bigquery` client. Expected values and texts: the ZetaSQL reference
 * evaluator (`EvaluateQuery`, whose function library BigQuery runs) answered every query below; the
 * ranges are BigQuery's (Data types, https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types:
 * BIGNUMERIC orders by value; INTERVAL ±10,000 years, ±3,660,000 days, ±87,840,000 hours; DATE,
 * DATETIME and TIMESTAMP 0001-01-01 … 9999-12-31).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, withLoweredSql, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
/** A cell as text: the client's wrapper objects (`{value}`) and BIGNUMERIC/NUMERIC `Big` numbers (plain notation). */
const val = (v: unknown) => {
  if (v && typeof v === 'object' && 'value' in v) return String((v as { value: unknown }).value);
  if (v && typeof v === 'object' && typeof (v as { toFixed?: unknown }).toFixed === 'function') return (v as { toFixed(): string }).toFixed();
  return v;
};
const rows = async (query: string) => ((await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[]).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Array.isArray(v) ? v.map(val) : val(v)])));
const one = async (query: string) => (await rows(query))[0];
const message = async (query: string) => {
  const e = await errorOf(t.bq.query({ query }));
  expect(e.errors?.[0]?.reason).toBe('invalidQuery');
  return e.errors?.[0]?.message ?? e.message;
};

const XS = `UNNEST([BIGNUMERIC '9.5', BIGNUMERIC '10', BIGNUMERIC '-1', BIGNUMERIC '-10']) x`;
const BN_MAX = '578960446186580977117854925043439539266.34992332820282019728792003956564819967';

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('BIGNUMERIC orders and aggregates by value', () => {
  it('ORDER BY, ARRAY_AGG … ORDER BY, window ORDER BY', async () => {
    expect((await rows(`SELECT x FROM ${XS} ORDER BY x DESC`)).map((r) => r.x)).toEqual(['10', '9.5', '-1', '-10']);
    expect(await one(`SELECT ARRAY_AGG(x ORDER BY x) AS a, STRING_AGG(CAST(x AS STRING) ORDER BY x DESC) AS s FROM ${XS}`)).toEqual({ a: ['-10', '-1', '9.5', '10'], s: '10,9.5,-1,-10' });
    expect(await one(`SELECT ARRAY_AGG(m ORDER BY x) AS a FROM (SELECT x, MAX(x) OVER (ORDER BY x) AS m FROM ${XS})`)).toEqual({ a: ['-10', '-1', '9.5', '10'] });
    expect(await one(`SELECT x FROM ${XS} WHERE x > 0 ORDER BY x LIMIT 1`)).toEqual({ x: '9.5' });
  });

  it('MIN, MAX, GREATEST, LEAST, ARRAY_MIN, ARRAY_MAX, RANGE_BUCKET, PERCENTILE_DISC', async () => {
    expect(await one(`SELECT MIN(x) AS mn, MAX(x) AS mx FROM ${XS}`)).toEqual({ mn: '-10', mx: '10' });
    expect(await one(`SELECT GREATEST(BIGNUMERIC '-1', BIGNUMERIC '-10') AS g, LEAST(BIGNUMERIC '9.5', BIGNUMERIC '10') AS l, LEAST(NUMERIC '2', BIGNUMERIC '10') AS m`)).toEqual({ g: '-1', l: '9.5', m: '2' });
    expect(await one(`SELECT ARRAY_MIN([BIGNUMERIC '9.5', BIGNUMERIC '10']) AS a, ARRAY_MAX([BIGNUMERIC '-1', BIGNUMERIC '-10']) AS b`)).toEqual({ a: '9.5', b: '-1' });
    expect(await one(`SELECT RANGE_BUCKET(BIGNUMERIC '10', [BIGNUMERIC '9.5', BIGNUMERIC '11']) AS b`)).toEqual({ b: 1 });
    expect(await one(`SELECT PERCENTILE_DISC(x, 0.5) OVER () AS p FROM ${XS} LIMIT 1`)).toEqual({ p: '-1' });
  });

  it('SUM and AVG are exact, over windows too; past the range BIGNUMERIC overflow: SUM', async () => {
    expect(await one(`SELECT SUM(x) AS s, AVG(x) AS a FROM UNNEST([BIGNUMERIC '9.5', BIGNUMERIC '10', BIGNUMERIC '-1', BIGNUMERIC '-10.25']) x`)).toEqual({ s: '8.25', a: '2.0625' });
    expect(await one(`SELECT AVG(x) AS a FROM UNNEST([BIGNUMERIC '0.00000000000000000000000000000000000001', BIGNUMERIC '0.00000000000000000000000000000000000002']) x`)).toEqual({ a: '0.00000000000000000000000000000000000002' });
    expect(await one(`SELECT AVG(x) AS a FROM UNNEST([BIGNUMERIC '${BN_MAX}', BIGNUMERIC '${BN_MAX}']) x`)).toEqual({ a: BN_MAX });
    expect((await rows(`SELECT SUM(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM UNNEST([BIGNUMERIC '1.5', BIGNUMERIC '2']) x`)).map((r) => r.s)).toEqual(['1.5', '3.5']);
    expect(await one(`SELECT SUM(x) AS s, AVG(x) AS a FROM UNNEST(ARRAY<BIGNUMERIC>[]) x`)).toEqual({ s: null, a: null });
    expect(await message(`SELECT SUM(x) AS s FROM UNNEST([BIGNUMERIC '${BN_MAX}', BIGNUMERIC '1']) x`)).toBe('BIGNUMERIC overflow: SUM');
    expect(await one(`SELECT ARRAY_SUM([BIGNUMERIC '9.5', BIGNUMERIC '10', NULL]) AS s, ARRAY_AVG([BIGNUMERIC '9.5', BIGNUMERIC '10']) AS a, ARRAY_SUM(ARRAY<BIGNUMERIC>[]) AS e`)).toEqual({ s: '19.5', a: '9.75', e: null });
    expect(await message(`SELECT ARRAY_SUM([BIGNUMERIC '${BN_MAX}', BIGNUMERIC '1']) AS s`)).toBe('BIGNUMERIC overflow: SUM');
  });

  it('ROUND, TRUNC, CEIL, FLOOR and POW', async () => {
    expect(await one(`SELECT ROUND(BIGNUMERIC '-2.5') AS r, ROUND(BIGNUMERIC '1234.5', -2) AS r2, TRUNC(BIGNUMERIC '1234.5678', 2) AS t2, CEIL(BIGNUMERIC '-1.5') AS c, FLOOR(BIGNUMERIC '1.5') AS f, ROUND(BIGNUMERIC '1.5', 40) AS r3`)).toEqual({ r: '-3', r2: '1200', t2: '1234.56', c: '-1', f: '1', r3: '1.5' });
    expect(await one(`SELECT POW(BIGNUMERIC '2', 3) AS p, SQRT(BIGNUMERIC '4') AS q`)).toEqual({ p: '8', q: '2' });
    expect(await message(`SELECT CEIL(BIGNUMERIC '578960446186580977117854925043439539266.3') AS c`)).toBe('BIGNUMERIC overflow: CEIL(578960446186580977117854925043439539266.3)');
    expect(await message(`SELECT POW(BIGNUMERIC '10', 100) AS p`)).toBe('BIGNUMERIC overflow: POW(10, 100)');
  });

  it('GENERATE_ARRAY of BIGNUMERIC is exact', async () => {
    expect(await one(`SELECT GENERATE_ARRAY(BIGNUMERIC '1', BIGNUMERIC '3', BIGNUMERIC '0.5') AS a, GENERATE_ARRAY(BIGNUMERIC '3', BIGNUMERIC '1', BIGNUMERIC '-0.7') AS b, GENERATE_ARRAY(1, 3, BIGNUMERIC '0.75') AS c`)).toEqual({ a: ['1', '1.5', '2', '2.5', '3'], b: ['3', '2.3', '1.6'], c: ['1', '1.75', '2.5'] });
    expect(await message(`SELECT GENERATE_ARRAY(BIGNUMERIC '1', BIGNUMERIC '3', BIGNUMERIC '0') AS a`)).toBe('Sequence step cannot be 0.');
    // The element limit (src/config/limits.ts) is checked before any element is built.
    expect(await message(`SELECT ARRAY_LENGTH(GENERATE_ARRAY(BIGNUMERIC '1', BIGNUMERIC '1e30')) AS n`)).toBe('Cannot generate arrays with more than 13107200 elements.');
  });
});

describe('INTERVAL ranges', () => {
  it.each([
    ['CAST(INTERVAL 10001 YEAR AS STRING)', "Interval field months '120012' is out of range -120000 to 120000"],
    ['CAST(INTERVAL 522858 WEEK AS STRING)', "Interval field days '3660006' is out of range -3660000 to 3660000"],
    ['CAST(INTERVAL 87840001 HOUR AS STRING)', "Interval field nanoseconds '316224003600000000000' is out of range -316224000000000000000 to 316224000000000000000"],
    ['CAST(INTERVAL 6000 YEAR + INTERVAL 6000 YEAR AS STRING)', "Interval field months '144000' is out of range -120000 to 120000"],
    ['CAST(INTERVAL 3000000 DAY * 2 AS STRING)', "Interval field days '6000000' is out of range -3660000 to 3660000"],
    ['CAST(INTERVAL 10000 YEAR * 9223372036854775807 AS STRING)', 'Interval overflow during multiplication'],
    ['CAST(MAKE_INTERVAL(10000, 1) AS STRING)', "Interval field months '120001' is out of range -120000 to 120000"],
    ['CAST(JUSTIFY_HOURS(MAKE_INTERVAL(day => 3660000, hour => 48)) AS STRING)', "Interval field days '3660002' is out of range -3660000 to 3660000"],
    ["CAST(CAST('10001-0 0 0:0:0' AS INTERVAL) AS STRING)", "Interval field months '120012' is out of range -120000 to 120000"],
    ['CAST(INTERVAL 9223372036854775807 YEAR AS STRING)', 'int64 overflow: 12 * 9223372036854775807'],
  ])('%s', async (expr, text) => {
    expect(await message(`SELECT ${expr} AS i`)).toBe(text);
  });

  it('the edges themselves are values', async () => {
    expect(await one(`SELECT CAST(INTERVAL 87840000 HOUR AS STRING) AS a, CAST(INTERVAL -10000 YEAR AS STRING) AS b, CAST(MAKE_INTERVAL(day => 3660000) AS STRING) AS c`)).toEqual({ a: '0-0 0 87840000:0:0', b: '-10000-0 0 0:0:0', c: '0-0 3660000 0:0:0' });
    expect(await one(`SELECT SAFE_CAST('10001-0 0 0:0:0' AS INTERVAL) IS NULL AS n`)).toEqual({ n: true });
  });
});

describe('DATE, DATETIME and TIMESTAMP arithmetic past 0001-01-01 … 9999-12-31', () => {
  it.each([
    ["DATE '9999-12-31' + INTERVAL 1 MONTH", 'Adding 1 MONTH to datetime 9999-12-31 00:00:00 causes overflow'],
    ["DATE '0001-01-01' - INTERVAL 1 DAY", 'Adding -1 DAY to datetime 0001-01-01 00:00:00 causes overflow'],
    ["DATETIME '9999-12-31 23:59:59.5' + INTERVAL 1 SECOND", 'Adding 1000001 MICROSECOND to datetime 9999-12-31 23:59:59.500 causes overflow'],
    ["DATETIME '9999-12-31 00:00:00' + INTERVAL '0-0 1 -1:0:0' YEAR TO SECOND", 'Adding 1 DAY to datetime 9999-12-31 00:00:00 causes overflow'],
    ["TIMESTAMP '9999-12-31 00:00:00+00' + INTERVAL 1 DAY", 'Adding 24 HOUR to timestamp 9999-12-31 00:00:00+00 causes overflow'],
    ["TIMESTAMP '9999-12-31 23:00:00+00' + INTERVAL 1 HOUR", 'Adding 3600000000 MICROSECOND to timestamp timestamp(10000-01-01 00:00:00.000000+00:00) causes overflow'],
    ["TIMESTAMP '0001-01-01 00:00:00+00' - INTERVAL 1 SECOND", 'Adding -1000000 MICROSECOND to timestamp timestamp(0000-12-31 23:59:59.000000+00:00) causes overflow'],
    ["DATE '9999-12-31' + 1", 'Adding 1 DAY to date 9999-12-31 causes overflow'],
    ["DATE '2000-01-01' + 9223372036854775807", 'Adding 9223372036854775807 DAY to date 2000-01-01 causes overflow'],
    ["DATE_ADD(DATE '2000-01-01', INTERVAL -9223372036854775808 DAY)", 'Adding -9223372036854775808 DAY to date 2000-01-01 causes overflow'],
    ["DATETIME_ADD(DATETIME '2000-01-01 00:00:00', INTERVAL 9223372036854775807 MICROSECOND)", 'Adding 9223372036854775807 MICROSECOND to datetime 2000-01-01 00:00:00 causes overflow'],
    ["TIMESTAMP_SUB(TIMESTAMP '0001-01-01 00:00:00+00', INTERVAL 1 SECOND)", 'Adding -1 SECOND to timestamp 0001-01-01 00:00:00.000000+00 causes overflow'],
    ["TIMESTAMP_ADD(TIMESTAMP '2000-01-01 00:00:00+00', INTERVAL 9223372036854775807 HOUR)", 'TIMESTAMP_ADD interval value  9223372036854775807 at HOUR precision causes overflow'],
  ])('%s', async (expr, text) => {
    expect(await message(`SELECT ${expr} AS d`)).toBe(text);
  });

  it('DATE_ADD / DATE_SUB of literals far from the range ends: answered without the range check', async () => {
    // The GoogleSQL docs' examples (date_functions.md DATE_ADD, DATE_SUB; the last day of a shorter
    // month), TPC-H's dates; a literal near the ends keeps its check (the first case above).
    const { result, sql } = await withLoweredSql(t, () =>
      one(
        `SELECT DATE_ADD(DATE '2008-12-25', INTERVAL 5 DAY) AS a, DATE_SUB(DATE '2008-12-25', INTERVAL 5 DAY) AS b, DATE_ADD(DATE '2008-01-31', INTERVAL 1 MONTH) AS c, ` +
          `DATE_SUB(DATE '1998-12-01', INTERVAL 90 DAY) AS d, DATE_ADD(DATE '1994-01-01', INTERVAL 1 YEAR) AS e, DATE_SUB(DATE '2000-03-31', INTERVAL 1 QUARTER) AS f, DATE_ADD(DATE '2000-01-01', INTERVAL 2 WEEK) AS g`,
      ),
    );
    expect(result).toEqual({ a: '2008-12-30', b: '2008-12-20', c: '2008-02-29', d: '1998-09-02', e: '1995-01-01', f: '1999-12-31', g: '2000-01-15' });
    expect(sql.join('\n')).not.toContain('causes overflow');
    expect(await message(`SELECT DATE_SUB(DATE '9000-01-01', INTERVAL 9000 YEAR) AS d`)).toBe('Adding -9000 YEAR to date 9000-01-01 causes overflow');
  });

  it('in-range results and SAFE forms', async () => {
    expect(await one(`SELECT DATE '9999-12-31' + INTERVAL 1 HOUR AS a, DATE '9999-12-30' + 1 AS b, SAFE.DATE_ADD(DATE '9999-12-31', INTERVAL 1 DAY) AS c`)).toEqual({ a: '9999-12-31T01:00:00', b: '9999-12-31', c: null });
  });
});

describe('INT64', () => {
  it('ABS of INT64\'s minimum is ZetaSQL\'s int64 overflow, not DuckDB\'s text', async () => {
    expect(await message('SELECT ABS(x) AS a FROM UNNEST([-9223372036854775808]) x')).toBe('int64 overflow: --9223372036854775808');
  });
});

describe('scalar subqueries', () => {
  it('more than one row is BigQuery\'s error, not DuckDB\'s', async () => {
    expect(await message('SELECT (SELECT x FROM UNNEST([1, 2]) x) AS s')).toBe('Scalar subquery produced more than one element');
  });
});
