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
import { Transform } from 'node:stream';
import type { LogFormat, LogLevel } from './config.js';

export type { Logger };

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/**
 * The `console` log format: each JSON entry as one readable line,
 * `[bqemu] <ISO time> <LEVEL> <component>: <msg> key=value …` (the other fields as JSON values).
 */
function consoleLines(out: NodeJS.WritableStream): Transform {
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      const lines: string[] = [];
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        try {
          const { level, time, msg, component, pid: _pid, hostname: _host, ...rest } = JSON.parse(line) as Record<string, unknown>;
          const extra = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ');
          lines.push(`[bqemu] ${new Date(Number(time)).toISOString()} ${LEVEL_NAMES[Number(level)] ?? String(level)} ${component ? `${String(component)}: ` : ''}${String(msg ?? '')}${extra ? ` ${extra}` : ''}\n`);
        } catch {
          // Not a JSON entry (never from pino): passed through as it is.
          lines.push(`${line}\n`);
        }
      }
      done(null, lines.join(''));
    },
  });
  t.pipe(out);
  return t;
}

/**
 * A logger at `level` writing to `stream` (default: standard output), as JSON lines or, with
 * `format` `console`, readable lines.
 * @param level one of LOG_LEVELS (src/config/config.ts).
 */
export function createLogger(level: LogLevel, stream?: NodeJS.WritableStream, format: LogFormat = 'json'): Logger {
  const out = stream ?? process.stdout;
  return pino({ level, base: { pid: process.pid } }, (format === 'console' ? consoleLines(out) : out) as DestinationStream);
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
