/**
 * JSON functions (GoogleSQL "JSON functions"). JSON values are DuckDB JSON text; functions that
 * build JSON values return BigQuery's canonical text (keys sorted, compact; see jsonlib.ts).
 *
 * JSONPath: BigQuery's `$.a`, `$['a']`, `$."a"`, `$[0]` are rewritten to DuckDB's `$."a"[0]` form
 * when the path is a constant. The STRING-input (legacy) extractors return NULL for invalid JSON.
 * TO_JSON_STRING keeps STRUCT field order and prints FLOAT64 like CAST(… AS STRING); TO_JSON
 * canonicalises. Mutators (JSON_SET, JSON_REMOVE, JSON_ARRAY_INSERT/APPEND, JSON_STRIP_NULLS)
 * and JSON_KEYS run as UDFs.
 */
import { BigQueryError } from '../errors/errors.js';
import { duckFieldName } from '../types/duckdb-types.js';
import type { BqType } from '../types/types.js';
import { timestampString } from './date-time-format.js';
import * as lib from './jsonlib.js';
import { defineUdf } from './builtin-udfs.js';
import type { FnCall, FnTable } from './registry.js';
import { numericText, intervalText } from './text.js';
import { fail, q, stringLiteral } from './util.js';

defineUdf('bq_json_canon', ['VARCHAR'], 'VARCHAR', (s) => lib.canonical(s));
defineUdf('bq_json_double', ['DOUBLE'], 'VARCHAR', (x) => lib.jsonDouble(x));
defineUdf('bq_json_pretty', ['VARCHAR'], 'VARCHAR', (s) => {
  const v = lib.parseJson(s);
  return v === undefined ? null : lib.pretty(v);
});
const withDoc = (doc: string, path: string, f: (d: lib.J, p: NonNullable<ReturnType<typeof lib.parsePath>>) => lib.J): string | null => {
  const d = lib.parseJson(doc);
  const p = lib.parsePath(path);
  return d === undefined || p === undefined ? null : lib.emit(f(d, p));
};
const val = (v: string): lib.J => lib.parseJson(v) ?? null;
defineUdf('bq_json_set', ['VARCHAR', 'VARCHAR', 'VARCHAR', 'BOOLEAN'], 'VARCHAR', (d, p, v, create) => withDoc(d, p, (doc, path) => lib.jsonSet(doc, path, val(v), create)));
defineUdf('bq_json_remove', ['VARCHAR', 'VARCHAR'], 'VARCHAR', (d, p) => withDoc(d, p, (doc, path) => lib.jsonRemove(doc, path)));
defineUdf('bq_json_array_insert', ['VARCHAR', 'VARCHAR', 'VARCHAR', 'BOOLEAN'], 'VARCHAR', (d, p, v, each) => withDoc(d, p, (doc, path) => lib.jsonArrayInsert(doc, path, val(v), each)));
defineUdf('bq_json_array_append', ['VARCHAR', 'VARCHAR', 'VARCHAR', 'BOOLEAN'], 'VARCHAR', (d, p, v, each) => withDoc(d, p, (doc, path) => lib.jsonArrayAppend(doc, path, val(v), each)));
defineUdf('bq_json_strip_nulls', ['VARCHAR', 'VARCHAR', 'BOOLEAN', 'BOOLEAN'], 'VARCHAR', (d, p, arrays, empty) => withDoc(d, p, (doc, path) => lib.jsonStripNulls(doc, path, arrays, empty)));
defineUdf('bq_json_keys', ['VARCHAR', 'BIGINT', 'BOOLEAN'], 'VARCHAR', (d, depth, lax) => {
  const doc = lib.parseJson(d);
  return doc === undefined ? null : JSON.stringify(lib.jsonKeys(doc, Number(depth), lax));
});

