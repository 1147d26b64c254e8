/**
 * Aggregate and analytic functions. Expected values: recorded fixtures standard_functions/agg_*,
 * rw_array_agg_*, window_*; BigQuery docs examples (aggregate_functions, statistical aggregates,
 * numbering and navigation functions).
 */
import { describe, expect, it } from 'vitest';
import { agg, errorOf, lower, rows, T } from './testkit.js';
import type { FnCall } from './registry.js';

const col = (name: string, t = T.int): [string, FnCall['argTypes'][number]] => [name, t];
const L = (fn: string, ret: FnCall['returnType'], args: [string, FnCall['argTypes'][number]][], extra: Partial<FnCall> = {}) => lower(fn, ret, args, extra);
const NUMS = [['1', "'a'", '10.0', '100.0'], ['2', "'b'", '20.0', '195.0'], ['3', "'a'", '30.0', '305.0'], ['4', "'c'", '40.0', '410.0'], ['5', "'b'", '50.0', '495.0']];
const onNums = (expr: string) => agg(expr, ['n', 'label', 'x', 'y'], NUMS.map((r) => [r[0] + '::BIGINT', r[1], r[2] + '::DOUBLE', r[3] + '::DOUBLE']));

describe('aggregates', () => {
  it('SUM/AVG/COUNTIF/LOGICAL_* (agg_sum_int, agg_avg, agg_countif*, agg_logical_*)', async () => {
    expect(await onNums(L('sum', T.int, [col('n')]))).toBe(15);
    expect(await onNums(L('avg', T.f64, [col('n')]))).toBe(3);
    expect(await onNums(L('countif', T.int, [col('n > 2', T.bool)]))).toBe(3);
    expect(await agg(L('countif', T.int, [col('v > 0', T.bool)]), ['v'], [['1'], ['2']].slice(0, 0).concat([['NULL::BIGINT']]))).toBe(0);
    expect((await rows(`SELECT ${L('countif', T.int, [col('v > 0', T.bool)])} FROM (SELECT 1::BIGINT AS v) WHERE false`))[0][0]).toBe(0);
    expect(await onNums(L('logical_and', T.bool, [col('n > 0', T.bool)]))).toBe(true);
    expect(await onNums(L('logical_or', T.bool, [col('n > 5', T.bool)]))).toBe(false);
    expect(await onNums(L('bit_and', T.int, [col('n')]))).toBe(0);
    expect(await errorOf(`(SELECT ${L('sum', T.int, [col('v')])} FROM (VALUES (9223372036854775807::BIGINT), (1::BIGINT)) t(v))`)).toBe('int64 overflow');
  });

  it('AVG(NUMERIC) is exact', async () => {
    const r = await agg(`CAST(${L('avg', T.num, [col('v', T.num)])} AS VARCHAR)`, ['v'], [["'1.000000001'::DECIMAL(38,9)"], ["'2'::DECIMAL(38,9)"], ["'0.000000001'::DECIMAL(38,9)"]]);
    expect(r).toBe('1.000000001');
    const big = await agg(`CAST(${L('avg', T.num, [col('v', T.num)])} AS VARCHAR)`, ['v'], [["'12345678901234567890.123456789'::DECIMAL(38,9)"], ["'0.000000002'::DECIMAL(38,9)"]]);
    expect(big).toBe('6172839450617283945.061728396');
  });

  it('ARRAY_AGG / STRING_AGG / ARRAY_CONCAT_AGG (agg_array_agg, rw_array_agg_ignore_nulls, agg_string_agg_basic, agg_array_concat_*)', async () => {
    expect(await onNums(L('array_agg', T.arr(T.int), [col('n')], { orderBy: 'n DESC' }))).toEqual([5, 4, 3, 2, 1]);
    expect(await onNums(L('array_agg', T.arr(T.int), [col('n')], { orderBy: 'n', limit: '2' }))).toEqual([1, 2]);
    expect(await onNums(L('array_agg', T.arr(T.str), [col('label', T.str)], { distinct: true, orderBy: 'label' }))).toEqual(['a', 'b', 'c']);
    const withNulls = (extra: Partial<FnCall>) => agg(L('array_agg', T.arr(T.int), [col('v')], extra), ['v'], [['3::BIGINT'], ['NULL::BIGINT'], ['1::BIGINT']]);
    expect(await withNulls({ nullHandling: 'IGNORE', orderBy: 'v' })).toEqual([1, 3]);
    expect(await withNulls({ orderBy: 'v' })).toEqual([null, 1, 3]);
    expect(await agg(L('array_agg', T.arr(T.int), [col('v')], { nullHandling: 'IGNORE' }), ['v'], [['NULL::BIGINT']])).toBe(null);
    expect(await onNums(L('string_agg', T.str, [col('label', T.str), col("''", T.str)], { orderBy: 'n' }))).toBe('abacb');
    expect(await onNums(L('string_agg', T.str, [col('label', T.str)], { orderBy: 'n' }))).toBe('a,b,a,c,b');
    expect(await onNums(L('string_agg', T.str, [col('label', T.str), col("' & '", T.str)], { orderBy: 'n', limit: '2' }))).toBe('a & b');
    const arrs = [['1', '[1, 2]'], ['2', '[3, 4]'], ['3', '[5, 6]']].map((r) => [r[0] + '::BIGINT', r[1] + '::BIGINT[]']);
    expect(await agg(L('array_concat_agg', T.arr(T.int), [col('arr', T.arr(T.int))], { orderBy: 'id DESC' }), ['id', 'arr'], arrs)).toEqual([5, 6, 3, 4, 1, 2]);
    expect(await agg(L('array_concat_agg', T.arr(T.int), [col('arr', T.arr(T.int))], { orderBy: 'id', limit: '2' }), ['id', 'arr'], arrs)).toEqual([1, 2, 3, 4]);
  });

  it('statistics (agg_stddev_*, agg_var_*, agg_corr, agg_covar_pop, agg_variance_single)', async () => {
    const r6 = (v: unknown) => Number((v as number).toFixed(6));
    const ten = Array.from({ length: 10 }, (_v, i) => [`${(i + 1) * 10}.0::DOUBLE`, `${[100, 195, 305, 410, 495, 605, 700, 805, 900, 1005][i]}.0::DOUBLE`]);
    const on10 = (e: string) => agg(e, ['x', 'y'], ten);
    expect(r6(await on10(L('stddev', T.f64, [col('x', T.f64)])))).toBe(30.276504);
    expect(r6(await on10(L('stddev_pop', T.f64, [col('x', T.f64)])))).toBe(28.722813);
    expect(r6(await on10(L('var_pop', T.f64, [col('x', T.f64)])))).toBe(825);
    expect(r6(await on10(L('variance', T.f64, [col('x', T.f64)])))).toBe(916.666667);
    expect(r6(await on10(L('corr', T.f64, [col('x', T.f64), col('y', T.f64)])))).toBe(0.99988);
    expect(r6(await on10(L('covar_pop', T.f64, [col('x', T.f64), col('y', T.f64)])))).toBe(8280);
    expect(await agg(L('variance', T.f64, [col('x', T.f64)]), ['x'], [['1.0::DOUBLE']])).toBe(null);
    expect(await agg(L('corr', T.f64, [col('y', T.f64), col('x', T.f64)]), ['y', 'x'], [['1.0::DOUBLE', 'NULL::DOUBLE'], ['9.0::DOUBLE', '3.0::DOUBLE']])).toBe(null);
  });

  it('MIN_BY/MAX_BY, APPROX_* (agg_min_by_*, agg_max_by_*, agg_approx_*)', async () => {
    const recs = [["'alpha'", '10'], ["'orphan_a'", 'NULL'], ["'beta'", '25'], ["'orphan_b'", 'NULL'], ["'gamma'", '17']].map((r) => [r[0], r[1] + '::BIGINT']);
    expect(await agg(L('min_by', T.str, [col('label', T.str), col('score')]), ['label', 'score'], recs)).toBe('alpha');
    expect(await agg(L('max_by', T.str, [col('label', T.str), col('score')]), ['label', 'score'], recs)).toBe('beta');
    const tens = Array.from({ length: 10 }, (_v, i) => [`${i + 1}::BIGINT`]);
    expect(await agg(L('approx_count_distinct', T.int, [col('n')]), ['n'], tens)).toBe(10);
    expect(await agg(L('approx_quantiles', T.arr(T.int), [col('n'), col('4')]), ['n'], tens)).toEqual([1, 3, 5, 8, 10]);
    const top = T.arr(T.struct(['value', T.int], ['count', T.int]));
    expect(await agg(L('approx_top_count', top, [col('n'), col('2')]), ['n'], [['1'], ['2'], ['2'], ['3'], ['3'], ['3']])).toEqual([{ value: 3, count: 3 }, { value: 2, count: 2 }]);
    const topSum = T.arr(T.struct(['value', T.str], ['sum', T.int]));
    expect(await agg(L('approx_top_sum', topSum, [col('key', T.str), col('wt'), col('2')]), ['key', 'wt'], [["'a'", '1'], ["'b'", '10'], ["'a'", '20'], ["'c'", '3']])).toEqual([{ value: 'a', sum: 21 }, { value: 'b', sum: 10 }]);
  });

  it('HLL_COUNT counts exactly (agg_hll_count_merge_basic)', async () => {
    const init = (vals: string) => `(SELECT ${L('hll_count.init', T.bytes, [col('n')])} AS sketch FROM (VALUES ${vals}) t(n))`;
    const merged = await rows(`SELECT ${L('hll_count.merge', T.int, [col('sketch', T.bytes)])} FROM (${init('(1), (2), (3)')} UNION ALL ${init('(4), (5), (6), (1)')})`);
    expect(merged[0][0]).toBe(6);
    expect((await rows(`SELECT ${L('hll_count.extract', T.int, [col('sketch', T.bytes)])} FROM ${init('(1), (2), (2)')}`))[0][0]).toBe(2);
  });
});

