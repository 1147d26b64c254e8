/**
 * Which documentation examples exercise BigQuery features (the acceptance line of the
 * documentation-examples work: "≥ 95 % of the self-contained cases of BigQuery features pass;
 * graph, proto and pipe-syntax cases excluded").
 *
 * The docs-examples corpus is the GoogleSQL reference of google/zetasql
 * (conformance/docs-examples/provenance.json), which also documents things BigQuery does not have.
 * A case is "of a BigQuery feature" unless it uses one of them; the decision is made from
 * BigQuery's own documentation, never from whether the case passes:
 *
 * 1. Functions. {@link BIGQUERY_FUNCTIONS} is BigQuery's "Functions (alphabetical)" list
 *    (https://docs.cloud.google.com/bigquery/docs/reference/standard-sql/functions-all, read from the
 *    mirror github.com/apstndb/bigquery-docs-mirror, file
 *    docs/docs.cloud.google.com/bigquery/docs/reference/standard-sql/functions-all.md, commit
 *    2b1aa0bafb760deb80c89915f8cebd27ef89eab6) plus the conditional expressions of
 *    .../standard-sql/conditional_expressions (CASE, COALESCE, IF, IFNULL, NULLIF; the same mirror,
 *    commit 2ed2a6573dcfc9bc755411c521fd7bc6bbe4b1f3; BigQuery's debugging page lists only ERROR).
 *    A GoogleSQL function that list does not have is ZetaSQL-only: the names in
 *    {@link ZETASQL_ONLY_FUNCTIONS} (GoogleSQL reference functions of the corpus pages absent from
 *    the list) and, for cases not seen when this table was written, every function section heading
 *    of a GoogleSQL function page of the loaded corpus that the list does not have. A case whose own
 *    section documents such a function, or whose query calls one, is excluded.
 * 2. Types. BigQuery's data types (.../standard-sql/data-types) are ARRAY, BIGNUMERIC, BOOL, BYTES,
 *    DATE, DATETIME, FLOAT64, GEOGRAPHY, INTERVAL, JSON, INT64, NUMERIC, RANGE, STRING, STRUCT, TIME,
 *    TIMESTAMP and their aliases; a case naming a ZetaSQL-only type ({@link ZETASQL_ONLY_TYPES}) in a
 *    type position (`AS T`, `<T`, `, T>`) is excluded.
 * 3. Syntax. Sections of GoogleSQL concept pages for syntax BigQuery's reference does not list
 *    ({@link ZETASQL_ONLY_SECTIONS}, each with the BigQuery page that lacks it).
 *
 * Graph, protocol-buffer and pipe-syntax cases are separate report groups (docs.ts `docGroup`); a
 * pipe-syntax case of a feature BigQuery does not have is counted with the GoogleSQL-only cases.
 */
import type { DocCase } from './docs-model.js';