/** A BigQuery JSONPath constant rewritten for DuckDB; non-constant paths pass through. */
export function duckPath(pathSql: string): string {
  const p = stringLiteral(pathSql);
  if (p === undefined) return pathSql;
  const steps = lib.parsePath(p);
  if (!steps) throw BigQueryError.invalidJsonPath(p);
  return q('$' + steps.map((s) => ('key' in s ? `."${s.key.replace(/(["\\])/g, '\\$1')}"` : `[${s.index}]`)).join(''));
}

const isJson = (c: FnCall, i = 0) => c.argTypes[i]?.kind === 'JSON';
/** The document argument as DuckDB JSON; invalid STRING JSON becomes NULL. */
const doc = (c: FnCall) => (isJson(c) ? c.args[0] : `(CASE WHEN json_valid(${c.args[0]}) THEN CAST(${c.args[0]} AS JSON) END)`);
const pathOf = (c: FnCall, i = 1) => (c.args[i] === undefined ? `'$'` : duckPath(c.args[i]));

/**
 * JSON_QUERY / JSON_EXTRACT: the value at the path as JSON text (STRING input) or JSON. For STRING
 * input a JSON `null` at the path is SQL NULL (json_functions#json_query example
 * `JSON_QUERY('{"class": {"students": [{"name": "John"}, {"name": null}]}}', '$.class.students[1].name')`
 * → NULL; #json_extract `JSON_EXTRACT("null", "$")` → NULL); JSON input keeps JSON `null`.
 */
function query(c: FnCall): string {
  const v = `json_extract(${doc(c)}, ${pathOf(c)})`;
  return isJson(c) ? v : `(CASE WHEN json_type(${v}) = 'NULL' THEN NULL ELSE CAST(${v} AS VARCHAR) END)`;
}

const scalarTypes = `('VARCHAR', 'BIGINT', 'UBIGINT', 'DOUBLE', 'BOOLEAN', 'HUGEINT')`;

/** JSON_VALUE / JSON_EXTRACT_SCALAR: a scalar as STRING; NULL for objects, arrays, null. */
function value(c: FnCall): string {
  const d = doc(c);
  const p = pathOf(c);
  return `CASE WHEN json_type(${d}, ${p}) IN ${scalarTypes} THEN json_extract_string(${d}, ${p}) END`;
}

/** JSON_QUERY_ARRAY / JSON_EXTRACT_ARRAY: elements as JSON text (or JSON). */
function queryArray(c: FnCall): string {
  const d = doc(c);
  const p = pathOf(c);
  const el = isJson(c) ? 'x' : 'CAST(x AS VARCHAR)';
  // Element by element so that JSON `null` elements stay JSON (jsonArrayElements).
  return `CASE WHEN json_type(${d}, ${p}) = 'ARRAY' THEN list_transform(list_extract(list_transform([json_extract(${d}, ${p})], j -> ${jsonArrayElements('j')}), 1), x -> ${el}) END`;
}

/** JSON_VALUE_ARRAY / JSON_EXTRACT_STRING_ARRAY: scalar elements as STRING; NULL if any is not. */
function valueArray(c: FnCall): string {
  const d = doc(c);
  const p = pathOf(c);
  const els = `CAST(json_extract(${d}, ${p}) AS JSON[])`;
  return `CASE WHEN json_type(${d}, ${p}) = 'ARRAY' AND NOT list_contains(list_transform(${els}, x -> json_type(x) IN ('OBJECT', 'ARRAY')), true) THEN list_transform(${els}, x -> json_extract_string(x, '$')) END`;
}

interface JsonOpts {
  /** TO_JSON_STRING prints FLOAT64 like CAST AS STRING; TO_JSON like BigQuery's JSON values. */
  floats: 'string' | 'json';
  wide: boolean;
}

