/**
 * Where the analyzer pool (src/analyzer/pool.ts) sends a call: a long text (ANALYZER_SUSPECT_MIN_CHARS
 * or more) makes its process heavy at once, so a short call never waits on a process busy with a
 * long analysis; and a process started after the first analysis answers a warm-up request before it
 * takes calls, whatever that warm-up answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AnalyzerPool } from '../src/analyzer/pool.js';
import { bigQueryLanguageOptions } from '../src/analyzer/options.js';
import { AnalyzerClient } from '../src/analyzer/client.js';

/** A chain of `n` CTEs: about a second of analysis for n = 5,000 (~160 KB of text). */
function cteChain(n: number): string {
  const ctes = Array.from({ length: n }, (_, i) => (i === 0 ? 'c0 AS (SELECT 1 AS x)' : `c${i} AS (SELECT x FROM c${i - 1})`));
  return `WITH ${ctes.join(', ')} SELECT x AS w FROM c${n - 1}`;
}

let pool: AnalyzerPool | undefined;
afterEach(() => pool?.stop());

async function start(size: number) {
  pool = new AnalyzerPool(size);
  const languageOptions = bigQueryLanguageOptions((await pool.start()) as never);
  const options = { languageOptions, errorMessageMode: 'ERROR_MESSAGE_ONE_LINE' };
  const catalog = { builtinFunctionOptions: { languageOptions } };
  return { options, catalog, analyze: (sql: string) => pool!.call('analyze', { options, simpleCatalog: catalog, sqlStatement: sql }) };
}

/** The text sizes of the calls in flight on each live process. */
const inflightByProcess = () => (pool as unknown as { workers: { dead: boolean; inflight: Set<{ textChars: number }> }[] }).workers.filter((w) => !w.dead).map((w) => [...w.inflight].map((p) => p.textChars));

describe('analyzer pool routing', () => {
  it('never puts a short call on a process analysing a long text', async () => {
    const { analyze } = await start(2);
    const long = analyze(cteChain(5000));
    const shorts = [analyze('SELECT 1'), analyze('SELECT 2')];
    const byProcess = inflightByProcess();
    expect(byProcess.flat().sort((a, b) => a - b)).toHaveLength(3);
    for (const texts of byProcess) {
      const hasLong = texts.some((n) => n >= 4096);
      const hasShort = texts.some((n) => n < 4096);
      expect(hasLong && hasShort).toBe(false);
    }
    await Promise.all(shorts);
    await long;
  }, 60_000);

  it("the client's first analysis, as SELECT 1, is what a process started later answers first", async () => {
    const client = new AnalyzerClient();
    await client.start();
    try {
      const options = { languageOptions: client.languageOptions, errorMessageMode: 'ERROR_MESSAGE_ONE_LINE' };
      const simpleCatalog = { builtinFunctionOptions: { languageOptions: client.languageOptions } };
      await client.call('analyze', { options, simpleCatalog, sqlStatement: 'SELECT 1 AS one' });
      await client.call('analyze', { options, simpleCatalog: { name: 'other' }, sqlStatement: 'SELECT 2 AS two' });
      const clientPool = (client as unknown as { pool: AnalyzerPool }).pool;
      expect(clientPool.warmUp).toEqual({ method: 'analyze', req: { options, simpleCatalog, sqlStatement: 'SELECT 1' } });
      // The replacement of a killed process sends it before the next call.
      let read = 0;
      clientPool.warmUp = { method: 'analyze', req: new Proxy(clientPool.warmUp!.req, { get: (t, k) => (k === 'sqlStatement' && read++, Reflect.get(t, k)) }) };
      const [pid] = client.pids;
      process.kill(pid!, 'SIGKILL');
      const res = (await client.call('analyze', { options, simpleCatalog, sqlStatement: 'SELECT 3 AS three' })) as object;
      expect(JSON.stringify(res)).toContain('three');
      expect(client.pids[0]).not.toBe(pid);
      expect(read).toBeGreaterThan(0);
    } finally {
      client.stop();
    }
  }, 60_000);

  it('a process started with a warm-up request that fails still takes calls', async () => {
    const { analyze } = await start(1);
    await analyze('SELECT 1');
    pool!.warmUp = { method: 'analyze', req: { sqlStatement: 'SELEC nothing' } };
    const [pid] = pool!.pids;
    process.kill(pid, 'SIGKILL');
    const res = (await analyze('SELECT 3 AS three')) as object;
    expect(JSON.stringify(res)).toContain('three');
    expect(pool!.pids[0]).not.toBe(pid);
  }, 60_000);
});
