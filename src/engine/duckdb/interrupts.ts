/**
 * Cancellation of DuckDB work (jobs.cancel): the interrupter of a job, carried through the async
 * context of everything the job runs, and the retry loop of statements that call JavaScript UDFs.
 */
import { REINTERRUPT_FOR_MS, REINTERRUPT_MS } from '../../config/timeouts.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { BigQueryError } from '../../errors/errors.js';
import { withJsUdfRetry } from '../../functions/js-udf.js';
import { currentWorkContext, withWorkContext, type InterruptState } from './async-context.js';

/**
 * Interrupts the DuckDB work started inside {@link runInterruptible} (jobs.cancel): the
 * connections running it get DuckDB's `interrupt()`, and later connection requests fail.
 */
export class Interrupter implements InterruptState {
  interrupted = false;
  private readonly aborter = new AbortController();
  /** Aborted by `interrupt()`: ends waits outside DuckDB too (an analyzer call, src/analyzer/pool.ts). */
  get signal(): AbortSignal {
    return this.aborter.signal;
  }
  /** Connections currently running work of this interrupter. */
  readonly active = new Set<DuckDBConnection>();

  /**
   * DuckDB drops an interrupt that reaches a connection between two of its queries (while a
   * statement is being prepared, or just before the next one starts): the interrupt is repeated
   * every {@link REINTERRUPT_MS} while the interrupted work still holds a connection (at most
   * {@link REINTERRUPT_FOR_MS}).
   */
  interrupt(): void {
    this.interrupted = true;
    this.aborter.abort();
    const started = Date.now();
    const again = () => {
      for (const c of this.active) c.interrupt();
      if (this.active.size && Date.now() - started < REINTERRUPT_FOR_MS) setTimeout(again, REINTERRUPT_MS).unref();
    };
    again();
  }
}

/** The interrupter of the work running in the current async context, if any (see runInterruptible). */
export function currentInterrupterSignal(): AbortSignal | undefined {
  return currentWorkContext().interrupter?.signal;
}


/** The interrupter of the current async context (see runInterruptible), if any. */
export function currentInterrupter(): InterruptState | undefined {
  return currentWorkContext().interrupter;
}

/** Runs `f` so that every DuckDB call it makes (through {@link Database}) can be interrupted by `i`. */
export function runInterruptible<T>(i: Interrupter, f: () => Promise<T>): Promise<T> {
  return withWorkContext({ interrupter: i }, f);
}

/** The error of DuckDB work stopped by an interrupt (jobs.cancel). */
export const interruptedError = () => BigQueryError.interrupted();

/**
 * Runs one DuckDB statement (or one whole DuckDB transaction) that may call JavaScript UDFs: a
 * statement whose UDF batch is still running in its worker is re-run once the batch answered
 * (src/functions/js-udf.ts withJsUdfRetry), unless the job was cancelled meanwhile.
 */
export function runWithJsUdfs<T>(statement: () => Promise<T>): Promise<T> {
  const intr = currentInterrupter();
  return withJsUdfRetry(statement, () => {
    if (intr?.interrupted) throw interruptedError();
  });
}
