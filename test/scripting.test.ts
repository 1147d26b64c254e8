/**
 * Scripting through the real client. Expected values follow BigQuery's
 * documented behaviour: procedural language reference
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/procedural-language), debugging
 * statements (ASSERT), user-defined functions (CREATE TEMP FUNCTION), and "Multi-statement
 * queries" (a script job answers with its last SELECT, DML or DDL result; statement type SCRIPT).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string, opts: Record<string, unknown> = {}) => (await t.bq.query({ query, wrapIntegers: false, ...opts }))[0] as Record<string, unknown>[];
/** Runs a query job; answers its rows and statement type. */
async function job(query: string, opts: Record<string, unknown> = {}) {
  const [j] = await t.bq.createQueryJob({ query, ...opts });
  const [rows] = await j.getQueryResults({ wrapIntegers: false });
  const [meta] = await j.getMetadata();
  return { rows: rows as Record<string, unknown>[], statementType: meta.statistics?.query?.statementType as string, meta };
}

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('sc');
  await q('CREATE TABLE sc.products (product_id INT64, name STRING)');
  await q("INSERT INTO sc.products VALUES (101, 'tea'), (103, 'coffee')");
});
afterAll(async () => t?.emu.close());

describe('variables: DECLARE and SET', () => {
  it('DECLARE with DEFAULT, SET, and the script answers its last SELECT as a SCRIPT job', async () => {
    const r = await job('DECLARE x INT64 DEFAULT 0;\nSET x = x + 1;\nSET x = x * 10;\nSELECT x AS final_value');
    expect(r.rows).toEqual([{ final_value: 10 }]);
    expect(r.statementType).toBe('SCRIPT');
  });

  it('a variable without DEFAULT is NULL; several names share one type and DEFAULT; the type can be inferred', async () => {
    expect(await q("DECLARE a INT64; DECLARE x, y, z INT64 DEFAULT 0; DECLARE s DEFAULT 'hi'; SELECT a, x, y, z, s")).toEqual([{ a: null, x: 0, y: 0, z: 0, s: 'hi' }]);
  });

  it('the DEFAULT is coerced to the declared type (literal coercion)', async () => {
    const rows = await q("DECLARE f FLOAT64 DEFAULT 1; DECLARE d DATE DEFAULT '2020-01-02'; SELECT f, CAST(d AS STRING) AS d, [f] AS fs");
    expect(rows).toEqual([{ f: 1, d: '2020-01-02', fs: [1] }]);
    const e = await errorOf(q('DECLARE i INT64 DEFAULT 1.5;'));
    expect(e.message).toBe('Cannot coerce expression 1.5 to type INT64 at [1:25]');
  });

  it('variable names are case-insensitive', async () => {
    expect(await q('DECLARE MyVar INT64 DEFAULT 7; SET myvar = MYVAR + 1; SELECT myVar AS v')).toEqual([{ v: 8 }]);
  });

  it('SET (a, b, c) = (…) assigns a tuple; also from SELECT AS STRUCT', async () => {
    expect(await q("DECLARE a INT64; DECLARE b STRING; DECLARE c BOOL; SET (a, b, c) = (1 + 3, 'foo', false); SELECT a, b, c")).toEqual([{ a: 4, b: 'foo', c: false }]);
    expect(await q('DECLARE lo, hi INT64; SET (lo, hi) = (SELECT AS STRUCT MIN(product_id), MAX(product_id) FROM sc.products); SELECT lo, hi')).toEqual([{ lo: 101, hi: 103 }]);
  });

  it('SET from a scalar subquery over a table; variables in WHERE', async () => {
    expect(await q("DECLARE n INT64; DECLARE k STRING DEFAULT 'tea'; SET n = (SELECT product_id FROM sc.products WHERE name = k); SELECT n")).toEqual([{ n: 101 }]);
  });

  it('query parameters reach every statement; positional ones are numbered across the script', async () => {
    expect(await q('DECLARE x INT64 DEFAULT @p;\nSET x = x * @p;\nSELECT x, @p AS p', { params: { p: 3 } })).toEqual([{ x: 9, p: 3 }]);
    expect(await q('DECLARE x INT64 DEFAULT ?;\nSELECT x, ? AS second', { params: [5, 6] })).toEqual([{ x: 5, second: 6 }]);
  });

  it('a column takes precedence over a variable of the same name', async () => {
    expect(await q('DECLARE name STRING DEFAULT "var"; SELECT name FROM sc.products WHERE product_id = 101')).toEqual([{ name: 'tea' }]);
  });

  it('a value that does not coerce to the variable type is an error', async () => {
    const e = await errorOf(q("DECLARE x INT64;\nSET x = 'a';"));
    expect(e.message).toMatch(/^Cannot coerce expression 'a' to type INT64 at \[2:9\]/);
  });

  it('a variable of parameterized type checks every value assigned as a CAST to the type does', async () => {
    // GoogleSQL "Parameterized data types": parameters apply to variables too; the texts are
    // CAST's (ZetaSQL reference_impl/type_parameter_constraints.cc, see src/types/type-params.ts).
    const cast = await errorOf(q("SELECT CAST('abcd' AS STRING(3))"));
    expect(cast.message).toBe('STRING(3) has maximum length 3 but got a value with length 4');
    for (const script of ["DECLARE x STRING(3);\nSET x = 'abcd';", "DECLARE x STRING(3) DEFAULT 'abcd';", "DECLARE x STRING(3);\nDECLARE n INT64;\nSET (n, x) = (1, 'abcd');"]) {
      const e = await errorOf(q(script));
      expect(e.message).toBe(cast.message);
    }
    const num = await errorOf(q('DECLARE y NUMERIC(5, 2);\nSET y = 1000;'));
    expect(num.message).toBe('NUMERIC(5, 2) has precision 5 and scale 2 but got a value that is not in range of [-999.99, 999.99]');
    expect(await q("DECLARE x STRING(3) DEFAULT 'abc'; SET x = 'de'; SELECT x")).toEqual([{ x: 'de' }]);
  });

  it('a NUMERIC(P, S) variable rounds its DEFAULT and SET values to the scale, as CAST does', async () => {
    expect(await q('SELECT CAST(CAST(1.234 AS NUMERIC(5, 2)) AS STRING) AS y')).toEqual([{ y: '1.23' }]);
    expect(await q('DECLARE y NUMERIC(5,2) DEFAULT 1.234; SELECT CAST(y AS STRING) AS y')).toEqual([{ y: '1.23' }]);
    expect(await q('DECLARE y NUMERIC(5,2); SET y = 2.345; SELECT CAST(y AS STRING) AS y, CAST(y * 2 AS STRING) AS twice')).toEqual([{ y: '2.35', twice: '4.7' }]);
  });

  it('declaring a name twice in a block or a containing block is an error', async () => {
    const e = await errorOf(q('DECLARE x INT64;\nBEGIN\n  DECLARE x STRING;\nEND;'));
    expect(e.message).toMatch(/Variable 'x' redeclaration at \[3:11\]/);
  });

  it('DECLARE is allowed only at the start of a block or the script', async () => {
    const e = await errorOf(q('DECLARE x INT64 DEFAULT 1;\nIF x = 1 THEN\n  DECLARE y INT64;\nEND IF;'));
    expect(e.message).toMatch(/Variable declarations are allowed only at the start of a block or script at \[3:3\]/);
  });

  it('an error inside a script points into the script', async () => {
    const e = await errorOf(q('DECLARE x INT64 DEFAULT 1;\nSELECT x + nope;'));
    expect(e.message).toBe('Unrecognized name: nope at [2:12]');
  });
});