/** BigQuery's documented function names (functions-all, see the module comment), upper case. */
export const BIGQUERY_FUNCTIONS: ReadonlySet<string> = new Set([
  'ABS', 'ACOS', 'ACOSH', 'AEAD.DECRYPT_BYTES', 'AEAD.DECRYPT_STRING', 'AEAD.ENCRYPT', 'AGG', 'ANY_VALUE',
  'APPENDS', 'APPROX_COUNT_DISTINCT', 'APPROX_QUANTILES', 'APPROX_TOP_COUNT', 'APPROX_TOP_SUM', 'ARRAY',
  'ARRAY_AGG', 'ARRAY_CONCAT', 'ARRAY_CONCAT_AGG', 'ARRAY_FIRST', 'ARRAY_LAST', 'ARRAY_LENGTH',
  'ARRAY_REVERSE', 'ARRAY_SLICE', 'ARRAY_TO_STRING', 'ASCII', 'ASIN', 'ASINH', 'ATAN', 'ATAN2', 'ATANH',
  'AVG', 'BAG_OF_WORDS', 'BIT_AND', 'BIT_COUNT', 'BIT_OR', 'BIT_XOR', 'BOOL', 'BYTE_LENGTH', 'CAST', 'CBRT',
  'CEIL', 'CEILING', 'CHANGES', 'CHAR_LENGTH', 'CHARACTER_LENGTH', 'CHR', 'CODE_POINTS_TO_BYTES',
  'CODE_POINTS_TO_STRING', 'COLLATE', 'CONCAT', 'CONTAINS_SUBSTR', 'CORR', 'COS', 'COSH', 'COSINE_DISTANCE',
  'COT', 'COTH', 'COUNT', 'COUNTIF', 'COVAR_POP', 'COVAR_SAMP', 'CSC', 'CSCH', 'CUME_DIST', 'CURRENT_DATE',
  'CURRENT_DATETIME', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'DATE', 'DATE_ADD', 'DATE_BUCKET', 'DATE_DIFF',
  'DATE_FROM_UNIX_DATE', 'DATE_SUB', 'DATE_TRUNC', 'DATETIME', 'DATETIME_ADD', 'DATETIME_BUCKET',
  'DATETIME_DIFF', 'DATETIME_SUB', 'DATETIME_TRUNC', 'DENSE_RANK', 'DESTINATION_NODE_ID',
  'DETERMINISTIC_DECRYPT_BYTES', 'DETERMINISTIC_DECRYPT_STRING', 'DETERMINISTIC_ENCRYPT', 'DIV',
  'DLP_DETERMINISTIC_ENCRYPT', 'DLP_DETERMINISTIC_DECRYPT', 'DLP_KEY_CHAIN', 'FLOAT64', 'EDGES',
  'EDIT_DISTANCE', 'ELEMENT_ID', 'ENDS_WITH', 'ERROR', 'EXP', 'EXTERNAL_OBJECT_TRANSFORM', 'EXTERNAL_QUERY',
  'EXTRACT', 'EUCLIDEAN_DISTANCE', 'FARM_FINGERPRINT', 'FIRST_VALUE', 'FLOOR', 'FORMAT_DATE',
  'FORMAT_DATETIME', 'FORMAT_TIME', 'FORMAT_TIMESTAMP', 'FORMAT', 'FROM_BASE32', 'FROM_BASE64', 'FROM_HEX',
  'GAP_FILL', 'GENERATE_ARRAY', 'GENERATE_DATE_ARRAY', 'GENERATE_RANGE_ARRAY', 'GENERATE_TIMESTAMP_ARRAY',
  'GENERATE_UUID', 'GREATEST', 'GROUPING', 'HLL_COUNT.EXTRACT', 'HLL_COUNT.INIT', 'HLL_COUNT.MERGE',
  'HLL_COUNT.MERGE_PARTIAL', 'IEEE_DIVIDE', 'INITCAP', 'INSTR', 'INT64', 'IS_ACYCLIC', 'IS_INF', 'IS_NAN',
  'IS_SIMPLE', 'IS_TRAIL', 'JSON_ARRAY', 'JSON_ARRAY_APPEND', 'JSON_ARRAY_INSERT', 'JSON_EXTRACT',
  'JSON_EXTRACT_ARRAY', 'JSON_EXTRACT_SCALAR', 'JSON_EXTRACT_STRING_ARRAY', 'JSON_FLATTEN', 'JSON_KEYS',
  'JSON_OBJECT', 'JSON_QUERY', 'JSON_QUERY_ARRAY', 'JSON_REMOVE', 'JSON_SET', 'JSON_STRIP_NULLS',
  'JSON_TYPE', 'JSON_VALUE', 'JSON_VALUE_ARRAY', 'JUSTIFY_DAYS', 'JUSTIFY_HOURS', 'JUSTIFY_INTERVAL',
  'KEYS.ADD_KEY_FROM_RAW_BYTES', 'KEYS.KEYSET_CHAIN', 'KEYS.KEYSET_FROM_JSON', 'KEYS.KEYSET_LENGTH',
  'KEYS.KEYSET_TO_JSON', 'KEYS.NEW_KEYSET', 'KEYS.NEW_WRAPPED_KEYSET', 'KEYS.REWRAP_KEYSET',
  'KEYS.ROTATE_KEYSET', 'KEYS.ROTATE_WRAPPED_KEYSET', 'KLL_QUANTILES.EXTRACT_INT64',
  'KLL_QUANTILES.EXTRACT_FLOAT64', 'KLL_QUANTILES.EXTRACT_POINT_INT64',
  'KLL_QUANTILES.EXTRACT_POINT_FLOAT64', 'KLL_QUANTILES.INIT_INT64', 'KLL_QUANTILES.INIT_FLOAT64',
  'KLL_QUANTILES.MERGE_INT64', 'KLL_QUANTILES.MERGE_FLOAT64', 'KLL_QUANTILES.MERGE_PARTIAL',
  'KLL_QUANTILES.MERGE_POINT_INT64', 'KLL_QUANTILES.MERGE_POINT_FLOAT64', 'LABELS', 'LAG', 'LAST_DAY',
  'LAST_VALUE', 'LAX_BOOL', 'LAX_FLOAT64', 'LAX_INT64', 'LAX_STRING', 'LEAD', 'LEAST', 'LEFT', 'LENGTH',
  'LN', 'LOG', 'LOG10', 'LOGICAL_AND', 'LOGICAL_OR', 'LOWER', 'LPAD', 'LTRIM', 'MAKE_INTERVAL', 'MAX',
  'MAX_BY', 'MD5', 'MIN', 'MIN_BY', 'MOD', 'NET.HOST', 'NET.IP_FROM_STRING', 'NET.IP_NET_MASK',
  'NET.IP_TO_STRING', 'NET.IP_TRUNC', 'NET.IPV4_FROM_INT64', 'NET.IPV4_TO_INT64', 'NET.PUBLIC_SUFFIX',
  'NET.REG_DOMAIN', 'NET.SAFE_IP_FROM_STRING', 'NODES', 'NORMALIZE', 'NORMALIZE_AND_CASEFOLD', 'NTH_VALUE',
  'NTILE', 'OBJ.FETCH_METADATA', 'OBJ.GET_ACCESS_URL', 'OBJ.GET_READ_URL', 'OBJ.LIST', 'OBJ.MAKE_REF',
  'OCTET_LENGTH', 'PARSE_BIGNUMERIC', 'PARSE_DATE', 'PARSE_DATETIME', 'PARSE_JSON', 'PARSE_NUMERIC',
  'PARSE_TIME', 'PARSE_TIMESTAMP', 'PATH_FIRST', 'PATH_LAST', 'PATH_LENGTH', 'PERCENT_RANK',
  'PERCENTILE_CONT', 'PERCENTILE_DISC', 'POW', 'POWER', 'RAND', 'RANGE', 'RANGE_BUCKET', 'RANGE_CONTAINS',
  'RANGE_END', 'RANGE_INTERSECT', 'RANGE_OVERLAPS', 'RANGE_SESSIONIZE', 'RANGE_START', 'RANK',
  'REGEXP_CONTAINS', 'REGEXP_EXTRACT', 'REGEXP_EXTRACT_ALL', 'REGEXP_INSTR', 'REGEXP_REPLACE',
  'REGEXP_SUBSTR', 'REPEAT', 'REPLACE', 'REVERSE', 'RIGHT', 'ROUND', 'ROW_NUMBER', 'RPAD', 'RTRIM',
  'S2_CELLIDFROMPOINT', 'S2_COVERINGCELLIDS', 'SAFE_ADD', 'SAFE_CAST', 'SAFE_CONVERT_BYTES_TO_STRING',
  'SAFE_DIVIDE', 'SAFE_MULTIPLY', 'SAFE_NEGATE', 'SAFE_SUBTRACT', 'SEARCH', 'SEC', 'SECH', 'SESSION_USER',
  'SHA1', 'SHA256', 'SHA512', 'SIGN', 'SIN', 'SINH', 'SOURCE_NODE_ID', 'SOUNDEX', 'SPLIT', 'SQRT',
  'ST_ANGLE', 'ST_AREA', 'ST_ASBINARY', 'ST_ASGEOJSON', 'ST_ASTEXT', 'ST_AZIMUTH', 'ST_BOUNDARY',
  'ST_BOUNDINGBOX', 'ST_BUFFER', 'ST_BUFFERWITHTOLERANCE', 'ST_CENTROID', 'ST_CENTROID_AGG',
  'ST_CLOSESTPOINT', 'ST_CLUSTERDBSCAN', 'ST_CONTAINS', 'ST_CONVEXHULL', 'ST_COVEREDBY', 'ST_COVERS',
  'ST_DIFFERENCE', 'ST_DIMENSION', 'ST_DISJOINT', 'ST_DISTANCE', 'ST_DUMP', 'ST_DWITHIN', 'ST_ENDPOINT',
  'ST_EQUALS', 'ST_EXTENT', 'ST_EXTERIORRING', 'ST_GEOGFROM', 'ST_GEOGFROMGEOJSON', 'ST_GEOGFROMTEXT',
  'ST_GEOGFROMWKB', 'ST_GEOGPOINT', 'ST_GEOGPOINTFROMGEOHASH', 'ST_GEOHASH', 'ST_GEOMETRYTYPE',
  'ST_HAUSDORFFDISTANCE', 'ST_HAUSDORFFDWITHIN', 'ST_INTERIORRINGS', 'ST_INTERSECTION', 'ST_INTERSECTS',
  'ST_INTERSECTSBOX', 'ST_ISCLOSED', 'ST_ISCOLLECTION', 'ST_ISEMPTY', 'ST_ISRING', 'ST_LENGTH',
  'ST_LINEINTERPOLATEPOINT', 'ST_LINELOCATEPOINT', 'ST_LINESUBSTRING', 'ST_MAKELINE', 'ST_MAKEPOLYGON',
  'ST_MAKEPOLYGONORIENTED', 'ST_MAXDISTANCE', 'ST_NPOINTS', 'ST_NUMGEOMETRIES', 'ST_NUMPOINTS',
  'ST_PERIMETER', 'ST_POINTN', 'ST_REGIONSTATS', 'ST_SIMPLIFY', 'ST_SNAPTOGRID', 'ST_STARTPOINT',
  'ST_TOUCHES', 'ST_UNION', 'ST_UNION_AGG', 'ST_WITHIN', 'ST_X', 'ST_Y', 'STARTS_WITH', 'STDDEV',
  'STDDEV_POP', 'STDDEV_SAMP', 'STRING', 'STRING_AGG', 'STRPOS', 'SUBSTR', 'SUBSTRING', 'SUM', 'TAN', 'TANH',
  'TEXT_ANALYZE', 'TF_IDF', 'TIME', 'TIME_ADD', 'TIME_DIFF', 'TIME_SUB', 'TIME_TRUNC', 'TIMESTAMP',
  'TIMESTAMP_ADD', 'TIMESTAMP_BUCKET', 'TIMESTAMP_DIFF', 'TIMESTAMP_MICROS', 'TIMESTAMP_MILLIS',
  'TIMESTAMP_SECONDS', 'TIMESTAMP_SUB', 'TIMESTAMP_TRUNC', 'TO_BASE32', 'TO_BASE64', 'TO_CODE_POINTS',
  'TO_HEX', 'TO_JSON', 'TO_JSON_STRING', 'TRANSLATE', 'TRIM', 'TRUNC', 'TYPEOF', 'UNICODE', 'UNIX_DATE',
  'UNIX_MICROS', 'UNIX_MILLIS', 'UNIX_SECONDS', 'UPPER', 'VAR_POP', 'VAR_SAMP', 'VARIANCE', 'VECTOR_SEARCH',
  'VECTOR_INDEX.STATISTICS',
  // conditional_expressions page
  'CASE', 'COALESCE', 'IF', 'IFNULL', 'NULLIF',
]);

