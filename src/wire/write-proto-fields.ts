/**
 * Binding a Storage Write API writer schema (a protobufjs Type built from the request's
 * self-contained DescriptorProto) to a table's columns, once per (descriptor, columns) pair: each
 * proto field gets its column (by name, case-insensitively) and a converter from its decoded value
 * to the column's domain value. The accepted proto types per BigQuery type are the table of
 * "Supported protocol buffer data types" (https://cloud.google.com/bigquery/docs/supported-data-types);
 * `sint`/`sfixed`/`fixed` encodings count as the int32/int64/uint32/uint64 they encode, and the
 * google.protobuf wrapper types as their `value`. Anything else is a schema error of the request
 * (`protoFieldMismatch`); a writer field with no column is `writeExtraFields`.
 */
import protobuf from 'protobufjs';
import { BigQueryError } from '../errors/errors.js';
import { requiredValueMissingText, writeRowValue } from '../errors/write-row-errors.js';
import { REST_TYPE_NAME } from '../types/schema.js';
import type { BqType, ScalarKind, StructField, Value } from '../types/types.js';
import type { FieldDetails } from '../types/schema.js';
import {
  dateOfDays,
  datetimeOfPacked,
  decimalOfBytes,
  decimalOfNumber,
  decimalOfText,
  fromLiteral,
  int64Of,
  intervalOfDuration,
  timeOfPacked,
  timestampOfMicros,
} from './write-values.js';

/** A decoded field value → the column's domain value. @throws WriteRowValueError */
export type FieldConverter = (v: unknown) => Value;

/** A table column or STRUCT field as the binder needs it. */
export interface TargetField {
  name: string;
  type: BqType;
  required: boolean;
  /** What the schema says beyond the type: nested REQUIRED flags (`subfields[i].required`). */
  details?: FieldDetails;
}

/** One writer field bound to its target: the decoded property `key`, target index, converter. */
export interface BoundField {
  key: string;
  index: number;
  repeated: boolean;
  convert: FieldConverter;
}

/** A message type bound to a list of targets (the table's columns, or a STRUCT's fields). */
export interface BoundMessage {
  type: protobuf.Type;
  fields: BoundField[];
  targets: TargetField[];
}

const hasOwn = Object.prototype.hasOwnProperty;

/** A decoded int64-family value (protobufjs Long, or a number) → bigint. */
export function longToBigInt(v: unknown): bigint {
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'string') return BigInt(v);
  const l = v as { low: number; high: number; unsigned: boolean };
  const lo = l.low >>> 0;
  if (l.unsigned) return (BigInt(l.high >>> 0) << 32n) | BigInt(lo);
  // Exact as a double while |high| < 2^21: the common case, and much cheaper than bigint shifts.
  if (l.high >= -0x200000 && l.high < 0x200000) return BigInt(l.high * 4294967296 + lo);
  return (BigInt(l.high) << 32n) | BigInt(lo);
}

const INT32S = new Set(['int32', 'sint32', 'sfixed32']);
const INT64S = new Set(['int64', 'sint64', 'sfixed64']);
const UINT32S = new Set(['uint32', 'fixed32']);
const UINT64S = new Set(['uint64', 'fixed64']);
const WRAPPER_TYPES: Record<string, string> = {
  '.google.protobuf.DoubleValue': 'double', '.google.protobuf.FloatValue': 'float', '.google.protobuf.Int64Value': 'int64',
  '.google.protobuf.UInt64Value': 'uint64', '.google.protobuf.Int32Value': 'int32', '.google.protobuf.UInt32Value': 'uint32',
  '.google.protobuf.BoolValue': 'bool', '.google.protobuf.StringValue': 'string', '.google.protobuf.BytesValue': 'bytes',
};
/** Wrapper types BigQuery lists per column type (the rest of the wrappers are refused). */
const WRAPPERS_FOR: Partial<Record<ScalarKind, string[]>> = {
  BOOL: ['.google.protobuf.BoolValue'],
  BYTES: ['.google.protobuf.BytesValue'],
  FLOAT64: ['.google.protobuf.DoubleValue', '.google.protobuf.FloatValue'],
  INT64: ['.google.protobuf.Int32Value', '.google.protobuf.Int64Value', '.google.protobuf.UInt32Value'],
  NUMERIC: ['.google.protobuf.BytesValue'],
  BIGNUMERIC: ['.google.protobuf.BytesValue'],
  STRING: ['.google.protobuf.StringValue'],
};

const isInt = (t: string) => INT32S.has(t) || INT64S.has(t) || UINT32S.has(t) || UINT64S.has(t);
const is64 = (t: string) => INT64S.has(t) || UINT64S.has(t);

