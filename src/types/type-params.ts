/**
 * Parameterized data types (GoogleSQL data types, "Parameterized data types"): STRING(L), BYTES(L),
 * NUMERIC(P[, S]) and BIGNUMERIC(P[, S]). Parameters belong to columns (and script variables), not to
 * expressions: they constrain the values written to a column. REST carries them on TableFieldSchema
 * as `maxLength`, `precision` and `scale` (int64, written as strings); a REPEATED field's parameters
 * constrain its elements.
 *
 * Enforcement (ZetaSQL reference implementation, reference_impl/type_parameter_constraints.cc; the
 * same rules BigQuery documents for `roundingMode`): a STRING longer than L characters (a BYTES
 * longer than L bytes) is an error; a NUMERIC/BIGNUMERIC is rounded to S fractional digits (half away
 * from zero unless the field's `roundingMode` is ROUND_HALF_EVEN), then must lie within
 * [-(10^(P-S) - 10^-S), 10^(P-S) - 10^-S].
 *
 * Error texts as BigQuery writes them:
 * - `Field price: STRING(20) has maximum length 20 but got a value with length 21` (an INSERT …
 *   SELECT into a STRING(20) column, keboola/storage-backend BigQuery import tests);
 * - `NUMERIC(5, 2) has precision 5 and scale 2 but got a value that is not in range of [-999.99,
 *   999.99]` (a BigQuery job error quoted in nba-stats-scraper's status notes; the ZetaSQL compliance
 *   test cast_numeric_type_parameters_invalid_input has `NUMERIC(5) has precision 5 and scale 0 …
 *   [-99999, 99999]` for a CAST). Writes to a column carry the `Field <name>: ` prefix; CAST does not.
 */
import { BigQueryError } from '../errors/errors.js';
import type { BqType, Value } from './types.js';

/** The parameters of one parameterized scalar (absent = unconstrained). */
export interface TypeParams {
  /** STRING(L) / BYTES(L): characters (STRING) or bytes (BYTES). */
  maxLength?: number;
  /** NUMERIC(P[, S]) / BIGNUMERIC(P[, S]): total digits. */
  precision?: number;
  /** Fractional digits; absent = 0 (and not written back: NUMERIC(9) stays `NUMERIC(9)`). */
  scale?: number;
  /** REST `roundingMode` of a NUMERIC/BIGNUMERIC field (default ROUND_HALF_AWAY_FROM_ZERO). */
  roundingMode?: string;
}

/** True when the parameters constrain anything. */
export const hasParams = (p: TypeParams | undefined): boolean => !!p && (p.maxLength !== undefined || p.precision !== undefined);

/** The scalar a field's parameters apply to (a REPEATED field's element). */
export const paramTarget = (t: BqType): BqType => (t.kind === 'ARRAY' ? t.element : t);

/**
 * The spelling of a parameterized scalar type: `STRING(10)`, `NUMERIC(10, 2)`, `NUMERIC(9)`;
 * the bare type name without parameters.
 */
export function paramTypeText(kind: string, p: TypeParams | undefined): string {
  if (p?.maxLength !== undefined) return `${kind}(${p.maxLength})`;
  if (p?.precision !== undefined) return p.scale ? `${kind}(${p.precision}, ${p.scale})` : `${kind}(${p.precision})`;
  return kind;
}

