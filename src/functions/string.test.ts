/**
 * String and bytes functions. Expected values: recorded fixtures standard_functions/str_*,
 * unicode_*, null_*, empty_*; BigQuery docs examples (string_functions: INSTR, LPAD/RPAD,
 * TO_CODE_POINTS, CODE_POINTS_TO_STRING, REGEXP_*, TRANSLATE, UNICODE, NORMALIZE, TO_BASE32…).
 */
import { describe, expect, it } from 'vitest';
import { errorOf, ev, evText, lit, lower, T } from './testkit.js';

const s = (name: string, ...args: (string | number)[]) =>
  ev(name, T.str, args.map((a) => (typeof a === 'number' ? lit.int(a) : lit.str(a))));
const n = (name: string, ...args: (string | number)[]) =>
  ev(name, T.int, args.map((a) => (typeof a === 'number' ? lit.int(a) : lit.str(a))));

describe('string functions, part 1', () => {
  it('lengths (str_length, unicode_*, str_octet_length_utf8)', async () => {
    expect(await n('length', 'hello')).toBe(5);
    expect(await n('length', '')).toBe(0);
    expect(await n('length', '😀😎')).toBe(2);
    expect(await n('length', 'a\u0301')).toBe(2);
    expect(await n('char_length', '日本語')).toBe(3);
    expect(await n('byte_length', '日本')).toBe(6);
    expect(await n('byte_length', '😀')).toBe(4);
    expect(await n('octet_length', '日本')).toBe(6);
    expect(await ev('length', T.int, [lit.bytes('абвгд')])).toBe(10);
    expect(await ev('byte_length', T.int, [lit.bytes('абвгд')])).toBe(10);
  });

  it('SUBSTR positions (str_substr_two_arg, str_substring_basic, unicode_*_substr)', async () => {
    expect(await s('substr', 'hello', 2)).toBe('ello');
    expect(await s('substr', 'hello world', 7, 5)).toBe('world');
    expect(await s('substr', 'apple', 2, 2)).toBe('pp');
    expect(await s('substr', '😀😎🎉', 2, 1)).toBe('😎');
    expect(await s('substr', 'שלום', 1, 2)).toBe('של');
    expect(await s('substr', 'apple', -2)).toBe('le');
    expect(await s('substr', 'apple', 0, 2)).toBe('ap');
    expect(await s('substr', 'apple', -10, 2)).toBe('ap');
    expect(await s('substr', 'apple', 10)).toBe('');
    expect(await ev('substr', T.str, [lit.str('apple'), lit.int(1), lit.int(9223372036854775807n)])).toBe('apple');
    expect(await errorOf(lower('substr', T.str, [lit.str('apple'), lit.int(1), lit.int(-1)]))).toBe('Third argument in SUBSTR() cannot be negative');
    expect(await evText('substr', T.bytes, [lit.hex('abcdefaabb'), lit.int(2), lit.int(2)])).toBe('cdef');
    expect(await evText('left', T.bytes, [lit.hex('abcdefaabb'), lit.int(3)])).toBe('abcdef');
    expect(await s('right', 'hello', 3)).toBe('llo');
    expect(await s('left', 'hello', 10)).toBe('hello');
  });

  it('STRPOS and INSTR (docs instr-1..8, str_instr_*)', async () => {
    expect(await n('strpos', 'hello', 'll')).toBe(3);
    expect(await n('strpos', 'hello', 'z')).toBe(0);
    expect(await n('instr', 'hello', 'l')).toBe(3);
    expect(await n('instr', 'hellohello', 'l', 1, 3)).toBe(8);
    expect(await n('instr', 'banana', 'an', 1, 1)).toBe(2);
    expect(await n('instr', 'banana', 'an', 1, 2)).toBe(4);
    expect(await n('instr', 'banana', 'an', 1, 3)).toBe(0);
    expect(await n('instr', 'banana', 'an', 3, 1)).toBe(4);
    expect(await n('instr', 'banana', 'an', -1, 1)).toBe(4);
    expect(await n('instr', 'banana', 'an', -3, 1)).toBe(4);
    expect(await n('instr', 'helloooo', 'oo', 1, 1)).toBe(5);
    expect(await n('instr', 'helloooo', 'oo', 1, 2)).toBe(6);
  });

  it('LPAD/RPAD/REPEAT/REVERSE (docs, str_lpad, null_lpad)', async () => {
    expect(await s('lpad', '5', 3, '0')).toBe('005');
    expect(await s('lpad', 'abc', 10, 'ghd')).toBe('ghdghdgabc');
    expect(await s('lpad', 'abc', 2, 'd')).toBe('ab');
    expect(await s('rpad', 'abc', 10, 'ghd')).toBe('abcghdghdg');
    expect(await s('rpad', 'b', 5, 'a')).toBe('baaaa');
    expect(await s('lpad', 'ab', 4)).toBe('  ab');
    expect(await ev('lpad', T.str, [lit.null(T.str), lit.int(5), lit.str('0')])).toBe(null);
    expect(await evText('lpad', T.bytes, [lit.bytes('abc'), lit.int(10), lit.bytes('ghd')])).toBe(Buffer.from('ghdghdgabc').toString('hex'));
    expect(await evText('rpad', T.bytes, [lit.bytes('abc'), lit.int(10), lit.bytes('ghd')])).toBe(Buffer.from('abcghdghdg').toString('hex'));
    expect(await s('repeat', 'abc', 3)).toBe('abcabcabc');
    expect(await s('reverse', 'abc')).toBe('cba');
    expect(await evText('reverse', T.bytes, [lit.hex('0102ff')])).toBe('ff0201');
  });

  it('TRIM family and REPLACE (str_ltrim, str_rtrim, docs rtrim/trim, str_replace_*)', async () => {
    expect(await s('ltrim', '  hi  ')).toBe('hi  ');
    expect(await s('rtrim', '  hi  ')).toBe('  hi');
    expect(await s('trim', '\t hi \n')).toBe('hi');
    expect(await s('rtrim', '***apple***', '*')).toBe('***apple');
    expect(await s('rtrim', 'applexxz', 'xyz')).toBe('apple');
    expect(await s('trim', '***apple***', '*')).toBe('apple');
    expect(await ev('trim', T.str, [lit.null(T.str)])).toBe(null);
    expect(await evText('trim', T.bytes, [lit.hex('00ab00'), lit.hex('00')])).toBe('ab');
    expect(await s('replace', 'abc', '', 'X')).toBe('abc');
    expect(await s('replace', 'abc', 'b', '')).toBe('ac');
    expect(await evText('replace', T.bytes, [lit.hex('0123'), lit.hex('12'), lit.hex('ff')])).toBe('0123');
  });

  it('STARTS_WITH/ENDS_WITH/SPLIT (str_ends_with*, str_split_*, null_split)', async () => {
    expect(await ev('starts_with', T.bool, [lit.str('hello'), lit.str('he')])).toBe(true);
    expect(await ev('starts_with', T.bool, [lit.str('日本語のテスト'), lit.str('日本')])).toBe(true);
    expect(await ev('ends_with', T.bool, [lit.str('foo'), lit.str('')])).toBe(true);
    expect(await ev('ends_with', T.bool, [lit.str(''), lit.str('foo')])).toBe(false);
    expect(await ev('starts_with', T.bool, [lit.null(T.str), lit.str('x')])).toBe(null);
    expect(await ev('split', T.arr(T.str), [lit.str('ab')])).toEqual(['ab']);
    expect(await ev('split', T.arr(T.str), [lit.str('a-b-c-d-e'), lit.str('-')])).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await ev('split', T.arr(T.str), [lit.str('b c d'), lit.str(' ')])).toEqual(['b', 'c', 'd']);
    expect(await ev('split', T.arr(T.str), [lit.str('abc'), lit.str('')])).toEqual(['a', 'b', 'c']);
    expect(await ev('split', T.arr(T.str), [lit.null(T.str), lit.str(',')])).toBe(null);
  });

  it('code points, ASCII, CHR, UNICODE (docs, str_ascii_basic, str_chr_basic, str_unicode_*)', async () => {
    expect(await ev('to_code_points', T.arr(T.int), [lit.str('baz')])).toEqual([98, 97, 122]);
    expect(await ev('to_code_points', T.arr(T.int), [lit.str('Ā')])).toEqual([256]);
    expect(await ev('to_code_points', T.arr(T.int), [lit.bytes('Ā')])).toEqual([196, 128]);
    expect(await ev('to_code_points', T.arr(T.int), [lit.str('')])).toEqual([]);
    expect(await ev('code_points_to_string', T.str, [lit.ints(65, 255, 513, 1024)])).toBe('AÿȁЀ');
    expect(await ev('code_points_to_string', T.str, [lit.ints(97, 98, 99)])).toBe('abc');
    expect(await ev('code_points_to_string', T.str, [lit.ints(65, 255, null, 1024)])).toBe(null);
    expect(await evText('code_points_to_bytes', T.bytes, [lit.ints(65, 98, 255)])).toBe('4162ff');
    expect(await n('ascii', 'A')).toBe(65);
    expect(await n('ascii', '')).toBe(0);
    expect(await s('chr', 65)).toBe('A');
    expect(await s('chr', 0)).toBe('');
    expect(await n('unicode', 'âbcd')).toBe(226);
    expect(await n('unicode', 'é')).toBe(233);
    expect(await n('unicode', '')).toBe(0);
    expect(await s('translate', 'This is a cookie', 'sco', 'zku')).toBe('Thiz iz a kuukie');
    expect(await s('translate', 'hello', 'el', 'ip')).toBe('hippo');
    expect(await s('upper', 'Hello')).toBe('HELLO');
    expect(await ev('upper', T.str, [lit.null(T.str)])).toBe(null);
  });
});

