/**
 * BigQuery's limits as errors before work starts, and the resource guards behind them, through
 * `@google-cloud/bigquery`: each case asserts BigQuery's reason, HTTP status and text (sources in
 * src/config/limits.ts and the factories of src/errors/errors.ts), and that the emulator still
 * answers `SELECT 1` afterwards. Timing bounds are coarse liveness bounds only (several seconds on
 * a loaded 2-core machine), never performance assertions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  // A small response limit so the responseTooLarge guard is reachable with a small query.
  t = await startTestEmulator({ maxResponseBytes: 4 * 1024 * 1024, dataset: 'lim' });
}, 60_000);
afterAll(async () => {
  await t?.emu.close();
});

async function alive(em: TestEmulator = t): Promise<void> {
  const [rows] = await em.bq.query({ query: 'SELECT 1 AS one' });
  expect(rows).toEqual([{ one: 1 }]);
}

/** The error of a failing query, as the client reports it. */
async function queryError(query: string, em: TestEmulator = t) {
  const e = await errorOf(em.bq.query({ query }));
  return { code: e.code, reason: e.errors?.[0]?.reason, message: e.errors?.[0]?.message ?? e.message };
}

describe('query text limits (checked before analysis)', () => {
  it('a query over 1,024K characters: 400 invalid "The query is too large. …"', async () => {
    const e = await queryError('SELECT 1 -- ' + 'x'.repeat(1024 * 1024));
    expect(e).toEqual({
      code: 400,
      reason: 'invalid',
      message: 'The query is too large. The maximum standard SQL query length is 1024.00K characters, including comments and white space characters.',
    });
    await alive();
  });

  it('3,000 nested ABS( is refused at once with "Out of stack space …" instead of stalling the analyzer', async () => {
    const d = 3000;
    const started = Date.now();
    const e = await queryError('SELECT ' + 'ABS('.repeat(d) + '1' + ')'.repeat(d));
    expect(e).toEqual({ code: 400, reason: 'invalidQuery', message: 'Out of stack space due to deeply nested query expression during query resolution' });
    // Liveness only: the analyzer took ~22 s on this text before the check.
    expect(Date.now() - started).toBeLessThan(5000);
    await alive();
  });

  it('EXECUTE IMMEDIATE checks the statement it built the same way', async () => {
    expect((await queryError("EXECUTE IMMEDIATE CONCAT('SELECT 1 -- ', REPEAT('x', 1048576))")).message).toBe(
      'The query is too large. The maximum standard SQL query length is 1024.00K characters, including comments and white space characters.',
    );
    expect((await queryError("EXECUTE IMMEDIATE CONCAT('SELECT ', REPEAT('(', 2000), '1', REPEAT(')', 2000))")).message).toBe(
      'Out of stack space due to deeply nested query expression during query resolution',
    );
    await alive();
  });

  it('moderately deep expressions decode and run (30-term sums, 200 nested calls)', async () => {
    const [rows] = await t.bq.query({ query: `SELECT ${Array(30).fill('1').join('+')} AS s, ${'ABS('.repeat(200)}-1${')'.repeat(200)} AS a` });
    expect(rows).toEqual([{ s: 30, a: 1 }]);
  });

  it('nesting the analyzer accepts but DuckDB cannot run gets BigQuery\'s text, not DuckDB\'s', async () => {
    const e = await queryError('SELECT ' + 'ABS('.repeat(1000) + '1' + ')'.repeat(1000));
    expect(e).toEqual({ code: 400, reason: 'invalidQuery', message: 'Out of stack space due to deeply nested query expression during query resolution' });
    await alive();
  }, 30_000);

  it('a script of 3,000 nested BEGIN blocks gets the same text (its parse tree is too deep to decode)', async () => {
    const e = await queryError('BEGIN '.repeat(3000) + 'SELECT 1; ' + 'END; '.repeat(3000));
    expect(e).toEqual({ code: 400, reason: 'invalidQuery', message: 'Out of stack space due to deeply nested query expression during query resolution' });
    await alive();
  });

  it('a 20,000-term 1+1+… chain gets the same text from the analyzer', async () => {
    const e = await queryError('SELECT ' + Array(20000).fill('1').join('+'));
    expect(e).toEqual({ code: 400, reason: 'invalidQuery', message: 'Out of stack space due to deeply nested query expression during query resolution' });
    await alive();
  });

  it('brackets inside string literals and comments do not count as nesting', async () => {
    const [rows] = await t.bq.query({ query: `SELECT '${'('.repeat(3000)}' AS s -- ${'['.repeat(3000)}` });
    expect(rows[0].s).toBe('('.repeat(3000));
  });
});

