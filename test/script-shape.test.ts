/**
 * scanShape (src/scripting/index.ts): whether a request's text holds several statements (a script)
 * and its first words. A `;` inside a string, a quoted identifier or a comment ends nothing (GoogleSQL
 * lexical structure: https://cloud.google.com/bigquery/docs/reference/standard-sql/lexical), a
 * trailing `;` followed only by spaces and comments leaves one statement, and anything after it
 * makes a script — also far beyond the first words of a long text.
 */
import { describe, expect, it } from 'vitest';
import { scanShape } from '../src/scripting/index.js';

const longList = Array.from({ length: 50_000 }, (_, i) => i).join(', ');

describe('scanShape', () => {
  it('reads the first words, whitespace collapsed and literals masked', () => {
    expect(scanShape("  SELECT\n\t'a;b' ,  1")).toEqual({ multi: false, first: 'SELECT ? , 1' });
  });

  it('one statement: semicolons in strings, identifiers and comments, and a trailing semicolon', () => {
    const sql = `SELECT x FROM t WHERE x IN (${longList}) AND s = 'a;b' AND \`c;d\` = """e;f""" -- g;h\n /* i;j */ ;  -- end\n`;
    expect(scanShape(sql).multi).toBe(false);
  });

  it('several statements: a second statement after a long first one', () => {
    expect(scanShape(`SELECT x FROM t WHERE x IN (${longList}); SELECT 2`).multi).toBe(true);
    expect(scanShape(`SELECT x FROM t WHERE x IN (${longList}) # c;\n; -- c\n /* ; */ SELECT 2`).multi).toBe(true);
  });

  it('a minus sign or a slash is not a comment', () => {
    expect(scanShape(`SELECT ${longList} - 1 / 2; SELECT 3`).multi).toBe(true);
    expect(scanShape(`SELECT ${longList} - 1 / 2`).multi).toBe(false);
  });
});
