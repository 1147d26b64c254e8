/**
 * REST `TableFieldSchema` ⇄ BigQuery type model.
 *
 * Source: TableFieldSchema in api/bigquery-v2-discovery.json. BigQuery answers with the legacy
 * type names (INTEGER, FLOAT, BOOLEAN, RECORD) in table and query schemas; it accepts both the
 * legacy and the GoogleSQL names on input.
 */
import type { BqType, ScalarKind } from './types.js';
import { BigQueryError } from '../errors/errors.js';

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

/** A column of a stored table: its name, type and whether it is REQUIRED. */
export interface Column {
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
 * Converts a REST field to a column.
 * @throws BigQueryError `invalid` (400) for an unknown type name or a RECORD without fields.
 */
export function columnFromField(f: TableFieldSchema): Column {
  if (!f || typeof f.name !== 'string' || f.name === '') throw BigQueryError.invalid('Empty field name', 'schema');
  const name = INPUT_NAMES[String(f.type ?? '').toUpperCase()];
  if (!name) throw BigQueryError.invalid(`Invalid field type: ${f.type}`, 'schema');
  let type: BqType;
  if (name === 'STRUCT') {
    if (!f.fields?.length) throw BigQueryError.invalid(`Field ${f.name} is type RECORD but has no schema.`, 'schema');
    type = { kind: 'STRUCT', fields: f.fields.map((sub) => fieldToStructField(sub)) };
  } else if (name === 'RANGE') {
    const el = INPUT_NAMES[String(f.rangeElementType?.type ?? '').toUpperCase()];
    if (el !== 'DATE' && el !== 'DATETIME' && el !== 'TIMESTAMP')
      throw BigQueryError.invalid(`Field ${f.name} of type RANGE needs rangeElementType DATE, DATETIME or TIMESTAMP.`, 'schema');
    type = { kind: 'RANGE', element: { kind: el } };
  } else type = { kind: name };
  const mode = String(f.mode ?? 'NULLABLE').toUpperCase();
  if (mode === 'REPEATED') type = { kind: 'ARRAY', element: type };
  return { name: f.name, type, required: mode === 'REQUIRED', description: f.description };
}

function fieldToStructField(f: TableFieldSchema) {
  const c = columnFromField(f);
  return { name: c.name, type: c.type };
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

export const fieldFromColumn = (c: Column): TableFieldSchema => {
  const f = fieldFromType(c.name, c.type, c.required, c.description);
  if (c.defaultValueExpression) f.defaultValueExpression = c.defaultValueExpression;
  return f;
};
