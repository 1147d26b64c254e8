/**
 * REST `queryParameters` → typed domain values.
 *
 * Shapes from src/server/rest/bigquery-v2-discovery.json: QueryParameter {name?, parameterType,
 * parameterValue}, QueryParameterType {type, arrayType?, structTypes?[{name?, type}],
 * rangeElementType?}, QueryParameterValue {value? (string), arrayValues?, structValues? (map by
 * field name), rangeValue? {start?, end?}}. Type names are the GoogleSQL ones (`INT64`, `FLOAT64`,
 * `BOOL`, …); the legacy names (`INTEGER`, `FLOAT`, `BOOLEAN`, `RECORD`) are accepted too.
 */
import type { BqType, ScalarKind, Value } from '../types/types.js';
import { BigQueryError } from '../errors/errors.js';
import { decodeScalarJson, splitRangeText } from './rest-json.js';

/** REST QueryParameterType. */
export interface RestParameterType {
  type: string;
  /** TIMESTAMP precision: '6' (default) or '12' (picoseconds). */
  timestampPrecision?: string;
  arrayType?: RestParameterType;
  structTypes?: { name?: string; type: RestParameterType; description?: string }[];
  rangeElementType?: RestParameterType;
}

/** REST QueryParameterValue. */
export interface RestParameterValue {
  value?: unknown;
  arrayValues?: RestParameterValue[];
  structValues?: Record<string, RestParameterValue>;
  rangeValue?: { start?: RestParameterValue; end?: RestParameterValue };
}

/** REST QueryParameter. */
export interface RestQueryParameter {
  name?: string;
  parameterType: RestParameterType;
  parameterValue?: RestParameterValue;
}

const SCALAR_NAMES: Record<string, ScalarKind> = {
  INT64: 'INT64', INTEGER: 'INT64', FLOAT64: 'FLOAT64', FLOAT: 'FLOAT64', NUMERIC: 'NUMERIC', DECIMAL: 'NUMERIC',
  BIGNUMERIC: 'BIGNUMERIC', BIGDECIMAL: 'BIGNUMERIC', BOOL: 'BOOL', BOOLEAN: 'BOOL', STRING: 'STRING',
  BYTES: 'BYTES', DATE: 'DATE', DATETIME: 'DATETIME', TIME: 'TIME', TIMESTAMP: 'TIMESTAMP',
  INTERVAL: 'INTERVAL', JSON: 'JSON', GEOGRAPHY: 'GEOGRAPHY',
};

/**
 * A REST QueryParameterType → BqType.
 * @throws BigQueryError invalid for a missing or unknown type, an ARRAY without arrayType, a STRUCT
 * without structTypes, an ARRAY of ARRAY, or a RANGE whose element is not DATE/DATETIME/TIMESTAMP.
 */
export function decodeParameterType(pt: RestParameterType | undefined, location?: string): BqType {
  const name = typeof pt?.type === 'string' ? pt.type.toUpperCase() : '';
  if (!pt || !name) throw BigQueryError.queryParameterType.required(location);
  const scalar = SCALAR_NAMES[name];
  if (scalar) return { kind: scalar };
  switch (name) {
    case 'ARRAY': {
      if (!pt.arrayType) throw BigQueryError.queryParameterType.arrayTypeRequired(location);
      const element = decodeParameterType(pt.arrayType, location);
      if (element.kind === 'ARRAY') throw BigQueryError.queryParameterType.arrayOfArray(location);
      return { kind: 'ARRAY', element };
    }
    case 'STRUCT':
    case 'RECORD':
      if (!Array.isArray(pt.structTypes) || pt.structTypes.length === 0) throw BigQueryError.queryParameterType.structTypesRequired(location);
      return { kind: 'STRUCT', fields: pt.structTypes.map((f) => ({ name: f.name ?? '', type: decodeParameterType(f.type, location) })) };
    case 'RANGE': {
      const element = decodeParameterType(pt.rangeElementType, location);
      if (element.kind !== 'DATE' && element.kind !== 'DATETIME' && element.kind !== 'TIMESTAMP')
        throw BigQueryError.queryParameterType.rangeElementType(location);
      return { kind: 'RANGE', element };
    }
    default:
      throw BigQueryError.queryParameterType.unsupported(String(pt.type), location);
  }
}

