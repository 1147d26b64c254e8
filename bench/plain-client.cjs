// `node bench/plain-client.cjs URL PROJECT ITERS WARMUP SQL` (plain node, no TypeScript loader):
// sends SQL through @google-cloud/bigquery's `query` (jobs.query and every page, as the bench
// targets do) to the REST endpoint URL, WARMUP untimed times then ITERS timed times, and prints
// one JSON line: {ms: [wall ms of each timed query], cpu: this process's CPU ms per timed query}.
// `node bench/plain-client.cjs --serve URL PROJECT`: reads one JSON string (a query) per stdin
// line, runs it once and answers one JSON line {ms} (or {error}) per query, until stdin ends.
// Used by bench/client-process.ts to time the client the way a user's program runs it, in a
// process of its own: under `tsx` every request of the client pays a module resolution through
// tsx's loader thread (teeny-request calls `import('node-fetch')` per request, ~0.5 ms of CPU
// measured), a cost of the harness, not of the client or of the emulator.
'use strict';
const { BigQuery } = require('@google-cloud/bigquery');
const { PassThroughClient } = require('google-auth-library');

async function serve(url, projectId) {
  const bq = new BigQuery({ projectId, apiEndpoint: url, authClient: new PassThroughClient(), autoRetry: false, maxRetries: 0 });
  const lines = require('node:readline').createInterface({ input: process.stdin });
  for await (const line of lines) {
    const t0 = performance.now();
    try {
      await bq.query({ query: JSON.parse(line), useLegacySql: false, useQueryCache: false });
      process.stdout.write(JSON.stringify({ ms: performance.now() - t0 }) + '\n');
    } catch (e) {
      process.stdout.write(JSON.stringify({ error: String(e && e.message ? e.message : e).split('\n')[0] }) + '\n');
    }
  }
}

async function main() {
  if (process.argv[2] === '--serve') return serve(process.argv[3], process.argv[4]);
  const [url, projectId, itersText, warmupText, sql] = process.argv.slice(2);
  const bq = new BigQuery({ projectId, apiEndpoint: url, authClient: new PassThroughClient(), autoRetry: false, maxRetries: 0 });
  const op = () => bq.query({ query: sql, useLegacySql: false, useQueryCache: false });
  for (let i = 0; i < Number(warmupText); i++) await op();
  const ms = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < Number(itersText); i++) {
    const t0 = performance.now();
    await op();
    ms.push(performance.now() - t0);
  }
  const c = process.cpuUsage(c0);
  process.stdout.write(JSON.stringify({ ms, cpu: (c.user + c.system) / 1000 / Math.max(1, ms.length) }) + '\n');
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + '\n');
  process.exit(1);
});
