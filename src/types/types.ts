/**
 * The BigQuery type model shared by every layer (wire, engine, catalog).
 *
 * Source of truth: GoogleSQL data types (https://cloud.google.com/bigquery/docs/reference/standard-sql/data-types)
 * and the REST `TableFieldSchema` (src/server/rest/bigquery-v2-discovery.json).
 */

/** Names of BigQuery's scalar types, as the GoogleSQL docs spell them. */
export type ScalarKind =
  | 'INT64'
  | 'FLOAT64'
  | 'NUMERIC'
  | 'BIGNUMERIC'
  | 'BOOL'
  | 'STRING'
  | 'BYTES'
  | 'DATE'
  | 'DATETIME'
  | 'TIME'
  | 'TIMESTAMP'
  | 'INTERVAL'
  | 'JSON'
  | 'GEOGRAPHY';

/** A named (or anonymous, name '') field of a STRUCT. */
export interface StructField {
  name: string;
  type: BqType;
}

/** A BigQuery type. STRUCT fields keep their declared order; anonymous fields have name ''. */
export type BqType =
  | { kind: ScalarKind }
  | { kind: 'ARRAY'; element: BqType }
  | { kind: 'STRUCT'; fields: StructField[] }
  | { kind: 'RANGE'; element: BqType };

export type TypeKind = BqType['kind'];

export const SCALAR_KINDS: readonly ScalarKind[] = [
  'INT64', 'FLOAT64', 'NUMERIC', 'BIGNUMERIC', 'BOOL', 'STRING', 'BYTES', 'DATE', 'DATETIME', 'TIME',
  'TIMESTAMP', 'INTERVAL', 'JSON', 'GEOGRAPHY',
];

export const scalar = <K extends ScalarKind>(kind: K): { kind: K } => ({ kind });
export const arrayOf = (element: BqType): BqType => ({ kind: 'ARRAY', element });
export const structOf = (fields: StructField[]): BqType => ({ kind: 'STRUCT', fields });

/**
 * A domain value of a BigQuery type, as the engine returns it and the wire encoders consume it.
 * - INT64: bigint; FLOAT64: number (NaN/±Infinity allowed); BOOL: boolean; STRING: string
 * - NUMERIC, BIGNUMERIC: canonical decimal text ("1.5", "-3")
 * - BYTES: Uint8Array
 * - DATE 'YYYY-MM-DD'; DATETIME 'YYYY-MM-DDTHH:MM:SS[.ffffff]'; TIME 'HH:MM:SS[.ffffff]'
 * - TIMESTAMP: bigint microseconds since the Unix epoch (UTC)
 * - INTERVAL: {months, days, micros}
 * - JSON: JSON text; GEOGRAPHY: WKT text
 * - ARRAY: Value[]; STRUCT: Value[] in field order; RANGE: {start, end} (null = unbounded)
 * - NULL: null
 */
export type Value =
  | null
  | bigint
  | number
  | boolean
  | string
  | Uint8Array
  | IntervalValue
  | RangeValue
  | Value[];

export interface IntervalValue {
  months: number;
  days: number;
  micros: bigint;
}

export interface RangeValue {
  start: Value;
  end: Value;
}

/** The GoogleSQL spelling of a type, e.g. `ARRAY<STRUCT<a INT64, STRING>>`. */
export function typeToSql(t: BqType): string {
  switch (t.kind) {
    case 'ARRAY':
      return `ARRAY<${typeToSql(t.element)}>`;
    case 'STRUCT':
      return `STRUCT<${t.fields.map((f) => (f.name ? `${quoteIdentIfNeeded(f.name)} ${typeToSql(f.type)}` : typeToSql(f.type))).join(', ')}>`;
    case 'RANGE':
      return `RANGE<${typeToSql(t.element)}>`;
    default:
      return t.kind;
  }
}

/** A field name as GoogleSQL spells it: back-quoted unless it is a plain identifier. */
export function quoteIdentIfNeeded(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : '`' + name.replace(/[`\\]/g, (c) => '\\' + c) + '`';
}

/** Structural equality of two types (field names compared case-insensitively, as BigQuery does). */
export function typesEqual(a: BqType, b: BqType): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'ARRAY' || a.kind === 'RANGE') return typesEqual(a.element, (b as typeof a).element);
  if (a.kind === 'STRUCT') {
    const bf = (b as typeof a).fields;
    return (
      a.fields.length === bf.length &&
      a.fields.every((f, i) => f.name.toLowerCase() === bf[i].name.toLowerCase() && typesEqual(f.type, bf[i].type))
    );
  }
  return true;
}