/** JSON text of a value of type t (SQL). */
export function jsonText(x: string, t: BqType, o: JsonOpts): string {
  const body = ((): string => {
    switch (t.kind) {
      case 'BOOL':
        return `CASE WHEN ${x} THEN 'true' ELSE 'false' END`;
      case 'INT64':
        return o.wide ? `CASE WHEN abs(${x}) > 9007199254740992 THEN '"' || CAST(${x} AS VARCHAR) || '"' ELSE CAST(${x} AS VARCHAR) END` : `CAST(${x} AS VARCHAR)`;
      case 'FLOAT64': {
        const num = o.floats === 'json' ? `bq_json_double(${x})` : `bq_float_text(${x})`;
        return `CASE WHEN isnan(${x}) THEN '"NaN"' WHEN ${x} = 'Infinity'::DOUBLE THEN '"Infinity"' WHEN ${x} = '-Infinity'::DOUBLE THEN '"-Infinity"' ELSE ${num} END`;
      }
      case 'NUMERIC':
      case 'BIGNUMERIC': {
        const s = t.kind === 'NUMERIC' ? numericText(x) : `CAST(${x} AS VARCHAR)`;
        return o.wide ? `CASE WHEN regexp_full_match(${s}, '-?[0-9]{1,15}') THEN ${s} ELSE '"' || ${s} || '"' END` : s;
      }
      case 'STRING':
        return `CAST(to_json(${x}) AS VARCHAR)`;
      case 'BYTES':
        return `'"' || to_base64(${x}) || '"'`;
      case 'DATE':
      case 'TIME':
        return `'"' || CAST(${x} AS VARCHAR) || '"'`;
      case 'DATETIME':
        return `'"' || replace(CAST(${x} AS VARCHAR), ' ', 'T') || '"'`;
      case 'TIMESTAMP':
        return `'"' || replace(CAST(timezone('UTC', ${x}) AS VARCHAR), ' ', 'T') || 'Z"'`;
      case 'INTERVAL':
        return `'"' || ${intervalText(x)} || '"'`;
      case 'JSON':
        return `bq_json_canon(CAST(${x} AS VARCHAR))`;
      case 'ARRAY':
        return `'[' || array_to_string(list_transform(${x}, e -> ${jsonText('e', t.element, o)}), ',') || ']'`;
      case 'STRUCT': {
        const parts = t.fields.map((f, i) => `'${JSON.stringify(f.name).replace(/'/g, "''")}:' || ${jsonText(`struct_extract(${x}, '${duckFieldName(t, i).replace(/'/g, "''")}')`, f.type, o)}`);
        // A NULL STRUCT's fields read as NULL in DuckDB: test the STRUCT itself (`null`, not `{"a":null}`).
        return `CASE WHEN ${x} IS NOT NULL THEN ${parts.length ? `'{' || ${parts.join(` || ',' || `)} || '}'` : `'{}'`} END`;
      }
      default:
        throw BigQueryError.notSupported(`JSON encoding of ${t.kind}`);
    }
  })();
  return `coalesce(${body}, 'null')`;
}

const boolArg = (c: FnCall, i: number, dflt: boolean) => c.args[i] ?? (dflt ? 'TRUE' : 'FALSE');

function toJsonString(c: FnCall): string {
  const text = jsonText(c.args[0], c.argTypes[0], { floats: 'string', wide: false });
  if (c.args[1] === undefined || /^FALSE$/i.test(c.args[1].trim())) return text;
  return `CASE WHEN ${c.args[1]} THEN bq_json_pretty(${text}) ELSE ${text} END`;
}

function toJson(c: FnCall): string {
  const wide = c.args[1] !== undefined && /^TRUE$/i.test(c.args[1].trim());
  return `CAST(bq_json_canon(${jsonText(c.args[0], c.argTypes[0], { floats: 'json', wide })}) AS JSON)`;
}

const asJson = (c: FnCall, i: number) => jsonText(c.args[i], c.argTypes[i], { floats: 'json', wide: false });
const canonJson = (text: string) => `CAST(bq_json_canon(${text}) AS JSON)`;

