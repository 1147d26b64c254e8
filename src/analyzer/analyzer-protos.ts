/**
 * The analyzer's protos as a protobufjs root: built from the JSON descriptors the build writes
 * (scripts/build.mjs; split in a core and the rest, scripts/split-analyzer-protos.mjs), with the
 * message codecs the build wrote ahead of time (analyzer-codecs.ts), or from the .proto files of
 * the npm package `@fivetrandevelopers/zetasql` when there is no build (tsx).
 */
import protobuf from 'protobufjs';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zetasqlDir } from './process.js';
import { ANALYZER_PROTO_RECURSION_LIMIT } from '../config/analyzer-limits.js';
import { ANALYZER_CODECS, type AnalyzerCodecFactory } from './analyzer-codecs.js';

// Resolved ASTs nest deeper than protobufjs's default limit (see ANALYZER_PROTO_RECURSION_LIMIT).
protobuf.util.recursionLimit = Math.max(protobuf.util.recursionLimit ?? 0, ANALYZER_PROTO_RECURSION_LIMIT);
protobuf.Reader.recursionLimit = Math.max(protobuf.Reader.recursionLimit ?? 0, ANALYZER_PROTO_RECURSION_LIMIT);

/** The codec factories of installAnalyzerCodecs: type full name → [field names, factory] (analyzer-codecs.ts). */
export type AnalyzerCodecTable = Readonly<Record<string, readonly [fields: string, make: AnalyzerCodecFactory]>>;

/**
 * Makes each message type of `root` that has an entry in `codecs` take its encode, decode,
 * fromObject and toObject from it when protobufjs sets the type up at its first use, instead of
 * writing their sources and compiling them with `new Function` (protobufjs Type#setup, of which
 * this is the same sequence). An entry whose field names are not the type's (made from another
 * descriptor) is ignored: protobufjs sets that type up as before. `verify`, which nothing here
 * calls, is generated at its first call. Only `root`'s types change (a per-type `setup`), never
 * protobufjs's Type class: the gRPC Storage API's root (src/server/grpc/) is not affected.
 */
export function installAnalyzerCodecs(root: protobuf.Namespace, codecs: AnalyzerCodecTable): void {
  if (Object.keys(codecs).length === 0) return;
  for (const o of root.nestedArray) installCodecsOn(o, codecs);
}

/** installAnalyzerCodecs for one object and everything nested in it. */
function installCodecsOn(o: protobuf.ReflectionObject, codecs: AnalyzerCodecTable): void {
  if (o instanceof protobuf.Type && codecs[o.fullName]) o.setup = precompiledSetup(o, codecs[o.fullName]!);
  if (o instanceof protobuf.Namespace) for (const inner of o.nestedArray) installCodecsOn(inner, codecs);
}

/** The `setup` of one type with an entry (see installAnalyzerCodecs). */
function precompiledSetup(t: protobuf.Type, [fieldNames, make]: readonly [string, AnalyzerCodecFactory]): () => protobuf.Type {
  return () => {
    const fields = t.fieldsArray;
    if (fieldNames !== fields.map((f) => f.name).join()) return protobuf.Type.prototype.setup.call(t);
    const types = fields.map((f) => f.resolve().resolvedType);
    const [encode, decode, fromObject, toObject] = make(protobuf.Writer, protobuf.Reader, types, protobuf.util);
    const type = t as unknown as Record<string, unknown>;
    Object.assign(type, { encode, decode, fromObject, toObject });
    type.verify = (message: unknown) => (type.verify = protobuf.verifier(t)({ types, util: protobuf.util }) as (m: unknown) => string | null)(message);
    // protobufjs's own wrappers of well-known types (google.protobuf.Any), as Type#setup applies them.
    const wrapper = (protobuf.wrappers as Record<string, protobuf.IWrapper | undefined>)[t.fullName];
    if (wrapper) {
      const original = Object.create(t) as Record<string, unknown>;
      original.fromObject = fromObject;
      original.toObject = toObject;
      type.fromObject = wrapper.fromObject!.bind(original as unknown as protobuf.Type);
      type.toObject = wrapper.toObject!.bind(original as unknown as protobuf.Type);
    }
    return t;
  };
}


/** Where the build writes the descriptors: next to this module (scripts/build.mjs). */
const DESCRIPTOR_DIR = path.dirname(fileURLToPath(import.meta.url));
type Descriptor = protobuf.INamespace & { options?: Record<string, unknown> };
const readDescriptor = (dir: string, name: string) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as Descriptor;
const CORE = 'zetasql-protos-core.json';
const REST = 'zetasql-protos-rest.json';