/**
 * GoogleSQL reference functions (google/zetasql docs at the corpus revision) that BigQuery's list
 * does not have: ZetaSQL-only JSON converters of 32-bit, unsigned and DOUBLE/FLOAT names (BigQuery
 * spells them FLOAT64/LAX_FLOAT64 and has no *_ARRAY converters), lambda array functions, the
 * BIT_CAST_* family, IFERROR/ISERROR/NULLIFERROR (BigQuery's debugging page lists only ERROR),
 * protocol-buffer functions, and the rest below.
 */
export const ZETASQL_ONLY_FUNCTIONS: ReadonlySet<string> = new Set([
  'ARRAY_AVG', 'ARRAY_FILTER', 'ARRAY_FIND', 'ARRAY_FIND_ALL', 'ARRAY_FIRST_N', 'ARRAY_INCLUDES',
  'ARRAY_INCLUDES_ALL', 'ARRAY_INCLUDES_ANY', 'ARRAY_IS_DISTINCT', 'ARRAY_LAST_N', 'ARRAY_MAX',
  'ARRAY_MIN', 'ARRAY_OFFSET', 'ARRAY_OFFSETS', 'ARRAY_REMOVE_FIRST_N', 'ARRAY_REMOVE_LAST_N',
  'ARRAY_SUM', 'ARRAY_TRANSFORM', 'ARRAY_ZIP', 'FLATTEN',
  'BIT_CAST_TO_INT32', 'BIT_CAST_TO_INT64', 'BIT_CAST_TO_UINT32', 'BIT_CAST_TO_UINT64',
  'IFERROR', 'ISERROR', 'NULLIFERROR', 'ZEROIFNULL',
  'BOOL_ARRAY', 'DOUBLE', 'DOUBLE_ARRAY', 'FLOAT', 'FLOAT_ARRAY', 'FLOAT32', 'FLOAT32_ARRAY',
  'FLOAT64_ARRAY', 'INT32', 'INT32_ARRAY', 'INT64_ARRAY', 'STRING_ARRAY', 'UINT32', 'UINT32_ARRAY',
  'UINT64', 'UINT64_ARRAY', 'LAX_BOOL_ARRAY', 'LAX_DOUBLE', 'LAX_DOUBLE_ARRAY', 'LAX_FLOAT',
  'LAX_FLOAT_ARRAY', 'LAX_FLOAT32', 'LAX_FLOAT32_ARRAY', 'LAX_FLOAT64_ARRAY', 'LAX_INT32',
  'LAX_INT32_ARRAY', 'LAX_INT64_ARRAY', 'LAX_STRING_ARRAY', 'LAX_UINT32', 'LAX_UINT32_ARRAY',
  'LAX_UINT64', 'LAX_UINT64_ARRAY', 'JSON_CONTAINS', 'SAFE_TO_JSON',
  'HIGHWAY_FINGERPRINT128', 'IS_FIRST', 'IS_LAST', 'PI', 'REGEXP_EXTRACT_GROUPS', 'REGEXP_MATCH',
  'SPLIT_SUBSTR', 'ST_DUMPPOINTS', 'TIMESTAMP_FROM_UNIX_MICROS', 'TIMESTAMP_FROM_UNIX_MILLIS',
  'TIMESTAMP_FROM_UNIX_SECONDS',
  'ENUM_VALUE_DESCRIPTOR_PROTO', 'FILTER_FIELDS', 'FROM_PROTO', 'PROTO_DEFAULT_IF_NULL',
  'PROTO_MAP_CONTAINS_KEY', 'PROTO_MODIFY_MAP', 'REPLACE_FIELDS', 'TO_PROTO',
]);

