/**
 * Display renderer tests. Every documented display string below is copied from
 * conformance/docs-examples/visible.jsonl (case id given); the last test checks each one
 * against the file. Values go through the client's own decoder (REST → decoded),
 * as in `bqemu corpus docs`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderValue, toDisplayFields, type DisplayField } from './docs-render.js';
import { cellMatches, parseDocBytes, parseDocNumber, splitTopLevel } from './docs-match.js';
import { caseSql, compareDocCase, decodeRows, docGroup, errorMessageMatches, flattenForColumns, isRunnable, type DocCase } from './docs.js';

/** Decode one REST cell `v` of REST field `field` the way the runner does, and return value + display field. */
function decode(field: Record<string, unknown>, v: unknown): { value: unknown; f: DisplayField } {
  const [row] = decodeRows([{ f: [{ v }] }], [field]);
  return { value: row![0], f: toDisplayFields([field])[0]! };
}

const INT = (name: string) => ({ name, type: 'INTEGER', mode: 'NULLABLE' });
const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');

/** [case id, documented cell] pairs used below (checked against visible.jsonl at the end). */
const USED: [string, string][] = [];
function doc(id: string, cell: string): string {
  USED.push([id, cell]);
  return cell;
}

describe('renderValue: the docs display style', () => {
  it('arrays as [a, b] (array_functions/array-1)', () => {
    const { value, f } = decode({ name: 'new_array', type: 'INTEGER', mode: 'REPEATED' }, [{ v: '1' }, { v: '2' }, { v: '3' }]);
    expect(renderValue(value, f)).toBe(doc('array_functions/array-1', '[1, 2, 3]'));
  });

  it('structs as {name: value} (query-syntax/range-variables-3)', () => {
    const { value, f } = decode({ name: 'Coordinate', type: 'RECORD', mode: 'NULLABLE', fields: [INT('x'), INT('y')] }, { f: [{ v: '1' }, { v: '2' }] });
    expect(renderValue(value, f)).toBe(doc('query-syntax/range-variables-3', '{x: 1, y: 2}'));
  });

  it('bytes as b"…" with \\x escapes (bit_functions/bit-count-1, net_functions/net-ip-from-string-1)', () => {
    const field = { name: 'b', type: 'BYTES' };
    expect(renderValue(decode(field, b64([])).value, decode(field, '').f)).toBe(doc('bit_functions/bit-count-1', 'b""'));
    const x = decode(field, b64([0x00, 0x08]));
    expect(renderValue(x.value, x.f)).toBe(doc('bit_functions/bit-count-1', 'b"\\x00\\x08"'));
    const y = decode(field, b64([0x30, 0x31, 0x32, 0x33]));
    expect(renderValue(y.value, y.f)).toBe(doc('net_functions/net-ip-from-string-1', 'b"0123"'));
    const z = decode(field, b64([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xc0, 0x00, 0x02, 0x80]));
    expect(renderValue(z.value, z.f)).toBe(doc('net_functions/net-ip-from-string-1', 'b"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\xff\\xff\\xc0\\x00\\x02\\x80"'));
  });

  it('timestamps in UTC as YYYY-MM-DD HH:MM:SS+00 (numbering_functions/cume-dist-1)', () => {
    // jobs.query returns TIMESTAMP as int64 microseconds by default.
    const { value, f } = decode({ name: 'finish_time', type: 'TIMESTAMP' }, String(Date.UTC(2016, 9, 18, 9, 51, 45) * 1000));
    expect(renderValue(value, f)).toBe(doc('numbering_functions/cume-dist-1', '2016-10-18 09:51:45+00'));
  });

  it('datetimes, times and dates as written (datetime_functions/datetime-1, time_functions/time-1)', () => {
    const dt = decode({ name: 'datetime_ymdhms', type: 'DATETIME' }, '2008-12-25T05:30:00');
    expect(renderValue(dt.value, dt.f)).toBe(doc('datetime_functions/datetime-1', '2008-12-25 05:30:00'));
    const t = decode({ name: 'time_hms', type: 'TIME' }, '15:30:00');
    expect(renderValue(t.value, t.f)).toBe(doc('time_functions/time-1', '15:30:00'));
  });

  it('floats with their shortest digits (numbering_functions/cume-dist-1, aggregate_functions/avg-2, json_functions/lax-double-4)', () => {
    const field = { name: 'finish_rank', type: 'FLOAT' };
    expect(renderValue(decode(field, '0.25').value, toDisplayFields([field])[0]!)).toBe(doc('numbering_functions/cume-dist-1', '0.25'));
    expect(renderValue(decode(field, '1').value, toDisplayFields([field])[0]!)).toBe(doc('numbering_functions/cume-dist-1', '1'));
    expect(renderValue(decode(field, '2.75').value, toDisplayFields([field])[0]!)).toBe(doc('aggregate_functions/avg-2', '2.75'));
    expect(renderValue(decode(field, '1e+100').value, toDisplayFields([field])[0]!)).toBe(doc('json_functions/lax-double-4', '1e+100'));
  });

  it('NULL, integers and top-level strings unquoted (statistical_aggregate_functions/corr-3, data-model/value-tables-1, string_functions/reverse-1)', () => {
    const n = decode({ name: 'results', type: 'FLOAT' }, null);
    expect(renderValue(n.value, n.f)).toBe(doc('statistical_aggregate_functions/corr-3', 'NULL'));
    const i = decode(INT('a'), '123');
    expect(renderValue(i.value, i.f)).toBe(doc('data-model/value-tables-1', '123'));
    const s = decode({ name: 'results', type: 'STRING' }, 'cba');
    expect(renderValue(s.value, s.f)).toBe(doc('string_functions/reverse-1', 'cba'));
  });

  it('ranges as [start, end) with UNBOUNDED (range-functions/range-intersect-1, -3)', () => {
    const field = { name: 'results', type: 'RANGE', rangeElementType: { type: 'DATE' } };
    const a = decode(field, '[2022-02-01, 2022-04-15)');
    expect(renderValue(a.value, a.f)).toBe(doc('range-functions/range-intersect-1', '[2022-02-01, 2022-04-15)'));
    const b = decode(field, '[2022-02-01, UNBOUNDED)');
    expect(renderValue(b.value, b.f)).toBe(doc('range-functions/range-intersect-3', '[2022-02-01, UNBOUNDED)'));
  });

  it('intervals in canonical form (interval_functions/justify-days-1)', () => {
    const field = { name: 'i1', type: 'INTERVAL' };
    expect(renderValue(decode(field, '0-0 29 0:0:0').value, toDisplayFields([field])[0]!)).toBe(doc('interval_functions/justify-days-1', '0-0 29 0:0:0'));
    expect(renderValue(decode(field, '-0-2 -5 0:0:0').value, toDisplayFields([field])[0]!)).toBe(doc('interval_functions/justify-days-1', '-0-2 -5 0:0:0'));
  });

  it('JSON as compact text (json_functions/signature-2-3, json_functions/json-query-2)', () => {
    const field = { name: 'json_data', type: 'JSON' };
    expect(renderValue(decode(field, '{"a":10,"b":"foo"}').value, toDisplayFields([field])[0]!)).toBe(doc('json_functions/signature-2-3', '{"a":10,"b":"foo"}'));
    expect(renderValue(decode(field, 'null').value, toDisplayFields([field])[0]!)).toBe(doc('json_functions/json-query-2', 'null'));
  });
});

