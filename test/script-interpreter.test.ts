/**
 * The script interpreter, driven directly: an in-process engine (src/engine/engine.ts, in-memory
 * DuckDB and the analyzer child) and the request entry point (src/scripting/request.ts
 * `executeRequest`), no HTTP and no job manager. test/scripting.test.ts covers the same language
 * through the client; this file covers what only the interpreter shows (every statement's result and
 * its byte span, result types, scoping, control flow across nesting) and the cases that file does not.
 *
 * Expected values come from, per test:
 * - BigQuery's procedural language reference
 *   (https://cloud.google.com/bigquery/docs/reference/standard-sql/procedural-language), cited by section;
 * - BigQuery's "Multi-statement transactions" and "Work with stored procedures" pages;
 * - recorded BigQuery fixtures under conformance/fixtures/routines_scripting/ (cited by directory);
 * - ZetaSQL's script validation (zetasql/scripting/parsed_script_test.cc and control_flow_graph.cc in
 *   github.com/google/zetasql), the library BigQuery's scripting is built on, for static errors.
 * Where the interpreter diverges from a source the case is `it.fails`, with the divergence named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../src/engine/engine.js';
import type { QueryOptions, StatementResult } from '../src/engine/engine.js';
import type { TempScope } from '../src/engine/names.js';
import { newSessionState } from '../src/engine/session-state.js';
import { BigQueryError } from '../src/errors/errors.js';
import { childJobId } from '../src/scripting/interpreter.js';
import { runScript } from '../src/scripting/index.js';
import { executeRequest } from '../src/scripting/request.js';
import type { Value } from '../src/types/types.js';

const PROJECT = 'interp-project';
let engine: Engine;

/** Runs a request's text; answers every statement result (the last answers the request). */
const run = (sql: string, opts: Partial<QueryOptions> = {}): Promise<StatementResult[]> => executeRequest(engine, sql, { projectId: PROJECT, ...opts });

/** A value as a test compares it: INT64 as a number when exact, arrays and structs element-wise. */
function plain(v: Value): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  if (Array.isArray(v)) return v.map((x) => plain(x as Value));
  return v;
}

/** The rows of one result as objects keyed by column name. */
const rowsOf = (r: StatementResult): Record<string, unknown>[] =>
  (r.rows ?? []).map((row) => Object.fromEntries((r.schema ?? []).map((f, i) => [f.name, plain(row[i])])));

/** The rows of every SELECT the script ran, in order. */
const selects = (rs: StatementResult[]) => rs.filter((r) => r.schema?.length).map(rowsOf);

/** The rows of the request's answer (its last result). */
async function answer(sql: string, opts: Partial<QueryOptions> = {}): Promise<Record<string, unknown>[]> {
  const rs = await run(sql, opts);
  return rowsOf(rs[rs.length - 1]);
}

