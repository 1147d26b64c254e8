/**
 * The DuckDB connection pool (src/engine/duckdb/connection-pool.ts): a database opens with one
 * connection, which installs the function prelude for the whole database (settings.ts
 * openConnection), and tops up to four POOL_TOP_UP_DELAY_MS later; a query that finds no free
 * connection before then gets a new one at once. The user-visible side (a short query never waits behind long
 * ones) is test/concurrent-queries.test.ts, through `@google-cloud/bigquery`.
 */
import pino from 'pino';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DuckDBConnection } from '@duckdb/node-api';
import { Database, POOL_TOP_UP_DELAY_MS } from './db.js';
import { udfNames } from '../../functions/prelude.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let db: Database | undefined;

afterEach(() => {
  db?.close();
  db = undefined;
});

/** Waits until `f()` holds (polled every 20 ms), at most `ms`. */
async function until(f: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!f() && Date.now() < end) await sleep(20);
  return f();
}

/**
 * Runs `f` on `n` pooled connections of `d` held at once: every call waits until all `n` have
 * started (which must happen within `ms`), `whileHeld` runs, then they go on; their answers.
 */
async function heldAtOnce<T>(d: Database, n: number, f: (c: DuckDBConnection) => Promise<T>, ms: number, whileHeld: () => void = () => undefined): Promise<T[]> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let started = 0;
  const held = Array.from({ length: n }, () =>
    d.withConnection(async (c) => {
      started++;
      await gate;
      return f(c);
    }),
  );
  const all = await until(() => started === n, ms);
  if (all) whileHeld();
  release();
  const answers = await Promise.all(held);
  expect(all).toBe(true);
  return answers;
}

describe('connection pool', () => {
  it('opens with one connection and tops up to four after POOL_TOP_UP_DELAY_MS', async () => {
    db = await Database.open();
    expect(db.connectionCount).toBe(1);
    const d = db;
    expect(await until(() => d.connectionCount === 4, POOL_TOP_UP_DELAY_MS + 10_000)).toBe(true);
    // Every connection works: four statements held open at once each get their own.
    const answers = await heldAtOnce(d, 4, async (c) => Number((await c.runAndReadAll('SELECT 41 + 1')).getRows()[0]![0]), 5_000, () => expect(d.connectionCount).toBe(4));
    expect(answers).toEqual([42, 42, 42, 42]);
  });

  it('installs the function prelude once, and every pooled connection calls its functions', async () => {
    const registered = vi.spyOn(DuckDBConnection.prototype, 'registerScalarFunction');
    try {
      db = await Database.open();
      const d = db;
      expect(await until(() => d.connectionCount === 4, POOL_TOP_UP_DELAY_MS + 10_000)).toBe(true);
      // The builtin UDFs, the JavaScript UDF runner and bq_raise: registered through one connection only.
      const names = udfNames();
      expect(registered.mock.calls.length).toBe(names.length + 2);
      expect(new Set(registered.mock.instances).size).toBe(1);
      const answers = await heldAtOnce(
        d,
        4,
        async (c) => {
          // A prelude UDF called on this connection (bq_raise raises its argument as the error).
          const raised = await c.runAndReadAll("SELECT bq_raise('from this connection')").then(() => '', (e: Error) => e.message);
          const found = (await c.runAndReadAll(`SELECT count(DISTINCT function_name) FROM duckdb_functions() WHERE function_name IN (${names.map((n) => `'${n}'`).join(', ')})`)).getRows()[0]![0];
          return { connection: c, raised, found: Number(found) };
        },
        5_000,
      );
      expect(new Set(answers.map((a) => a.connection)).size).toBe(4);
      for (const a of answers) {
        expect(a.raised).toContain('from this connection');
        expect(a.found).toBe(names.length);
      }
    } finally {
      registered.mockRestore();
    }
  });

  it('keeps using the warm connection after the top-up (its prepared statements stay in use)', async () => {
    db = await Database.open();
    const d = db;
    const before = await d.withConnection(async (c) => c);
    expect(await until(() => d.connectionCount === 4, POOL_TOP_UP_DELAY_MS + 10_000)).toBe(true);
    expect(await d.withConnection(async (c) => c)).toBe(before);
  });

  it('opens a connection on demand when every open one is busy, before the top-up', async () => {
    db = await Database.open();
    const d = db;
    // All three run at once, well before the top-up would have opened the connections.
    await heldAtOnce(d, 3, async () => undefined, POOL_TOP_UP_DELAY_MS / 2, () => expect(d.connectionCount).toBe(3));
  });

  it('a database closed before its top-up opens no more connections and logs no warning', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'debug' }, new Writable({ write: (chunk, _e, cb) => (lines.push(String(chunk)), cb()) }));
    const d = await Database.open(undefined, { log });
    d.close();
    await sleep(POOL_TOP_UP_DELAY_MS + 300);
    expect(d.connectionCount).toBe(1);
    expect(lines.filter((l) => JSON.parse(l).level >= 40)).toEqual([]);
  });
});