/** ZetaSQL type names BigQuery's data types page does not have. */
export const ZETASQL_ONLY_TYPES: ReadonlySet<string> = new Set(['INT32', 'UINT32', 'UINT64', 'FLOAT', 'FLOAT32', 'DOUBLE', 'ENUM', 'PROTO', 'MAP', 'UUID', 'TOKENLIST']);

/** Sections (doc page → headings) of GoogleSQL syntax BigQuery's reference does not list. */
export const ZETASQL_ONLY_SECTIONS: Readonly<Record<string, readonly string[]>> = {
  // BigQuery's operators page (.../standard-sql/operators, mirror commit 2ec85f0a) lists field
  // access, array/struct/JSON subscripts, arithmetic, ..., WITH expression — no array elements
  // field access (`array_of_structs.field`).
  'operators.md': ['Array elements field access operator'],
  // BigQuery's pipe-syntax page (.../standard-sql/pipe-syntax, mirror commit 029ca9e3) lists the
  // pipe operators SELECT, EXTEND, SET, DROP, RENAME, AS, WHERE, AGGREGATE, DISTINCT, JOIN, CALL,
  // ORDER BY, LIMIT, UNION, INTERSECT, EXCEPT, TABLESAMPLE, WITH, PIVOT, UNPIVOT, MATCH_RECOGNIZE
  // — no DESCRIBE, IF, FORK or TEE.
  'pipe-syntax.md': ['DESCRIBE pipe operator', 'IF pipe operator', 'FORK terminal pipe operator', 'TEE semi-terminal pipe operator'],
};

