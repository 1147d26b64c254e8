// The recorded Storage Read API fixtures (conformance/README.md "Storage Read API recordings"):
// the copy in conformance/grpc/storage_read/ matches its provenance.json; every fixture is replayed
// against the emulator through the official clients (src/conformance/grpc-replay.ts); a fixture in
// conformance/grpc/pending.json must fail (so the list only shrinks) and every other must pass.
// When the emulator serves no gRPC port, every fixture fails, which only the pending list allows.
//
// The harness itself is checked against a stub BigQueryRead server (Google's published protos from
// @google-cloud/bigquery-storage) that answers sr_create_session_one_stream with the rows of its
// setup.sql: the faithful answer passes, and each departure from the recording is named.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRPC_COPIES, verifyCopy } from '../conformance/copies.js';
import { discoverGrpcFixtures, grpcVerdict, loadGrpcPending, recordedDiffs, shrinkGrpcPending, toRecordedForm } from '../src/conformance/grpc-fixtures.js';
import { grpcTargetOf, replayGrpcFixture, replayGrpcFixtures, type GrpcReplayResult } from '../src/conformance/grpc-replay.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

const fixtures = discoverGrpcFixtures();
const pending = loadGrpcPending();
const byId = (id: string) => fixtures.find((f) => f.id === id)!;

describe('conformance/grpc/storage_read', () => {
  it('holds the 16 recordings, unmodified, as provenance.json lists them', () => {
    expect(GRPC_COPIES.map((c) => c.name)).toEqual(['grpc-storage-read']);
    const c = GRPC_COPIES[0]!;
    const p = JSON.parse(readFileSync(join(c.root, 'provenance.json'), 'utf8'));
    expect(p.imported_from).toBe('shared/corpus/bigquery-recorded/grpc/storage_read');
    expect(Object.keys(p.sha256)).toHaveLength(48);
    expect(verifyCopy(c)).toEqual([]);
    expect(fixtures).toHaveLength(16);
  });

  it('pending.json names existing fixtures, each with a reason', () => {
    const ids = new Set(fixtures.map((f) => f.id));
    expect(Object.keys(pending).filter((id) => !ids.has(id))).toEqual([]);
    for (const [id, reason] of Object.entries(pending)) expect(reason.trim().length, id).toBeGreaterThan(0);
  });
});

describe('the comparison with a recording', () => {
  const recorded = byId('storage_read/sr_create_session_multi_stream').expected[0]!.response as Record<string, unknown>;

  it('"<*>" matches any present value; a recorded key the answer lacks is a difference', () => {
    const answer = { ...(recorded as object), name: 'projects/p/locations/us/sessions/s1', expire_time: { seconds: '1' }, extra_default: '' };
    expect(recordedDiffs(recorded, answer, 'response')).toEqual([]);
    const { trace_id: _drop, ...lacking } = answer as Record<string, unknown>;
    expect(recordedDiffs(recorded, lacking, 'response')).toEqual(['response.trace_id: missing']);
  });

  it('arrays keep their recorded length: four streams for a 10-row table is a difference', () => {
    const answer = { ...(recorded as object), streams: [1, 2, 3, 4].map((i) => ({ name: `s${i}` })) };
    expect(recordedDiffs(recorded, answer, 'response')).toEqual(['response.streams: expected 1 items, got 4']);
  });

  it('client answers take the recorded form: snake_case keys, bytes as base64', () => {
    expect(toRecordedForm({ arrowRecordBatch: { serializedRecordBatch: Buffer.from('ab'), rowCount: '0' } })).toEqual({ arrow_record_batch: { serialized_record_batch: 'YWI=', row_count: '0' } });
  });

  it('the pending list only shrinks, and the verdict names failures outside it and passes inside it', () => {
    expect(shrinkGrpcPending({ b: 'x', a: 'y', gone: 'z' }, new Set(['a', 'b', 'new']))).toEqual({ a: 'y', b: 'x' });
    const v = grpcVerdict(
      [
        { id: 'a', pass: false },
        { id: 'b', pass: true },
        { id: 'c', pass: false },
        { id: 'd', pass: true },
      ],
      { a: 'r', b: 'r' },
    );
    expect(v).toEqual({ failing: ['c'], passingPending: ['b'], pending: ['a'], passing: ['d'] });
  });
});

describe('replay of every recording against the emulator', () => {
  let t: TestEmulator;
  let results: GrpcReplayResult[] = [];

  beforeAll(async () => {
    t = await startTestEmulator({ grpcPort: 0 });
    results = await replayGrpcFixtures(fixtures, { bq: t.bq, projectId: t.projectId, grpc: grpcTargetOf(t.emu) });
  }, 180_000);
  afterAll(async () => {
    await t?.emu.close();
  });

  it.each(fixtures.map((f) => f.id))('%s: passes, or fails while pending', (id) => {
    const r = results.find((x) => x.id === id)!;
    // A setup failure is a bug of the emulator's REST side, never an expected pending failure.
    expect(r.diffs.filter((d) => d.startsWith('setup.sql failed'))).toEqual([]);
    if (Object.hasOwn(pending, id)) expect(r.pass, `${id} passes: remove it from conformance/grpc/pending.json (npm run corpus:grpc -- --update-pending)`).toBe(false);
    else expect(r.diffs).toEqual([]);
  });
});

