/**
 * Normalises the resolved AST as proto-loader decodes it (`oneofs:true`, `longs:String`,
 * `enums:String`, `defaults:false`) into a flat tree of plain nodes (DESIGN §2 "Resolved-AST facts"):
 *
 * - oneof wrappers `{node:'resolvedXNode', resolvedXNode:{…}}` (nested up to three levels) are
 *   unwrapped, and the concrete node gets `kind: 'X'` (e.g. `TableScan`, `FunctionCall`, `QueryStmt`);
 * - base-class fields held in `parent` chains are merged into the node;
 * - everything else (types, values, enums as strings, int64 as decimal strings) is kept as is.
 *
 * Node fields keep the proto's camelCase names (`inputScan`, `columnList`, `argumentList`…).
 */

/** A normalised resolved-AST node: `kind` plus the proto's fields (camelCase). */
export interface Node {
  kind: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any;
}

const NODE_RE = /^(?:resolved|ast)(.*)Node$/;

/** Normalises any decoded proto value; nodes become `Node`s with a `kind`. */
export function normalize(x: unknown, field?: string): any {
  if (Array.isArray(x)) return x.map((e) => normalize(e, field));
  if (x === null || typeof x !== 'object' || x instanceof Uint8Array) return x;
  const o = x as Record<string, unknown>;
  // oneof wrapper: {node: 'resolvedXNode', resolvedXNode: {...}}
  if (typeof o.node === 'string' && NODE_RE.test(o.node) && o[o.node] && typeof o[o.node] === 'object') {
    const inner = o[o.node] as Record<string, unknown>;
    if (typeof inner.node === 'string' && NODE_RE.test(inner.node)) return normalize(inner);
    return normalizeNode(o.node.replace(NODE_RE, '$1'), inner);
  }
  // A concrete-typed node field (no oneof tag): flatten its parent chain; the kind is named
  // after the field (`tableScan` → `TableScan`), which is what the statement handlers rely on.
  if (o.parent && typeof o.parent === 'object' && field) return normalizeNode(field[0].toUpperCase() + field.slice(1), o);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) out[k] = normalize(o[k], k);
  return out;
}

function normalizeNode(kind: string, o: Record<string, unknown>): Node {
  const out: Node = { kind };
  let cur: Record<string, unknown> | undefined = o;
  while (cur) {
    for (const k of Object.keys(cur)) {
      if (k === 'parent') continue;
      const key = k === 'kind' ? 'kind_' : k; // a proto field named `kind` must not hide the node kind
      if (key in out) continue;
      out[key] = normalize(cur[k], k);
    }
    cur = cur.parent as Record<string, unknown> | undefined;
  }
  return out;
}

/** Walks every node of a normalised tree (pre-order); bytes values are leaves. */
export function walk(n: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(n)) {
    for (const c of n) if (c && typeof c === 'object') walk(c, visit);
    return;
  }
  if (!n || typeof n !== 'object' || ArrayBuffer.isView(n)) return;
  if (typeof (n as Node).kind === 'string') visit(n as Node);
  // for…in over own data properties: no array per node (a 100,000-node tree is walked several times).
  for (const k in n) {
    const v = (n as Record<string, unknown>)[k];
    if (v && typeof v === 'object') walk(v, visit);
  }
}

const largeStatements = new WeakSet<object>();

/** Marks a resolved statement as large (its analyzer answer was over the off-thread decode size). */
export function markLarge(stmt: object): void {
  largeStatements.add(stmt);
}

/**
 * Lets other clients' work run before the next step on a large statement: each pass over a
 * 100,000-node tree (checks, lowering) costs tens of ms of the main thread. Free for other statements.
 */
export async function yieldIfLarge(stmt: object): Promise<void> {
  if (largeStatements.has(stmt)) await new Promise((r) => setImmediate(r));
}
