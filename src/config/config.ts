/**
 * The emulator's configuration: one typed object (`EmulatorConfig`) resolved once from command-line
 * flags, `BQEMU_*` environment variables and defaults, then passed down (server → jobs → engine →
 * analyzer). `KNOBS` is the single list of every knob — its flag, environment variable, default and
 * meaning; the CLI (src/cli/main.ts) builds its `serve` options from it and the README's table
 * lists it. Precedence: an explicit option (flag, or `startEmulator` argument) wins over the
 * environment, which wins over the default.
 *
 * The only reader of `process.env` for the emulator's knobs, with one exception: when the
 * configuration gives no JavaScript UDF limits, src/config/limits.ts reads BQEMU_JS_UDF_TIMEOUT_MS /
 * BQEMU_JS_UDF_MEMORY_MB at each use, so a test in the same process can change them between
 * queries (test/js-udf-sandbox.test.ts). The conformance recorder reads its own
 * `BQEMU_CONFORMANCE_*` identities (src/conformance/recorder.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_MAX_RESPONSE_BYTES } from './limits.js';
import { DEFAULT_MAX_RUNNING_JOBS, DEFAULT_SESSION_IDLE_MS, DEFAULT_STREAMING_BUFFER_SECONDS } from './timeouts.js';

/** Levels of the structured logger (pino's), lowest first; `silent` logs nothing. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** Formats of the log (`--log-format`). */
export const LOG_FORMATS = ['json', 'console'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The resolved configuration of one emulator. */
export interface EmulatorConfig {
  /** Address the REST server listens on. */
  host: string;
  /** REST port; 0 picks a free one. */
  port: number;
  /** gRPC port (Storage Read and Write APIs). */
  grpcPort: number;
  /** Default project id. */
  projectId: string;
  /** Dataset(s) created at start in the default project (`--dataset` may be repeated). */
  dataset?: string | string[];
  /** Directory (DuckDB file) everything persists in; in memory when absent. */
  dataDir?: string;
  /** Log every HTTP request (fastify's request log, at info). */
  logRequests: boolean;
  /** Level of the structured log. */
  logLevel: LogLevel;
  /** Directories load jobs and external tables may read `file://` / absolute-path sources from. */
  allowLocalFiles: string[];
  /** Extra host names accepted in the `Host` header; `*` allows any. */
  allowedHosts: string[];
  /** Browser origins allowed to call the API (CORS). */
  corsOrigins: string[];
  /** DuckDB's memory limit (e.g. `4GB`); half the machine's RAM when absent. */
  memoryLimit?: string;
  /** Where DuckDB spills; `<dataDir>/spill` or a private OS temp directory when absent. */
  tempDirectory?: string;
  /** Largest decoded result of one query, bytes. */
  maxResponseBytes: number;
  /** Local directory standing in for Cloud Storage (`gs://bucket/object` = `<gcsDir>/bucket/object`). */
  gcsDir: string;
  /**
   * A Cloud Storage service (emulator) every `gs://` URI goes to instead of `gcsDir`, as
   * `STORAGE_EMULATOR_HOST` names it for the official clients (`http://127.0.0.1:4443`; without a
   * scheme, https).
   */
  storageEmulatorHost?: string;
  /** Time limit of one batch of JavaScript UDF calls, ms; when absent, BQEMU_JS_UDF_TIMEOUT_MS at each call, else 5000. */
  jsUdfTimeoutMs?: number;
  /** Heap of one JavaScript UDF worker, MB; when absent, BQEMU_JS_UDF_MEMORY_MB when a worker starts, else 128. */
  jsUdfMemoryMb?: number;
  /** Query jobs running at once; later ones stay PENDING. */
  maxRunningJobs: number;
  /** Idle lifetime of a session, ms. */
  sessionIdleMs: number;
  /** goccy/bigquery-emulator's seed file (projects → datasets → tables with columns and data), loaded at start (src/server/seed-data.ts). */
  dataFromYaml?: string;
  /** goccy/bigquery-emulator's `--database`: taken as `dataDir` (a directory) when no `dataDir` is given. */
  database?: string;
  /** Format of the log: `json` (one JSON object per line) or `console` (one readable line per entry). */
  logFormat: LogFormat;
  /** Refuse API requests without a bqemu-issued bearer token (401, src/server/rest/require-auth.ts). */
  requireAuth: boolean;
  /** How long rows written by tabledata.insertAll stay in the table's streaming buffer, seconds; 0 = no buffer. */
  streamingBufferSeconds: number;
}

/** A configuration value that cannot be used: the CLI prints the message and exits with status 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Parse<T> = (text: string, source: string) => T;

/** One knob: its config key, `serve` flag, environment variable, default (as shown in help) and meaning. */
export interface Knob<K extends keyof EmulatorConfig = keyof EmulatorConfig> {
  key: K;
  /** The `serve` flag, e.g. `--port <port>` (a boolean flag has no argument). */
  flag: string;
  /** Environment variable read when the flag is absent. */
  env: string;
  /** Default as shown to a user (help text, README). */
  defaultText: string;
  help: string;
  /** Parses one flag or environment text; `source` names it in the error. */
  parse: Parse<EmulatorConfig[K]>;
  /**
   * A variable the official Google Cloud clients read for the same setting, used when `env` is
   * absent (`STORAGE_EMULATOR_HOST`, read by `@google-cloud/storage` and the other Cloud Storage clients).
   */
  clientEnv?: string;
  /** Also read from the environment by an embedded emulator (`startEmulator`), not only by `bqemu serve`. */
  embedded?: boolean;
  /** A repeatable flag: each use adds one value. */
  repeatable?: boolean;
  /** The flag's values are added to the environment's (instead of replacing them). */
  combine?: boolean;
}

const integer =
  (min: number, max = Number.MAX_SAFE_INTEGER): Parse<number> =>
  (text, source) => {
    const n = Number(text.trim());
    if (!text.trim() || !Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${source}: expected an integer from ${min} to ${max}, got "${text}"`);
    return n;
  };
const positive: Parse<number> = (text, source) => {
  const n = Number(text.trim());
  if (!text.trim() || !Number.isFinite(n) || n <= 0) throw new ConfigError(`${source}: expected a positive number, got "${text}"`);
  return n;
};
const nonNegative: Parse<number> = (text, source) => {
  const n = Number(text.trim());
  if (!text.trim() || !Number.isFinite(n) || n < 0) throw new ConfigError(`${source}: expected a number of 0 or more, got "${text}"`);
  return n;
};
const str: Parse<string> = (text, source) => {
  if (!text.trim()) throw new ConfigError(`${source}: expected a value, got an empty text`);
  return text;
};
const list =
  (sep: string): Parse<string[]> =>
  (text) =>
    text.split(sep).map((x) => x.trim()).filter(Boolean);
const level: Parse<LogLevel> = (text, source) => {
  const l = text.trim().toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(l)) throw new ConfigError(`${source}: expected one of ${LOG_LEVELS.join(', ')}, got "${text}"`);
  return l;
};
const format: Parse<LogFormat> = (text, source) => {
  const f = text.trim().toLowerCase() as LogFormat;
  if (!LOG_FORMATS.includes(f)) throw new ConfigError(`${source}: expected one of ${LOG_FORMATS.join(', ')}, got "${text}"`);
  return f;
};
const bool: Parse<boolean> = (text, source) => {
  if (/^(1|true|yes|on)$/i.test(text.trim())) return true;
  if (/^(0|false|no|off|)$/i.test(text.trim())) return false;
  throw new ConfigError(`${source}: expected 1 or 0, got "${text}"`);
};

const knob = <K extends keyof EmulatorConfig>(k: Knob<K>): Knob<K> => k;

/** Every knob of `bqemu serve`, in help order. */
export const KNOBS = [
  knob({ key: 'host', flag: '--host <host>', env: 'BQEMU_HOST', defaultText: '127.0.0.1', help: 'address to listen on', parse: str }),
  knob({ key: 'port', flag: '--port <port>', env: 'BQEMU_PORT', defaultText: '9050', help: 'REST port (0 picks a free one)', parse: integer(0, 65535) }),
  knob({ key: 'grpcPort', flag: '--grpc-port <port>', env: 'BQEMU_GRPC_PORT', defaultText: '9060', help: 'gRPC storage API port', parse: integer(0, 65535) }),
  knob({ key: 'projectId', flag: '--project <id>', env: 'BQEMU_PROJECT', defaultText: 'test-project', help: 'default project id', parse: str }),
  knob({ key: 'dataset', flag: '--dataset <id>', env: 'BQEMU_DATASET', defaultText: '(none)', help: 'dataset created at start in the default project (repeatable)', parse: str, repeatable: true }),
  knob({ key: 'dataDir', flag: '--data-dir <dir>', env: 'BQEMU_DATA_DIR', defaultText: '(in memory)', help: 'persist everything in this directory', parse: str }),
  knob({ key: 'logRequests', flag: '--log', env: 'BQEMU_LOG', defaultText: 'off', help: 'log every HTTP request, at info (environment: 1 or 0)', parse: bool }),
  knob({ key: 'logLevel', flag: '--log-level <level>', env: 'BQEMU_LOG_LEVEL', defaultText: 'info', help: `structured (JSON) log level: ${LOG_LEVELS.join('|')}`, parse: level, embedded: true }),
  knob({
    key: 'allowLocalFiles',
    flag: '--allow-local-files <dir>',
    env: 'BQEMU_ALLOW_LOCAL_FILES',
    defaultText: '(none)',
    help: `let load jobs and external tables read file:// and absolute-path sources under this directory; repeatable (environment: directories separated by '${path.delimiter}')`,
    parse: list(path.delimiter),
    repeatable: true,
  }),
  knob({ key: 'allowedHosts', flag: '--allowed-host <name>', env: 'BQEMU_ALLOWED_HOST', defaultText: '(none)', help: 'also accept requests whose Host header names this host (repeatable; * = any; environment: comma-separated, added to the flags)', parse: list(','), repeatable: true, combine: true }),
  knob({ key: 'corsOrigins', flag: '--cors-origin <origin>', env: 'BQEMU_CORS_ORIGIN', defaultText: '(none)', help: 'allow browser pages of this origin (e.g. http://localhost:3000) to call the API, with CORS (repeatable; environment: comma-separated, added to the flags)', parse: list(','), repeatable: true, combine: true }),
  knob({ key: 'memoryLimit', flag: '--memory-limit <size>', env: 'BQEMU_MEMORY_LIMIT', defaultText: "half the machine's RAM", help: "DuckDB's memory limit, e.g. 4GB (DuckDB checks the text when it opens)", parse: str }),
  knob({ key: 'tempDirectory', flag: '--temp-dir <dir>', env: 'BQEMU_TEMP_DIR', defaultText: '<data-dir>/spill or a private OS temp directory', help: 'where DuckDB spills large queries', parse: str }),
  knob({
    key: 'maxResponseBytes',
    flag: '--max-response-mb <n>',
    env: 'BQEMU_MAX_RESPONSE_MB',
    defaultText: String(DEFAULT_MAX_RESPONSE_BYTES / 1024 / 1024),
    help: 'largest result one query returns before "Response too large to return.", MB',
    parse: (t, s) => Math.round(positive(t, s) * 1024 * 1024),
  }),
  knob({ key: 'gcsDir', flag: '--gcs-dir <dir>', env: 'BQEMU_GCS_DIR', defaultText: '$TMPDIR/bqemu-gcs', help: 'local directory standing in for Cloud Storage (gs://bucket/object = <dir>/bucket/object)', parse: (t, s) => path.resolve(str(t, s)), embedded: true }),
  knob({
    key: 'storageEmulatorHost',
    flag: '--storage-emulator-host <url>',
    env: 'BQEMU_STORAGE_EMULATOR_HOST',
    clientEnv: 'STORAGE_EMULATOR_HOST',
    defaultText: '(none: the --gcs-dir folder)',
    help: 'Cloud Storage emulator (JSON API) that gs:// URIs of load and extract jobs, EXPORT DATA and external tables go to, e.g. http://127.0.0.1:4443; also read from STORAGE_EMULATOR_HOST, the variable the Cloud Storage clients read',
    parse: str,
    embedded: true,
  }),
  knob({ key: 'jsUdfTimeoutMs', flag: '--js-udf-timeout-ms <ms>', env: 'BQEMU_JS_UDF_TIMEOUT_MS', defaultText: '5000', help: 'time limit of one batch of JavaScript UDF calls, ms', parse: integer(1) }),
  knob({ key: 'jsUdfMemoryMb', flag: '--js-udf-memory-mb <mb>', env: 'BQEMU_JS_UDF_MEMORY_MB', defaultText: '128', help: 'heap of one JavaScript UDF worker, MB (at least 32)', parse: integer(1) }),
  knob({ key: 'maxRunningJobs', flag: '--max-running-jobs <n>', env: 'BQEMU_MAX_RUNNING_JOBS', defaultText: String(DEFAULT_MAX_RUNNING_JOBS), help: 'query jobs running at once; later ones stay PENDING', parse: integer(1) }),
  knob({
    key: 'streamingBufferSeconds',
    flag: '--streaming-buffer-seconds <n>',
    env: 'BQEMU_STREAMING_BUFFER_SECONDS',
    defaultText: String(DEFAULT_STREAMING_BUFFER_SECONDS),
    help:
      'how long rows written by tabledata.insertAll stay in the streaming buffer (left out of numRows, copy and extract; UPDATE/DELETE/MERGE/TRUNCATE of them refused), seconds; 0 = no buffer. Default: the 30 minutes BigQuery\'s DML limitations call "recent" (BigQuery flushes after minutes, up to 90)',
    parse: nonNegative,
  }),
  knob({ key: 'logFormat', flag: '--log-format <format>', env: 'BQEMU_LOG_FORMAT', defaultText: 'json', help: `log format: ${LOG_FORMATS.join('|')}`, parse: format, embedded: true }),
  knob({ key: 'dataFromYaml', flag: '--data-from-yaml <file>', env: 'BQEMU_DATA_FROM_YAML', defaultText: '(none)', help: "load a goccy/bigquery-emulator seed file at start (projects → datasets → tables with columns and data)", parse: str }),
  knob({ key: 'database', flag: '--database <dir>', env: 'BQEMU_DATABASE', defaultText: '(in memory)', help: "goccy/bigquery-emulator's name for --data-dir (a directory here, not a SQLite file)", parse: str }),
  knob({ key: 'requireAuth', flag: '--require-auth', env: 'BQEMU_REQUIRE_AUTH', defaultText: 'off', help: 'refuse requests without a token bqemu issued (keys from `bqemu credentials`) with 401 (environment: 1 or 0)', parse: bool }),
] as const satisfies readonly Knob[];

