import { describe, expect, it } from 'vitest';
import { checkQueryText, nestingDepth } from './query-text-limits.js';

describe('nestingDepth: brackets outside literals, quoted identifiers and comments', () => {
  it('counts parentheses and brackets', () => {
    expect(nestingDepth('SELECT ABS(ABS(1))')).toBe(2);
    expect(nestingDepth('SELECT [ (1), [2] ][OFFSET(0)]')).toBe(2);
    expect(nestingDepth('SELECT 1')).toBe(0);
  });

  it('skips string and bytes literals in every quoting', () => {
    expect(nestingDepth(`SELECT '((((' , "[[[[", '''(((''', """[[[""", b'((', r'\\((', 'it\\'s (((', "a\\"(("`)).toBe(0);
    expect(nestingDepth(`SELECT r"(\\"", (1)`)).toBe(1);
  });

  it('skips backquoted identifiers and comments', () => {
    expect(nestingDepth('SELECT 1 AS `a((b` -- ((((\n# [[[[\n/* (((( */ , (2)')).toBe(1);
  });

  it('stops counting past the bound', () => {
    expect(nestingDepth('('.repeat(10_000), 5)).toBe(6);
  });
});

describe('checkQueryText', () => {
  it('accepts 1,048,576 characters and refuses one more (code points, not UTF-16 units)', () => {
    expect(() => checkQueryText('x'.repeat(1024 * 1024))).not.toThrow();
    expect(() => checkQueryText('x'.repeat(1024 * 1024 + 1))).toThrow('The query is too large.');
    // 700,000 astral characters are 1,400,000 UTF-16 units but 700,000 characters.
    expect(() => checkQueryText('😀'.repeat(700_000))).not.toThrow();
  });

  it('refuses nesting beyond 1,000 levels', () => {
    expect(() => checkQueryText('SELECT ' + '('.repeat(1000) + '1' + ')'.repeat(1000))).not.toThrow();
    expect(() => checkQueryText('SELECT ' + '('.repeat(1001) + '1' + ')'.repeat(1001))).toThrow('Out of stack space');
  });
});