describe('cellMatches: other display variants of the docs', () => {
  it('multi-line structs with quoted strings (query-syntax/select-distinct-2)', () => {
    const field = { name: 'player', type: 'RECORD', fields: [{ name: 'last_name', type: 'STRING' }, { name: 'first_name', type: 'STRING' }, INT('age')] };
    const { value, f } = decode(field, { f: [{ v: 'Adams' }, { v: 'Noam' }, { v: '20' }] });
    expect(cellMatches(doc('query-syntax/select-distinct-2', '{\n  last_name: "Adams",\n  first_name: "Noam",\n  age: 20\n }'), value, f)).toBe(true);
    expect(cellMatches(doc('query-syntax/select-distinct-2', '{\n  last_name: "Buchanan",\n  first_name: "Jie",\n  age: 19\n }'), value, f)).toBe(false);
  });

  it('arrays without spaces or with bare strings (array_functions/array-filter-1, array-slice-1)', () => {
    const ints = decode({ name: 'a1', type: 'INTEGER', mode: 'REPEATED' }, [{ v: '2' }, { v: '3' }]);
    expect(cellMatches(doc('array_functions/array-filter-1', '[2,3]'), ints.value, ints.f)).toBe(true);
    const strs = decode({ name: 'result', type: 'STRING', mode: 'REPEATED' }, [{ v: 'b' }, { v: 'c' }, { v: 'd' }]);
    expect(cellMatches(doc('array_functions/array-slice-1', '[b, c, d]'), strs.value, strs.f)).toBe(true);
    expect(cellMatches('[b, c]', strs.value, strs.f)).toBe(false);
  });

  it('element order matters in arrays (array_functions/array-1)', () => {
    const { value, f } = decode({ name: 'new_array', type: 'INTEGER', mode: 'REPEATED' }, [{ v: '1' }, { v: '3' }, { v: '2' }]);
    expect(cellMatches(doc('array_functions/array-1', '[1, 2, 3]'), value, f)).toBe(false);
  });

  it('ranges with typed-literal bounds (conversion_functions/cast-as-range-1, -2)', () => {
    const d = decode({ name: 'string_to_range', type: 'RANGE', rangeElementType: { type: 'DATE' } }, '[2020-01-01, 2020-01-02)');
    expect(cellMatches(doc('conversion_functions/cast-as-range-1', "[DATE '2020-01-01', DATE '2020-01-02')"), d.value, d.f)).toBe(true);
    const dt = decode({ name: 'string_to_range', type: 'RANGE', rangeElementType: { type: 'DATETIME' } }, '[2014-09-27T12:30:00.450000, 2016-10-17T11:15:00.330000)');
    expect(cellMatches(doc('conversion_functions/cast-as-range-2', "[DATETIME '2014-09-27 12:30:00.45', DATETIME '2016-10-17 11:15:00.33')"), dt.value, dt.f)).toBe(true);
    expect(cellMatches(doc('conversion_functions/cast-as-range-1', "[DATE '2020-01-01', DATE '2020-01-02')"), dt.value, dt.f)).toBe(false);
  });

  it('struct fields printed as "value name" and positional structs (string_functions/regexp-extract-groups-6, operators/array-elements-field-access-operator-1)', () => {
    const field = { name: 'result', type: 'RECORD', fields: [{ name: 'key', type: 'STRING' }, { name: 'val', type: 'STRING' }, { name: 'opt', type: 'STRING' }] };
    const full = decode(field, { f: [{ v: 'id' }, { v: '123' }, { v: 'extra' }] });
    expect(cellMatches(doc('string_functions/regexp-extract-groups-6', '{id key, 123 val, extra opt}'), full.value, full.f)).toBe(true);
    const empty = decode(field, { f: [{ v: 'id' }, { v: '123' }, { v: '' }] });
    expect(cellMatches(doc('string_functions/regexp-extract-groups-6', '{id key, 123 val,  opt}'), empty.value, empty.f)).toBe(true);
    const nul = decode(field, { f: [{ v: 'id' }, { v: '123' }, { v: null }] });
    expect(cellMatches(doc('string_functions/regexp-extract-groups-6', '{id key, 123 val, NULL opt}'), nul.value, nul.f)).toBe(true);
    expect(cellMatches(doc('string_functions/regexp-extract-groups-6', '{id key, 123 val, NULL opt}'), empty.value, empty.f)).toBe(false);

    const prices = { name: 'prices', type: 'FLOAT', mode: 'REPEATED' };
    const sales = { name: 'sales', type: 'RECORD', mode: 'REPEATED', fields: [prices] };
    const arr = decode({ name: 'my_array', type: 'RECORD', mode: 'REPEATED', fields: [sales] }, [
      { v: { f: [{ v: [{ v: { f: [{ v: [{ v: '25' }, { v: '75' }] }] } }, { v: { f: [{ v: [{ v: '30' }] }] } }] }] } },
    ]);
    expect(cellMatches(doc('operators/array-elements-field-access-operator-1', '[{[{[25, 75] prices}, {[30] prices}] sales}]'), arr.value, arr.f)).toBe(true);
  });

  it('positional structs inside arrays (arrays/querying-struct-elements-in-an-array-1, array_functions/array-2)', () => {
    const field = { name: 'participant', type: 'RECORD', fields: [{ name: 'name', type: 'STRING' }, { name: 'laps', type: 'FLOAT', mode: 'REPEATED' }] };
    const { value, f } = decode(field, { f: [{ v: 'Murphy' }, { v: [{ v: '23.9' }, { v: '26' }, { v: '27' }, { v: '26' }] }] });
    expect(cellMatches(doc('arrays/querying-struct-elements-in-an-array-1', '{Murphy, [23.9, 26, 27, 26]}'), value, f)).toBe(true);
    const anon = { name: 'new_array', type: 'RECORD', mode: 'REPEATED', fields: [INT('_field_1'), INT('_field_2'), INT('_field_3')] };
    const a = decode(anon, [{ v: { f: [{ v: '1' }, { v: '2' }, { v: '3' }] } }, { v: { f: [{ v: '4' }, { v: '5' }, { v: '6' }] } }]);
    expect(cellMatches(doc('array_functions/array-2', '[{1, 2, 3}, {4, 5, 6}]'), a.value, a.f)).toBe(true);
    expect(renderValue(a.value, a.f)).toBe('[{1, 2, 3}, {4, 5, 6}]');
  });

  it('bytes printed bare in Python style (hash_functions/md5-1)', () => {
    const digest = createHash('md5').update('Hello World').digest();
    const { value, f } = decode({ name: 'md5', type: 'BYTES' }, digest.toString('base64'));
    expect(cellMatches(doc('hash_functions/md5-1', '\\xb1\\n\\x8d\\xb1d\\xe0uA\\x05\\xb7\\xa9\\x9b\\xe7.?\\xe5'), value, f)).toBe(true);
    expect(parseDocBytes('b"\\x00\\x08"')).toEqual(Buffer.from([0, 8]));
  });

  it('floats to the printed precision (geography_functions/st-x-1, mathematical_functions/cosine-distance-3)', () => {
    const field = { name: 'longitude', type: 'FLOAT' };
    const zero = decode(field, '0');
    expect(cellMatches(doc('geography_functions/st-x-1', '0.0'), zero.value, zero.f)).toBe(true);
    const cos = decode({ name: 'results', type: 'FLOAT' }, String(1 - 11 / (Math.sqrt(5) * 5)));
    expect(cellMatches(doc('mathematical_functions/cosine-distance-3', '0.016130'), cos.value, cos.f)).toBe(true);
    const off = decode({ name: 'results', type: 'FLOAT' }, '0.016132');
    expect(cellMatches(doc('mathematical_functions/cosine-distance-3', '0.016130'), off.value, off.f)).toBe(false);
    expect(parseDocNumber('0.016130')).toEqual({ value: 0.01613, ulp: 1e-6 });
  });

  it('booleans in either case and NULL only for NULL (data-model/value-tables-1, string_functions/regexp-extract-3)', () => {
    const f = decode({ name: 'b', type: 'BOOLEAN' }, 'false');
    expect(cellMatches(doc('data-model/value-tables-1', 'FALSE'), f.value, f.f)).toBe(true);
    expect(cellMatches('TRUE', f.value, f.f)).toBe(false);
    const empty = decode({ name: 'result_d', type: 'STRING' }, '');
    expect(cellMatches(doc('string_functions/regexp-extract-3', 'NULL'), empty.value, empty.f)).toBe(false);
  });

  it('timestamps as instants (numbering_functions/cume-dist-1)', () => {
    const { value, f } = decode({ name: 'finish_time', type: 'TIMESTAMP' }, String(Date.UTC(2016, 9, 18, 9, 51, 45) * 1000));
    expect(cellMatches(doc('numbering_functions/cume-dist-1', '2016-10-18 09:51:45+00'), value, f)).toBe(true);
    expect(cellMatches(doc('numbering_functions/cume-dist-1', '2016-10-18 09:54:11+00'), value, f)).toBe(false);
    expect(cellMatches('2016-10-18 09:51:45 UTC', value, f)).toBe(true);
    // navigation_functions/lead-1 prints the time of day only.
    const t = decode({ name: 'finish_time', type: 'TIMESTAMP' }, String(Date.UTC(2016, 9, 18, 3, 8, 58) * 1000));
    expect(cellMatches(doc('navigation_functions/lead-1', '03:08:58'), t.value, t.f)).toBe(true);
    expect(cellMatches(doc('navigation_functions/lead-1', '02:51:45'), t.value, t.f)).toBe(false);
  });

  it('splits only at top-level commas', () => {
    expect(splitTopLevel('POINT(0 0), LINESTRING(1 2, 2 1)')).toEqual(['POINT(0 0)', 'LINESTRING(1 2, 2 1)']);
    expect(splitTopLevel('"a, b", {1, 2}, [3, 4]')).toEqual(['"a, b"', '{1, 2}', '[3, 4]']);
    expect(splitTopLevel('')).toEqual([]);
  });
});

