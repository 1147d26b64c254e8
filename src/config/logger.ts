/**
 * The emulator's one structured logger (pino: one JSON object per line), created once from the
 * configuration and passed down; each component logs through a child logger carrying
 * `{component: 'server' | 'jobs' | 'engine' | 'analyzer'}`. Fastify's request log uses the same
 * instance (src/server/server.ts), so nothing is logged twice.
 *
 * Levels (https://getpino.io/#/docs/api?id=level-string): `trace` < `debug` < `info` < `warn` <
 * `error` < `fatal`; `silent` logs nothing. What is logged at which level:
 * - info: the server listening (ports), the analyzer child spawned; warn: the analyzer child exited
 *   unexpectedly or was replaced, its stderr lines; error: a request that became a 5xx;
 * - debug: each job's start and end (job id, statement type, duration_ms), DuckDB and analyzer
 *   failures mapped to BigQuery errors (with the original text), errors ignored on purpose.
 */
import { pino, type Logger, type DestinationStream } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger };

/**
 * A logger at `level` writing to `stream` (default: standard output).
 * @param level one of LOG_LEVELS (src/config/config.ts).
 */
export function createLogger(level: LogLevel, stream?: NodeJS.WritableStream): Logger {
  return pino({ level, base: { pid: process.pid } }, (stream ?? process.stdout) as DestinationStream);
}

/** A logger that logs nothing: the default of a component built without one (unit tests, tools). */
export const silentLogger: Logger = pino({ level: 'silent' });

/**
 * The rejection handler of an error ignored on purpose: logs it at `level` (default debug) with
 * `why` ignoring it is safe, so no error disappears without a trace.
 */
export function logIgnored(log: Logger | undefined, why: string, level: 'debug' | 'warn' = 'debug'): (err: unknown) => void {
  return (err) => (log ?? silentLogger)[level]({ err }, `ignored: ${why}`);
}

/** The child logger of one component (`{component}` on every line). */
export function componentLogger(log: Logger | undefined, component: string): Logger {
  return (log ?? silentLogger).child({ component });
}
