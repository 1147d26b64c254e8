/**
 * `tsx bench/analyzer-start.ts [--runs N]`: where the ZetaSQL analyzer child's start-up goes, each
 * step timed from the spawn: the unix socket bound (the server listening), the first RPC answered
 * (GetLanguageOptions), the first ExtractTableNamesFromNextStatement and the first and second
 * Analyze of `SELECT 1` with the builtin function catalog, plus the child's CPU (/proc) after
 * each. Spawns the binary directly (no launcher, no setpriv). Plain timing, no assertions.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { zetasqlDir } from '../src/analyzer/process.js';
import { serviceConstructor } from '../src/analyzer/local-service.js';
import { bigQueryLanguageOptions } from '../src/analyzer/options.js';
import { CATALOG_FUNCTIONS } from '../src/analyzer/catalog-functions.js';
import { cpuMsOfTree } from './process.js';

const argv = process.argv.slice(2);
const runs = argv.includes('--runs') ? Number(argv[argv.indexOf('--runs') + 1]) : 5;
const log = (s: string) => process.stdout.write(s + '\n');
const t = performance.now();
const Ctor = serviceConstructor();
log(`protos + client class: ${(performance.now() - t).toFixed(0)} ms`);

type Client = Record<string, (req: object, cb: (e: unknown, r: any) => void) => void> & grpc.Client;
const rpc = (c: Client, m: string, req: object) => new Promise<any>((res, rej) => c[m]!(req, (e, r) => (e ? rej(e) : res(r))));

const rows: Record<string, number[]> = {};
const add = (k: string, v: number) => (rows[k] ??= []).push(v);
for (let i = 0; i < runs; i++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-astart-'));
  const sock = path.join(dir, 'zs.sock');
  const t0 = performance.now();
  const child = spawn(path.join(zetasqlDir(), 'remote_server.so'), [`unix:${sock}`, '0'], { stdio: 'ignore' });
  try {
    while (!fs.existsSync(sock + ':0')) await new Promise((r) => setTimeout(r, 1));
    add('socket bound', performance.now() - t0);
    add('  cpu', cpuMsOfTree(child.pid!));
    const c = new Ctor(`unix:${sock}:0`, grpc.credentials.createInsecure()) as unknown as Client;
    const max = await rpc(c, 'getLanguageOptions', { maximumFeatures: true });
    add('GetLanguageOptions answered', performance.now() - t0);
    add('  cpu ', cpuMsOfTree(child.pid!));
    const languageOptions = bigQueryLanguageOptions(max);
    await rpc(c, 'extractTableNamesFromNextStatement', { parseResumeLocation: { input: 'SELECT 1', bytePosition: 0, allowResume: true }, options: languageOptions });
    add('first ExtractTableNames answered', performance.now() - t0);
    const analyze = () => rpc(c, 'analyze', {
      options: { languageOptions, defaultTimezone: 'UTC', errorMessageMode: 'ERROR_MESSAGE_ONE_LINE', pruneUnusedColumns: true },
      simpleCatalog: { name: '', builtinFunctionOptions: { languageOptions }, customFunction: CATALOG_FUNCTIONS },
      sqlStatement: 'SELECT 1',
    });
    let s = performance.now();
    await analyze();
    add('first Analyze answered', performance.now() - t0);
    add('  first Analyze alone', performance.now() - s);
    add('  cpu  ', cpuMsOfTree(child.pid!));
    s = performance.now();
    await analyze();
    add('  second Analyze alone', performance.now() - s);
    c.close();
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [k, v] of Object.entries(rows)) log(`${k.padEnd(34)} median ${median(v).toFixed(0).padStart(5)} ms  [${v.map((x) => x.toFixed(0)).join(', ')}]`);
log(`load average ${os.loadavg()[0].toFixed(2)}`);
process.exit(0);
