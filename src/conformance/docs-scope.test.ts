/**
 * The BigQuery-feature scope of documentation examples (docs-scope.ts) and the acceptance line of
 * the docs report (docs-report.ts).
 */
import { describe, expect, it } from 'vitest';
import type { DocCase, DocOutcome } from './docs.js';
import { formatDocsReport } from './docs-report.js';
import { BIGQUERY_FUNCTIONS, calledFunctions, codeOnly, makeScopeClassifier } from './docs-scope.js';

const mk = (p: Partial<DocCase>): DocCase => ({ id: 'x/y-1', doc: 'string_functions.md', query: 'SELECT 1', kind: 'result', flags: {}, ...p });

describe('docs scope', () => {
  it('BigQuery function list (functions-all) has the BigQuery names and not the ZetaSQL-only ones', () => {
    for (const f of ['LAX_INT64', 'LAX_FLOAT64', 'FLOAT64', 'JSON_FLATTEN', 'COSINE_DISTANCE', 'NET.HOST', 'KEYS.NEW_KEYSET', 'IF', 'COALESCE']) expect(BIGQUERY_FUNCTIONS.has(f)).toBe(true);
    for (const f of ['LAX_INT32', 'LAX_DOUBLE', 'DOUBLE', 'INT32', 'ARRAY_ZIP', 'IFERROR', 'SPLIT_SUBSTR']) expect(BIGQUERY_FUNCTIONS.has(f)).toBe(false);
  });

  it('calls are found outside literals and comments', () => {
    expect(codeOnly(`SELECT 'a -- b', "#x" -- c\n, 1 /* d */`)).toBe(`SELECT '', ''  \n, 1  `);
    expect([...calledFunctions("SELECT SAFE.LAX_INT32(JSON '1'), net.host('x'), 'FLOAT(1)'")].sort()).toEqual(['LAX_INT32', 'NET.HOST']);
  });

  it('classifies by function section, called function, type and syntax section', () => {
    const corpus = [mk({ doc: 'json_functions.md', section: 'LAX_UINT32' }), mk({ doc: 'json_functions.md', section: 'LAX_INT64' })];
    const scope = makeScopeClassifier(corpus);
    expect(scope(mk({ doc: 'json_functions.md', section: 'LAX_UINT32' }))).toEqual({ bigquery: false, reason: 'function LAX_UINT32' });
    expect(scope(mk({ doc: 'json_functions.md', section: 'LAX_INT64', query: "SELECT LAX_INT64(JSON '1')" }))).toEqual({ bigquery: true });
    expect(scope(mk({ doc: 'string_functions.md', section: 'Auto-casting', query: "SELECT REGEXP_EXTRACT_GROUPS('a', 'b')" }))).toEqual({ bigquery: false, reason: 'function REGEXP_EXTRACT_GROUPS' });
    expect(scope(mk({ doc: 'string_functions.md', section: 'REGEXP_MATCH (Deprecated)' }))).toEqual({ bigquery: false, reason: 'function REGEXP_MATCH' });
    expect(scope(mk({ doc: 'statistical_aggregate_functions.md', section: 'CORR', query: "SELECT CORR(y, CAST('Infinity' as DOUBLE))" }))).toEqual({ bigquery: false, reason: 'type DOUBLE' });
    expect(scope(mk({ doc: 'operators.md', section: 'Array elements field access operator' }))).toEqual({ bigquery: false, reason: 'syntax: Array elements field access operator' });
    expect(scope(mk({ doc: 'conditional_expressions.md', section: 'ZEROIFNULL' }))).toEqual({ bigquery: false, reason: 'function ZEROIFNULL' });
    expect(scope(mk({ query: "SELECT 'DOUBLE(1)' AS double_x" }))).toEqual({ bigquery: true });
  });

  it('the report states the acceptance metric over BigQuery-feature cases and the exclusions by reason', () => {
    const o = (id: string, status: 'pass' | 'fail', notBigQuery?: string): DocOutcome => ({ id, doc: 'json_functions.md', group: 'core', status, durationMs: 1, ...(notBigQuery ? { notBigQuery } : {}), ...(status === 'fail' ? { cause: 'value mismatch: STRING' } : {}) });
    const text = formatDocsReport([o('a', 'pass'), o('b', 'fail'), o('c', 'fail', 'function LAX_INT32'), { ...o('d', 'fail'), group: 'pipe' }], {});
    expect(text).toMatch(/BigQuery features \(acceptance metric\)\s+1\/2\s+50\.0%/);
    expect(text).toMatch(/GoogleSQL features BigQuery does not have\s+0\/1/);
    expect(text).toMatch(/not BigQuery, by reason \(docs-scope\.ts\): function LAX_INT32 1/);
    expect(text.trim().split('\n').at(-1)).toBe('1 passed, 3 failed');
  });
});
