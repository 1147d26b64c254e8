/**
 * The SQL analyzer cannot be wedged (src/analyzer/pool.ts, src/config/analyzer-limits.ts):
 *
 * - texts whose analyzer error would exceed 64 KiB (a 65,600-character text, 100,000-character
 *   names, 50,000-digit literals) answer a 400 in Google's error shape, and afterwards a NEW query
 *   text still answers (before, every later new text stayed RUNNING for good);
 * - a slow analysis (a 10,000-CTE chain, seconds of analyzer time) does not hold up a second
 *   client's new queries;
 * - an analysis past the call deadline fails alone with BigQuery's query-planning
 *   resourcesExceeded error, its analyzer process is replaced, and the next query works;
 * - jobs.cancel of a job still being analyzed ends it at once with BigQuery's `stopped` error.
 *
 * Error texts: BigQuery's envelope `{error:{code, message, errors:[{message, domain:'global',
 * reason}], status}}` (https://cloud.google.com/bigquery/docs/error-messages); the cancelled job's
 * errorResult as test/jobs-lifecycle.test.ts records it; the too-complex text of
 * https://cloud.google.com/bigquery/docs/troubleshoot-quotas. Time bounds are coarse liveness
 * bounds for a loaded 2-core machine (each noted where used), never performance assertions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { AnalyzerPool } from '../src/analyzer/pool.js';
import { BigQueryError } from '../src/errors/errors.js';

let t: TestEmulator;
const P = 'robust-project';

beforeAll(async () => {
  t = await startTestEmulator({ projectId: P });
});
afterAll(async () => {
  await t?.emu.close();
});

const TOO_COMPLEX = 'Resources exceeded during query execution: Not enough resources for query planning - too many subqueries or query is too complex.';

/** jobs.query over raw HTTP; the answer's status and JSON body. */
async function query(q: string, extra: object = {}): Promise<{ status: number; body: any; ms: number }> {
  const t0 = Date.now();
  const r = await fetch(`${t.emu.url}/bigquery/v2/projects/${P}/queries`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: q, useLegacySql: false, timeoutMs: 30_000, ...extra }),
    signal: AbortSignal.timeout(45_000),
  });
  return { status: r.status, body: await r.json(), ms: Date.now() - t0 };
}

let fresh = 0;
/** A query text the emulator has never seen (no analysis cache hit) and its expected value. */
function newText(): { sql: string; value: string } {
  const v = `${Date.now() % 100000}${++fresh}`;
  return { sql: `SELECT ${v} AS n_${fresh}`, value: v };
}

/** A new query text answers its value, and a new dry run answers too. */
async function expectServing(): Promise<void> {
  const { sql, value } = newText();
  const r = await query(sql);
  expect(r.status).toBe(200);
  expect(r.body.jobComplete).toBe(true);
  expect(r.body.rows).toEqual([{ f: [{ v: value }] }]);
  const dry = await query(newText().sql, { dryRun: true });
  expect(dry.status).toBe(200);
  expect(dry.body.jobComplete).toBe(true);
}

/** Google's error envelope with a 400 client-error reason. */
function expectBadRequest(r: { status: number; body: any }): void {
  expect(r.status).toBe(400);
  expect(r.body.error.code).toBe(400);
  expect(r.body.error.status).toBe('INVALID_ARGUMENT');
  expect(r.body.error.errors).toHaveLength(1);
  const [item] = r.body.error.errors;
  expect(item.domain).toBe('global');
  expect(['invalidQuery', 'invalid', 'resourcesExceeded']).toContain(item.reason);
  expect(item.message).toBe(r.body.error.message);
  expect(item.message.length).toBeGreaterThan(0);
}

/** A chain of `n` CTEs, each reading the previous one: seconds of analyzer time, no deep nesting. */
function cteChain(n: number, select = 'x'): string {
  const ctes = Array.from({ length: n }, (_, i) => (i === 0 ? 'c0 AS (SELECT 1 AS x)' : `c${i} AS (SELECT x FROM c${i - 1})`));
  return `WITH ${ctes.join(', ')} SELECT ${select} FROM c${n - 1}`;
}
const N = 10_000;
const SLOW = cteChain(N); // ~330 KB, under BigQuery's 1,024K-character query limit; ~5 s to analyze here