// ---- the docs runner's comparison (docs.ts) ----

function mk(over: Partial<DocCase>): DocCase {
  return { id: 'x/y-1', doc: 'x.md', query: 'SELECT 1', kind: 'result', columns: ['a'], rows: [['1']], ordered: false, flags: {}, ...over };
}

function result(restFields: Record<string, unknown>[], restRows: unknown[][]) {
  const raw = restRows.map((r) => ({ f: r.map((v) => ({ v })) }));
  return { kind: 'result' as const, fields: toDisplayFields(restFields), rows: decodeRows(raw, restFields) };
}


describe('case selection', () => {
  it('runs only self-contained deterministic cases; expression cases as SELECT <expr>', () => {
    expect(isRunnable(mk({ flags: { expression: true } }))).toBe(true);
    expect(isRunnable(mk({ flags: { needs_tables: true } }))).toBe(false);
    expect(isRunnable(mk({ flags: { nondeterministic: true } }))).toBe(false);
    expect(caseSql(mk({ query: "'Foo' LIKE '%foo%'", flags: { expression: true } }))).toBe("SELECT 'Foo' LIKE '%foo%'");
    expect(caseSql(mk({ query: 'SELECT 1' }))).toBe('SELECT 1');
  });

  it('reports graph, proto and pipe-syntax cases apart', () => {
    expect(docGroup(mk({ doc: 'graph-patterns.md' }))).toBe('graph');
    expect(docGroup(mk({ doc: 'protocol_buffer_functions.md' }))).toBe('proto');
    expect(docGroup(mk({ doc: 'pipe-syntax.md' }))).toBe('pipe');
    expect(docGroup(mk({ doc: 'string_functions.md', query: 'FROM t |> WHERE x' }))).toBe('pipe');
    expect(docGroup(mk({ doc: 'string_functions.md' }))).toBe('core');
  });
});