/**
 * The default port of the gRPC Storage Read API. When it is taken, the emulator serves gRPC on a
 * free port instead and logs a warning (src/server/server.ts); a port given explicitly other than
 * this one must be free.
 */
export const DEFAULT_GRPC_PORT = 9060;

/** Defaults of every knob that has one. */
function defaults(): Omit<EmulatorConfig, 'dataset' | 'dataDir' | 'memoryLimit' | 'tempDirectory' | 'jsUdfTimeoutMs' | 'jsUdfMemoryMb' | 'storageEmulatorHost'> {
  return {
    host: '127.0.0.1',
    port: 9050,
    grpcPort: DEFAULT_GRPC_PORT,
    projectId: 'test-project',
    logRequests: false,
    requireAuth: false,
    logFormat: 'json',
    logLevel: 'info',
    allowLocalFiles: [],
    allowedHosts: [],
    corsOrigins: [],
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
    gcsDir: path.resolve(os.tmpdir(), 'bqemu-gcs'),
    maxRunningJobs: DEFAULT_MAX_RUNNING_JOBS,
    sessionIdleMs: DEFAULT_SESSION_IDLE_MS,
    streamingBufferSeconds: DEFAULT_STREAMING_BUFFER_SECONDS,
  };
}

export interface ResolveOptions {
  /** The environment (default `process.env`). */
  env?: Record<string, string | undefined>;
  /**
   * Read every knob's environment variable (`bqemu serve`); otherwise (an embedded emulator) only
   * those marked `embedded`, so a `BQEMU_PORT` in a test runner's environment changes nothing.
   */
  allEnv?: boolean;
  /** Default log level when neither option nor environment gives one (`info` for serve). */
  defaultLogLevel?: LogLevel;
}

