import { describe, expect, it } from 'vitest';
import { detectTags, lexSql, VARIATION_TAGS } from './tags.js';

const tags = (name: string, query: string, expected: unknown = { schema: [], rows: [] }) => detectTags({ name, query, expected });
const has = (name: string, query: string, tag: string, expected?: unknown) => tags(name, query, expected).includes(tag as never);

describe('lexSql', () => {
  it('extracts literals of every quoting form and blanks comments', () => {
    const l = lexSql(`SELECT 'a', "b", '''c''', """d""", r'e\\n', b'f', RB"g", x'' -- 'not a literal'\n/* 'nor' */ \`t\``);
    expect(l.literals.map((x) => [x.prefix, x.body, x.bytes])).toEqual([
      ['', 'a', false],
      ['', 'b', false],
      ['', 'c', false],
      ['', 'd', false],
      ['r', 'e\\n', false],
      ['b', 'f', true],
      ['rb', 'g', true],
      ['', '', false],
    ]);
    expect(l.code).not.toContain('not a literal');
    expect(l.code).toContain('_q_');
  });

  it('keeps escaped quotes inside the literal', () => {
    expect(lexSql(`SELECT 'it\\'s', "say \\"hi\\""`).literals.map((x) => x.body)).toEqual(["it\\'s", 'say \\"hi\\"']);
  });
});