/** Pages whose section headings name one function or conditional expression each. */
const FUNCTION_PAGE = /(_functions|-functions|^conditional_expressions)\.md$/;

/** A section heading as a function name (`REGEXP_MATCH (Deprecated)` → `REGEXP_MATCH`), or undefined. */
function sectionFunction(section: string | undefined): string | undefined {
  const m = /^([A-Z][A-Z0-9_]*(?:\.[A-Z][A-Z0-9_]*)*)(?:\s*\(.*\))?$/.exec((section ?? '').trim());
  return m?.[1];
}

/** Query text with comments, string/bytes literals and quoted identifiers blanked (one left-to-right scan). */
export function codeOnly(sql: string): string {
  const token = /--[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/|[rRbB]{0,2}(?:'{3}[\s\S]*?'{3}|"{3}[\s\S]*?"{3}|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")|`[^`]*`/g;
  return sql.replace(token, (t) => (t.startsWith('`') ? 'x' : /^[rRbB]{0,2}['"]/.test(t) ? "''" : ' '));
}

/** Upper-case names called in a query (`f(`, `NET.HOST(`), without a `SAFE.` prefix. */
export function calledFunctions(sql: string): Set<string> {
  const out = new Set<string>();
  for (const m of codeOnly(sql).matchAll(/([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\(/g)) {
    const n = m[1]!.toUpperCase();
    out.add(n.startsWith('SAFE.') ? n.slice(5) : n);
  }
  return out;
}

/** Why a case is not of a BigQuery feature (`function LAX_INT32`, `type DOUBLE`, `syntax …`), or undefined when it is. */
export type ScopeVerdict = { bigquery: true } | { bigquery: false; reason: string };

/**
 * Classifier over a loaded corpus: ZetaSQL-only function names are {@link ZETASQL_ONLY_FUNCTIONS}
 * plus the function section headings of the corpus's function pages that BigQuery's list lacks.
 */
export function makeScopeClassifier(corpus: readonly DocCase[]): (c: DocCase) => ScopeVerdict {
  const zetaOnly = new Set(ZETASQL_ONLY_FUNCTIONS);
  for (const c of corpus) {
    const f = FUNCTION_PAGE.test(c.doc) ? sectionFunction(c.section) : undefined;
    if (f && !BIGQUERY_FUNCTIONS.has(f)) zetaOnly.add(f);
  }
  return (c) => {
    const own = FUNCTION_PAGE.test(c.doc) ? sectionFunction(c.section) : undefined;
    if (own && zetaOnly.has(own)) return { bigquery: false, reason: `function ${own}` };
    if (ZETASQL_ONLY_SECTIONS[c.doc]?.includes(c.section ?? '')) return { bigquery: false, reason: `syntax: ${c.section}` };
    const sql = c.flags.expression ? `SELECT ${c.query}` : c.query;
    for (const f of calledFunctions(sql)) if (zetaOnly.has(f) && !BIGQUERY_FUNCTIONS.has(f)) return { bigquery: false, reason: `function ${f}` };
    const t = /(?:\bAS\s+|<\s*|,\s*)([A-Za-z_][A-Za-z0-9_]*)\b(?!\s*\()/gi;
    for (const m of codeOnly(sql).matchAll(t)) {
      const name = m[1]!.toUpperCase();
      if (ZETASQL_ONLY_TYPES.has(name)) return { bigquery: false, reason: `type ${name}` };
    }
    return { bigquery: true };
  };
}