/**
 * Resolves the configuration: `given` (flags already parsed, or `startEmulator` options) wins, then
 * the environment, then the defaults. An empty environment variable counts as absent.
 * @throws ConfigError naming the variable when an environment value cannot be parsed.
 */
export function resolveConfig(given: Partial<EmulatorConfig> = {}, opts: ResolveOptions = {}): EmulatorConfig {
  const env = opts.env ?? process.env;
  const out: Record<string, unknown> = { ...defaults(), logLevel: opts.defaultLogLevel ?? 'info' };
  for (const k of KNOBS as readonly Knob[]) {
    const name = !env[k.env] && k.clientEnv && env[k.clientEnv] ? k.clientEnv : k.env;
    const text = env[name];
    if (text !== undefined && text !== '' && (opts.allEnv || k.embedded)) out[k.key] = k.parse(text, name);
  }
  for (const [key, v] of Object.entries(given)) {
    if (v === undefined) continue;
    const k = (KNOBS as readonly Knob[]).find((x) => x.key === key);
    out[key] = k?.combine && opts.allEnv && Array.isArray(out[key]) ? [...(out[key] as unknown[]), ...(v as unknown[])] : v;
  }
  if (out.database !== undefined && out.dataDir === undefined) {
    if (fs.existsSync(out.database as string) && !fs.statSync(out.database as string).isDirectory())
      throw new ConfigError(`--database: ${String(out.database)} is a file (a goccy/bigquery-emulator SQLite database?); bqemu keeps its data in a directory: give a directory path`);
    out.dataDir = out.database;
  }
  return out as unknown as EmulatorConfig;
}

/**
 * Parses the `serve` flags commander collected (strings, or string arrays for repeatable flags) into
 * config values; absent flags stay absent.
 * @throws ConfigError naming the flag when a value cannot be parsed.
 */
export function parseFlags(raw: Record<string, unknown>): Partial<EmulatorConfig> {
  const out: Record<string, unknown> = {};
  for (const k of KNOBS as readonly Knob[]) {
    const name = k.flag.split(' ')[0]!;
    const opt = name.slice(2).replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
    const v = raw[opt];
    if (v === undefined) continue;
    if (typeof v === 'boolean') out[k.key] = v;
    else if (Array.isArray(v)) out[k.key] = v.map((x) => str(String(x), name));
    else out[k.key] = k.parse(String(v), name);
  }
  return out as Partial<EmulatorConfig>;
}