describe('control flow', () => {
  it('IF / ELSEIF / ELSE (documented example shape)', async () => {
    const script = (id: number) => `DECLARE target_product_id INT64 DEFAULT ${id};
IF EXISTS(SELECT 1 FROM sc.products WHERE product_id = target_product_id) THEN
  SELECT CONCAT('found product ', CAST(target_product_id AS STRING)) AS m;
ELSEIF target_product_id > 1000 THEN
  SELECT 'big' AS m;
ELSE
  SELECT CONCAT('did not find product ', CAST(target_product_id AS STRING)) AS m;
END IF;`;
    expect(await q(script(103))).toEqual([{ m: 'found product 103' }]);
    expect(await q(script(5000))).toEqual([{ m: 'big' }]);
    expect(await q(script(7))).toEqual([{ m: 'did not find product 7' }]);
  });

  it('LOOP with LEAVE (documented example: x reaches 10)', async () => {
    expect(await q('DECLARE x INT64 DEFAULT 0;\nLOOP\n  SET x = x + 1;\n  IF x >= 10 THEN\n    LEAVE;\n  END IF;\nEND LOOP;\nSELECT x')).toEqual([{ x: 10 }]);
  });

  it('WHILE with CONTINUE; REPEAT … UNTIL runs its body at least once', async () => {
    expect(await q('DECLARE i INT64 DEFAULT 0; DECLARE s INT64 DEFAULT 0; WHILE i < 6 DO SET i = i + 1; IF MOD(i, 2) = 0 THEN CONTINUE; END IF; SET s = s + i; END WHILE; SELECT s')).toEqual([{ s: 9 }]);
    expect(await q('DECLARE x INT64 DEFAULT 0;\nREPEAT\n  SET x = x + 1;\n  SELECT x;\n  UNTIL x >= 3\nEND REPEAT;')).toEqual([{ x: 3 }]);
    expect(await q('DECLARE x INT64 DEFAULT 10; REPEAT SET x = x + 1; UNTIL TRUE END REPEAT; SELECT x')).toEqual([{ x: 11 }]);
  });

  it('labels: BREAK leaves a labelled block; CONTINUE and ITERATE name the outer loop', async () => {
    expect(await q("label_1: BEGIN\n  SELECT 1 AS n;\n  BREAK label_1;\n  SELECT 2 AS n;\nEND;")).toEqual([{ n: 1 }]);
    const r = await q(`DECLARE i, inner_runs INT64 DEFAULT 0;
outer_loop: WHILE i < 3 DO
  SET i = i + 1;
  inner_loop: LOOP
    SET inner_runs = inner_runs + 1;
    ITERATE outer_loop;
  END LOOP inner_loop;
END WHILE outer_loop;
SELECT i, inner_runs`);
    expect(r).toEqual([{ i: 3, inner_runs: 3 }]);
  });

  it('FOR … IN iterates the rows as a STRUCT variable', async () => {
    expect(await q('DECLARE total INT64 DEFAULT 0;\nFOR row IN (SELECT product_id, name FROM sc.products ORDER BY product_id) DO\n  SET total = total + row.product_id;\nEND FOR;\nSELECT total')).toEqual([{ total: 204 }]);
    expect(await q("DECLARE s STRING DEFAULT ''; FOR r IN (SELECT x FROM UNNEST(['a', 'b', 'c']) AS x ORDER BY x) DO IF r.x = 'c' THEN BREAK; END IF; SET s = s || r.x; END FOR; SELECT s")).toEqual([{ s: 'ab' }]);
  });

  it('CASE statement, simple and searched (documented example shape)', async () => {
    const simple = (id: number) => `DECLARE target_product_id INT64 DEFAULT ${id};
CASE target_product_id
  WHEN 100 THEN SELECT 'ID 100' AS m;
  WHEN 103 THEN SELECT 'ID 103' AS m;
  ELSE SELECT 'other' AS m;
END CASE;`;
    expect(await q(simple(103))).toEqual([{ m: 'ID 103' }]);
    expect(await q(simple(1))).toEqual([{ m: 'other' }]);
    expect(await q("DECLARE x INT64 DEFAULT 5; CASE WHEN x < 3 THEN SELECT 'small' AS m; WHEN x < 10 THEN SELECT 'medium' AS m; END CASE;")).toEqual([{ m: 'medium' }]);
  });

  it('RETURN ends the script; the answer is the last SELECT that ran', async () => {
    expect(await q('SELECT 1 AS n; RETURN; SELECT 2 AS n;')).toEqual([{ n: 1 }]);
  });

  it('BEGIN … END scopes its variables', async () => {
    expect(await q('BEGIN\n  DECLARE local_value INT64 DEFAULT 7;\n  SELECT local_value * 6 AS forty_two;\nEND')).toEqual([{ forty_two: 42 }]);
    const e = await errorOf(q('BEGIN\n  DECLARE v INT64 DEFAULT 1;\nEND;\nSELECT v;'));
    expect(e.message).toBe('Unrecognized name: v at [4:8]');
  });

  it('BREAK outside a loop is rejected before anything runs', async () => {
    const e = await errorOf(q('INSERT INTO sc.products VALUES (999, "never");\nBREAK;'));
    expect(e.message).toMatch(/BREAK is only allowed inside a loop at \[2:1\]/);
    expect(await q('SELECT COUNT(*) AS n FROM sc.products WHERE product_id = 999')).toEqual([{ n: 0 }]);
  });
});

