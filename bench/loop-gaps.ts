/**
 * `tsx bench/loop-gaps.ts PROFILE.cpuprofile GAPS.jsonl [--top N]`: what the emulator's main thread
 * ran during each event-loop block that bench/loop-gaps-preload.cjs recorded. For every gap it
 * prints its length and the functions the CPU profile (`--cpu-prof`, the main thread's file)
 * sampled inside it — garbage collection as `GC`, other frames named by the nearest function of the
 * emulator's own code — then how many gaps each function led. Both files use CLOCK_MONOTONIC
 * microseconds. A gap whose samples are mostly idle was the thread waiting for a CPU, not working.
 *
 * Usage with the fuzz run: `BQEMU_CPU_PROF_DIR=/tmp/prof BQEMU_NODE_FLAGS="--require
 * $PWD/bench/loop-gaps-preload.cjs" BQEMU_LOOP_GAPS_FILE=/tmp/gaps.jsonl npm run fuzz -- --minutes 3`.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const { positionals, values } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' } } });
const [profileFile, gapsFile] = positionals;
if (!profileFile || !gapsFile) throw new Error('usage: tsx bench/loop-gaps.ts PROFILE.cpuprofile GAPS.jsonl [--top N]');
const p = JSON.parse(fs.readFileSync(profileFile, 'utf8')) as Profile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** The nearest function of the emulator's own code (its bundle or src/) above a sample, else the sample's own. */
function label(n: ProfileNode): string {
  for (let m: ProfileNode | undefined = n, k = 0; m && k < 200; k++, m = byId.get(parent.get(m.id)!)) {
    const name = m.callFrame.functionName;
    if (/main\.cjs|\/src\//.test(m.callFrame.url) && name && !/^(run|next|step|fulfilled|rejected)$/.test(name)) return name;
  }
  return n.callFrame.functionName || '(anonymous)';
}

const times: number[] = [];
let t = p.startTime;
for (const d of p.timeDeltas) times.push((t += d));
const gaps = fs
  .readFileSync(gapsFile, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as [number, number])
  .filter(([a, b]) => a >= p.startTime && b <= t);

const rows: { ms: number; idle: number; top: [string, number][] }[] = [];
const leads = new Map<string, number>();
for (const [a, b] of gaps) {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < a) lo = mid + 1;
    else hi = mid;
  }
  const by = new Map<string, number>();
  let idle = 0;
  for (let i = lo; i < times.length && times[i] <= b; i++) {
    const node = byId.get(p.samples[i])!;
    const ms = p.timeDeltas[i] / 1000;
    const f = node.callFrame.functionName;
    if (f === '(idle)') idle += ms;
    else {
      const k = f === '(garbage collector)' ? 'GC' : f === '(program)' ? '(program)' : label(node);
      by.set(k, (by.get(k) ?? 0) + ms);
    }
  }
  const top = [...by].sort((x, y) => y[1] - x[1]);
  if (top[0]) leads.set(top[0][0], (leads.get(top[0][0]) ?? 0) + 1);
  rows.push({ ms: (b - a) / 1000, idle, top });
}
rows.sort((x, y) => y.ms - x.ms);
console.log(`${gaps.length} event-loop blocks in the profile's span`);
for (const r of rows.slice(0, Number(values.top)))
  console.log(`${r.ms.toFixed(0).padStart(6)} ms  idle ${r.idle.toFixed(0).padStart(4)} | ${r.top.slice(0, 4).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
console.log('--- blocks led by each function');
for (const [k, v] of [...leads].sort((x, y) => y[1] - x[1]).slice(0, 25)) console.log(`${String(v).padStart(6)}  ${k}`);
