/**
 * Range functions. Expected values: recorded fixtures specialized_types/range_*,
 * generate_range_array_date; BigQuery docs examples (range-functions).
 */
import { describe, expect, it } from 'vitest';
import { errorOf, ev, lit, lower, T } from './testkit.js';
import type { Arg } from './testkit.js';

const RD: Parameters<typeof ev>[1] = { kind: 'RANGE', element: T.date };
const r = (s: string | null, e: string | null): Arg => [`struct_pack("start" := ${s ? `DATE '${s}'` : 'NULL::DATE'}, "end" := ${e ? `DATE '${e}'` : 'NULL::DATE'})`, RD];
const txt = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'string' && x.endsWith('T00:00:00.000Z') ? x.slice(0, 10) : x));

describe('range functions', () => {
  it('RANGE, RANGE_START/END (range_constructor_basic, range_start_basic, range_end_basic)', async () => {
    expect(txt(await ev('range', RD, [lit.date('2024-01-01'), lit.date('2024-12-31')]))).toBe('{"start":"2024-01-01","end":"2024-12-31"}');
    expect(await errorOf(lower('range', RD, [lit.date('2014-01-01'), lit.date('2014-01-01')]))).toBe('Range start element must be smaller than range end element');
    expect(txt(await ev('range', RD, [lit.null(T.date), lit.date('2022-12-31')]))).toBe('{"start":null,"end":"2022-12-31"}');
    expect(txt(await ev('range_start', T.date, [r('2024-01-01', '2024-12-31')]))).toBe('"2024-01-01"');
    expect(txt(await ev('range_end', T.date, [r('2024-01-01', '2024-12-31')]))).toBe('"2024-12-31"');
  });
  it('RANGE_CONTAINS / OVERLAPS / INTERSECT (docs, range_overlaps_yes)', async () => {
    expect(await ev('range_contains', T.bool, [r('2022-01-01', '2023-01-01'), r('2022-04-01', '2022-07-01')])).toBe(true);
    expect(await ev('range_contains', T.bool, [r('2022-01-01', '2023-01-01'), lit.date('2022-04-01')])).toBe(true);
    expect(await ev('range_contains', T.bool, [r('2022-01-01', '2023-01-01'), lit.date('2023-04-01')])).toBe(false);
    expect(await ev('range_overlaps', T.bool, [r('2024-01-01', '2024-02-15'), r('2024-02-01', '2024-03-01')])).toBe(true);
    expect(await ev('range_overlaps', T.bool, [r('2020-02-01', '2020-09-01'), r('2021-06-15', '2022-04-15')])).toBe(false);
    expect(await ev('range_overlaps', T.bool, [r('2022-02-01', null), r('2021-06-15', null)])).toBe(true);
    expect(txt(await ev('range_intersect', RD, [r('2022-02-01', '2022-09-01'), r('2021-06-15', '2022-04-15')]))).toBe('{"start":"2022-02-01","end":"2022-04-15"}');
    expect(txt(await ev('range_intersect', RD, [r('2022-02-01', null), r('2021-06-15', null)]))).toBe('{"start":"2022-02-01","end":null}');
  });
  it('GENERATE_RANGE_ARRAY (generate_range_array_date, docs generate-range-array-*)', async () => {
    const step = (days: number): Arg => [`to_days(${days})`, T.interval];
    const out = (v: unknown) => (v as { start: Date; end: Date }[]).map((x) => `${x.start.toISOString().slice(0, 10)}/${x.end.toISOString().slice(0, 10)}`);
    expect(out(await ev('generate_range_array', T.arr(RD), [r('2024-01-01', '2024-01-08'), step(2)]))).toEqual(['2024-01-01/2024-01-03', '2024-01-03/2024-01-05', '2024-01-05/2024-01-07', '2024-01-07/2024-01-08']);
    expect(out(await ev('generate_range_array', T.arr(RD), [r('2020-01-01', '2020-01-06'), step(2), lit.bool(false)]))).toEqual(['2020-01-01/2020-01-03', '2020-01-03/2020-01-05']);
  });
});