/** JSON_OBJECT(key, value, …) or JSON_OBJECT(keys_array, values_array); duplicate keys keep the first. */
function jsonObject(c: FnCall): string {
  if (!c.args.length) return `CAST('{}' AS JSON)`;
  if (c.argTypes[0]?.kind === 'ARRAY') {
    const [k, v] = c.args;
    const vt = c.argTypes[1];
    const el = vt?.kind === 'ARRAY' ? vt.element : { kind: 'JSON' as const };
    const pair = `CAST(to_json(list_extract(${k}, i)) AS VARCHAR) || ':' || ${jsonText(`list_extract(${v}, i)`, el, { floats: 'json', wide: false })}`;
    const text = `'{' || array_to_string(list_transform(range(1, len(${k}) + 1), i -> ${pair}), ',') || '}'`;
    return `CASE WHEN ${k} IS NULL THEN ${fail(c, `'The keys array can''t be NULL.'`)} WHEN ${v} IS NULL THEN ${fail(c, `'The values array can''t be NULL.'`)} WHEN len(${k}) <> len(${v}) THEN ${fail(c, `'The number of keys and values must match.'`)} WHEN list_contains(list_transform(${k}, x -> x IS NULL), true) THEN ${fail(c, `'A key can''t be NULL.'`)} ELSE ${canonJson(text)} END`;
  }
  const parts: string[] = [];
  const keys: string[] = [];
  for (let i = 0; i + 1 < c.args.length; i += 2) {
    keys.push(c.args[i]);
    parts.push(`CAST(to_json(${c.args[i]}) AS VARCHAR) || ':' || ${asJson(c, i + 1)}`);
  }
  const text = `'{' || ${parts.join(` || ',' || `)} || '}'`;
  return `CASE WHEN ${keys.map((k) => `${k} IS NULL`).join(' OR ')} THEN ${fail(c, `'A key can''t be NULL.'`)} ELSE ${canonJson(text)} END`;
}

function jsonArray(c: FnCall): string {
  if (!c.args.length) return `CAST('[]' AS JSON)`;
  return canonJson(`'[' || ${c.args.map((_a, i) => asJson(c, i)).join(` || ',' || `)} || ']'`);
}

/** JSON_SET / JSON_ARRAY_INSERT / JSON_ARRAY_APPEND(json, path, value, …[, flag]). */
function mutator(udf: string, flagDefault: boolean) {
  return (c: FnCall) => {
    const pairs = c.args.length % 2 === 0 ? c.args.length - 1 : c.args.length;
    const flag = c.args.length % 2 === 0 ? c.args[c.args.length - 1] : flagDefault ? 'TRUE' : 'FALSE';
    let d = `CAST(${c.args[0]} AS VARCHAR)`;
    for (let i = 1; i + 1 < pairs; i += 2) d = `${udf}(${d}, ${c.args[i]}, ${asJson(c, i + 1)}, ${flag})`;
    return `CAST(${d} AS JSON)`;
  };
}

function jsonRemove(c: FnCall): string {
  let d = `CAST(${c.args[0]} AS VARCHAR)`;
  for (const p of c.args.slice(1)) d = `bq_json_remove(${d}, ${p})`;
  return `CAST(${d} AS JSON)`;
}