/** Whether `pid` runs (a zombie awaiting its parent's wait() counts as gone). */
function alive(pid: number): boolean {
  if (!fs.existsSync('/proc/self/stat')) {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  try {
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Whether `f()` becomes true within `ms`, polled every 20 ms. */
async function within(ms: number, f: () => boolean): Promise<boolean> {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

describe('oversized analyzer errors', () => {
  it('a 65,400-character text gets the analyzer syntax error as before', async () => {
    const r = await query('a'.repeat(65_400));
    expectBadRequest(r);
    expect(r.body.error.errors[0].reason).toBe('invalidQuery');
    expect(r.body.error.message).toMatch(/^Syntax error: /);
    await expectServing();
  });

  const wedges: [string, string][] = [
    ['a 65,600-character text', 'a'.repeat(65_600)],
    ['a 100,000-character column name', `SELECT ${'c'.repeat(100_000)} FROM UNNEST([1])`],
    ['a 100,000-character function name', `SELECT ${'f'.repeat(100_000)}(1)`],
    ['a 100,000-character backticked table name', `SELECT * FROM \`${'t'.repeat(100_000)}\``],
    ['a 50,000-digit NUMERIC literal', `SELECT NUMERIC '${'9'.repeat(50_000)}'`],
    ['a 50,000-digit BIGNUMERIC literal', `SELECT BIGNUMERIC '${'9'.repeat(50_000)}'`],
    ['a 50,000-digit INTERVAL literal', `SELECT INTERVAL '${'9'.repeat(50_000)}' YEAR`],
    ['a 70,000-character DATE literal', `SELECT DATE '${'2'.repeat(70_000)}'`],
  ];
  it.each(wedges)('%s answers a 400 and a new query text still answers', async (_name, sql) => {
    const r = await query(sql);
    expectBadRequest(r);
    await expectServing();
  });

  it('other clients are served while such a text is analyzed', async () => {
    const wedge = query(`SELECT ${'w'.repeat(100_000)} FROM UNNEST([1])`);
    const others = await Promise.all([0, 1, 2].map(async () => {
      const { sql, value } = newText();
      const r = await query(sql);
      return [r.status, r.body.rows?.[0]?.f?.[0]?.v === value];
    }));
    expect(others).toEqual([[200, true], [200, true], [200, true]]);
    expectBadRequest(await wedge);
    await expectServing();
  });
});

describe('slow analyses', () => {
  // The 10,000-CTE analyses take ~5 s alone, and more than 15 s (ANALYZER_CALL_DEADLINE_MS) on a
  // machine running another suite beside this one (session 21's overlapping CI runs answered 400
  // "too complex" here). These tests are about a slow analysis that ends, so its call gets a
  // deadline the slowest machine meets; the deadline itself is tested below with its own value.
  let savedDeadline = 0;
  beforeAll(() => {
    savedDeadline = t.emu.engine.analyzer.deadlineMs;
    t.emu.engine.analyzer.deadlineMs = 45_000;
  });
  afterAll(() => {
    t.emu.engine.analyzer.deadlineMs = savedDeadline;
  });

  it('a slow analysis does not hold up a second client\'s new queries', async () => {
    let slowDone = false;
    const slow = query(SLOW, { dryRun: true }).finally(() => (slowDone = true));
    await new Promise((r) => setTimeout(r, 300));
    const latencies: number[] = [];
    let answeredWhileSlow = 0;
    for (let i = 0; i < 5; i++) {
      const { sql, value } = newText();
      const t0 = Date.now();
      const [rows] = await t.bq.query({ query: sql });
      latencies.push(Date.now() - t0);
      expect(Object.values(rows[0])).toEqual([Number(value)]);
      if (!slowDone) answeredWhileSlow++;
    }
    const r = await slow;
    // The slow dry run itself succeeds (a valid query) once analyzed.
    expect(r.status).toBe(200);
    // Most (normally all) of the second client's queries were answered while the slow one ran.
    expect(answeredWhileSlow).toBeGreaterThanOrEqual(3);
    // Liveness bound, generous for a loaded 2-core machine running other test files: each answer
    // well under the seconds the slow analysis takes (measured alone: p50 ~70 ms, max ~170-520 ms).
    latencies.sort((a, b) => a - b);
    console.log(`second client during a slow analysis: p50 ${latencies[2]} ms, max ${latencies[4]} ms, slow analysis ${r.ms} ms`);
    expect(latencies[4]).toBeLessThan(3000);
  });

  it.skipIf(process.platform !== 'linux')('a long analysis lowers its process in CPU priority and new calls go to another process', async () => {
    /** Nice value of every thread of `pid` (field 19 of /proc/PID/task/TID/stat). */
    const nices = (pid: number) =>
      fs.readdirSync(`/proc/${pid}/task`).map((tid) => {
        const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
    const analyzer = t.emu.engine.analyzer;
    // A text of its own (the analysis cache would answer SLOW itself at once after the test above).
    const slow = query(`${SLOW}\n-- heavy priority`, { dryRun: true });
    // Past ANALYZER_HEAVY_CALL_MS plus a watch interval, the slow call's process is heavy.
    await new Promise((r) => setTimeout(r, 1000));
    const heavy = analyzer.pids.filter((pid) => nices(pid).every((n) => n === 10));
    expect(heavy).toHaveLength(1);
    // A new text is analyzed by another (ordinary priority) process.
    const { sql, value } = newText();
    const [rows] = await t.bq.query({ query: sql });
    expect(Object.values(rows[0])).toEqual([Number(value)]);
    expect(analyzer.pids.some((pid) => pid !== heavy[0] && nices(pid).every((n) => n === 0))).toBe(true);
    expect((await slow).status).toBe(200);
    // Once its call ended, the heavy process is back to ordinary priority (root may raise it
    // again) or retired (anyone else).
    await new Promise((r) => setTimeout(r, 100));
    if (analyzer.pids.includes(heavy[0]!)) expect(nices(heavy[0]!).every((n) => n === 0)).toBe(true);
  });

  it('an analysis past the call deadline fails alone, its process is replaced, the next query works', async () => {
    const analyzer = t.emu.engine.analyzer;
    const before = analyzer.pids;
    expect(before.length).toBeGreaterThan(0);
    const saved = analyzer.deadlineMs;
    analyzer.deadlineMs = 300;
    let r;
    try {
      r = await query(cteChain(N, 'x + 1 AS y'), { dryRun: true });
    } finally {
      analyzer.deadlineMs = saved;
    }
    expectBadRequest(r);
    expect(r.body.error.errors[0].reason).toBe('resourcesExceeded');
    expect(r.body.error.message).toBe(TOO_COMPLEX);
    // The process that ran past the deadline was killed (SIGKILL; gone within moments).
    expect(await within(2000, () => before.some((pid) => !alive(pid)))).toBe(true);
    await expectServing();
    expect(analyzer.pids.length).toBeGreaterThan(0);
    for (const pid of analyzer.pids) expect(alive(pid)).toBe(true);
  });

  it('an analyzer process killed mid-analysis: its call is resent and the query still answers', async () => {
    const slow = query(cteChain(N, 'x + 3 AS w'), { dryRun: true });
    await new Promise((r) => setTimeout(r, 700)); // inside the seconds of analysis
    const victims = t.emu.engine.analyzer.pids;
    for (const pid of victims) process.kill(pid, 'SIGKILL');
    const r = await slow;
    expect(r.status).toBe(200);
    expect(r.body.jobComplete).toBe(true);
    expect(r.body.schema.fields).toEqual([{ name: 'w', type: 'INTEGER', mode: 'NULLABLE' }]);
    expect(await within(2000, () => victims.every((pid) => !alive(pid)))).toBe(true);
    await expectServing();
  });

  it('jobs.cancel of a job being analyzed ends it at once as cancelled', async () => {
    const [job] = (await t.bq.createQueryJob({ query: cteChain(N, 'x + 2 AS z') })) as unknown as [
      { cancel(): Promise<unknown>; getMetadata(): Promise<[Record<string, any>]> },
    ];
    await new Promise((r) => setTimeout(r, 500)); // well inside the seconds of analysis
    const [running] = await job.getMetadata();
    expect(running.status.state).toBe('RUNNING');
    const started = Date.now();
    await job.cancel();
    let m: Record<string, any>;
    for (;;) {
      [m] = await job.getMetadata();
      if (m.status.state === 'DONE' || Date.now() - started > 10_000) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(m.status.state).toBe('DONE');
    expect(m.status.errorResult).toEqual({ reason: 'stopped', message: 'Job execution was cancelled: User requested cancellation' });
    // Liveness bound (loaded machine): the analysis would take seconds more; the cancel ends the
    // job long before (measured alone: ~100-300 ms).
    expect(Date.now() - started).toBeLessThan(2500);
    await expectServing();
  });
});

describe('analyzer pool (one process shared by every call)', () => {
  it('calls sharing a connection with an oversized error are resent; only that call fails', async () => {
    const pool = new AnalyzerPool(1);
    try {
      await pool.start();
      const [first] = pool.pids;
      const wedge = pool.call('parse', { sqlStatement: 'a'.repeat(65_600) }).then(
        () => 'answered',
        (e) => e,
      );
      // By now the oversized answer has silently ended the connection: these calls are sent on it.
      await new Promise((r) => setTimeout(r, 100));
      const others = await Promise.all([1, 2, 3].map((i) => pool.call('parse', { sqlStatement: `SELECT ${i} AS c${i}` })));
      expect(others.every((r) => (r as { parsedStatement?: unknown }).parsedStatement)).toBe(true);
      const err = await wedge;
      expect(err).toBeInstanceOf(BigQueryError);
      expect((err as BigQueryError).reason).toBe('resourcesExceeded');
      expect((err as BigQueryError).message).toBe(TOO_COMPLEX);
      // The wedged connection's process was replaced; the pool keeps serving.
      expect(pool.pids).not.toContain(first);
      const after = (await pool.call('parse', { sqlStatement: 'SELECT 4 AS c4' })) as { parsedStatement?: unknown };
      expect(after.parsedStatement).toBeDefined();
    } finally {
      pool.stop();
    }
  });
});
