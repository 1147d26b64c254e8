// Generates src/analyzer/generated/resolved-ast.ts: TypeScript types of the resolved AST in the
// normalised shape src/analyzer/ast.ts gives it, from the analyzer's own protos
// (zetasql/resolved_ast/resolved_ast.proto in @fivetrandevelopers/zetasql, loaded with protobufjs).
//
// How the normalised tree relates to the protos (src/analyzer/ast.ts):
// - each concrete message `ResolvedXProto` sits in one `AnyResolved…Proto` oneof `node` as field
//   `resolved_x_node`; the normalised node's `kind` is that field name in protobufjs camelCase
//   without `resolved`/`Node` (`resolved_dmlvalue_node` → `Dmlvalue`, `resolved_tvfscan_node` → `Tvfscan`);
// - a field typed by a concrete node message (no oneof) holds a node whose kind is the field's name
//   (`table_scan` → `TableScan`, typed `NodeAs<'TableScan', ResolvedTableScan>`) when its base
//   classes carry data (its `parent` is on the wire), else a plain object without a kind, where a
//   proto field named `kind` keeps its name (`option_list`: `Unkinded<ResolvedOption>`);
// - `parent` chains are merged into the node (the node's own field wins), a field named `kind`
//   becomes `kind_`;
// - messages are type aliases, not interfaces, so that a typed node is assignable to the loose
//   `Node` of src/analyzer/ast.ts (an interface has no implicit index signature);
// - decoding is protobufjs `toObject` with `{oneofs: true, longs: String, enums: String,
//   defaults: false}`: every field may be absent, int64 is a decimal string, enums are names, bytes
//   are Buffers, and each oneof adds a string property naming the member that is set.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RESOLVED_AST_OUT = 'src/analyzer/generated/resolved-ast.ts';
const PROTO = 'zetasql/resolved_ast/resolved_ast.proto';

function loadProtos() {
  const protoDir = path.join(root, 'node_modules/@fivetrandevelopers/zetasql/lib/zetasql/protos');
  const r = new protobuf.Root();
  r.resolvePath = (_origin, target) => {
    for (const d of [protoDir, path.join(root, 'node_modules/protobufjs')]) {
      const p = path.join(d, target);
      if (fs.existsSync(p)) return p;
    }
    return target;
  };
  r.loadSync(PROTO, { keepCase: false, alternateCommentMode: true });
  r.resolveAll();
  return r;
}

const INT64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const NUMBER = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32', 'float', 'double']);
const NODE_FIELD = /^resolved(.*)Node$/;

/** `.zetasql.ResolvedScanEnums.JoinType` → `ResolvedScanEnums_JoinType`; other packages keep theirs. */
function tsName(t) {
  const full = t.fullName.replace(/^\./, '');
  const name = full.startsWith('zetasql.') ? full.slice('zetasql.'.length) : full.split('.').map((s) => s[0].toUpperCase() + s.slice(1)).join('');
  return name.replace(/\./g, '_');
}

/** A proto comment as a JSDoc block (indented), or nothing. */
function doc(comment, indent = '') {
  if (!comment) return '';
  const lines = comment.replace(/\*\//g, '*\\/').split('\n').map((l) => l.replace(/\s+$/, ''));
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  if (!lines.length) return '';
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? ' ' + l : ''}`).join('\n')}\n${indent} */\n`;
}