describe('name lengths', () => {
  const long = 'c'.repeat(301);
  const text = `Invalid field name "${long}". Fields must contain the allowed characters, and be at most 300 characters long. For allowed characters, please refer to https://cloud.google.com/bigquery/docs/schemas#column_names`;

  it('tables.insert refuses a column name over 300 characters (also nested) with 400 invalid', async () => {
    for (const schema of [[{ name: long, type: 'INT64' }], [{ name: 's', type: 'RECORD', fields: [{ name: long, type: 'STRING' }] }]]) {
      const e = await errorOf(t.bq.dataset('lim').createTable(`t${schema.length}_${Math.random().toString(36).slice(2, 8)}`, { schema }));
      expect({ code: e.code, reason: e.errors?.[0]?.reason, message: e.errors?.[0]?.message }).toEqual({ code: 400, reason: 'invalid', message: text });
    }
    // 300 characters are allowed.
    const [table] = await t.bq.dataset('lim').createTable('t300', { schema: [{ name: 'c'.repeat(300), type: 'INT64' }] });
    expect(table.id).toBe('t300');
    await alive();
  });

  it('CREATE TABLE and CREATE TABLE AS SELECT refuse a column name over 300 characters', async () => {
    for (const q of [`CREATE TABLE lim.d1 (${long} INT64)`, `CREATE TABLE lim.d2 (s STRUCT<${long} INT64>)`, `CREATE TABLE lim.d3 AS SELECT 1 AS ${long}`])
      expect(await queryError(q), q).toEqual({ code: 400, reason: 'invalid', message: text });
    await alive();
  });
});

describe('table and dataset ids in DDL', () => {
  it('CREATE TABLE / CREATE VIEW / CREATE SCHEMA refuse ids over 1,024 characters with the REST texts', async () => {
    const t1025 = 't'.repeat(1025);
    const d1025 = 'd'.repeat(1025);
    const tableText = `Invalid table ID "${t1025}". Table IDs must be alphanumeric (plus underscores) and must be at most 1024 characters long. Also, Table decorators cannot be used.`;
    expect(await queryError(`CREATE TABLE lim.${t1025} (x INT64)`)).toEqual({ code: 400, reason: 'invalid', message: tableText });
    expect(await queryError(`CREATE VIEW lim.${t1025} AS SELECT 1 AS x`)).toEqual({ code: 400, reason: 'invalid', message: tableText });
    expect(await queryError(`CREATE SCHEMA ${d1025}`)).toEqual({
      code: 400,
      reason: 'invalid',
      message: `Invalid dataset ID "${d1025}". Dataset IDs must be alphanumeric (plus underscores and dashes) and must be at most 1024 characters long.`,
    });
    // The same text tables.insert answers.
    const e = await errorOf(t.bq.dataset('lim').createTable(t1025, { schema: [{ name: 'x', type: 'INT64' }] }));
    expect(e.errors?.[0]?.message).toBe(tableText);
    await t.bq.query({ query: `CREATE TABLE lim.${'t'.repeat(1024)} (x INT64)` });
    await alive();
  });
});

