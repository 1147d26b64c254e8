/**
 * Remaining builtins: ERROR, TYPEOF, NULLIFZERO, PI_NUMERIC/PI_BIGNUMERIC, GROUPING, LIKE ANY/ALL,
 * ARRAY_OFFSETS, RANGE_IS_*_UNBOUNDED, and the functions the emulator does not support (with the
 * reason): D3A_COUNT sketches. IFERROR/ISERROR/NULLIFERROR are in debugging.ts, the encryption
 * functions in aead.ts.
 */
import { typeToSql } from '../types/types.js';
import { aggregate, registerFunctions, type FnCall, type FnTable } from './registry.js';
import { nullIfAnyNull } from './util.js';

/** x LIKE ANY (p1, p2, …) / LIKE ALL: OR / AND of the single comparisons (three-valued). */
const likeList = (op: 'OR' | 'AND') => (c: FnCall) => `(${c.args.slice(1).map((p) => `(${c.args[0]} LIKE ${p} ESCAPE '\\')`).join(` ${op} `)})`;
/** The array forms: NULL array or value gives NULL. */
const likeArray = (op: 'OR' | 'AND') => (c: FnCall) => {
  const [x, a] = c.args;
  const matches = `list_transform(${a}, p -> ${x} LIKE p ESCAPE '\\')`;
  const body = op === 'OR'
    ? `CASE WHEN list_contains(${matches}, true) THEN true WHEN list_contains(list_transform(${matches}, m -> m IS NULL), true) THEN NULL ELSE false END`
    : `CASE WHEN list_contains(${matches}, false) THEN false WHEN list_contains(list_transform(${matches}, m -> m IS NULL), true) THEN NULL ELSE true END`;
  return nullIfAnyNull([x, a], body);
};

/**
 * D3A_COUNT.* build and read BigQuery's D3A count sketches, a sketch format and estimator BigQuery
 * does not publish: sketches made here could neither be read by BigQuery nor give its estimates.
 */
const D3A = { unsupported: "D3A_COUNT sketches use a format and estimator BigQuery does not publish, so the emulator cannot build or read them compatibly" };

const TABLE: FnTable = {
  error: (c) => `error(${c.args[0]})`,
  typeof: (c) => `'${typeToSql(c.argTypes[0]).replace(/'/g, "''")}'`,
  nullifzero: (c) => `nullif(${c.args[0]}, 0)`,
  pi_numeric: () => `CAST('3.141592654' AS DECIMAL(38,9))`,
  pi_bignumeric: () => `'3.1415926535897932384626433832795028842'`,
  grouping: (c) => aggregate('grouping', c),
  $like_any: likeList('OR'),
  $like_all: likeList('AND'),
  $like_any_array: likeArray('OR'),
  $like_all_array: likeArray('AND'),
  array_offsets: (c) => nullIfAnyNull(c.args, `list_transform(list_filter(list_transform(${c.args[0]}, (e, i) -> {'e': e, 'i': i}), s -> s.e = ${c.args[1]}), s -> CAST(s.i - 1 AS BIGINT))`),
  range_is_start_unbounded: (c) => `CASE WHEN ${c.args[0]} IS NULL THEN NULL ELSE struct_extract(${c.args[0]}, 'start') IS NULL END`,
  range_is_end_unbounded: (c) => `CASE WHEN ${c.args[0]} IS NULL THEN NULL ELSE struct_extract(${c.args[0]}, 'end') IS NULL END`,
  'd3a_count.init': D3A,
  'd3a_count.merge': D3A,
  'd3a_count.merge_partial': D3A,
  'd3a_count.extract': D3A,
  'd3a_count.to_hll': D3A,
};

registerFunctions(TABLE);
