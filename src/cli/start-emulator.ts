/**
 * The npm package's entry (`import { startEmulator } from 'bqemu'`, package.json `exports`): an
 * emulator started in the calling process, for test runners' global setup hooks. Every option of
 * `bqemu serve` is an option here (the knob table of src/config/config.ts, by its config key), with
 * one difference of default: the REST and gRPC ports are free ones (0) unless given, so several test
 * runs can share a machine.
 */
import { startEmulator as startServer, type EmulatorOptions } from '../server/server.js';
import type { EmulatorConfig, LogLevel } from '../config/config.js';
import { createServiceAccountKey, type ServiceAccountKey } from '../server/service-account.js';
import { provideCloudStorage } from '../engine/storage-uris.js';
import { openCloudStorage } from '../engine/cloud-storage-client.js';

// An embedded emulator may name a Cloud Storage service (`storageEmulatorHost`): the client is
// handed in here, where start-up time is the test runner's, not a cold start's.
provideCloudStorage(openCloudStorage);

export type { EmulatorConfig, LogLevel, ServiceAccountKey };

/**
 * Options of `startEmulator`: any `bqemu serve` knob (`port`, `grpcPort`, `projectId`, `dataset`,
 * `dataDir`, `logLevel`, `requireAuth`, `dataFromYaml`…; see EmulatorConfig) plus `quiet` (log only
 * errors, the default) and `logStream` (where the JSON log goes).
 */
export type StartEmulatorOptions = Omit<EmulatorOptions, 'logger' | 'resultLimits'>;

/** A running emulator. */
export interface RunningEmulator {
  /** Base URL of BigQuery REST v2, e.g. `http://127.0.0.1:41235` (the client's `apiEndpoint`). */
  restUrl: string;
  /** URL of the Storage Read and Write APIs (plaintext gRPC), e.g. `http://127.0.0.1:41236`. */
  grpcUrl: string;
  /** Host of the gRPC APIs (the storage clients' `servicePath`). */
  grpcHost: string;
  /** Port of the gRPC APIs. */
  grpcPort: number;
  /** The default project. */
  projectId: string;
  /** The resolved configuration. */
  config: EmulatorConfig;
  /**
   * A new service-account key file's content whose `token_uri` is this emulator (as `bqemu
   * credentials`): write it to a file for `GoogleAuth({ keyFile })` / GOOGLE_APPLICATION_CREDENTIALS,
   * or pass it as `credentials`. Requests with its tokens run as `serviceAccount:<clientEmail>`.
   * @param clientEmail default `bqemu@<projectId>.iam.gserviceaccount.com`.
   */
  credentials(clientEmail?: string): Promise<ServiceAccountKey>;
  /** Stops the servers, the analyzer processes and DuckDB; resolves when the ports are closed. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts an emulator in this process and resolves once it answers on both ports.
 * @param options `bqemu serve` knobs by config key; `port` and `grpcPort` default to 0 (free ports).
 * @throws ConfigError (src/config/config.ts) for an unusable option or environment value; an Error
 *   when a named port is taken or the analyzer cannot start.
 */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  // With a free REST port the server takes a free gRPC port too unless one is named.
  const emu = await startServer({ ...options, port: options.port ?? 0 });
  const grpcHost = emu.config.host;
  let stopped: Promise<void> | undefined;
  return {
    restUrl: emu.url,
    grpcUrl: `http://${grpcHost.includes(':') ? `[${grpcHost}]` : grpcHost}:${emu.grpcPort}`,
    grpcHost,
    grpcPort: emu.grpcPort,
    projectId: emu.projectId,
    config: emu.config,
    credentials: (clientEmail) => createServiceAccountKey({ endpoint: emu.url, projectId: emu.projectId, clientEmail }),
    stop: () => (stopped ??= emu.close()),
  };
}
