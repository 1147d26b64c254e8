/**
 * The ZetaSQL local service's gRPC client class (`zetasql.local_service.ZetaSqlLocalService`),
 * built from the protos shipped in the npm package `@fivetrandevelopers/zetasql`.
 */
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zetasqlDir } from './process.js';
import { RawAnswer } from './answer-decoder.js';
import { ANALYZER_OFFTHREAD_DECODE_BYTES, ANALYZER_PROTO_RECURSION_LIMIT } from '../config/analyzer-limits.js';
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
  const visit = (ns: protobuf.Namespace): void => {
    for (const o of ns.nestedArray) {
      if (o instanceof protobuf.Type && codecs[o.fullName]) o.setup = precompiledSetup(o, codecs[o.fullName]!);
      if (o instanceof protobuf.Namespace) visit(o);
    }
  };
  visit(root);
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

let cachedService: grpc.ServiceClientConstructor | undefined;
/** How messages become plain objects (the "proto-loader JSON form" the analyzer code reads). */
export const TO_OBJECT: protobuf.IConversionOptions = { oneofs: true, longs: String, enums: String, defaults: false };
const SERVICE = 'zetasql.local_service.ZetaSqlLocalService';

/**
 * The analyzer's protos: the JSON descriptor the build writes next to this module
 * (dist/analyzer/zetasql-protos.json), else the package's .proto files parsed at start.
 * The descriptor's types are resolved as they are first used (a message type when its codec is
 * built), not all up front: `Root.fromJSON`'s `resolveAll` over the ~1,000 types cost ~1/4 of
 * the emulator's CPU to its first answer (bench/results/2026-11-26-cold-start.md). Every file is
 * proto2 without groups, so the edition features resolveAll would fill in are the defaults the
 * codecs assume when none are set (no packed encoding, no delimited messages).
 */
export function loadRoot(): protobuf.Root {
  const json = path.join(path.dirname(fileURLToPath(import.meta.url)), 'zetasql-protos.json');
  // With the codecs the build wrote from this same descriptor (scripts/gen-analyzer-codecs.mjs).
  if (fs.existsSync(json)) return rootOfDescriptor(JSON.parse(fs.readFileSync(json, 'utf8')), ANALYZER_CODECS);
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

/**
 * The gRPC client class of the local service, built straight from protobufjs types (grpc's
 * generic client constructor; serialize = fromObject + encode, deserialize = decode + toObject):
 * @grpc/proto-loader's package definition also builds a file descriptor per type, which cost
 * ~110 ms of every start. Methods are reachable as `Analyze` and `analyze`. An answer over
 * ANALYZER_OFFTHREAD_DECODE_BYTES arrives as a `RawAnswer` (see answer-decoder.ts).
 */
export function serviceConstructor(): grpc.ServiceClientConstructor {
  if (cachedService) return cachedService;
  const service = loadRoot().lookupService(SERVICE);
  const def: Record<string, grpc.MethodDefinition<object, object>> = {};
  for (const m of service.methodsArray) {
    m.resolve();
    const req = m.resolvedRequestType!;
    const res = m.resolvedResponseType!;
    const method: grpc.MethodDefinition<object, object> = {
      path: `/${SERVICE}/${m.name}`,
      requestStream: !!m.requestStream,
      responseStream: !!m.responseStream,
      requestSerialize: (o: object) => Buffer.from(req.encode(req.fromObject(o)).finish()),
      requestDeserialize: (b: Buffer) => req.toObject(req.decode(b), TO_OBJECT),
      responseSerialize: (o: object) => Buffer.from(res.encode(res.fromObject(o)).finish()),
      // A large answer is decoded off the main thread by the caller (answer-decoder.ts).
      responseDeserialize: (b: Buffer) => (b.length > ANALYZER_OFFTHREAD_DECODE_BYTES ? new RawAnswer(res.fullName.replace(/^\./, ''), b) : res.toObject(res.decode(b), TO_OBJECT)),
    };
    def[m.name] = method;
    def[m.name[0].toLowerCase() + m.name.slice(1)] = method;
  }
  cachedService = grpc.makeGenericClientConstructor(def, 'ZetaSqlLocalService');
  return cachedService;
}
