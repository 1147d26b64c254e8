/**
 * Google's published protos of the BigQuery Storage API (google.cloud.bigquery.storage.v1), loaded
 * from the files shipped inside `@google-cloud/bigquery-storage` (build/protos) with the
 * `google/api`, `google/rpc` and `google/protobuf` imports resolved from `google-gax`'s protos —
 * never hand-written copies.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
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

type StorageV1 = { BigQueryRead: grpc.ServiceClientConstructor; BigQueryWrite: grpc.ServiceClientConstructor };
const loaded = new Map<boolean, StorageV1>();

/**
 * Loads `google.cloud.bigquery.storage.v1` (storage.proto, once per `defaults`). Messages are plain
 * objects with camelCase field names (`readSession`), int64 as decimal strings, enums as their
 * names and oneofs named; `defaults` fills unset fields (what read-service.ts expects). The Write
 * API loads without defaults: a writer's `DescriptorProto` must keep proto2 presence (a filled-in
 * `oneofIndex: 0` would put every field into a oneof).
 * @throws Error when the protos cannot be found (a broken install).
 */
function loadStorageV1(defaults: boolean): StorageV1 {
  const known = loaded.get(defaults);
  if (known) return known;
  const storage = protosDir('@google-cloud/bigquery-storage');
  // annotations.proto: the `column_name` field option a writer's descriptor may carry (a column
  // whose name is no proto identifier), so that it is decoded into the field's options.
  const files = ['storage.proto', 'annotations.proto'].map((f) => path.join(storage, 'google/cloud/bigquery/storage/v1', f));
  const def = protoLoader.loadSync(files, {
    includeDirs: [storage, protosDir('google-gax', createRequire(path.join(storage, '..', '..', 'package.json')))],
    keepCase: false,
    longs: String,
    enums: String,
    defaults,
    oneofs: true,
  });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { google: { cloud: { bigquery: { storage: { v1: StorageV1 } } } } };
  const v1 = pkg.google.cloud.bigquery.storage.v1;
  loaded.set(defaults, v1);
  return v1;
}

/**
 * `google.cloud.bigquery.storage.v1.BigQueryRead`'s service definition (see loadStorageV1).
 * @throws Error when the protos cannot be found (a broken install).
 */
export function loadBigQueryReadService(): grpc.ServiceDefinition {
  return loadStorageV1(true).BigQueryRead.service;
}

/**
 * `google.cloud.bigquery.storage.v1.BigQueryWrite`'s service definition, messages without
 * defaults (see loadStorageV1): an unset field is absent.
 * @throws Error when the protos cannot be found (a broken install).
 */
export function loadBigQueryWriteService(): grpc.ServiceDefinition {
  return loadStorageV1(false).BigQueryWrite.service;
}

let storageErrorType: protobuf.Type | undefined;

/**
 * A `google.cloud.bigquery.storage.v1.StorageError` (storage.proto) encoded, from the client
 * library's own protos (build/protos/protos.json): the bytes of a `google.rpc.Status` detail and of
 * the `google.cloud.bigquery.storage.v1.storageerror-bin` trailer.
 */
export function encodeStorageError(e: { code: string; entity: string; errorMessage: string }): Buffer {
  if (!storageErrorType) {
    const json = JSON.parse(fs.readFileSync(path.join(protosDir('@google-cloud/bigquery-storage'), 'protos.json'), 'utf8')) as protobuf.INamespace;
    storageErrorType = protobuf.Root.fromJSON(json).lookupType('google.cloud.bigquery.storage.v1.StorageError');
  }
  return Buffer.from(storageErrorType.encode(storageErrorType.fromObject(e)).finish());
}
