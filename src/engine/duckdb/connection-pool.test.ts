/**
 * The DuckDB connection pool (src/engine/duckdb/connection-pool.ts): a database opens with one connection — the
 * other three of its pool cost ~8–12 ms of main-thread time each on the way to a cold start's first
 * answer — and tops up to four POOL_TOP_UP_DELAY_MS later; a query that finds no free connection
 * before then gets a new one at once. The user-visible side (a short query never waits behind long
 * ones) is test/concurrent-queries.test.ts, through `@google-cloud/bigquery`.
 */
import pino from 'pino';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Database, POOL_TOP_UP_DELAY_MS } from './db.js';

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

describe('connection pool', () => {
  it('opens with one connection and tops up to four after POOL_TOP_UP_DELAY_MS', async () => {
    db = await Database.open();
    expect(db.connectionCount).toBe(1);
    const d = db;
    expect(await until(() => d.connectionCount === 4, POOL_TOP_UP_DELAY_MS + 10_000)).toBe(true);
    // Every connection works: four statements held open at once each get their own.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started = 0;
    const held = Array.from({ length: 4 }, () =>
      d.withConnection(async (c) => {
        started++;
        await gate;
        return Number((await c.runAndReadAll('SELECT 41 + 1')).getRows()[0]![0]);
      }),
    );
    expect(await until(() => started === 4, 5_000)).toBe(true);
    expect(db.connectionCount).toBe(4);
    release();
    expect(await Promise.all(held)).toEqual([42, 42, 42, 42]);
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
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started = 0;
    const held = Array.from({ length: 3 }, () =>
      db!.withConnection(async () => {
        started++;
        await gate;
      }),
    );
    const d = db;
    // All three run at once, well before the top-up would have opened the connections.
    expect(await until(() => started === 3, POOL_TOP_UP_DELAY_MS / 2)).toBe(true);
    expect(d.connectionCount).toBe(3);
    release();
    await Promise.all(held);
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
