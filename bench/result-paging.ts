/**
 * `tsx bench/result-paging.ts [--root DIR] [--reps N]`: the server-side cost of paging a 1M-row ×
 * 3-column result (INT64, FLOAT64, STRING) through getQueryResults with a raw HTTP client (not
 * `@google-cloud/bigquery`, whose own decoding would be the floor), and of the same query written
 * to a destination table. Prints, per repetition, the CPU ms the spawned emulator (its node process,
 * DuckDB's threads included, and its analyzer children; /proc) used and the wall ms. `--root`
 * spawns another checkout's emulator (a before/after pair in one session); `--no-destination`
 * skips the destination-table case. Plain timing, no
 * assertions; the machine may be loaded, so compare CPU, not wall.
 */
import { cpuMsOfTree, ensureFreshBuild, spawnEmulator, type Spawned } from './process.js';

const ROWS = 1_000_000;

async function rest(emu: Spawned, method: string, p: string, body?: unknown): Promise<any> {
  const r = await fetch(`${emu.url}/bigquery/v2/projects/${emu.projectId}${p}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const j = await r.json();
  if (r.status >= 400) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(j).slice(0, 300)}`);
  return j;
}

/** Pages a query job's result with raw HTTP (100k rows per page); returns the rows and bytes read. */
async function pageAll(emu: Spawned, jobId: string): Promise<{ rows: number; bytes: number }> {
  let token: string | undefined;
  let rows = 0;
  let bytes = 0;
  for (;;) {
    const r = await fetch(`${emu.url}/bigquery/v2/projects/${emu.projectId}/queries/${jobId}?maxResults=100000&timeoutMs=60000${token ? `&pageToken=${token}` : ''}`);
    const text = await r.text();
    bytes += text.length;
    const page = JSON.parse(text);
    if (r.status >= 400) throw new Error(text.slice(0, 300));
    if (!page.jobComplete) continue;
    rows += page.rows?.length ?? 0;
    token = page.pageToken;
    if (!token) return { rows, bytes };
  }
}

async function waitDone(emu: Spawned, jobId: string): Promise<void> {
  for (;;) {
    const j = await rest(emu, 'GET', `/jobs/${jobId}`);
    if (j.status?.state === 'DONE') {
      if (j.status.errorResult) throw new Error(JSON.stringify(j.status.errorResult));
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Runs the measurement on one spawned emulator; returns the markdown lines. */
export async function runPagingBench(root: string | undefined, reps: number, log: (s: string) => void, destination = true): Promise<string[]> {
  const emu = await spawnEmulator(60_000, root);
  const pid = emu.child.pid!;
  const lines: string[] = [];
  try {
    await rest(emu, 'POST', '/datasets', { datasetReference: { projectId: emu.projectId, datasetId: 'pg' } });
    await rest(emu, 'POST', '/queries', {
      query: `CREATE TABLE pg.t AS SELECT id, id / 7 AS f, CONCAT('v', CAST(id AS STRING)) AS s FROM UNNEST(GENERATE_ARRAY(1, ${ROWS})) AS id`,
      useLegacySql: false,
      timeoutMs: 120000,
    });
    for (let rep = 0; rep < reps; rep++) {
      const c0 = cpuMsOfTree(pid);
      const t0 = performance.now();
      const j = await rest(emu, 'POST', '/jobs', { configuration: { query: { query: 'SELECT id, f, s FROM pg.t', useLegacySql: false, useQueryCache: false } } });
      const { rows, bytes } = await pageAll(emu, j.jobReference.jobId);
      if (rows !== ROWS) throw new Error(`paged ${rows} rows`);
      const line = `| page 1M rows × 3 columns | ${rep + 1} | ${cpuMsOfTree(pid) - c0} | ${(performance.now() - t0).toFixed(0)} | ${(bytes / 1e6).toFixed(0)} MB |`;
      lines.push(line);
      log(line);
    }
    for (let rep = 0; destination && rep < reps; rep++) {
      const c0 = cpuMsOfTree(pid);
      const t0 = performance.now();
      const j = await rest(emu, 'POST', '/jobs', {
        configuration: {
          query: {
            query: 'SELECT id, f, s FROM pg.t',
            useLegacySql: false,
            useQueryCache: false,
            destinationTable: { projectId: emu.projectId, datasetId: 'pg', tableId: 'dest' },
            writeDisposition: 'WRITE_TRUNCATE',
          },
        },
      });
      await waitDone(emu, j.jobReference.jobId);
      const line = `| query 1M rows into a destination table (WRITE_TRUNCATE) | ${rep + 1} | ${cpuMsOfTree(pid) - c0} | ${(performance.now() - t0).toFixed(0)} | |`;
      lines.push(line);
      log(line);
    }
  } finally {
    await emu.stop();
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const root = arg('--root');
  if (!root) ensureFreshBuild();
  console.log('| case | rep | server CPU ms | wall ms | bytes |\n|---|---|---|---|---|');
  await runPagingBench(root, Number(arg('--reps') ?? 3), (s) => console.log(s), !process.argv.includes('--no-destination'));
}
