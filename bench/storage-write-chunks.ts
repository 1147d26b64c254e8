/**
 * How decoded columns get into DuckDB cheapest — the routes `@duckdb/node-api` 1.5 and
 * `@duckdb/node-bindings` offer (no Arrow scan is exposed by this build's bindings), each appending
 * N rows of (BIGINT, DOUBLE, VARCHAR) to a fresh in-memory table in one transaction, CPU time of
 * this process (min of REPS runs), for short values (≤ 12 bytes: DuckDB keeps them inline in the
 * 16-byte string cell) and long ones (27+ bytes: stored in the vector's string heap):
 *
 * - the appender, one call per cell (`appendBigInt`/`appendDouble`/`appendVarchar`/`endRow`);
 * - node-api's data chunk vectors: typed-array copy for numbers, `setItem` per string;
 * - src/engine/storage-write-chunks.ts on JS strings: numbers copied, one binding call per string;
 * - src/engine/storage-write-chunks.ts on string cells (src/wire/write-rows-cells.ts): numbers and
 *   string cells copied, long values pointed into one copy of the chunk's bytes in DuckDB's string
 *   heap — the Write API's columnar path;
 * - building those string cells from UTF-8 bytes alone (done in the decoding worker).
 *
 * Run alone: `npx tsx bench/storage-write-chunks.ts [rows]`; part of `npm run bench -- --only write`.
 */
import { DuckDBDataChunk, DuckDBInstance, BIGINT, DOUBLE, VARCHAR, type DuckDBAppender } from '@duckdb/node-api';
import { appendColumns } from '../src/engine/storage-write-chunks.js';
import { cellsColumn, type WriteColumnBatch } from '../src/wire/write-rows-columnar.js';
import { stringCells, type StringCells } from '../src/wire/write-rows-cells.js';

const REPS = 3;

/** The columns of `n` rows, strings short (`v<i>`) or long. */
function columnsOf(n: number, long: boolean) {
  const ids = new BigInt64Array(n);
  const fs = new Float64Array(n);
  const ss: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    ids[i] = BigInt(i + 1);
    fs[i] = (i + 1) / 7;
    ss[i] = long ? `value number ${i + 1} of the bench` : `v${i + 1}`;
  }
  const bytes = Buffer.from(ss.join(''));
  const offsets = new Int32Array(n + 1);
  for (let i = 0, o = 0; i < n; i++) {
    offsets[i] = o;
    o += Buffer.byteLength(ss[i]!);
    offsets[i + 1] = o;
  }
  return { ids, fs, ss, bytes, offsets, valid: new Uint8Array(n).fill(1) };
}

type Cols = ReturnType<typeof columnsOf>;

const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** Min CPU ms of REPS runs of `fill` into a fresh table (create appender … commit); checks the row count. */
async function timed(n: number, fill: (a: DuckDBAppender) => Promise<void> | void): Promise<number> {
  let best = Infinity;
  for (let rep = 0; rep < REPS; rep++) {
    const inst = await DuckDBInstance.create(':memory:');
    const c = await inst.connect();
    try {
      await c.run('CREATE TABLE t (id BIGINT, f DOUBLE, s VARCHAR)');
      const t0 = cpuMs();
      await c.run('BEGIN TRANSACTION');
      const a = await c.createAppender('t');
      await fill(a);
      a.flushSync();
      a.closeSync();
      await c.run('COMMIT');
      best = Math.min(best, cpuMs() - t0);
      const count = Number((await c.runAndReadAll('SELECT COUNT(*) FROM t')).getRows()[0]![0]);
      if (count !== n) throw new Error(`expected ${n} rows, found ${count}`);
    } finally {
      c.closeSync();
      inst.closeSync();
    }
  }
  return best;
}

