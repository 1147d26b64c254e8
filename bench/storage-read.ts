/**
 * The Storage Read API cases of `npm run bench` (`--only storage` runs them alone): a 10M-row
 * table of (INT64, FLOAT64, STRING) loaded into a spawned emulator (`node bin/bqemu.js serve`, so
 * its RSS is the emulator's alone), read through `@google-cloud/bigquery-storage`'s GAPIC
 * `v1.BigQueryReadClient` (createReadSession + readRows, each `serializedRecordBatch` decoded with
 * apache-arrow `tableFromIPC` after the session's schema — the README recipe's path) with 1 stream
 * and with 4 streams read in parallel; next to raw DuckDB in the same run: the same rows in a
 * separate in-memory DuckDB (same `@duckdb/node-api`) exported to Arrow IPC through the library's
 * public API (chunks streamed, `getColumns()` values → apache-arrow vectors → one IPC record batch
 * per chunk: @duckdb/node-api has no Arrow export of its own), and DuckDB's bare chunk scan (the
 * floor no export can beat). Targets of the Storage Read API: ≥ 3M rows/s end to end, ≤ 1.5× DuckDB's export
 * time, RSS growth < 200 MB while streaming, first batch < 50 ms.
 */
import * as grpc from '@grpc/grpc-js';
import { v1 } from '@google-cloud/bigquery-storage';
import { DuckDBInstance } from '@duckdb/node-api';
import { Float64, Int64, RecordBatch, RecordBatchStreamWriter, Schema, Field, Struct, Utf8, makeData, tableFromIPC, vectorFromArray } from 'apache-arrow';
import { PassThroughClient } from 'google-auth-library';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startEmulator } from '../src/server/server.js';
import { ColumnBatchBuilder } from '../src/engine/duckdb/chunk-columns.js';
import { arrowRecordBatchBytesFromColumns } from '../src/wire/arrow.js';
import { ensureFreshBuild, rssMb, spawnEmulator, type Spawned } from './process.js';
import { Target } from './target.js';

/** One timed read. */
interface ReadRun {
  ms: number;
  rows: number;
  /** ms from the readRows call(s) to the first decoded batch. */
  firstMs: number;
  /** ms of CreateReadSession. */
  sessionMs?: number;
  /** Highest RSS of the emulator during the read minus its RSS just before, MB. */
  rssGrowthMb?: number;
}

type ReadClient = InstanceType<typeof v1.BigQueryReadClient>;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** GoogleSQL (emulator) building `n` rows: id 1..n, f = id / 7, s = 'v<id>' (a 2-level cross join: GENERATE_ARRAY stays small). */
function bqTableSql(table: string, n: number): string {
  const inner = 1000;
  return `CREATE TABLE ${table} AS SELECT a * ${inner} + b AS id, (a * ${inner} + b) / 7 AS f, CONCAT('v', CAST(a * ${inner} + b AS STRING)) AS s
    FROM UNNEST(GENERATE_ARRAY(0, ${n / inner - 1})) AS a CROSS JOIN UNNEST(GENERATE_ARRAY(1, ${inner})) AS b`;
}

