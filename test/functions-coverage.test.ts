/**
 * `npm run functions:coverage -- --where NAME` (scripts/functions-coverage.ts): where a function
 * lives in the function table. The files are named after BigQuery's function reference pages
 * (REGEXP_EXTRACT: string_functions#regexp_extract; ST_BUFFER: geography_functions#st_buffer).
 */
import { describe, expect, it } from 'vitest';
import { whereIs } from '../scripts/functions-coverage.js';

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
