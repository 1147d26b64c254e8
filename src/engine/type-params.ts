/**
 * Parameterized types in the engine (GoogleSQL "Parameterized data types"; rules and error texts in
 * src/types/type-params.ts):
 *
 * - reading the parameters the analyzer resolves for DDL column definitions
 *   (ResolvedColumnDefinition.annotations: `typeParameters`, per-field / element `childList`),
 *   ALTER COLUMN SET DATA TYPE (`updatedAnnotations`) and CAST (`typeModifiers.typeParameters`);
 * - enforcing them on writes as SQL around the value written (INSERT, UPDATE, MERGE, CREATE TABLE
 *   … AS SELECT with a column list) and in JavaScript for rows the engine appends itself
 *   (tabledata.insertAll, query destination tables, loads: src/engine/dml-values.ts);
 * - ALTER COLUMN SET DATA TYPE may only relax parameters (BigQuery DDL reference,
 *   alter_column_set_data_type_statement: coercion to a less restrictive parameterized type).
 */
import type { Node } from '../analyzer/ast.js';
import { BigQueryError } from '../errors/errors.js';
import { defineUdf } from '../functions/builtin-udfs.js';
import type { Column, FieldDetails } from '../types/schema.js';
import { columnTypeSql } from '../types/schema.js';
import { applyNumericParams, applyParams, maxLengthMessage, paramTarget, treeHasParams, type ParamTree, type TypeParams } from '../types/type-params.js';
import type { BqType, Value } from '../types/types.js';
import { duckFieldNames, quoteIdent } from './duckdb/types.js';
import { literalOptions } from './options.js';

/**
 * `bq_apply_numeric_params(text, precision, scale, kind, roundingMode, field)`: the NUMERIC /
 * BIGNUMERIC value rounded to the scale as canonical text; raises BigQuery's precision error.
 */
defineUdf(
  'bq_apply_numeric_params',
  ['VARCHAR', 'BIGINT', 'BIGINT', 'VARCHAR', 'VARCHAR', 'VARCHAR'],
  'VARCHAR',
  (text, precision, scale, kind, rounding, field) =>
    applyNumericParams(text, kind, { precision: Number(precision), scale: Number(scale), roundingMode: rounding || undefined }, field || undefined),
  { raises: true },
);

/** The same for SAFE_CAST: NULL instead of the error. */
defineUdf('bq_apply_numeric_params_safe', ['VARCHAR', 'BIGINT', 'BIGINT', 'VARCHAR', 'VARCHAR'], 'VARCHAR', (text, precision, scale, kind, rounding) =>
  applyNumericParams(text, kind, { precision: Number(precision), scale: Number(scale), roundingMode: rounding || undefined }),
);

/** TypeParametersProto (proto-loader JSON) of one scalar → TypeParams; undefined when empty. */
function scalarParams(tp: Node | undefined): TypeParams | undefined {
  const s = tp?.stringTypeParameters;
  if (s?.maxLength !== undefined && !s.isMaxLength) return { maxLength: Number(s.maxLength) };
  const n = tp?.numericTypeParameters;
  if (n) {
    if (n.isMaxPrecision) throw BigQueryError.notSupported('BIGNUMERIC(MAX) type parameters');
    const p: TypeParams = { precision: Number(n.precision) };
    // DDL NUMERIC(9) round-trips without a scale (python-bigquery system test
    // test_parameterized_types_round_trip); the analyzer reports scale 0 for it.
    if (n.scale !== undefined && Number(n.scale) !== 0) p.scale = Number(n.scale);
    return p;
  }
  return undefined;
}

/**
 * FieldDetails of a column from its ResolvedColumnAnnotations: type parameters, nested NOT NULL
 * and OPTIONS(description, rounding_mode) of struct fields; an ARRAY column's details are its
 * element's. `modeOmitted` is set on every field (DDL defines no modes; recorded tables_get_basic).
 */
export function detailsFromAnnotations(type: BqType, ann: Node | undefined, top = true): FieldDetails {
  const d: FieldDetails = { modeOmitted: true };
  if (!top && ann?.notNull) d.required = true;
  const opts = literalOptions(ann?.optionList);
  if (!top && typeof opts.description === 'string') d.description = opts.description;
  let t = type;
  let a = ann;
  if (t.kind === 'ARRAY') {
    t = t.element;
    a = ann?.childList?.[0];
  }
  Object.assign(d, scalarParams(a?.typeParameters));
  const rounding = literalOptions(a?.optionList).rounding_mode ?? opts.rounding_mode;
  if (typeof rounding === 'string' && (t.kind === 'NUMERIC' || t.kind === 'BIGNUMERIC')) d.roundingMode = rounding;
  if (t.kind === 'STRUCT') d.subfields = t.fields.map((f, i) => detailsFromAnnotations(f.type, a?.childList?.[i], false));
  return d;
}

/** The parameters of a CAST target (`typeModifiers.typeParameters`, children per field/element). */
export function castParams(type: BqType, tp: Node | undefined): ParamTree | undefined {
  if (!tp || (!tp.stringTypeParameters && !tp.numericTypeParameters && !tp.childList?.length)) return undefined;
  if (type.kind === 'ARRAY') return castParams(type.element, tp.childList?.[0]);
  if (type.kind === 'STRUCT') {
    const subs = type.fields.map((f, i) => castParams(f.type, tp.childList?.[i]));
    return subs.some(Boolean) ? { subfields: subs } : undefined;
  }
  return scalarParams(tp);
}

