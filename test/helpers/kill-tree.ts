/**
 * Spawning `bqemu serve` as a child process and killing it with `kill -9`, for the durability tests
 * (test/durability.test.ts, test/storage-write-durability.test.ts): the analyzer processes are
 * children of the emulator and would outlive a SIGKILLed parent, so they are killed by pid too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Child pids of `pid` and their descendants, read from /proc (empty where /proc is absent). */
export function descendants(pid: number): number[] {
  const kids = new Map<number, number[]>();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(e)]);
    } catch {
      /* exited meanwhile */
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of kids.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/**
 * Spawns `node bin/bqemu.js <args>` and waits (up to 60 s) until it prints its serving line.
 * With `--port 0` the emulator picks a free port itself (no race with other processes for a port
 * chosen beforehand, as a free port looked up first had: EADDRINUSE in a full CI run).
 * @returns the child, the match of the serving line (`[1]`: the gRPC port) and the REST URL it names.
 * @throws when the emulator exits or does not start in time (with its output).
 */
export async function spawnServing(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; serving: RegExpExecArray; restUrl: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/bqemu.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  let m: RegExpExecArray | null;
  while (!(m = /bqemu serving .* on [^ ]+:(\d+) \(project/.exec(out))) {
    if (child.exitCode !== null) throw new Error(`emulator exited: ${out}`);
    if (Date.now() > deadline) throw new Error(`emulator did not start: ${out}`);
    await sleep(20);
  }
  return { child, serving: m, restUrl: /REST v2 on (\S+) /.exec(m[0])![1]! };
}

/** `kill -9` of `child` and of its descendants (the analyzers); resolves once the child is gone. */
export async function killTree(child: ChildProcess): Promise<void> {
  const kids = descendants(child.pid!);
  child.kill('SIGKILL');
  for (const k of kids) {
    try {
      process.kill(k, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  while (child.exitCode === null && child.signalCode === null) await sleep(10);
}
