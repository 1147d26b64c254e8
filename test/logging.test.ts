/**
 * The structured log (src/config/logger.ts): `bqemu serve --log-level debug` writes JSON lines —
 * the server listening with its port, the analyzer child spawned with its pid, each job's start
 * and end (job id, statement type, duration_ms) — and `--log-level silent` writes none. Driven
 * through a real `@google-cloud/bigquery` client against a spawned `bin/bqemu.js`. The analyzer
 * child's standard error is logged line by line, bounded (src/analyzer/process.ts StderrLines).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { afterEach, describe, expect, it } from 'vitest';
import { pino, type Logger } from 'pino';
import { StderrLines, STDERR_TAIL_LINES } from '../src/analyzer/process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGTERM');
      await new Promise((r) => c.once('exit', r));
    }
  }
});

/**
 * Starts `bin/bqemu.js serve` on ports it picks itself (`--port 0 --grpc-port 0`: no race for a port
 * looked up beforehand, and no clash with an emulator serving on the default ports); resolves once
 * it serves, with its output so far (growing) and the REST port its serving line names.
 */
async function serve(args: string[]): Promise<{ bq: BigQuery; out: { stdout: string; stderr: string }; port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/bqemu.js'), 'serve', '--port', '0', '--grpc-port', '0', '--project', 'log-project', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BQEMU_LOG_LEVEL: '' },
  });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d) => (out.stdout += d));
  child.stderr!.on('data', (d) => (out.stderr += d));
  const deadline = Date.now() + 60_000;
  while (!/REST v2 on http:\/\/127\.0\.0\.1:\d+ /.test(out.stdout)) {
    if (child.exitCode !== null) throw new Error(`emulator exited: ${out.stdout}${out.stderr}`);
    if (Date.now() > deadline) throw new Error(`emulator did not start: ${out.stdout}${out.stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const port = Number(/REST v2 on http:\/\/127\.0\.0\.1:(\d+) /.exec(out.stdout)![1]);
  const bq = new BigQuery({ projectId: 'log-project', apiEndpoint: `http://127.0.0.1:${port}`, authClient: new PassThroughClient() as never, autoRetry: false, maxRetries: 0 });
  return { bq, out, port, child };
}

/** The JSON lines of a text (other lines, such as the "bqemu serving" banner, skipped). */
function jsonLines(text: string): Record<string, any>[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);
}