/** The BigQueryError a request fails with (fails the test when it succeeds). */
async function failure(sql: string, opts: Partial<QueryOptions> = {}): Promise<BigQueryError> {
  try {
    await run(sql, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(BigQueryError);
    return e as BigQueryError;
  }
  throw new Error(`expected the script to fail: ${sql}`);
}

beforeAll(async () => {
  engine = await Engine.start();
  await run('CREATE SCHEMA ds');
  await run('CREATE TABLE ds.ledger (id INT64, amount INT64)');
}, 60_000);
afterAll(() => engine?.stop());

describe('DECLARE (procedural language reference, DECLARE)', () => {
  it('DEFAULT CURRENT_DATE() gives a DATE; a type left out is inferred from the DEFAULT', async () => {
    // Reference examples: `DECLARE d DATE DEFAULT CURRENT_DATE();` and "If the variable type is
    // omitted then a DEFAULT clause must be specified … the variable's type will be inferred".
    const [r] = await run("DECLARE d DATE DEFAULT CURRENT_DATE();\nDECLARE n DEFAULT 1;\nDECLARE f DEFAULT 1.5;\nDECLARE s DEFAULT 'x';\nSELECT d = CURRENT_DATE() AS today, n, f, s");
    expect(r.schema?.map((f) => [f.name, f.type.kind])).toEqual([['today', 'BOOL'], ['n', 'INT64'], ['f', 'FLOAT64'], ['s', 'STRING']]);
    expect(rowsOf(r)).toEqual([{ today: true, n: 1, f: 1.5, s: 'x' }]);
  });

  it('DEFAULT may be a scalar subquery; its type is the column type', async () => {
    // Reference example: `DECLARE item DEFAULT (SELECT item FROM schema1.products LIMIT 1);`
    const [r] = await run("DECLARE item DEFAULT (SELECT name FROM UNNEST([STRUCT('tea' AS name)]) LIMIT 1);\nSELECT item");
    expect(r.schema?.[0].type).toEqual({ kind: 'STRING' });
    expect(rowsOf(r)).toEqual([{ item: 'tea' }]);
  });

  it('a declared ARRAY or STRUCT variable starts NULL and takes its type from the declaration', async () => {
    const [r] = await run('DECLARE a ARRAY<INT64>;\nDECLARE s STRUCT<x INT64, y STRING>;\nSELECT a IS NULL AS a_null, s IS NULL AS s_null, a, s');
    expect(rowsOf(r)[0]).toMatchObject({ a_null: true, s_null: true });
    expect(r.schema?.[2].type).toEqual({ kind: 'ARRAY', element: { kind: 'INT64' } });
    expect(r.schema?.[3].type.kind).toBe('STRUCT');
  });

  it('INT64 bounds survive DECLARE (recorded routines_scripting/script_declare_max_int, a SCRIPT answer)', async () => {
    const rs = await run('DECLARE x INT64 DEFAULT 9223372036854775807;\nDECLARE y INT64 DEFAULT -9223372036854775808;\nSELECT x AS n_max, y AS n_min');
    expect(rs).toHaveLength(1);
    expect(rs[0].statementType).toBe('SCRIPT');
    expect(rs[0].rows).toEqual([[9223372036854775807n, -9223372036854775808n]]);
  });

  it('one name twice in one DECLARE is a redeclaration, names compared case-insensitively (ZetaSQL parsed_script_test)', async () => {
    expect((await failure('DECLARE x, x INT64;')).message).toMatch(/^Variable 'x' redeclaration at \[1:12\]/);
    expect((await failure('DECLARE x, X INT64;')).message).toMatch(/^Variable 'X' redeclaration at \[1:12\]/);
  });

  it('a name of the outer block redeclared in an inner one names the inner position (ZetaSQL parsed_script_test)', async () => {
    expect((await failure('DECLARE x INT64;\nBEGIN\n  DECLARE y, x INT64;\nEND;')).message).toMatch(/^Variable 'x' redeclaration at \[3:14\]/);
  });

  it('disjoint blocks may declare the same name; the handler has its own scope (ZetaSQL parsed_script_test)', async () => {
    const rs = await run("BEGIN\n  DECLARE x INT64 DEFAULT 1;\n  SELECT x;\nEND;\nBEGIN\n  DECLARE x STRING DEFAULT 'two';\n  SELECT x;\nEND;");
    expect(selects(rs)).toEqual([[{ x: 1 }], [{ x: 'two' }]]);
    const handled = await answer('BEGIN\n  DECLARE x INT64;\n  SELECT ERROR("boom");\nEXCEPTION WHEN ERROR THEN\n  BEGIN\n    DECLARE x STRING DEFAULT "handler";\n    SELECT x;\n  END;\nEND;');
    expect(handled).toEqual([{ x: 'handler' }]);
  });

  it('DECLARE after a SET, or in the middle of a BEGIN block, fails before anything runs (ZetaSQL parsed_script_test)', async () => {
    const e = await failure('INSERT INTO ds.ledger VALUES (-1, -1);\nBEGIN\n  SET @@query_label = "a:b";\n  DECLARE x INT64;\nEND;');
    expect(e.message).toBe('Variable declarations are allowed only at the start of a block or script at [4:3]');
    expect(e.reason).toBe('invalidQuery');
    expect(await answer('SELECT COUNT(*) AS n FROM ds.ledger WHERE id = -1')).toEqual([{ n: 0 }]);
    expect((await failure('BEGIN\nEXCEPTION WHEN ERROR THEN\n  DECLARE x INT64;\nEND;')).message).toBe('Variable declarations are allowed only at the start of a block or script at [3:3]');
  });

  // Divergence: src/scripting/validate.ts lets SQL statements precede DECLARE; ZetaSQL's
  // parsed_script_test ("Variable declaration after SELECT statement") rejects `SELECT 1; DECLARE x INT64;`.
  it.fails('DECLARE after a SELECT at the top of the script is rejected (ZetaSQL parsed_script_test)', async () => {
    expect((await failure('SELECT 1;\nDECLARE x INT64;')).message).toBe('Variable declarations are allowed only at the start of a block or script at [2:1]');
  });
});

describe('SET (procedural language reference, SET)', () => {
  it('SET x = 5 and a tuple SET coerce each value to its variable type', async () => {
    // Reference examples: `SET x = 5;`, `SET (a, b, c) = (1 + 3, 'foo', false);`
    const [r] = await run("DECLARE x FLOAT64;\nDECLARE a NUMERIC;\nDECLARE b STRING;\nDECLARE c BOOL;\nSET x = 5;\nSET (a, b, c) = (1 + 3, 'foo', false);\nSELECT x, a, b, c");
    expect(r.schema?.map((f) => f.type.kind)).toEqual(['FLOAT64', 'NUMERIC', 'STRING', 'BOOL']);
    expect(rowsOf(r)).toEqual([{ x: 5, a: expect.anything(), b: 'foo', c: false }]);
    expect(await answer('DECLARE a NUMERIC;\nSET a = 4;\nSELECT CAST(a AS STRING) AS a')).toEqual([{ a: '4' }]);
  });

  it('SET from a subquery that returns no row assigns NULL (a scalar subquery of no rows is NULL)', async () => {
    expect(await answer('DECLARE x INT64 DEFAULT 7;\nSET x = (SELECT v FROM UNNEST([1, 2]) AS v WHERE v > 5);\nSELECT x')).toEqual([{ x: null }]);
  });

  it('SET of an undeclared variable fails before the statement runs, naming the variable', async () => {
    const e = await failure('DECLARE x INT64;\nSET y = 1;');
    expect(e.message).toMatch(/^Undeclared variable: y at \[2:5\]/);
  });

  it('SET @@dataset_project_id and @@dataset_id name the default dataset of later statements ("System variables")', async () => {
    // Reference example: `SET @@dataset_id = 'MyDataset';` then unqualified names resolve there.
    const [r] = await run(`SET @@dataset_project_id = '${PROJECT}';\nSET @@dataset_id = 'ds';\nSELECT COUNT(*) AS n, @@dataset_id AS d, @@dataset_project_id AS p FROM ledger`);
    expect(rowsOf(r)).toEqual([{ n: 0, d: 'ds', p: PROJECT }]);
  });

  it('@@query_label can be set and read back ("System variables": @@query_label)', async () => {
    expect(await answer("SET @@query_label = 'team:data';\nSELECT @@query_label AS l")).toEqual([{ l: 'team:data' }]);
  });
});

describe('system variables (procedural language reference, "System variables")', () => {
  it('@@script.job_id is the request job; @@current_job_id a child job; @@last_job_id the previous statement\'s job', async () => {
    // "@@current_job_id: … in a script, the job responsible for the current statement"; "@@last_job_id:
    // job ID of the most recently executed job in the current script, not including the current one".
    const rs = await run('SELECT @@current_job_id AS cur, @@last_job_id AS prev, @@script.job_id AS script;\nSELECT @@current_job_id AS cur, @@last_job_id AS prev;', { jobId: 'job_abc' });
    const [[first], [second]] = selects(rs);
    expect(first.script).toBe('job_abc');
    expect(first.prev).toBeNull();
    expect(second.prev).toBe(first.cur);
    expect(second.cur).not.toBe(first.cur);
    // Child job ids follow the job manager's naming (src/jobs/jobs.ts addChildJobs).
    expect(first.cur).toBe(childJobId(PROJECT, 'job_abc', 0));
  });

  it('@@script.num_child_jobs counts the child jobs completed so far', async () => {
    const rs = await run('SELECT @@script.num_child_jobs AS n;\nSELECT @@script.num_child_jobs AS n;');
    expect(selects(rs)).toEqual([[{ n: 0 }], [{ n: 1 }]]);
  });

  it('@@row_count is NULL after a SELECT and the combined count after a MERGE', async () => {
    // "@@row_count: If used in a script and the previous script statement is DML, specifies the number
    // of rows modified, inserted, or deleted … If the previous statement is a MERGE statement,
    // @@row_count represents the combined total number of rows inserted, removed, and deleted."
    await run('CREATE TABLE ds.merge_target (id INT64, v STRING)');
    await run("INSERT INTO ds.merge_target VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    const rs = await run(`SELECT 1 AS one;
SELECT @@row_count AS after_select;
MERGE ds.merge_target t
USING (SELECT 1 AS id, 'A' AS v UNION ALL SELECT 4, 'D') s
ON t.id = s.id
WHEN MATCHED THEN UPDATE SET v = s.v
WHEN NOT MATCHED BY TARGET THEN INSERT (id, v) VALUES (s.id, s.v)
WHEN NOT MATCHED BY SOURCE AND t.id = 3 THEN DELETE;
SELECT @@row_count AS after_merge;`);
    const s = selects(rs);
    expect(s[1]).toEqual([{ after_select: null }]);
    expect(s[2]).toEqual([{ after_merge: 3 }]);
  });

  it('@@session_id is NULL outside a session; @@project_id is the request project', async () => {
    expect(await answer('DECLARE x INT64;\nSELECT @@session_id AS s, @@project_id AS p')).toEqual([{ s: null, p: PROJECT }]);
  });
});

describe('IF and CASE (procedural language reference, IF / CASE / CASE search_expression)', () => {
  it('only the first true branch runs; a NULL condition is not true, so ELSE runs', async () => {
    const script = (x: string) => `DECLARE x INT64 DEFAULT ${x};
DECLARE ran ARRAY<STRING> DEFAULT [];
IF x > 5 THEN
  SET ran = ARRAY_CONCAT(ran, ['then']);
ELSEIF x > 1 THEN
  SET ran = ARRAY_CONCAT(ran, ['elseif 1']);
ELSEIF x > 0 THEN
  SET ran = ARRAY_CONCAT(ran, ['elseif 2']);
ELSE
  SET ran = ARRAY_CONCAT(ran, ['else']);
END IF;
SELECT ran`;
    expect(await answer(script('3'))).toEqual([{ ran: ['elseif 1'] }]);
    expect(await answer(script('1'))).toEqual([{ ran: ['elseif 2'] }]);
    expect(await answer(script('NULL'))).toEqual([{ ran: ['else'] }]);
  });

  it('CASE: the first matching WHEN runs; a NULL search expression matches no WHEN; no ELSE and no match does nothing', async () => {
    const simple = (v: string) => `DECLARE v INT64 DEFAULT ${v};\nDECLARE r STRING DEFAULT 'none';\nCASE v\n  WHEN 1 THEN SET r = 'first';\n  WHEN 1 THEN SET r = 'second';\n  ELSE SET r = 'else';\nEND CASE;\nSELECT r`;
    expect(await answer(simple('1'))).toEqual([{ r: 'first' }]);
    expect(await answer(simple('NULL'))).toEqual([{ r: 'else' }]);
    expect(await answer("DECLARE r STRING DEFAULT 'none';\nCASE\n  WHEN FALSE THEN SET r = 'x';\nEND CASE;\nSELECT r")).toEqual([{ r: 'none' }]);
  });

  it('an error in a condition points into the script', async () => {
    const e = await failure('DECLARE x INT64;\nIF nope > 1 THEN\n  SELECT 1;\nEND IF;');
    expect(e.message).toBe('Unrecognized name: nope at [2:4]');
    const e2 = await failure('DECLARE x INT64;\nWHILE x <\n    nope DO\n  SET x = 1;\nEND WHILE;');
    expect(e2.message).toBe('Unrecognized name: nope at [3:5]');
  });
});

describe('loops (procedural language reference, LOOP / REPEAT / WHILE / FOR...IN)', () => {
  it('REPEAT: each iteration\'s SELECT is a result of its own (reference REPEAT example: 1, 2, 3)', async () => {
    const rs = await run('DECLARE x INT64 DEFAULT 0;\nREPEAT\n  SET x = x + 1;\n  SELECT x;\n  UNTIL x >= 3\nEND REPEAT;');
    expect(selects(rs)).toEqual([[{ x: 1 }], [{ x: 2 }], [{ x: 3 }]]);
  });

  it('WHILE sums 1..5 (recorded routines_scripting/script_while); a NULL condition ends the loop', async () => {
    expect(await answer('DECLARE total INT64 DEFAULT 0;\nDECLARE i INT64 DEFAULT 1;\nWHILE i <= 5 DO\n  SET total = total + i;\n  SET i = i + 1;\nEND WHILE;\nSELECT total AS sum_1_to_5')).toEqual([{ sum_1_to_5: 15 }]);
    expect(await answer('DECLARE n INT64 DEFAULT 0;\nDECLARE c BOOL;\nWHILE c DO\n  SET n = n + 1;\nEND WHILE;\nSELECT n')).toEqual([{ n: 0 }]);
  });

  it('FOR … IN: the body runs once per row, in order; an empty query runs it never (recorded script_for_iterate_with_aggregate, script_for_empty_array)', async () => {
    expect(await answer('DECLARE product INT64 DEFAULT 1;\nFOR row IN (SELECT v FROM UNNEST([2, 3, 5]) AS v ORDER BY v) DO\n  SET product = product * row.v;\nEND FOR;\nSELECT product AS product_2_3_5')).toEqual([{ product_2_3_5: 30 }]);
    expect(await answer('DECLARE iterations INT64 DEFAULT 0;\nFOR row IN (SELECT v FROM UNNEST(ARRAY<INT64>[]) AS v) DO\n  SET iterations = iterations + 1;\nEND FOR;\nSELECT iterations AS n')).toEqual([{ n: 0 }]);
  });

  it('FOR … IN: the loop variable is a STRUCT of the columns, each iteration\'s SELECT a result; it is gone after END FOR', async () => {
    // Reference FOR...IN example: `SELECT record.word, record.word_count;` inside the body.
    const rs = await run("FOR record IN (SELECT w AS word, LENGTH(w) AS word_count FROM UNNEST(['a', 'bb']) AS w ORDER BY w) DO\n  SELECT record.word, record.word_count;\nEND FOR;");
    expect(selects(rs)).toEqual([[{ word: 'a', word_count: 1 }], [{ word: 'bb', word_count: 2 }]]);
    const e = await failure('FOR r IN (SELECT 1 AS v) DO\n  SELECT r.v;\nEND FOR;\nSELECT r.v;');
    expect(e.message).toBe('Unrecognized name: r at [4:8]');
  });

  it('BREAK in a BEGIN block inside a loop leaves the loop; CONTINUE skips the rest of the iteration', async () => {
    const r = await answer(`DECLARE i INT64 DEFAULT 0;
DECLARE seen ARRAY<INT64> DEFAULT [];
LOOP
  SET i = i + 1;
  BEGIN
    IF i = 2 THEN
      CONTINUE;
    END IF;
    IF i > 4 THEN
      BREAK;
    END IF;
  END;
  SET seen = ARRAY_CONCAT(seen, [i]);
END LOOP;
SELECT i, seen`);
    expect(r).toEqual([{ i: 5, seen: [1, 3, 4] }]);
  });
});

describe('labels (procedural language reference, "Labels")', () => {
  it('BREAK label_1 from an inner loop leaves the outer loop; CONTINUE label_1 starts its next iteration', async () => {
    // Reference example shape: label_1: LOOP WHILE … CONTINUE label_1 … BREAK label_1 … END LOOP label_1.
    const r = await answer(`DECLARE x, y, outer_runs INT64 DEFAULT 0;
label_1: LOOP
  SET outer_runs = outer_runs + 1;
  SET x = 0;
  WHILE x < 1 DO
    IF y < 1 THEN
      SET y = y + 1;
      CONTINUE label_1;
    ELSE
      BREAK label_1;
    END IF;
  END WHILE;
END LOOP label_1;
SELECT outer_runs, y`);
    expect(r).toEqual([{ outer_runs: 2, y: 1 }]);
  });

  it('labels match case-insensitively (ZetaSQL control_flow_graph.cc: labels keyed by IdStringCaseEqualFunc)', async () => {
    expect(await answer('DECLARE n INT64 DEFAULT 0;\nTop_Loop: LOOP\n  SET n = n + 1;\n  LEAVE TOP_LOOP;\nEND LOOP top_loop;\nSELECT n')).toEqual([{ n: 1 }]);
  });

  it('REPEAT and FOR loops take labels too; ITERATE names the FOR loop from a nested WHILE', async () => {
    const r = await answer(`DECLARE visits ARRAY<INT64> DEFAULT [];
rows_loop: FOR r IN (SELECT v FROM UNNEST([1, 2, 3]) AS v ORDER BY v) DO
  WHILE TRUE DO
    IF r.v = 2 THEN
      ITERATE rows_loop;
    END IF;
    SET visits = ARRAY_CONCAT(visits, [r.v]);
    LEAVE;
  END WHILE;
END FOR;
SELECT visits`);
    expect(r).toEqual([{ visits: [1, 3] }]);
    expect(await answer('DECLARE n INT64 DEFAULT 0;\nrep: REPEAT\n  SET n = n + 1;\n  IF n = 2 THEN LEAVE rep; END IF;\n  UNTIL n > 10\nEND REPEAT rep;\nSELECT n')).toEqual([{ n: 2 }]);
  });

  it('a labelled BEGIN block: BREAK leaves the block and the script goes on after it (reference "Labels" example)', async () => {
    const rs = await run('label_1: BEGIN\n  SELECT 1 AS n;\n  BREAK label_1;\n  SELECT 2 AS n;\nEND;\nSELECT 3 AS n;');
    expect(selects(rs)).toEqual([[{ n: 1 }], [{ n: 3 }]]);
  });

  // Divergence (texts): src/scripting/validate.ts says "Unknown label: nowhere" and "CONTINUE cannot
  // refer to label b, which is not a loop"; ZetaSQL's control_flow_graph.cc says "Label nowhere does not
  // exist or is out of scope" and "CONTINUE with label must refer to a loop".
  it.fails('a label that does not enclose the statement, or CONTINUE naming a block, is rejected with ZetaSQL\'s text', async () => {
    expect((await failure('LOOP\n  BREAK nowhere;\nEND LOOP;')).message).toBe('Label nowhere does not exist or is out of scope at [2:3]');
    expect((await failure('b: BEGIN\n  LOOP\n    CONTINUE b;\n  END LOOP;\nEND;')).message).toBe('CONTINUE with label must refer to a loop at [3:5]');
  });

  it('a label that does not enclose the statement, or CONTINUE naming a block, is rejected before anything runs', async () => {
    const e = await failure('INSERT INTO ds.ledger VALUES (-2, -2);\nl: BEGIN\nEND;\nLOOP\n  BREAK l;\nEND LOOP;');
    expect(e.reason).toBe('invalidQuery');
    expect(e.message).toMatch(/ at \[5:3\]$/);
    expect((await failure('b: BEGIN\n  LOOP\n    CONTINUE b;\n  END LOOP;\nEND;')).message).toMatch(/ at \[3:5\]$/);
    expect(await answer('SELECT COUNT(*) AS n FROM ds.ledger WHERE id = -2')).toEqual([{ n: 0 }]);
  });
});

describe('BEGIN … END (procedural language reference, BEGIN...END)', () => {
  it('a block sees and changes the outer variables; its own are gone after END (reference BEGIN...END example)', async () => {
    const rs = await run('DECLARE x INT64 DEFAULT 10;\nBEGIN\n  DECLARE y INT64;\n  SET y = x;\n  SELECT y;\n  SET x = x + 1;\nEND;\nSELECT x;');
    expect(selects(rs)).toEqual([[{ y: 10 }], [{ x: 11 }]]);
  });

  it('a block with only a NULL DEFAULT answers NULL (recorded routines_scripting/script_begin_end_null)', async () => {
    const rs = await run('BEGIN\n  DECLARE x STRING DEFAULT NULL;\n  SELECT x AS s;\nEND');
    expect(rs.map((r) => r.statementType)).toEqual(['SCRIPT']);
    expect(rowsOf(rs[0])).toEqual([{ s: null }]);
  });
});

describe('BEGIN … EXCEPTION (procedural language reference, BEGIN...EXCEPTION...END and RAISE)', () => {
  it('the statements that ran before the error keep their results; the handler\'s SELECT is the answer', async () => {
    const rs = await run('BEGIN\n  SELECT 100 AS v;\n  SELECT 1/0;\nEXCEPTION WHEN ERROR THEN\n  SELECT @@error.message AS m;\nEND;');
    expect(selects(rs)).toEqual([[{ v: 100 }], [{ m: 'division by zero: 1 / 0' }]]);
  });

  it('@@error.statement_text and the stack trace name the innermost failing statement, nested in IF and a loop', async () => {
    const [r] = (await run(`BEGIN
  DECLARE i INT64 DEFAULT 0;
  WHILE i < 3 DO
    SET i = i + 1;
    IF i = 2 THEN
      SELECT ERROR(CONCAT('at i=', CAST(i AS STRING)));
    END IF;
  END WHILE;
EXCEPTION WHEN ERROR THEN
  SELECT @@error.message AS message, @@error.statement_text AS statement_text,
    @@error.formatted_stack_trace AS formatted, @@error.stack_trace AS stack;
END;`)).slice(-1);
    expect(rowsOf(r)).toEqual([{
      message: 'at i=2',
      statement_text: "SELECT ERROR(CONCAT('at i=', CAST(i AS STRING)))",
      formatted: 'At [6:7]\n',
      stack: [[6, 7, null, null]],
    }]);
  });

  it('variables declared in the block are not visible in the handler (ZetaSQL parsed_script_test: the EXCEPTION clause has its own scope)', async () => {
    const e = await failure('BEGIN\n  DECLARE inner_v INT64 DEFAULT 1;\n  SELECT ERROR("x");\nEXCEPTION WHEN ERROR THEN\n  SELECT inner_v;\nEND;');
    expect(e.message).toBe('Unrecognized name: inner_v at [5:10]');
  });

  it('an error raised in the handler is not caught by the same handler; an outer handler catches it', async () => {
    const e = await failure("BEGIN\n  SELECT ERROR('first');\nEXCEPTION WHEN ERROR THEN\n  SELECT ERROR('second');\nEND;");
    expect(e.message).toBe('second');
    expect(await answer("BEGIN\n  BEGIN\n    SELECT ERROR('first');\n  EXCEPTION WHEN ERROR THEN\n    SELECT ERROR('second');\n  END;\nEXCEPTION WHEN ERROR THEN\n  SELECT @@error.message AS m;\nEND;")).toEqual([{ m: 'second' }]);
  });

  it('RAISE USING MESSAGE: @@error.message is the message exactly; the stack trace is the RAISE statement', async () => {
    // RAISE: "The value of @@error.message will exactly match the message string supplied … The value of
    // @@error.stack_trace will be set to the RAISE statement location."
    const [r] = (await run("DECLARE code INT64 DEFAULT 42;\nBEGIN\n  IF TRUE THEN\n    RAISE USING MESSAGE = FORMAT('code %d', code);\n  END IF;\nEXCEPTION WHEN ERROR THEN\n  SELECT @@error.message AS m, @@error.formatted_stack_trace AS f, @@error.statement_text AS t;\nEND;")).slice(-1);
    expect(rowsOf(r)).toEqual([{ m: 'code 42', f: 'At [4:5]\n', t: "RAISE USING MESSAGE = FORMAT('code %d', code)" }]);
  });

  it('RAISE without a message re-raises the handled error and keeps its original stack trace', async () => {
    // RAISE: "The RAISE statement will re-raise the exception that was caught, and preserve the original stack trace."
    const [r] = (await run('BEGIN\n  BEGIN\n    SELECT 1/0;\n  EXCEPTION WHEN ERROR THEN\n    RAISE;\n  END;\nEXCEPTION WHEN ERROR THEN\n  SELECT @@error.message AS m, @@error.formatted_stack_trace AS f, @@error.statement_text AS t;\nEND;')).slice(-1);
    expect(rowsOf(r)).toEqual([{ m: 'division by zero: 1 / 0', f: 'At [3:5]\n', t: 'SELECT 1/0' }]);
  });

  // Divergence: src/scripting/procedural.ts raises the text 'NULL' for a NULL message; the reference
  // (RAISE) says @@error.message "may be NULL if message is NULL".
  it.fails('RAISE USING MESSAGE = NULL: the handler sees a NULL @@error.message (reference, RAISE)', async () => {
    expect(await answer('BEGIN\n  RAISE USING MESSAGE = CAST(NULL AS STRING);\nEXCEPTION WHEN ERROR THEN\n  SELECT @@error.message IS NULL AS is_null;\nEND;')).toEqual([{ is_null: true }]);
  });

  // Divergence (text): src/scripting/validate.ts says "RAISE without USING MESSAGE is only allowed inside
  // an exception handler"; ZetaSQL's parsed_script_test expects "Cannot re-raise an existing exception
  // outside of an exception handler".
  it.fails('RAISE without a message outside a handler is rejected with ZetaSQL\'s text', async () => {
    expect((await failure('SELECT 1;\nRAISE;')).message).toBe('Cannot re-raise an existing exception outside of an exception handler at [2:1]');
  });

  it('RAISE without a message outside a handler is rejected before anything runs', async () => {
    const e = await failure('INSERT INTO ds.ledger VALUES (-3, -3);\nRAISE;');
    expect(e.reason).toBe('invalidQuery');
    expect(e.message).toMatch(/ at \[2:1\]$/);
    expect(await answer('SELECT COUNT(*) AS n FROM ds.ledger WHERE id = -3')).toEqual([{ n: 0 }]);
  });
});

describe('RETURN (procedural language reference, RETURN)', () => {
  it('RETURN inside nested blocks and loops stops the whole script', async () => {
    const rs = await run('DECLARE i INT64 DEFAULT 0;\nLOOP\n  SET i = i + 1;\n  BEGIN\n    IF i = 2 THEN\n      SELECT i AS last_i;\n      RETURN;\n    END IF;\n  END;\nEND LOOP;\nSELECT -1 AS never;');
    expect(selects(rs)).toEqual([[{ last_i: 2 }]]);
  });
});

describe('CALL (stored procedures: "Work with stored procedures"; recorded routines_scripting/proc_*)', () => {
  beforeAll(async () => {
    await run('CREATE OR REPLACE PROCEDURE ds.p_square(IN x INT64)\nBEGIN\n  SELECT x * x AS sq;\nEND;');
    await run('CREATE OR REPLACE PROCEDURE ds.p_out_double(IN x INT64, OUT y INT64)\nBEGIN\n  SET y = x * 2;\nEND;');
    await run('CREATE OR REPLACE PROCEDURE ds.AddDelta(INOUT x INT64, delta INT64)\nBEGIN\n  SET x = x + delta;\nEND;');
    await run("CREATE OR REPLACE PROCEDURE ds.with_default(IN val STRING, OUT res STRING)\nBEGIN\n  SET res = IFNULL(val, 'default-branch');\nEND;");
    await run("CREATE OR REPLACE PROCEDURE ds.early(OUT r STRING)\nBEGIN\n  SET r = 'before';\n  RETURN;\n  SET r = 'after';\nEND;");
  });

  it('the SELECT a procedure runs is a result of the caller (recorded proc_with_in_param: 81)', async () => {
    const rs = await run('CALL ds.p_square(9)');
    expect(rowsOf(rs[rs.length - 1])).toEqual([{ sq: 81 }]);
  });

  it('OUT writes the caller\'s variable (recorded proc_with_out_param: 42; proc_with_null_default)', async () => {
    expect(await answer('DECLARE result INT64;\nCALL ds.p_out_double(21, result);\nSELECT result AS doubled')).toEqual([{ doubled: 42 }]);
    expect(await answer('DECLARE result STRING;\nCALL ds.with_default(CAST(NULL AS STRING), result);\nSELECT result AS s')).toEqual([{ s: 'default-branch' }]);
  });

  it('INOUT reads and writes the caller\'s variable (CREATE PROCEDURE reference example AddDelta: 0 + 5 + 3 = 8)', async () => {
    expect(await answer('DECLARE accumulator INT64 DEFAULT 0;\nCALL ds.AddDelta(accumulator, 5);\nCALL ds.AddDelta(accumulator, 3);\nSELECT accumulator')).toEqual([{ accumulator: 8 }]);
  });

  it('RETURN in a procedure ends the procedure, not the caller', async () => {
    expect(await answer("DECLARE r STRING;\nCALL ds.early(r);\nSELECT CONCAT(r, ' and caller goes on') AS r")).toEqual([{ r: 'before and caller goes on' }]);
  });

  it('a procedure\'s variables are its own: the caller\'s are not visible inside it', async () => {
    await run('CREATE OR REPLACE PROCEDURE ds.reads_outer()\nBEGIN\n  SELECT outer_v;\nEND;');
    const e = await failure('DECLARE outer_v INT64 DEFAULT 1;\nCALL ds.reads_outer();');
    expect(e.message).toMatch(/^Unrecognized name: outer_v/);
  });
});

describe('EXECUTE IMMEDIATE (procedural language reference, EXECUTE IMMEDIATE)', () => {
  it('INTO several variables at once, with positional USING values', async () => {
    expect(await answer("DECLARE a INT64;\nDECLARE b STRING;\nEXECUTE IMMEDIATE 'SELECT ? + 1, CONCAT(?, \"!\")' INTO a, b USING 41, 'hi';\nSELECT a, b")).toEqual([{ a: 42, b: 'hi!' }]);
  });

  it('a query without INTO is a result of the script at the EXECUTE IMMEDIATE statement\'s span', async () => {
    const sql = "DECLARE n INT64 DEFAULT 2;\nEXECUTE IMMEDIATE 'SELECT @n * 10 AS v' USING n AS n;";
    const rs = await run(sql);
    expect(rs).toHaveLength(1);
    expect(rowsOf(rs[0])).toEqual([{ v: 20 }]);
    const start = Buffer.from(sql).indexOf('EXECUTE');
    expect(rs[0].span).toEqual([start, Buffer.byteLength(sql) - 1]);
  });

  it('a CREATE TEMP TABLE built at run time is visible to the statements after it (reference example: Books)', async () => {
    // TEMP tables live in the request's TEMP scope, which the job layer mints per script (src/jobs/execute.ts).
    const temp: TempScope = { projectId: PROJECT, datasetId: '_script_interpreter_books', tables: new Set() };
    const rs = await run("EXECUTE IMMEDIATE 'CREATE TEMP TABLE Books (title STRING, publish_date INT64)';\nEXECUTE IMMEDIATE \"INSERT INTO Books (title, publish_date) VALUES('Hamlet', 1599)\";\nSELECT title, publish_date FROM Books;", { temp });
    expect(rowsOf(rs[rs.length - 1])).toEqual([{ title: 'Hamlet', publish_date: 1599 }]);
  });
});

describe('transactions ("Multi-statement transactions")', () => {
  beforeAll(async () => {
    await run('CREATE TABLE ds.accounts (id INT64, amount INT64)');
    await run('INSERT INTO ds.accounts (id, amount) VALUES (1, 100)');
  });

  it('ROLLBACK undoes the inserts since BEGIN (recorded routines_scripting/txn_begin_rollback)', async () => {
    const rows = await answer('BEGIN TRANSACTION;\nINSERT INTO ds.accounts (id, amount) VALUES (2, 200);\nINSERT INTO ds.accounts (id, amount) VALUES (3, 300);\nROLLBACK TRANSACTION;\nSELECT id, amount FROM ds.accounts ORDER BY id');
    expect(rows).toEqual([{ id: 1, amount: 100 }]);
  });

  it('a handled error inside an open transaction: the script still sees its insert (recorded routines_scripting/txn_in_exception_block)', async () => {
    await run('CREATE TABLE ds.ledger2 (id INT64, amount INT64)');
    const rows = await answer(`DECLARE outcome STRING DEFAULT 'ok';
BEGIN
  BEGIN TRANSACTION;
  INSERT INTO ds.ledger2 (id, amount) VALUES (1, 100);
  EXECUTE IMMEDIATE 'SELECT 1 / 0';
  COMMIT TRANSACTION;
EXCEPTION WHEN ERROR THEN
  SET outcome = 'caught';
END;
SELECT outcome AS outcome, (SELECT COUNT(*) FROM ds.ledger2) AS row_count`);
    expect(rows).toEqual([{ outcome: 'caught', row_count: 1 }]);
  });

  it('COMMIT keeps NULLs inserted in the transaction (recorded routines_scripting/script_transaction_null_insert shape)', async () => {
    await run('CREATE OR REPLACE TABLE ds.tx_target (id INT64, label STRING)');
    const rs = await run("BEGIN TRANSACTION;\nINSERT INTO ds.tx_target VALUES (1, 'a'), (2, NULL), (3, 'c');\nCOMMIT TRANSACTION;\nSELECT id, label FROM ds.tx_target ORDER BY id;");
    expect(rowsOf(rs[rs.length - 1])).toEqual([{ id: 1, label: 'a' }, { id: 2, label: null }, { id: 3, label: 'c' }]);
    expect(await answer('SELECT COUNT(*) AS n FROM ds.tx_target')).toEqual([{ n: 3 }]);
  });

  it('a transaction left open when the script ends is rolled back', async () => {
    await run('BEGIN TRANSACTION;\nINSERT INTO ds.accounts (id, amount) VALUES (9, 900);');
    expect(await answer('SELECT COUNT(*) AS n FROM ds.accounts WHERE id = 9')).toEqual([{ n: 0 }]);
  });
});

describe('sessions (BigQuery "Write queries in sessions": session variables)', () => {
  it('variables declared outside any block persist for the session\'s next requests; a block\'s do not', async () => {
    // The job layer hands every request of a session the same TEMP scope carrying its state (src/jobs/sessions.ts).
    const temp: TempScope = { projectId: PROJECT, datasetId: '_script_interpreter_session', tables: new Set(), session: newSessionState('session_1') };
    await run('DECLARE v INT64 DEFAULT 42;\nBEGIN\n  DECLARE inner_v INT64 DEFAULT 1;\nEND;', { temp });
    expect(await answer('SET v = v + 1;\nSELECT v AS session_var, @@session_id AS s', { temp })).toEqual([{ session_var: 43, s: 'session_1' }]);
    expect(await answer('SELECT v AS again', { temp })).toEqual([{ again: 43 }]);
    expect((await failure('SELECT inner_v', { temp })).message).toBe('Unrecognized name: inner_v at [1:8]');
  });
});

describe('what a script answers, and its statements\' spans ("Multi-statement queries")', () => {
  it('only SELECT, DML and DDL statements are results, each with its UTF-8 byte span in the request', async () => {
    // Spans are UTF-8 byte offsets (StatementResult.span, src/engine/engine-types.ts): the `é` before
    // the second statement is two bytes.
    const sql = "DECLARE x INT64 DEFAULT 1;\nSELECT 'é' AS a;\nSET x = 2;\nIF x = 2 THEN\n  INSERT INTO ds.ledger VALUES (100, 1);\nEND IF;\nSELECT x AS b";
    const rs = await run(sql);
    const bytes = Buffer.from(sql);
    const span = (text: string) => {
      const start = bytes.indexOf(text);
      return [start, start + Buffer.byteLength(text)];
    };
    expect(rs.map((r) => r.statementType)).toEqual(['SELECT', 'INSERT', 'SELECT']);
    expect(rs.map((r) => r.span)).toEqual([span("SELECT 'é' AS a"), span('INSERT INTO ds.ledger VALUES (100, 1)'), span('SELECT x AS b')]);
    expect(rs[1].numDmlAffectedRows).toBe(1);
    await run('DELETE FROM ds.ledger WHERE id = 100');
  });

  it('a lone SELECT is not a script; the same statement after a DECLARE is', async () => {
    expect(await runScript(engine, 'SELECT 1 AS one', { projectId: PROJECT })).toBeUndefined();
    expect((await run('SELECT 1 AS one')).map((r) => r.statementType)).toEqual(['SELECT']);
    expect((await run('DECLARE x INT64;\nSELECT 1 AS one')).map((r) => r.statementType)).toEqual(['SCRIPT']);
  });

  it('a dry run of a script runs nothing and answers a SCRIPT statement', async () => {
    const rs = await run('INSERT INTO ds.ledger VALUES (-4, -4);\nSELECT 1;', { dryRun: true });
    expect(rs.map((r) => r.statementType)).toEqual(['SCRIPT']);
    expect(await answer('SELECT COUNT(*) AS n FROM ds.ledger WHERE id = -4')).toEqual([{ n: 0 }]);
  });

  it('a runtime error deep in the script carries the script\'s line and column', async () => {
    const e = await failure('DECLARE x INT64 DEFAULT 0;\nBEGIN\n  IF x = 0 THEN\n    SELECT CAST(x AS STRING) || unknown_col;\n  END IF;\nEND;');
    expect(e.message).toBe('Unrecognized name: unknown_col at [4:33]');
    const e2 = await failure("DECLARE x INT64;\nSET x =\n  'not a number';");
    expect(e2.message).toMatch(/^Cannot coerce expression 'not a number' to type INT64 at \[3:3\]/);
  });
});
