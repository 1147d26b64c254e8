/**
 * Large AppendRows requests (proto rows and Arrow record batches) decode in up to DECODE_WORKERS worker threads
 * (src/wire/write-rows-offthread.ts), so several requests of one connection decode side by side
 * and finish in any order. Through the official GAPIC client (`v1.BigQueryWriteClient.appendRows`,
 * a raw bidirectional AppendRows call) with the managed writer's descriptor (the client's `adapt`
 * helpers): requests written back to back on a COMMITTED stream with offsets must still be
 * answered in request order, each with its own offset, exactly once (AppendRows answers on a
 * connection in the order of its requests, and an offset must be the stream's current end:
 * https://cloud.google.com/bigquery/docs/reference/storage/rpc/google.cloud.bigquery.storage.v1#google.cloud.bigquery.storage.v1.BigQueryWrite.AppendRows),
 * a refused request in the middle
 * (a REQUIRED column left unset: `rowErrors`, FIELDS_ERROR) appends nothing, and the table holds
 * exactly the accepted rows. The request copies handed to the workers come back for reuse, and the
 * decoded columns go back to a worker once their request is answered. A large
 * Arrow batch (raw AppendRows with an apache-arrow IPC batch) decodes there too and reads back cell
 * for cell; one with a NULL in a REQUIRED column comes back to the main thread, which answers its
 * row error ("Field value of k cannot be empty.", FIELDS_ERROR, as the row path) and writes nothing.
 */
import protobuf from 'protobufjs';
import descriptorExt from 'protobufjs/ext/descriptor/index.js';
import { managedwriter } from '@google-cloud/bigquery-storage';
import { Float64, Int64, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECODE_WORKERS, OFF_THREAD_MIN_BYTES, offThreadDecoders } from '../src/wire/write-rows-offthread.js';
import { WRITE_DECODE_SLICE_ROWS } from '../src/wire/write-rows.js';
import type { TestEmulator } from './helpers/emulator.js';
import { appendArrowIpc, appendRequests, descriptorOf, tableName, startWriteEmulator, stopWriteEmulator, type WriteClient, type WriterClient } from './helpers/storage-write.js';

let t: TestEmulator;
let client: WriterClient;
let gapic: WriteClient;
const P = 'test-project';
const D = 'swdecoders';
const ROWS = 2_000;

const q = async (sql: string) => (await t.bq.query({ query: sql }))[0] as Record<string, unknown>[];
const DP = (descriptorExt as unknown as { DescriptorProto: protobuf.Type }).DescriptorProto;

beforeAll(async () => {
  ({ t, client, gapic } = await startWriteEmulator(D, P));
}, 60_000);

afterAll(() => stopWriteEmulator({ t, client, gapic }));

