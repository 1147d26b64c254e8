/**
 * Lowerings of the functions declared in the catalog because this analyzer build lacks them
 * (src/analyzer/extra-functions.ts).
 */
import { aggregate, registerFunctions } from './registry.js';

registerFunctions({
  // MIN_BY(x, y) = ANY_VALUE(x HAVING MIN y): DuckDB's arg_min skips rows whose y is NULL, as MIN does.
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
  flatten: { unsupported: 'FLATTEN is rewritten by the analyzer before lowering' },
  array_find_all: { unsupported: 'ARRAY_FIND_ALL is not a BigQuery function' },
  st_accum: { unsupported: 'ST_ACCUM is deprecated in BigQuery (use ARRAY_AGG)' },
  st_nearest_neighbors: { unsupported: 'ST_NEAREST_NEIGHBORS needs a spatial index' },
  st_unaryunion: { unsupported: 'ST_UNARYUNION is not built yet' },
});
