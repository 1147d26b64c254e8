/**
 * The pipe-syntax rewrite's text (pipe-syntax.ts): the standard query each pipe operator becomes,
 * per BigQuery's pipe-syntax reference ("CALL … passing the pipe input table as a table argument";
 * "SET … similar to SELECT * REPLACE"; "DROP … similar to SELECT * EXCEPT"; AGGREGATE: "grouping
 * columns first"), and the location map. Results through the client are in test/pipe-syntax.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { rewritePipeSyntax } from './pipe-syntax.js';

const text = (sql: string) => rewritePipeSyntax(sql)?.text;

describe('rewritePipeSyntax', () => {
  it('leaves standard text alone', () => {
    expect(rewritePipeSyntax("SELECT EXTRACT(DAY FROM d), '|>' FROM t -- |> x")).toBeUndefined();
    expect(rewritePipeSyntax('WITH c AS (SELECT 1) SELECT COUNT(*) FROM c')).toBeUndefined();
  });

  it('CALL passes the input as the first (table) argument', () => {
    expect(text('FROM t |> CALL ds.tvf(5)')).toBe('SELECT * FROM ds.tvf((SELECT * FROM t), 5)');
    expect(text('FROM t |> CALL tvf() AS r |> SELECT r.x')).toBe('SELECT r.x FROM tvf((SELECT * FROM t)) AS r');
  });

  it('SET, DROP and AGGREGATE become REPLACE, EXCEPT and a grouped SELECT with the keys first', () => {
    expect(text('FROM t |> SET a = a + 1 |> DROP b')).toBe('SELECT * EXCEPT (b) FROM (SELECT * REPLACE (a + 1 AS a) FROM t)');
    expect(text('FROM t |> AGGREGATE SUM(x) AS s GROUP BY g')).toBe('SELECT g, SUM(x) AS s FROM t GROUP BY 1');
  });

  it('carries a table alias past a SET as a STRUCT column', () => {
    expect(text('FROM u AS t |> SET x = 1 |> SELECT t.x')).toBe('SELECT  __pipe_t.x FROM (SELECT * REPLACE (1 AS x), T AS __pipe_t FROM u AS t)');
  });

  it("maps an error location back to the user's text", () => {
    const r = rewritePipeSyntax('FROM t\n|> WHERE bad')!;
    expect(r.text).toBe('SELECT * FROM t WHERE bad');
    expect(r.relocate('Unrecognized name: bad at [1:23]')).toBe('Unrecognized name: bad at [2:10]');
  });
});
