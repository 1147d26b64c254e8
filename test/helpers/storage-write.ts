/**
 * Test helper: the managed writer of `@google-cloud/bigquery-storage` (`managedwriter.WriterClient`,
 * `JSONWriter`) and its GAPIC `v1.BigQueryWriteClient`, pointed at an emulator's gRPC port without
 * credentials (sslCreds insecure, a pass-through auth client), with the writer's descriptor built
 * by the client's own `adapt` helpers from the table's REST schema.
 */
import * as grpc from '@grpc/grpc-js';
import { adapt, managedwriter, v1 } from '@google-cloud/bigquery-storage';
import type { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { startTestEmulator, type TestEmulator } from './emulator.js';

export type WriterClient = InstanceType<typeof managedwriter.WriterClient>;
export type JSONWriter = InstanceType<typeof managedwriter.JSONWriter>;
export type WriteClient = InstanceType<typeof v1.BigQueryWriteClient>;

/** Connection options of a client on `grpcPort` of 127.0.0.1, plaintext, no credentials. */
export function insecureOptions(grpcPort: number, projectId = 'test-project') {
  return { servicePath: '127.0.0.1', port: grpcPort, sslCreds: grpc.credentials.createInsecure(), projectId, authClient: new PassThroughClient() as never };
}

/** A managed WriterClient on the emulator's gRPC port. */
export function writerClient(grpcPort: number, projectId = 'test-project'): WriterClient {
  return new managedwriter.WriterClient(insecureOptions(grpcPort, projectId));
}

/** The GAPIC BigQueryWriteClient on the emulator's gRPC port. */
export function writeClient(grpcPort: number, projectId = 'test-project'): WriteClient {
  return new v1.BigQueryWriteClient(insecureOptions(grpcPort, projectId));
}

/** An in-process emulator with a dataset and both write clients on its gRPC port. */
export interface WriteEmulator {
  t: TestEmulator;
  client: WriterClient;
  gapic: WriteClient;
}

/** Starts an emulator (free ports), creates `dataset`, and opens a WriterClient and a BigQueryWriteClient on it. */
export async function startWriteEmulator(dataset: string, projectId = 'test-project'): Promise<WriteEmulator> {
  const t = await startTestEmulator({ grpcPort: 0 });
  await t.bq.createDataset(dataset);
  return { t, client: writerClient(t.emu.grpcPort, projectId), gapic: writeClient(t.emu.grpcPort, projectId) };
}

/** Closes what {@link startWriteEmulator} opened (any part may be missing when the start failed). */
export async function stopWriteEmulator(w: Partial<WriteEmulator>): Promise<void> {
  w.client?.close();
  await w.gapic?.close();
  await w.t?.emu.close();
}

/** `projects/P/datasets/D/tables/T`. */
export const tableName = (p: string, d: string, t: string) => `projects/${p}/datasets/${d}/tables/${t}`;

/**
 * The proto2 descriptor the managed writer sends for `dataset.table`, from its REST schema through
 * `adapt.convertBigQuerySchemaToStorageTableSchema` and `adapt.convertStorageSchemaToProto2Descriptor`
 * (the conversion the client library documents for JSONWriter).
 */
export async function descriptorOf(bq: BigQuery, dataset: string, table: string) {
  const [meta] = await bq.dataset(dataset).table(table).getMetadata();
  const storageSchema = adapt.convertBigQuerySchemaToStorageTableSchema(meta.schema);
  return adapt.convertStorageSchemaToProto2Descriptor(storageSchema, 'root');
}

/**
 * A JSONWriter on a new connection to `streamId` (a created stream's name, or
 * `managedwriter.DefaultStream` with `destinationTable`).
 */
export async function jsonWriter(client: WriterClient, bq: BigQuery, opts: { projectId: string; dataset: string; table: string; streamId?: string }): Promise<JSONWriter> {
  const destinationTable = tableName(opts.projectId, opts.dataset, opts.table);
  const connection = await client.createStreamConnection({ streamId: opts.streamId ?? managedwriter.DefaultStream, destinationTable });
  return new managedwriter.JSONWriter({ connection, protoDescriptor: await descriptorOf(bq, opts.dataset, opts.table) });
}

/**
 * Appends an Arrow IPC stream (`tableToIPC(table, 'stream')`: schema message, record batch,
 * end-of-stream marker) to `writeStream` through raw `AppendRows` — schema and batch as the
 * request's `arrowRows` — and resolves with every response once the server ends the call.
 */
export async function appendArrowIpc(gapic: WriteClient, writeStream: string, ipc: Uint8Array): Promise<Record<string, unknown>[]> {
  const schemaEnd = 8 + new DataView(ipc.buffer, ipc.byteOffset).getInt32(4, true);
  return appendArrowRows(gapic, writeStream, ipc.slice(0, schemaEnd), ipc.slice(schemaEnd, ipc.length - 8));
}

/**
 * Writes every request on one raw `AppendRows` call at once, then half-closes it; resolves with
 * every response once the server ends the call.
 */
export async function appendRequests(gapic: WriteClient, requests: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const call = gapic.appendRows();
  const responses: Record<string, unknown>[] = [];
  const done = new Promise<void>((resolve, reject) => {
    call.on('data', (m: Record<string, unknown>) => responses.push(m));
    call.on('error', reject);
    call.on('end', resolve);
  });
  for (const r of requests) call.write(r);
  call.end();
  await done;
  return responses;
}

/**
 * Appends one Arrow record batch to `writeStream` through raw `AppendRows` (schema and batch as the
 * request's `arrowRows`, each an encapsulated IPC message) and resolves with every response once
 * the server ends the call.
 */
export function appendArrowRows(gapic: WriteClient, writeStream: string, serializedSchema: Uint8Array, serializedRecordBatch: Uint8Array): Promise<Record<string, unknown>[]> {
  return appendRequests(gapic, [{ writeStream, arrowRows: { writerSchema: { serializedSchema }, rows: { serializedRecordBatch } } }]);
}
