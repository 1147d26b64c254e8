/**
 * 16 concurrent writers on one table through the managed writer (`JSONWriter`): 8 on the
 * `_default` stream, 8 on COMMITTED streams with explicit offsets, each keeping two appends in
 * flight on its connection. Afterwards every acknowledged row is in the table exactly once, no
 * unacknowledged row is (every append here is acknowledged or refused, none is cut), and each
 * COMMITTED stream's acknowledged offsets are its rows' positions in order (responses in request
 * order; https://cloud.google.com/bigquery/docs/write-api#exactly-once).
 *
 * Runs 3 s by default; `BQEMU_STORAGE_WRITE_SECONDS=20` for the long run.
 */
import { managedwriter } from '@google-cloud/bigquery-storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { jsonWriter, tableName, writerClient, type WriterClient } from './helpers/storage-write.js';

const SECONDS = Number(process.env.BQEMU_STORAGE_WRITE_SECONDS ?? 3);
const WRITERS = 16;
const BATCH = 50;
const IN_FLIGHT = 2;
const P = 'test-project';

let t: TestEmulator;
let client: WriterClient;

beforeAll(async () => {
  t = await startTestEmulator({ grpcPort: 0 });
  await t.bq.createDataset('conc');
  await t.bq.query({ query: 'CREATE TABLE conc.t (id INT64, w INT64, src STRING)' });
  client = writerClient(t.emu.grpcPort, P);
}, 60_000);

afterAll(async () => {
  client?.close();
  await t?.emu.close();
});

describe(`${WRITERS} concurrent writers for ${SECONDS} s`, () => {
  it('every acknowledged row is present exactly once; COMMITTED offsets follow the acknowledged rows', async () => {
    const acknowledged = new Set<number>();
    const refused: string[] = [];
    const offsetsOf = new Map<number, number[]>();
    const until = Date.now() + SECONDS * 1000;
    let nextBatch = 0;
    const writer = async (w: number) => {
      const committed = w % 2 === 1;
      const streamId = committed ? await client.createWriteStream({ streamType: managedwriter.CommittedStream, destinationTable: tableName(P, 'conc', 't') }) : undefined;
      const jw = await jsonWriter(client, t.bq, { projectId: P, dataset: 'conc', table: 't', streamId });
      let end = 0;
      const offsets: number[] = [];
      offsetsOf.set(w, offsets);
      const inFlight: Promise<void>[] = [];
      while (Date.now() < until) {
        const b = nextBatch++;
        const ids = Array.from({ length: BATCH }, (_, i) => b * BATCH + i);
        const pw = jw.appendRows(
          ids.map((id) => ({ id, w, src: committed ? 'committed' : 'default' })),
          committed ? end : undefined,
        );
        end += BATCH;
        inFlight.push(
          pw.getResult().then((r) => {
            if (r.error) refused.push(`writer ${w} batch ${b}: ${r.error.code} ${r.error.message}`);
            else {
              for (const id of ids) acknowledged.add(id);
              if (committed) offsets.push(Number(r.appendResult?.offset?.value));
            }
          }),
        );
        if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
      }
      await Promise.all(inFlight);
      jw.close();
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    expect(refused).toEqual([]);
    expect(acknowledged.size).toBeGreaterThan(WRITERS * BATCH);
    const [dups] = await t.bq.query({ query: 'SELECT id, COUNT(*) AS n FROM conc.t GROUP BY id HAVING COUNT(*) > 1 LIMIT 5' });
    expect(dups).toEqual([]);
    const [[{ n }]] = await t.bq.query({ query: 'SELECT COUNT(*) AS n FROM conc.t' });
    expect(n).toBe(acknowledged.size);
    const [[{ missing }]] = await t.bq.query({
      query: 'SELECT COUNT(*) AS missing FROM UNNEST(@ids) AS id WHERE id NOT IN (SELECT id FROM conc.t)',
      params: { ids: [...acknowledged] },
    });
    expect(missing).toBe(0);
    // Each COMMITTED stream answered the offsets 0, BATCH, 2·BATCH… in request order.
    for (const [w, offsets] of offsetsOf) if (w % 2 === 1) expect(offsets).toEqual(offsets.map((_o, i) => i * BATCH));
  }, 60_000 + SECONDS * 3000);
});