/** INT64/FLOAT64/BOOL/STRING(json): strict conversions with BigQuery's errors. */
function strict(kind: 'int64' | 'float64' | 'bool' | 'string') {
  return (c: FnCall) => {
    if (kind === 'string' && c.argTypes[0]?.kind === 'TIMESTAMP') return timestampString(c.args[0], c.args[1]);
    const j = c.args[0];
    const t = `json_type(${j})`;
    const cases = {
      int64: [`${t} IN ('BIGINT', 'UBIGINT', 'DOUBLE', 'HUGEINT') AND TRY_CAST(TRY_CAST(${j} AS DOUBLE) AS BIGINT) IS NOT NULL AND TRY_CAST(${j} AS DOUBLE) = floor(TRY_CAST(${j} AS DOUBLE))`, `CAST(TRY_CAST(${j} AS DOUBLE) AS BIGINT)`, 'an integer'],
      float64: [`${t} IN ('BIGINT', 'UBIGINT', 'DOUBLE', 'HUGEINT')`, `TRY_CAST(${j} AS DOUBLE)`, 'a number'],
      bool: [`${t} = 'BOOLEAN'`, `TRY_CAST(${j} AS BOOLEAN)`, 'a boolean'],
      string: [`${t} = 'VARCHAR'`, `json_extract_string(${j}, '$')`, 'a string'],
    }[kind];
    const intExact = kind === 'int64' ? `WHEN ${t} IN ('BIGINT', 'UBIGINT', 'HUGEINT') AND TRY_CAST(CAST(${j} AS VARCHAR) AS BIGINT) IS NOT NULL THEN CAST(CAST(${j} AS VARCHAR) AS BIGINT) ` : '';
    return `CASE WHEN ${j} IS NULL THEN NULL ${intExact}WHEN ${cases[0]} THEN ${cases[1]} ELSE ${fail(c, `'The provided JSON input is not ${cases[2]}'`)} END`;
  };
}

/** LAX_* conversions: NULL when the value cannot be converted. */
function lax(kind: 'int64' | 'float64' | 'bool' | 'string') {
  return (c: FnCall) => {
    const j = c.args[0];
    const t = `json_type(${j})`;
    const str = `json_extract_string(${j}, '$')`;
    const num = `TRY_CAST(${j} AS DOUBLE)`;
    const strNum = `TRY_CAST(trim(${str}) AS DOUBLE)`;
    const toInt = (d: string) => `CASE WHEN abs(round(${d})) < 9.223372036854775807e18 THEN CAST(round(${d}) AS BIGINT) END`;
    switch (kind) {
      case 'int64':
        return `CASE ${t} WHEN 'BOOLEAN' THEN CASE WHEN TRY_CAST(${j} AS BOOLEAN) THEN 1 ELSE 0 END WHEN 'VARCHAR' THEN ${toInt(strNum)} WHEN 'BIGINT' THEN TRY_CAST(CAST(${j} AS VARCHAR) AS BIGINT) WHEN 'UBIGINT' THEN TRY_CAST(CAST(${j} AS VARCHAR) AS BIGINT) WHEN 'DOUBLE' THEN ${toInt(num)} END`;
      case 'float64':
        return `CASE ${t} WHEN 'VARCHAR' THEN ${strNum} WHEN 'BIGINT' THEN ${num} WHEN 'UBIGINT' THEN ${num} WHEN 'DOUBLE' THEN ${num} WHEN 'HUGEINT' THEN ${num} END`;
      case 'bool':
        return `CASE ${t} WHEN 'BOOLEAN' THEN TRY_CAST(${j} AS BOOLEAN) WHEN 'VARCHAR' THEN CASE lower(${str}) WHEN 'true' THEN TRUE WHEN 'false' THEN FALSE END WHEN 'BIGINT' THEN ${num} <> 0 WHEN 'UBIGINT' THEN ${num} <> 0 WHEN 'DOUBLE' THEN ${num} <> 0 END`;
      case 'string':
        return `CASE ${t} WHEN 'VARCHAR' THEN ${str} WHEN 'BOOLEAN' THEN CAST(${j} AS VARCHAR) WHEN 'BIGINT' THEN CAST(${j} AS VARCHAR) WHEN 'UBIGINT' THEN CAST(${j} AS VARCHAR) WHEN 'DOUBLE' THEN bq_json_canon(CAST(${j} AS VARCHAR)) END`;
    }
  };
}

const JSON_TYPE_NAMES = `CASE json_type(x) WHEN 'OBJECT' THEN 'object' WHEN 'ARRAY' THEN 'array' WHEN 'VARCHAR' THEN 'string' WHEN 'BOOLEAN' THEN 'boolean' WHEN 'NULL' THEN 'null' ELSE 'number' END`;

