/**
 * `npm run functions:coverage -- --where NAME` (scripts/functions-coverage.ts): where a function
 * lives in the function table. The files are named after BigQuery's function reference pages
 * (REGEXP_EXTRACT: string_functions#regexp_extract; ST_BUFFER: geography_functions#st_buffer).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { analyzerBuiltins, bigQueryListAccounting, whereIs } from '../scripts/functions-coverage.js';
import { AnalyzerClient } from '../src/analyzer/client.js';
import { BIGQUERY_FUNCTIONS } from '../src/conformance/docs-scope.js';

describe('functions:coverage --where', () => {
  it('names the category file and table entry of an implemented function', () => {
    expect(whereIs('regexp_extract')).toBe('src/functions/string-regexp.ts (STRING_REGEXP_FUNCTIONS.regexp_extract)');
    expect(whereIs('REGEXP_EXTRACT')).toBe('src/functions/string-regexp.ts (STRING_REGEXP_FUNCTIONS.regexp_extract)');
    expect(whereIs('ZetaSQL:$add')).toBe('src/functions/operators.ts (OPERATOR_FUNCTIONS.$add)');
  });

  it('reports a rejected function with its reason', () => {
    expect(whereIs('st_buffer')).toMatch(/^rejected: .*S2BufferOperation.* \(src\/functions\/geography-transformations\.ts, GEOGRAPHY_TRANSFORMATION_FUNCTIONS\.st_buffer\)$/);
  });

  it('reports a name no category file declares', () => {
    expect(whereIs('no_such_function')).toBe('not registered');
  });
});

/**
 * `npm run functions:coverage` on BigQuery's function list (src/conformance/docs-scope.ts
 * BIGQUERY_FUNCTIONS): every name is implemented, added through the catalog or refused by name
 * with a reason, against the bundled analyzer's real builtin list.
 */
describe("functions:coverage on BigQuery's function list", () => {
  let analyzer: AnalyzerClient | undefined;
  afterAll(() => analyzer?.stop());

  it('leaves no name of the list unaccounted for', async () => {
    analyzer = new AnalyzerClient();
    await analyzer.start();
    const bq = bigQueryListAccounting(await analyzerBuiltins(analyzer));
    expect(bq.unaccounted).toEqual([]);
    expect(bq.implemented.size + bq.added.length + bq.refused.length).toBe(BIGQUERY_FUNCTIONS.size);
    // Added through the catalog: functions the ~2023 analyzer lacks.
    expect(bq.added).toEqual(expect.arrayContaining(['CONTAINS_SUBSTR', 'BAG_OF_WORDS', 'TEXT_ANALYZE', 'MIN_BY', 'EDIT_DISTANCE']));
    // Aliases and syntax forms count as implemented.
    expect(bq.implemented.get('CEILING')).toBe('ceil');
    expect(bq.implemented.get('CASE')).toBe('$case_no_value, $case_with_value');
    // Refused by name, each with its reason.
    const refused = new Map(bq.refused);
    for (const n of ['VECTOR_SEARCH', 'OBJ.MAKE_REF', 'KLL_QUANTILES.INIT_INT64', 'LABELS', 'APPENDS', 'DLP_KEY_CHAIN', 'KEYS.KEYSET_CHAIN'])
      expect(refused.get(n), n).toMatch(/\w/);
    for (const n of ['CONTAINS_SUBSTR', 'BAG_OF_WORDS', 'TEXT_ANALYZE', 'ABS']) expect(refused.has(n)).toBe(false);
  });
});