/** The converter of a scalar proto type `t` for a column of `kind`, or null when BigQuery refuses the pair. */
function scalarConverter(t: string, kind: ScalarKind, field: string, enumType?: protobuf.Enum): FieldConverter | null {
  const toBig = (v: unknown) => (is64(t) ? longToBigInt(v) : BigInt(v as number));
  switch (kind) {
    case 'INT64':
      if (enumType) return (v) => BigInt(v as number);
      if (UINT64S.has(t)) return null;
      if (INT64S.has(t)) return longToBigInt;
      return isInt(t) ? (v) => BigInt(v as number) : null;
    case 'FLOAT64':
      return t === 'double' || t === 'float' ? (v) => v as number : null;
    case 'BOOL':
      if (t === 'bool') return (v) => v as boolean;
      if (!isInt(t)) return null;
      return is64(t) ? (v) => longToBigInt(v) !== 0n : (v) => (v as number) !== 0;
    case 'STRING':
      if (t === 'string') return (v) => v as string;
      if (enumType) return (v) => enumType.valuesById[v as number] ?? String(v);
      return null;
    case 'BYTES':
      if (t === 'bytes') return (v) => Uint8Array.from(v as Uint8Array);
      if (t === 'string') return (v) => new Uint8Array(Buffer.from(v as string, 'utf8'));
      return null;
    case 'NUMERIC':
    case 'BIGNUMERIC':
      if (t === 'string') return (v) => decimalOfText(v as string, kind, field);
      if (t === 'bytes') return (v) => decimalOfBytes(v as Uint8Array, kind, field);
      if (t === 'double' || t === 'float') return (v) => decimalOfNumber(v as number, kind, field);
      if (INT32S.has(t) || INT64S.has(t) || UINT32S.has(t) || UINT64S.has(t)) return (v) => decimalOfText(toBig(v).toString(), kind, field);
      return null;
    case 'DATE':
      if (t === 'string') return (v) => fromLiteral(v as string, 'DATE', field);
      if (INT32S.has(t) || INT64S.has(t)) return (v) => dateOfDays(is64(t) ? longToBigInt(v) : (v as number), field);
      return null;
    case 'DATETIME':
    case 'TIME':
      if (t === 'string') return (v) => fromLiteral(v as string, kind, field);
      if (INT64S.has(t)) return kind === 'TIME' ? (v) => timeOfPacked(longToBigInt(v), field) : (v) => datetimeOfPacked(longToBigInt(v), field);
      return null;
    case 'TIMESTAMP':
      if (INT64S.has(t)) return (v) => timestampOfMicros(longToBigInt(v), field);
      if (INT32S.has(t) || UINT32S.has(t)) return (v) => BigInt(v as number);
      return null;
    case 'GEOGRAPHY':
    case 'JSON':
    case 'INTERVAL':
      return t === 'string' ? (v) => fromLiteral(v as string, kind, field) : null;
  }
}

/** The proto type's name in BigQuery's mismatch text: the scalar name, `enum` or `message`. */
function protoTypeName(f: protobuf.Field): string {
  if (f.resolvedType instanceof protobuf.Enum) return 'enum';
  if (f.resolvedType instanceof protobuf.Type) return 'message';
  return f.type;
}

/** The legacy type name of a column type (INTEGER, RECORD…), ` REPEATED` for an array. */
export function legacyTypeName(t: BqType): string {
  if (t.kind === 'ARRAY') return `${legacyTypeName(t.element)} REPEATED`;
  return REST_TYPE_NAME[t.kind];
}

/** Builder state: the extra (unmatched) writer fields found while binding. */
interface BindContext {
  extra: string[];
}

/** Binds one proto field (already matched by name) to a target of type `t`. */
function bindField(f: protobuf.Field, target: TargetField, owner: protobuf.Type, path: string, ctx: BindContext): FieldConverter {
  const t = target.type;
  const mismatch = () => BigQueryError.protoFieldMismatch(`${owner.name}.${f.name}`, protoTypeName(f), legacyTypeName(t));
  const elementType = t.kind === 'ARRAY' ? t.element : t;
  if (f.repeated !== (t.kind === 'ARRAY') || f.map) throw mismatch();
  const one = elementConverter(f, elementType, target.details, path, ctx);
  if (!one) throw mismatch();
  if (!f.repeated) return one;
  return (v) => {
    const arr = v as unknown[];
    const out: Value[] = new Array(arr.length);
    for (let i = 0; i < arr.length; i++) out[i] = one(arr[i]);
    return out;
  };
}