describe('errors: BEGIN … EXCEPTION, RAISE, ASSERT', () => {
  it('the handler sees @@error.message, statement_text, stack_trace and formatted_stack_trace', async () => {
    const [r] = await q(`BEGIN
  SELECT 1/0;
EXCEPTION WHEN ERROR THEN
  SELECT @@error.message AS message, @@error.statement_text AS statement_text,
    @@error.formatted_stack_trace AS formatted, @@error.stack_trace AS stack;
END;`);
    expect(r.message).toBe('division by zero: 1 / 0');
    expect(r.statement_text).toBe('SELECT 1/0');
    expect(r.formatted).toBe('At [2:3]\n');
    expect(r.stack).toEqual([{ line: 2, column: 3, filename: null, location: null }]);
  });

  it('statements after the failing one are skipped; the script goes on after the block', async () => {
    expect(await q("DECLARE outcome STRING DEFAULT 'ok';\nBEGIN\n  SELECT ERROR('bad');\n  SET outcome = 'unreached';\nEXCEPTION WHEN ERROR THEN\n  SET outcome = CONCAT('caught: ', @@error.message);\nEND;\nSELECT outcome")).toEqual([{ outcome: 'caught: bad' }]);
  });

  it('RAISE USING MESSAGE fails the job; RAISE alone re-raises the handled error; an outer handler catches it', async () => {
    const e = await errorOf(q("RAISE USING MESSAGE = 'custom failure';"));
    expect(e.message).toBe('custom failure');
    expect(e.errors?.[0]?.reason).toBe('invalidQuery');
    const e2 = await errorOf(q('BEGIN\n  SELECT 1/0;\nEXCEPTION WHEN ERROR THEN\n  RAISE;\nEND;'));
    expect(e2.message).toBe('division by zero: 1 / 0');
    expect(await q("BEGIN\n  BEGIN\n    RAISE USING MESSAGE = 'inner';\n  EXCEPTION WHEN ERROR THEN\n    RAISE USING MESSAGE = CONCAT('wrapped ', @@error.message);\n  END;\nEXCEPTION WHEN ERROR THEN\n  SELECT @@error.message AS m;\nEND;")).toEqual([{ m: 'wrapped inner' }]);
  });

  it('ASSERT: success returns nothing; failure says Assertion failed, with the description', async () => {
    expect(await q("ASSERT (SELECT COUNT(*) > 1 FROM sc.products) AS 'Table must contain more than 1 row.'; SELECT 'ok' AS r")).toEqual([{ r: 'ok' }]);
    const e = await errorOf(q("ASSERT (\n  (SELECT COUNT(*) > 10 FROM UNNEST([1, 2, 3, 4, 5, 6]))\n) AS 'Table must contain more than 10 rows.';"));
    expect(e.message).toBe('Assertion failed: Table must contain more than 10 rows.');
    expect((await errorOf(q('ASSERT 1 > 2'))).message).toBe('Assertion failed');
    expect((await errorOf(q('ASSERT CAST(NULL AS BOOL)'))).message).toBe('Assertion failed');
  });

  it('a lone ASSERT is an ASSERT statement', async () => {
    expect((await job('ASSERT TRUE')).statementType).toBe('ASSERT');
  });
});

