/**
 * Test helper: an in-process emulator on a free port and a real `@google-cloud/bigquery` client
 * pointed at it (apiEndpoint + PassThroughClient, docs/ARCHITECTURE.md §7).
 */
import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/server/server.js';
import { provideCloudStorage } from '../../src/engine/storage-uris.js';
import { openCloudStorage } from '../../src/engine/cloud-storage-client.js';

// As the package entry (src/cli/start-emulator.ts) does: tests may name a Cloud Storage emulator.
provideCloudStorage(openCloudStorage);

export interface TestEmulator {
  emu: Emulator;
  bq: BigQuery;
  projectId: string;
}

export async function startTestEmulator(opts: EmulatorOptions = {}): Promise<TestEmulator> {
  const projectId = opts.projectId ?? 'test-project';
  const emu = await startEmulator({ port: 0, projectId, ...opts });
  const bq = new BigQuery({ projectId, apiEndpoint: emu.url, authClient: new PassThroughClient() as never });
  return { emu, bq, projectId };
}

/** The error a client call raised (fails the test when it resolves). */
export async function errorOf(p: Promise<unknown>): Promise<{ code?: number; message: string; errors?: { reason?: string; location?: string; message?: string }[] }> {
  try {
    await p;
  } catch (e) {
    return e as never;
  }
  throw new Error('expected the call to fail');
}

/**
 * Runs `f` and returns what it settled with (its value, or the error it threw) and the SQL texts
 * the engine read rows with meanwhile (`Database.readChunks`: a query job's lowered statement, one
 * per run) — for tests of what the lowering hands DuckDB.
 */
export async function withLoweredSql<T>(t: TestEmulator, f: () => Promise<T>): Promise<{ result: T | Error; sql: string[] }> {
  const db = t.emu.engine.db;
  const sql: string[] = [];
  const readChunks = db.readChunks.bind(db);
  db.readChunks = (text, ...rest) => (sql.push(text), readChunks(text, ...rest));
  try {
    const result = await f().catch((e: Error) => e);
    return { result, sql };
  } finally {
    db.readChunks = readChunks;
  }
}
