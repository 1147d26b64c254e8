/**
 * Nested `readOptions.selectedFields` of the Storage Read API (stream.proto, selected_fields):
 * "Specifying struct_field.string_field1 in the selected fields list will result in a read session
 * schema" whose struct holds only `string_field1`; naming the struct itself keeps every sub-field.
 * The order of fields is the table's, not the list's. A path through an ARRAY of STRUCTs prunes
 * each element's struct. Names match case-insensitively, as BigQuery column names do.
 */
import { BigQueryError } from '../../errors/errors.js';
import type { BqType, StructField, Value } from '../../types/types.js';

/** A column of a session (the shape of read-session.ts's SessionField). */
interface SessionField {
  name: string;
  type: BqType;
  required?: boolean;
}

/** What to keep below a field: everything, or only the named sub-fields (lower-cased names). */
type Keep = 'all' | Map<string, Keep>;

/** The sub-field paths asked for each top-level column (lower-cased), e.g. `s.a.b` → s: {a: {b: all}}. */
function keepTree(selected: string[]): Map<string, Keep> {
  const root = new Map<string, Keep>();
  for (const path of selected) {
    const parts = path.split('.').map((p) => p.toLowerCase());
    let node = root;
    for (let i = 0; i < parts.length; i++) {
      const cur = node.get(parts[i]);
      if (cur === 'all') break;
      if (i === parts.length - 1) {
        node.set(parts[i], 'all');
        break;
      }
      const next = cur ?? new Map<string, Keep>();
      node.set(parts[i], next);
      node = next;
    }
  }
  return root;
}

/** The struct type inside `t` (itself, or an ARRAY's element), if any. */
const structIn = (t: BqType) => (t.kind === 'STRUCT' ? t : t.kind === 'ARRAY' && t.element.kind === 'STRUCT' ? t.element : undefined);

/** A pruning of one value of type `t`: its new type and the function that prunes its values. */
interface Pruning {
  type: BqType;
  value: (v: Value) => Value;
}

/**
 * The pruning of type `t` keeping `keep`. @throws BigQueryError invalid (selectedFieldNotFound) for
 * a sub-field `t` lacks, or a path below a field that is not a STRUCT.
 */
function prune(t: BqType, keep: Keep, path: string, table: string): Pruning {
  if (keep === 'all') return { type: t, value: (v) => v };
  const st = structIn(t);
  if (!st) throw BigQueryError.selectedFieldNotFound(`${path}.${[...keep.keys()][0]}`, table);
  for (const name of keep.keys()) {
    if (!st.fields.some((f) => f.name.toLowerCase() === name)) throw BigQueryError.selectedFieldNotFound(`${path}.${name}`, table);
  }
  const kept: { index: number; field: StructField; sub: Pruning }[] = [];
  st.fields.forEach((f, index) => {
    const k = keep.get(f.name.toLowerCase());
    if (k) kept.push({ index, field: f, sub: prune(f.type, k, `${path}.${f.name}`, table) });
  });
  const structType: BqType = { kind: 'STRUCT', fields: kept.map((k) => ({ ...k.field, type: k.sub.type })) };
  const pruneStruct = (v: Value): Value => (v === null ? null : kept.map((k) => k.sub.value((v as Value[])[k.index])));
  if (t.kind === 'STRUCT') return { type: structType, value: pruneStruct };
  return { type: { kind: 'ARRAY', element: structType }, value: (v) => (v === null ? null : (v as Value[]).map(pruneStruct)) };
}

/** A value pruner per column (undefined: the column is kept as it is). */
export type ColumnPruning = ((v: Value) => Value) | undefined;

/**
 * The STRUCT columns of a session pruned to the sub-fields `selected` names (top-level columns
 * were already chosen by the query; a column named whole, or not named, is kept as is): the pruned
 * fields, and per column the function pruning its values (STRUCT values are Value[] in field order).
 * @throws BigQueryError invalid (gRPC INVALID_ARGUMENT) for an unknown sub-field.
 */
export function nestedPrunings(fields: SessionField[], selected: string[], table: string): { fields: SessionField[]; prunings: ColumnPruning[] } {
  const none = { fields, prunings: fields.map(() => undefined) };
  if (!selected.some((s) => s.includes('.'))) return none;
  const tree = keepTree(selected);
  const prunings = fields.map((f) => {
    const k = tree.get(f.name.toLowerCase());
    return k && k !== 'all' ? prune(f.type, k, f.name, table) : undefined;
  });
  if (prunings.every((p) => !p)) return none;
  return { fields: fields.map((f, i) => (prunings[i] ? { ...f, type: prunings[i]!.type } : f)), prunings: prunings.map((p) => p?.value) };
}

/**
 * `nestedPrunings` applied to whole rows.
 * @param fields the session's columns; @param rows its rows.
 * @throws BigQueryError invalid (gRPC INVALID_ARGUMENT) for an unknown sub-field.
 */
export function pruneNestedFields(fields: SessionField[], rows: Value[][], selected: string[], table: string): { fields: SessionField[]; rows: Value[][] } {
  const p = nestedPrunings(fields, selected, table);
  if (p.prunings.every((f) => !f)) return { fields, rows };
  return { fields: p.fields, rows: rows.map((r) => r.map((v, i) => (p.prunings[i] ? p.prunings[i]!(v) : v))) };
}
