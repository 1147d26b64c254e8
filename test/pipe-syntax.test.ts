/**
 * Pipe query syntax (src/analyzer/pipe-syntax.ts, pipe-operators.ts) through `@google-cloud/bigquery`.
 * Expected values are the documented results of BigQuery's pipe-syntax reference examples
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/pipe-syntax; docs-examples ids
 * `pipe-syntax/...`), or hand-computed from the four-row `Produce` table of that page
 * (apples 2 fruit, carrots 8 vegetable, apples 7 fruit, bananas 5 fruit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];

beforeAll(async () => {
  t = await startTestEmulator();
  await q('CREATE SCHEMA pipe');
  await q(`CREATE TABLE pipe.Produce AS (
    SELECT 'apples' AS item, 2 AS sales, 'fruit' AS category UNION ALL
    SELECT 'carrots' AS item, 8 AS sales, 'vegetable' AS category UNION ALL
    SELECT 'apples' AS item, 7 AS sales, 'fruit' AS category UNION ALL
    SELECT 'bananas' AS item, 5 AS sales, 'fruit' AS category)`);
});
afterAll(async () => t?.emu.close());

const sales3 = `(SELECT 'apples' AS item, 2 AS sales UNION ALL SELECT 'bananas' AS item, 5 AS sales UNION ALL SELECT 'carrots' AS item, 8 AS sales)`;

describe('FROM queries and the query comparison example', () => {
  it('FROM alone returns the table', async () => {
    expect(await q('FROM pipe.Produce')).toHaveLength(4);
  });

  it('WHERE, AGGREGATE … GROUP BY and ORDER BY (query comparison)', async () => {
    expect(await q(`FROM pipe.Produce
|> WHERE item != 'bananas' AND category IN ('fruit', 'nut')
|> AGGREGATE COUNT(*) AS num_items, SUM(sales) AS total_sales GROUP BY item
|> ORDER BY item DESC`)).toEqual([{ item: 'apples', num_items: 2, total_sales: 9 }]);
  });

  it('a join in FROM keeps both aliases for later operators', async () => {
    expect(await q(`FROM pipe.Produce AS p1 JOIN pipe.Produce AS p2 USING (item)
|> WHERE item = 'bananas'
|> SELECT p1.item, p2.sales`)).toEqual([{ item: 'bananas', sales: 5 }]);
  });
});

describe('one operator at a time', () => {
  it('SELECT, with a named window (select-pipe-operator-1, -2)', async () => {
    expect(await q(`FROM (SELECT 'apples' AS item, 2 AS sales) |> SELECT item AS fruit_name`)).toEqual([{ fruit_name: 'apples' }]);
    const rows = await q(`FROM pipe.Produce
|> SELECT item, sales, category, SUM(sales) OVER item_window AS category_total WINDOW item_window AS (PARTITION BY category)
|> ORDER BY category, sales`);
    expect(rows.map((r) => [r.item, r.category_total])).toEqual([['apples', 14], ['bananas', 14], ['apples', 14], ['carrots', 8]]);
  });

  it('EXTEND, with a window function (extend-pipe-operator-1, -2)', async () => {
    expect(await q(`(SELECT 'apples' AS item, 2 AS sales UNION ALL SELECT 'bananas' AS item, 8 AS sales)
|> EXTEND item IN ('bananas', 'lemons') AS is_yellow |> ORDER BY item`)).toEqual([
      { item: 'apples', sales: 2, is_yellow: false },
      { item: 'bananas', sales: 8, is_yellow: true },
    ]);
    expect((await q(`${sales3} |> EXTEND SUM(sales) OVER() AS total_sales`)).map((r) => r.total_sales)).toEqual([15, 15, 15]);
  });

  it('SET; the table alias still holds the original value (set-pipe-operator-1, -2)', async () => {
    expect(await q('(SELECT 1 AS x, 11 AS y UNION ALL SELECT 2 AS x, 22 AS y) |> SET x = x * x, y = 3 |> ORDER BY x')).toEqual([
      { x: 1, y: 3 },
      { x: 4, y: 3 },
    ]);
    expect(await q('FROM (SELECT 2 AS x, 3 AS y) AS t |> SET x = x * x, y = 8 |> SELECT t.x AS original_x, x, y')).toEqual([{ original_x: 2, x: 4, y: 8 }]);
  });

  it('DROP; the table alias still holds the dropped column', async () => {
    expect(await q(`SELECT 'apples' AS item, 2 AS sales, 'fruit' AS category |> DROP sales, category`)).toEqual([{ item: 'apples' }]);
    expect(await q('FROM (SELECT 1 AS x, 2 AS y) AS t |> DROP x |> SELECT t.x AS original_x, y')).toEqual([{ original_x: 1, y: 2 }]);
  });

  it('RENAME after AS (rename-pipe-operator-1)', async () => {
    expect(await q('SELECT 1 AS x, 2 AS y, 3 AS z |> AS t |> RENAME y AS renamed_y |> SELECT *, t.y AS t_y')).toEqual([{ x: 1, renamed_y: 2, z: 3, t_y: 2 }]);
  });

  it('AS names the result of AGGREGATE for a join (as-pipe-operator-1)', async () => {
    expect(await q(`(SELECT "000123" AS id, "apples" AS item, 2 AS sales UNION ALL SELECT "000456" AS id, "bananas" AS item, 5 AS sales) AS sales_table
|> AGGREGATE SUM(sales) AS total_sales GROUP BY id, item
|> AS t1
|> JOIN (SELECT 456 AS id, "yellow" AS color) AS t2 ON CAST(t1.id AS INT64) = t2.id
|> SELECT t2.id, total_sales, color`)).toEqual([{ id: 456, total_sales: 5, color: 'yellow' }]);
  });

  it('WHERE (where-pipe-operator-1)', async () => {
    expect(await q(`${sales3} |> WHERE sales >= 3 |> ORDER BY item`)).toEqual([{ item: 'bananas', sales: 5 }, { item: 'carrots', sales: 8 }]);
  });

  it('AGGREGATE: full table, GROUP BY, GROUP AND ORDER BY, and ordering suffixes', async () => {
    expect(await q('FROM pipe.Produce |> AGGREGATE COUNT(*) AS num_items, SUM(sales) AS total_sales')).toEqual([{ num_items: 4, total_sales: 22 }]);
    expect(await q('FROM pipe.Produce |> AGGREGATE SUM(sales) AS total GROUP AND ORDER BY category DESC')).toEqual([
      { category: 'vegetable', total: 8 },
      { category: 'fruit', total: 14 },
    ]);
    expect(await q('FROM pipe.Produce |> AGGREGATE SUM(sales) AS total DESC GROUP BY item')).toEqual([
      { item: 'apples', total: 9 },
      { item: 'carrots', total: 8 },
      { item: 'bananas', total: 5 },
    ]);
  });

  it('AGGREGATE shorthand ordering, as documented (GROUP AND ORDER BY; suffixes, grouping ones first)', async () => {
    expect(await q('FROM pipe.Produce |> AGGREGATE SUM(sales) AS total_sales GROUP AND ORDER BY category, item DESC')).toEqual([
      { category: 'fruit', item: 'bananas', total_sales: 5 },
      { category: 'fruit', item: 'apples', total_sales: 9 },
      { category: 'vegetable', item: 'carrots', total_sales: 8 },
    ]);
    expect(await q('FROM pipe.Produce |> AGGREGATE SUM(sales) AS total_sales ASC GROUP BY item, category DESC')).toEqual([
      { item: 'carrots', category: 'vegetable', total_sales: 8 },
      { item: 'bananas', category: 'fruit', total_sales: 5 },
      { item: 'apples', category: 'fruit', total_sales: 9 },
    ]);
  });

  it('AGGREGATE … GROUP BY ROLLUP: the grouping columns first', async () => {
    expect(await q('FROM pipe.Produce |> AGGREGATE SUM(sales) AS total GROUP BY ROLLUP(category) |> ORDER BY category')).toEqual([
      { category: null, total: 22 },
      { category: 'fruit', total: 14 },
      { category: 'vegetable', total: 8 },
    ]);
  });

  it('ORDER BY, LIMIT and OFFSET (order-by-pipe-operator-1, limit-pipe-operator-2)', async () => {
    expect(await q('(SELECT 1 AS x UNION ALL SELECT 3 AS x UNION ALL SELECT 2 AS x) |> ORDER BY x DESC')).toEqual([{ x: 3 }, { x: 2 }, { x: 1 }]);
    expect(await q(`${sales3} |> ORDER BY item |> LIMIT 1 OFFSET 2`)).toEqual([{ item: 'carrots', sales: 8 }]);
    expect(await q(`${sales3} |> ORDER BY item |> LIMIT 1`)).toEqual([{ item: 'apples', sales: 2 }]);
  });

  it('LEFT JOIN keeps the input alias (join-pipe-operator-1)', async () => {
    expect(await q(`(SELECT 'apples' AS item, 2 AS sales UNION ALL SELECT 'bananas' AS item, 5 AS sales)
|> AS produce_sales
|> LEFT JOIN (SELECT "apples" AS item, 123 AS id) AS produce_data ON produce_sales.item = produce_data.item
|> SELECT produce_sales.item, sales, id
|> ORDER BY item`)).toEqual([
      { item: 'apples', sales: 2, id: 123 },
      { item: 'bananas', sales: 5, id: null },
    ]);
  });

  it('UNION, INTERSECT and EXCEPT with several inputs and BY NAME (union-3, -4, intersect-3, except-1, except-4)', async () => {
    const nums = async (sql: string) => (await q(`${sql} |> ORDER BY 1`)).map((r) => Object.values(r)[0]);
    expect(await nums('SELECT * FROM UNNEST(ARRAY<INT64>[1, 2, 3]) AS number |> UNION DISTINCT (SELECT 1), (SELECT 2)')).toEqual([1, 2, 3]);
    expect(await q('SELECT 1 AS one_digit, 10 AS two_digit |> UNION ALL BY NAME (SELECT 20 AS two_digit, 2 AS one_digit) |> ORDER BY one_digit')).toEqual([
      { one_digit: 1, two_digit: 10 },
      { one_digit: 2, two_digit: 20 },
    ]);
    expect(await nums(`SELECT * FROM UNNEST(ARRAY<INT64>[1, 2, 3, 3, 4]) AS number
|> INTERSECT DISTINCT (SELECT * FROM UNNEST(ARRAY<INT64>[2, 3, 3, 5]) AS number), (SELECT * FROM UNNEST(ARRAY<INT64>[3, 3, 4, 5]) AS number)`)).toEqual([3]);
    expect(await nums('SELECT * FROM UNNEST(ARRAY<INT64>[1, 2, 3, 3, 4]) AS number |> EXCEPT ALL (SELECT * FROM UNNEST(ARRAY<INT64>[1, 2]) AS number)')).toEqual([3, 3, 4]);
    expect(await nums(`SELECT * FROM UNNEST(ARRAY<INT64>[1, 2, 3, 3, 4]) AS number
|> EXCEPT DISTINCT (SELECT * FROM UNNEST(ARRAY<INT64>[1, 2]) AS number |> EXCEPT DISTINCT (SELECT * FROM UNNEST(ARRAY<INT64>[1, 4]) AS number))`)).toEqual([1, 3, 4]);
  });

  it('TABLESAMPLE of 100 and 0 percent', async () => {
    expect(await q('FROM pipe.Produce |> TABLESAMPLE SYSTEM (100 PERCENT)')).toHaveLength(4);
    expect(await q('FROM pipe.Produce |> TABLESAMPLE SYSTEM (0 PERCENT)')).toHaveLength(0);
  });

  it('PIVOT and UNPIVOT (pivot-pipe-operator-1, unpivot-pipe-operator-1)', async () => {
    expect(await q(`(SELECT "kale" AS product, 51 AS sales, "Q1" AS quarter UNION ALL SELECT "kale", 4, "Q1" UNION ALL SELECT "kale", 45, "Q2"
  UNION ALL SELECT "apple", 8, "Q1" UNION ALL SELECT "apple", 10, "Q2")
|> PIVOT(SUM(sales) FOR quarter IN ('Q1', 'Q2')) |> ORDER BY product`)).toEqual([
      { product: 'apple', Q1: 8, Q2: 10 },
      { product: 'kale', Q1: 55, Q2: 45 },
    ]);
    expect(await q(`(SELECT 'kale' as product, 55 AS Q1, 45 AS Q2 UNION ALL SELECT 'apple', 8, 10)
|> UNPIVOT(sales FOR quarter IN (Q1, Q2)) |> ORDER BY product, quarter`)).toEqual([
      { product: 'apple', sales: 8, quarter: 'Q1' },
      { product: 'apple', sales: 10, quarter: 'Q2' },
      { product: 'kale', sales: 55, quarter: 'Q1' },
      { product: 'kale', sales: 45, quarter: 'Q2' },
    ]);
  });

  it('WINDOW (window functions added as columns, like EXTEND)', async () => {
    expect((await q(`${sales3} |> WINDOW SUM(sales) OVER () AS total |> ORDER BY item`)).map((r) => r.total)).toEqual([15, 15, 15]);
  });

  it('DISTINCT (distinct-pipe-operator-1)', async () => {
    expect(await q(`(SELECT 'apples' AS item, 2 AS sales UNION ALL SELECT 'bananas', 5 UNION ALL SELECT 'bananas', 5 UNION ALL SELECT 'carrots', 8)
|> DISTINCT |> WHERE sales >= 3 |> ORDER BY item`)).toEqual([{ item: 'bananas', sales: 5 }, { item: 'carrots', sales: 8 }]);
    // The table alias stays visible after DISTINCT (distinct-pipe-operator-2).
    expect(await q(`(SELECT 'apples' AS item, 2 AS sales UNION ALL SELECT 'bananas', 5 UNION ALL SELECT 'bananas', 5 UNION ALL SELECT 'carrots', 8)
|> AS Produce |> DISTINCT |> SELECT Produce.item |> ORDER BY item`)).toEqual([{ item: 'apples' }, { item: 'bananas' }, { item: 'carrots' }]);
  });

  it('WITH, also RECURSIVE (with-pipe-operator-1, -2, -4)', async () => {
    expect(await q(`SELECT 1 AS key |> WITH t AS (SELECT 1 AS key, 'my_value' AS value) |> INNER JOIN t USING (key)`)).toEqual([{ key: 1, value: 'my_value' }]);
    expect((await q('SELECT 1 AS key |> WITH t1 AS (SELECT 2), t2 AS (SELECT 3) |> UNION ALL (FROM t1), (FROM t2) |> ORDER BY 1')).map((r) => r.key)).toEqual([1, 2, 3]);
    expect((await q(`SELECT 1 AS key
|> WITH RECURSIVE t AS (SELECT 2 AS key |> UNION ALL (SELECT key + 1 AS key FROM t WHERE key <= 3))
|> UNION ALL (FROM t) |> ORDER BY key`)).map((r) => r.key)).toEqual([1, 2, 3, 4]);
  });
});

describe('pipe syntax wherever a query may stand', () => {
  it('in expression and table subqueries', async () => {
    expect(await q('SELECT (FROM pipe.Produce |> AGGREGATE SUM(sales) AS s) AS total')).toEqual([{ total: 22 }]);
    expect(await q(`SELECT ARRAY(FROM pipe.Produce |> WHERE category = 'vegetable' |> SELECT item) AS v`)).toEqual([{ v: ['carrots'] }]);
    expect(await q('SELECT COUNT(*) AS n FROM (FROM pipe.Produce |> WHERE sales > 4)')).toEqual([{ n: 3 }]);
  });

  it('in a CTE', async () => {
    expect(await q('WITH c AS (FROM pipe.Produce |> WHERE sales > 4 |> SELECT item) SELECT COUNT(DISTINCT item) AS n FROM c')).toEqual([{ n: 3 }]);
  });

  it('in a view', async () => {
    await q(`CREATE VIEW pipe.fruit AS FROM pipe.Produce |> WHERE category = 'fruit' |> AGGREGATE SUM(sales) AS total GROUP BY item`);
    expect(await q('SELECT * FROM pipe.fruit ORDER BY item')).toEqual([
      { item: 'apples', total: 9 },
      { item: 'bananas', total: 5 },
    ]);
  });

  it('in a script, with a variable', async () => {
    expect(await q(`DECLARE n INT64 DEFAULT 5;
FROM pipe.Produce |> WHERE sales >= n |> AGGREGATE COUNT(*) AS c;`)).toEqual([{ c: 3 }]);
    expect(await q(`EXECUTE IMMEDIATE "FROM pipe.Produce |> WHERE category = 'fruit' |> AGGREGATE COUNT(*) AS c"`)).toEqual([{ c: 3 }]);
    expect(await q('BEGIN IF TRUE THEN FROM pipe.Produce |> AGGREGATE MAX(sales) AS m; END IF; END')).toEqual([{ m: 8 }]);
  });

  it('as the query of CREATE TABLE … AS and INSERT', async () => {
    await q('CREATE TABLE pipe.big AS FROM pipe.Produce |> WHERE sales > 6 |> SELECT item, sales');
    await q('INSERT INTO pipe.big FROM pipe.Produce |> WHERE sales < 3 |> SELECT item, sales');
    expect(await q('SELECT sales FROM pipe.big ORDER BY sales')).toEqual([{ sales: 2 }, { sales: 7 }, { sales: 8 }]);
  });
});

describe('errors', () => {
  it("an analysis error's location points into the user's pipe text", async () => {
    const e = await errorOf(q('FROM pipe.Produce\n|> WHERE nosuch > 1'));
    expect(e.message).toBe('Unrecognized name: nosuch at [2:10]');
    expect(e.errors?.[0]?.reason).toBe('invalidQuery');
  });

  it('an operator BigQuery does not have is a syntax error at its pipe', async () => {
    const e = await errorOf(q('FROM pipe.Produce\n|> WHERE sales > 1\n|> FORK (|> SELECT item)'));
    // The rewritten text is one line; the analyzer's location lands on the FORK line's `|>`.
    expect(e.message).toMatch(/^Syntax error: .* at \[3:[12]\]$/);
  });
});
