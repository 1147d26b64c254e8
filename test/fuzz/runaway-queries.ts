/**
 * Fuzz generators: work that never ends or grows without bound — scripts that loop forever,
 * JavaScript UDFs that spin or allocate, recursive CTEs without an exit, and size-amplifying
 * function arguments far above BigQuery's documented limits
 * (https://cloud.google.com/bigquery/quotas; https://cloud.google.com/bigquery/docs/user-defined-functions#limits;
 * function reference pages for APPROX_QUANTILES, GENERATE_ARRAY, REPEAT, RPAD/LPAD).
 * BigQuery answers each with an error (a limit, a timeout) or a cancellable job; the emulator must
 * do the same while still serving everyone else.
 */
import fc from 'fast-check';

/** One runaway case. */
export interface RunawayCase {
  kind: string;
  sql: string;
}

const udf = (body: string, ret = 'INT64') => `CREATE TEMP FUNCTION f() RETURNS ${ret} LANGUAGE js AS r"""${body}""";\nSELECT f() AS v`;

/** Scripts that never stop by themselves. */
export const RUNAWAY_SCRIPTS: RunawayCase[] = [
  { kind: 'runaway:script', sql: 'LOOP\n  SELECT 1;\nEND LOOP;' },
  { kind: 'runaway:script', sql: 'DECLARE i INT64 DEFAULT 0;\nLOOP\n  SET i = i + 1;\nEND LOOP;' },
  { kind: 'runaway:script', sql: 'WHILE TRUE DO\n  SELECT 1;\nEND WHILE;' },
  { kind: 'runaway:script', sql: 'DECLARE s STRING DEFAULT "x";\nWHILE TRUE DO\n  SET s = CONCAT(s, s);\nEND WHILE;' },
  { kind: 'runaway:script', sql: 'REPEAT\n  SELECT 1;\nUNTIL FALSE\nEND REPEAT;' },
];

/** JavaScript UDFs that spin, recurse or allocate without bound. */
export const RUNAWAY_UDFS: RunawayCase[] = [
  { kind: 'runaway:udf', sql: udf('while (true) {}') },
  { kind: 'runaway:udf', sql: udf('for (;;) { Math.random(); }') },
  { kind: 'runaway:udf', sql: udf('function g(n) { return g(n + 1) + 1; } return g(0);') },
  { kind: 'runaway:udf', sql: udf('const a = []; for (;;) a.push(new Array(1e6).fill(1));') },
  { kind: 'runaway:udf', sql: udf('let s = "x"; for (;;) s += s; return s;', 'STRING') },
];

/** Recursive CTEs with no exit (BigQuery stops them at its iteration limit). */
export const RUNAWAY_RECURSION: RunawayCase[] = [
  { kind: 'runaway:recursiveCte', sql: 'WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r) SELECT COUNT(*) FROM r' },
  { kind: 'runaway:recursiveCte', sql: "WITH RECURSIVE r AS (SELECT 'x' AS s UNION ALL SELECT CONCAT(s, s) FROM r) SELECT MAX(LENGTH(s)) FROM r" },
];

/**
 * Size-amplifying arguments far over BigQuery's limits. Several of these exhaust the emulator's
 * memory today (a V8 heap OOM), so they run against a spawned emulator only.
 */
export const AMPLIFIERS: RunawayCase[] = [
  { kind: 'runaway:amplifier', sql: 'SELECT APPROX_QUANTILES(x, 1000000000) FROM UNNEST([1]) AS x' },
  { kind: 'runaway:amplifier', sql: 'SELECT APPROX_TOP_COUNT(x, 1000000000) FROM UNNEST([1]) AS x' },
  { kind: 'runaway:amplifier', sql: 'SELECT ARRAY_LENGTH(GENERATE_ARRAY(1, 10000000000))' },
  { kind: 'runaway:amplifier', sql: "SELECT ARRAY_LENGTH(GENERATE_DATE_ARRAY('0001-01-01', '9999-12-31'))" },
  { kind: 'runaway:amplifier', sql: "SELECT LENGTH(REPEAT('x', 10000000000))" },
  { kind: 'runaway:amplifier', sql: "SELECT LENGTH(RPAD('x', 10000000000, 'y'))" },
  { kind: 'runaway:amplifier', sql: "SELECT LENGTH(LPAD('x', 10000000000))" },
  { kind: 'runaway:amplifier', sql: "SELECT LENGTH(STRING_AGG(REPEAT('x', 1000000), '')) FROM UNNEST(GENERATE_ARRAY(1, 10000))" },
  { kind: 'runaway:amplifier', sql: 'SELECT COUNT(*) FROM UNNEST(GENERATE_ARRAY(1, 100000)) a, UNNEST(GENERATE_ARRAY(1, 100000)) b' },
];

/** Every runaway case (scripts, UDFs, recursion, amplifiers) as an arbitrary for the long runs. */
export function anyRunaway(includeAmplifiers: boolean): fc.Arbitrary<RunawayCase> {
  return fc.constantFrom(...RUNAWAY_SCRIPTS, ...RUNAWAY_UDFS, ...RUNAWAY_RECURSION, ...(includeAmplifiers ? AMPLIFIERS : []));
}
