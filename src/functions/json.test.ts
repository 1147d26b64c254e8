/**
 * JSON functions. Expected values: recorded fixtures standard_functions/json_*; BigQuery docs
 * examples (json_functions: JSON_SET, JSON_REMOVE, JSON_ARRAY_INSERT/APPEND, JSON_STRIP_NULLS,
 * JSON_OBJECT, JSON_ARRAY, LAX_INT64, JSON_TYPE, TO_JSON, PARSE_JSON).
 */
import { describe, expect, it } from 'vitest';
import { call, errorOf, ev, lit, lower, T } from './testkit.js';
import type { Arg } from './testkit.js';

const J = (name: string, ...args: Arg[]) => ev(name, T.json, args);
const js = (x: string) => lit.json(x);
const s = lit.str;

describe('JSON extraction', () => {
  it('JSON_EXTRACT / JSON_QUERY / *_SCALAR / JSON_VALUE (json_extract_*, json_value_*, json_array_index)', async () => {
    expect(await ev('json_extract', T.str, [s('{"items": [1, 2, 3]}'), s('$.items')])).toBe('[1,2,3]');
    expect(await ev('json_extract', T.str, [s('{"a": {"b": 1, "c": "x"}}'), s('$.a')])).toBe('{"b":1,"c":"x"}');
    expect(await ev('json_extract', T.str, [s('{"name": "hello"}'), s('$.name')])).toBe('"hello"');
    expect(await ev('json_extract', T.str, [s('{"a b": 1}'), s("$['a b']")])).toBe('1');
    expect(await ev('json_extract_scalar', T.str, [s('{"a": 42}'), s('$.a')])).toBe('42');
    expect(await ev('json_extract_scalar', T.str, [s('{"a": "hello"}'), s('$.a')])).toBe('hello');
    expect(await ev('json_extract_scalar', T.str, [s('{"a": {"b": 1}}'), s('$.a')])).toBe(null);
    expect(await ev('json_value', T.str, [s('{"a": {"b": 42}}'), s('$.a.b')])).toBe('42');
    expect(await ev('json_value', T.str, [s('[10, 20, 30]'), s('$[1]')])).toBe('20');
    expect(await ev('json_value', T.str, [s('{"a":1}'), s('$.b')])).toBe(null);
    expect(await ev('json_value', T.str, [s('not json'), s('$.a')])).toBe(null);
    expect(await ev('json_value', T.str, [js('{"a": "x"}'), s('$.a')])).toBe('x');
    expect(await ev('json_query', T.json, [js('{"a": {"b": 1}}'), s('$.a')])).toBe('{"b":1}');
  });

  it('array extractors (json_extract_array_*, json_query_array, json_extract_string_array_basic)', async () => {
    expect(await ev('json_extract_array', T.arr(T.str), [s('{"items": [1, 2, 3]}'), s('$.items')])).toEqual(['1', '2', '3']);
    expect(await ev('json_extract_array', T.arr(T.str), [s('{"users": [{"id": 1, "name": "Alice"}, {"id": 2, "name": "Bob"}]}'), s('$.users')])).toEqual([
      '{"id":1,"name":"Alice"}',
      '{"id":2,"name":"Bob"}',
    ]);
    expect(await ev('json_query_array', T.arr(T.str), [s('{"a": [1, 2, 3]}'), s('$.a')])).toEqual(['1', '2', '3']);
    expect(await ev('json_extract_string_array', T.arr(T.str), [s('{"tags": ["a", "b", "c"]}'), s('$.tags')])).toEqual(['a', 'b', 'c']);
    expect(await ev('json_value_array', T.arr(T.str), [s('[1, [2]]'), s('$')])).toBe(null);
    expect(await ev('json_extract_array', T.arr(T.str), [s('{"a": 1}'), s('$.a')])).toBe(null);
  });
});

