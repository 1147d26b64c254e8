/**
 * REST `TableFieldSchema` ⇄ BigQuery type model.
 *
 * Source: TableFieldSchema in src/server/rest/bigquery-v2-discovery.json. BigQuery answers with the legacy
 * type names (INTEGER, FLOAT, BOOLEAN, RECORD) in table and query schemas; it accepts both the
 * legacy and the GoogleSQL names on input.
 */
import { quoteIdentIfNeeded, typeToSql, type BqType, type ScalarKind } from './types.js';
import { BigQueryError } from '../errors/errors.js';
import { MAX_COLUMN_NAME_LENGTH } from '../config/limits.js';
import { paramsFromField, paramsToField, paramTarget, paramTypeText, treeHasParams, type ParamTree } from './type-params.js';

/** A REST TableFieldSchema (subset of fields this layer reads and writes). */
export interface TableFieldSchema {
  name: string;
  type: string;
  mode?: 'NULLABLE' | 'REQUIRED' | 'REPEATED' | string;
  fields?: TableFieldSchema[];
  description?: string;
  rangeElementType?: { type: string };
  defaultValueExpression?: string;
  maxLength?: string;
  precision?: string;
  scale?: string;
  [k: string]: unknown;
}

/**
 * What a table schema says of a field beyond its type, kept so that REST answers the schema as it
 * was sent (nodejs-bigquery system test "should create a table with a nested schema"): the mode
 * only when one was given, descriptions and REQUIRED of nested fields, type parameters
 * (src/types/type-params.ts). A REPEATED field's parameters apply to its elements; `subfields`
 * follow the fields of a RECORD (or of a REPEATED RECORD's element) by position.
 */
export interface FieldDetails extends ParamTree {
  /**
   * The field was defined without a mode (a DDL column, a REST field sent without `mode`): a
   * NULLABLE field then answers without `mode` (recorded http/jobs/tables_get_basic).
   */
  modeOmitted?: boolean;
  /** REQUIRED (nested fields; a column's own flag is `Column.required`). */
  required?: boolean;
  description?: string;
  subfields?: (FieldDetails | undefined)[];
  /**
   * 12: a TIMESTAMP with picosecond precision (REST `timestampPrecision: '12'`; the default 6 is
   * not kept). Stored as in src/engine/picos-storage.ts.
   */
  timestampPrecision?: 12;
}

/** A column of a stored table: its name, type and whether it is REQUIRED, plus its FieldDetails. */
export interface Column extends FieldDetails {
  name: string;
  type: BqType;
  required: boolean;
  description?: string;
  /** GoogleSQL text of the column's DEFAULT (REST `defaultValueExpression`). */
  defaultValueExpression?: string;
  /** The DEFAULT lowered to DuckDB (engine-private). */
  defaultSql?: string;
}

const INPUT_NAMES: Record<string, ScalarKind | 'STRUCT' | 'RANGE'> = {
  INTEGER: 'INT64', INT64: 'INT64', FLOAT: 'FLOAT64', FLOAT64: 'FLOAT64', NUMERIC: 'NUMERIC',
  DECIMAL: 'NUMERIC', BIGNUMERIC: 'BIGNUMERIC', BIGDECIMAL: 'BIGNUMERIC', BOOLEAN: 'BOOL', BOOL: 'BOOL',
  STRING: 'STRING', BYTES: 'BYTES', DATE: 'DATE', DATETIME: 'DATETIME', TIME: 'TIME',
  TIMESTAMP: 'TIMESTAMP', INTERVAL: 'INTERVAL', JSON: 'JSON', GEOGRAPHY: 'GEOGRAPHY',
  RECORD: 'STRUCT', STRUCT: 'STRUCT', RANGE: 'RANGE',
};