describe('compareDocCase', () => {
  it('compares unordered results as multisets', () => {
    const c = mk({ columns: ['a', 'b'], rows: [['1', 'x'], ['2', 'y']], ordered: false });
    expect(compareDocCase(c, result([INT('a'), { name: 'b', type: 'STRING' }], [['2', 'y'], ['1', 'x']])).pass).toBe(true);
    const bad = compareDocCase(c, result([INT('a'), { name: 'b', type: 'STRING' }], [['2', 'y'], ['1', 'z']]));
    expect(bad).toMatchObject({ pass: false, cause: 'value mismatch: STRING' });
  });

  it('compares ordered results in order, ties of the sort key aside', () => {
    const c = mk({ columns: ['letter', 'n'], rows: [['a', '5'], ['r', '2'], ['o', '2']], ordered: true });
    const fields = [{ name: 'letter', type: 'STRING' }, INT('n')];
    expect(compareDocCase(c, result(fields, [['a', '5'], ['o', '2'], ['r', '2']])).pass).toBe(true);
    expect(compareDocCase(c, result(fields, [['r', '2'], ['a', '5'], ['o', '2']]))).toMatchObject({ pass: false, cause: 'row order' });
  });

  it('fails on row and column counts and on emulator errors', () => {
    expect(compareDocCase(mk({}), result([INT('a')], []))).toMatchObject({ pass: false, cause: 'row count' });
    expect(compareDocCase(mk({}), result([INT('a'), INT('b')], [['1', '2']]))).toMatchObject({ pass: false, cause: 'column count' });
    expect(compareDocCase(mk({}), { kind: 'error', message: 'Function FOO is not supported by bqemu' })).toMatchObject({ pass: false, cause: 'emulator error: not supported: Function FOO' });
  });

  it('reorders columns by name and flattens STRUCT columns the docs print as a.b', () => {
    const c = mk({ columns: ['b', 'a'], rows: [['2', '1']] });
    expect(compareDocCase(c, result([INT('a'), INT('b')], [['1', '2']])).pass).toBe(true);
    const st = { name: 's', type: 'RECORD', fields: [INT('x'), INT('y')] };
    const flat = flattenForColumns(['k', 's.x', 's.y'], toDisplayFields([INT('k'), st]), [[1, { x: 2, y: 3 }]]);
    expect(flat.fields.map((f) => f.name)).toEqual(['k', 's.x', 's.y']);
    expect(flat.rows).toEqual([[1, 2, 3]]);
  });

  it('error cases: any error for generic prose, loose message match otherwise', () => {
    const generic = mk({ kind: 'error', error: 'Throws an error', rows: null, columns: null });
    expect(compareDocCase(generic, { kind: 'error', message: 'anything' }).pass).toBe(true);
    expect(compareDocCase(generic, result([INT('a')], [['1']]))).toMatchObject({ pass: false, cause: 'expected an error, got a result' });
    expect(errorMessageMatches('Error: Unequal array length', 'Unequal array length; 2 vs 4')).toBe(true);
    expect(errorMessageMatches('Error. Array index 6 is out of bounds.', 'Array index 6 is out of bounds (overflow)')).toBe(true);
    expect(errorMessageMatches('Error: Unequal array length', 'Function ARRAY_ZIP is not supported by bqemu')).toBe(false);
    expect(errorMessageMatches("ERROR: BYTES and STRING values can't be used together.", 'No matching signature for operator LIKE ALL for argument types literal BYTES and {STRING, STRING}')).toBe(true);
    expect(errorMessageMatches("Error: A key can't be NULL.", 'Scalar Function with name bq_json_canon does not exist!')).toBe(false);
    expect(errorMessageMatches('This produces an error because the year element is in different locations.', 'Mismatch between format character and string')).toBe(true);
  });
});

describe('examples come from visible.jsonl', () => {
  const file = new URL('../../conformance/docs-examples/visible.jsonl', import.meta.url);
  it('every documented string used above is a cell of the named case', () => {
    const cases = new Map<string, string[][]>();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const c = JSON.parse(line) as { id: string; rows?: string[][] | null };
      cases.set(c.id, c.rows ?? []);
    }
    expect(USED.length).toBeGreaterThan(30);
    for (const [id, cell] of USED) {
      const rows = cases.get(id);
      expect(rows, id).toBeDefined();
      expect(rows!.some((r) => r.includes(cell)), `${id}: ${JSON.stringify(cell)}`).toBe(true);
    }
  });
});
