/**
 * CONTAINS_SUBSTR of BigQuery's string functions page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/string_functions#contains_substr):
 * a normalized, case-insensitive substring search over a value of almost any type. The analyzer
 * signature (any expression, STRING search value, optional `json_scope =>` name) is declared in
 * src/analyzer/catalog-functions.ts; a table reference (`CONTAINS_SUBSTR(t, 'x')`) reaches the
 * lowering as the STRUCT of the table's columns, as the page describes.
 *
 * Semantics, from the page:
 * - the searched text and the search value are both normalized and case folded with NFKC
 *   (the NORMALIZE_AND_CASEFOLD(…, NFKC) of src/functions/string-encoding.ts);
 * - a STRING, INT64, BOOL, NUMERIC, BIGNUMERIC, TIMESTAMP, TIME, DATE or DATETIME value is cast to
 *   STRING (the CAST rules of src/functions/conversion.ts) and searched;
 * - a STRUCT or ARRAY is a cross-field search, recursive through nested STRUCTs and ARRAYs: TRUE
 *   when any field holds the value, else NULL when any field is NULL, else FALSE; a NULL
 *   expression is NULL (SQL's three-valued OR over the fields is exactly that rule);
 * - a JSON value is searched in its values (`json_scope => 'JSON_VALUES'`, the default), its object
 *   keys (`'JSON_KEYS'`) or both (`'JSON_KEYS_AND_VALUES'`), at every depth; a JSON string is
 *   searched without its quotes, any other JSON scalar as its JSON text (`1.5`, `true`, `null`);
 * - a NULL literal search value is an analysis error (the signature's non-NULL argument).
 * The page's list of searchable types omits FLOAT64 and INTERVAL; they are cast to STRING like the
 * listed ones (the page's rule for every searched value), so a table reference over such columns is
 * searched. BYTES (whose cast to STRING fails on invalid UTF-8), GEOGRAPHY (which has no cast to
 * STRING) and RANGE are refused by name rather than searched in a text BigQuery may not use.
 */
import { duckFieldName } from '../types/duckdb-types.js';
import type { BqType } from '../types/types.js';
import { defineUdf } from './builtin-udfs.js';
import { castSql } from './conversion.js';
import { parseJson, emit, JNum, type J } from './jsonlib.js';
import type { FnCall, FnTable } from './registry.js';
import { fail, isNullLiteral, q, stringLiteral, unsupportedForm } from './util.js';

/** NFKC normalization and case folding, as NORMALIZE_AND_CASEFOLD(x, NFKC). */
const fold = (s: string): string => s.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');

/** The JSON scopes of `json_scope =>`: [search values, search keys]. */
const JSON_SCOPES: Record<string, [boolean, boolean]> = {
  JSON_VALUES: [true, false],
  JSON_KEYS: [false, true],
  JSON_KEYS_AND_VALUES: [true, true],
};

/** Whether JSON value `v` holds the folded needle in a value or key (per scope), at any depth. */
function jsonHolds(v: J, needle: string, values: boolean, keys: boolean): boolean {
  if (Array.isArray(v)) return v.some((e) => jsonHolds(e, needle, values, keys));
  if (v !== null && typeof v === 'object' && !(v instanceof JNum)) {
    return Object.entries(v).some(([k, e]) => (keys && fold(k).includes(needle)) || jsonHolds(e, needle, values, keys));
  }
  if (!values) return false;
  return fold(typeof v === 'string' ? v : emit(v)).includes(needle);
}

// (JSON text, folded needle, scope name) → BOOL; NULL for text that is not JSON (never stored).
defineUdf('bq_json_contains_substr', ['VARCHAR', 'VARCHAR', 'VARCHAR'], 'BOOLEAN', (text, needle, scope) => {
  const v = parseJson(text);
  const s = JSON_SCOPES[scope];
  if (v === undefined || !s) return null;
  return jsonHolds(v, needle, s[0], s[1]);
});

/** Leaf types searched as their cast to STRING (the page's list, plus FLOAT64 and INTERVAL). */
const CAST_LEAVES = new Set(['STRING', 'INT64', 'BOOL', 'NUMERIC', 'BIGNUMERIC', 'TIMESTAMP', 'TIME', 'DATE', 'DATETIME', 'FLOAT64', 'INTERVAL']);

/**
 * Three-valued search of `x` (type `t`) for the folded needle `needle`: TRUE, FALSE or NULL by the
 * cross-field rule. `depth` numbers the lambda variables of nested arrays.
 */
function search(c: FnCall, x: string, t: BqType, needle: string, scope: string, depth: number): string {
  if (t.kind === 'STRUCT') {
    if (!t.fields.length) return `(CASE WHEN ${x} IS NULL THEN NULL ELSE FALSE END)`;
    return `(${t.fields.map((f, i) => search(c, `struct_extract(${x}, ${q(duckFieldName(t, i))})`, f.type, needle, scope, depth)).join(' OR ')})`;
  }
  if (t.kind === 'ARRAY') {
    // Each element: 2 found, 1 NULL, 0 not found; the largest decides (an empty array is FALSE).
    const e = `e${depth}`;
    const each = `list_transform(${x}, ${e} -> CASE ${search(c, e, t.element, needle, scope, depth + 1)} WHEN TRUE THEN 2 WHEN FALSE THEN 0 ELSE 1 END)`;
    return `(CASE WHEN ${x} IS NULL THEN NULL ELSE (CASE coalesce(list_max(${each}), 0) WHEN 2 THEN TRUE WHEN 0 THEN FALSE ELSE NULL END) END)`;
  }
  if (t.kind === 'JSON') return `bq_json_contains_substr(CAST(${x} AS VARCHAR), ${needle}, ${q(scope)})`;
  if (!CAST_LEAVES.has(t.kind)) unsupportedForm(c, `over a ${t.kind} value`);
  return `contains(bq_normalize_casefold(${castSql(c, x, t, { kind: 'STRING' })}, 'NFKC'), ${needle})`;
}

function containsSubstr(c: FnCall): string {
  const [x, value, scopeArg] = c.args;
  let scope = 'JSON_VALUES';
  // An omitted `json_scope` arrives as a NULL literal (the optional argument's default).
  if (scopeArg !== undefined && !isNullLiteral(scopeArg)) {
    const s = stringLiteral(scopeArg);
    // The scope is a literal or query parameter (the signature's constant argument).
    if (s === undefined || !(s.toUpperCase() in JSON_SCOPES)) {
      return `(CASE WHEN ${x} IS NULL THEN NULL ELSE ${fail(c, `'Invalid json_scope argument: ' || coalesce(${scopeArg}, 'NULL') || '; expected JSON_VALUES, JSON_KEYS or JSON_KEYS_AND_VALUES'`)} END)`;
    }
    scope = s.toUpperCase();
  }
  return search(c, x, c.argTypes[0], `bq_normalize_casefold(${value}, 'NFKC')`, scope, 0);
}

/** The search functions of the string_functions page. */
export const STRING_SEARCH_FUNCTIONS: FnTable = {
  contains_substr: containsSubstr,
};
