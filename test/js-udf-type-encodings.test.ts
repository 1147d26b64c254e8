/**
 * JavaScript UDF arguments and results follow BigQuery's "Supported JavaScript UDF data types"
 * table (https://cloud.google.com/bigquery/docs/user-defined-functions): BYTES is a base64-encoded
 * String; NUMERIC and BIGNUMERIC are a Number when exactly representable with no fractional part
 * (the range [-2^53, 2^53]), otherwise a String; TIMESTAMP is a Date with a `microsecond` field
 * holding the microsecond fraction; DATE is a Date. INT64 arriving as a decimal String is the
 * recorded routines_scripting/js_udf_int_to_int (`return x + 1` with 41 answers 411), which the
 * corpus tests keep.
 *
 * Results: the page says only that INT64 results may be a Number or a String that BigQuery
 * converts; strings for DATE and NUMERIC results are held to CAST(STRING AS …)'s rules and error
 * texts (ZetaSQL's `Invalid date: '…'` and `Invalid NUMERIC value: …`, as test/functions-cast-format
 * cites them), BYTES results to the table's base64 encoding, never DuckDB's wording.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRow, queryError, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const one = (query: string) => firstRow(t, query);
const err = (query: string) => queryError(t, query);
const DUCKDB_WORDING = /Conversion Error|Failed to cast|invalid date field format|Could not convert|Invalid Input Error/;

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('JavaScript UDF arguments (the page\'s type table)', () => {
  it('BYTES arrives as a base64-encoded String', async () => {
    expect(await one(`CREATE TEMP FUNCTION f(x BYTES) RETURNS STRING LANGUAGE js AS 'return typeof x + " " + x;';
      SELECT f(b'ab') AS a`)).toEqual({ a: 'string YWI=' });
  });

  it('NUMERIC and BIGNUMERIC: a Number for integers in [-2^53, 2^53], else a String', async () => {
    expect(
      await one(`CREATE TEMP FUNCTION f(x NUMERIC) RETURNS STRING LANGUAGE js AS 'return typeof x + " " + x;';
        CREATE TEMP FUNCTION g(x BIGNUMERIC) RETURNS STRING LANGUAGE js AS 'return typeof x + " " + x;';
        SELECT f(1.25) AS a, f(12) AS b, f(NUMERIC '-9007199254740992') AS c, f(NUMERIC '9007199254740993') AS d,
          g(BIGNUMERIC '0.5') AS e, g(BIGNUMERIC '7') AS f`),
    ).toEqual({ a: 'string 1.25', b: 'number 12', c: 'number -9007199254740992', d: 'string 9007199254740993', e: 'string 0.5', f: 'number 7' });
  });

  it('TIMESTAMP is a Date with a microsecond field; DATE is a Date', async () => {
    expect(
      await one(`CREATE TEMP FUNCTION f(x TIMESTAMP) RETURNS STRING LANGUAGE js AS 'return (x instanceof Date) + " " + x.getUTCMilliseconds() + " " + x.microsecond;';
        CREATE TEMP FUNCTION g(x DATE) RETURNS BOOL LANGUAGE js AS 'return x instanceof Date;';
        SELECT f(TIMESTAMP '2020-01-05 01:02:03.123456+00') AS a, g(DATE '2020-01-05') AS b`),
    ).toEqual({ a: 'true 123 456', b: true });
  });

  it('NUMERIC, BYTES, DATE and TIMESTAMP nested in an ARRAY or STRUCT are encoded alike', async () => {
    expect(
      await one(`CREATE TEMP FUNCTION f(x ARRAY<BYTES>, y STRUCT<n NUMERIC, d ARRAY<DATE>>) RETURNS STRING LANGUAGE js
          AS 'return x.join(",") + " " + typeof y.n + " " + (y.d[0] instanceof Date);';
        SELECT f([b'ab', b'c'], STRUCT(NUMERIC '2.5' AS n, [DATE '2021-02-03'] AS d)) AS a`),
    ).toEqual({ a: 'YWI=,Yw== string true' });
  });
});

describe('JavaScript UDF results', () => {
  it('a returned Date is a DATE; a DATE argument returned unchanged is the same date', async () => {
    expect(
      await one(`CREATE TEMP FUNCTION r() RETURNS DATE LANGUAGE js AS 'return new Date(Date.UTC(2020,0,5));';
        CREATE TEMP FUNCTION id(x DATE) RETURNS DATE LANGUAGE js AS 'return x;';
        SELECT r() AS a, id(DATE '0001-01-01') AS b, id(DATE '9999-12-31') AS c`),
    ).toEqual({ a: '2020-01-05', b: '0001-01-01', c: '9999-12-31' });
  });

  it('a TIMESTAMP argument returned unchanged keeps its microseconds', async () => {
    const r = await one(`CREATE TEMP FUNCTION id(x TIMESTAMP) RETURNS TIMESTAMP LANGUAGE js AS 'return x;';
      SELECT id(TIMESTAMP '2020-01-05 01:02:03.123456+00') = TIMESTAMP '2020-01-05 01:02:03.123456+00' AS same`);
    expect(r).toEqual({ same: true });
  });

  it('a returned base64 String is the BYTES it encodes; BYTES and NUMERIC round-trip through ARRAY and STRUCT', async () => {
    expect(
      await one(`CREATE TEMP FUNCTION r() RETURNS BYTES LANGUAGE js AS 'return "YWI=";';
        CREATE TEMP FUNCTION s(x ARRAY<BYTES>, n NUMERIC) RETURNS STRUCT<p ARRAY<BYTES>, q NUMERIC> LANGUAGE js AS 'return {p: x, q: n};';
        SELECT r() = b'ab' AS a, s([b'ab', b'c'], NUMERIC '2.5') = STRUCT([b'ab', b'c'] AS p, NUMERIC '2.5' AS q) AS b`),
    ).toEqual({ a: true, b: true });
  });

  it('a string result for DATE or NUMERIC converts as CAST does and fails with its text', async () => {
    expect(
      await one(`CREATE TEMP FUNCTION d() RETURNS DATE LANGUAGE js AS 'return "2020-1-5";';
        CREATE TEMP FUNCTION n() RETURNS NUMERIC LANGUAGE js AS 'return "1.25";';
        SELECT d() AS a, n() = NUMERIC '1.25' AS b`),
    ).toEqual({ a: '2020-01-05', b: true });
    const bad = await err(`CREATE TEMP FUNCTION d() RETURNS DATE LANGUAGE js AS 'return "2020-1-5x";'; SELECT d()`);
    expect(bad).toContain(`Invalid date: '2020-1-5x'`);
    expect(bad).not.toMatch(DUCKDB_WORDING);
  });

  it('a NUMERIC result past the range fails with BigQuery wording, not DuckDB\'s', async () => {
    const bad = await err(`CREATE TEMP FUNCTION n() RETURNS NUMERIC LANGUAGE js AS 'return 1e50;'; SELECT n()`);
    expect(bad).toContain('Invalid NUMERIC value: 1e+50');
    expect(bad).not.toMatch(DUCKDB_WORDING);
  });

  it('a BYTES result that is not base64 fails with FROM_BASE64\'s text', async () => {
    const bad = await err(`CREATE TEMP FUNCTION b() RETURNS BYTES LANGUAGE js AS 'return "!!";'; SELECT b()`);
    expect(bad).toContain('Failed to decode invalid base64 string');
    expect(bad).not.toMatch(DUCKDB_WORDING);
  });
});
