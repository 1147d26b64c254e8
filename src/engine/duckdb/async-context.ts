/**
 * What the DuckDB work of one statement carries through its asynchronous calls: the job's
 * interrupter (jobs.cancel, interrupts.ts), the tables a read names (prepared statements kept per
 * table, write-generations.ts) and the database whose write turn it holds (Database.serializeWrite).
 *
 * One AsyncLocalStorage for all three. Node 20 copies the store of every AsyncLocalStorage in use
 * onto every promise and callback created anywhere in the process (async_hooks' init hook runs each
 * instance's `_propagate`: a property write per instance per promise), so three instances cost three
 * times one on every request's promises; a store is replaced (copied with a field changed) only
 * when a statement enters one of these scopes.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { AsyncLocalStorage } from 'node:async_hooks';

/** The interrupter of a job's DuckDB work as the work sees it (interrupts.ts Interrupter). */
export interface InterruptState {
  /** Set once the job was cancelled (or timed out). */
  readonly interrupted: boolean;
  /** Aborted when interrupted: ends waits outside DuckDB (an analyzer call). */
  readonly signal: AbortSignal;
  /** Connections running the job's work now (each gets DuckDB's `interrupt()`). */
  readonly active: Set<DuckDBConnection>;
}

/** The store: each field unset outside its scope. */
export interface DuckDBWorkContext {
  /** The job whose work this is (interrupts.ts runInterruptible). */
  readonly interrupter?: InterruptState;
  /** The DuckDB names of the tables the statement reads, when all are known (Database.withReadScope). */
  readonly readTables?: readonly string[];
  /** The database whose write turn this work holds (Database.serializeWrite). */
  readonly writeTurn?: object;
}

const storage = new AsyncLocalStorage<DuckDBWorkContext>();

/** The context of the current async work (empty outside every scope). */
export function currentWorkContext(): DuckDBWorkContext {
  return storage.getStore() ?? {};
}

/** Runs `f` (and the async work it starts) with the current context's fields replaced by `fields`. */
export function withWorkContext<T>(fields: DuckDBWorkContext, f: () => T): T {
  return storage.run({ ...storage.getStore(), ...fields }, f);
}