/** The converter of one (non-repeated) value of field `f` to type `t`, or null when refused. */
function elementConverter(f: protobuf.Field, t: BqType, details: FieldDetails | undefined, path: string, ctx: BindContext): FieldConverter | null {
  const resolved = f.resolvedType;
  if (resolved instanceof protobuf.Type) {
    const full = resolved.fullName;
    if (t.kind === 'STRUCT') return structConverter(resolved, t.fields, details, path, ctx);
    if (t.kind === 'RANGE') return rangeConverter(resolved, t.element, path, ctx);
    if (t.kind === 'ARRAY') return null;
    if (t.kind === 'TIMESTAMP' && full === '.google.protobuf.Timestamp')
      return (v) => {
        const m = v as { seconds: unknown; nanos: number };
        return timestampOfMicros(longToBigInt(m.seconds) * 1_000_000n + BigInt(Math.trunc((m.nanos ?? 0) / 1000)), path);
      };
    if (t.kind === 'INTERVAL' && full === '.google.protobuf.Duration')
      return (v) => {
        const m = v as { seconds: unknown; nanos: number };
        return intervalOfDuration(longToBigInt(m.seconds), m.nanos ?? 0);
      };
    const inner = WRAPPER_TYPES[full];
    if (!inner || !WRAPPERS_FOR[t.kind as ScalarKind]?.includes(full)) return null;
    const conv = scalarConverter(inner, t.kind as ScalarKind, path);
    return conv && ((v) => conv((v as { value: unknown }).value));
  }
  if (t.kind === 'STRUCT' || t.kind === 'RANGE' || t.kind === 'ARRAY') return null;
  return scalarConverter(f.type, t.kind, path, resolved instanceof protobuf.Enum ? resolved : undefined);
}

/** A nested message → STRUCT value (fields in the STRUCT's order; absent fields NULL). */
function structConverter(type: protobuf.Type, fields: StructField[], details: FieldDetails | undefined, path: string, ctx: BindContext): FieldConverter {
  const targets: TargetField[] = fields.map((f, i) => {
    const d = details?.subfields?.[i];
    return { name: f.name, type: f.type, required: !!d?.required, details: d };
  });
  const bound = bindMessage(type, targets, path, ctx);
  return (v) => messageValues(bound, v as Record<string, unknown>, path);
}

/** A message with `start` / `end` → RANGE value (an unset bound is unbounded: NULL). */
function rangeConverter(type: protobuf.Type, element: BqType, path: string, ctx: BindContext): FieldConverter {
  const bound = bindMessage(type, [{ name: 'start', type: element, required: false }, { name: 'end', type: element, required: false }], path, ctx);
  return (v) => {
    const [start, end] = messageValues(bound, v as Record<string, unknown>, path);
    return { start, end };
  };
}

/**
 * Binds the fields of `type` to `targets` by name (case-insensitive). Fields with no target are
 * collected in `ctx.extra` (as `path.field` below the top level).
 * @throws BigQueryError protoFieldMismatch for a field whose type does not convert
 */
export function bindMessage(type: protobuf.Type, targets: TargetField[], path: string, ctx: BindContext): BoundMessage {
  const byName = new Map<string, number>();
  targets.forEach((t, i) => byName.set(t.name.toLowerCase(), i));
  const fields: BoundField[] = [];
  for (const f of type.fieldsArray) {
    f.resolve();
    const index = byName.get(f.name.toLowerCase());
    if (index === undefined) {
      ctx.extra.push(path ? `${path}.${f.name}` : f.name);
      continue;
    }
    const sub = path ? `${path}.${targets[index].name}` : targets[index].name;
    fields.push({ key: f.name, index, repeated: f.repeated, convert: bindField(f, targets[index], type, sub, ctx) });
  }
  return { type, fields, targets };
}

/**
 * A decoded nested message → its target values (STRUCT fields, RANGE bounds). Absent fields are
 * NULL (an empty array for a REPEATED one); a REQUIRED STRUCT field without a value is an error.
 * @throws WriteRowValueError
 */
function messageValues(b: BoundMessage, msg: Record<string, unknown>, path: string): Value[] {
  const out: Value[] = new Array(b.targets.length);
  for (let i = 0; i < b.targets.length; i++) out[i] = b.targets[i].type.kind === 'ARRAY' ? [] : null;
  for (const f of b.fields) if (hasOwn.call(msg, f.key) && msg[f.key] !== null) out[f.index] = f.convert(msg[f.key]);
  for (let i = 0; i < b.targets.length; i++)
    if (out[i] === null && b.targets[i].required) throw writeRowValue(requiredValueMissingText(`${path}.${b.targets[i].name}`));
  return out;
}

/** Builds a context to collect extra fields. */
export const bindContext = (): BindContext => ({ extra: [] });
