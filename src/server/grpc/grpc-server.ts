/**
 * The emulator's gRPC server: `google.cloud.bigquery.storage.v1.BigQueryRead` (the BigQuery
 * Storage Read API) and `BigQueryWrite` (the Storage Write API) on `host:grpcPort`, plaintext (clients connect with insecure credentials,
 * docs/ARCHITECTURE.md §7). Port 0 picks a free port.
 */
import * as grpc from '@grpc/grpc-js';
import { format } from 'node:util';
import type { Logger } from '../../config/logger.js';
import type { Engine } from '../../engine/engine.js';
import type { JobManager } from '../../jobs/jobs.js';
import { WriteStreams } from '../../engine/storage-write.js';
import { loadBigQueryReadService, loadBigQueryWriteService } from './protos.js';
import { ReadSessions } from './read-session.js';
import { bigQueryReadHandlers } from './read-service.js';
import { bigQueryWriteHandlers } from './write-service.js';

/** A running gRPC server. */
export interface GrpcServer {
  /** The bound port. */
  port: number;
  /** `host:port` for a client's servicePath/port or a channel target. */
  address: string;
  /** Stops accepting calls and ends the open ones. */
  close(): Promise<void>;
}

/**
 * Starts the Storage Read API on `host:port` (0: a free port).
 * @throws Error when the port cannot be bound.
 */
export async function startGrpcServer(opts: { host: string; port: number; engine: Engine; jobs: JobManager; log: Logger }): Promise<GrpcServer> {
  // grpc-js's own messages (e.g. "No address added" when the port is taken, answered by a free
  // port in server.ts) go through the emulator's logger instead of straight to standard error.
  grpc.setLogger({
    error: (...a: unknown[]) => opts.log.warn({ grpcJs: format(...a) }, 'grpc-js'),
    info: (...a: unknown[]) => opts.log.debug({ grpcJs: format(...a) }, 'grpc-js'),
    debug: (...a: unknown[]) => opts.log.debug({ grpcJs: format(...a) }, 'grpc-js'),
  });
  const server = new grpc.Server({ 'grpc.max_send_message_length': 128 * 1024 * 1024 });
  server.addService(loadBigQueryReadService(), bigQueryReadHandlers(new ReadSessions(opts.engine, opts.jobs), opts.log));
  server.addService(loadBigQueryWriteService(), bigQueryWriteHandlers(new WriteStreams(opts.engine), opts.log));
  const host = opts.host.includes(':') && !opts.host.startsWith('[') ? `[${opts.host}]` : opts.host;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${opts.port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  const close = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => server.forceShutdown(), 2000);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return { port, address: `${host}:${port}`, close };
}