function subscript(c: FnCall): string {
  const [j, k] = c.args;
  if (c.argTypes[1]?.kind === 'INT64') return `CASE WHEN ${k} < 0 THEN NULL ELSE json_extract(${j}, '$[' || CAST(${k} AS VARCHAR) || ']') END`;
  return `json_extract(${j}, '$."' || replace(replace(${k}, '\\', '\\\\'), '"', '\\"') || '"')`;
}

/*
 * JSON_FLATTEN(json_expr) → ARRAY<JSON>: every non-array value that is the input itself or a child
 * of one or more consecutively nested arrays of it, in document order (json_functions#json_flatten:
 * `JSON '[[[1, 2], 3], {"a": 4}, true]'` → `[1, 2, 3, {"a":4}, true]`; `JSON '[1, 2, null]'` →
 * `[1, 2, null]`); a SQL NULL input gives NULL. The analyzer signature is in
 * src/analyzer/catalog-functions.ts.
 */

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

/** The json_functions page. */
export const JSON_FUNCTIONS: FnTable = {
  json_extract: query,
  json_query: query,
  json_extract_scalar: value,
  json_value: value,
  json_extract_array: queryArray,
  json_query_array: queryArray,
  json_extract_string_array: valueArray,
  json_value_array: valueArray,
  to_json_string: toJsonString,
  to_json: toJson,
  parse_json: (c) => {
    const s = c.args[0];
    return `CASE WHEN ${s} IS NULL THEN NULL WHEN bq_json_canon(${s}) IS NULL THEN ${fail(c, `'Invalid input to PARSE_JSON: ' || ${s}`)} ELSE CAST(bq_json_canon(${s}) AS JSON) END`;
  },
  json_type: (c) => JSON_TYPE_NAMES.replace(/\bx\b/g, c.args[0]),
  json_object: jsonObject,
  json_array: jsonArray,
  json_set: mutator('bq_json_set', true),
  json_array_insert: mutator('bq_json_array_insert', true),
  json_array_append: mutator('bq_json_array_append', true),
  json_remove: jsonRemove,
  json_strip_nulls: (c) => `CAST(bq_json_strip_nulls(CAST(${c.args[0]} AS VARCHAR), ${c.args[1] ?? `'$'`}, ${boolArg(c, 2, true)}, ${boolArg(c, 3, false)}) AS JSON)`,
  json_keys: (c) => `CAST(json(bq_json_keys(CAST(${c.args[0]} AS VARCHAR), ${c.args[1] ?? '9223372036854775807'}, ${c.args[2] ? `lower(${c.args[2]}) LIKE 'lax%'` : 'FALSE'})) AS VARCHAR[])`,
  $subscript: subscript,
  int64: strict('int64'),
  float64: strict('float64'),
  bool: strict('bool'),
  string: strict('string'),
  lax_int64: lax('int64'),
  lax_float64: lax('float64'),
  lax_bool: lax('bool'),
  lax_string: lax('string'),
  json_flatten: (c) => `list_extract(list_transform([CAST(bq_json_flatten(CAST(${c.args[0]} AS VARCHAR)) AS JSON)], j -> ${jsonArrayElements('j')}), 1)`,
  // JSON subscripts: json['key'], json[0] (json_functions#json_subscript_operator): a missing
  // member or element is NULL.
  $subscript_with_key: (c) => `json_extract(${c.args[0]}, '$.' || to_json(${c.args[1]})::VARCHAR)`,
  $subscript_with_offset: (c) => `json_extract(${c.args[0]}, '$[' || CAST(${c.args[1]} AS VARCHAR) || ']')`,
  $subscript_with_ordinal: { unsupported: 'ORDINAL subscripts of JSON are not BigQuery syntax' },
};