/** True when writes to the column must be checked. */
export const columnHasParams = (c: Column | undefined): boolean => !!c && treeHasParams(c.type, c);

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * SQL applying a field's parameters to `x` (a column reference or lambda variable: it is read more
 * than once): STRING/BYTES lengths checked with `error(…)`, NUMERIC/BIGNUMERIC rounded and
 * range-checked by `bq_apply_numeric_params`, arrays and structs element by element.
 * @param field the column name for the `Field <name>: ` prefix of the error; '' for CAST.
 * @param safe NULL instead of an error (SAFE_CAST).
 */
export function enforceSql(x: string, type: BqType, d: ParamTree | undefined, field: string, depth = 0, safe = false): string {
  if (!treeHasParams(type, d)) return x;
  const sub = (name: string) => (field ? `${field}.${name}` : '');
  switch (type.kind) {
    case 'ARRAY': {
      const v = `__tp${depth}`;
      return `list_transform(${x}, ${v} -> ${enforceSql(v, type.element, d, field, depth + 1, safe)})`;
    }
    case 'STRUCT': {
      const names = duckFieldNames(type);
      const parts = type.fields.map(
        (f, i) => `${quoteIdent(names[i])} := ${enforceSql(`struct_extract(${x}, ${sqlString(names[i])})`, f.type, d?.subfields?.[i], sub(f.name), depth + 1, safe)}`,
      );
      return `CASE WHEN ${x} IS NULL THEN NULL ELSE struct_pack(${parts.join(', ')}) END`;
    }
    case 'STRING':
    case 'BYTES': {
      if (d?.maxLength === undefined) return x;
      const len = type.kind === 'STRING' ? `length(${x})` : `octet_length(${x})`;
      const msg = maxLengthMessage(type.kind, d.maxLength, 0, field || undefined).replace(/0$/, '');
      return `(CASE WHEN ${len} > ${d.maxLength} THEN ${safe ? 'NULL' : `error(${sqlString(msg)} || CAST(${len} AS VARCHAR))`} ELSE ${x} END)`;
    }
    case 'NUMERIC':
    case 'BIGNUMERIC': {
      if (d?.precision === undefined) return x;
      const args = `CAST(${x} AS VARCHAR), ${d.precision}, ${d.scale ?? 0}, '${type.kind}', ${sqlString(d.roundingMode ?? '')}`;
      const call = safe ? `bq_apply_numeric_params_safe(${args})` : `bq_apply_numeric_params(${args}, ${sqlString(field)})`;
      return type.kind === 'NUMERIC' ? `CAST(${call} AS DECIMAL(38,9))` : call;
    }
    default:
      return x;
  }
}

/**
 * Applies the columns' parameters to rows in the table's column order (undefined = the column's
 * default, left alone).
 * @throws BigQueryError invalidQuery with BigQuery's text naming the column.
 */
export function enforceRows(columns: Column[], rows: (Value | undefined)[][]): (Value | undefined)[][] {
  const idx = columns.map((c, i) => (columnHasParams(c) ? i : -1)).filter((i) => i >= 0);
  if (!idx.length) return rows;
  return rows.map((r) => {
    const out = r.slice();
    for (const i of idx) if (out[i] !== undefined) out[i] = applyParams(out[i] as Value, columns[i].type, columns[i], columns[i].name);
    return out;
  });
}

/**
 * The range a column's values already have, as parameters: its own, or the type's (INT64 as
 * NUMERIC(19), NUMERIC as NUMERIC(38, 9)); undefined = unconstrained.
 */
function effectiveParams(t: BqType, p: TypeParams): TypeParams | undefined {
  if (p.maxLength !== undefined || p.precision !== undefined) return p;
  if (t.kind === 'INT64') return { precision: 19 };
  if (t.kind === 'NUMERIC') return { precision: 38, scale: 9 };
  return undefined;
}

/** Whether parameters `to` accept every value `from` accepts (undefined = unconstrained). */
function relaxes(kind: string, from: TypeParams | undefined, to: TypeParams): boolean {
  if (kind === 'STRING' || kind === 'BYTES') return to.maxLength === undefined || (from?.maxLength !== undefined && to.maxLength >= from.maxLength);
  if (to.precision === undefined) return true;
  if (from?.precision === undefined) return false;
  const [fs, ts] = [from.scale ?? 0, to.scale ?? 0];
  return ts >= fs && to.precision - ts >= from.precision - fs;
}

/**
 * ALTER COLUMN SET DATA TYPE with parameters: the new parameters must be less restrictive than the
 * values the column holds (the analyzer already checked that the base types are assignable).
 * @throws BigQueryError invalidQuery in the analyzer's wording, with the parameterized type names.
 */
export function checkSetDataType(old: Column, type: BqType, d: FieldDetails): void {
  const from = paramTarget(old.type);
  const to = paramTarget(type);
  if (from.kind === 'STRUCT' || to.kind === 'STRUCT') {
    if (treeHasParams(type, d) || treeHasParams(old.type, old)) throw BigQueryError.notSupported('ALTER COLUMN SET DATA TYPE of a STRUCT with type parameters');
    return;
  }
  if (!relaxes(to.kind, effectiveParams(from, old), d))
    throw BigQueryError.columnTypeNotAssignable(columnTypeSql(old.type, old), columnTypeSql(type, d));
}