describe('size-amplifying arguments', () => {
  it('APPROX_QUANTILES(x, 1000000000) answers BigQuery\'s error instead of exhausting memory', async () => {
    const e = await queryError('SELECT APPROX_QUANTILES(x, 1000000000) FROM UNNEST([1]) x');
    expect(e).toEqual({ code: 400, reason: 'invalidQuery', message: 'The second argument to APPROX_QUANTILES function cannot be greater than 100000' });
    await alive();
  });

  it('APPROX_TOP_COUNT / APPROX_TOP_SUM refuse a number above 100,000', async () => {
    expect((await queryError('SELECT APPROX_TOP_COUNT(x, 100001) FROM UNNEST([1]) x')).message).toBe(
      'The second argument to APPROX_TOP_COUNT function cannot be greater than 100000',
    );
    expect((await queryError('SELECT APPROX_TOP_SUM(x, 1, 100001) FROM UNNEST([1]) x')).message).toBe(
      'The second argument to APPROX_TOP_SUM function cannot be greater than 100000',
    );
    await alive();
  });

  it('GENERATE_ARRAY / GENERATE_DATE_ARRAY / GENERATE_TIMESTAMP_ARRAY refuse more elements than they generate, constant or not', async () => {
    const text = 'Cannot generate arrays with more than 13107200 elements.';
    for (const q of [
      'SELECT GENERATE_ARRAY(1, 100000000)',
      'SELECT GENERATE_ARRAY(0, 1e12, 0.5)',
      "SELECT GENERATE_TIMESTAMP_ARRAY('2000-01-01', '2001-01-01', INTERVAL 1 SECOND)",
      "SELECT GENERATE_RANGE_ARRAY(RANGE(TIMESTAMP '2000-01-01', TIMESTAMP '2030-01-01'), INTERVAL 1 SECOND)",
      // Computed per row: the guard runs in the lowering, not only on constants.
      'SELECT ARRAY_LENGTH(GENERATE_ARRAY(1, n)) FROM UNNEST([10, 100000000]) n',
    ])
      expect(await queryError(q), q).toEqual({ code: 400, reason: 'invalidQuery', message: text });
    // Below the limit the arrays are built as before.
    const [rows] = await t.bq.query({ query: 'SELECT ARRAY_LENGTH(GENERATE_ARRAY(1, 1000)) AS n, ARRAY_LENGTH(GENERATE_DATE_ARRAY(DATE "2024-01-01", DATE "2024-12-31")) AS d' });
    expect(rows).toEqual([{ n: 1000, d: 366 }]);
    // The usual way to make test rows stays open: 2,000,000 elements are far below the limit.
    const [big] = await t.bq.query({ query: 'SELECT COUNT(*) AS c FROM UNNEST(GENERATE_ARRAY(1, 2000000)) AS x' });
    expect(big).toEqual([{ c: 2000000 }]);
    await alive();
  });

  it('REPEAT, LPAD and RPAD refuse an output over 1 MB, SAFE. returns NULL', async () => {
    expect(await queryError("SELECT REPEAT('ab', 524289)")).toEqual({ code: 400, reason: 'invalidQuery', message: 'Output of REPEAT exceeds max allowed output size of 1MB' });
    expect((await queryError("SELECT REPEAT(s, n) FROM UNNEST([STRUCT('abc' AS s, 2 AS n), ('x', 2000000)])")).message).toBe(
      'Output of REPEAT exceeds max allowed output size of 1MB',
    );
    expect((await queryError("SELECT LPAD('a', 2000000)")).message).toBe('Output of LPAD/RPAD exceeds max allowed output size of 1MB');
    expect((await queryError("SELECT RPAD(b'a', 1048577)")).message).toBe('Output of LPAD/RPAD exceeds max allowed output size of 1MB');
    const [rows] = await t.bq.query({ query: "SELECT SAFE.REPEAT('a', 2000000) AS r, LENGTH(REPEAT('ab', 524288)) AS n, REPEAT('', 9000000000000000000) AS e" });
    expect(rows).toEqual([{ r: null, n: 1048576, e: '' }]);
    await alive();
  });
});

describe('recursive CTEs', () => {
  it('500 iterations run; a recursion that still produces rows after 500 fails with BigQuery\'s limit error', async () => {
    const [rows] = await t.bq.query({ query: 'WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 501) SELECT COUNT(*) AS c, MAX(n) AS m FROM r' });
    expect(rows).toEqual([{ c: 501, m: 501 }]);
    const e = await queryError('WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r) SELECT COUNT(*) FROM r');
    expect(e).toEqual({ code: 400, reason: 'invalidQuery', message: 'Recursive query exceeded the maximum number of iterations (500).' });
    await alive();
  });
});

