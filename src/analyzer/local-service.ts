/**
 * The ZetaSQL local service's gRPC client class (`zetasql.local_service.ZetaSqlLocalService`),
 * built from the protos shipped in the npm package `@fivetrandevelopers/zetasql`.
 */
import * as grpc from '@grpc/grpc-js';
import type protobuf from 'protobufjs';
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

/**
 * `options` (a LanguageOptionsProto in proto-loader JSON form) as a message of the service's
 * root, for requests to carry as is: protobufjs's `fromObject` passes an instance of its own type
 * through unconverted, while converting the JSON form walked ~400 feature names through a switch of
 * ~800 cases on every request. That conversion was ~0.3 ms of main thread per small query
 * (ExtractTableNames and Analyze each carry the options; bench/results/2026-11-28-analyzer-calls.md).
 * The message must not be changed after: every request shares it.
 */
export function languageOptionsMessage(options: Record<string, unknown>): Record<string, unknown> {
  serviceConstructor();
  const message = serviceRoot!.lookupType('zetasql.LanguageOptionsProto').fromObject(options) as unknown as Record<string, unknown>;
  for (const v of Object.values(message)) if (Array.isArray(v)) Object.freeze(v);
  return Object.freeze(message);
}
