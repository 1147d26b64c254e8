/**
 * JSON functions added after json.ts (BigQuery "JSON functions").
 *
 * JSON_FLATTEN(json_expr) → ARRAY<JSON>: every non-array value that is the input itself or a child
 * of one or more consecutively nested arrays of it, in document order (json_functions#json_flatten:
 * `JSON '[[[1, 2], 3], {"a": 4}, true]'` → `[1, 2, 3, {"a":4}, true]`; `JSON '[1, 2, null]'` →
 * `[1, 2, null]`); a SQL NULL input gives NULL. The analyzer signature is in
 * src/analyzer/extra-functions.ts.
 */
import * as lib from './jsonlib.js';
import { defineUdf } from './prelude.js';
import { registerFunctions, type FnTable } from './registry.js';

/** The flattened elements of a JSON value (arrays are opened, recursively). */
export function flattenJson(v: lib.J): lib.J[] {
  return Array.isArray(v) ? v.flatMap(flattenJson) : [v];
}

defineUdf('bq_json_flatten', ['VARCHAR'], 'VARCHAR', (s) => {
  const v = lib.parseJson(s);
  return v === undefined ? null : lib.emit(flattenJson(v));
});

/**
 * The elements of a DuckDB JSON array value as a JSON[] list, JSON `null` elements kept as JSON
 * (a plain `CAST(… AS JSON[])` turns them into SQL NULLs, which BigQuery's arrays cannot hold).
 */
export const jsonArrayElements = (j: string): string =>
  `list_transform(range(0, CAST(json_array_length(${j}) AS BIGINT)), i -> json_extract(${j}, '$[' || CAST(i AS VARCHAR) || ']'))`;

const TABLE: FnTable = {
  json_flatten: (c) => `list_extract(list_transform([CAST(bq_json_flatten(CAST(${c.args[0]} AS VARCHAR)) AS JSON)], j -> ${jsonArrayElements('j')}), 1)`,
};

registerFunctions(TABLE);
