/**
 * Client of the ZetaSQL local service: a pool of supervised analyzer processes (pool.ts) reached
 * over gRPC on private unix sockets. Waits until a real RPC answers, and turns analyzer errors
 * into BigQuery's `invalidQuery` errors with BigQuery's location marker (`[at 1:8]` → `at [1:8]`).
 */
import * as grpc from '@grpc/grpc-js';
import { reapOrphans } from './process.js';
import { AnalyzerPool } from './pool.js';
import type { CatalogRef } from './registered-catalogs.js';
import { bigQueryLanguageOptions } from './options.js';
import { languageOptionsMessage } from './local-service.js';
import { markLarge, normalize, type Node } from './ast.js';
import { decodeAnswer, NORMALIZED, RawAnswer } from './answer-decoder.js';
import { BigQueryError } from '../errors/errors.js';
import { silentLogger, type Logger } from '../config/logger.js';

/** Rewrites ZetaSQL's `… [at 1:8]` location marker into BigQuery's `… at [1:8]`. */
export function bigQueryErrorText(zetasqlMessage: string): string {
  return zetasqlMessage.replace(/\s*\[at (\d+):(\d+)\]/g, ' at [$1:$2]').trim();
}

export class AnalyzerClient {
  private readonly pool: AnalyzerPool;

  /** @param log the analyzer's logger (src/config/logger.ts): process spawns and exits, errors mapped at debug. */
  constructor(private readonly log: Logger = silentLogger) {
    this.pool = new AnalyzerPool(undefined, log);
  }
  /**
   * BigQuery language options (set by `start`), as a LanguageOptionsProto message that every
   * request carries unconverted (local-service.ts languageOptionsMessage); read-only.
   */
  languageOptions: Record<string, unknown> = {};
  /**
   * The AbortSignal of the work the current call belongs to (its job's cancellation), read at each
   * call; the engine sets it. An aborted call ends at once with a `stopped` error.
   */
  signalOf?: () => AbortSignal | undefined;

  /** Pid of the oldest analyzer process (tests kill it to check the restart). */
  get pid(): number | undefined {
    return this.pool.pids[0];
  }

  /** Pids of every live analyzer process. */
  get pids(): number[] {
    return this.pool.pids;
  }

  /** Analyses sent naming a catalog registered in their process (src/analyzer/registered-catalogs.ts). */
  get registeredCatalogCalls(): number {
    return this.pool.registeredCatalogCalls;
  }

  /** Deadline of one analyzer call, ms (src/config/analyzer-limits.ts; tests lower it). */
  get deadlineMs(): number {
    return this.pool.deadlineMs;
  }
  set deadlineMs(ms: number) {
    this.pool.deadlineMs = ms;
  }

  /** Reaps orphans, starts the first analyzer process, waits for a real RPC, loads language options. */
  async start(): Promise<void> {
    reapOrphans();
    try {
      this.languageOptions = languageOptionsMessage(bigQueryLanguageOptions((await this.pool.start()) as never));
    } catch (e) {
      throw BigQueryError.analyzer.failedToStart((e as Error).message);
    }
  }

  /**
   * Calls an RPC on an analyzer process (any of the pool; a call lost with its process is resent
   * once). The current job's cancellation (`signalOf`) abandons it. `catalogRef`: the request's
   * `simpleCatalog` may travel as a catalog registered in the process (src/analyzer/registered-catalogs.ts).
   * @throws BigQueryError invalidQuery (the analyzer's error), resourcesExceeded (past the call
   *   deadline or too large), stopped (cancelled)
   */
  async call(method: string, req: object, signal: AbortSignal | undefined = this.signalOf?.(), catalogRef?: CatalogRef): Promise<any> {
    // The processes started from now on (a second one, a replacement) answer an analysis like the
    // first one (the engine's warm-up: builtin functions, no table) before they take calls.
    if (method === 'analyze' && !this.pool.warmUp) {
      const { options, simpleCatalog } = req as { options?: object; simpleCatalog?: object };
      this.pool.warmUp = { method, req: { options, simpleCatalog, sqlStatement: 'SELECT 1' } };
    }
    let res: unknown;
    try {
      res = await this.pool.call(method, req, signal, BigQueryError.cancelled, catalogRef);
    } catch (e) {
      const err = toBigQueryError(e as grpc.ServiceError);
      if (err !== e) this.log.debug({ method, code: (e as grpc.ServiceError).code, original: (e as grpc.ServiceError).details ?? (e as Error).message, reason: err.reason, message: err.message }, 'analyzer error mapped');
      throw err;
    }
    if (!(res instanceof RawAnswer)) return res;
    // A large answer: decoded off the main thread (answer-decoder.ts).
    let decoded: Record<string | symbol, unknown>;
    try {
      decoded = await decodeAnswer(res);
    } catch (e) {
      throw undecodable((e as Error).message);
    }
    // Parsing the decoder's text was one long step: let other clients in before the next one.
    await new Promise((r) => setImmediate(r));
    return decoded;
  }

  /** Stops every analyzer process. */
  stop(): void {
    this.pool.stop();
  }
}

/**
 * The normalised resolved statement of an `analyze` answer (already normalised when the answer
 * was decoded off the main thread, see answer-decoder.ts).
 * @throws BigQueryError outOfStackSpace when the tree is deeper than the JavaScript stack
 *   (https://cloud.google.com/bigquery/docs/troubleshoot-queries#out_of_stack_space).
 */
export function resolvedStatementOf(res: Record<string | symbol, unknown>): Node {
  if (res[NORMALIZED]) {
    if (res.resolvedStatement) markLarge(res.resolvedStatement);
    return res.resolvedStatement as Node;
  }
  try {
    return normalize(res.resolvedStatement) as Node;
  } catch (e) {
    if (e instanceof RangeError) throw BigQueryError.outOfStackSpace();
    throw e;
  }
}

/**
 * The error for an answer the decoder thread could not decode: nested too deep (protobufjs's
 * limit or the stack) is BigQuery's out-of-stack error
 * (https://cloud.google.com/bigquery/docs/troubleshoot-queries#out_of_stack_space), anything else
 * (the decoder out of memory) its "too complex" error.
 */
function undecodable(message: string): BigQueryError {
  if (/maximum nesting depth exceeded|Maximum call stack size exceeded/i.test(message)) return BigQueryError.outOfStackSpace();
  return BigQueryError.queryTooComplex();
}

function toBigQueryError(err: grpc.ServiceError): BigQueryError {
  if (err instanceof BigQueryError) return err;
  if (err.code === grpc.status.UNAVAILABLE || err.code === grpc.status.DEADLINE_EXCEEDED)
    return BigQueryError.analyzer.unavailable(err.details);
  // An answer too deeply nested to decode (PROTO_RECURSION_LIMIT, or the JS stack): the text too deep.
  if (/^Response message parsing error: (maximum nesting depth exceeded|Maximum call stack size exceeded)/.test(err.details ?? ''))
    return BigQueryError.outOfStackSpace();
  return BigQueryError.invalidQuery(bigQueryErrorText(err.details ?? err.message));
}
