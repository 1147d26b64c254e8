/**
 * Durability of the Storage Write API with `--data-dir`: an emulator process
 * (`node bin/bqemu.js serve --data-dir D --grpc-port 0`) is `kill -9`ed (with its analyzer
 * children) while managed writers append — to the `_default` stream, to COMMITTED streams with
 * offsets, to a PENDING stream that is finalized and committed, to a BUFFERED stream that is
 * flushed — and restarted on the same directory, KILLS times. After the last restart:
 *
 * - every batch whose append (`_default`, COMMITTED), flush (BUFFERED) or batch commit (PENDING)
 *   was acknowledged is in the table, each row exactly once — 0 acknowledged rows lost;
 * - no batch is half there (an append cut by the kill is wholly present or wholly absent);
 * - a COMMITTED stream's row count (FinalizeWriteStream) equals its rows in the table: the stream's
 *   end offset is stored with its rows;
 * - a PENDING stream's acknowledged appends whose commit was not acknowledged survive the restart
 *   staged, and a commit after it makes them visible (BigQuery keeps pending data until commit).
 * Linux only (/proc finds the analyzer children to kill with the emulator).
 */
import { BigQuery } from '@google-cloud/bigquery';
import { managedwriter } from '@google-cloud/bigquery-storage';
import { PassThroughClient } from 'google-auth-library';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killTree, spawnServing } from './helpers/kill-tree.js';
import { jsonWriter, tableName, writeClient, writerClient, type JSONWriter, type WriterClient } from './helpers/storage-write.js';

const HAS_PROC = process.platform === 'linux' && fs.existsSync('/proc/self/stat');
const P = 'durable-project';
const KILLS = 3;
const BATCH = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Unary calls without the client's retries (a call the kill cuts fails at once instead of retrying UNAVAILABLE for minutes). */
const ONCE = { timeout: 10_000, retry: null as never };

let dataDir: string;
let child: ChildProcess | undefined;
const started: ChildProcess[] = [];


/** Starts the emulator on the data directory; resolves with its REST client and gRPC port. */
async function start(): Promise<{ bq: BigQuery; grpcPort: number }> {
  const { child: c, serving, restUrl } = await spawnServing(['serve', '--port', '0', '--grpc-port', '0', '--project', P, '--data-dir', dataDir]);
  started.push(c);
  child = c;
  const bq = new BigQuery({ projectId: P, apiEndpoint: restUrl, authClient: new PassThroughClient() as never, autoRetry: false, maxRetries: 0 });
  return { bq, grpcPort: Number(serving[1]) };
}

/** kill -9 of the emulator and of its children (the analyzer). */
const killHard = () => killTree(child!);

/** Batches whose write was acknowledged, and the streams to check after the last restart. */
const acknowledged = new Set<number>();
const committedStreams: string[] = [];
/** PENDING streams whose commit was not acknowledged, with the batches of their acknowledged appends. */
const uncommitted: { stream: string; batches: number[] }[] = [];
let nextBatch = 1;

const rowsOf = (b: number, src: string) => Array.from({ length: BATCH }, (_, i) => ({ id: b * 1000 + i, batch: b, src }));

/** One append; true when acknowledged (no error in the response), false when refused or cut. */
async function append(w: JSONWriter, b: number, src: string, offset?: number): Promise<boolean> {
  try {
    const r = await w.appendRows(rowsOf(b, src), offset).getResult();
    return !r.error;
  } catch {
    return false; // the kill cut the connection: the batch may or may not be there
  }
}