/**
 * The analyzer's protos for the emulator's own calls: the build's core descriptor
 * (dist/analyzer/zetasql-protos-core.json, scripts/split-analyzer-protos.mjs: the types of the
 * methods every query uses, ~400 of ~890) with the codecs the build wrote, and `complete()`, which
 * adds the rest of the types (zetasql-protos-rest.json: the parse tree of `Parse`, …) once, before
 * a method that needs them is first used. Building the whole root cost ~20 ms more of every cold
 * start (bench/results/2026-11-27-cold-start-2.md). Without the split descriptors in `dir` (tsx,
 * tests) the root is loadRoot's, already complete. `codecs`: installAnalyzerCodecs's table.
 */
export function loadCoreRoot(dir = DESCRIPTOR_DIR, codecs: AnalyzerCodecTable = ANALYZER_CODECS): { root: protobuf.Root; complete: () => void } {
  if (!fs.existsSync(path.join(dir, CORE))) return { root: loadRoot(), complete: () => undefined };
  const root = rootOfDescriptor(readDescriptor(dir, CORE), codecs);
  let completed = false;
  const complete = () => {
    if (completed) return;
    completed = true;
    addDescriptor(root, readDescriptor(dir, REST).nested ?? {}, codecs);
  };
  return { root, complete };
}

/**
 * Adds a descriptor's entries to the namespace `ns`: a plain namespace that exists already is
 * entered (its new entries added to it), anything else is added as protobufjs's `addJSON` adds it,
 * with its codecs installed (installAnalyzerCodecs).
 */
function addDescriptor(ns: protobuf.Namespace, nested: NonNullable<protobuf.INamespace['nested']>, codecs: AnalyzerCodecTable): void {
  const added: Record<string, protobuf.AnyNestedObject> = {};
  for (const [name, entry] of Object.entries(nested)) {
    const existing = ns.get(name);
    const plain = !('fields' in entry) && !('values' in entry) && !('methods' in entry) && !('id' in entry);
    if (existing instanceof protobuf.Namespace && !(existing instanceof protobuf.Type) && plain) addDescriptor(existing, (entry as protobuf.INamespace).nested ?? {}, codecs);
    else added[name] = entry;
  }
  ns.addJSON(added);
  for (const name of Object.keys(added)) installCodecsOn(ns.get(name)!, codecs);
}

/**
 * The analyzer's protos, all of them: the build's descriptors (core and rest, as loadCoreRoot
 * completes them) with the codecs it wrote, else the package's .proto files parsed at start.
 * The descriptor's types are resolved as they are first used (a message type when its codec is
 * built), not all up front: `Root.fromJSON`'s `resolveAll` over the ~1,000 types cost ~1/4 of
 * the emulator's CPU to its first answer (bench/results/2026-11-26-cold-start.md). Every file is
 * proto2 without groups, so the edition features resolveAll would fill in are the defaults the
 * codecs assume when none are set (no packed encoding, no delimited messages).
 */
export function loadRoot(): protobuf.Root {
  if (fs.existsSync(path.join(DESCRIPTOR_DIR, CORE))) {
    const { root, complete } = loadCoreRoot();
    complete();
    return root;
  }
  const root = new protobuf.Root();
  const dirs = [path.join(zetasqlDir(), 'protos'), path.dirname(createRequire(import.meta.url).resolve('protobufjs/package.json'))];
  root.resolvePath = (_origin, target) => dirs.map((d) => path.join(d, target)).find((p) => fs.existsSync(p)) ?? target;
  return root.loadSync('local_service.proto', { keepCase: false });
}

/**
 * The protobufjs root of a JSON descriptor (protobufjs `Root#toJSON`'s shape), its types resolved
 * as they are first used, with `codecs` installed (installAnalyzerCodecs; `{}` for none).
 */
export function rootOfDescriptor(descriptor: protobuf.INamespace & { options?: Record<string, unknown> }, codecs: AnalyzerCodecTable): protobuf.Root {
  const root = new protobuf.Root();
  if (descriptor.options) root.setOptions(descriptor.options);
  // google.protobuf first: ZetaSQL's extensions of its option messages then find their target
  // as they are added, instead of being retried at every later type (protobufjs's deferred
  // extensions) — ~10 % of loadRoot at start, a sixth once warm.
  const nested = descriptor.nested ?? {};
  root.addJSON({ ...(nested.google ? { google: nested.google } : {}), ...nested });
  installAnalyzerCodecs(root, codecs);
  return root;
}

