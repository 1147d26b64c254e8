/**
 * Durability of `--data-dir`: an emulator process (`node bin/bqemu.js serve --data-dir D`) is
 * `kill -9`ed at random moments while clients (@google-cloud/bigquery, retries off) run mixed
 * writes — DML INSERT / UPDATE / DELETE / MERGE, tabledata.insertAll and load jobs of local files
 * (`--allow-local-files`, or BQEMU_ALLOW_LOCAL_FILES every other start) — and restarted on the same directory, 10 times.
 *
 * Every write touches one batch of rows (a batch id, BATCH rows) of table d.t, or a whole table
 * d.c<id> (CREATE TABLE AS SELECT, CREATE OR REPLACE, DROP), or two halves of a batch of table
 * d.x in one multi-statement transaction (BEGIN … COMMIT): after each restart every write the
 * client saw succeed is there, and every batch or table is either wholly in one state a write left
 * it in or wholly absent — never half-applied, never a table listed but unreadable. A write cut by the kill may or may not be there
 * (BigQuery's guarantee too: an acknowledged job or insert is durable, a request without an answer
 * is unknown). Acknowledged load jobs are still listed by jobs.get with state DONE.
 * Linux only (/proc finds the analyzer children to kill with the emulator).
 */
import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator } from './helpers/emulator.js';
import { descendants, killTree, spawnServing } from './helpers/kill-tree.js';

const HAS_PROC = process.platform === 'linux' && fs.existsSync('/proc/self/stat');
const P = 'durable-project';
const KILLS = 10;
const BATCH = 20;
/** Writes running at once (each on its own batches). */
const WORKERS = 3;



const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let work: string;
let dataDir: string;
let filesDir: string;
let child: ChildProcess | undefined;
const started: ChildProcess[] = [];

/** Starts the emulator on the data directory; resolves with a client once it serves. */
async function start(): Promise<BigQuery> {
  // The load jobs' folder is allowed by the flag, or (every other start) by BQEMU_ALLOW_LOCAL_FILES.
  const viaEnv = started.length % 2 === 1;
  const env = { ...process.env, BQEMU_GCS_DIR: path.join(work, 'gcs'), ...(viaEnv ? { BQEMU_ALLOW_LOCAL_FILES: `/nonexistent-dir${path.delimiter}${filesDir}` } : {}) };
  // The writes UPDATE and DELETE rows right after insertAll streamed them, which BigQuery refuses
  // while they are in the streaming buffer (test/streaming-buffer.test.ts): the buffer is off here.
  const args = ['serve', '--port', '0', '--grpc-port', '0', '--project', P, '--data-dir', dataDir, '--streaming-buffer-seconds', '0', ...(viaEnv ? [] : ['--allow-local-files', filesDir])];
  const { child: c, restUrl } = await spawnServing(args, env);
  started.push(c);
  child = c;
  return new BigQuery({ projectId: P, apiEndpoint: restUrl, authClient: new PassThroughClient() as never, autoRetry: false, maxRetries: 0 });
}

/** kill -9 of the emulator and of its children (the analyzer), which would otherwise outlive it. */
let kills = 0;
async function killHard(): Promise<void> {
  kills++;
  await killTree(child!);
}

/** The state a batch (or a table) is in: absent (null), or BATCH rows all carrying this `v`. */
type State = string | null;
interface Tracked {
  /** States it may be in now: one after an acknowledged write, two after a write cut by the kill. */
  allowed: State[];
  busy: boolean;
}

/** Batches of table d.t by batch id (`t<id>`) and whole tables d.c<id> (`c<id>`). */
const tracked = new Map<string, Tracked>();
let nextId = 1;
const acknowledgedLoads: string[] = [];
const counts = { acknowledged: 0, cut: 0, refused: [] as string[] };

/** True for a client error caused by the kill (no answer), false for an answer from the server. */
function connectionError(e: unknown): boolean {
  const err = e as { code?: unknown; message?: string };
  return /ECONNRESET|ECONNREFUSED|socket hang up|EPIPE|other side closed|fetch failed/i.test(`${String(err.code)} ${String(err.message)}`);
}

