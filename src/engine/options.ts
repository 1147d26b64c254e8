/**
 * `OPTIONS(name = literal, …)` lists of DDL statements read into plain values
 * (option names lower-cased; non-literal option values are skipped).
 */
import type { Node } from '../analyzer/ast.js';
import { fromTypeProto } from '../analyzer/types.js';
import { valueFromProto } from '../analyzer/values.js';
import type { Value } from '../types/types.js';

export function literalOptions(list: Node[] | undefined): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const o of list ?? []) {
    if (o.value?.kind === 'Literal') out[String(o.name).toLowerCase()] = valueFromProto(o.value.value?.value, fromTypeProto(o.value.type));
  }
  return out;
}