function decodeValue(pv: RestParameterValue | undefined, t: BqType, path: string): Value {
  if (pv === undefined || pv === null) return null;
  switch (t.kind) {
    case 'ARRAY': {
      if (!Array.isArray(pv.arrayValues)) return [];
      return pv.arrayValues.map((e, i) => decodeValue(e, t.element, `${path}[${i}]`));
    }
    case 'STRUCT': {
      const sv = pv.structValues;
      if (!sv || typeof sv !== 'object') return null;
      const keys = new Map(Object.keys(sv).map((k) => [k.toLowerCase(), k] as const));
      return t.fields.map((f) => {
        const key = f.name ? keys.get(f.name.toLowerCase()) : undefined;
        return key === undefined ? null : decodeValue(sv[key], f.type, `${path}.${f.name}`);
      });
    }
    case 'RANGE': {
      if (pv.rangeValue && typeof pv.rangeValue === 'object') {
        // A bound whose value is the word UNBOUNDED (or NULL) is unbounded, as in the range's text
        // form: @google-cloud/bigquery sends `{value: 'UNBOUNDED'}` for an open end (BigQueryRange#value).
        const rangeBound = (b: RestParameterValue | undefined, which: 'start' | 'end'): Value =>
          typeof b?.value === 'string' && /^(UNBOUNDED|NULL)$/i.test(b.value) ? null : decodeValue(b, t.element, `${path}.${which}`);
        return { start: rangeBound(pv.rangeValue.start, 'start'), end: rangeBound(pv.rangeValue.end, 'end') };
      }
      if (typeof pv.value !== 'string') return null;
      const parts = splitRangeText(pv.value);
      if (!parts) throw BigQueryError.invalidRangeValue(String(pv.value), path || undefined);
      const bound = (s: string | null): Value => (s === null ? null : decodeScalarJson(s, t.element.kind as ScalarKind, path, 'param'));
      return { start: bound(parts[0]), end: bound(parts[1]) };
    }
    default:
      return decodeScalarJson(pv.value ?? null, t.kind, path, 'param');
  }
}

/**
 * A REST query parameter → its name (absent for positional parameters), type and domain value.
 * NULL when `parameterValue` is absent, or for a scalar when `parameterValue.value` is absent;
 * an ARRAY with `parameterValue` but no `arrayValues` is the empty array; a STRUCT field missing
 * from `structValues` is NULL; a RANGE bound missing from `rangeValue`, or whose value is the word
 * UNBOUNDED (or NULL), is unbounded (null).
 * @throws BigQueryError invalid (400), location = the parameter name: type errors (see
 * decodeParameterType) and values that do not parse as the type (texts in rest-json.ts MESSAGES).
 */
export function decodeQueryParameter(p: RestQueryParameter): { name?: string; type: BqType; value: Value } {
  const name = typeof p?.name === 'string' && p.name !== '' ? p.name : undefined;
  const type = decodeParameterType(p?.parameterType, name);
  let pv = p.parameterValue;
  // A TIMESTAMP(12) parameter (parameterType.timestampPrecision '12', QueryParameterType in the
  // discovery document) may carry twelve fractional digits; queries compute in microseconds, so
  // digits 7–12 are dropped here.
  if (type.kind === 'TIMESTAMP' && String(p?.parameterType?.timestampPrecision ?? '') === '12' && typeof pv?.value === 'string')
    pv = { ...pv, value: pv.value.replace(/^([^.]*\.\d{6})\d{1,6}(?!\d)/, '$1') };
  const value = decodeValue(pv, type, name ?? '');
  return name === undefined ? { type, value } : { name, type, value };
}
