/**
 * Array functions. Expected values: recorded fixtures standard_functions/arr_*, empty_array_*,
 * bound_array_size_zero, math_range_bucket_*; BigQuery docs examples (array_functions).
 */
import { describe, expect, it } from 'vitest';
import { errorOf, ev, lit, lower, T } from './testkit.js';

const ints = T.arr(T.int);

describe('array functions', () => {
  it('ARRAY_LENGTH, ARRAY_REVERSE, ARRAY_CONCAT (arr_*, empty_array_*)', async () => {
    expect(await ev('array_length', T.int, [lit.ints(10, 20, 30)])).toBe(3);
    expect(await ev('array_length', T.int, [lit.ints()])).toBe(0);
    expect(await ev('array_reverse', ints, [lit.ints(1, 2, 3)])).toEqual([3, 2, 1]);
    expect(await ev('array_concat', ints, [lit.ints(1, 2), lit.ints(3, 4)])).toEqual([1, 2, 3, 4]);
    expect(await ev('array_concat', ints, [lit.ints(), lit.ints(1, 2)])).toEqual([1, 2]);
    expect(await ev('array_concat', ints, [lit.ints(1), lit.null(ints)])).toBe(null);
  });

  it('ARRAY_TO_STRING (arr_to_string, docs array-to-string-1/2)', async () => {
    expect(await ev('array_to_string', T.str, [lit.strs('a', 'b', 'c'), lit.str(',')])).toBe('a,b,c');
    expect(await ev('array_to_string', T.str, [lit.strs('coffee', 'tea', 'milk', null), lit.str('--')])).toBe('coffee--tea--milk');
    expect(await ev('array_to_string', T.str, [lit.strs('coffee', 'tea', 'milk', null), lit.str('--'), lit.str('MISSING')])).toBe('coffee--tea--milk--MISSING');
  });

  it('ARRAY_FIRST/LAST, ARRAY_SLICE, *_N (arr_first_basic, arr_last_*, docs array-slice-*)', async () => {
    expect(await ev('array_first', T.int, [lit.ints(10, 20, 30)])).toBe(10);
    expect(await ev('array_last', T.int, [lit.ints(10, 20, 30)])).toBe(30);
    expect(await errorOf(lower('array_last', T.int, [lit.ints()]))).toBe('ARRAY_LAST cannot get the last element of an empty array');
    const sl = (s: number, e: number) => ev('array_slice', T.arr(T.str), [lit.strs('a', 'b', 'c', 'd', 'e'), lit.int(s), lit.int(e)]);
    expect(await sl(1, 3)).toEqual(['b', 'c', 'd']);
    expect(await sl(-1, 3)).toEqual([]);
    expect(await sl(1, -3)).toEqual(['b', 'c']);
    expect(await sl(-1, -3)).toEqual([]);
    expect(await sl(-3, -1)).toEqual(['c', 'd', 'e']);
    expect(await sl(3, 3)).toEqual(['d']);
    expect(await sl(-3, -3)).toEqual(['c']);
    expect(await sl(1, 30)).toEqual(['b', 'c', 'd', 'e']);
    expect(await sl(1, -30)).toEqual([]);
    expect(await sl(-30, 30)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await sl(-30, -5)).toEqual(['a']);
    expect(await sl(5, 30)).toEqual([]);
    expect(await ev('array_first_n', ints, [lit.ints(1, 2, 3, 4, 5), lit.int(3)])).toEqual([1, 2, 3]);
    expect(await ev('array_last_n', ints, [lit.ints(1, 2, 3, 4, 5), lit.int(3)])).toEqual([3, 4, 5]);
    expect(await ev('array_remove_first_n', ints, [lit.ints(1, 2, 3, 4, 5), lit.int(3)])).toEqual([4, 5]);
    expect(await ev('array_remove_last_n', ints, [lit.ints(1, 2, 3, 4, 5), lit.int(3)])).toEqual([1, 2]);
  });

  it('GENERATE_ARRAY (arr_generate_array, bound_array_size_zero, docs generate-array-*)', async () => {
    expect(await ev('generate_array', ints, [lit.int(1), lit.int(5)])).toEqual([1, 2, 3, 4, 5]);
    expect(await ev('generate_array', ints, [lit.int(0), lit.int(10), lit.int(3)])).toEqual([0, 3, 6, 9]);
    expect(await ev('generate_array', ints, [lit.int(10), lit.int(0), lit.int(-3)])).toEqual([10, 7, 4, 1]);
    expect(await ev('generate_array', ints, [lit.int(4), lit.int(4)])).toEqual([4]);
    expect(await ev('generate_array', ints, [lit.int(10), lit.int(0), lit.int(3)])).toEqual([]);
    expect(await ev('generate_array', ints, [lit.int(1), lit.int(0)])).toEqual([]);
    expect(await ev('generate_array', ints, [lit.int(5), lit.null(T.int), lit.int(1)])).toBe(null);
    expect(await ev('generate_array', T.arr(T.f64), [lit.f64(2), lit.f64(5), lit.f64(0.5)])).toEqual([2, 2.5, 3, 3.5, 4, 4.5, 5]);
    expect(await errorOf(lower('generate_array', ints, [lit.int(1), lit.int(5), lit.int(0)]))).toBe('Sequence step cannot be 0.');
  });

  it('ARRAY_INCLUDES*, ARRAY_IS_DISTINCT, ARRAY_MIN/MAX/SUM/AVG', async () => {
    expect(await ev('array_includes', T.bool, [lit.ints(1, 2, 3), lit.int(2)])).toBe(true);
    expect(await ev('array_includes', T.bool, [lit.ints(1, null), lit.int(5)])).toBe(false);
    expect(await ev('array_includes_any', T.bool, [lit.ints(1, 2, 3), lit.ints(3, 4)])).toBe(true);
    expect(await ev('array_includes_all', T.bool, [lit.ints(1, 2, 3), lit.ints(3, 4)])).toBe(false);
    expect(await ev('array_is_distinct', T.bool, [lit.ints(1, 2, 3)])).toBe(true);
    expect(await ev('array_is_distinct', T.bool, [lit.ints(1, 1, 1)])).toBe(false);
    expect(await ev('array_is_distinct', T.bool, [lit.ints(1, 2, null)])).toBe(true);
    expect(await ev('array_is_distinct', T.bool, [lit.ints(1, 1, null)])).toBe(false);
    expect(await ev('array_is_distinct', T.bool, [lit.ints(1, null, null)])).toBe(false);
    expect(await ev('array_is_distinct', T.bool, [lit.ints()])).toBe(true);
    expect(await ev('array_min', T.int, [lit.ints(8, null, 37, 4)])).toBe(4);
    expect(await ev('array_max', T.int, [lit.ints(8, null, 37, 4)])).toBe(37);
    expect(await ev('array_sum', T.int, [lit.ints(1, 2, 3)])).toBe(6);
    expect(await ev('array_avg', T.f64, [lit.ints(1, 2, 3, 4)])).toBe(2.5);
  });
});
