/**
 * The ZetaSQL local service's gRPC client class (`zetasql.local_service.ZetaSqlLocalService`),
 * built from the protos shipped in the npm package `@fivetrandevelopers/zetasql`.
 */
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { RawAnswer } from './answer-decoder.js';
import { ANALYZER_OFFTHREAD_DECODE_BYTES } from '../config/analyzer-limits.js';
import { loadCoreRoot } from './analyzer-protos.js';

export { installAnalyzerCodecs, loadRoot, rootOfDescriptor, type AnalyzerCodecTable } from './analyzer-protos.js';

let cachedService: grpc.ServiceClientConstructor | undefined;
/** The protobufjs root the service's messages come from (serviceConstructor). */
let serviceRoot: protobuf.Root | undefined;
/** How messages become plain objects (the "proto-loader JSON form" the analyzer code reads). */
export const TO_OBJECT: protobuf.IConversionOptions = { oneofs: true, longs: String, enums: String, defaults: false };
const SERVICE = 'zetasql.local_service.ZetaSqlLocalService';

/**
 * The gRPC client class of the local service, built straight from protobufjs types (grpc's
 * generic client constructor; serialize = fromObject + encode, deserialize = decode + toObject):
 * @grpc/proto-loader's package definition also builds a file descriptor per type, which cost
 * ~110 ms of every start. Methods are reachable as `Analyze` and `analyze`. An answer over
 * ANALYZER_OFFTHREAD_DECODE_BYTES arrives as a `RawAnswer` (see answer-decoder.ts).
 */
export function serviceConstructor(): grpc.ServiceClientConstructor {
  if (cachedService) return cachedService;
  const { root, complete } = loadCoreRoot();
  serviceRoot = root;
  const service = root.lookupService(SERVICE);
  const def: Record<string, grpc.MethodDefinition<object, object>> = {};
  for (const m of service.methodsArray) {
    // Resolved at the method's first call; a method whose types are not in the core root
    // (loadCoreRoot) has the rest added first.
    let types: { req: protobuf.Type; res: protobuf.Type } | undefined;
    const resolve = () => (m.resolve(), { req: m.resolvedRequestType!, res: m.resolvedResponseType! });
    const t = () => {
      if (types) return types;
      try {
        types = resolve();
      } catch {
        complete();
        types = resolve();
      }
      return types;
    };
    const method: grpc.MethodDefinition<object, object> = {
      path: `/${SERVICE}/${m.name}`,
      requestStream: !!m.requestStream,
      responseStream: !!m.responseStream,
      requestSerialize: (o: object) => Buffer.from(t().req.encode(t().req.fromObject(o)).finish()),
      requestDeserialize: (b: Buffer) => t().req.toObject(t().req.decode(b), TO_OBJECT),
      responseSerialize: (o: object) => Buffer.from(t().res.encode(t().res.fromObject(o)).finish()),
      // A large answer is decoded off the main thread by the caller (answer-decoder.ts).
      responseDeserialize: (b: Buffer) => (b.length > ANALYZER_OFFTHREAD_DECODE_BYTES ? new RawAnswer(t().res.fullName.replace(/^\./, ''), b) : t().res.toObject(t().res.decode(b), TO_OBJECT)),
    };
    def[m.name] = method;
    def[m.name[0].toLowerCase() + m.name.slice(1)] = method;
  }
  cachedService = grpc.makeGenericClientConstructor(def, 'ZetaSqlLocalService');
  return cachedService;
}

/** The encodings of the messages languageOptionsMessage made, written as they are. */
const encodedLanguageOptions = new WeakMap<object, Uint8Array>();
/** The types whose `encode` writes those encodings. */
const encodesKnown = new WeakSet<protobuf.Type>();
/** protobufjs's writer with its operation queue (`_push`, what its own `bytes` and `string` use). */
type QueueWriter = protobuf.Writer & { _push(fn: (val: Uint8Array, buf: Uint8Array, pos: number) => void, len: number, val: Uint8Array): protobuf.Writer };

/**
 * `options` (a LanguageOptionsProto in proto-loader JSON form) as a message of the service's
 * root, for requests to carry as is, and encoded once:
 * - protobufjs's `fromObject` passes an instance of its own type through unconverted, while
 *   converting the JSON form walked ~180 feature names through a `switch` of ~800 cases;
 * - the type's `encode` writes this message's bytes as encoded here, while encoding it again
 *   allocated ~14 KB of protobufjs writer operations.
 * Together ~0.15 ms of main thread per request (ExtractTableNames and Analyze each carry the
 * options; bench/results/2026-11-28-analyzer-calls.md). The message is frozen: every request
 * shares it.
 */
export function languageOptionsMessage(options: Record<string, unknown>): Record<string, unknown> {
  serviceConstructor();
  const type = serviceRoot!.lookupType('zetasql.LanguageOptionsProto');
  const message = type.fromObject(options) as unknown as Record<string, unknown>;
  for (const v of Object.values(message)) if (Array.isArray(v)) Object.freeze(v);
  Object.freeze(message);
  const bytes = type.encode(message).finish();
  if (!encodesKnown.has(type)) {
    // The type's own encode (set up by the call above), for every other message of the type.
    const encode = type.encode.bind(type);
    type.encode = (m: protobuf.Message | Record<string, unknown>, w?: protobuf.Writer) => {
      const known = encodedLanguageOptions.get(m);
      if (!known) return encode(m, w);
      // As protobufjs's Writer#bytes without the length prefix (the caller's fork/ldelim writes it).
      return ((w ?? protobuf.Writer.create()) as QueueWriter)._push(copyBytes, known.length, known);
    };
    encodesKnown.add(type);
  }
  encodedLanguageOptions.set(message, bytes);
  return message;
}

/** A protobufjs writer operation: `val`'s bytes at `pos` of `buf`. */
function copyBytes(val: Uint8Array, buf: Uint8Array, pos: number): void {
  buf.set(val, pos);
}
