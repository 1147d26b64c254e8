import { describe, expect, it } from 'vitest';
import { BigQueryError } from '../errors/errors.js';
import { scanShape } from './index.js';
import { FragmentSql, ScriptSource } from './source.js';

describe('scanShape (which requests may be scripts)', () => {
  it('finds a second statement only outside strings and comments', () => {
    expect(scanShape('SELECT 1').multi).toBe(false);
    expect(scanShape('SELECT 1;  -- done\n').multi).toBe(false);
    expect(scanShape("SELECT ';', \"a;b\", `c;d`, '''e;\nf''', 'it\\'s;' /* ; */").multi).toBe(false);
    expect(scanShape('SELECT 1; SELECT 2').multi).toBe(true);
    expect(scanShape('SELECT 1;\n# comment\nDECLARE x INT64').multi).toBe(true);
  });

  it('gives the first words with comments skipped and whitespace collapsed', () => {
    expect(scanShape('-- c\n  DECLARE\n\tx INT64').first).toBe('DECLARE x INT64');
    expect(scanShape("/* c */ SET x = 'a'").first).toBe('SET x = ?');
  });
});

describe('ScriptSource and FragmentSql', () => {
  const script = 'DECLARE x INT64;\n  SET x = y + 1;';
  const src = new ScriptSource(script);
  const node = (start: number, end: number) => ({ kind: 'Expr', parseLocationRange: { start, end } });

  it('gives 1-based line and column of a byte offset (multi-byte characters count once)', () => {
    expect(src.lineCol(0)).toEqual({ line: 1, column: 1 });
    expect(src.lineCol(script.indexOf('y'))).toEqual({ line: 2, column: 11 });
    const u = new ScriptSource("SELECT 'é';\nSELECT z");
    expect(u.lineCol(Buffer.byteLength("SELECT 'é';\nSELECT "))).toEqual({ line: 2, column: 8 });
  });

  it('maps an analyzer error location in generated SQL back into the script', () => {
    const y = script.indexOf('y');
    const q = new FragmentSql(src, ['SELECT STRUCT<v INT64>((', node(y, y + 5), ')).v']);
    expect(q.sql).toBe('SELECT STRUCT<v INT64>((y + 1)).v');
    const e = q.remap(BigQueryError.invalidQuery('Unrecognized name: y at [1:25]')) as BigQueryError;
    expect(e.message).toBe('Unrecognized name: y at [2:11]');
  });
});