/** Splits an Arrow IPC stream into its schema message and its first record batch message (Arrow IPC "Encapsulated message format"). */
function ipcMessages(stream: Uint8Array): { schema: Buffer; batch: Buffer } {
  const buf = Buffer.from(stream);
  const schemaLen = 8 + buf.readInt32LE(4); // continuation marker, metadata length, metadata (a schema has no body)
  const eos = 8; // continuation marker and a zero length
  return { schema: buf.subarray(0, schemaLen), batch: buf.subarray(schemaLen, buf.length - eos) };
}

describe('the harness against a stub BigQueryRead server', () => {
  const fx = byId('storage_read/sr_create_session_one_stream');
  // The rows of the fixture's setup.sql.
  const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
  const ipc = ipcMessages(
    tableToIPC(
      tableFromArrays({ id: BigInt64Array.from(names.map((_n, i) => BigInt(i + 1))), value: names, category: names.map((_n, i) => (i % 2 ? 'b' : 'a')) }),
      'stream',
    ),
  );
  let t: TestEmulator;
  let server: grpc.Server;
  let port = 0;
  let streams = 1;
  let rowCount = '10';

  beforeAll(async () => {
    t = await startTestEmulator();
    const require = createRequire(import.meta.url);
    const json = require('@google-cloud/bigquery-storage/build/protos/protos.json');
    const def = protoLoader.fromJSON(json, { keepCase: false, longs: String, enums: String, defaults: true, oneofs: true });
    const pkg = grpc.loadPackageDefinition(def) as unknown as { google: { cloud: { bigquery: { storage: { v1: { BigQueryRead: { service: grpc.ServiceDefinition } } } } } } };
    server = new grpc.Server();
    server.addService(pkg.google.cloud.bigquery.storage.v1.BigQueryRead.service, {
      createReadSession: (call: grpc.ServerUnaryCall<{ readSession: { table: string } }, unknown>, cb: grpc.sendUnaryData<unknown>) =>
        cb(null, {
          name: 'projects/p/locations/us/sessions/s',
          expireTime: { seconds: '1' },
          dataFormat: 'ARROW',
          arrowSchema: { serializedSchema: ipc.schema },
          table: call.request.readSession.table,
          streams: Array.from({ length: streams }, (_x, i) => ({ name: `projects/p/locations/us/sessions/s/streams/${i}` })),
          estimatedTotalBytesScanned: '100',
          estimatedRowCount: '10',
          estimatedTotalPhysicalFileSize: '100',
          traceId: '',
        }),
      readRows: (call: grpc.ServerWritableStream<unknown, unknown>) => {
        call.write({ arrowRecordBatch: { serializedRecordBatch: ipc.batch, rowCount: '0' }, rowCount, stats: { progress: { atResponseStart: 0, atResponseEnd: 1 } }, arrowSchema: { serializedSchema: ipc.schema } });
        call.end();
      },
      splitReadStream: (_call: unknown, cb: grpc.sendUnaryData<unknown>) => cb({ code: grpc.status.UNIMPLEMENTED, details: 'stub' }),
    });
    port = await new Promise<number>((ok, fail) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? fail(e) : ok(p))));
  }, 60_000);
  afterAll(async () => {
    server?.forceShutdown();
    await t?.emu.close();
  });

  const replay = () => replayGrpcFixture(fx, { bq: t.bq, projectId: t.projectId, grpc: { host: '127.0.0.1', port } });

  it('a faithful answer passes (setup.sql ran, the batch decodes to the recorded row count)', async () => {
    streams = 1;
    rowCount = '10';
    expect(await replay()).toEqual({ id: fx.id, pass: true, diffs: [] });
  });

  it('names each departure: stream count, row count, a batch that does not hold its row_count', async () => {
    streams = 2;
    rowCount = '9';
    const r = await replay();
    expect(r.pass).toBe(false);
    expect(r.diffs).toEqual([
      'calls[0] CreateReadSession: response.streams: expected 1 items, got 2',
      'calls[1] ReadRows: responses[0].row_count: expected "10", got "9"',
      'calls[1] ReadRows: responses[0]: row_count 9 but the batch decodes to 10 rows',
    ]);
  });

  it('compares the status of a failing call', async () => {
    const split = byId('storage_read/sr_split_read_stream');
    streams = 1;
    const r = await replayGrpcFixture(split, { bq: t.bq, projectId: t.projectId, grpc: { host: '127.0.0.1', port } });
    expect(r.diffs).toEqual(['calls[1] SplitReadStream: status UNIMPLEMENTED (stub), recorded OK']);
  });
});
