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

/**
 * Loads `google.cloud.bigquery.storage.v1.BigQueryRead`'s service definition. Messages are plain
 * objects with camelCase field names (`readSession`), int64 as decimal strings, enums as their
 * names, defaults filled and oneofs named (what the handlers of read-service.ts expect).
 * @throws Error when the protos cannot be found (a broken install).
 */
export function loadBigQueryReadService(): grpc.ServiceDefinition {
  const storage = protosDir('@google-cloud/bigquery-storage');
  const def = protoLoader.loadSync(path.join(storage, 'google/cloud/bigquery/storage/v1/storage.proto'), {
    includeDirs: [storage, protosDir('google-gax', createRequire(path.join(storage, '..', '..', 'package.json')))],
    keepCase: false,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const pkg = grpc.loadPackageDefinition(def) as unknown as {
    google: { cloud: { bigquery: { storage: { v1: { BigQueryRead: grpc.ServiceClientConstructor } } } } };
  };
  return pkg.google.cloud.bigquery.storage.v1.BigQueryRead.service;
}
