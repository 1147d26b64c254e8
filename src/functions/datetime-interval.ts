/**
 * DATE / DATETIME / TIMESTAMP ± INTERVAL and DATE ± INT64 with BigQuery's range: a result outside
 * 0001-01-01 … 9999-12-31 23:59:59.999999 is an error, never DuckDB's wrapped or year-10000 value
 * (Data types, https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types#datetime_type;
 * operators, https://cloud.google.com/bigquery/docs/reference/standard-sql/operators#datetime_subtraction).
 *
 * The texts are ZetaSQL's, checked against the ZetaSQL reference evaluator (which BigQuery's
 * function library shares; test/differential/families-text.ts). An INTERVAL is added part by part —
 * months, then days, then the time part — and the first step past the range names itself:
 * - DATE or DATETIME + INTERVAL (a DATETIME): `Adding 1 MONTH to datetime 9999-12-31 00:00:00 causes
 *   overflow`, `Adding 1 DAY to datetime …`, and for the time part
 *   `Adding 1000001 MICROSECOND to datetime 9999-12-31 23:59:59 causes overflow` (the evaluator
 *   prints the microseconds plus one);
 * - TIMESTAMP + INTERVAL: `Adding 24 HOUR to timestamp 9999-12-31 00:00:00+00 causes overflow` for
 *   the days, `Adding 3600000000 MICROSECOND to timestamp timestamp(10000-01-01 00:00:00.000000+00:00)
 *   causes overflow` (the overflowed result) for the time part;
 * - DATE ± INT64: `Adding 1 DAY to date 9999-12-31 causes overflow`.
 */
import { ivDays, ivMicros, ivMonths } from './interval.js';
import { raise, type FnCall } from './registry.js';
import { civilText, fullText } from './datetime-text.js';
import { outOfRange as out } from './datetime-range.js';

/** `body` over the struct `{x, i}` of the two arguments, each written once. */
const bind2 = (x: string, i: string, body: (p: string) => string) => `list_extract(list_transform([struct_pack(x := ${x}, i := ${i})], bq_dti -> ${body('bq_dti')}), 1)`;

/**
 * DATE or DATETIME `x` + INTERVAL `i` (`op` `-` negates the interval): a DATETIME (DuckDB TIMESTAMP),
 * or the overflow error of the first part that leaves the range (NULL under SAFE).
 */
export function datetimePlusInterval(c: FnCall, x: string, i: string, op: '+' | '-'): string {
  return bind2(`CAST(${x} AS TIMESTAMP)`, i, (p) => {
    const sign = op === '-' ? '-' : '';
    const [m, d, u] = [`${sign}${ivMonths(`${p}.i`)}`, `${sign}${ivDays(`${p}.i`)}`, `${sign}CAST(${ivMicros(`${p}.i`)} AS BIGINT)`];
    const s1 = `(${p}.x + to_months(CAST(${m} AS INTEGER)))`;
    const s2 = `(${s1} + to_days(CAST(${d} AS INTEGER)))`;
    const s3 = `(${s2} + to_microseconds(${u}))`;
    const err = (amount: string, part: string, at: string) => raise(c, `'Adding ' || CAST(${amount} AS VARCHAR) || ' ${part} to datetime ' || ${civilText(at)} || ' causes overflow'`);
    return (
      `CASE WHEN ${m} <> 0 AND ${out(s1, 'datetime')} THEN ${err(m, 'MONTH', `${p}.x`)} ` +
      `WHEN ${d} <> 0 AND ${out(s2, 'datetime')} THEN ${err(d, 'DAY', s1)} ` +
      `WHEN ${out(s3, 'datetime')} THEN ${err(`${u} + 1`, 'MICROSECOND', s2)} ELSE ${s3} END`
    );
  });
}

/**
 * TIMESTAMP `t` + INTERVAL `i` whose month part is zero (the caller refuses the others): the days as
 * 24-hour steps, then the time part, each range-checked (NULL under SAFE).
 */
export function timestampPlusInterval(c: FnCall, t: string, i: string, op: '+' | '-'): string {
  return bind2(t, i, (p) => {
    const sign = op === '-' ? '-' : '';
    const [d, u] = [`${sign}${ivDays(`${p}.i`)}`, `${sign}CAST(${ivMicros(`${p}.i`)} AS BIGINT)`];
    const s1 = `(${p}.x + to_microseconds(CAST(${d} AS BIGINT) * 86400000000))`;
    const s2 = `(${s1} + to_microseconds(${u}))`;
    const dayErr = raise(c, `'Adding ' || CAST(${d} * 24 AS VARCHAR) || ' HOUR to timestamp ' || ${civilText(`${p}.x`)} || '+00 causes overflow'`);
    const timeErr = raise(c, `'Adding ' || CAST(${u} AS VARCHAR) || ' MICROSECOND to timestamp timestamp(' || ${fullText(s2)} || '+00:00) causes overflow'`);
    return `CASE WHEN ${d} <> 0 AND ${out(s1, 'timestamp')} THEN ${dayErr} WHEN ${out(s2, 'timestamp')} THEN ${timeErr} ELSE ${s2} END`;
  });
}

/** Days past which any DATE ± n leaves 0001-01-01 … 9999-12-31 (its span, 3,652,058 days). */
const DATE_SPAN_DAYS = 3652059;

/** DATE `x` ± INT64 `n` days: `Adding <±n> DAY to date <x> causes overflow` outside the range (NULL under SAFE). */
export function datePlusDays(c: FnCall, x: string, n: string, op: '+' | '-'): string {
  const signed = op === '-' ? `(- CAST(${n} AS HUGEINT))` : `CAST(${n} AS HUGEINT)`;
  const small = `CASE WHEN abs(${signed}) > ${DATE_SPAN_DAYS} THEN 0 ELSE CAST(${signed} AS INTEGER) END`;
  const r = `CAST(${x} + ${small} AS DATE)`;
  const err = raise(c, `'Adding ' || CAST(${signed} AS VARCHAR) || ' DAY to date ' || CAST(${x} AS VARCHAR) || ' causes overflow'`);
  // The amount's negation overflows INT64: `Subtracting -9223372036854775808 DAY from date …`.
  const minSub = op === '-' ? `WHEN ${n} = -9223372036854775808 THEN ${raise(c, `'Subtracting ' || CAST(${n} AS VARCHAR) || ' DAY from date ' || CAST(${x} AS VARCHAR) || ' causes overflow'`)} ` : '';
  return `CASE WHEN ${x} IS NULL OR ${n} IS NULL THEN NULL ${minSub}WHEN abs(${signed}) > ${DATE_SPAN_DAYS} OR ${out(r, 'date')} THEN ${err} ELSE ${r} END`;
}