describe('proto requests decoded by several workers', () => {
  it('pipelined requests on a COMMITTED stream: answers in request order, offsets exactly once, a refused request in the middle appends nothing', async () => {
    await q(`CREATE TABLE ${D}.t (k INT64 NOT NULL, s STRING, f FLOAT64)`);
    const descriptor = await descriptorOf(t.bq, D, 't');
    const type = (protobuf.Type as unknown as { fromDescriptor(d: unknown): protobuf.Type }).fromDescriptor(DP.fromObject(descriptor.toJSON()));
    new protobuf.Root().add(type);
    const stream = await client.createWriteStream({ streamType: managedwriter.CommittedStream, destinationTable: tableName(P, D, 't') });
    const BAD = 3;
    const requests: Record<string, unknown>[] = [];
    let offset = 0;
    for (let i = 0; i < 8; i++) {
      const rows = Array.from({ length: ROWS }, (_, j) => {
        const k = i * ROWS + j;
        // Request BAD leaves the REQUIRED k unset in its row 5.
        return i === BAD && j === 5 ? { s: 'no key' } : { k, s: `value ${k} of request ${i}`, f: k / 4 };
      });
      const serializedRows = rows.map((r) => type.encode(type.fromObject(r)).finish());
      expect(serializedRows.reduce((n, b) => n + b.length, 0)).toBeGreaterThan(OFF_THREAD_MIN_BYTES);
      requests.push({ ...(i === 0 ? { writeStream: stream } : {}), offset: { value: offset }, protoRows: { ...(i === 0 ? { writerSchema: { protoDescriptor: descriptor.toJSON() } } : {}), rows: { serializedRows } } });
      if (i !== BAD) offset += ROWS;
    }
    const released = offThreadDecoders.released;
    const responses = await appendRequests(gapic, requests);
    expect(responses).toHaveLength(8);
    const accepted = [0, 1, 2, 4, 5, 6, 7];
    responses.forEach((r, i) => {
      if (i === BAD) {
        expect(r.appendResult ?? null).toBeNull();
        expect((r.rowErrors as { index: unknown; code: unknown }[]).map((e) => [String(e.index), e.code])).toEqual([['5', 'FIELDS_ERROR']]);
      } else {
        expect(r.error ?? null).toBeNull();
        expect(String((r.appendResult as { offset: { value: unknown } }).offset.value)).toBe(String(accepted.indexOf(i) * ROWS));
      }
    });
    const [n] = await q(`SELECT COUNT(*) n, COUNT(DISTINCT k) d, MIN(k) lo, MAX(k) hi, COUNTIF(s != CONCAT('value ', CAST(k AS STRING), ' of request ', CAST(DIV(k, ${ROWS}) AS STRING))) bad_s, COUNTIF(f != k / 4) bad_f FROM ${D}.t`);
    expect(n).toEqual({ n: 7 * ROWS, d: 7 * ROWS, lo: 0, hi: 8 * ROWS - 1, bad_s: 0, bad_f: 0 });
    expect(await q(`SELECT COUNT(*) n FROM ${D}.t WHERE DIV(k, ${ROWS}) = ${BAD}`)).toEqual([{ n: 0 }]);
    // The second worker starts when the first is busy: eight requests written at once find it busy.
    expect(offThreadDecoders.running).toBe(Math.min(2, DECODE_WORKERS));
    expect(offThreadDecoders.spareBuffers).toBeGreaterThan(0);
    // The seven accepted requests' decoded columns went back to a worker once answered (the refused
    // one was decoded by the main thread's row path); the rows read back above were written first.
    expect(offThreadDecoders.released - released).toBe(7);
  }, 60_000);
});

describe('proto requests decoded in slices that take turns', () => {
  it('requests of more rows than one decoding slice, written at once, read back cell for cell', async () => {
    // A request of more than WRITE_DECODE_SLICE_ROWS rows is decoded in slices with a yield between
    // them, and a worker (or the main thread) starts the next request meanwhile: each must keep
    // writing into its own columns.
    const ROWS_BIG = WRITE_DECODE_SLICE_ROWS + 1_500;
    await q(`CREATE TABLE ${D}.slices (k INT64, s STRING, f FLOAT64, b BOOL)`);
    const descriptor = await descriptorOf(t.bq, D, 'slices');
    const type = (protobuf.Type as unknown as { fromDescriptor(d: unknown): protobuf.Type }).fromDescriptor(DP.fromObject(descriptor.toJSON()));
    new protobuf.Root().add(type);
    const requests = Array.from({ length: 6 }, (_, i) => {
      const serializedRows = Array.from({ length: ROWS_BIG }, (_, j) => {
        const k = i * ROWS_BIG + j;
        return type.encode(type.fromObject(j % 11 === 0 ? { k } : { k, s: k % 2 ? `s${k}` : `a value longer than twelve bytes ${k}`, f: -k / 8, b: k % 3 === 0 })).finish();
      });
      return { ...(i === 0 ? { writeStream: `${tableName(P, D, 'slices')}/streams/_default` } : {}), protoRows: { ...(i === 0 ? { writerSchema: { protoDescriptor: descriptor.toJSON() } } : {}), rows: { serializedRows } } };
    });
    const responses = await appendRequests(gapic, requests);
    expect(responses.map((r) => r.error ?? null)).toEqual(requests.map(() => null));
    const [r] = await q(`SELECT COUNT(*) n, COUNT(DISTINCT k) d,
      COUNTIF(IF(MOD(k, ${ROWS_BIG}) IN (${Array.from({ length: Math.ceil(ROWS_BIG / 11) }, (_, m) => 11 * m).join(',')}), s IS NOT NULL OR f IS NOT NULL OR b IS NOT NULL,
        s IS NULL OR s != IF(MOD(k, 2) = 1, CONCAT('s', CAST(k AS STRING)), CONCAT('a value longer than twelve bytes ', CAST(k AS STRING))) OR f IS NULL OR f != -k / 8 OR b IS NULL OR b != (MOD(k, 3) = 0))) bad
      FROM ${D}.slices`);
    expect(r).toEqual({ n: 6 * ROWS_BIG, d: 6 * ROWS_BIG, bad: 0 });
  }, 60_000);
});

