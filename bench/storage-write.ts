/**
 * The Storage Write API cases of `npm run bench` (`--only write` runs them alone): N rows (default
 * 1M) of (INT64, FLOAT64, STRING) appended to a spawned emulator (`node bin/bqemu.js serve`) —
 *
 * - through the managed writer (`managedwriter.JSONWriter` on the `_default` stream, batches of
 *   BATCH rows, IN_FLIGHT appends pipelined): the client's JSON → proto encoding is timed apart
 *   (the same rows encoded alone) and subtracted for the server-side rate;
 * - through raw AppendRows with pre-serialised requests (every AppendRowsRequest encoded before
 *   the clock starts, written as bytes on a grpc-js bidi call by a client process of its own,
 *   bench/append-rows-process.ts, whose CPU is reported apart): the client's cost is only gRPC
 *   framing, so the wall time is the server's (decode, DuckDB append and commit, answer) —
 *   on the `_default` stream and on a COMMITTED stream with offsets, and with Arrow batches;
 *
 * next to DuckDB's appender in the same run (the same rows into a separate in-memory DuckDB, same
 * `@duckdb/node-api`, one transaction). Each server case reports its wall time and the emulator's
 * CPU time (all its threads: the machine is shared, and CPU time barely depends on its load);
 * `BQEMU_WRITE_BASELINE=<checkout>` runs the same server cases on another (built) checkout first,
 * for a before/after pair in one run. Also the decoders alone in this process (the row decoder
 * src/wire/write-rows.ts and the columnar one src/wire/write-proto-columns.ts on the same rows),
 * and the event loop's longest stall while an in-process emulator takes the raw appends, and the
 * routes from decoded columns into DuckDB on raw DuckDB (bench/storage-write-chunks.ts).
 * Targets: ≥ 1M rows/s server-side for proto and Arrow batches (server-side: the wall time less
 * the client floor — the same client and requests against a server that answers at once,
 * bench/append-rows-floor-server.cjs — as the REST cases' `bqemu − floor`), ≤ 2× the appender.
 */
import * as grpc from '@grpc/grpc-js';
import { adapt, managedwriter } from '@google-cloud/bigquery-storage';
import { PassThroughClient } from 'google-auth-library';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import protobuf from 'protobufjs';
import descriptorExt from 'protobufjs/ext/descriptor/index.js';
import { startEmulator } from '../src/server/server.js';
import { protoRowDecoder } from '../src/wire/write-rows.js';
import { columnarProtoDecoder } from '../src/wire/write-proto-columns.js';
import { cpuMsOfTree, ensureFreshBuild, spawnEmulator, type Spawned } from './process.js';
import { Target } from './target.js';
import { duckAppenderMs, runChunkRoutesBench } from './storage-write-chunks.js';
import { loopDelaySince, mainThreadCpuMs, preloadLoopDelay, type LoopDelays } from './storage-write-loop.js';
import { appendRowsFloorServer, appendRowsProcess } from './append-rows-process.js';

const require = createRequire(import.meta.url);
const BATCH = 10_000;
const IN_FLIGHT = 4;
/** Raw batches appended before the measured cases. */
const WARM_BATCHES = 10;
const P = 'bench-project';

interface Row {
  id: number;
  f: number;
  s: string;
}
export const rowsOf = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: i + 1, f: (i + 1) / 7, s: `v${i + 1}` }));

const storageSchema = adapt.convertBigQuerySchemaToStorageTableSchema({
  fields: [
    { name: 'id', type: 'INTEGER' },
    { name: 'f', type: 'FLOAT' },
    { name: 's', type: 'STRING' },
  ],
});
const descriptorProto = adapt.convertStorageSchemaToProto2Descriptor(storageSchema, 'root');
// As JSON (what the managed writer sends, Writer.appendRows): set fields only, no prototype defaults.
const descriptor = descriptorProto.toJSON();
const columns = [
  { name: 'id', type: { kind: 'INT64' as const }, required: false },
  { name: 'f', type: { kind: 'FLOAT64' as const }, required: false },
  { name: 's', type: { kind: 'STRING' as const }, required: false },
];

/** The row message type of `descriptor` (protobufjs's descriptor extension), for pre-serialising rows. */
function rowType(): protobuf.Type {
  const d = (descriptorExt as unknown as { DescriptorProto: protobuf.Type }).DescriptorProto.fromObject(descriptor as object);
  const t = (protobuf.Type as unknown as { fromDescriptor(d: unknown): protobuf.Type }).fromDescriptor(d);
  new protobuf.Root().add(t);
  return t;
}