describe('bqemu serve --log-level', () => {
  it('debug: JSON lines for listening, the analyzer spawn and each job start and end', async () => {
    const { bq, out, port } = await serve(['--log-level', 'debug']);
    const [rows] = await bq.query({ query: 'SELECT 17 AS n' });
    expect(rows).toEqual([{ n: 17 }]);
    await new Promise((r) => setTimeout(r, 200));
    const lines = jsonLines(out.stdout);
    const listening = lines.find((l) => l.msg === 'server listening');
    expect(listening).toMatchObject({ level: 30, component: 'server', port, projectId: 'log-project' });
    const spawned = lines.find((l) => l.msg === 'analyzer spawned');
    expect(spawned).toMatchObject({ level: 30, component: 'analyzer' });
    expect(spawned!.childPid).toBeGreaterThan(0);
    const start = lines.find((l) => l.msg === 'job start');
    expect(start).toMatchObject({ level: 20, component: 'jobs', projectId: 'log-project', kind: 'QUERY' });
    const end = lines.find((l) => l.msg === 'job end' && l.jobId === start!.jobId);
    expect(end).toMatchObject({ level: 20, component: 'jobs', statementType: 'SELECT' });
    expect(typeof end!.duration_ms).toBe('number');
    // Requests are not logged without --log.
    expect(lines.filter((l) => l.msg === 'incoming request')).toEqual([]);
  });

  it('debug: a query error is logged at job end with BigQuery\'s reason, and the analyzer\'s original text', async () => {
    const { bq, out } = await serve(['--log-level', 'debug']);
    await expect(bq.query({ query: 'SELECT nope' })).rejects.toThrow('Unrecognized name: nope at [1:8]');
    await new Promise((r) => setTimeout(r, 200));
    const lines = jsonLines(out.stdout);
    expect(lines.find((l) => l.msg === 'analyzer error mapped')).toMatchObject({ component: 'analyzer', original: 'Unrecognized name: nope [at 1:8]', reason: 'invalidQuery' });
    expect(lines.find((l) => l.msg === 'job end' && l.error)).toMatchObject({ error: { reason: 'invalidQuery', message: 'Unrecognized name: nope at [1:8]' } });
  });

  it('info: an analyzer child killed from outside is logged at warn with its pid and signal, then replaced', async () => {
    const { bq, out } = await serve(['--log-level', 'info']);
    await bq.query({ query: 'SELECT 1 AS n' });
    const first = jsonLines(out.stdout).find((l) => l.msg === 'analyzer spawned')!;
    process.kill(first.childPid, 'SIGKILL');
    const deadline = Date.now() + 30_000;
    while (!jsonLines(out.stdout).some((l) => l.msg === 'analyzer exited unexpectedly') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const [rows] = await bq.query({ query: 'SELECT 2 AS n' });
    expect(rows).toEqual([{ n: 2 }]);
    const lines = jsonLines(out.stdout);
    expect(lines.find((l) => l.msg === 'analyzer exited unexpectedly')).toMatchObject({ level: 40, component: 'analyzer', childPid: first.childPid, code: null, signal: 'SIGKILL' });
    expect(lines.find((l) => l.msg === 'analyzer process replaced')).toMatchObject({ level: 40, component: 'analyzer', childPid: first.childPid });
    const respawned = lines.filter((l) => l.msg === 'analyzer spawned').map((l) => l.childPid);
    expect(respawned.length).toBeGreaterThanOrEqual(2);
    expect(respawned.at(-1)).not.toBe(first.childPid);
  });

  it('silent: nothing but the banner, on either stream', async () => {
    const { bq, out } = await serve(['--log-level', 'silent', '--log']);
    const [rows] = await bq.query({ query: 'SELECT 1 AS n' });
    expect(rows).toEqual([{ n: 1 }]);
    await new Promise((r) => setTimeout(r, 200));
    expect(out.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^bqemu serving BigQuery REST v2 on http:\/\/127\.0\.0\.1:\d+ /)]);
    expect(out.stderr).toBe('');
  });

  it('--log: each request is logged once, through the same logger (fastify\'s lines carry component server)', async () => {
    const { bq, out } = await serve(['--log']);
    await bq.dataset('no_such_ds').exists();
    await new Promise((r) => setTimeout(r, 200));
    const lines = jsonLines(out.stdout);
    const incoming = lines.filter((l) => l.msg === 'incoming request' && l.req?.url?.includes('no_such_ds'));
    expect(incoming).toHaveLength(1);
    expect(incoming[0]).toMatchObject({ level: 30, component: 'server', req: { method: 'GET' } });
    const completed = lines.filter((l) => l.msg === 'request completed' && l.reqId === incoming[0]!.reqId);
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ res: { statusCode: 404 } });
  });

  it('info (the default): listening is logged, jobs are not', async () => {
    const { bq, out } = await serve([]);
    await bq.query({ query: 'SELECT 1 AS n' });
    await new Promise((r) => setTimeout(r, 200));
    const lines = jsonLines(out.stdout);
    expect(lines.some((l) => l.msg === 'server listening')).toBe(true);
    expect(lines.some((l) => l.msg === 'job start' || l.msg === 'job end')).toBe(false);
  });
});

describe('analyzer standard error', () => {
  /** A logger collecting its lines. */
  function collecting(): { log: Logger; lines: Record<string, any>[] } {
    const lines: Record<string, any>[] = [];
    const log: Logger = pino({ level: 'debug' }, { write: (s: string) => lines.push(JSON.parse(s)) });
    return { log, lines };
  }

  it('is logged line by line at warn, lines split across chunks joined', () => {
    const { log, lines } = collecting();
    const s = new StderrLines(log, 42);
    s.push('E1126 first li');
    s.push('ne\r\nsecond line\n');
    s.push('unterminated');
    s.end();
    expect(lines.map((l) => [l.level, l.childPid, l.stderr])).toEqual([
      [40, 42, 'E1126 first line'],
      [40, 42, 'second line'],
      [40, 42, 'unterminated'],
    ]);
    expect(s.tail).toEqual(['E1126 first line', 'second line', 'unterminated']);
  });

  it('is bounded: a chatty child logs a limited number of lines, keeps only the last ones, and cuts long lines', () => {
    const { log, lines } = collecting();
    const s = new StderrLines(log, 1);
    for (let i = 0; i < 5000; i++) s.push(`line ${i}\n`);
    s.push('x'.repeat(1_000_000));
    s.push('y'.repeat(1_000_000));
    s.end();
    expect(lines.length).toBeLessThan(300);
    expect(lines.at(-1)!.msg).toMatch(/more than \d+ lines, the rest is not logged/);
    expect(s.tail).toHaveLength(STDERR_TAIL_LINES);
    expect(s.tail.at(-2)).toBe('line 4999');
    expect(s.tail.at(-1)!.length).toBeLessThanOrEqual(2000);
  });
});