describe('JSON construction and conversion', () => {
  it('TO_JSON_STRING / TO_JSON (json_to_json_string, docs to-json-*)', async () => {
    expect(await ev('to_json_string', T.str, [lit.sql(`{'a': 1::BIGINT, 'b': 'b'}`, T.struct(['a', T.int], ['b', T.str]))])).toBe('{"a":1,"b":"b"}');
    expect(await ev('to_json_string', T.str, [lit.sql(`{'id': 1::BIGINT, 'coordinates': [10, 20]::BIGINT[]}`, T.struct(['id', T.int], ['coordinates', T.arr(T.int)]))])).toBe('{"id":1,"coordinates":[10,20]}');
    expect(await ev('to_json_string', T.str, [lit.f64('NaN')])).toBe('"NaN"');
    expect(await ev('to_json_string', T.str, [lit.null(T.int)])).toBe('null');
    expect(await ev('to_json_string', T.str, [lit.ts('2024-01-01 12:00:00+00')])).toBe('"2024-01-01T12:00:00Z"');
    expect(await ev('to_json_string', T.str, [lit.sql(`{'a': 1::BIGINT}`, T.struct(['a', T.int])), lit.bool(true)])).toBe('{\n  "a": 1\n}');
    expect(await J('to_json', lit.sql(`{'id': 1::BIGINT, 'coordinates': [10, 20]::BIGINT[]}`, T.struct(['id', T.int], ['coordinates', T.arr(T.int)])))).toBe('{"coordinates":[10,20],"id":1}');
    expect(await J('to_json', lit.int(9007199254740993n), lit.bool(true))).toBe('"9007199254740993"');
    expect(await J('to_json', lit.f64(9007199254740993))).toBe('9.007199254740992e+15');
    expect(await J('to_json', lit.f64(2.1))).toBe('2.1');
  });

  it('PARSE_JSON, JSON_TYPE, JSON_OBJECT, JSON_ARRAY (json_parse_basic, json_type_object, json_object_construct, docs)', async () => {
    expect(await J('parse_json', s('{"a": 1, "b": [2, 3]}'))).toBe('{"a":1,"b":[2,3]}');
    expect(await J('parse_json', s('{"city": "New York", "State": "NY"}'))).toBe('{"State":"NY","city":"New York"}');
    expect(await J('parse_json', s('6'))).toBe('6');
    expect(await errorOf(lower('parse_json', T.json, [s('{oops')]))).toMatch(/^Invalid input to PARSE_JSON/);
    const type = (x: string) => ev('json_type', T.str, [js(x)]);
    expect([await type('"apple"'), await type('10'), await type('3.14'), await type('null'), await type('{"a": 1}'), await type('[1]'), await type('false')]).toEqual(['string', 'number', 'number', 'null', 'object', 'array', 'boolean']);
    expect(await J('json_object', s('k1'), lit.int(1), s('k2'), s('two'))).toBe('{"k1":1,"k2":"two"}');
    expect(await J('json_object', s('a'), lit.null(T.int), s('b'), js('null'))).toBe('{"a":null,"b":null}');
    expect(await J('json_object', s('a'), lit.int(10), s('a'), s('foo'))).toBe('{"a":10}');
    expect(await J('json_object')).toBe('{}');
    expect(await errorOf(lower('json_object', T.json, [lit.null(T.str), lit.int(1)]))).toBe("A key can't be NULL.");
    expect(await J('json_object', lit.strs('a', 'b'), lit.ints(10, null))).toBe('{"a":10,"b":null}');
    expect(await J('json_array', lit.int(1), s('two'), lit.bool(true))).toBe('[1,"two",true]');
    expect(await J('json_array', lit.int(10), lit.strs('foo', 'bar'), lit.ints(20, 30))).toBe('[10,["foo","bar"],[20,30]]');
    expect(await J('json_array')).toBe('[]');
  });

  it('INT64/FLOAT64/BOOL/STRING and LAX_* (json_value_*_extractor, json_lax_*, docs lax-int64-*)', async () => {
    expect(await ev('int64', T.int, [js('42')])).toBe(42);
    expect(await ev('float64', T.f64, [js('3.25')])).toBe(3.25);
    expect(await ev('bool', T.bool, [js('true')])).toBe(true);
    expect(await ev('string', T.str, [js('"hello"')])).toBe('hello');
    expect(await errorOf(lower('int64', T.int, [js('"x"')]))).toBe('The provided JSON input is not an integer');
    expect(await errorOf(lower('bool', T.bool, [js('1')]))).toBe('The provided JSON input is not a boolean');
    const li = (x: string) => ev('lax_int64', T.int, [js(x)]);
    expect([await li('10'), await li('10.0'), await li('3.5'), await li('1.1e2'), await li('1e100'), await li('true'), await li('false')]).toEqual([10, 10, 4, 110, null, 1, 0]);
    expect([await li('"10"'), await li('"1.1"'), await li('"1.1e2"'), await li('"+1.5"'), await li('"1e100"'), await li('"foo"')]).toEqual([10, 1, 110, 2, null, null]);
    expect(await ev('lax_float64', T.f64, [js('"3.14"')])).toBe(3.14);
    expect(await ev('lax_bool', T.bool, [js('"TRUE"')])).toBe(true);
    expect(await ev('lax_string', T.str, [js('10')])).toBe('10');
    expect(await ev('string', T.str, [lit.ts('2008-12-25 15:30:00+00'), s('UTC')])).toBe('2008-12-25 15:30:00+00');
  });
});

