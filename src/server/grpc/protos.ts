/**
 * Google's published protos of the BigQuery Storage API (google.cloud.bigquery.storage.v1), loaded
 * from the compiled descriptor shipped inside `@google-cloud/bigquery-storage`
 * (build/protos/protos.json) — never hand-written copies.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';

const require = createRequire(import.meta.url);

/**
 * The `build/protos` directory of a package, found above its main module (`from`: the module
 * resolving it, so a transitive dependency resolves as its dependent sees it).
 */
function protosDir(pkg: string, from: NodeRequire = require): string {
  for (let dir = path.dirname(from.resolve(pkg)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'build', 'protos');
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error(`${pkg}: build/protos not found`);
}

let storageJson: protobuf.INamespace | undefined;
let storageRoot: protobuf.Root | undefined;

/** The client library's compiled protos (build/protos/protos.json) as parsed JSON, read once. */
function storageProtosJson(): protobuf.INamespace {
  storageJson ??= JSON.parse(fs.readFileSync(path.join(protosDir('@google-cloud/bigquery-storage'), 'protos.json'), 'utf8')) as protobuf.INamespace;
  return storageJson;
}

/**
 * The client library's own compiled protos (build/protos/protos.json: storage.proto,
 * annotations.proto with the `column_name` field option a writer's descriptor may carry, and their
 * google/api, google/rpc and google/protobuf imports), as one protobufjs root, built at the first
 * message converted. Building it takes ~40 ms: the servers start without it (the service
 * definitions come from the JSON's method list), so a cold start's first REST answer does not
 * wait for it (bench/results/2026-11-27-cold-start.md). Parsing the .proto files with
 * @grpc/proto-loader took ~250 ms of every start (its package definition builds a file descriptor
 * for every type), twice since the Write API needs other options.
 */
function storageProtos(): protobuf.Root {
  storageRoot ??= protobuf.Root.fromJSON(storageProtosJson());
  return storageRoot;
}

/** The JSON of a service (`google.cloud.bigquery.storage.v1.BigQueryRead`) in protos.json. */
function serviceJson(fullName: string): protobuf.IService {
  let ns: protobuf.AnyNestedObject | undefined = storageProtosJson();
  for (const part of fullName.split('.')) ns = (ns as protobuf.INamespace | undefined)?.nested?.[part];
  if (!ns || !('methods' in ns)) throw new Error(`@google-cloud/bigquery-storage protos.json: no service ${fullName}`);
  return ns;
}

/**
 * A gRPC service definition of the service `fullName`, converting messages as
 * @grpc/proto-loader does (serialize = fromObject + encode, deserialize = decode + toObject with
 * `conversion`). Names and streaming of the methods come from the JSON; the message types are
 * resolved at a method's first message.
 */
function serviceDefinition(fullName: string, conversion: protobuf.IConversionOptions): grpc.ServiceDefinition {
  const def: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, m] of Object.entries(serviceJson(fullName).methods)) {
    let types: { req: protobuf.Type; res: protobuf.Type } | undefined;
    const resolved = () => {
      if (!types) {
        const method = storageProtos().lookupService(fullName).methods[name]!;
        method.resolve();
        types = { req: method.resolvedRequestType!, res: method.resolvedResponseType! };
      }
      return types;
    };
    def[name] = {
      path: `/${fullName}/${name}`,
      requestStream: !!m.requestStream,
      responseStream: !!m.responseStream,
      requestSerialize: (v: unknown) => Buffer.from(resolved().req.encode(resolved().req.fromObject(v as Record<string, unknown>)).finish()),
      requestDeserialize: (b: Buffer) => resolved().req.toObject(resolved().req.decode(b), conversion),
      responseSerialize: (v: unknown) => Buffer.from(resolved().res.encode(resolved().res.fromObject(v as Record<string, unknown>)).finish()),
      responseDeserialize: (b: Buffer) => resolved().res.toObject(resolved().res.decode(b), conversion),
      originalName: name.charAt(0).toLowerCase() + name.slice(1),
    };
  }
  return def as grpc.ServiceDefinition;
}

