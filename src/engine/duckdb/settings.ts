/**
 * Settings of the embedded DuckDB database: its memory limit and spill directory, and what every
 * connection runs with (UTC, BigQuery's NULL order, the function prelude).
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { Logger } from '../../config/logger.js';
import { installFunctionPrelude } from '../../functions/prelude.js';
import os from 'node:os';
import { DEFAULT_DUCKDB_MEMORY_FRACTION } from '../../config/limits.js';

/** Resource settings of the database (src/config/limits.ts). */
export interface DatabaseOptions {
  /** The engine's logger (errors ignored on purpose at debug); silent when absent. */
  log?: Logger;
  /**
   * DuckDB's `memory_limit` (a DuckDB size such as `4GB` or `512MB`); default
   * {@link DEFAULT_DUCKDB_MEMORY_FRACTION} of the machine's RAM.
   */
  memoryLimit?: string;
  /**
   * Where DuckDB spills what does not fit in memory; default `<dataDir>/spill`, or a private
   * directory under the OS temp directory (removed on close) for an in-memory database.
   */
  tempDirectory?: string;
}

/** `memory_limit` as DuckDB takes it: the given size, else the default fraction of RAM, in MB. */
export function duckMemoryLimit(given?: string): string {
  if (given) {
    if (!/^\s*\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*$/i.test(given)) throw new Error(`Invalid memory limit "${given}" (expected a size such as 4GB or 512MB)`);
    return given.trim();
  }
  return `${Math.max(256, Math.floor((os.totalmem() * DEFAULT_DUCKDB_MEMORY_FRACTION) / (1024 * 1024)))}MB`;
}

/** The function prelude of each database, installed through its first connection. */
const preludes = new WeakMap<DuckDBInstance, Promise<void>>();

/**
 * A new connection of `instance` set up as every connection is (TimeZone UTC, BigQuery's NULL
 * order), once the database has the function prelude (src/functions/prelude.ts). The prelude is
 * installed once per database, through its first connection: DuckDB keeps a scalar function
 * registered through any connection in the database's catalog, where every connection finds it
 * (checked in src/engine/duckdb/connection-pool.test.ts), and `ieee_floating_point_ops` is a global setting.
 * Registering its 165 functions again on every pooled connection cost ~8–12 ms of the main thread
 * each, while queries on the other connections waited on DuckDB's catalog.
 */
export async function openConnection(instance: DuckDBInstance): Promise<DuckDBConnection> {
  const c = await instance.connect();
  await c.run("SET TimeZone='UTC'");
  await c.run("SET default_null_order='nulls_first_on_asc_last_on_desc'");
  let prelude = preludes.get(instance);
  if (!prelude) {
    prelude = installFunctionPrelude(c);
    preludes.set(instance, prelude);
    // A failed install is retried by the next connection rather than remembered.
    prelude.catch(() => preludes.delete(instance));
  }
  await prelude;
  return c;
}
