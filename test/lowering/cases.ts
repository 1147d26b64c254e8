/**
 * The lowering golden cases (test/lowering-golden.test.ts): a GoogleSQL query over `ds.t`
 * (test/lowering/harness.ts TABLE), the golden file its DuckDB SQL is kept in
 * (test/lowering/<name>.golden.sql), and where the expected answer comes from:
 * - `evaluator`: the ZetaSQL reference evaluator (`EvaluateQuery`) runs the same GoogleSQL query
 *   over the same rows (`evaluatorSql` when it needs another spelling, said why);
 * - `doc`: rows printed in a BigQuery documentation page (the page's URL and example).
 */
import type { Value } from '../../src/types/types.js';
import type { Binding } from './harness.js';

export interface GoldenCase {
  name: string;
  sql: string;
  /** The query's ORDER BY makes row order part of the answer. */
  ordered?: boolean;
  params?: Binding[];
  /** Script variables (DECLAREd names, resolved as catalog constants). */
  variables?: Binding[];
  /** System variables by dotted path (`time_zone`). */
  systemVariables?: Binding[];
  reference: { evaluator: true; evaluatorSql?: string; why?: string } | { doc: string; rows: Value[][] };
}

const INT64 = { kind: 'INT64' } as const;
const STRING = { kind: 'STRING' } as const;

