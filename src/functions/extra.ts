/**
 * Lowerings of the functions declared in the catalog because this analyzer build lacks them
 * (src/analyzer/extra-functions.ts).
 */
import { BigQueryError } from '../errors/errors.js';
import { defineUdf } from './prelude.js';
import { aggregate, registerFunctions, type FnCall } from './registry.js';
import { fail } from './util.js';

/** Levenshtein distance of two sequences (code points or bytes). */
function levenshtein<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}
defineUdf('bq_edit_distance', ['VARCHAR', 'VARCHAR'], 'BIGINT', (a, b) => BigInt(levenshtein([...a], [...b])));
defineUdf('bq_edit_distance_bytes', ['BLOB', 'BLOB'], 'BIGINT', (a, b) => BigInt(levenshtein(a, b)));

/**
 * EDIT_DISTANCE(a, b[, max_distance => n]): Levenshtein distance over Unicode characters (STRING)
 * or bytes (BYTES), capped at max_distance (string_functions#edit_distance).
 */
function editDistance(c: FnCall): string {
  const d = `bq_edit_distance${c.argTypes[0]?.kind === 'BYTES' ? '_bytes' : ''}(${c.args[0]}, ${c.args[1]})`;
  const max = c.args[2];
  if (max === undefined) return d;
  return `CASE WHEN ${max} < 0 THEN ${fail(c, `'max_distance must be non-negative, but is ' || CAST(${max} AS VARCHAR)`)} ELSE least(${d}, ${max}) END`;
}

registerFunctions({
  // MIN_BY(x, y) = ANY_VALUE(x HAVING MIN y): DuckDB's arg_min skips rows whose y is NULL, as MIN does.
  edit_distance: editDistance,
  min_by: (c) => aggregate('arg_min', c),
  max_by: (c) => aggregate('arg_max', c),
  json_keys: { unsupported: 'nested key paths of JSON_KEYS are not implemented yet' },
  // JSON subscripts: json['key'], json[0] (json_functions#json_subscript_operator): a missing
  // member or element is NULL.
  $subscript_with_key: (c) => `json_extract(${c.args[0]}, '$.' || to_json(${c.args[1]})::VARCHAR)`,
  $subscript_with_offset: (c) => `json_extract(${c.args[0]}, '$[' || CAST(${c.args[1]} AS VARCHAR) || ']')`,
  $subscript_with_ordinal: { unsupported: 'ORDINAL subscripts of JSON are not BigQuery syntax' },
  // SESSION_USER: the emulator has no identities; it answers the principal it reports on jobs.
  session_user: () => `'bqemu@localhost'`,
  filter_fields: { unsupported: 'protocol buffers are not BigQuery types' },
  contains_key: { unsupported: 'protocol buffer maps are not BigQuery types' },
  modify_map: { unsupported: 'protocol buffer maps are not BigQuery types' },
  // FLATTEN(path): ZetaSQL's FLATTEN rewriter turns it into array subqueries before lowering, so
  // the function never reaches this table (answered end to end: test/functions-flatten.test.ts,
  // docs array_functions flatten-1/-2/-3). Reaching it means the rewrite did not run.
  flatten: () => {
    throw BigQueryError.notSupported('FLATTEN outside the analyzer rewrite');
  },
  array_find_all: { unsupported: 'ARRAY_FIND_ALL is not a BigQuery function' },
  st_accum: { unsupported: 'ST_ACCUM is not in BigQuery\'s documentation, so its NULL handling is unknown (use ARRAY_AGG)' },
  st_nearest_neighbors: { unsupported: 'ST_NEAREST_NEIGHBORS needs a spatial index' },
  // ST_UNARYUNION: geography-extra.ts.
});
