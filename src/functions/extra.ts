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
});