/**
 * `google.cloud.bigquery.storage.v1.BigQueryRead`'s service definition. Messages are plain objects
 * with camelCase field names (`readSession`), int64 as decimal strings, enums as their names,
 * defaults filled and oneofs named (what read-service.ts expects).
 * @throws Error when the protos cannot be found (a broken install).
 */
export function loadBigQueryReadService(): grpc.ServiceDefinition {
  return serviceDefinition('google.cloud.bigquery.storage.v1.BigQueryRead', { longs: String, enums: String, defaults: true, oneofs: true });
}

/**
 * `google.cloud.bigquery.storage.v1.BigQueryWrite`'s service definition, messages without
 * defaults: an unset field is absent (a writer's `DescriptorProto` must keep proto2 presence; a
 * filled-in `oneofIndex: 0` would put every field into a oneof).
 * @throws Error when the protos cannot be found (a broken install).
 */
export function loadBigQueryWriteService(): grpc.ServiceDefinition {
  const conversion = { longs: String, enums: String, defaults: false, oneofs: true };
  const def = serviceDefinition('google.cloud.bigquery.storage.v1.BigQueryWrite', conversion);
  let raw: protobuf.Type | undefined;
  // AppendRows requests keep `protoRows.rows` (a ProtoRows message) as its bytes, decoded by
  // src/server/grpc/append-rows.ts: the rows are read where they lie instead of as one buffer each.
  (def.AppendRows as { requestDeserialize: (b: Buffer) => unknown }).requestDeserialize = (b: Buffer) => (raw ??= appendRowsRequestWithRawRows()).toObject(raw.decode(b), conversion);
  return def;
}

/**
 * storage.proto's `AppendRowsRequest`, but for `ProtoData.rows` declared `bytes` (same field number,
 * same wire type: a length-delimited `ProtoRows`), so decoding leaves the rows' bytes whole.
 */
function appendRowsRequestWithRawRows(): protobuf.Type {
  const base = storageProtos().lookupType('google.cloud.bigquery.storage.v1.AppendRowsRequest');
  const ns = base.parent as protobuf.Namespace;
  const name = 'AppendRowsRequestWithRawRows';
  const existing = ns.get(name);
  if (existing) return existing as protobuf.Type;
  const variant = protobuf.Type.fromJSON(name, base.toJSON() as protobuf.IType);
  const protoData = variant.get('ProtoData') as protobuf.Type;
  const rows = protoData.get('rows') as protobuf.Field;
  protoData.remove(rows);
  protoData.add(new protobuf.Field('rows', rows.id, 'bytes'));
  ns.add(variant);
  variant.resolveAll();
  return variant;
}

let protoRowsType: protobuf.Type | undefined;

/** The `serialized_rows` of a serialized storage.proto `ProtoRows` message (one buffer per row). */
export function serializedRowsOf(protoRows: Uint8Array): Uint8Array[] {
  protoRowsType ??= storageProtos().lookupType('google.cloud.bigquery.storage.v1.ProtoRows');
  return (protoRowsType.decode(protoRows) as unknown as { serializedRows: Uint8Array[] }).serializedRows;
}

let storageErrorType: protobuf.Type | undefined;

/**
 * A `google.cloud.bigquery.storage.v1.StorageError` (storage.proto) encoded, from the client
 * library's own protos (build/protos/protos.json): the bytes of a `google.rpc.Status` detail and of
 * the `google.cloud.bigquery.storage.v1.storageerror-bin` trailer.
 */
export function encodeStorageError(e: { code: string; entity: string; errorMessage: string }): Buffer {
  if (!storageErrorType) {
    storageErrorType = storageProtos().lookupType('google.cloud.bigquery.storage.v1.StorageError');
  }
  return Buffer.from(storageErrorType.encode(storageErrorType.fromObject(e)).finish());
}