/** The legacy name BigQuery writes in REST schemas for each kind. */
export const REST_TYPE_NAME: Record<ScalarKind | 'STRUCT' | 'RANGE', string> = {
  INT64: 'INTEGER', FLOAT64: 'FLOAT', NUMERIC: 'NUMERIC', BIGNUMERIC: 'BIGNUMERIC', BOOL: 'BOOLEAN',
  STRING: 'STRING', BYTES: 'BYTES', DATE: 'DATE', DATETIME: 'DATETIME', TIME: 'TIME',
  TIMESTAMP: 'TIMESTAMP', INTERVAL: 'INTERVAL', JSON: 'JSON', GEOGRAPHY: 'GEOGRAPHY',
  STRUCT: 'RECORD', RANGE: 'RANGE',
};

/**
 * Converts a REST field to a column, keeping what was sent (mode given or not, nested REQUIRED and
 * descriptions, maxLength / precision / scale / roundingMode).
 * @throws BigQueryError `invalid` (400) for an unknown type name, a RECORD without fields, or type
 *   parameters that do not fit the type (src/types/type-params.ts).
 */
export function columnFromField(f: TableFieldSchema): Column {
  const { type, details } = parseField(f);
  const { required, ...rest } = details;
  const c: Column = { name: f.name, type, required: !!required, ...rest };
  // A column's DEFAULT as GoogleSQL text (lowered by the engine: src/engine/ddl.ts withDefaultSql).
  if (typeof f.defaultValueExpression === 'string' && f.defaultValueExpression.trim()) c.defaultValueExpression = f.defaultValueExpression;
  return c;
}

/**
 * Refuses a column (field) name longer than BigQuery's 300 characters
 * (https://cloud.google.com/bigquery/docs/schemas#column_names), also inside STRUCT types.
 * @throws BigQueryError `invalid` "Invalid field name "…". Fields must contain the allowed
 *   characters, and be at most 300 characters long. …"
 */
export function checkFieldNames(name: string, type?: BqType): void {
  if (name.length > MAX_COLUMN_NAME_LENGTH && [...name].length > MAX_COLUMN_NAME_LENGTH) throw BigQueryError.invalidFieldName(name);
  if (type?.kind === 'ARRAY') checkFieldNames('', type.element);
  else if (type?.kind === 'STRUCT') for (const f of type.fields) checkFieldNames(f.name ?? '', f.type);
}

function parseField(f: TableFieldSchema): { type: BqType; details: FieldDetails } {
  if (!f || typeof f.name !== 'string' || f.name === '') throw BigQueryError.emptyFieldName();
  checkFieldNames(f.name);
  const name = INPUT_NAMES[String(f.type ?? '').toUpperCase()];
  if (!name) throw BigQueryError.invalidFieldType(String(f.type));
  const details: FieldDetails = {};
  let type: BqType;
  if (name === 'STRUCT') {
    if (!f.fields?.length) throw BigQueryError.recordWithoutFields(f.name);
    const subs = f.fields.map(parseField);
    type = { kind: 'STRUCT', fields: subs.map((sub, i) => ({ name: f.fields![i].name, type: sub.type })) };
    if (subs.some((sub) => Object.keys(sub.details).length)) details.subfields = subs.map((sub) => sub.details);
  } else if (name === 'RANGE') {
    const el = INPUT_NAMES[String(f.rangeElementType?.type ?? '').toUpperCase()];
    if (el !== 'DATE' && el !== 'DATETIME' && el !== 'TIMESTAMP')
      throw BigQueryError.rangeElementTypeRequired(f.name);
    type = { kind: 'RANGE', element: { kind: el } };
  } else type = { kind: name };
  const mode = f.mode === undefined || f.mode === null ? undefined : String(f.mode).toUpperCase();
  if (mode === 'REPEATED') type = { kind: 'ARRAY', element: type };
  if (mode === undefined) details.modeOmitted = true;
  if (mode === 'REQUIRED') details.required = true;
  if (f.description !== undefined) {
    // Column descriptions: at most 1,024 characters (https://cloud.google.com/bigquery/quotas#table_limits).
    if (typeof f.description === 'string' && f.description.length > 1024 && [...f.description].length > 1024) throw BigQueryError.fieldDescriptionTooLong(f.name);
    details.description = f.description;
  }
  Object.assign(details, paramsFromField(f, type));
  if (timestampPrecisionOf(f, type) === 12) details.timestampPrecision = 12;
  return { type, details };
}

