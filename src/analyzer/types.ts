/**
 * ZetaSQL `TypeProto` (proto-loader JSON form) ⇄ BigQuery type model.
 * Source: zetasql/public/type.proto in @fivetrandevelopers/zetasql.
 */
import type { BqType, ScalarKind } from '../types/types.js';
import { BigQueryError } from '../errors/errors.js';

const FROM_KIND: Record<string, ScalarKind> = {
  TYPE_INT64: 'INT64', TYPE_DOUBLE: 'FLOAT64', TYPE_NUMERIC: 'NUMERIC', TYPE_BIGNUMERIC: 'BIGNUMERIC',
  TYPE_BOOL: 'BOOL', TYPE_STRING: 'STRING', TYPE_BYTES: 'BYTES', TYPE_DATE: 'DATE', TYPE_DATETIME: 'DATETIME',
  TYPE_TIME: 'TIME', TYPE_TIMESTAMP: 'TIMESTAMP', TYPE_INTERVAL: 'INTERVAL', TYPE_JSON: 'JSON',
  TYPE_GEOGRAPHY: 'GEOGRAPHY',
};
const TO_KIND: Record<ScalarKind, string> = Object.fromEntries(
  Object.entries(FROM_KIND).map(([k, v]) => [v, k]),
) as Record<ScalarKind, string>;

export interface TypeProto {
  typeKind?: string;
  arrayType?: { elementType?: TypeProto };
  structType?: { field?: { fieldName?: string; fieldType?: TypeProto }[] };
  rangeType?: { elementType?: TypeProto };
}

/**
 * Converts a ZetaSQL type to a BigQuery type.
 * @throws BigQueryError invalidQuery for types BigQuery has no wire form for (protos, enums, INT32…).
 */
export function fromTypeProto(t: TypeProto): BqType {
  const k = t.typeKind ?? '';
  if (k === 'TYPE_ARRAY') return { kind: 'ARRAY', element: fromTypeProto(t.arrayType!.elementType!) };
  if (k === 'TYPE_STRUCT')
    return {
      kind: 'STRUCT',
      fields: (t.structType?.field ?? []).map((f) => ({ name: f.fieldName ?? '', type: fromTypeProto(f.fieldType!) })),
    };
  if (k === 'TYPE_RANGE') return { kind: 'RANGE', element: fromTypeProto(t.rangeType!.elementType!) };
  const s = FROM_KIND[k];
  if (!s) throw BigQueryError.typeNotSupported(k.replace(/^TYPE_/, ''));
  return { kind: s };
}

/** Converts a BigQuery type to a ZetaSQL TypeProto. */
export function toTypeProto(t: BqType): TypeProto {
  switch (t.kind) {
    case 'ARRAY':
      return { typeKind: 'TYPE_ARRAY', arrayType: { elementType: toTypeProto(t.element) } };
    case 'STRUCT':
      return {
        typeKind: 'TYPE_STRUCT',
        structType: { field: t.fields.map((f) => ({ fieldName: f.name, fieldType: toTypeProto(f.type) })) },
      };
    case 'RANGE':
      return { typeKind: 'TYPE_RANGE', rangeType: { elementType: toTypeProto(t.element) } };
    default:
      return { typeKind: TO_KIND[t.kind] };
  }
}