describe('Arrow batches decoded in a worker', () => {
  const N = 3_000;
  /** An IPC stream of N rows: k = i (NULL at `nullK`), f = i / 8 (NULL every 7th), s with NULLs, non-ASCII and long values. */
  const ipcOf = (nullK?: number) =>
    tableToIPC(
      new Table({
        k: vectorFromArray(Array.from({ length: N }, (_, i) => (i === nullK ? null : BigInt(i))), new Int64()),
        f: vectorFromArray(Array.from({ length: N }, (_, i) => (i % 7 === 0 ? null : i / 8)), new Float64()),
        s: vectorFromArray(Array.from({ length: N }, (_, i) => (i % 5 === 0 ? null : i % 3 === 0 ? `é${i}` : `a value longer than twelve bytes ${i}`)), new Utf8()),
      }),
      'stream',
    );

  it('a large batch reads back cell for cell', async () => {
    await q(`CREATE TABLE ${D}.arrow (k INT64 NOT NULL, f FLOAT64, s STRING)`);
    const ipc = ipcOf();
    expect(ipc.length).toBeGreaterThan(OFF_THREAD_MIN_BYTES);
    const before = offThreadDecoders.decoded;
    const responses = await appendArrowIpc(gapic, `${tableName(P, D, 'arrow')}/streams/_default`, ipc);
    expect(responses.map((r) => r.error ?? null)).toEqual([null]);
    expect(offThreadDecoders.decoded).toBe(before + 1);
    const [r] = await q(`SELECT COUNT(*) n, COUNT(DISTINCT k) d,
      COUNTIF(IF(MOD(k, 7) = 0, f IS NOT NULL, f IS NULL OR f != k / 8)) bad_f,
      COUNTIF(IF(MOD(k, 5) = 0, s IS NOT NULL, s IS NULL OR s != IF(MOD(k, 3) = 0, CONCAT('é', CAST(k AS STRING)), CONCAT('a value longer than twelve bytes ', CAST(k AS STRING))))) bad_s
      FROM ${D}.arrow`);
    expect(r).toEqual({ n: N, d: N, bad_f: 0, bad_s: 0 });
  }, 60_000);

  it('a NULL in a REQUIRED column: the row error, nothing written', async () => {
    await q(`CREATE TABLE ${D}.arrow_req (k INT64 NOT NULL, f FLOAT64, s STRING)`);
    const before = offThreadDecoders.decoded;
    const responses = await appendArrowIpc(gapic, `${tableName(P, D, 'arrow_req')}/streams/_default`, ipcOf(2_500));
    expect(responses).toHaveLength(1);
    expect((responses[0]!.rowErrors as { index: unknown; code: unknown; message: unknown }[]).map((e) => [String(e.index), e.code, e.message])).toEqual([['2500', 'FIELDS_ERROR', 'Field value of k cannot be empty.']]);
    expect(offThreadDecoders.decoded).toBe(before);
    expect(await q(`SELECT COUNT(*) n FROM ${D}.arrow_req`)).toEqual([{ n: 0 }]);
  }, 60_000);
});