/** Converts a column (or a result column, never REQUIRED) to a REST field. */
export function fieldFromType(name: string, type: BqType, required = false, description?: string): TableFieldSchema {
  let mode = required ? 'REQUIRED' : 'NULLABLE';
  let t = type;
  if (t.kind === 'ARRAY') {
    mode = 'REPEATED';
    t = t.element;
  }
  const out: TableFieldSchema = { name, type: REST_TYPE_NAME[t.kind as ScalarKind | 'STRUCT' | 'RANGE'] ?? t.kind, mode };
  if (t.kind === 'STRUCT') out.fields = t.fields.map((sf, i) => fieldFromType(sf.name || `_field_${i + 1}`, sf.type));
  if (t.kind === 'RANGE') out.rangeElementType = { type: t.element.kind };
  if (description !== undefined) out.description = description;
  return out;
}

/**
 * A stored column as a REST field, as it was defined: `mode` left out for a NULLABLE field defined
 * without one, nested REQUIRED / descriptions and type parameters (int64 strings) kept.
 */
export function fieldFromColumn(c: Column): TableFieldSchema {
  const f = fieldFromDetails(c.name, c.type, c);
  if (c.defaultValueExpression) f.defaultValueExpression = c.defaultValueExpression;
  return f;
}

function fieldFromDetails(name: string, type: BqType, d: FieldDetails | undefined): TableFieldSchema {
  const f = fieldFromType(name, type, !!d?.required);
  if (d?.modeOmitted && f.mode === 'NULLABLE') delete f.mode;
  const t = paramTarget(type);
  if (t.kind === 'STRUCT') f.fields = t.fields.map((sf, i) => fieldFromDetails(sf.name || `_field_${i + 1}`, sf.type, d?.subfields?.[i]));
  if (d?.description !== undefined) f.description = d.description;
  paramsToField(d, f);
  if (d?.timestampPrecision === 12) f.timestampPrecision = '12';
  return f;
}

/**
 * A field's `timestampPrecision`: 6 (the default, microseconds) or 12 (picoseconds), only on a
 * TIMESTAMP field (REPEATED too). TableFieldSchema.timestampPrecision,
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/tables#TableFieldSchema.FIELDS.timestamp_precision
 * @throws BigQueryError invalid (400) naming the field for another value or another type.
 */
function timestampPrecisionOf(f: TableFieldSchema, type: BqType): 6 | 12 {
  const raw = f.timestampPrecision;
  if (raw === undefined || raw === null) return 6;
  const s = String(raw).trim();
  if (s !== '6' && s !== '12') throw BigQueryError.fieldTypeParameter(f.name, `timestampPrecision must be 6 or 12, got ${s}.`);
  if (paramTarget(type).kind !== 'TIMESTAMP') throw BigQueryError.fieldTypeParameter(f.name, 'timestampPrecision can only be set for TIMESTAMP fields.');
  return s === '12' ? 12 : 6;
}

/**
 * A column's GoogleSQL type with its parameters (INFORMATION_SCHEMA.COLUMNS `data_type`):
 * `STRING(10)`, `NUMERIC(10, 2)`, `ARRAY<STRING(3)>`, `STRUCT<x NUMERIC(5)>`.
 */
export function columnTypeSql(type: BqType, d: FieldDetails | undefined): string {
  if (!treeHasParams(type, d)) return typeToSql(type);
  if (type.kind === 'ARRAY') return `ARRAY<${columnTypeSql(type.element, d)}>`;
  if (type.kind === 'STRUCT') {
    const fields = type.fields.map((sf, i) => {
      const inner = columnTypeSql(sf.type, d?.subfields?.[i]);
      return sf.name ? `${quoteIdentIfNeeded(sf.name)} ${inner}` : inner;
    });
    return `STRUCT<${fields.join(', ')}>`;
  }
  return paramTypeText(type.kind, d);
}
