/**
 * `npm run bench -- --tpch 0.1[,1]`: the TPC-H-shaped suite (bench/tpch.ts) at each scale factor,
 * printed and written to `bench/results/<YYYY-MM-DD>-tpch.md` with the machine's load average next
 * to every table (the machine is shared: ratios are noisy).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TpchSuite, runTpch, tpchTable } from './tpch.js';
import { tpchCounts } from './tpch-data.js';

/** Runs the suite at every scale factor of `args.tpch`; writes the report unless `args.write` is false. */
export async function runTpchBench(args: { tpch: number[]; tpchIters: number; write: boolean }, log: (s: string) => void): Promise<void> {
  const date = new Date().toISOString().slice(0, 10);
  const parts: string[] = [
    `# TPC-H-shaped suite ${date}`,
    '',
    `\`npm run bench -- ${process.argv.slice(2).join(' ')}\` on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}.`,
    '',
    '- data: bench/tpch-data.ts (seeded SQL generator run in DuckDB, seed 17), written as Parquet and loaded into bqemu by load jobs; the same tables stay in the raw DuckDB',
    '- bqemu = the 22 queries in GoogleSQL through `@google-cloud/bigquery` (jobs.query + every page) against an in-process emulator; lowered = the DuckDB SQL the query job hands DuckDB (recorded from a run through the client), run directly on the emulator\'s DuckDB (rows materialised); raw = the DuckDB-dialect twin on the raw DuckDB (rows materialised)',
    '- answers: bqemu\'s rows compared with raw DuckDB\'s in order, doubles within 1e-9 relative',
    `- timing: p50 of ${args.tpchIters} rounds after 1 warm-up round; in each round bqemu, the lowered SQL and raw DuckDB run in turn (same machine load)`,
    '- CPU = p50 of this process\'s CPU time per run of each in-process side (every thread, DuckDB\'s workers included; bqemu\'s includes the in-process client\'s own work): on a shared machine a steadier figure than wall time, and lowered ÷ raw in CPU tells a lowering cost from load',
    '- own-process client = the same GoogleSQL from `@google-cloud/bigquery` in a separate plain-node process (bench/client-process.ts), as a user\'s program runs it, taking its turn in each round (the in-process column also charges the client a module resolution through tsx\'s loader thread per request, ~0.5 ms of CPU)',
  ];
  for (const sf of args.tpch) {
    const c = tpchCounts(sf);
    const load0 = os.loadavg();
    const t0 = performance.now();
    log(`TPC-H SF ${sf}…`);
    const suite = await TpchSuite.start(sf, log);
    let table: string;
    try {
      table = tpchTable(await runTpch(suite, { iters: args.tpchIters, warmup: 1, log, ownClient: true }));
    } finally {
      await suite.close();
    }
    const load1 = os.loadavg();
    parts.push(
      '',
      `## SF ${sf}`,
      '',
      `${c.orders.toLocaleString('en-US')} orders, ${c.customer.toLocaleString('en-US')} customers, ${c.part.toLocaleString('en-US')} parts, ${c.supplier.toLocaleString('en-US')} suppliers; ` +
        `generated in ${suite.setupMs.generate.toFixed(0)} ms, loaded in ${suite.setupMs.load.toFixed(0)} ms; whole SF run ${((performance.now() - t0) / 1000).toFixed(0)} s.`,
      `Load average (1/5/15 min) ${load0.map((x) => x.toFixed(2)).join('/')} at the start, ${load1.map((x) => x.toFixed(2)).join('/')} at the end (${os.cpus().length} cores shared with other work).`,
      '',
      table,
    );
  }
  const report = parts.join('\n') + '\n';
  process.stdout.write(`\n${report}\n`);
  if (!args.write) return;
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  let file = path.join(dir, `${date}-tpch.md`);
  for (let n = 2; fs.existsSync(file); n++) file = path.join(dir, `${date}-tpch-${n}.md`);
  fs.writeFileSync(file, report);
  process.stdout.write(`results written to ${path.relative(process.cwd(), file)}\n`);
}