describe('variation tags (conformance/README.md "Variation tags")', () => {
  it('has exactly the seven locked tags', () => {
    expect([...VARIATION_TAGS]).toEqual(['happy_path', 'null_input', 'empty_input', 'boundary_value', 'unicode', 'error_path', 'timezone']);
  });

  it('happy_path only when no other tag fires', () => {
    expect(tags('concat_basic', "SELECT CONCAT('a', 'b') AS s")).toEqual(['happy_path']);
    expect(tags('concat_null', "SELECT CONCAT('a', 'b') AS s")).toEqual(['null_input']);
    expect(tags('concat_null', 'SELECT 1')).not.toContain('happy_path');
  });

  describe('null_input', () => {
    it('fires on the name', () => {
      expect(has('coalesce_nulls', 'SELECT 1', 'null_input')).toBe(true);
      expect(has('NULLIF_basic', 'SELECT 1', 'null_input')).toBe(true);
    });
    it('fires on IS NULL, IS NOT NULL and NULL as a word', () => {
      expect(has('where_filter', 'SELECT x FROM t WHERE x IS NULL', 'null_input')).toBe(true);
      expect(has('where_filter', 'SELECT x FROM t WHERE x is   not null', 'null_input')).toBe(true);
      expect(has('coalesce_basic', 'SELECT COALESCE(NULL, 1)', 'null_input')).toBe(true);
    });
    it('does not fire on NULL inside a longer word', () => {
      expect(has('ifnull_like', 'SELECT 1', 'null_input')).toBe(true); // name contains null
      expect(has('safe_fn', 'SELECT IFNULL(a, 1), NULLIF(a, 2), is_nullable FROM t', 'null_input')).toBe(false);
    });
  });

  describe('empty_input', () => {
    it('fires on the name', () => {
      expect(has('array_agg_empty', 'SELECT 1', 'empty_input')).toBe(true);
    });
    it('fires on LIMIT 0', () => {
      expect(has('limit_clause', 'SELECT * FROM t LIMIT 0', 'empty_input')).toBe(true);
      expect(has('limit_clause', 'SELECT * FROM t LIMIT 10', 'empty_input')).toBe(false);
      expect(has('limit_clause', 'SELECT * FROM t LIMIT 0.5', 'empty_input')).toBe(false);
    });
    it('fires on an empty array literal', () => {
      expect(has('array_length_basic', 'SELECT ARRAY_LENGTH([])', 'empty_input')).toBe(true);
      expect(has('array_length_basic', 'SELECT ARRAY_LENGTH(ARRAY<INT64>[ ])', 'empty_input')).toBe(true);
      expect(has('array_length_basic', 'SELECT ARRAY_LENGTH([1])', 'empty_input')).toBe(false);
      expect(has('json_arr', "SELECT JSON '[]'", 'empty_input')).toBe(false); // inside a string, not an array literal
    });
    it('fires on an empty string literal, not on triple quotes or bytes', () => {
      expect(has('length_basic', "SELECT LENGTH('')", 'empty_input')).toBe(true);
      expect(has('length_basic', 'SELECT LENGTH("")', 'empty_input')).toBe(true);
      expect(has('length_basic', "SELECT LENGTH('''abc''')", 'empty_input')).toBe(false);
      expect(has('length_basic', "SELECT LENGTH(b'')", 'empty_input')).toBe(false);
    });
  });

  describe('boundary_value', () => {
    it('fires on a snake-case name token max/min/inf/nan', () => {
      expect(has('int64_max_value', 'SELECT 1', 'boundary_value')).toBe(true);
      expect(has('float_nan_compare', 'SELECT 1', 'boundary_value')).toBe(true);
      expect(has('minute_trunc', 'SELECT 1', 'boundary_value')).toBe(false); // "minute" is not the token "min"
      expect(has('information_schema', 'SELECT 1', 'boundary_value')).toBe(false); // "inf" only as a token
    });
    it('fires on a name containing boundary or overflow', () => {
      expect(has('date_boundary_check', 'SELECT 1', 'boundary_value')).toBe(true);
      expect(has('add_overflows', 'SELECT 1', 'boundary_value')).toBe(true);
    });
    it('fires on an integer literal of 15 or more digits', () => {
      expect(has('big_literal', 'SELECT 9223372036854775807', 'boundary_value')).toBe(true);
      expect(has('big_literal', 'SELECT 123456789012345', 'boundary_value')).toBe(true);
      expect(has('big_literal', 'SELECT 0x7FFFFFFFFFFFFFFF', 'boundary_value')).toBe(true);
      expect(has('big_literal', 'SELECT 12345678901234', 'boundary_value')).toBe(false); // 14 digits
      expect(has('big_literal', 'SELECT 1.234567890123456789', 'boundary_value')).toBe(false); // not an integer literal
      expect(has('big_literal', "SELECT '123456789012345678'", 'boundary_value')).toBe(false); // a string
    });
    it('fires on an inf/infinity/nan string literal', () => {
      expect(has('cast_float', "SELECT CAST('inf' AS FLOAT64)", 'boundary_value')).toBe(true);
      expect(has('cast_float', "SELECT CAST('-Infinity' AS FLOAT64)", 'boundary_value')).toBe(true);
      expect(has('cast_float', 'SELECT CAST("NaN" AS FLOAT64)', 'boundary_value')).toBe(true);
      expect(has('cast_float', "SELECT CAST('info' AS STRING)", 'boundary_value')).toBe(false);
    });
  });

  describe('unicode', () => {
    it('fires on the name', () => {
      expect(has('upper_unicode', "SELECT UPPER('a')", 'unicode')).toBe(true);
    });
    it('fires on any non-ASCII code point in the query', () => {
      expect(has('upper_basic', "SELECT UPPER('straße')", 'unicode')).toBe(true);
      expect(has('upper_basic', "SELECT '😀'", 'unicode')).toBe(true);
      expect(has('upper_basic', "SELECT UPPER('strasse')", 'unicode')).toBe(false);
    });
  });

  describe('error_path', () => {
    it('fires when expected.json has a top-level error key', () => {
      expect(has('bad_query', 'SELECT 1', 'error_path', { error: { reason: 'invalidQuery', http_status: 400, message_pattern: 'x' } })).toBe(true);
    });
    it('does not fire on a result baseline, even with an error-looking name', () => {
      expect(has('error_function', 'SELECT 1', 'error_path', { schema: [], rows: [{ error: 'x' }] })).toBe(false);
      expect(has('error_function', 'SELECT 1', 'error_path', undefined)).toBe(false);
    });
  });

  describe('timezone', () => {
    it('fires on a name starting with tz_', () => {
      expect(has('tz_convert', 'SELECT 1', 'timezone')).toBe(true);
      expect(has('convert_tz', 'SELECT 1', 'timezone')).toBe(false);
    });
    it('fires on AT TIME ZONE', () => {
      expect(has('format_ts', "SELECT FORMAT_TIMESTAMP('%c', ts AT TIME ZONE 'UTC')", 'timezone')).toBe(true);
    });
    it('fires on an Area/Location-shaped literal', () => {
      expect(has('extract_hour', "SELECT EXTRACT(HOUR FROM ts AT TIME ZONE x), DATE(ts, 'America/Los_Angeles')", 'timezone')).toBe(true);
      expect(has('date_of_ts', "SELECT DATE(ts, 'America/Argentina/Buenos_Aires')", 'timezone')).toBe(true);
      expect(has('split_path', "SELECT SPLIT('a/b', '/')", 'timezone')).toBe(false);
      expect(has('date_of_ts', "SELECT DATE(ts, 'UTC')", 'timezone')).toBe(false);
    });
    it('fires on a [+-]HH:MM offset literal', () => {
      expect(has('date_of_ts', "SELECT DATE(ts, '+05:30')", 'timezone')).toBe(true);
      expect(has('ts_literal', "SELECT TIMESTAMP '2008-12-25 15:30:00-08:00'", 'timezone')).toBe(true);
      expect(has('time_literal', "SELECT TIME '15:30:00'", 'timezone')).toBe(false);
    });
  });

  it('combines several tags and never adds happy_path to them', () => {
    expect(tags('tz_null_max', "SELECT NULL, 'é'", { error: { reason: 'x' } })).toEqual(['null_input', 'boundary_value', 'unicode', 'error_path', 'timezone']);
  });
});
