/**
 * Script variables and system variables (BigQuery procedural language reference: DECLARE, SET,
 * "System variables"; https://cloud.google.com/bigquery/docs/reference/standard-sql/procedural-language).
 *
 * - Variables live in block scopes; names are case-insensitive; declaring a name already declared
 *   in the current or a containing block is an error. They reach the analyzer as catalog constants
 *   (columns take precedence over them, as BigQuery documents) and the lowering as values keyed by
 *   `scriptVariableKey` (src/engine/lower/exprs.ts).
 * - System variables (`@@project_id`, `@@row_count`, `@@error.message` …) reach the analyzer as
 *   `AnalyzerOptions.system_variables` and the lowering under `systemVariableKey`.
 */
import { BigQueryError } from '../errors/errors.js';
import type { ParamValue } from '../engine/lower/context.js';
import { scriptVariableKey, systemVariableKey } from '../engine/lower/exprs.js';
import type { BqType, Value } from '../types/types.js';
import { applyParams, type ParamTree } from '../types/type-params.js';
import type { SystemVariable, Variable } from '../engine/session-state.js';

export type { SystemVariable, Variable } from '../engine/session-state.js';

/** Block-scoped variables (DECLARE at the start of a script or BEGIN block). */
export class Scopes {
  private frames: Map<string, Variable>[];

  /** `root`: the outermost scope (a session's variables persist in it between jobs). */
  constructor(root: Map<string, Variable> = new Map()) {
    this.frames = [root];
  }

  push(): void {
    this.frames.push(new Map());
  }

  pop(): void {
    this.frames.pop();
  }

  /** Current nesting depth (restored after an exception unwinds blocks). */
  get depth(): number {
    return this.frames.length;
  }

  unwindTo(depth: number): void {
    this.frames.length = depth;
  }

  lookup(name: string): Variable | undefined {
    const key = name.toLowerCase();
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const v = this.frames[i].get(key);
      if (v) return v;
    }
    return undefined;
  }

  /** @throws BigQueryError invalidQuery when the name is already declared in scope. */
  declare(name: string, type: BqType, value: Value, params?: ParamTree): void {
    if (this.lookup(name)) throw BigQueryError.variableRedeclared(name);
    this.frames[this.frames.length - 1].set(name.toLowerCase(), { name, type, value, ...(params ? { params } : {}) });
  }

  /** Every visible variable by lower-case name. */
  visible(): Map<string, Variable> {
    const out = new Map<string, Variable>();
    for (const f of this.frames) for (const [k, v] of f) out.set(k, v);
    return out;
  }
}

/**
 * A value assigned to a variable with parameterized type, as `CAST(v AS <type>)` would give it
 * (GoogleSQL "Parameterized data types": a variable's parameters constrain the values assigned):
 * STRING/BYTES longer than L fail, NUMERIC/BIGNUMERIC round to the scale and must fit the precision.
 * @throws BigQueryError invalidQuery with CAST's text (no `Field` prefix, src/types/type-params.ts).
 */
export const withParams = (v: Value, type: BqType, params: ParamTree | undefined): Value => (params ? applyParams(v, type, params, '') : v);

/** System variables by dotted lower-case path (`time_zone`, `error.message`). */
export class SystemVariables {
  readonly vars = new Map<string, SystemVariable>();

  set(path: string, type: BqType, value: Value, settable = false): void {
    this.vars.set(path.toLowerCase(), { type, value, settable });
  }

  get(path: string): SystemVariable | undefined {
    return this.vars.get(path.toLowerCase());
  }

  delete(prefix: string): void {
    for (const k of [...this.vars.keys()]) if (k === prefix || k.startsWith(`${prefix}.`)) this.vars.delete(k);
  }
}

/** The named parameter values the lowering reads: query parameters, variables, system variables. */
export function loweringValues(params: Map<string, ParamValue> | undefined, vars: Map<string, Variable>, sys: SystemVariables): Map<string, ParamValue> {
  const out = new Map(params ?? []);
  for (const [k, v] of vars) out.set(scriptVariableKey(k), { type: v.type, value: v.value });
  for (const [k, v] of sys.vars) out.set(systemVariableKey(k.split('.')), { type: v.type, value: v.value });
  return out;
}

/** GoogleSQL text of a type (`ARRAY<STRUCT<`a` INT64>>`), for generated SQL. */
export function typeSql(t: BqType): string {
  switch (t.kind) {
    case 'ARRAY':
      return `ARRAY<${typeSql(t.element)}>`;
    case 'RANGE':
      return `RANGE<${typeSql(t.element)}>`;
    case 'STRUCT':
      return `STRUCT<${t.fields.map((f) => (f.name ? `\`${f.name.replace(/[`\\]/g, '\\$&')}\` ${typeSql(f.type)}` : typeSql(f.type))).join(', ')}>`;
    default:
      return t.kind;
  }
}

export const sameType = (a: BqType, b: BqType): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Converts a value to a variable's type with GoogleSQL's implicit coercions between types
 * (conversion rules: INT64 → NUMERIC, BIGNUMERIC, FLOAT64; NUMERIC → BIGNUMERIC, FLOAT64;
 * BIGNUMERIC → FLOAT64), field by field for STRUCT and element by element for ARRAY.
 * @throws BigQueryError invalidQuery when no coercion exists.
 */
export function coerceValue(v: Value, from: BqType, to: BqType, what: string): Value {
  if (v === null || sameType(from, to)) return v;
  const fail = () => BigQueryError.cannotCoerce(what, typeSql(from), typeSql(to));
  if (from.kind === 'ARRAY' && to.kind === 'ARRAY') return (v as Value[]).map((e) => coerceValue(e, from.element, to.element, what));
  if (from.kind === 'STRUCT' && to.kind === 'STRUCT') {
    if (from.fields.length !== to.fields.length) throw fail();
    return (v as Value[]).map((e, i) => coerceValue(e, from.fields[i].type, to.fields[i].type, what));
  }
  const f = from.kind;
  switch (to.kind) {
    case 'FLOAT64':
      if (f === 'INT64' || f === 'NUMERIC' || f === 'BIGNUMERIC') return Number(v);
      break;
    case 'NUMERIC':
      if (f === 'INT64') return String(v);
      break;
    case 'BIGNUMERIC':
      if (f === 'INT64' || f === 'NUMERIC') return String(v);
      break;
  }
  throw fail();
}
