/**
 * BigQuery's ORC conversions (BigQuery "Loading ORC data from Cloud Storage", "ORC conversions",
 * https://cloud.google.com/bigquery/docs/loading-data-cloud-storage-orc#orc_conversions):
 * - boolean → BOOLEAN; byte, short, int, long → INTEGER; float, double → FLOAT;
 * - string, varchar, char → STRING (UTF-8 only); binary → BYTES; date → DATE;
 * - timestamp (and timestamp with local time zone) → TIMESTAMP, sub-microsecond digits dropped;
 * - decimal → NUMERIC, BIGNUMERIC or STRING, chosen by `decimalTargetTypes` (default for ORC
 *   ["NUMERIC", "STRING"], JobConfigurationLoad.decimalTargetTypes): in the order NUMERIC,
 *   BIGNUMERIC, STRING, the first listed type that holds the precision and scale;
 * - struct → RECORD; list → REPEATED field (nested lists and lists of maps are not supported);
 * - map<K,V> → REPEATED RECORD of two fields `key` (K) and `value` (V);
 * - union → its only variant when it has one, else a RECORD of NULLABLE fields `field_0`,
 *   `field_1`, … of which the one of the value's tag is set.
 * "All fields in the detected schema are NULLABLE" (lists REPEATED).
 */
import { BigQueryError } from '../../errors/errors.js';
import { checkFieldNames, type Column } from '../../types/schema.js';
import type { BqType } from '../../types/types.js';
import type { OrcType } from './orc-proto.js';
import { OrcFormatError } from './orc-compression.js';

/** How a decimal column loads: the BigQuery type, or STRING (decimal text with `scale` digits). */
export type DecimalTarget = 'NUMERIC' | 'BIGNUMERIC' | 'STRING';

/** decimalTargetTypes's default for ORC. */
export const ORC_DEFAULT_DECIMAL_TARGETS: DecimalTarget[] = ['NUMERIC', 'STRING'];

/**
 * The type a decimal(precision, scale) loads as: the first of NUMERIC (scale ≤ 9, integer
 * digits ≤ 29), BIGNUMERIC (scale ≤ 38, integer digits ≤ 38), STRING that `targets` lists and
 * that holds it; if none does, the widest listed (JobConfigurationLoad.decimalTargetTypes).
 */
export function decimalTarget(precision: number, scale: number, targets: DecimalTarget[]): DecimalTarget {
  const fits: Record<DecimalTarget, boolean> = {
    NUMERIC: scale <= 9 && precision - scale <= 29,
    BIGNUMERIC: scale <= 38 && precision - scale <= 38,
    STRING: true,
  };
  const order: DecimalTarget[] = ['NUMERIC', 'BIGNUMERIC', 'STRING'];
  return order.find((t) => targets.includes(t) && fits[t]) ?? [...order].reverse().find((t) => targets.includes(t)) ?? 'NUMERIC';
}

/** The load options the mapping depends on. */
export interface OrcMappingOptions {
  decimalTargets: DecimalTarget[];
}

/**
 * The BigQuery type of ORC column `id` of a file's type tree.
 * @throws BigQueryError invalid for a list of lists or of maps (BigQuery cannot hold them)
 * @throws OrcFormatError for a type tree that refers to missing columns
 */
export function bigQueryType(types: OrcType[], id: number, opts: OrcMappingOptions): BqType {
  const t = types[id];
  if (!t) throw new OrcFormatError(`the type tree has no column ${id}`);
  const child = (k: number) => {
    const c = t.subtypes[k];
    if (c === undefined || c <= id || c >= types.length) throw new OrcFormatError(`column ${id} refers to a missing child`);
    return c;
  };
  switch (t.kind) {
    case 'BOOLEAN':
      return { kind: 'BOOL' };
    case 'BYTE':
    case 'SHORT':
    case 'INT':
    case 'LONG':
      return { kind: 'INT64' };
    case 'FLOAT':
    case 'DOUBLE':
      return { kind: 'FLOAT64' };
    case 'STRING':
    case 'VARCHAR':
    case 'CHAR':
      return { kind: 'STRING' };
    case 'BINARY':
      return { kind: 'BYTES' };
    case 'DATE':
      return { kind: 'DATE' };
    case 'TIMESTAMP':
    case 'TIMESTAMP_INSTANT':
      return { kind: 'TIMESTAMP' };
    case 'DECIMAL':
      return { kind: decimalTarget(t.precision || 38, t.scale, opts.decimalTargets) };
    case 'STRUCT':
      return { kind: 'STRUCT', fields: t.subtypes.map((_, k) => ({ name: t.fieldNames[k] ?? `_col${k}`, type: bigQueryType(types, child(k), opts) })) };
    case 'LIST': {
      const element = bigQueryType(types, child(0), opts);
      if (element.kind === 'ARRAY') throw BigQueryError.orcNestedListNotSupported();
      return { kind: 'ARRAY', element };
    }
    case 'MAP':
      return {
        kind: 'ARRAY',
        element: { kind: 'STRUCT', fields: [{ name: 'key', type: bigQueryType(types, child(0), opts) }, { name: 'value', type: bigQueryType(types, child(1), opts) }] },
      };
    case 'UNION':
      if (t.subtypes.length === 1) return bigQueryType(types, child(0), opts);
      return { kind: 'STRUCT', fields: t.subtypes.map((_, k) => ({ name: `field_${k}`, type: bigQueryType(types, child(k), opts) })) };
    default:
      throw new OrcFormatError(`unknown type kind ${t.kind} of column ${id}`);
  }
}

/**
 * The table columns of an ORC file: one NULLABLE (or REPEATED) column per field of the root
 * struct.
 * @throws BigQueryError invalid when the root type is not a struct (no column names), for a
 *   field name BigQuery refuses (checkFieldNames), or as bigQueryType
 */
export function orcColumns(types: OrcType[], opts: OrcMappingOptions): Column[] {
  const root = types[0];
  if (!root) throw new OrcFormatError('the file has no type tree');
  if (root.kind !== 'STRUCT') throw BigQueryError.orcRootNotStruct(root.kind.toLowerCase());
  const t = bigQueryType(types, 0, opts) as Extract<BqType, { kind: 'STRUCT' }>;
  // Column names as BigQuery checks them in any schema (src/types/schema.ts checkFieldNames).
  for (const f of t.fields) checkFieldNames(f.name, f.type);
  return t.fields.map((f) => ({ name: f.name, type: f.type, required: false }));
}