describe('string functions, part 2', () => {
  it('encodings (str_to_*, str_from_*, docs to-base32/from-base64/to-hex)', async () => {
    expect(await s('to_base64', 'x').catch(() => 'n/a')).toBeDefined();
    expect(await ev('to_base64', T.str, [lit.bytes('hello')])).toBe('aGVsbG8=');
    expect(await ev('to_base32', T.str, [lit.bytes('hello')])).toBe('NBSWY3DP');
    expect(await ev('to_base32', T.str, [lit.bytes('')])).toBe('');
    expect(await ev('to_base32', T.str, [lit.hex('6162636465FF')])).toBe('MFRGGZDF74======');
    expect(await evText('from_base32', T.bytes, [lit.str('JBSWY3DP')])).toBe(Buffer.from('Hello').toString('hex'));
    expect(await evText('from_base64', T.bytes, [lit.str('/+A=')])).toBe('ffe0');
    expect(await ev('to_hex', T.str, [lit.bytes('hello')])).toBe('68656c6c6f');
    expect(await ev('to_hex', T.str, [lit.hex('00010203AAEEEFFF')])).toBe('00010203aaeeefff');
    expect(await evText('from_hex', T.bytes, [lit.str('68656c6c6f')])).toBe('68656c6c6f');
    expect(await evText('from_hex', T.bytes, [lit.str('abc')])).toBe('0abc');
    expect(await errorOf(lower('from_hex', T.bytes, [lit.str('zz')]))).toMatch(/^Failed to decode invalid hexadecimal string/);
    expect(await ev('safe_convert_bytes_to_string', T.str, [lit.bytes('hello')])).toBe('hello');
    expect(await ev('safe_convert_bytes_to_string', T.str, [lit.hex('61ff62')])).toBe('a\ufffdb');
  });

  it('regular expressions (docs regexp-*, str_regexp_*, empty_string_regexp_split)', async () => {
    const b = (re: string, x: string) => ev('regexp_contains', T.bool, [lit.str(x), lit.str(re)]);
    expect(await b('@[a-zA-Z0-9-]+\\.[a-zA-Z0-9-.]+', 'foo@example.com')).toBe(true);
    expect(await b('^([\\w.+-]+@foo\\.com|[\\w.+-]+@bar\\.org)$', 'a@foo.computer')).toBe(false);
    expect(await b('^[\\w.+-]+@foo\\.com|[\\w.+-]+@bar\\.org$', 'a@foo.computer')).toBe(true);
    expect(await ev('regexp_contains', T.bool, [lit.null(T.str), lit.str('x')])).toBe(null);
    const x = (v: string, re: string, ...more: number[]) => ev('regexp_extract', T.str, [lit.str(v), lit.str(re), ...more.map((m) => lit.int(m))]);
    expect(await x('foo@example.com', '^[a-zA-Z0-9_.+-]+')).toBe('foo');
    expect(await x('foo@example.com', '^[a-zA-Z0-9_.+-]+@[a-zA-Z0-9-]+\\.([a-zA-Z0-9-.]+$)')).toBe('com');
    expect(await x('ab', '.b')).toBe('ab');
    expect(await x('ab', '(.)b')).toBe('a');
    expect(await x('xyztb', '(.)+b')).toBe('t');
    expect(await x('abc', 'z')).toBe(null);
    expect(await x('Hello World Helloo', 'H?ello+', 1, 1)).toBe('Hello');
    expect(await x('Hello World Helloo', 'H?ello+', 1, 2)).toBe('Helloo');
    expect(await x('hello world 123', '[a-z]+')).toBe('hello');
    expect(() => lower('regexp_extract', T.str, [lit.str('a'), lit.str('(a)(b)')])).toThrow(/more than 1 capturing group/);
    expect(await ev('regexp_extract_all', T.arr(T.str), [lit.str(''), lit.str('\\w+')])).toEqual([]);
    expect(await ev('regexp_extract_all', T.arr(T.str), [lit.str('Try `func(x)` or `func(y)`'), lit.str('`(.+?)`')])).toEqual(['func(x)', 'func(y)']);
    expect(await ev('regexp_replace', T.str, [lit.str('# Heading'), lit.str('^# ([a-zA-Z0-9\\s]+$)'), lit.str('<h1>\\1</h1>')])).toBe('<h1>Heading</h1>');
    expect(await ev('regexp_replace', T.str, [lit.str('a1b2'), lit.str('[0-9]'), lit.str('#')])).toBe('a#b#');
    const ri = (v: string, re: string, ...more: number[]) => ev('regexp_instr', T.int, [lit.str(v), lit.str(re), ...more.map((m) => lit.int(m))]);
    expect(await ri('abc123def', '[0-9]+')).toBe(4);
    expect(await ri('a@cd-ef b@cd-ef', '@[^-]*', 1)).toBe(2);
    expect(await ri('a@cd-ef b@cd-ef', '@[^-]*', 2)).toBe(2);
    expect(await ri('a@cd-ef b@cd-ef', '@[^-]*', 3)).toBe(10);
    expect(await ri('a@cd-ef b@cd-ef', '@[^-]*', 4)).toBe(10);
    expect(await ri('a@cd-ef b@cd-ef c@cd-ef', '@[^-]*', 1, 2)).toBe(10);
    expect(await ri('a@cd-ef b@cd-ef c@cd-ef', '@[^-]*', 1, 3)).toBe(18);
    expect(await ri('a@cd-ef', '@[^-]*', 1, 1, 0)).toBe(2);
    expect(await ri('a@cd-ef', '@[^-]*', 1, 1, 1)).toBe(5);
    expect(await ri('abc', 'z')).toBe(0);
  });

  it('NORMALIZE, SOUNDEX, INITCAP (str_normalize_*, str_soundex_nonascii, str_initcap, docs)', async () => {
    expect(await ev('normalize', T.str, [lit.str('e\u0302')])).toBe('\u00ea');
    expect(await ev('normalize', T.str, [lit.str('é'), lit.part('NFC')])).toBe('\u00e9');
    expect(await n('length', 'x')).toBe(1);
    expect(await ev('normalize', T.str, [lit.str('Raha\u2004Mahan'), lit.part('NFKC')])).toBe('Raha Mahan');
    expect(((await ev('normalize', T.str, [lit.str('\u00e9'), lit.part('NFD')])) as string).length).toBe(2);
    expect(await ev('normalize_and_casefold', T.str, [lit.str('Straße'), lit.part('NFC')])).toBe('strasse');
    const fold = (x: string, m: string) => ev('normalize_and_casefold', T.str, [lit.str(x), lit.part(m)]);
    expect((await fold('\u2168', 'NFD')) === (await fold('IX', 'NFD'))).toBe(false);
    expect((await fold('\u2168', 'NFKC')) === (await fold('IX', 'NFKC'))).toBe(true);
    expect(await s('soundex', 'Müller')).toBe('M460');
    expect(await s('soundex', 'Ashcraft')).toBe('A261');
    expect(await s('soundex', 'Robert')).toBe('R163');
    expect(await s('soundex', 'Tymczak')).toBe('T522');
    expect(await s('soundex', 'Pfister')).toBe('P236');
    expect(await s('initcap', 'hello world')).toBe('Hello World');
    expect(await s('initcap', 'Hello World-everyone!')).toBe('Hello World-Everyone!');
    expect(await s('initcap', 'apple1orange2pear', '12')).toBe('Apple1Orange2Pear');
  });
});