/** @returns the generated module's text */
export function generateResolvedAst() {
  const r = loadProtos();
  const zetasql = r.lookup('zetasql');
  const messages = [];
  const collect = (ns) => {
    for (const n of ns.nestedArray) {
      if (n instanceof protobuf.Type) messages.push(n);
      if (n.nestedArray) collect(n);
    }
  };
  collect(zetasql);
  const byName = new Map(messages.map((m) => [m.fullName, m]));
  const isWrapper = (m) => /^AnyResolved.*Proto$/.test(m.name) && m.oneofs?.node;
  const isNodeMessage = (m) => /^Resolved.*Proto$/.test(m.name) && !!m.fields.parent;

  // Wrappers (abstract bases) and concrete kinds.
  const kindOf = new Map(); // concrete message fullName → kind
  const members = new Map(); // wrapper fullName → concrete message fullNames (flattened)
  const wrapperMembers = (w) => {
    if (members.has(w.fullName)) return members.get(w.fullName);
    const out = [];
    for (const f of w.oneofs.node.fieldsArray) {
      const t = f.resolvedType;
      if (isWrapper(t)) out.push(...wrapperMembers(t));
      else {
        const kind = f.name.replace(NODE_FIELD, '$1');
        if (kindOf.has(t.fullName) && kindOf.get(t.fullName) !== kind) throw new Error(`${t.fullName} has two kinds`);
        kindOf.set(t.fullName, kind);
        out.push(t.fullName);
      }
    }
    members.set(w.fullName, out);
    return out;
  };
  const wrappers = messages.filter(isWrapper);
  for (const w of wrappers) wrapperMembers(w);
  const rootWrapper = byName.get('.zetasql.AnyResolvedNodeProto');
  const concrete = wrapperMembers(rootWrapper).map((n) => byName.get(n));
  const nodeName = (m) => m.name.replace(/Proto$/, '');
  const unionName = (w) => w.name.replace(/^Any/, '').replace(/Proto$/, '');

  // Messages and enums reached from the nodes (besides the nodes themselves).
  const plain = new Map();
  const enums = new Map();
  const externals = new Set();

  // Whether a node message's base classes hold data the analyzer always writes (so its `parent`
  // is on the wire): a singular field (a repeated one may be empty; ResolvedNodeProto's
  // parse_location_range is only written on request).
  const baseCarriesData = (m) => {
    for (let cur = m.fields.parent?.resolvedType; cur; cur = cur.fields.parent?.resolvedType)
      if (cur.fieldsArray.some((f) => f.name !== 'parent' && !f.repeated && !(cur.name === 'ResolvedNodeProto' && f.name === 'parseLocationRange'))) return true;
    return false;
  };
  const fieldType = (f, owner) => {
    let t;
    if (f.resolvedType instanceof protobuf.Enum) {
      enums.set(f.resolvedType.fullName, f.resolvedType);
      t = tsName(f.resolvedType);
    } else if (f.resolvedType instanceof protobuf.Type) {
      const m = f.resolvedType;
      if (isWrapper(m)) t = unionName(m);
      else if (isNodeMessage(m)) {
        // A concrete-typed node field: with a `parent` on the wire the normaliser names its kind
        // after the field; without one (base classes with no data) the node stays a plain object.
        const kind = f.name[0].toUpperCase() + f.name.slice(1);
        t = baseCarriesData(m) ? `NodeAs<'${kind}', ${nodeName(m)}>` : `Unkinded<${nodeName(m)}>`;
        if (!kindOf.has(m.fullName)) throw new Error(`${owner.name}.${f.name}: ${m.name} is not a concrete node`);
      } else if (m.fullName.startsWith('.zetasql.')) {
        plain.set(m.fullName, m);
        t = tsName(m);
      } else {
        externals.add(m.fullName);
        t = tsName(m);
      }
    } else if (INT64.has(f.type)) t = 'string';
    else if (NUMBER.has(f.type)) t = 'number';
    else if (f.type === 'bool') t = 'boolean';
    else if (f.type === 'string') t = 'string';
    else if (f.type === 'bytes') t = 'Uint8Array';
    else throw new Error(`${owner.name}.${f.name}: unknown type ${f.type}`);
    if (f.map) return `Record<string, ${t}>`;
    return f.repeated ? `${t.includes('<') || t.includes('|') ? `Array<${t}>` : `${t}[]`}` : t;
  };
  const oneofProps = (m) =>
    (m.oneofsArray ?? []).map((o) => `  /** Which member of oneof \`${o.name}\` is set (protobufjs \`oneofs: true\`). */\n  ${o.name}?: ${o.fieldsArray.map((f) => `'${f.name}'`).join(' | ')};\n`);

  // Node props: own fields first, then each parent's, as the normaliser merges them.
  const nodeProps = (m) => {
    const seen = new Set(['kind']);
    let out = '';
    for (let cur = m; cur; cur = cur.fields.parent?.resolvedType) {
      for (const f of cur.fieldsArray) {
        if (f.name === 'parent') continue;
        const key = f.name === 'kind' ? 'kind_' : f.name;
        if (seen.has(key)) continue;
        seen.add(key);
        const from = cur === m ? '' : `(from ${cur.name}) `;
        const c = f.comment ? `${from}${f.comment}` : from ? from.trim() : '';
        out += doc(c, '  ') + `  ${key}?: ${fieldType(f, m)};\n`;
      }
      for (const o of cur.oneofsArray ?? []) if (!seen.has(o.name)) { seen.add(o.name); out += oneofProps({ oneofsArray: [o] }).join(''); }
    }
    return out;
  };

  let body = '';
  body += '// ---- Concrete nodes ----\n\n';
  const nodeBlocks = [];
  for (const m of [...concrete].sort((a, b) => a.name.localeCompare(b.name))) {
    const kind = kindOf.get(m.fullName);
    nodeBlocks.push(`${doc(m.comment)}export type ${nodeName(m)} = {\n  kind: '${kind}';\n${nodeProps(m)}};\n`);
  }
  body += nodeBlocks.join('\n');

  body += '\n// ---- Abstract bases (unions of their concrete nodes) ----\n\n';
  for (const w of [...wrappers].sort((a, b) => a.name.localeCompare(b.name))) {
    const names = wrapperMembers(w).map((n) => nodeName(byName.get(n))).sort();
    const u = unionName(w);
    body += `${doc(w.comment)}export type ${u} =\n${names.map((n) => `  | ${n}`).join('\n')};\n`;
    body += `/** The kinds of ${u}. */\nexport type ${u}Kind = ${u}['kind'];\n\n`;
  }

  body += '// ---- Messages that are not nodes ----\n\n';
  // Plain messages may reach further plain messages: iterate to a fixed point.
  const emitted = new Set();
  const plainBlocks = [];
  for (let grew = true; grew; ) {
    grew = false;
    for (const [full, m] of [...plain]) {
      if (emitted.has(full)) continue;
      emitted.add(full);
      grew = true;
      let props = '';
      for (const f of m.fieldsArray) props += doc(f.comment, '  ') + `  ${f.name}?: ${fieldType(f, m)};\n`;
      props += oneofProps(m).join('');
      plainBlocks.push([tsName(m), `${doc(m.comment)}export type ${tsName(m)} = {\n${props}};\n`]);
    }
  }
  body += plainBlocks.sort((a, b) => a[0].localeCompare(b[0])).map((b) => b[1]).join('\n');

  body += '\n// ---- Messages of other packages (kept as decoded) ----\n\n';
  for (const full of [...externals].sort()) {
    body += `/** \`${full.replace(/^\./, '')}\`, decoded by protobufjs (not described further here). */\nexport type ${tsName({ fullName: full })} = { [field: string]: unknown };\n`;
  }

  body += '\n// ---- Enums (decoded as their value names) ----\n\n';
  for (const e of [...enums.values()].sort((a, b) => tsName(a).localeCompare(tsName(b)))) {
    const names = Object.keys(e.values);
    body += `${doc(e.comment)}export type ${tsName(e)} = ${names.map((n) => `'${n}'`).join(' | ')};\n`;
  }

  const head = `// GENERATED by scripts/gen-resolved-ast.mjs from ${PROTO}
// (@fivetrandevelopers/zetasql). Do not edit: run \`npm run gen:types\`.
//
// The resolved AST in the normalised shape of src/analyzer/ast.ts: ${concrete.length} concrete node kinds,
// ${wrappers.length} abstract bases. Every field may be absent (protobufjs \`defaults: false\`).
/* eslint-disable */

/**
 * A node in a concrete-typed proto field whose base classes carry data: the normaliser names its
 * kind after the field (\`table_scan\` → \`'TableScan'\`), not after its message.
 */
export type NodeAs<K extends string, T extends { kind: string }> = Omit<T, 'kind'> & { kind: K };

/**
 * A node in a concrete-typed proto field whose base classes carry no data (ResolvedArgument's
 * subclasses): no \`parent\` arrives, so the normaliser leaves it a plain object — no \`kind\`, and a
 * proto field named \`kind\` keeps its name.
 */
export type Unkinded<T extends { kind: string }> = Omit<T, 'kind' | 'kind_'> & ('kind_' extends keyof T ? { kind?: T['kind_' & keyof T] } : {});

/** Every concrete node kind (the \`kind\` of a node reached through an \`AnyResolved…Proto\` oneof). */
export type ResolvedKind = ResolvedNode['kind'];

/** The concrete node of kind K. */
export type ResolvedNodeOf<K extends ResolvedKind> = Extract<ResolvedNode, { kind: K }>;

/** Every concrete kind, in proto order. */
export const RESOLVED_KINDS: readonly ResolvedKind[] = [
${concrete.map((m) => `  '${kindOf.get(m.fullName)}',`).join('\n')}
];

`;
  return head + body;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.join(root, RESOLVED_AST_OUT);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, generateResolvedAst());
  console.log(`wrote ${RESOLVED_AST_OUT}`);
}
