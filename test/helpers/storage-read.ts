/**
 * Test helper: the GAPIC `v1.BigQueryReadClient` of `@google-cloud/bigquery-storage` pointed at an
 * emulator's gRPC port without credentials (sslCreds insecure: google-gax then sends no auth), and
 * readers that decode a stream's Arrow batches with apache-arrow and its Avro rows with avsc.
 */
import * as grpc from '@grpc/grpc-js';
import { reader, v1 } from '@google-cloud/bigquery-storage';
import { tableFromIPC } from 'apache-arrow';
import avro from 'avsc';
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

/** A long type decoding to bigint (avsc's default long refuses values beyond 2^53). */
const BigLong = avro.types.LongType.__with({
  fromBuffer: (b: Buffer) => b.readBigInt64LE(),
  toBuffer: (n: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(n);
    return b;
  },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: (n: unknown) => typeof n === 'bigint',
  compare: (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0),
});

/**
 * Reads an AVRO session's `stream` from `offset` to its end, decoding each response's
 * `avroRows.serializedBinaryRows` with avsc as back-to-back records of the session's
 * `avroSchema.schema` (plain longs as bigint; logical-typed longs as numbers).
 */
export async function readAvroStream(client: ReadClient, schema: string, stream: string, offset = 0, headers?: Record<string, string>): Promise<StreamRead & { avroRowCounts: number[] }> {
  const type = avro.Type.forSchema(JSON.parse(schema), { registry: { long: BigLong } });
  const out: StreamRead & { avroRowCounts: number[] } = { rows: [], rowCounts: [], progress: [], avroRowCounts: [] };
  const call = client.readRows({ readStream: stream, offset }, headers ? { otherArgs: { headers } } : undefined);
  for await (const r of call) {
    const buf = Buffer.from(r.avroRows?.serializedBinaryRows as Uint8Array);
    for (let pos = 0; pos < buf.length; ) {
      const { value, offset: next } = type.decode(buf, pos);
      out.rows.push(value as Record<string, unknown>);
      pos = next;
    }
    out.rowCounts.push(Number(r.rowCount));
    out.avroRowCounts.push(Number(r.avroRows?.rowCount ?? 0));
    out.progress.push({ atResponseStart: Number(r.stats?.progress?.atResponseStart), atResponseEnd: Number(r.stats?.progress?.atResponseEnd) });
  }
  return out;
}

/** The gRPC error a storage client call raised: its status code and details (fails the test when the call succeeds). */
export async function grpcErrorOf(p: Promise<unknown>): Promise<{ code: number; details: string }> {
  try {
    await p;
  } catch (e) {
    return e as { code: number; details: string };
  }
  throw new Error('expected the call to fail');
}
