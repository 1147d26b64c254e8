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
 * The first row `query` answers through the client (integers as numbers), each value the client
 * wraps (BigQueryDate, BigQueryTimestamp, BigQueryInt …) replaced by its `value` text.
 */
export async function firstRow(t: TestEmulator, query: string): Promise<Record<string, unknown>> {
  const [rows] = await t.bq.query({ query, wrapIntegers: false });
  const r = rows[0] as Record<string, unknown>;
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v]));
}

/** The message of the error `query` fails with through the client (fails the test when it answers). */
export async function queryError(t: TestEmulator, query: string): Promise<string> {
  return (await errorOf(t.bq.query({ query }))).message;
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