/** storage.proto's AppendRowsRequest and ProtoRows (the client library's protos.json). */
function storageTypes() {
  const root = protobuf.Root.fromJSON(require('@google-cloud/bigquery-storage/build/protos/protos.json'));
  return {
    request: root.lookupType('google.cloud.bigquery.storage.v1.AppendRowsRequest'),
    protoRows: root.lookupType('google.cloud.bigquery.storage.v1.ProtoRows'),
  };
}

/** Serialized rows of `rows` in batches of BATCH. */
export function serializeBatches(rows: Row[]): Uint8Array[][] {
  const t = rowType();
  const out: Uint8Array[][] = [];
  for (let i = 0; i < rows.length; i += BATCH) out.push(rows.slice(i, i + BATCH).map((r) => t.encode(t.fromObject(r)).finish()));
  return out;
}

/** Every AppendRowsRequest of a raw run, encoded (offsets when `withOffsets`). */
export function encodeRequests(stream: string, batches: Uint8Array[][], withOffsets: boolean): Buffer[] {
  const { request } = storageTypes();
  let offset = 0;
  return batches.map((serializedRows, i) => {
    const msg: Record<string, unknown> = { protoRows: { rows: { serializedRows } } };
    if (i === 0) Object.assign(msg, { writeStream: stream, protoRows: { writerSchema: { protoDescriptor: descriptor }, rows: { serializedRows } } });
    if (withOffsets) msg.offset = { value: offset };
    offset += serializedRows.length;
    return Buffer.from(request.encode(request.fromObject(msg)).finish());
  });
}

/**
 * AppendRows requests carrying `rows` as Arrow record batches of BATCH rows (apache-arrow's IPC
 * stream format: the first request also carries the schema message as `writerSchema`).
 */
export function encodeArrowRequests(stream: string, rows: Row[]): Buffer[] {
  const { request } = storageTypes();
  const out: Buffer[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const slice = rows.slice(i, i + BATCH);
    const ipc = Buffer.from(
      tableToIPC(
        // Plain Utf8 strings (tableFromArrays would dictionary-encode them), as BigQuery's Arrow STRING.
        new Table({
          id: vectorFromArray(BigInt64Array.from(slice, (r) => BigInt(r.id))),
          f: vectorFromArray(Float64Array.from(slice, (r) => r.f)),
          s: vectorFromArray(slice.map((r) => r.s), new Utf8()),
        }),
        'stream',
      ),
    );
    // An IPC stream: the schema message (continuation marker, length, metadata), the batch message, the end marker.
    const schemaEnd = 8 + ipc.readInt32LE(4);
    const batch = ipc.subarray(schemaEnd, ipc.length - 8);
    const msg: Record<string, unknown> = { arrowRows: { rows: { serializedRecordBatch: batch } } };
    if (i === 0) Object.assign(msg, { writeStream: stream, arrowRows: { writerSchema: { serializedSchema: ipc.subarray(0, schemaEnd) }, rows: { serializedRecordBatch: batch } } });
    out.push(Buffer.from(request.encode(request.fromObject(msg)).finish()));
  }
  return out;
}

/** Appends `rows` through JSONWriter on the `_default` stream; ms from the first append to the last acknowledgment. */
async function jsonWriterAppend(grpcPort: number, table: string, rows: Row[]): Promise<number> {
  const client = new managedwriter.WriterClient({ servicePath: '127.0.0.1', port: grpcPort, sslCreds: grpc.credentials.createInsecure(), projectId: P, authClient: new PassThroughClient() as never });
  const connection = await client.createStreamConnection({ streamId: managedwriter.DefaultStream, destinationTable: table });
  const writer = new managedwriter.JSONWriter({ connection, protoDescriptor: descriptorProto });
  try {
    const t0 = performance.now();
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < rows.length; i += BATCH) {
      pending.push(writer.appendRows(rows.slice(i, i + BATCH) as never).getResult().then((r) => {
        if ((r as { error?: { message?: string } }).error) throw new Error(`append refused: ${(r as { error: { message: string } }).error.message}`);
      }));
      if (pending.length >= IN_FLIGHT) await pending.shift();
    }
    await Promise.all(pending);
    return performance.now() - t0;
  } finally {
    writer.close();
    client.close();
  }
}

/** The client's JSON → proto encoding of `rows` alone (what JSONWriter spends before sending), ms. */
function jsonEncodeMs(rows: Row[]): number {
  const t = rowType();
  const t0 = performance.now();
  for (const r of rows) t.encode(t.fromObject(r)).finish();
  return performance.now() - t0;
}