/** Writes that make a new batch or table, and writes that change an existing one. */
const CREATING = ['insert', 'insertAll', 'load', 'merge', 'ctas', 'txn'];
/** A multi-statement transaction restores its tables' earlier rows on ROLLBACK: one at a time, on its own table d.x. */
let txnBusy = false;
const CHANGING: Record<string, 't' | 'c'> = { update: 't', delete: 't', mergeUpdate: 't', replace: 'c', drop: 'c' };

/** Runs one random write against `bq`; records what its batch or table may hold afterwards. */
async function oneWrite(bq: BigQuery): Promise<void> {
  const settled = (prefix: string) => [...tracked.entries()].filter(([k, b]) => k[0] === prefix && !b.busy && b.allowed.length === 1 && b.allowed[0] !== null);
  const kinds = [...CREATING.filter((k) => k !== 'txn' || !txnBusy), ...Object.keys(CHANGING).filter((k) => settled(CHANGING[k]).length)];
  const kind = kinds[Math.floor(Math.random() * kinds.length)];
  let key: string;
  let obj: Tracked;
  if (CHANGING[kind]) {
    const pick = settled(CHANGING[kind]);
    [key, obj] = pick[Math.floor(Math.random() * pick.length)];
  } else {
    key = `${kind === 'ctas' ? 'c' : kind === 'txn' ? 'x' : 't'}${nextId++}`;
    obj = { allowed: [null], busy: false };
    tracked.set(key, obj);
  }
  const id = Number(key.slice(1));
  const before = obj.allowed[0];
  const after: State = kind === 'delete' || kind === 'drop' ? null : ['update', 'mergeUpdate', 'replace'].includes(kind) ? `${kind}${id}` : kind;
  obj.busy = true;
  if (kind === 'txn') txnBusy = true;
  const rowsOf = (v: string) => `SELECT ${id} AS batch, k, '${v}' AS v FROM UNNEST(GENERATE_ARRAY(1, ${BATCH})) AS k`;
  try {
    if (kind === 'insert') await bq.query({ query: `INSERT d.t (batch, k, v) ${rowsOf('insert')}` });
    else if (kind === 'merge')
      await bq.query({ query: `MERGE d.t T USING (${rowsOf('merge')}) S ON T.batch = S.batch AND T.k = S.k WHEN NOT MATCHED THEN INSERT (batch, k, v) VALUES (S.batch, S.k, S.v)` });
    else if (kind === 'update') await bq.query({ query: `UPDATE d.t SET v = '${after}' WHERE batch = ${id}` });
    else if (kind === 'delete') await bq.query({ query: `DELETE FROM d.t WHERE batch = ${id}` });
    else if (kind === 'mergeUpdate')
      await bq.query({ query: `MERGE d.t T USING (${rowsOf(after!)}) S ON T.batch = S.batch AND T.k = S.k WHEN MATCHED THEN UPDATE SET v = S.v` });
    else if (kind === 'ctas') await bq.query({ query: `CREATE TABLE d.c${id} AS ${rowsOf('ctas')}` });
    else if (kind === 'replace') await bq.query({ query: `CREATE OR REPLACE TABLE d.c${id} AS ${rowsOf(after!)}` });
    else if (kind === 'drop') await bq.query({ query: `DROP TABLE d.c${id}` });
    else if (kind === 'txn') {
      // Two halves of one batch in one transaction: both or neither.
      const half = (from: number, to: number) => `INSERT d.x (batch, k, v) SELECT ${id}, k, 'txn' FROM UNNEST(GENERATE_ARRAY(${from}, ${to})) AS k;`;
      await bq.query({ query: `BEGIN TRANSACTION; ${half(1, BATCH / 2)} ${half(BATCH / 2 + 1, BATCH)} COMMIT TRANSACTION;` });
    }
    else if (kind === 'insertAll') {
      const rows = Array.from({ length: BATCH }, (_, i) => ({ insertId: `${id}-${i}`, json: { batch: id, k: i + 1, v: 'insertAll' } }));
      await bq.dataset('d').table('t').insert(rows, { raw: true });
    } else {
      const file = path.join(filesDir, `batch-${id}.csv`);
      fs.writeFileSync(file, Array.from({ length: BATCH }, (_, i) => `${id},${i + 1},load\n`).join(''));
      const jobId = `load_${id}`;
      const [job] = await bq.createJob({ jobId, configuration: { load: { sourceUris: [`file://${file}`], sourceFormat: 'CSV', destinationTable: { projectId: P, datasetId: 'd', tableId: 't' } } } });
      await job.promise();
      acknowledgedLoads.push(jobId);
    }
    obj.allowed = [after];
    counts.acknowledged++;
  } catch (e) {
    if (connectionError(e)) {
      obj.allowed = before === after ? [before] : [before, after];
      counts.cut++;
    } else {
      // An answered failure leaves the batch as it was.
      counts.refused.push(`${kind} ${key}: ${(e as Error).message}`);
    }
  } finally {
    obj.busy = false;
    if (kind === 'txn') txnBusy = false;
  }
}