describe('EXECUTE IMMEDIATE', () => {
  it('USING positional and named parameters, INTO variables (documented examples)', async () => {
    expect(await q('DECLARE y INT64;\nEXECUTE IMMEDIATE "SELECT ? * (? + 2)" INTO y USING 1, 3;\nSELECT y')).toEqual([{ y: 5 }]);
    expect(await q('DECLARE y INT64;\nEXECUTE IMMEDIATE "SELECT @a * (@b + 2)" INTO y USING 1 AS a, 3 AS b;\nSELECT y')).toEqual([{ y: 5 }]);
  });

  it('runs DML built at run time; a query without INTO is a result of the script', async () => {
    await q('CREATE TABLE sc.books (title STRING, publish_date INT64)');
    const rows = await q(`DECLARE book_name STRING DEFAULT 'Ulysses';
DECLARE book_year INT64 DEFAULT 1922;
DECLARE first_date INT64;
EXECUTE IMMEDIATE "INSERT INTO sc.books (title, publish_date) VALUES('Hamlet', 1599)";
EXECUTE IMMEDIATE "INSERT INTO sc.books (title, publish_date) VALUES(?, ?)" USING book_name, book_year;
EXECUTE IMMEDIATE "INSERT INTO sc.books (title, publish_date) VALUES(@name, @year)" USING 1815 AS year, "Emma" AS name;
EXECUTE IMMEDIATE CONCAT("INSERT INTO sc.books (title, publish_date)", " VALUES('Middlemarch', 1871)");
EXECUTE IMMEDIATE "SELECT publish_date FROM sc.books WHERE title = 'Hamlet'" INTO first_date;
EXECUTE IMMEDIATE "SELECT title, publish_date, @d AS first_date FROM sc.books ORDER BY publish_date" USING first_date AS d;`);
    expect(rows).toEqual([
      { title: 'Hamlet', publish_date: 1599, first_date: 1599 },
      { title: 'Emma', publish_date: 1815, first_date: 1599 },
      { title: 'Middlemarch', publish_date: 1871, first_date: 1599 },
      { title: 'Ulysses', publish_date: 1922, first_date: 1599 },
    ]);
  });

  it('an error in the dynamic statement can be handled', async () => {
    expect(await q("DECLARE outcome STRING DEFAULT 'ok';\nBEGIN\n  EXECUTE IMMEDIATE 'SELECT 1 / 0';\nEXCEPTION WHEN ERROR THEN\n  SET outcome = 'caught';\nEND;\nSELECT outcome")).toEqual([{ outcome: 'caught' }]);
  });
});