/** src/wire/write-rows.ts decoding the serialized batches in this process, ms. */
function decodeMs(batches: Uint8Array[][]): number {
  const dec = protoRowDecoder(descriptor, columns);
  const t0 = performance.now();
  for (const b of batches) dec.decode(b);
  return performance.now() - t0;
}

/** src/wire/write-proto-columns.ts decoding the same rows as serialized ProtoRows messages (what a request carries), ms. */
async function columnarDecodeMs(batches: Uint8Array[][]): Promise<number> {
  const protoRows = storageTypes().protoRows;
  const encoded = batches.map((serializedRows) => protoRows.encode({ serializedRows }).finish());
  const dec = columnarProtoDecoder(protoRowDecoder(descriptor, columns).protoType!, columns)!;
  const t0 = performance.now();
  for (const b of encoded) if (!(await dec.decodeProtoRows!(b))) throw new Error('columnar decoder refused the bench rows');
  return performance.now() - t0;
}

/**
 * The longest event-loop stall and the 99th percentile of the delays (5 ms timer), ms, while an
 * in-process emulator takes the raw appends of `batches` from the client process
 * (bench/append-rows-process.ts) — after one warm-up append to another
 * table (which starts the decoding worker, as the spawned cases' warm-up does).
 */
export async function eventLoopStallMs(batches: Uint8Array[][]): Promise<{ max: number; p99: number }> {
  const emu = await startEmulator({ port: 0, grpcPort: 0, projectId: P });
  try {
    const target = new Target('loop', emu.url, emu.projectId, 'sw_loop');
    await target.bq.createDataset('sw_loop');
    await target.query('CREATE TABLE sw_loop.t (id INT64, f FLOAT64, s STRING)');
    await target.query('CREATE TABLE sw_loop.warm (id INT64, f FLOAT64, s STRING)');
    const address = `127.0.0.1:${emu.grpcPort}`;
    await (await appendRowsProcess(address, encodeRequests(`projects/${P}/datasets/sw_loop/tables/warm/streams/_default`, batches.slice(0, 1), false), IN_FLIGHT)).go();
    const client = await appendRowsProcess(address, encodeRequests(`projects/${P}/datasets/sw_loop/tables/t/streams/_default`, batches, false), IN_FLIGHT);
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    await client.go();
    h.disable();
    return { max: h.max / 1e6, p99: h.percentile(99) / 1e6 };
  } finally {
    await emu.close();
  }
}

const rate = (n: number, ms: number) => `${((n / ms) * 1000 / 1e6).toFixed(2)} M`;

/** Wall and server CPU ms of one case (CPU: /proc utime + stime of the emulator's process tree, 10 ms ticks; `main`: its main thread's). */
interface Timed {
  ms: number;
  cpu: number;
  main?: number;
  /** The emulator's event-loop delays over the case (bench/storage-write-loop.ts). */
  loop?: LoopDelays;
  /** The raw cases' client (bench/append-rows-client.cjs, a process of its own): its CPU ms over the span. */
  client?: number;
  /**
   * The raw cases' client floor: wall ms of the same client and requests against a server that
   * answers at once without reading them (bench/append-rows-floor-server.cjs), as the REST cases'
   * floor (bench/replay.ts); the server-side time is `ms - floor`.
   */
  floor?: number;
}

/** The cases of a run with their labels, for the per-thread table. */
const loopRows = (tag: string, c: ServerCases): [string, Timed][] => [
  [`${tag}raw proto, _default`, c.rawDefault],
  [`${tag}raw proto, COMMITTED with offsets`, c.rawCommitted],
  [`${tag}raw Arrow, _default`, c.rawArrow],
  [`${tag}JSONWriter (server side)`, c.json],
];

/** The server-side cases on one spawned emulator (the checkout at `root`). */
interface ServerCases {
  rawDefault: Timed;
  rawCommitted: Timed;
  rawArrow: Timed;
  json: Timed;
  counts: Record<string, unknown>;
}