/** The routes on `d` (see the module docstring); CPU ms each. */
async function routes(n: number, d: Cols) {
  const perCell = await timed(n, (a) => {
    for (let i = 0; i < n; i++) {
      a.appendBigInt(d.ids[i]!);
      a.appendDouble(d.fs[i]!);
      a.appendVarchar(d.ss[i]!);
      a.endRow();
    }
  });
  const setters = await timed(n, (a) => {
    const chunk = DuckDBDataChunk.create([BIGINT, DOUBLE, VARCHAR]);
    for (let at = 0; at < n; at += 2048) {
      const k = Math.min(2048, n - at);
      chunk.rowCount = k;
      const [v0, v1, v2] = [0, 1, 2].map((j) => chunk.getColumnVector(j) as unknown as { items: { set(a: unknown): void }; setItem(i: number, v: unknown): void; flush(): void });
      v0!.items.set(d.ids.subarray(at, at + k) as never);
      v0!.flush();
      v1!.items.set(d.fs.subarray(at, at + k) as never);
      v1!.flush();
      for (let i = 0; i < k; i++) v2!.setItem(i, d.ss[at + i]);
      v2!.flush();
      a.appendDataChunk(chunk);
    }
  });
  const batch = (s: WriteColumnBatch['columns'][number]): WriteColumnBatch => ({ columnar: true, length: n, columns: [{ kind: 'INT64', values: d.ids }, { kind: 'FLOAT64', values: d.fs }, s] });
  const jsStrings = await timed(n, async (a) => void (await appendColumns(a, batch({ kind: 'STRING', values: d.ss }))));
  let cells: StringCells | undefined;
  const build0 = cpuMs();
  for (let rep = 0; rep < REPS; rep++) cells = stringCells(d.bytes, d.offsets, d.valid);
  const build = (cpuMs() - build0) / REPS;
  const copied = await timed(n, async (a) => void (await appendColumns(a, batch(cellsColumn(cells!)))));
  return { perCell, setters, jsStrings, copied, build };
}

/** DuckDB's appender: `rows` into a fresh in-memory table, one transaction; wall ms and this process's CPU ms. */
export async function duckAppenderMs(rows: readonly { id: number; f: number; s: string }[]): Promise<{ ms: number; cpu: number }> {
  const duck = await DuckDBInstance.create(':memory:');
  const c = await duck.connect();
  try {
    await c.run('CREATE TABLE t (id BIGINT, f DOUBLE, s VARCHAR)');
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await c.run('BEGIN TRANSACTION');
    const a = await c.createAppender('t');
    for (const r of rows) {
      a.appendBigInt(BigInt(r.id));
      a.appendDouble(r.f);
      a.appendVarchar(r.s);
      a.endRow();
    }
    a.flushSync();
    a.closeSync();
    await c.run('COMMIT');
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    return { ms, cpu: (cpu.user + cpu.system) / 1000 };
  } finally {
    c.closeSync();
    duck.closeSync();
  }
}

/** The micro-bench's markdown table for `n` rows (short and long strings). */
export async function runChunkRoutesBench(n: number, log: (s: string) => void = () => {}): Promise<string> {
  const out = [
    `| route (raw DuckDB, ${n} rows of BIGINT, DOUBLE, VARCHAR, one transaction; CPU ms, min of ${REPS}) | short strings (≤ 12 bytes) | long strings (27+ bytes) |`,
    '|---|---|---|',
  ];
  const short = await routes(n, columnsOf(n, false));
  log(`  chunk routes, short strings: ${JSON.stringify(short)}`);
  const long = await routes(n, columnsOf(n, true));
  log(`  chunk routes, long strings: ${JSON.stringify(long)}`);
  const row = (label: string, k: keyof typeof short) => `| ${label} | ${short[k].toFixed(0)} | ${long[k].toFixed(0)} |`;
  out.push(
    row('appender, one call per cell (DuckDB appender baseline)', 'perCell'),
    row("node-api data chunk: numbers copied, `setItem` per string (session 9's path)", 'setters'),
    row('src/engine/storage-write-chunks.ts, JS strings: numbers copied, one binding call per string', 'jsStrings'),
    row('src/engine/storage-write-chunks.ts, string cells: numbers and cells copied, long values pointed into one heap copy per chunk', 'copied'),
    row('building the string cells from UTF-8 bytes (src/wire/write-rows-cells.ts; in the decoding worker)', 'build'),
  );
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await runChunkRoutesBench(Number(process.argv[2] ?? 1_000_000), (s) => console.error(s)));
}