/** The state of each batch or table found (`half-applied …` for anything else). */
function stateOf(rows: { n: number; dk: number; vs: string[] } | undefined): State {
  if (!rows) return null;
  return rows.vs.length === 1 && rows.n === BATCH && rows.dk === BATCH ? rows.vs[0] : `half-applied ${JSON.stringify(rows)}`;
}

/** Checks every batch and table against what the client saw; pins a cut write's object to the state found. */
async function verify(bq: BigQuery): Promise<void> {
  const [tables] = await bq.dataset('d').getTables();
  const names = tables.map((t) => t.id!).filter((n) => n !== 't' && n !== 'x');
  const parts = ['t', 'x', ...names].map((n) => `SELECT '${n.length === 1 ? n : 'c'}' || CAST(batch AS STRING) AS key, COUNT(*) AS n, COUNT(DISTINCT k) AS dk, ARRAY_AGG(DISTINCT v) AS vs FROM d.${n} GROUP BY batch`);
  const [rows] = await bq.query({ query: parts.join(' UNION ALL ') });
  const found = new Map<string, { n: number; dk: number; vs: string[] }>(rows.map((r: any) => [String(r.key), { n: Number(r.n), dk: Number(r.dk), vs: r.vs }]));
  for (const n of names) expect(tracked.has(n), `table d.${n}, never created`).toBe(true);
  for (const k of found.keys()) expect(tracked.has(k), `rows of ${k}, never written`).toBe(true);
  for (const [key, b] of tracked) {
    let state = stateOf(found.get(key));
    if (key[0] === 'c' && names.includes(key) && !found.has(key)) state = 'an empty table';
    expect(b.allowed, key).toContain(state);
    b.allowed = [state];
  }
  for (const jobId of acknowledgedLoads) {
    const [meta] = await bq.job(jobId).getMetadata();
    expect(meta.status?.state, jobId).toBe('DONE');
    expect(meta.status?.errorResult, jobId).toBeUndefined();
  }
}

/**
 * Kills the emulator while a multi-statement transaction is open: its first INSERT is visible to
 * other jobs (src/scripting/transactions.ts: no isolation between jobs), its second one waits
 * behind a slow query. Resolves true when the kill hit the open transaction (false: it committed
 * first; the batch is then tracked as cut either way).
 */