describe('analytic functions', () => {
  const win = async (expr: string) => (await rows(`SELECT ${expr} FROM (VALUES (1, 'a', 10), (2, 'a', NULL), (3, 'b', 30), (4, 'b', 40)) t(i, g, v) ORDER BY i`)).map((r) => r[0]);
  it('numbering (rw_qualify_*, window_over_empty)', async () => {
    expect(await win(L('row_number', T.int, [], { over: 'PARTITION BY g ORDER BY i' }))).toEqual([1, 2, 1, 2]);
    expect(await win(L('rank', T.int, [], { over: 'ORDER BY g' }))).toEqual([1, 1, 3, 3]);
    expect(await win(L('dense_rank', T.int, [], { over: 'ORDER BY g' }))).toEqual([1, 1, 2, 2]);
    expect(await win(L('ntile', T.int, [col('2')], { over: 'ORDER BY i' }))).toEqual([1, 1, 2, 2]);
    expect(await win(L('percent_rank', T.f64, [], { over: 'ORDER BY i' }))).toEqual([0, 1 / 3, 2 / 3, 1]);
  });
  it('navigation with IGNORE NULLS (rw_purchase_following_view, rw_window_last_value)', async () => {
    expect(await win(L('lag', T.int, [col('v')], { over: 'ORDER BY i' }))).toEqual([null, 10, null, 30]);
    expect(await win(L('lag', T.int, [col('v')], { over: 'ORDER BY i', nullHandling: 'IGNORE' }))).toEqual([null, 10, 10, 30]);
    expect(await win(L('lead', T.int, [col('v'), col('1'), col('0')], { over: 'ORDER BY i' }))).toEqual([null, 30, 40, 0]);
    expect(await win(L('last_value', T.int, [col('v')], { over: 'PARTITION BY g ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING' }))).toEqual([null, null, 40, 40]);
    expect(await win(L('last_value', T.int, [col('v')], { over: 'PARTITION BY g ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING', nullHandling: 'IGNORE' }))).toEqual([10, 10, 40, 40]);
    expect(await win(L('sum', T.int, [col('v')], { over: 'ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW' }))).toEqual([10, 10, 40, 80]);
  });
  it('PERCENTILE_CONT/DISC (agg_percentile_*_50)', async () => {
    const tens = `(SELECT * FROM range(1, 11) r(n))`;
    expect((await rows(`SELECT ${L('percentile_cont', T.f64, [col('n'), col('0.5')], { over: '' })} FROM ${tens} LIMIT 1`))[0][0]).toBe(5.5);
    expect((await rows(`SELECT ${L('percentile_disc', T.int, [col('n'), col('0.5')], { over: '' })} FROM ${tens} LIMIT 1`))[0][0]).toBe(5);
  });
});
