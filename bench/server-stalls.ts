/**
 * `npm run bench -- --only stalls` (or `tsx bench/server-stalls.ts`): does the server stay
 * responsive while it moves a lot of data? A second client issues `SELECT 1` (jobs.query, raw
 * HTTP) every 10 ms against a spawned emulator while it
 *
 * 1. loads 1M rows × 3 columns from Parquet (a load job from the Cloud Storage folder),
 * 2. answers a 1M-row query and pages through all of it with getQueryResults (raw HTTP),
 * 3. extracts the 1M-row table to CSV in the Cloud Storage folder,
 *
 * and prints, per phase, the probe's p50/p99/max latency (target: p99 ≤ 20 ms,
 * max ≤ 60 ms) next to an idle baseline. Plain timing, no assertions.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { rest, spawnEmulator, type Spawned } from './process.js';

const ROWS = 1_000_000;
const BUCKET = 'bench-stalls';
const PROBE_EVERY_MS = 10;

interface ProbeStats {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN);

/** Probes `SELECT 1` every PROBE_EVERY_MS until stopped; returns the latencies (ms). */
function startProbe(emu: Spawned): { stop(): Promise<number[]> } {
  const ms: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      const r = await fetch(`${emu.url}/bigquery/v2/projects/${emu.projectId}/queries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'SELECT 1', useLegacySql: false }),
      });
      await r.text();
      const took = performance.now() - t0;
      ms.push(took);
      await new Promise((res) => setTimeout(res, Math.max(0, PROBE_EVERY_MS - took)));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return ms;
    },
  };
}

async function waitDone(emu: Spawned, jobId: string): Promise<void> {
  for (;;) {
    const j = await rest(emu, 'GET', `/jobs/${jobId}`);
    if (j.status?.state === 'DONE') {
      if (j.status.errorResult) throw new Error(JSON.stringify(j.status.errorResult));
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Runs `work` while probing; returns the probe's statistics and the work's wall time. */
async function phase(emu: Spawned, work: () => Promise<void>): Promise<ProbeStats & { ms: number }> {
  const probe = startProbe(emu);
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  const lat = (await probe.stop()).sort((a, b) => a - b);
  return { n: lat.length, p50: pct(lat, 0.5), p99: pct(lat, 0.99), max: lat[lat.length - 1] ?? NaN, ms };
}

/** Runs the phases; returns the markdown report. */
export async function runStallBench(log: (s: string) => void, root?: string): Promise<string> {
  const gcs = path.join(os.tmpdir(), 'bqemu-gcs', BUCKET);
  fs.mkdirSync(gcs, { recursive: true });
  const parquet = path.join(gcs, 't1m.parquet');
  const duck = await DuckDBInstance.create(':memory:');
  const c = await duck.connect();
  await c.run(`COPY (SELECT range AS id, range / 7 AS f, concat('v', range) AS s FROM range(${ROWS})) TO '${parquet}' (FORMAT parquet)`);
  c.closeSync();
  const emu = await spawnEmulator(30_000, root);
  const rows: string[] = [];
  try {
    await rest(emu, 'POST', '/datasets', { datasetReference: { projectId: emu.projectId, datasetId: 'st' } });
    const idle = await phase(emu, () => new Promise((r) => setTimeout(r, 2000)));
    const load = await phase(emu, async () => {
      const j = await rest(emu, 'POST', '/jobs', {
        configuration: { load: { sourceUris: [`gs://${BUCKET}/t1m.parquet`], sourceFormat: 'PARQUET', destinationTable: { projectId: emu.projectId, datasetId: 'st', tableId: 't' } } },
      });
      await waitDone(emu, j.jobReference.jobId);
    });
    const result = await phase(emu, async () => {
      const j = await rest(emu, 'POST', '/jobs', { configuration: { query: { query: 'SELECT id, f, s FROM st.t', useLegacySql: false } } });
      let token: string | undefined;
      let n = 0;
      for (;;) {
        const page = await rest(emu, 'GET', `/queries/${j.jobReference.jobId}?maxResults=100000&timeoutMs=60000${token ? `&pageToken=${token}` : ''}`);
        if (!page.jobComplete) continue;
        n += page.rows?.length ?? 0;
        token = page.pageToken;
        if (!token) break;
      }
      if (n !== ROWS) throw new Error(`paged ${n} rows`);
    });
    const extract = await phase(emu, async () => {
      const j = await rest(emu, 'POST', '/jobs', {
        configuration: { extract: { sourceTable: { projectId: emu.projectId, datasetId: 'st', tableId: 't' }, destinationUris: [`gs://${BUCKET}/out/t-*.csv`], destinationFormat: 'CSV' } },
      });
      await waitDone(emu, j.jobReference.jobId);
    });
    const line = (name: string, s: ProbeStats & { ms: number }) => `| ${name} | ${s.ms.toFixed(0)} | ${s.n} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.max.toFixed(1)} |`;
    rows.push(line('idle (2 s)', idle), line('load job: 1M rows × 3 columns from Parquet', load), line('query + page 1M rows × 3 columns (getQueryResults, 100k per page)', result), line('extract 1M rows to CSV', extract));
    for (const r of rows) log(r);
  } finally {
    await emu.stop();
    fs.rmSync(gcs, { recursive: true, force: true });
  }
  return [
    `# Server stalls ${new Date().toISOString().slice(0, 10)}`,
    '',
    `A second client issues \`SELECT 1\` (jobs.query, raw HTTP) every ${PROBE_EVERY_MS} ms while a spawned emulator works; ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} at the end.`,
    'Target: p99 ≤ 20 ms, max ≤ 60 ms.',
    '',
    '| phase | work ms | probes | p50 ms | p99 ms | max ms |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `--root DIR`: another checkout's emulator (a before/after pair); `--no-write`: print only.
  const at = process.argv.indexOf('--root');
  const report = await runStallBench((s) => console.log(s), at >= 0 ? process.argv[at + 1] : undefined);
  if (process.argv.includes('--no-write')) process.exit(0);
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
  const file = path.join(dir, `${new Date().toISOString().slice(0, 10)}-stalls.md`);
  fs.writeFileSync(file, report);
  console.log(`written ${file}`);
}
