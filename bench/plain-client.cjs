// `node bench/plain-client.cjs URL PROJECT N SQL` (plain node, no TypeScript loader): sends SQL N
// times in a row through @google-cloud/bigquery's `query` (jobs.query and every page, as the bench
// targets do) to the REST endpoint URL after 10% untimed warm-up queries, and prints one JSON line:
// {wall, cpu} in ms per query (cpu = this process, every thread). Used by bench/query-overhead.ts
// to time the client the way a user's program runs it: under `tsx` every request of the client
// pays a module resolution through tsx's loader thread (teeny-request calls `import('node-fetch')`
// per request), a cost of the harness, not of the client or of the emulator.
'use strict';
const { BigQuery } = require('@google-cloud/bigquery');
const { PassThroughClient } = require('google-auth-library');

async function main() {
  const [url, projectId, nText, sql] = process.argv.slice(2);
  const n = Number(nText);
  const bq = new BigQuery({ projectId, apiEndpoint: url, authClient: new PassThroughClient(), autoRetry: false, maxRetries: 0 });
  const op = () => bq.query({ query: sql, useLegacySql: false, useQueryCache: false });
  for (let i = 0; i < Math.max(1, Math.floor(n / 10)); i++) await op();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await op();
  const wall = (performance.now() - t0) / n;
  const c = process.cpuUsage(c0);
  process.stdout.write(JSON.stringify({ wall, cpu: (c.user + c.system) / 1000 / n }) + '\n');
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + '\n');
  process.exit(1);
});
