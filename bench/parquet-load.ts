/**
 * `tsx bench/parquet-load.ts [--rows N] [--runs N] [--root DIR]`: a load job of one Parquet file
 * (N rows × 3 columns: INT64, FLOAT64, STRING; default 1,000,000) into a new table, through the
 * REST API (jobs.insert, then jobs.get until DONE) of an in-process emulator. Reports wall ms and
 * the process's CPU ms (DuckDB's threads included) per load, median of `--runs` (default 3).
 * `--root DIR` runs another checkout's src/ (e.g. the main checkout, for a before/after line).
 * Plain timing, no assertions.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';

const argv = process.argv.slice(2);
const opt = (name: string, d: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1]! : d;
};
const rows = Number(opt('--rows', '1000000'));
const runs = Number(opt('--runs', '3'));
const root = path.resolve(opt('--root', path.join(path.dirname(fileURLToPath(import.meta.url)), '..')));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-bench-pq-'));
const gcs = path.join(dir, 'gcs');
fs.mkdirSync(path.join(gcs, 'bkt'), { recursive: true });
process.env.BQEMU_GCS_DIR = gcs;
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run(`COPY (SELECT range AS id, range / 7 AS f, concat('v', range) AS s FROM range(${rows})) TO '${path.join(gcs, 'bkt', 'data.parquet')}' (FORMAT parquet)`);
c.closeSync();

const { startEmulator } = (await import(path.join(root, 'src/server/server.ts'))) as typeof import('../src/server/server.js');
const emu = await startEmulator({ port: 0, grpcPort: 0, projectId: 'bench-project' });
const api = `${emu.url}/bigquery/v2/projects/bench-project`;
const call = async (method: string, url: string, body?: unknown) => {
  const r = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const j = (await r.json()) as any;
  if (r.status !== 200) throw new Error(JSON.stringify(j));
  return j;
};
try {
  await call('POST', `${api}/datasets`, { datasetReference: { datasetId: 'b' } });
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    let job = await call('POST', `${api}/jobs`, {
      configuration: { load: { sourceUris: ['gs://bkt/data.parquet'], sourceFormat: 'PARQUET', destinationTable: { projectId: 'bench-project', datasetId: 'b', tableId: `t${i}` } } },
    });
    while (job.status?.state !== 'DONE') {
      await new Promise((r) => setTimeout(r, 5));
      job = await call('GET', `${api}/jobs/${job.jobReference.jobId}?location=US`);
    }
    if (job.status.errorResult) throw new Error(JSON.stringify(job.status.errorResult));
    if (Number(job.statistics.load.outputRows) !== rows) throw new Error(`outputRows ${job.statistics.load.outputRows}`);
    const u = process.cpuUsage(c0);
    wall.push(performance.now() - t0);
    cpu.push((u.user + u.system) / 1000);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  process.stdout.write(
    `Parquet load job, ${rows.toLocaleString('en')} rows × 3 columns (${root}): median ${median(wall).toFixed(0)} ms wall [${wall.map((x) => x.toFixed(0)).join(', ')}], ${median(cpu).toFixed(0)} ms CPU [${cpu.map((x) => x.toFixed(0)).join(', ')}]; load average ${os.loadavg()[0].toFixed(2)}\n`,
  );
} finally {
  await emu.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
