/**
 * The SQL around a JavaScript UDF call that puts BigQuery's "SQL type encodings in JavaScript"
 * (https://cloud.google.com/bigquery/docs/user-defined-functions, "Supported JavaScript UDF data
 * types") on the JSON the sandbox exchanges (src/functions/js-udf-sandbox.ts converts that JSON to
 * and from JavaScript values).
 *
 * Arguments: NUMERIC travels as its canonical decimal text (BIGNUMERIC already is text), so the
 * sandbox can tell an integer in [-2^53, 2^53] (a Number) from any other value (a String) without
 * the rounding of a JSON number; BYTES travels as base64 text (the page: "base64-encoded STRING").
 *
 * Results: the sandbox answers DATE, DATETIME, TIME, TIMESTAMP, NUMERIC, BIGNUMERIC and BYTES as
 * strings; DATE … BIGNUMERIC are then converted as `CAST(<string> AS <type>)` is, with its
 * validation and BigQuery's error texts (`Invalid date: '2020-1-5x'`, `Invalid NUMERIC value: 1e+50`),
 * and BYTES is base64-decoded as FROM_BASE64 does (`Failed to decode invalid base64 string`). The
 * page is silent on how results convert, except for INT64 ("the JavaScript function body can return
 * either a JavaScript Number or a String. BigQuery then converts either of these types to INT64"):
 * the same string conversion is the one a BigQuery user expects for the other types.
 */
import type { BqType } from '../types/types.js';
import { duckFieldNames, quoteIdent } from '../types/duckdb-types.js';
import { castSql } from './conversion.js';
import { sqlString, type FnCall } from './registry.js';
import { fromBase64 } from './string-encoding.js';
import { castToString } from './text.js';

/**
 * `x` (SQL of a value of type `t`) with `leaf` applied to every scalar inside it (through ARRAY
 * elements and STRUCT fields, keeping NULLs); undefined when `leaf` changes no scalar (it answers
 * undefined for those it keeps). `depth` names the lambda variables apart.
 */
function mapScalars(x: string, t: BqType, leaf: (x: string, t: BqType) => string | undefined, depth = 0): string | undefined {
  if (t.kind === 'ARRAY') {
    const e = `__js_e${depth}`;
    const inner = mapScalars(e, t.element, leaf, depth + 1);
    return inner === undefined ? undefined : `list_transform(${x}, ${e} -> ${inner})`;
  }
  if (t.kind === 'STRUCT') {
    const names = duckFieldNames(t);
    const fields = names.map((n) => `struct_extract(${x}, ${sqlString(n)})`);
    const mapped = t.fields.map((f, i) => mapScalars(fields[i], f.type, leaf, depth + 1));
    if (mapped.every((m) => m === undefined)) return undefined;
    return `CASE WHEN ${x} IS NULL THEN NULL ELSE struct_pack(${names.map((n, i) => `${quoteIdent(n)} := ${mapped[i] ?? fields[i]}`).join(', ')}) END`;
  }
  return leaf(x, t);
}

/** The scalars a result carries as strings (converted back by {@link jsUdfResultSql}). */
const AS_STRING = new Set<BqType['kind']>(['DATE', 'DATETIME', 'TIME', 'TIMESTAMP', 'NUMERIC', 'BIGNUMERIC', 'BYTES']);

/** `t` with every scalar of {@link AS_STRING} replaced by STRING: the type of the sandbox's JSON answer. */
function wireType(t: BqType): BqType {
  if (t.kind === 'ARRAY') return { ...t, element: wireType(t.element) };
  if (t.kind === 'STRUCT') return { ...t, fields: t.fields.map((f) => ({ ...f, type: wireType(f.type) })) };
  return AS_STRING.has(t.kind) ? { kind: 'STRING' } : t;
}

/**
 * SQL of argument `x` (type `t`) as the value `to_json` should serialise for the sandbox: NUMERIC
 * as canonical decimal text, BYTES as base64 text, anything else unchanged.
 */
export function jsUdfArgSql(x: string, t: BqType): string {
  return (
    mapScalars(x, t, (v, s) => {
      if (s.kind === 'NUMERIC') return castToString(v, s);
      if (s.kind === 'BYTES') return `to_base64(${v})`;
      return undefined;
    }) ?? x
  );
}

/**
 * SQL of a UDF's result of declared type `c.returnType` from `json` (SQL of the sandbox's JSON
 * answer, type JSON): strings converted as CAST(STRING AS type) and BYTES as FROM_BASE64 (with
 * their error texts; NULL instead under SAFE), other values cast from JSON.
 */
export function jsUdfResultSql(c: FnCall, json: string): string {
  const t = c.returnType;
  const wire = wireType(t);
  const duck = c.duckType(wire);
  const raw = duck === 'VARCHAR' ? `(${json} ->> '$')` : `CAST(${json} AS ${duck})`;
  const converted = mapScalars(raw, t, (v, s) => {
    if (s.kind === 'BYTES') return fromBase64({ ...c, args: [v], argTypes: [{ kind: 'STRING' }] });
    return AS_STRING.has(s.kind) ? castSql(c, v, { kind: 'STRING' }, s) : undefined;
  });
  return converted ?? raw;
}