describe('system variables', () => {
  it('@@project_id, @@dataset_id from the default dataset, @@time_zone, @@script.job_id', async () => {
    const rows = await q('DECLARE x INT64; SELECT @@project_id AS p, @@dataset_id AS d, @@time_zone AS tz, @@script.job_id IS NOT NULL AS has_job', { defaultDataset: { datasetId: 'sc' } });
    expect(rows).toEqual([{ p: t.projectId, d: 'sc', tz: 'UTC', has_job: true }]);
  });

  it('SET @@dataset_id changes where unqualified tables resolve', async () => {
    expect(await q("SET @@dataset_id = 'sc';\nSELECT COUNT(*) AS n FROM products")).toEqual([{ n: 2 }]);
  });

  it('@@row_count is the number of rows the previous DML statement changed', async () => {
    await q('CREATE TABLE sc.counter (v INT64)');
    expect(await q('INSERT INTO sc.counter VALUES (1), (2), (3);\nSELECT @@row_count AS inserted;')).toEqual([{ inserted: 3 }]);
    expect(await q('DECLARE n INT64;\nUPDATE sc.counter SET v = v + 1 WHERE v > 1;\nSET n = @@row_count;\nSELECT n')).toEqual([{ n: 2 }]);
  });

  it('@@error is only defined inside an exception handler', async () => {
    const e = await errorOf(q('DECLARE x INT64;\nSELECT @@error.message;'));
    expect(e.message).toBe('Unrecognized name: @@error at [2:8]');
  });
});

describe('what a script job answers', () => {
  it('the last SELECT, DML or DDL statement executed (rest_crud/dml_* recordings: SCRIPT with the final SELECT)', async () => {
    await q('CREATE TABLE sc.ledger (id INT64, amount INT64)');
    const r = await job('INSERT INTO sc.ledger (id, amount) VALUES (1, 100);\nINSERT INTO sc.ledger (id, amount) VALUES (2, 200);\nSELECT id, amount FROM sc.ledger ORDER BY id');
    expect(r.statementType).toBe('SCRIPT');
    expect(r.rows).toEqual([{ id: 1, amount: 100 }, { id: 2, amount: 200 }]);
  });

  it('a script of variables only answers no rows', async () => {
    const r = await job('DECLARE x INT64 DEFAULT 1; SET x = 2;');
    expect(r.statementType).toBe('SCRIPT');
    expect(r.rows).toEqual([]);
  });
});