describe('JSON mutation (docs json-set-*, json-remove-*, json-array-*, json-strip-nulls-*)', () => {
  it('JSON_SET', async () => {
    expect(await J('json_set', js('{"a":1}'), s('$.b'), lit.int(2))).toBe('{"a":1,"b":2}');
    expect(await J('json_set', js('{"a": 1}'), s('$'), js('{"b": 2, "c": 3}'))).toBe('{"b":2,"c":3}');
    expect(await J('json_set', js('{"a": 1}'), s('$.b'), lit.int(999), lit.bool(false))).toBe('{"a":1}');
    expect(await J('json_set', js('{"a": 1}'), s('$.a'), lit.int(999), lit.bool(false))).toBe('{"a":999}');
    expect(await J('json_set', js('null'), s('$.a.b'), lit.int(100))).toBe('{"a":{"b":100}}');
    expect(await J('json_set', js('{"a": 1}'), s('$.b'), lit.int(2), s('$.a.c'), lit.int(100), s('$.d'), lit.int(3))).toBe('{"a":1,"b":2,"d":3}');
    expect(await J('json_set', js('["a", ["b", "c"], "d"]'), s('$[1][2][1]'), s('foo'))).toBe('["a",["b","c",[null,"foo"]],"d"]');
    expect(await J('json_set', js('{}'), s('$.b[2].d'), lit.int(100))).toBe('{"b":[null,null,{"d":100}]}');
  });
  it('JSON_REMOVE, JSON_ARRAY_INSERT, JSON_ARRAY_APPEND, JSON_STRIP_NULLS', async () => {
    expect(await J('json_remove', js('{"a":1,"b":2}'), s('$.a'))).toBe('{"b":2}');
    expect(await J('json_remove', js('["a", ["b", "c"], "d"]'), s('$[1]'), s('$[1]'))).toBe('["a"]');
    expect(await J('json_remove', js('{"a": [1, 2, 3]}'), s('$.a[0]'), s('$.a.b'), s('$.b'), s('$.a[0]'))).toBe('{"a":[3]}');
    expect(await J('json_remove', js('null'), s('$.a.b'))).toBe('null');
    expect(await J('json_array_insert', js('[1,2,3]'), s('$[0]'), lit.int(99))).toBe('[99,1,2,3]');
    expect(await J('json_array_insert', js('["a", "b", "c"]'), s('$[1]'), lit.ints(1, 2))).toBe('["a",1,2,"b","c"]');
    expect(await J('json_array_insert', js('["a", "b", "c"]'), s('$[1]'), lit.ints(1, 2), lit.bool(false))).toBe('["a",[1,2],"b","c"]');
    expect(await J('json_array_insert', js('{"a": null}'), s('$.a[2]'), lit.int(10))).toBe('{"a":[null,null,10]}');
    expect(await J('json_array_insert', js('[1, 2]'), s('$'), lit.int(3))).toBe('[1,2]');
    expect(await J('json_array_append', js('["a", "b", "c"]'), s('$'), lit.ints(1, 2))).toBe('["a","b","c",1,2]');
    expect(await J('json_array_append', js('["a", ["b"], "c"]'), s('$[1]'), lit.ints(1, 2), s('$[1][1]'), lit.ints(3, 4), lit.bool(false))).toBe('["a",["b",[1,2,[3,4]]],"c"]');
    expect(await J('json_array_append', js('{"a": 1}'), s('$.b'), lit.int(2))).toBe('{"a":1}');
    expect(await J('json_strip_nulls', js('{"a": null, "b": "c"}'))).toBe('{"b":"c"}');
    expect(await J('json_strip_nulls', js('[1, null, 2, null, [null]]'))).toBe('[1,2,[]]');
    expect(await J('json_strip_nulls', js('{"a": null}'), s('$'), lit.bool(true), lit.bool(true))).toBe('null');
    expect(await J('json_strip_nulls', js('{"a": {"b": {"c": null}}, "d": [null], "e": [], "f": 1}'), s('$'), lit.bool(false), lit.bool(true))).toBe('{"d":[null],"e":[],"f":1}');
    expect(await ev('json_keys', T.arr(T.str), [js('{"a":1,"b":2,"c":3}')])).toEqual(['a', 'b', 'c']);
    expect(await ev('array_length', T.int, [call('json_keys', T.arr(T.str), [js('{"a":{"b":1}}')])])).toBe(2);
  });
});