/** Writers of one emulator life, until `stop` resolves. */
async function writeUntil(client: WriterClient, bq: BigQuery, grpcPort: number, stop: Promise<void>): Promise<void> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const parent = tableName(P, 'd', 't');
  const gapic = writeClient(grpcPort, P);
  const loops: Promise<void>[] = [];
  // Two _default writers.
  for (let k = 0; k < 2; k++)
    loops.push(
      (async () => {
        const w = await jsonWriter(client, bq, { projectId: P, dataset: 'd', table: 't' });
        while (!stopped) {
          const b = nextBatch++;
          if (await append(w, b, 'default')) acknowledged.add(b);
        }
      })().catch(() => undefined),
    );
  // Two COMMITTED writers with offsets.
  for (let k = 0; k < 2; k++)
    loops.push(
      (async () => {
        const s = await client.createWriteStream({ streamType: managedwriter.CommittedStream, destinationTable: parent }, ONCE);
        committedStreams.push(s);
        const w = await jsonWriter(client, bq, { projectId: P, dataset: 'd', table: 't', streamId: s });
        for (let end = 0; !stopped; end += BATCH) {
          const b = nextBatch++;
          if (!(await append(w, b, s, end))) break;
          acknowledged.add(b);
        }
      })().catch(() => undefined),
    );
  // PENDING streams: a few appends, finalize, commit; again.
  loops.push(
    (async () => {
      while (!stopped) {
        const s = await client.createWriteStream({ streamType: managedwriter.PendingStream, destinationTable: parent }, ONCE);
        const w = await jsonWriter(client, bq, { projectId: P, dataset: 'd', table: 't', streamId: s });
        const entry = { stream: s, batches: [] as number[] };
        uncommitted.push(entry);
        for (let i = 0; i < 3 && !stopped; i++) {
          const b = nextBatch++;
          if (await append(w, b, 'pending')) entry.batches.push(b);
        }
        await gapic.finalizeWriteStream({ name: s }, ONCE);
        const [r] = await gapic.batchCommitWriteStreams({ parent, writeStreams: [s] }, ONCE);
        if (r.streamErrors?.length) throw new Error(JSON.stringify(r.streamErrors));
        for (const b of entry.batches) acknowledged.add(b);
        uncommitted.splice(uncommitted.indexOf(entry), 1);
      }
    })().catch(() => undefined),
  );
  // A BUFFERED stream flushed after each acknowledged append.
  loops.push(
    (async () => {
      const s = await client.createWriteStream({ streamType: managedwriter.BufferedStream, destinationTable: parent }, ONCE);
      const w = await jsonWriter(client, bq, { projectId: P, dataset: 'd', table: 't', streamId: s });
      for (let end = 0; !stopped; end += BATCH) {
        const b = nextBatch++;
        if (!(await append(w, b, 'buffered', end))) break;
        await gapic.flushRows({ writeStream: s, offset: { value: end + BATCH - 1 } }, ONCE);
        acknowledged.add(b);
      }
    })().catch(() => undefined),
  );
  await Promise.all(loops);
  await gapic.close().catch(() => undefined);
}

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-sw-durable-'));
});

afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!HAS_PROC)('Storage Write API durability under kill -9 (needs Linux /proc)', () => {
  it(`loses no acknowledged row over ${KILLS} kills, half-writes nothing, keeps stream offsets with their rows`, async () => {
    let { bq, grpcPort } = await start();
    await bq.createDataset('d');
    await bq.query({ query: 'CREATE TABLE d.t (id INT64, batch INT64, src STRING)' });
    for (let k = 0; k < KILLS; k++) {
      const client = writerClient(grpcPort, P);
      // The kill comes at a random moment once this life acknowledged a first write.
      const before = acknowledged.size;
      const killAt = (async () => {
        for (const deadline = Date.now() + 30_000; acknowledged.size === before && Date.now() < deadline; ) await sleep(10);
        await sleep(200 + Math.random() * 800);
        await killHard();
      })();
      await Promise.all([writeUntil(client, bq, grpcPort, killAt), killAt]);
      client.close();
      ({ bq, grpcPort } = await start());
    }
    // PENDING streams cut before their commit was acknowledged: committed now (or already).
    const gapic = writeClient(grpcPort, P);
    try {
      for (const { stream, batches } of uncommitted) {
        await gapic.finalizeWriteStream({ name: stream });
        const [r] = await gapic.batchCommitWriteStreams({ parent: tableName(P, 'd', 't'), writeStreams: [stream] });
        expect(r.streamErrors?.map((e) => e.code).filter((c) => c !== 'STREAM_ALREADY_COMMITTED')).toEqual([]);
        for (const b of batches) acknowledged.add(b);
      }
      const [rows] = await bq.query({ query: 'SELECT batch, src, COUNT(*) AS n, COUNT(DISTINCT id) AS dk FROM d.t GROUP BY batch, src' });
      const found = new Map((rows as { batch: number; src: string; n: number; dk: number }[]).map((r) => [r.batch, r]));
      expect(acknowledged.size).toBeGreaterThan(0);
      expect([...acknowledged].filter((b) => !found.has(b))).toEqual([]);
      expect([...found.values()].filter((r) => r.n !== BATCH || r.dk !== BATCH)).toEqual([]);
      // A COMMITTED stream's stored end offset counts exactly its rows in the table.
      for (const s of committedStreams) {
        const [fin] = await gapic.finalizeWriteStream({ name: s }, ONCE);
        const inTable = [...found.values()].filter((r) => r.src === s).length * BATCH;
        expect(Number(fin.rowCount), s).toBe(inTable);
      }
    } finally {
      await gapic.close();
    }
  }, 240_000);
});