describe('multi-statement transactions', () => {
  beforeAll(async () => {
    await q('CREATE TABLE sc.accounts (id INT64, amount INT64)');
  });
  const rowsOf = () => q('SELECT id, amount FROM sc.accounts ORDER BY id');

  it('COMMIT keeps the changes; ROLLBACK undoes every change since BEGIN (recorded txn_begin_rollback shape)', async () => {
    await q('BEGIN TRANSACTION;\nINSERT INTO sc.accounts VALUES (1, 100);\nCOMMIT TRANSACTION;');
    expect(await rowsOf()).toEqual([{ id: 1, amount: 100 }]);
    const inside = await q('BEGIN TRANSACTION;\nINSERT INTO sc.accounts VALUES (2, 200);\nUPDATE sc.accounts SET amount = 0 WHERE id = 1;\nSELECT COUNT(*) AS n, SUM(amount) AS s FROM sc.accounts;\nROLLBACK TRANSACTION;\nSELECT COUNT(*) AS n, SUM(amount) AS s FROM sc.accounts');
    expect(inside).toEqual([{ n: 1, s: 100 }]);
  });

  it('an error the script does not handle rolls the transaction back', async () => {
    const e = await errorOf(q('BEGIN TRANSACTION;\nDELETE FROM sc.accounts WHERE TRUE;\nSELECT ERROR("stop");\nCOMMIT TRANSACTION;'));
    expect(e.message).toBe('stop');
    expect(await rowsOf()).toEqual([{ id: 1, amount: 100 }]);
  });

  it('COMMIT without a transaction is an error', async () => {
    expect((await errorOf(q('SELECT 1;\nCOMMIT TRANSACTION;'))).message).toBe('There is no active transaction to commit');
  });

  it('holds CREATE TEMP TABLE and CREATE TEMP FUNCTION (the transactions page: a temp table staged from one table, merged into another)', async () => {
    await q('CREATE TABLE sc.arrivals (id INT64, amount INT64); INSERT sc.arrivals VALUES (1, 5), (3, 30)');
    const out = await q(`BEGIN TRANSACTION;
CREATE TEMP TABLE staged AS SELECT * FROM sc.arrivals;
CREATE TEMP FUNCTION twice(x INT64) AS (x * 2);
DELETE sc.arrivals WHERE TRUE;
MERGE sc.accounts a USING staged s ON a.id = s.id
  WHEN MATCHED THEN UPDATE SET amount = a.amount + twice(s.amount)
  WHEN NOT MATCHED THEN INSERT (id, amount) VALUES (s.id, twice(s.amount));
COMMIT TRANSACTION;
SELECT (SELECT COUNT(*) FROM sc.arrivals) AS arrivals, (SELECT COUNT(*) FROM staged) AS staged`);
    expect(out).toEqual([{ arrivals: 0, staged: 2 }]);
    expect(await rowsOf()).toEqual([{ id: 1, amount: 110 }, { id: 3, amount: 60 }]);
  });
});

describe('CREATE TEMP FUNCTION (SQL)', () => {
  it('temp functions and one query are a query, not a script', async () => {
    const r = await job('CREATE TEMP FUNCTION Add(x INT64, y INT64) AS (x + y);\nSELECT Add(3, 4) AS sum');
    expect(r.rows).toEqual([{ sum: 7 }]);
    expect(r.statementType).toBe('SELECT');
  });

  it('RETURNS, ANY TYPE templates, and a function calling an earlier one', async () => {
    expect(await q('CREATE TEMP FUNCTION pair(a INT64, b INT64) RETURNS ARRAY<INT64> AS ([a, b]);\nSELECT pair(2, 3) AS p')).toEqual([{ p: [2, 3] }]);
    const rows = await q("CREATE TEMP FUNCTION shout(s ANY TYPE) AS (CONCAT(UPPER(CAST(s AS STRING)), '!'));\nCREATE TEMP FUNCTION twice(s ANY TYPE) AS (CONCAT(shout(s), shout(s)));\nSELECT shout('hi') AS a, shout(3) AS b, twice('x') AS c");
    expect(rows).toEqual([{ a: 'HI!', b: '3!', c: 'X!X!' }]);
  });

  it('a temp function over table rows, inside a script with variables', async () => {
    const rows = await q('CREATE TEMP FUNCTION label(id INT64, n STRING) AS (FORMAT("%d:%s", id, n));\nDECLARE k INT64 DEFAULT 101;\nSELECT label(product_id, name) AS l FROM sc.products WHERE product_id >= k ORDER BY product_id');
    expect(rows).toEqual([{ l: '101:tea' }, { l: '103:coffee' }]);
  });

  it('a call that matches no signature names the function as written', async () => {
    const e = await errorOf(q("CREATE TEMP FUNCTION addone(x INT64) AS (x + 1);\nSELECT addone('a')"));
    expect(e.message).toMatch(/^No matching signature for function ADDONE/);
  });
});