describe('resource guards', () => {
  it('a result past the response limit fails alone with 403 responseTooLarge', async () => {
    const e = await queryError("SELECT REPEAT('x', 1000) AS s FROM UNNEST(GENERATE_ARRAY(1, 10000))");
    expect(e).toEqual({ code: 403, reason: 'responseTooLarge', message: 'Response too large to return. Consider specifying a destination table in your job configuration.' });
    await alive();
  });

  it('kept results are bounded by bytes: an older large result expires, the newest is always kept', async () => {
    const small = await startTestEmulator({ projectId: 'bytes-small', resultLimits: { maxBytes: 1024 * 1024 } });
    try {
      const big = "SELECT REPEAT('x', 1000) AS s FROM UNNEST(GENERATE_ARRAY(1, 600))"; // ≈0.6 MB of row text: two pass 1 MB
      const [first] = await small.bq.createQueryJob({ query: big });
      await first.getQueryResults();
      const [second] = await small.bq.createQueryJob({ query: big });
      const [rows] = await second.getQueryResults();
      expect(rows).toHaveLength(600);
      const e = await errorOf(first.getQueryResults());
      expect(e.code).toBe(404);
      expect(e.message).toMatch(/^Not found: Table bytes-small:_[0-9a-f]+\.anon[0-9a-f_]+ was not found in location US$/);
    } finally {
      await small.emu.close();
    }
  }, 60_000);

  it('a result page stops at 10 MB of row text and continues with a page token', async () => {
    const wide = await startTestEmulator({ projectId: 'pages' });
    try {
      // 15 rows of ≈1 MB of text: 10 fit in a 10 MB page, the other 5 follow.
      const [job] = await wide.bq.createQueryJob({ query: "SELECT n, REPEAT('x', 1000000) AS s FROM UNNEST(GENERATE_ARRAY(1, 15)) n ORDER BY n" });
      const [rows, next] = (await job.getQueryResults({ autoPaginate: false })) as unknown as [{ n: number }[], { pageToken?: string } | null];
      expect(rows.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(next?.pageToken).toBeTruthy();
      const [rest] = (await job.getQueryResults({ ...next, autoPaginate: false })) as unknown as [{ n: number }[]];
      expect(rest.map((r) => r.n)).toEqual([11, 12, 13, 14, 15]);
    } finally {
      await wide.emu.close();
    }
  }, 60_000);

  it('tabledata.list of a stored value over 100 MB answers 403 responseTooLarge instead of decoding it', async () => {
    const parts = Array.from({ length: 110 }, () => "REPEAT('x', 1000000)").join(', ');
    await t.bq.query({ query: `CREATE TABLE lim.big AS SELECT CONCAT(${parts}) AS s` });
    const e = await errorOf(t.bq.dataset('lim').table('big').getRows());
    expect({ code: e.code, reason: e.errors?.[0]?.reason, message: e.errors?.[0]?.message }).toEqual({
      code: 403,
      reason: 'responseTooLarge',
      message: 'Response too large to return. Consider specifying a destination table in your job configuration.',
    });
    await t.bq.query({ query: 'DROP TABLE lim.big' });
    await alive();
  }, 60_000);

  it('STRING_AGG past BigQuery\'s 100 MB row size fails in DuckDB before anything decodes it', async () => {
    const e = await queryError("SELECT LENGTH(STRING_AGG(REPEAT('x', 1000000), '')) FROM UNNEST(GENERATE_ARRAY(1, 110))");
    expect(e).toEqual({ code: 400, reason: 'resourcesExceeded', message: 'Resources exceeded during query execution: The query could not be executed in the allotted memory' });
    const [rows] = await t.bq.query({ query: "SELECT LENGTH(STRING_AGG(REPEAT('x', 1000000), '')) AS n FROM UNNEST(GENERATE_ARRAY(1, 3))" });
    expect(rows).toEqual([{ n: 3000000 }]);
    await alive();
  }, 60_000);

  it('a query larger than DuckDB\'s memory limit spills to the temp directory and answers', async () => {
    const small = await startTestEmulator({ memoryLimit: '200MB' });
    try {
      // ≈1 GB of distinct strings to hash under a 200 MB limit.
      const [rows] = await small.bq.query({ query: "SELECT COUNT(DISTINCT CONCAT(CAST(x AS STRING), REPEAT('y', 1000))) AS n FROM UNNEST(GENERATE_ARRAY(1, 1000000)) x" });
      expect(rows).toEqual([{ n: 1000000 }]);
    } finally {
      await small.emu.close();
    }
  }, 60_000);

  it('a query past DuckDB\'s memory limit fails with "Resources exceeded during query execution" and the emulator keeps serving', async () => {
    const small = await startTestEmulator({ memoryLimit: '64MB' });
    try {
      // 90 MB: below the 100 MB value guard, above the memory limit.
      const e = await queryError("SELECT LENGTH(STRING_AGG(REPEAT('x', 1000000))) FROM UNNEST(GENERATE_ARRAY(1, 90))", small);
      expect(e).toEqual({ code: 400, reason: 'resourcesExceeded', message: 'Resources exceeded during query execution: The query could not be executed in the allotted memory' });
      await alive(small);
    } finally {
      await small.emu.close();
    }
  }, 60_000);
});
