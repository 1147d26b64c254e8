/**
 * A table's columns as the Storage Write API's `TableSchema`
 * (google/cloud/bigquery/storage/v1/table.proto: `TableFieldSchema` with the GoogleSQL type names
 * INT64, DOUBLE, BOOL, STRUCT…, modes NULLABLE/REQUIRED/REPEATED, type parameters as int64
 * strings), the form `WriteStream.table_schema` and `AppendRowsResponse.updated_schema` carry and
 * the client's `adapt.convertStorageSchemaToProto2Descriptor` reads.
 */
import type { Column, FieldDetails } from '../../types/schema.js';
import type { BqType } from '../../types/types.js';

/** A `TableFieldSchema` message as proto-loader writes it (enums by name). */
export interface StorageFieldSchema {
  name: string;
  type: string;
  mode: 'NULLABLE' | 'REQUIRED' | 'REPEATED';
  fields: StorageFieldSchema[];
  description: string;
  maxLength: string;
  precision: string;
  scale: string;
  defaultValueExpression: string;
  rangeElementType: { type: string } | null;
}

/** table.proto `TableFieldSchema.Type` name of a non-ARRAY type. */
function typeName(t: BqType): string {
  switch (t.kind) {
    case 'FLOAT64':
      return 'DOUBLE';
    case 'ARRAY':
      return typeName(t.element);
    default:
      return t.kind;
  }
}

function field(name: string, type: BqType, required: boolean, d: FieldDetails | undefined, defaultValueExpression?: string): StorageFieldSchema {
  const t = type.kind === 'ARRAY' ? type.element : type;
  return {
    name,
    type: typeName(t),
    mode: type.kind === 'ARRAY' ? 'REPEATED' : required ? 'REQUIRED' : 'NULLABLE',
    fields: t.kind === 'STRUCT' ? t.fields.map((f, i) => field(f.name, f.type, !!d?.subfields?.[i]?.required, d?.subfields?.[i])) : [],
    description: d?.description ?? '',
    maxLength: String(d?.maxLength ?? 0),
    precision: String(d?.precision ?? 0),
    scale: String(d?.scale ?? 0),
    defaultValueExpression: defaultValueExpression ?? '',
    rangeElementType: t.kind === 'RANGE' ? { type: typeName(t.element) } : null,
  };
}

/** The `TableSchema` message of `columns`. */
export function storageTableSchema(columns: readonly Column[]): { fields: StorageFieldSchema[] } {
  return { fields: columns.map((c) => field(c.name, c.type, c.required, c, c.defaultValueExpression)) };
}