/** Raw proto (_default, COMMITTED with offsets), raw Arrow and JSONWriter appends of `rows` to an emulator spawned from `root`. */
async function serverCases(rows: Row[], batches: Uint8Array[][], log: (s: string) => void, root?: string): Promise<ServerCases> {
  let emu: Spawned | undefined;
  try {
    emu = await spawnEmulator(30_000, root);
    const pid = emu.child.pid!;
    const timed = async (f: () => Promise<number>): Promise<Timed> => {
      await loopDelaySince(pid);
      const cpu0 = cpuMsOfTree(pid);
      const main0 = mainThreadCpuMs(pid);
      const ms = await f();
      const cpu = cpuMsOfTree(pid) - cpu0;
      const main = mainThreadCpuMs(pid) - main0;
      return { ms, cpu, main, loop: await loopDelaySince(pid) };
    };
    // A raw case: the client spawned and connected first, then the span timed (bench/append-rows-process.ts).
    const timedRaw = async (requests: Buffer[]): Promise<Timed> => {
      const client = await appendRowsProcess(address, requests, IN_FLIGHT);
      let clientCpu = 0;
      const t = await timed(async () => {
        const r = await client.go();
        clientCpu = r.cpu;
        return r.ms;
      });
      // The client floor: the same requests against the floor server, right after.
      const floorServer = await appendRowsFloorServer();
      try {
        const floor = await (await appendRowsProcess(floorServer.address, requests, IN_FLIGHT)).go();
        return { ...t, client: clientCpu, floor: floor.ms };
      } finally {
        floorServer.stop();
      }
    };
    const target = new Target('bqemu', emu.url, emu.projectId, 'sw_bench');
    await target.bq.createDataset('sw_bench');
    const tableName = (t: string) => `projects/${emu!.projectId}/datasets/sw_bench/tables/${t}`;
    for (const t of ['json', 'raw_default', 'raw_committed', 'raw_arrow', 'warm']) await target.query(`CREATE TABLE sw_bench.${t} (id INT64, f FLOAT64, s STRING)`);
    const address = `127.0.0.1:${emu.grpcPort}`;
    // Warm-up: WARM_BATCHES raw batches (the decoding workers' and the append path's code compiled,
    // as in an emulator that has been taking appends: after one batch, the first 1M-row _default
    // case took 2.69–3.08 s of server CPU and the same case run next 1.41–2.58 s, load 9–18) and
    // one JSONWriter batch.
    await (await appendRowsProcess(address, encodeRequests(`${tableName('warm')}/streams/_default`, batches.slice(0, WARM_BATCHES), false), IN_FLIGHT)).go();
    await jsonWriterAppend(emu.grpcPort, tableName('warm'), rows.slice(0, BATCH));
    const rawDefaultReq = encodeRequests(`${tableName('raw_default')}/streams/_default`, batches, false);
    const rawDefault = await timedRaw(rawDefaultReq);
    log(`  raw AppendRows, _default: ${rawDefault.ms.toFixed(0)} ms, server CPU ${rawDefault.cpu} ms`);
    const writeGapic = new managedwriter.WriterClient({ servicePath: '127.0.0.1', port: emu.grpcPort, sslCreds: grpc.credentials.createInsecure(), projectId: P, authClient: new PassThroughClient() as never });
    const committed = await writeGapic.createWriteStream({ streamType: managedwriter.CommittedStream, destinationTable: tableName('raw_committed') });
    writeGapic.close();
    const committedReq = encodeRequests(committed, batches, true);
    const rawCommitted = await timedRaw(committedReq);
    log(`  raw AppendRows, COMMITTED with offsets: ${rawCommitted.ms.toFixed(0)} ms, server CPU ${rawCommitted.cpu} ms`);
    const arrowReq = encodeArrowRequests(`${tableName('raw_arrow')}/streams/_default`, rows);
    const rawArrow = await timedRaw(arrowReq);
    log(`  raw AppendRows, Arrow batches, _default: ${rawArrow.ms.toFixed(0)} ms, server CPU ${rawArrow.cpu} ms`);
    const json = await timed(() => jsonWriterAppend(emu!.grpcPort, tableName('json'), rows));
    log(`  JSONWriter: ${json.ms.toFixed(0)} ms, server CPU ${json.cpu} ms`);
    // Rows, and cells that differ from the rows written (rowsOf: id, id / 7, 'v' || id), per table.
    const check = (t: string) => `(SELECT FORMAT('%d rows, %d wrong', COUNT(*), COUNTIF(s IS NULL OR s != CONCAT('v', CAST(id AS STRING)) OR f IS NULL OR f != id / 7)) FROM sw_bench.${t})`;
    const counts = await target.query(`SELECT ${check('json')} AS j, ${check('raw_default')} AS d, ${check('raw_committed')} AS c, ${check('raw_arrow')} AS a`);
    return { rawDefault, rawCommitted, rawArrow, json, counts: counts[0] as Record<string, unknown> };
  } finally {
    await emu?.stop();
  }
}