/** Reads every stream of a new session of `table` with `streams` streams in parallel, decoding every batch. */
async function readSession(client: ReadClient, table: string, streams: number, pid: number): Promise<ReadRun> {
  const t0 = performance.now();
  const [s] = await client.createReadSession({ parent: `projects/${table.split('/')[1]}`, readSession: { table, dataFormat: 'ARROW' }, maxStreamCount: streams });
  const sessionMs = performance.now() - t0;
  const schema = s.arrowSchema!.serializedSchema as Uint8Array;
  const rss0 = rssMb(pid);
  let rssMax = rss0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMb(pid))), 25);
  const t1 = performance.now();
  let firstMs = -1;
  const one = async (name: string) => {
    let rows = 0;
    for await (const r of client.readRows({ readStream: name, offset: 0 })) {
      const batch = r.arrowRecordBatch!.serializedRecordBatch as Uint8Array;
      const bytes = new Uint8Array(schema.length + batch.length);
      bytes.set(schema);
      bytes.set(batch, schema.length);
      rows += tableFromIPC(bytes).numRows;
      if (firstMs < 0) firstMs = performance.now() - t1;
    }
    return rows;
  };
  try {
    const counts = await Promise.all((s.streams ?? []).map((st) => one(st.name!)));
    rssMax = Math.max(rssMax, rssMb(pid));
    return { ms: performance.now() - t1, rows: counts.reduce((a, b) => a + b, 0), firstMs, sessionMs, rssGrowthMb: rssMax - rss0 };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * Raw DuckDB: the same rows exported to Arrow IPC through @duckdb/node-api's public API
 * (`'public'`, see the module docstring), through the emulator's own vector copy and batch encoder
 * in this process without gRPC (`'bqemu-copy'`: src/engine/duckdb/chunk-columns.ts and
 * src/wire/arrow.ts, batches of 10,240 rows — what ReadRows costs minus the wire and the client),
 * or only scanned (`'scan'`).
 */
async function duckRun(conn: Awaited<ReturnType<DuckDBInstance['connect']>>, mode: 'public' | 'bqemu-copy' | 'scan'): Promise<ReadRun> {
  const exportArrow = mode === 'public';
  const fields = [
    { name: 'id', type: { kind: 'INT64' } as const },
    { name: 'f', type: { kind: 'FLOAT64' } as const },
    { name: 's', type: { kind: 'STRING' } as const },
  ];
  const builder = mode === 'bqemu-copy' ? new ColumnBatchBuilder(fields.map((f) => f.type), [true, true, true]) : undefined;
  const flush = () => {
    const b = builder!.take();
    arrowRecordBatchBytesFromColumns(fields, b.columns, b.rowCount);
  };
  const schema = new Schema([new Field('id', new Int64(), true), new Field('f', new Float64(), true), new Field('s', new Utf8(), true)]);
  const t0 = performance.now();
  let firstMs = -1;
  let rows = 0;
  const r = await conn.stream('SELECT id, f, s FROM t');
  for (let ch = await r.fetchChunk(); ch && ch.rowCount > 0; ch = await r.fetchChunk()) {
    rows += ch.rowCount;
    if (exportArrow) {
      const [id, f, s] = ch.getColumns();
      const children = [
        makeData({ type: new Int64(), length: ch.rowCount, data: BigInt64Array.from(id as bigint[]) }),
        makeData({ type: new Float64(), length: ch.rowCount, data: Float64Array.from(f as number[]) }),
        vectorFromArray(s as string[], new Utf8()).data[0],
      ];
      const data = makeData({ type: new Struct(schema.fields), length: ch.rowCount, nullCount: 0, children });
      RecordBatchStreamWriter.writeAll([new RecordBatch(schema, data)]).toUint8Array(true);
    }
    if (builder) {
      builder.add(ch);
      if (builder.rowCount >= 10_000) flush();
    }
    if (firstMs < 0) firstMs = performance.now() - t0;
  }
  if (builder?.rowCount) flush();
  return { ms: performance.now() - t0, rows, firstMs };
}

/**
 * The event loop while streaming: an in-process emulator (so its event loop is this process's)
 * serving `n` rows to a client in the same process; the longest and the 99th-percentile delay of
 * a 5 ms timer (client decoding included: an upper bound of the emulator's own steps).
 */
async function eventLoopDelay(n: number): Promise<{ maxMs: number; p99Ms: number }> {
  const emu = await startEmulator({ port: 0, grpcPort: 0, projectId: 'loop-project' });
  const client = new v1.BigQueryReadClient({ servicePath: '127.0.0.1', port: emu.grpcPort, sslCreds: grpc.credentials.createInsecure(), projectId: emu.projectId, authClient: new PassThroughClient() as never });
  try {
    const target = new Target('loop', emu.url, emu.projectId, 'loop');
    await target.bq.createDataset('loop');
    await target.query(bqTableSql('loop.t', n));
    const h = monitorEventLoopDelay({ resolution: 5 });
    await readSession(client, `projects/${emu.projectId}/datasets/loop/tables/t`, 1, process.pid); // warm-up
    h.enable();
    await readSession(client, `projects/${emu.projectId}/datasets/loop/tables/t`, 1, process.pid);
    h.disable();
    return { maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6 };
  } finally {
    await client.close();
    await emu.close();
  }
}

/** A markdown row of the median run of `runs`. */
function row(name: string, runs: ReadRun[], duckExportMs?: number): string {
  const m = median(runs.map((r) => r.ms));
  const rows = runs[0].rows;
  const cells = [
    name,
    String(rows),
    runs.map((r) => r.ms.toFixed(0)).join(' / '),
    `${((rows / m) * 1000 / 1e6).toFixed(2)} M`,
    median(runs.map((r) => r.firstMs)).toFixed(1),
    runs[0].sessionMs === undefined ? '–' : median(runs.map((r) => r.sessionMs!)).toFixed(0),
    runs[0].rssGrowthMb === undefined ? '–' : Math.max(...runs.map((r) => r.rssGrowthMb!)).toFixed(0),
    duckExportMs ? `${(m / duckExportMs).toFixed(2)}×` : '–',
  ];
  return `| ${cells.join(' | ')} |`;
}

/**
 * Runs the Storage Read cases (`iters` timed reads each after one warm-up) on `rows` rows; returns
 * the markdown report (table, targets, method).
 */
export async function runStorageBench(opts: { rows: number; iters: number; log: (s: string) => void }): Promise<string> {
  const { rows: n, iters, log } = opts;
  if (ensureFreshBuild()) log('src/ was newer than dist/: built it first (npm run build)');
  let emu: Spawned | undefined;
  const duck = await DuckDBInstance.create(':memory:');
  const conn = await duck.connect();
  let client: ReadClient | undefined;
  try {
    emu = await spawnEmulator();
    const pid = emu.child.pid!;
    const target = new Target('bqemu', emu.url, emu.projectId, 'sr_bench');
    await target.bq.createDataset('sr_bench');
    log(`storage: loading ${n} rows into the emulator…`);
    let t0 = performance.now();
    await target.query(bqTableSql('sr_bench.t', n));
    log(`  ${(performance.now() - t0).toFixed(0)} ms; raw DuckDB…`);
    t0 = performance.now();
    await conn.run(`CREATE TABLE t AS SELECT id, id / 7 AS f, 'v' || id AS s FROM range(1, ${n + 1}) r(id)`);
    log(`  ${(performance.now() - t0).toFixed(0)} ms`);
    client = new v1.BigQueryReadClient({ servicePath: '127.0.0.1', port: emu.grpcPort, sslCreds: grpc.credentials.createInsecure(), projectId: emu.projectId, authClient: new PassThroughClient() as never });
    const table = `projects/${emu.projectId}/datasets/sr_bench/tables/t`;
    const rssStart = rssMb(pid);
    const runs = async (what: string, f: () => Promise<ReadRun>) => {
      const out: ReadRun[] = [];
      for (let i = 0; i <= iters; i++) {
        const r = await f();
        log(`  ${what}: ${r.ms.toFixed(0)} ms, ${r.rows} rows, first batch ${r.firstMs.toFixed(1)} ms${r.rssGrowthMb !== undefined ? `, RSS +${r.rssGrowthMb.toFixed(0)} MB` : ''}${i === 0 ? ' (warm-up)' : ''}`);
        if (i > 0) out.push(r);
      }
      return out;
    };
    // The emulator first: the raw export's garbage (every value a JS object) would slow the client's GC.
    const one = await runs('bqemu 1 stream', () => readSession(client!, table, 1, pid));
    const four = await runs('bqemu 4 streams', () => readSession(client!, table, 4, pid));
    const duckCopy = await runs('duckdb → bqemu vector copy + encoder, no gRPC', () => duckRun(conn, 'bqemu-copy'));
    const duckScan = await runs('duckdb scan', () => duckRun(conn, 'scan'));
    const duckExport = await runs('duckdb arrow export (public API)', () => duckRun(conn, 'public'));
    const loopRows = Math.min(n, 1_000_000);
    log(`storage: event-loop delay, in-process emulator, ${loopRows} rows…`);
    const loop = await eventLoopDelay(loopRows);
    log(`  max ${loop.maxMs.toFixed(1)} ms, p99 ${loop.p99Ms.toFixed(1)} ms`);
    const exportMs = median(duckExport.map((r) => r.ms));
    const best = (rs: ReadRun[]) => (n / median(rs.map((r) => r.ms))) * 1000;
    const firstBatch = median(one.map((r) => r.firstMs));
    const rssGrowth = Math.max(...[...one, ...four].map((r) => r.rssGrowthMb!));
    const check = (ok: boolean) => (ok ? 'met' : 'MISSED');
    return [
      `| case | rows | ms per run | rows/s (median) | first batch ms | CreateReadSession ms | RSS growth MB (max) | × DuckDB export |`,
      `|---|---|---|---|---|---|---|---|`,
      row('bqemu ReadRows, 1 stream (GAPIC client + apache-arrow decode)', one, exportMs),
      row('bqemu ReadRows, 4 streams in parallel', four, exportMs),
      row('raw DuckDB → Arrow IPC (@duckdb/node-api public API + apache-arrow)', duckExport, exportMs),
      row('raw DuckDB → Arrow IPC (bqemu vector copy + batch encoder, no gRPC, no client)', duckCopy, exportMs),
      row('raw DuckDB chunk scan, no export (floor)', duckScan, exportMs),
      '',
      `Emulator RSS before the reads: ${rssStart.toFixed(0)} MB (node process; the analyzer's own processes excluded).`,
      '',
      'Targets:',
      `- ≥ 3M rows/s end to end: 1 stream ${(best(one) / 1e6).toFixed(2)} M, 4 streams ${(best(four) / 1e6).toFixed(2)} M — ${check(Math.max(best(one), best(four)) >= 3e6)}`,
      `- ≤ 1.5× DuckDB's export time: 1 stream ${(median(one.map((r) => r.ms)) / exportMs).toFixed(2)}×, 4 streams ${(median(four.map((r) => r.ms)) / exportMs).toFixed(2)}× — ${check(Math.min(median(one.map((r) => r.ms)), median(four.map((r) => r.ms))) <= 1.5 * exportMs)}`,
      `  (next to the export without gRPC through the emulator's own vector copy: 1 stream ${(median(one.map((r) => r.ms)) / median(duckCopy.map((r) => r.ms))).toFixed(2)}×, 4 streams ${(median(four.map((r) => r.ms)) / median(duckCopy.map((r) => r.ms))).toFixed(2)}× — the cost of gRPC, protobuf and the client's decode)`,
      `- RSS growth while streaming < 200 MB: ${rssGrowth.toFixed(0)} MB — ${check(rssGrowth < 200)}`,
      `- first batch < 50 ms (1 stream, from the readRows call): ${firstBatch.toFixed(1)} ms — ${check(firstBatch < 50)}`,
      `- event loop never blocked > ~50 ms while streaming (in-process emulator and client, ${loopRows} rows, 5 ms timer): max ${loop.maxMs.toFixed(1)} ms, p99 ${loop.p99Ms.toFixed(1)} ms — ${check(loop.maxMs <= 50)}`,
    ].join('\n');
  } finally {
    await client?.close();
    await emu?.stop();
    conn.closeSync();
    duck.closeSync();
  }
}
