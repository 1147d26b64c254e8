/**
 * Test helper: the GAPIC `v1.BigQueryReadClient` of `@google-cloud/bigquery-storage` pointed at an
 * emulator's gRPC port without credentials (sslCreds insecure: google-gax then sends no auth), and
 * a reader that decodes a stream's Arrow batches with apache-arrow.
 */
import * as grpc from '@grpc/grpc-js';
import { reader, v1 } from '@google-cloud/bigquery-storage';
import { tableFromIPC } from 'apache-arrow';
import { PassThroughClient } from 'google-auth-library';
import type { Emulator } from '../../src/server/server.js';

export type ReadClient = InstanceType<typeof v1.BigQueryReadClient>;

/** A BigQueryReadClient on `emu`'s gRPC port, plaintext, no credentials. */
export function readClient(emu: Emulator): ReadClient {
  return new v1.BigQueryReadClient({ servicePath: '127.0.0.1', port: emu.grpcPort, sslCreds: grpc.credentials.createInsecure(), projectId: emu.projectId, authClient: new PassThroughClient() as never });
}

/** The high-level `reader.ReadClient` (table readers) on `emu`'s gRPC port, plaintext, no credentials. */
export function tableReaderClient(emu: Emulator): InstanceType<typeof reader.ReadClient> {
  return new reader.ReadClient({ servicePath: '127.0.0.1', port: emu.grpcPort, sslCreds: grpc.credentials.createInsecure(), projectId: emu.projectId, authClient: new PassThroughClient() as never });
}

/** What one ReadRows call returned: the rows (as plain objects) and each response's row count. */
export interface StreamRead {
  rows: Record<string, unknown>[];
  rowCounts: number[];
  progress: { atResponseStart: number; atResponseEnd: number }[];
}

/**
 * Reads `stream` from `offset` to its end, decoding each Arrow record batch with the session's
 * serialized schema. `headers` go out as gRPC metadata (the caller identity).
 */
export async function readStream(client: ReadClient, schema: Uint8Array, stream: string, offset = 0, headers?: Record<string, string>): Promise<StreamRead> {
  const out: StreamRead = { rows: [], rowCounts: [], progress: [] };
  const call = client.readRows({ readStream: stream, offset }, headers ? { otherArgs: { headers } } : undefined);
  for await (const r of call) {
    const batch = r.arrowRecordBatch?.serializedRecordBatch as Uint8Array;
    const bytes = new Uint8Array(schema.length + batch.length);
    bytes.set(schema);
    bytes.set(batch, schema.length);
    out.rows.push(...tableFromIPC(bytes).toArray().map((x) => x.toJSON() as Record<string, unknown>));
    out.rowCounts.push(Number(r.rowCount));
    out.progress.push({ atResponseStart: Number(r.stats?.progress?.atResponseStart), atResponseEnd: Number(r.stats?.progress?.atResponseEnd) });
  }
  return out;
}