function int64Field(v: unknown, name: string, field: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  const s = String(v).trim();
  if (!/^-?\d+$/.test(s)) throw BigQueryError.invalidValue(name, `${String(v)} is not a valid value`, `schema.fields.${name}`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw BigQueryError.fieldTypeParameter(field, `${name} ${s} is out of range`);
  return n;
}

/**
 * Reads and checks a REST field's `maxLength` / `precision` / `scale` / `roundingMode` against its
 * type. Ranges: TableFieldSchema.precision in the discovery document (NUMERIC: 1 ≤ P−S ≤ 29,
 * 0 ≤ S ≤ 9; BIGNUMERIC: 1 ≤ P−S ≤ 38, 0 ≤ S ≤ 38; scale without precision is invalid); maxLength
 * only for STRING/BYTES and positive.
 * @throws BigQueryError invalid (400) naming the field; the texts are the emulator's (no recording).
 */
export function paramsFromField(f: { name: string; maxLength?: unknown; precision?: unknown; scale?: unknown; roundingMode?: unknown }, type: BqType): TypeParams | undefined {
  const kind = paramTarget(type).kind;
  const maxLength = int64Field(f.maxLength, 'maxLength', f.name);
  const precision = int64Field(f.precision, 'precision', f.name);
  const scale = int64Field(f.scale, 'scale', f.name);
  const roundingMode = f.roundingMode === undefined || f.roundingMode === null ? undefined : String(f.roundingMode);
  const out: TypeParams = {};
  if (maxLength !== undefined) {
    if (kind !== 'STRING' && kind !== 'BYTES') throw BigQueryError.fieldTypeParameter(f.name, 'maxLength can only be set for STRING or BYTES fields.');
    if (maxLength <= 0) throw BigQueryError.fieldTypeParameter(f.name, `maxLength must be positive, got ${maxLength}.`);
    out.maxLength = maxLength;
  }
  if (precision !== undefined || scale !== undefined) {
    if (kind !== 'NUMERIC' && kind !== 'BIGNUMERIC') throw BigQueryError.fieldTypeParameter(f.name, 'precision and scale can only be set for NUMERIC or BIGNUMERIC fields.');
    if (precision === undefined) throw BigQueryError.fieldTypeParameter(f.name, 'scale cannot be set without precision.');
    const s = scale ?? 0;
    const [maxInt, maxScale] = kind === 'NUMERIC' ? [29, 9] : [38, 38];
    if (s < 0 || s > maxScale || precision - s < 1 || precision - s > maxInt)
      throw BigQueryError.fieldTypeParameter(f.name, `invalid precision ${precision} and scale ${s} for ${kind}; expected 1 <= precision - scale <= ${maxInt} and 0 <= scale <= ${maxScale}.`);
    out.precision = precision;
    if (scale !== undefined) out.scale = scale;
  }
  if (roundingMode !== undefined && roundingMode !== 'ROUNDING_MODE_UNSPECIFIED') {
    if (roundingMode !== 'ROUND_HALF_AWAY_FROM_ZERO' && roundingMode !== 'ROUND_HALF_EVEN')
      throw BigQueryError.invalidValue('roundingMode', String(roundingMode), 'schema');
    if (kind !== 'NUMERIC' && kind !== 'BIGNUMERIC') throw BigQueryError.fieldTypeParameter(f.name, 'roundingMode can only be set for NUMERIC or BIGNUMERIC fields.');
    out.roundingMode = roundingMode;
  }
  return Object.keys(out).length ? out : undefined;
}

/** Writes parameters back as REST int64 strings (TableFieldSchema maxLength / precision / scale). */
export function paramsToField(p: TypeParams | undefined, out: Record<string, unknown>): void {
  if (!p) return;
  if (p.maxLength !== undefined) out.maxLength = String(p.maxLength);
  if (p.precision !== undefined) out.precision = String(p.precision);
  if (p.scale !== undefined) out.scale = String(p.scale);
  if (p.roundingMode !== undefined) out.roundingMode = p.roundingMode;
}

/** `Field <name>: ` for writes to a column; '' for CAST. */
const prefix = (field: string | undefined) => (field ? `Field ${field}: ` : '');

/** BigQuery's text for a STRING/BYTES value longer than its maximum length. */
export function maxLengthMessage(kind: string, maxLength: number, length: number, field?: string): string {
  return `${prefix(field)}${kind}(${maxLength}) has maximum length ${maxLength} but got a value with length ${length}`;
}

/** The largest value of NUMERIC/BIGNUMERIC(P, S) as text: `999.99` for (5, 2). */
export function paramBound(precision: number, scale: number): string {
  const int = '9'.repeat(precision - scale) || '0';
  return scale ? `${int}.${'9'.repeat(scale)}` : int;
}

/** BigQuery's text for a NUMERIC/BIGNUMERIC value outside its precision and scale. */
export function precisionMessage(kind: string, p: TypeParams, field?: string): string {
  const s = p.scale ?? 0;
  const b = paramBound(p.precision!, s);
  return `${prefix(field)}${paramTypeText(kind, p)} has precision ${p.precision} and scale ${s} but got a value that is not in range of [-${b}, ${b}]`;
}

/**
 * Rounds decimal text to `scale` fractional digits (half away from zero, or half to even) and
 * checks it against the precision.
 * @returns the canonical decimal text ("1.5", "-3", "0").
 * @throws BigQueryError invalidQuery with {@link precisionMessage} when out of range.
 */
export function applyNumericParams(text: string, kind: string, p: TypeParams, field?: string): string {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (!m) throw BigQueryError.invalidTypedValue(kind, text);
  const [, sign, int = '', frac = '', exp] = m;
  const scale = p.scale ?? 0;
  // value = digits × 10^(shift - scale): `units` counts 10^-scale, `rest` holds the cut digits.
  let digits = (int + frac).replace(/^0+(?=\d)/, '') || '0';
  const shift = (exp ? Number(exp) : 0) - frac.length + scale;
  let units: bigint;
  let rest = '';
  if (shift >= 0) units = BigInt(digits) * 10n ** BigInt(shift);
  else {
    const cut = -shift;
    if (cut >= digits.length) digits = '0'.repeat(cut - digits.length + 1) + digits;
    units = BigInt(digits.slice(0, digits.length - cut));
    rest = digits.slice(digits.length - cut).replace(/0+$/, '');
  }
  if (rest) {
    // Above half, exactly half, or below half of one unit.
    const half = rest[0] > '5' || (rest[0] === '5' && rest.length > 1) ? 1 : rest[0] === '5' ? 0 : -1;
    if (half > 0 || (half === 0 && (p.roundingMode !== 'ROUND_HALF_EVEN' || units % 2n === 1n))) units += 1n;
  }
  const limit = 10n ** BigInt(p.precision!);
  if (units >= limit) throw BigQueryError.runtime(precisionMessage(kind, p, field));
  if (units === 0n) return '0';
  let s = units.toString().padStart(scale + 1, '0');
  if (scale) s = `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`.replace(/\.?0+$/, '');
  return sign === '-' ? `-${s}` : s;
}

/** A FieldDetails-like tree: parameters per field, sub-field details by position. */
export interface ParamTree extends TypeParams {
  subfields?: (ParamTree | undefined)[];
}

/** True when a field or any of its sub-fields has parameters. */
export function treeHasParams(t: BqType, d: ParamTree | undefined): boolean {
  if (!d) return false;
  const s = paramTarget(t);
  if (s.kind === 'STRUCT') return s.fields.some((f, i) => treeHasParams(f.type, d.subfields?.[i]));
  return hasParams(d);
}

/**
 * Applies a field's parameters to a domain value (insertAll rows, query results written to a
 * table, loads): lengths checked, NUMERIC/BIGNUMERIC rounded and range-checked, recursively
 * through arrays and structs.
 * @returns the value to store.
 * @throws BigQueryError invalidQuery with BigQuery's text naming the field.
 */
export function applyParams(v: Value, t: BqType, d: ParamTree | undefined, field: string): Value {
  if (v === null || !d) return v;
  if (t.kind === 'ARRAY') return (v as Value[]).map((x) => applyParams(x, t.element, d, field));
  if (t.kind === 'STRUCT') {
    if (!d.subfields) return v;
    return (v as Value[]).map((x, i) => applyParams(x, t.fields[i].type, d.subfields?.[i], `${field}.${t.fields[i].name}`));
  }
  if (t.kind === 'STRING' && d.maxLength !== undefined) {
    const n = [...(v as string)].length;
    if (n > d.maxLength) throw BigQueryError.runtime(maxLengthMessage('STRING', d.maxLength, n, field));
  } else if (t.kind === 'BYTES' && d.maxLength !== undefined) {
    const n = (v as Uint8Array).length;
    if (n > d.maxLength) throw BigQueryError.runtime(maxLengthMessage('BYTES', d.maxLength, n, field));
  } else if ((t.kind === 'NUMERIC' || t.kind === 'BIGNUMERIC') && d.precision !== undefined) return applyNumericParams(String(v), t.kind, d, field);
  return v;
}

/** A comparable key of a field's parameters, sub-fields included ('' when none). */
export function paramsKey(d: ParamTree | undefined): string {
  if (!d) return '';
  const own = [d.maxLength, d.precision, d.scale, d.roundingMode].map((x) => x ?? '').join(',');
  const subs = (d.subfields ?? []).map(paramsKey);
  const key = subs.some(Boolean) ? `${own}[${subs.join(';')}]` : own;
  return key.replace(/^,*$/, '');
}