export const CASES: GoldenCase[] = [
  { name: 'table-scan', sql: 'SELECT id, s FROM ds.t', reference: { evaluator: true } },
  { name: 'filter-scan', sql: 'SELECT id, x FROM ds.t WHERE id > 2 AND s IS NOT NULL', reference: { evaluator: true } },
  { name: 'order-by-scan', sql: 'SELECT id, x FROM ds.t ORDER BY x DESC', ordered: true, reference: { evaluator: true } },
  { name: 'order-by-nulls-last', sql: 'SELECT id, s FROM ds.t ORDER BY s NULLS LAST, id', ordered: true, reference: { evaluator: true } },
  { name: 'limit-offset-scan', sql: 'SELECT id FROM ds.t ORDER BY id LIMIT 2 OFFSET 1', ordered: true, reference: { evaluator: true } },
  { name: 'single-row-scan', sql: "SELECT 1 + 2 AS three, CONCAT('a', 'b') AS ab, NULL AS n", reference: { evaluator: true } },
  { name: 'join-scan-inner', sql: 'SELECT a.id AS l, b.id AS r FROM ds.t AS a JOIN ds.t AS b ON a.k = b.k AND a.id < b.id', reference: { evaluator: true } },
  { name: 'join-scan-left', sql: "SELECT a.id AS l, b.id AS r FROM ds.t AS a LEFT JOIN ds.t AS b ON a.id = b.id + 1 AND b.k = 'p'", reference: { evaluator: true } },
  { name: 'join-scan-cross', sql: 'SELECT a.id AS l, b.id AS r FROM ds.t AS a CROSS JOIN ds.t AS b WHERE a.id + b.id = 4', reference: { evaluator: true } },
  { name: 'array-scan', sql: 'SELECT e, o FROM UNNEST([30, 10, 20]) AS e WITH OFFSET AS o', reference: { evaluator: true } },
  { name: 'array-scan-correlated', sql: 'SELECT id, e FROM ds.t, UNNEST([id, id * 10]) AS e WHERE id < 3', reference: { evaluator: true } },
  { name: 'aggregate-scan', sql: 'SELECT k, COUNT(*) AS n, SUM(id) AS total, MAX(s) AS top FROM ds.t GROUP BY k', reference: { evaluator: true } },
  { name: 'aggregate-scan-no-keys', sql: 'SELECT COUNT(s) AS n, MIN(x) AS lo, COUNT(DISTINCT k) AS kinds FROM ds.t', reference: { evaluator: true } },
  {
    name: 'aggregate-scan-grouping-sets-rollup',
    sql: `WITH
  Products AS (
    SELECT 'shirt' AS product_type, 't-shirt' AS product_name, 3 AS product_count UNION ALL
    SELECT 'shirt', 't-shirt', 8 UNION ALL
    SELECT 'shirt', 'polo', 25 UNION ALL
    SELECT 'pants', 'jeans', 6
  )
SELECT product_type, product_name, SUM(product_count) AS product_sum
FROM Products
GROUP BY GROUPING SETS (
  product_type,
  ROLLUP (product_type, product_name))
ORDER BY product_type, product_name`,
    ordered: true,
    // The reference evaluator leaves grouping sets unimplemented ("grouping_set_list not accessed").
    reference: {
      doc: 'https://cloud.google.com/bigquery/docs/reference/standard-sql/query-syntax#group_by_grouping_sets ("GROUP BY with GROUPING SETS and ROLLUP")',
      rows: [
        [null, null, 42n], ['pants', null, 6n], ['pants', null, 6n], ['pants', 'jeans', 6n],
        ['shirt', null, 36n], ['shirt', null, 36n], ['shirt', 'polo', 25n], ['shirt', 't-shirt', 11n],
      ],
    },
  },
  {
    name: 'aggregation-threshold-scan',
    sql: `WITH ExamTable AS (
  SELECT "Hansen" AS last_name, "P91" AS test_id, 510 AS test_score UNION ALL
  SELECT "Wang", "U25", 500 UNION ALL SELECT "Wang", "C83", 520 UNION ALL SELECT "Wang", "U25", 460 UNION ALL
  SELECT "Hansen", "C83", 420 UNION ALL SELECT "Hansen", "C83", 560 UNION ALL SELECT "Devi", "U25", 580 UNION ALL
  SELECT "Devi", "P91", 480 UNION ALL SELECT "Ivanov", "U25", 490 UNION ALL SELECT "Ivanov", "P91", 540 UNION ALL
  SELECT "Silva", "U25", 550)
SELECT WITH AGGREGATION_THRESHOLD OPTIONS(threshold=3, privacy_unit_column=last_name)
  test_id, COUNT(DISTINCT last_name) AS student_count, AVG(test_score) AS avg_test_score
FROM ExamTable GROUP BY test_id`,
    // The reference evaluator has no AggregationThresholdAggregateScan ("Unhandled node type").
    reference: {
      doc: 'https://cloud.google.com/bigquery/docs/reference/standard-sql/query-syntax#agg_threshold_clause (first example)',
      rows: [['P91', 3n, 510], ['U25', 4n, 516]],
    },
  },
  { name: 'analytic-scan', sql: 'SELECT id, SUM(id) OVER (PARTITION BY k ORDER BY id) AS running, ROW_NUMBER() OVER (ORDER BY id DESC) AS rn FROM ds.t', reference: { evaluator: true } },
  { name: 'analytic-scan-frame', sql: 'SELECT id, SUM(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS w FROM ds.t', reference: { evaluator: true } },
  { name: 'set-operation-union-all-inline', sql: 'SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3', reference: { evaluator: true } },
  { name: 'set-operation-union-distinct', sql: 'SELECT k FROM ds.t UNION DISTINCT SELECT s FROM ds.t WHERE id = 1', reference: { evaluator: true } },
  { name: 'set-operation-except', sql: "SELECT id FROM ds.t EXCEPT DISTINCT SELECT id FROM ds.t WHERE k = 'p'", reference: { evaluator: true } },
  { name: 'set-operation-intersect', sql: 'SELECT id FROM ds.t INTERSECT DISTINCT SELECT id + 1 FROM ds.t', reference: { evaluator: true } },
  { name: 'with-scan', sql: 'WITH w AS (SELECT id, k FROM ds.t WHERE id < 4) SELECT a.id, b.k FROM w AS a JOIN w AS b USING (id)', reference: { evaluator: true } },
  { name: 'recursive-scan', sql: 'WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r', reference: { evaluator: true } },
  { name: 'parameter', sql: 'SELECT @p * 2 AS y, id FROM ds.t WHERE id = @p', params: [{ name: 'p', type: INT64, value: 3n }], reference: { evaluator: true } },
  {
    name: 'constant-script-variable',
    sql: 'SELECT v * 2 AS y FROM ds.t WHERE id = v',
    variables: [{ name: 'v', type: INT64, value: 2n }],
    // A script variable (DECLARE v INT64 DEFAULT 2) has no spelling outside a script: the
    // evaluator reads the same value as the query parameter @v.
    reference: { evaluator: true, evaluatorSql: 'SELECT @v * 2 AS y FROM ds.t WHERE id = @v', why: 'script variable as a parameter' },
  },
  {
    name: 'system-variable',
    sql: 'SELECT @@time_zone AS tz',
    systemVariables: [{ name: 'time_zone', type: STRING, value: 'UTC' }],
    // "At the start of each script, @@time_zone begins as UTC".
    reference: { doc: 'https://cloud.google.com/bigquery/docs/reference/system-variables (@@time_zone)', rows: [['UTC']] },
  },
  { name: 'cast', sql: "SELECT CAST(id AS STRING) AS c, SAFE_CAST(s AS INT64) AS n, CAST('7' AS INT64) AS seven FROM ds.t", reference: { evaluator: true } },
  { name: 'make-struct-get-struct-field', sql: 'SELECT STRUCT(id AS a, s AS b).b AS b, STRUCT(id, k) AS st FROM ds.t', reference: { evaluator: true } },
  {
    name: 'subquery-expr',
    sql: `SELECT id, (SELECT MAX(id) FROM ds.t) AS m, EXISTS(SELECT 1 FROM ds.t WHERE id > 4) AS e,
  id IN (SELECT id FROM ds.t WHERE k = 'p') AS i, ARRAY(SELECT u.id FROM ds.t AS u WHERE u.id <= t.id ORDER BY u.id) AS a
FROM ds.t`,
    reference: { evaluator: true },
  },
  { name: 'get-json-field', sql: `SELECT JSON '{"a": {"b": 1}, "c": [1, 2]}'.a AS a, JSON '{"a": 1}'.missing AS m`, reference: { evaluator: true } },
  {
    name: 'aggregate-function-call-modifiers',
    sql: "SELECT k, STRING_AGG(s, ',' ORDER BY id DESC LIMIT 2) AS agg, ARRAY_AGG(id IGNORE NULLS ORDER BY id) AS ids FROM ds.t GROUP BY k",
    reference: { evaluator: true },
  },
  { name: 'function-call-safe', sql: "SELECT SAFE_DIVIDE(id, id - 1) AS q, SAFE.PARSE_DATE('%Y', s) AS d FROM ds.t", reference: { evaluator: true } },
  { name: 'order-by-float-nan', sql: "SELECT x FROM UNNEST([1.0, CAST('NaN' AS FLOAT64), NULL, -1.0, CAST('-inf' AS FLOAT64)]) AS x ORDER BY x", ordered: true, reference: { evaluator: true } },
  { name: 'order-by-float-nan-desc', sql: "SELECT x FROM UNNEST([1.0, CAST('NaN' AS FLOAT64), NULL, -1.0]) AS x ORDER BY x DESC", ordered: true, reference: { evaluator: true } },
  { name: 'order-by-collate', sql: "SELECT s FROM UNNEST(['b', 'A', 'c', 'B2']) AS s ORDER BY COLLATE(s, 'und:ci')", ordered: true, reference: { evaluator: true } },
  { name: 'aggregate-having-max', sql: 'SELECT k, ANY_VALUE(s HAVING MAX id) AS last_s, SUM(id HAVING MIN x) AS at_min FROM ds.t GROUP BY k', reference: { evaluator: true } },
  { name: 'set-operation-union-all-tables', sql: 'SELECT id FROM ds.t UNION ALL SELECT id * 10 FROM ds.t WHERE id < 3', reference: { evaluator: true } },
  { name: 'array-scan-outer', sql: 'SELECT id, e FROM ds.t LEFT JOIN UNNEST(IF(id > 3, [id, -id], [])) AS e', reference: { evaluator: true } },
  { name: 'analytic-scan-range-frame', sql: 'SELECT id, SUM(id) OVER (ORDER BY id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS w, LAG(s) OVER (ORDER BY id) AS prev FROM ds.t', reference: { evaluator: true } },
  { name: 'cast-type-parameters', sql: "SELECT CAST(s AS STRING(1)) AS one, CAST(1.25 AS NUMERIC(3, 1)) AS r FROM ds.t WHERE s IS NOT NULL", reference: { evaluator: true } },
  { name: 'cast-format', sql: "SELECT CAST(DATE '2024-01-02' AS STRING FORMAT 'YYYY/MM/DD') AS d, CAST('03-04-2024' AS DATE FORMAT 'MM-DD-YYYY') AS p", reference: { evaluator: true } },
  { name: 'subquery-expr-correlated', sql: 'SELECT id, (SELECT COUNT(*) FROM ds.t AS u WHERE u.k = t.k) AS same_k FROM ds.t', reference: { evaluator: true } },
];