async function killInsideTransaction(bq: BigQuery): Promise<boolean> {
  const id = nextId++;
  const obj: Tracked = { allowed: [null], busy: true };
  tracked.set(`x${id}`, obj);
  const half = (from: number, to: number) => `INSERT d.x (batch, k, v) SELECT ${id}, k, 'txn' FROM UNNEST(GENERATE_ARRAY(${from}, ${to})) AS k;`;
  const slow = 'SELECT COUNT(*) FROM UNNEST(GENERATE_ARRAY(1, 20000)) AS a, UNNEST(GENERATE_ARRAY(1, 20000)) AS b WHERE MOD(a + b, 7) = 0;';
  const script = bq.query({ query: `BEGIN TRANSACTION; ${half(1, BATCH / 2)} ${slow} ${half(BATCH / 2 + 1, BATCH)} COMMIT TRANSACTION;` }).then(
    () => true,
    () => false,
  );
  let seen = 0;
  const deadline = Date.now() + 20_000;
  while (seen === 0 && Date.now() < deadline) {
    const [rows] = await bq.query({ query: `SELECT COUNT(*) AS n FROM d.x WHERE batch = ${id}` });
    seen = Number(rows[0].n);
  }
  await killHard();
  const committed = await script;
  obj.allowed = committed ? ['txn'] : seen === BATCH / 2 ? [null] : [null, 'txn'];
  obj.busy = false;
  return !committed && seen === BATCH / 2;
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-durable-'));
  dataDir = path.join(work, 'data');
  filesDir = path.join(work, 'files');
  fs.mkdirSync(filesDir, { recursive: true });
});
afterAll(() => {
  // Only processes this file started, and their children, by pid.
  for (const c of started) {
    if (c.exitCode !== null || c.signalCode !== null || !c.pid) continue;
    for (const k of [c.pid, ...descendants(c.pid)]) {
      try {
        process.kill(k, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
  fs.rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!HAS_PROC)('--data-dir durability under kill -9 (needs Linux /proc)', () => {
  it(`keeps every acknowledged write over ${KILLS} kills, and nothing is half-applied`, { timeout: 300_000 }, async () => {
    let bq = await start();
    await bq.query({ query: 'CREATE SCHEMA d' });
    await bq.query({ query: 'CREATE TABLE d.t (batch INT64, k INT64, v STRING)' });
    await bq.query({ query: 'CREATE TABLE d.x (batch INT64, k INT64, v STRING)' });
    // KILLS - 1 kills at random moments, the last one inside an open transaction (below).
    for (let kill = 0; kill < KILLS - 1; kill++) {
      const client = bq;
      let stop = false;
      const workers = Array.from({ length: WORKERS }, async () => {
        while (!stop) await oneWrite(client);
      });
      // A random moment once this run acknowledged a write (however loaded the machine): 0–1 s later.
      const before = counts.acknowledged;
      for (const end = Date.now() + 30_000; counts.acknowledged === before && Date.now() < end; ) await sleep(10);
      await sleep(Math.random() * 1000);
      stop = true; // no new writes: the ones in flight are cut by the kill
      await killHard();
      await Promise.all(workers);
      bq = await start();
      await verify(bq);
    }
    // A kill while a transaction is open, at a known moment: rolled back at the restart.
    let cutOpen = false;
    for (let attempt = 0; attempt < 3 && !cutOpen; attempt++) {
      cutOpen = await killInsideTransaction(bq);
      bq = await start();
      await verify(bq);
    }
    expect(cutOpen, 'a kill inside an open transaction').toBe(true);
    const total = kills;
    await killHard();
    expect(counts.refused).toEqual([]);
    expect(counts.acknowledged).toBeGreaterThanOrEqual(KILLS - 1);
    console.log(`durability: ${total} kills during writes, ${counts.acknowledged} acknowledged writes, ${counts.cut} cut by a kill, ${tracked.size} batches and tables checked`);
  });
});

describe('--data-dir restart after a DROP TABLE cut short', () => {
  it('a table whose data was dropped before its metadata is absent after the restart, not listed and unreadable', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-dropcut-'));
    try {
      let t = await startTestEmulator({ projectId: P, dataDir: dir });
      await t.bq.query({ query: 'CREATE SCHEMA d' });
      await t.bq.query({ query: 'CREATE TABLE d.kept AS SELECT 1 AS x' });
      await t.bq.query({ query: 'CREATE TABLE d.dropped AS SELECT 2 AS x' });
      // The state a DROP TABLE cut short by a crash left when it removed the data and the metadata
      // in two steps (data directories written before they changed in one transaction): the
      // DuckDB table is gone, the metadata row is still there.
      const meta = t.emu.engine.catalog.getTable(P, 'd', 'dropped')!;
      await t.emu.engine.db.run(`DROP TABLE "${meta.duckName}"`);
      await t.emu.close();
      t = await startTestEmulator({ projectId: P, dataDir: dir });
      try {
        const [tables] = await t.bq.dataset('d').getTables();
        expect(tables.map((x) => x.id)).toEqual(['kept']);
        const err = await errorOf(t.bq.query({ query: 'SELECT * FROM d.dropped' }));
        expect(err.message).toMatch(/^Not found: Table durable-project:d.dropped/);
        expect((await t.bq.query({ query: 'SELECT x FROM d.kept' }))[0]).toEqual([{ x: 1 }]);
        // The name is free again.
        await t.bq.query({ query: 'CREATE TABLE d.dropped AS SELECT 3 AS x' });
        expect((await t.bq.query({ query: 'SELECT x FROM d.dropped' }))[0]).toEqual([{ x: 3 }]);
      } finally {
        await t.emu.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
