/**
 * `tsx bench/cold-start.ts [--runs N] [--rss-queries N]`: cold start of a spawned emulator
 * (spawn `node bin/bqemu.js serve` → first answered `SELECT 1` through REST, polled every 5 ms)
 * over N spawns (default 7), reporting each run and the median; then, with `--rss-queries N`,
 * the RSS of the last spawned emulator over N small queries (process.ts `rssRun`). Runs the
 * compiled build (process.ts `ensureFreshBuild`). `--root DIR` spawns another checkout's
 * bin/bqemu.js (its dist/ as it is), for a before/after pair; `--against DIR` alternates spawns of
 * this checkout and DIR's (one of each per run: the machine's load moves both alike) and reports
 * both. Plain timing, no assertions.
 */
import os from 'node:os';
import { cpuMsOfTree, ensureFreshBuild, rssRun, spawnEmulator } from './process.js';

const argv = process.argv.slice(2);
const opt = (name: string, d: number) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : d;
};
const runs = opt('--runs', 7);
const rssQueries = opt('--rss-queries', 0);
const log = (s: string) => process.stdout.write(s + '\n');
const rootAt = argv.indexOf('--root');
const root = rootAt >= 0 ? argv[rootAt + 1] : undefined;

if (!root && ensureFreshBuild()) log('built dist/ first');
const againstAt = argv.indexOf('--against');
if (againstAt >= 0) {
  const other = argv[againstAt + 1]!;
  const pairs: Record<string, { ms: number[]; cpu: number[] }> = { [other]: { ms: [], cpu: [] }, [root ?? 'this checkout']: { ms: [], cpu: [] } };
  for (let i = 0; i < runs; i++) {
    for (const [name, dir] of [[other, other], [root ?? 'this checkout', root]] as const) {
      const s = await spawnEmulator(30_000, dir);
      pairs[name]!.ms.push(s.coldStartMs);
      pairs[name]!.cpu.push(s.coldStartCpuMs);
      await s.stop();
    }
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const [name, r] of Object.entries(pairs))
    log(`${name}: wall median ${med(r.ms).toFixed(0)} ms [${r.ms.map((x) => x.toFixed(0)).join(', ')}]; CPU median ${med(r.cpu)} ms [${r.cpu.join(', ')}]`);
  log(`load average ${os.loadavg()[0].toFixed(2)}`);
  process.exit(0);
}
const ms: number[] = [];
const cpu: number[] = [];
for (let i = 0; i < runs; i++) {
  const s = await spawnEmulator(30_000, root);
  ms.push(s.coldStartMs);
  cpu.push(s.coldStartCpuMs);
  const keep = i === runs - 1 && rssQueries > 0;
  if (!keep) {
    await s.stop();
    continue;
  }
  try {
    const marks = [...new Set([100, 1000, 2500, 5000, rssQueries])].filter((m) => m <= rssQueries);
    const cpu0 = cpuMsOfTree(s.child.pid!);
    const r = await rssRun(s, marks, () => {});
    // CPU, not wall time, per query: on a shared machine the wall time mostly measures the load.
    const cpuPerQuery = (cpuMsOfTree(s.child.pid!) - cpu0) / rssQueries;
    log(r.launcherMb === undefined ? 'no analyzer launcher within 10 s' : `analyzer launcher up before the first sample: ${r.launcherMb.toFixed(1)} MB (in every analyzer figure)`);
    for (const p of r.points) log(`RSS after ${p.queries} queries: node ${p.nodeMb.toFixed(1)} MB + analyzer ${p.childrenMb.toFixed(1)} MB`);
    const at = (n: number) => r.points.find((p) => p.queries === n)!;
    const from = at(Math.min(100, rssQueries));
    const to = at(rssQueries);
    log(`RSS growth ${from.queries} → ${to.queries} queries: node ${(to.nodeMb - from.nodeMb).toFixed(1)} MB, analyzer ${(to.childrenMb - from.childrenMb).toFixed(1)} MB; ${r.msPerQuery.toFixed(2)} ms per query (wall), ${cpuPerQuery.toFixed(2)} ms CPU per query (emulator + analyzer)`);
  } finally {
    await s.stop();
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
log(`cold start of ${root ?? 'this checkout'} (spawn → first answered SELECT 1): median ${median(ms).toFixed(0)} ms over ${runs} runs [${ms.map((x) => x.toFixed(0)).join(', ')}] ms`);
log(`CPU used by then (emulator + analyzer processes): median ${median(cpu).toFixed(0)} ms [${cpu.map((x) => x.toFixed(0)).join(', ')}] ms; load average ${os.loadavg()[0].toFixed(2)}`);
process.exit(0);
