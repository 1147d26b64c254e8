/**
 * Functions of BigQuery's function list that the bundled analyzer lacks, through the real client:
 * CONTAINS_SUBSTR, BAG_OF_WORDS and TEXT_ANALYZE (declared in src/analyzer/catalog-functions.ts),
 * and the functions refused by name with their reason. Expected values: the examples of BigQuery's
 * string functions page (string_functions#contains_substr), text analysis functions page
 * (text-analysis-functions#bag_of_words, #text_analyze) and Text analysis page (text-analysis:
 * analyzers, delimiters, token filters); a few cases worked out by hand from the documented rules
 * (cross-field NULL rule, recursive search, casts to STRING, longest delimiter first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string, params?: Record<string, unknown>) => (await t.bq.query({ query, params, wrapIntegers: false }))[0] as Record<string, unknown>[];
const one = async (query: string) => (await q(query))[0];

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

const RECIPES = `WITH Recipes AS
 (SELECT 'Blueberry pancakes' as Breakfast, 'Egg salad sandwich' as Lunch, 'Potato dumplings' as Dinner UNION ALL
  SELECT 'Potato pancakes', 'Toasted cheese sandwich', 'Beef stroganoff' UNION ALL
  SELECT 'Ham scramble', 'Steak avocado salad', 'Tomato pasta' UNION ALL
  SELECT 'Avocado toast', 'Tomato soup', 'Blueberry salmon' UNION ALL
  SELECT 'Corned beef hash', 'Lentil potato soup', 'Glazed ham')`;

describe('CONTAINS_SUBSTR (string_functions#contains_substr)', () => {
  it('normalized, case-insensitive search of a STRING (docs examples)', async () => {
    expect(await one(`SELECT CONTAINS_SUBSTR('the blue house', 'Blue house') AS r`)).toEqual({ r: true });
    expect(await one(`SELECT CONTAINS_SUBSTR('the blue house', CONCAT('Blue ', 'house')) AS r`)).toEqual({ r: true });
    expect(await one(`SELECT CONTAINS_SUBSTR('the red house', 'blue') AS r`)).toEqual({ r: false });
    // Ⅸ (U+2168) and IX are the same after NFKC normalization and case folding.
    expect(await one(`SELECT '\\u2168 day' AS a, 'IX' AS b, CONTAINS_SUBSTR('\\u2168', 'IX') AS result`)).toEqual({ a: 'Ⅸ day', b: 'IX', result: true });
  });

  it('cross-field search of STRUCTs and ARRAYs with the NULL rule (docs examples)', async () => {
    expect(await one(`SELECT CONTAINS_SUBSTR((23, 35, 41), '35') AS r`)).toEqual({ r: true });
    expect(await one(`SELECT CONTAINS_SUBSTR(('abc', ['def', 'ghi', 'jkl'], 'mno'), 'jk') AS r`)).toEqual({ r: true });
    expect(await one(`SELECT CONTAINS_SUBSTR((23, NULL, 41), '41') AS r`)).toEqual({ r: true });
    expect(await one(`SELECT CONTAINS_SUBSTR((23, NULL, 41), '35') AS r`)).toEqual({ r: null });
  });

  it('NULL expressions, empty arrays, nested arrays and cast leaves (worked from the documented rules)', async () => {
    const row = await one(`SELECT
      CONTAINS_SUBSTR(CAST(NULL AS STRING), 'x') AS null_string,
      CONTAINS_SUBSTR(CAST(NULL AS STRUCT<a STRING>), 'x') AS null_struct,
      CONTAINS_SUBSTR(CAST([] AS ARRAY<STRING>), 'x') AS empty_array,
      CONTAINS_SUBSTR(['a', NULL], 'x') AS array_with_null,
      CONTAINS_SUBSTR(['a', NULL], 'A') AS array_match,
      CONTAINS_SUBSTR([STRUCT([1, 22] AS x)], '22') AS nested,
      CONTAINS_SUBSTR(DATE '2024-01-02', '01-0') AS date_text,
      CONTAINS_SUBSTR(NUMERIC '1.50', '1.5') AS numeric_text,
      CONTAINS_SUBSTR(TRUE, 'RU') AS bool_text,
      CONTAINS_SUBSTR(1e20, '1e+20') AS float_text,
      CONTAINS_SUBSTR(INTERVAL 49 HOUR, '49:0:0') AS interval_text`);
    expect(row).toEqual({
      null_string: null, null_struct: null, empty_array: false, array_with_null: null, array_match: true,
      nested: true, date_text: true, numeric_text: true, bool_text: true, float_text: true, interval_text: true,
    });
  });

  it('searches every column of a table reference, or a STRUCT of some (docs Recipes examples)', async () => {
    expect(await q(`${RECIPES} SELECT * FROM Recipes WHERE CONTAINS_SUBSTR(Recipes, 'toast') ORDER BY Breakfast`)).toEqual([
      { Breakfast: 'Avocado toast', Lunch: 'Tomato soup', Dinner: 'Blueberry salmon' },
      { Breakfast: 'Potato pancakes', Lunch: 'Toasted cheese sandwich', Dinner: 'Beef stroganoff' },
    ]);
    expect(await q(`${RECIPES} SELECT * FROM Recipes WHERE CONTAINS_SUBSTR((Lunch, Dinner), 'potato') ORDER BY Breakfast`)).toEqual([
      { Breakfast: 'Blueberry pancakes', Lunch: 'Egg salad sandwich', Dinner: 'Potato dumplings' },
      { Breakfast: 'Corned beef hash', Lunch: 'Lentil potato soup', Dinner: 'Glazed ham' },
    ]);
    expect(await q(`${RECIPES} SELECT * FROM Recipes WHERE CONTAINS_SUBSTR((SELECT AS STRUCT Recipes.* EXCEPT (Lunch, Dinner)), 'potato')`)).toEqual([
      { Breakfast: 'Potato pancakes', Lunch: 'Toasted cheese sandwich', Dinner: 'Beef stroganoff' },
    ]);
  });

  it('JSON keys and values by json_scope (docs examples)', async () => {
    const j = `JSON '{"lunch":"soup"}'`;
    expect(await one(`SELECT CONTAINS_SUBSTR(${j}, "lunch") AS result`)).toEqual({ result: false });
    expect(await one(`SELECT CONTAINS_SUBSTR(${j}, "lunch", json_scope=>"JSON_VALUES") AS result`)).toEqual({ result: false });
    expect(await one(`SELECT CONTAINS_SUBSTR(${j}, "lunch", json_scope=>"JSON_KEYS_AND_VALUES") AS result`)).toEqual({ result: true });
    expect(await one(`SELECT CONTAINS_SUBSTR(${j}, "lunch", json_scope=>"JSON_KEYS") AS result`)).toEqual({ result: true });
    // Nested keys and values are searched too; the search is case-insensitive.
    expect(await one(`SELECT CONTAINS_SUBSTR(JSON '{"a":[{"Deep":"Soup"}]}', 'SOU') AS v, CONTAINS_SUBSTR(JSON '{"a":[{"Deep":"Soup"}]}', 'deep', json_scope=>'JSON_KEYS') AS k`)).toEqual({ v: true, k: true });
  });

  it('a NULL search value is an analysis error; an unlisted type is refused by name', async () => {
    const e = await errorOf(q(`SELECT CONTAINS_SUBSTR('hello', NULL) AS result`));
    expect(e.code).toBe(400);
    expect(e.errors?.[0]?.reason).toBe('invalidQuery');
    const f = await errorOf(q(`SELECT CONTAINS_SUBSTR(b'abc', 'a') AS result`));
    expect(f.code).toBe(400);
    expect(f.message).toMatch(/^Function CONTAINS_SUBSTR over a BYTES value is not supported by bqemu/);
  });
});

describe('BAG_OF_WORDS (text-analysis-functions#bag_of_words)', () => {
  it('counts each term, NULL first (docs example)', async () => {
    const rows = await q(`WITH
      ExampleTable AS (
        SELECT 1 AS id, ['I', 'like', 'pie', 'pie', 'pie', NULL] AS f UNION ALL
        SELECT 2 AS id, ['yum', 'yum', 'pie', NULL] AS f
      )
    SELECT id, BAG_OF_WORDS(f) AS results
    FROM ExampleTable
    ORDER BY id`);
    expect(rows).toEqual([
      { id: 1, results: [{ term: null, count: 1 }, { term: 'I', count: 1 }, { term: 'like', count: 1 }, { term: 'pie', count: 3 }] },
      { id: 2, results: [{ term: null, count: 1 }, { term: 'pie', count: 1 }, { term: 'yum', count: 2 }] },
    ]);
    expect(await one(`SELECT ARRAY_LENGTH(BAG_OF_WORDS(CAST([] AS ARRAY<STRING>))) AS n`)).toEqual({ n: 0 });
  });
});

const PIE = `'I like pie, you like-pie, they like 2 PIEs.'`;
const PIES = `'I like ❶ ② pies, you like Ño PIEs'`;

describe('TEXT_ANALYZE (text-analysis-functions#text_analyze, text-analysis)', () => {
  it('LOG_ANALYZER (default), NO_OP_ANALYZER and PATTERN_ANALYZER (docs examples)', async () => {
    expect(await one(`SELECT TEXT_ANALYZE(${PIE}) AS results`)).toEqual({ results: ['i', 'like', 'pie', 'you', 'like', 'pie', 'they', 'like', '2', 'pies'] });
    expect(await one(`SELECT TEXT_ANALYZE(${PIE}, analyzer=>'LOG_ANALYZER') AS results`)).toEqual({ results: ['i', 'like', 'pie', 'you', 'like', 'pie', 'they', 'like', '2', 'pies'] });
    expect(await one(`SELECT TEXT_ANALYZE(${PIE}, analyzer=>'NO_OP_ANALYZER') AS results`)).toEqual({ results: ['I like pie, you like-pie, they like 2 PIEs.'] });
    expect(await one(`SELECT TEXT_ANALYZE(${PIE}, analyzer=>'PATTERN_ANALYZER') AS results`)).toEqual({ results: ['like', 'pie', 'you', 'like', 'pie', 'they', 'like', 'pies'] });
  });

  it('delimiters and token filters (docs examples)', async () => {
    expect(await one(`SELECT TEXT_ANALYZE(${PIE}, analyzer=>'LOG_ANALYZER', analyzer_options=>'{"delimiters": [",", ".", "-"]}') AS results`)).toEqual({
      results: ['i like pie', 'you like', 'pie', 'they like 2 pies'],
    });
    const nfkcThenStop = `{"token_filters": [{"normalizer": {"mode": "ICU_NORMALIZE", "icu_normalize_mode": "NFKC", "icu_case_folding": true}}, {"stop_words": ["pies", "2"]}]}`;
    expect(await one(`SELECT TEXT_ANALYZE(${PIES}, analyzer=>'LOG_ANALYZER', analyzer_options=>'''${nfkcThenStop}''') AS results`)).toEqual({ results: ['i', 'like', '❶', 'you', 'like', 'ño'] });
    const stopThenNfkc = `{"token_filters": [{"stop_words": ["pies", "2"]}, {"normalizer": {"mode": "ICU_NORMALIZE", "icu_normalize_mode": "NFKC", "icu_case_folding": true}}]}`;
    expect(await one(`SELECT TEXT_ANALYZE(${PIES}, analyzer=>'LOG_ANALYZER', analyzer_options=>'''${stopThenNfkc}''') AS results`)).toEqual({ results: ['i', 'like', '❶', '2', 'you', 'like', 'ño', 'pies'] });
    expect(await one(`SELECT TEXT_ANALYZE(${PIES}, analyzer_options=>'{"token_filters": [{"normalizer": {"mode": "NONE"}}]}') AS results`)).toEqual({ results: ['I', 'like', '❶', '②', 'pies', 'you', 'like', 'Ño', 'PIEs'] });
    expect(await one(`SELECT TEXT_ANALYZE(${PIES}, analyzer_options=>'{"token_filters": [{"normalizer": {"mode": "LOWER"}}]}') AS results`)).toEqual({ results: ['i', 'like', '❶', '②', 'pies', 'you', 'like', 'Ño', 'pies'] });
    expect(await one(`SELECT TEXT_ANALYZE(${PIES}, analyzer_options=>'{"token_filters": [{"normalizer": {"mode": "UNICODE_LOWER"}}]}') AS results`)).toEqual({ results: ['i', 'like', '❶', '②', 'pies', 'you', 'like', 'ño', 'pies'] });
    expect(await one(`SELECT TEXT_ANALYZE(${PIE}, analyzer_options=>'{"token_filters": [{"stop_words": ["they", "pie"]}]}') AS results`)).toEqual({ results: ['I', 'like', 'you', 'like', 'like', '2', 'PIEs'] });
    // The longest default delimiter wins: %2c and %2C before %.
    expect(await one(`SELECT TEXT_ANALYZE('a%21b%2cc%2Cd') AS results`)).toEqual({ results: ['a', 'b', 'c', 'd'] });
  });

  it('an unknown analyzer or an option the analyzer does not take fails the query', async () => {
    const e = await errorOf(q(`SELECT TEXT_ANALYZE('x', analyzer=>'BAD_ANALYZER') AS r`));
    expect(e.code).toBe(400);
    expect(e.message).toMatch(/BAD_ANALYZER/);
    const f = await errorOf(q(`SELECT TEXT_ANALYZE('x', analyzer=>'NO_OP_ANALYZER', analyzer_options=>'{"delimiters": ["a"]}') AS r`));
    expect(f.code).toBe(400);
    expect(f.message).toMatch(/delimiters/);
  });
});

describe('functions of BigQuery\'s list refused by name', () => {
  it.each([
    ['SELECT OBJ.MAKE_REF("gs://b/o", "us.conn") AS r', /^Function OBJ\.MAKE_REF \(ObjectRef values need Cloud Storage/],
    ['SELECT * FROM APPENDS(TABLE d.t, NULL, NULL)', /^Function APPENDS \(.*change history.*\) is not supported by bqemu$/],
    ['SELECT KLL_QUANTILES.INIT_INT64(x, 10) AS s FROM UNNEST([1, 2]) AS x', /^Function KLL_QUANTILES\.INIT_INT64 \(KLL sketches/],
    ['SELECT SEARCH("a b", "a") AS r', /^Function SEARCH \(.*text analyzers.*\) is not supported by bqemu$/],
    ['SELECT AI.GENERATE("hello") AS r', /^Function AI\.GENERATE \(.*Vertex AI.*\) is not supported by bqemu$/],
    ['SELECT TF_IDF(["a"]) OVER () AS r', /^Function TF_IDF \(/],
  ])('%s', async (sql, message) => {
    const e = await errorOf(q(sql));
    expect(e.code).toBe(400);
    expect(e.errors?.[0]?.reason).toBe('invalidQuery');
    expect(e.message).toMatch(message);
  });

  it('a routine of the same name in a dataset is still called', async () => {
    const ds = `refused_names_${Date.now()}`;
    await t.bq.createDataset(ds);
    await q(`CREATE FUNCTION ${ds}.search(x STRING) AS (CONCAT(x, '!'))`);
    expect(await one(`SELECT ${ds}.search('a') AS r`)).toEqual({ r: 'a!' });
    expect(await one(`CREATE TEMP FUNCTION labels(x INT64) AS (x + 1); SELECT labels(1) AS r`)).toEqual({ r: 2 });
  });
});