/**
 * Runs the Storage Write cases on `rows` rows; returns the markdown report. `baseline`: another
 * checkout (built: `npm run build` there) whose emulator runs the same server-side cases first, in
 * the same run, for a before/after pair (`BQEMU_WRITE_BASELINE=/path npm run bench -- --only write`).
 */
export async function runStorageWriteBench(opts: { rows: number; log: (s: string) => void; baseline?: string }): Promise<string> {
  const { rows: n, log } = opts;
  const baseline = opts.baseline ?? process.env.BQEMU_WRITE_BASELINE;
  if (ensureFreshBuild()) log('src/ was newer than dist/: built it first (npm run build)');
  preloadLoopDelay();
  const rows = rowsOf(n);
  log(`write: serializing ${n} rows (client side, untimed)…`);
  const batches = serializeBatches(rows);
  let before: ServerCases | undefined;
  if (baseline) {
    log(`write: baseline ${baseline}`);
    before = await serverCases(rows, batches, log, baseline);
  }
  log('write: this checkout');
  const now = await serverCases(rows, batches, log);
  const encode = jsonEncodeMs(rows);
  log(`  JSONWriter's client encoding alone ${encode.toFixed(0)} ms`);
  const appender = await duckAppenderMs(rows);
  log(`  DuckDB appender: ${appender.ms.toFixed(0)} ms, CPU ${appender.cpu.toFixed(0)} ms`);
  const decode = decodeMs(batches);
  log(`  decoder alone (src/wire/write-rows.ts): ${decode.toFixed(0)} ms`);
  const columnarDecode = await columnarDecodeMs(batches);
  log(`  columnar decoder alone (src/wire/write-proto-columns.ts): ${columnarDecode.toFixed(0)} ms`);
  const stall = await eventLoopStallMs(batches);
  log(`  event loop, in-process emulator: longest stall ${stall.max.toFixed(1)} ms, p99 ${stall.p99.toFixed(1)} ms`);
  const chunkRoutes = await runChunkRoutesBench(n, log);
  const check = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const line = (label: string, t: Timed) =>
    `| ${label} | ${n} | ${t.ms.toFixed(0)} | ${rate(n, t.ms)} | ${(t.ms / appender.ms).toFixed(2)}× | ${t.cpu.toFixed(0)} | ${rate(n, t.cpu)} | ${(t.cpu / appender.cpu).toFixed(2)}× | ${t.client === undefined ? '–' : t.client.toFixed(0)} | ${t.floor === undefined ? '–' : t.floor.toFixed(0)} | ${t.floor === undefined ? '–' : rate(n, t.ms - t.floor)} |`;
  const lines = (tag: string, c: ServerCases) => {
    const serverJson = { ms: Math.max(c.json.ms - encode, 1), cpu: c.json.cpu };
    return [
      line(`${tag}raw AppendRows, pre-serialised proto rows, _default stream`, c.rawDefault),
      line(`${tag}raw AppendRows, pre-serialised proto rows, COMMITTED stream with offsets`, c.rawCommitted),
      line(`${tag}raw AppendRows, Arrow record batches, _default stream`, c.rawArrow),
      line(`${tag}JSONWriter, _default stream, end to end (server CPU: the emulator's)`, c.json),
      line(`${tag}JSONWriter minus its client encoding (${encode.toFixed(0)} ms)`, serverJson),
    ];
  };
  const best = now.rawDefault.cpu <= now.rawCommitted.cpu ? now.rawDefault : now.rawCommitted;
  const bestWall = Math.min(now.rawDefault.ms, now.rawCommitted.ms);
  // Server-side time: the wall time less the client floor (the client's own time against a server
  // that answers at once), as the REST cases' `bqemu − floor`.
  const serverSide = (t: Timed) => Math.max(t.ms - (t.floor ?? 0), 1);
  const bestServer = Math.min(serverSide(now.rawDefault), serverSide(now.rawCommitted));
  return [
    `| case | rows | wall ms | rows/s (wall) | × appender (wall) | server CPU ms | rows per server CPU-s | × appender (CPU) | client CPU ms | client floor ms | rows/s server-side (wall − floor) |`,
    `|---|---|---|---|---|---|---|---|---|---|---|`,
    ...(before ? lines('before: ', before) : []),
    ...lines(before ? 'after: ' : '', now),
    `| DuckDB appender, same rows, one transaction (CPU: this process) | ${n} | ${appender.ms.toFixed(0)} | ${rate(n, appender.ms)} | 1.00× | ${appender.cpu.toFixed(0)} | ${rate(n, appender.cpu)} | 1.00× | – | – | – |`,
    `| the server's row decoder alone (src/wire/write-rows.ts, no gRPC, no DuckDB) | ${n} | ${decode.toFixed(0)} | ${rate(n, decode)} | – | – | – | – | – | – | – |`,
    `| the columnar decoder alone (src/wire/write-proto-columns.ts; in the worker thread for requests ≥ 8 KB) | ${n} | ${columnarDecode.toFixed(0)} | ${rate(n, columnarDecode)} | – | – | – | – | – | – | – |`,
    '',
    `Rows in the tables afterwards, and cells that differ from the rows written: ${JSON.stringify(now.counts)}${before ? ` (baseline ${JSON.stringify(before.counts)})` : ''}. Batches of ${BATCH} rows, ${IN_FLIGHT} appends in flight.`,
    'Server CPU: user + system time of the spawned emulator and its children over the case (all threads: V8, GC, DuckDB), a measure that, unlike the wall time, barely depends on the machine\'s load.',
    '',
    'Targets — wall-time throughput; the same server-side, the client floor taken off (the client\'s own time with the same',
    'requests against a server that answers at once, as the REST cases\' `bqemu − floor`); and per second of server CPU (all',
    'threads; with the decoding worker the CPU rate is a lower bound of what two free cores give):',
    `- ≥ 1M rows/s server-side for proto batches: wall ${rate(n, bestWall)} — ${check((n / bestWall) * 1000 >= 1e6)}; wall − client floor ${rate(n, bestServer)} — ${check((n / bestServer) * 1000 >= 1e6)}; CPU ${rate(n, best.cpu)} — ${check((n / best.cpu) * 1000 >= 1e6)}`,
    `- ≥ 1M rows/s server-side for Arrow batches: wall ${rate(n, now.rawArrow.ms)} — ${check((n / now.rawArrow.ms) * 1000 >= 1e6)}; wall − client floor ${rate(n, serverSide(now.rawArrow))} — ${check((n / serverSide(now.rawArrow)) * 1000 >= 1e6)}; CPU ${rate(n, now.rawArrow.cpu)} — ${check((n / now.rawArrow.cpu) * 1000 >= 1e6)}`,
    `- ≤ 2× DuckDB's appender: wall ${(bestWall / appender.ms).toFixed(2)}× — ${check(bestWall <= 2 * appender.ms)}; CPU ${(best.cpu / appender.cpu).toFixed(2)}× — ${check(best.cpu <= 2 * appender.cpu)}`,
    `- event loop never blocked > ~50 ms (spawned emulator, the longest delay over the raw proto _default case, 1 ms timer): ${now.rawDefault.loop?.max ?? 'n/a'} ms — ${check((now.rawDefault.loop?.max ?? Infinity) <= 50)}; over all its cases: ${Math.max(...loopRows('', now).map(([, t]) => t.loop?.max ?? Infinity))} ms`,
    `- the same in an in-process emulator (the raw client in its own process, 5 ms timer): longest ${stall.max.toFixed(1)} ms (p99 ${stall.p99.toFixed(1)} ms)`,
    `- columnar decoder's share of the raw _default append (wall; off the main thread): ${((columnarDecode / now.rawDefault.ms) * 100).toFixed(0)}%`,
    '',
    'Main thread vs the other threads (the decoding worker, DuckDB\'s threads, V8\'s helpers, the analyzer) — on two free',
    'cores the two sides run side by side, so n / max(main, other) bounds the wall-time rate there:',
    '',
    '| case | main-thread CPU ms | other CPU ms | rows/s bound on two free cores | emulator event-loop delay p50 / p99 / max ms |',
    '|---|---|---|---|---|',
    ...[...(before ? loopRows('before: ', before) : []), ...loopRows(before ? 'after: ' : '', now)].map(
      ([label, t]) => `| ${label} | ${t.main ?? 0} | ${t.cpu - (t.main ?? 0)} | ${rate(n, Math.max(t.main ?? 0, t.cpu - (t.main ?? 0)))} | ${t.loop ? `${t.loop.p50} / ${t.loop.p99} / ${t.loop.max}` : 'n/a'} |`,
    ),
    '',
    'Routes from decoded columns into DuckDB (bench/storage-write-chunks.ts):',
    '',
    chunkRoutes,
  ].join('\n');
}
