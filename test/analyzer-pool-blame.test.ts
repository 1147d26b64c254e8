/**
 * The analyzer pool fails only the call that wedges or crashes an analyzer process (the culprit):
 * a call lost with a process it merely shared — e.g. a second client's `SELECT n` next to a
 * runaway analysis — is resent and answers. A call is a suspect only when its text is long enough
 * to wedge an analyzer (src/config/analyzer-limits.ts ANALYZER_SUSPECT_MIN_CHARS).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AnalyzerPool } from '../src/analyzer/pool.js';
import { bigQueryLanguageOptions } from '../src/analyzer/options.js';
import { BigQueryError } from '../src/errors/errors.js';
import { decodeAnswer, RawAnswer } from '../src/analyzer/answer-decoder.js';

// BigQuery's text for a query that cannot be planned (https://cloud.google.com/bigquery/docs/error-messages).
const TOO_COMPLEX = 'Resources exceeded during query execution: Not enough resources for query planning - too many subqueries or query is too complex.';

/** A chain of `n` CTEs: seconds of analysis for n = 10,000 (~330 KB of text). */
function cteChain(n: number): string {
  const ctes = Array.from({ length: n }, (_, i) => (i === 0 ? 'c0 AS (SELECT 1 AS x)' : `c${i} AS (SELECT x FROM c${i - 1})`));
  return `WITH ${ctes.join(', ')} SELECT x AS w FROM c${n - 1}`;
}

let pool: AnalyzerPool | undefined;
afterEach(() => pool?.stop());

/** A pool of one process, and an `analyze` call of `sql` on it. */
async function start(): Promise<(sql: string) => Promise<unknown>> {
  pool = new AnalyzerPool(1);
  const languageOptions = bigQueryLanguageOptions((await pool.start()) as never);
  const options = { languageOptions, errorMessageMode: 'ERROR_MESSAGE_ONE_LINE' };
  const catalog = { builtinFunctionOptions: { languageOptions } };
  return (sql) => pool!.call('analyze', { options, simpleCatalog: catalog, sqlStatement: sql });
}

/** Kills the pool's process once a new one has replaced the last killed one; returns its pid. */
async function killCurrent(previous?: number): Promise<number> {
  for (let i = 0; i < 300; i++) {
    const [pid] = pool!.pids;
    if (pid && pid !== previous) {
      process.kill(pid, 'SIGKILL');
      return pid;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no replacement analyzer process');
}

describe('analyzer pool: only the culprit fails', () => {
  it('a call that cannot be a culprit, lost twice with its process, is resent and answers', async () => {
    const analyze = await start();
    pool!.suspectMinChars = Number.MAX_SAFE_INTEGER; // every text counts as too short to blame
    // Three analyses of a 10,000-CTE chain take over the default 15 s deadline on a loaded CI
    // machine; this test is about the resend, not the deadline.
    pool!.deadlineMs = 80_000;
    const call = analyze(cteChain(10_000));
    await new Promise((r) => setTimeout(r, 700)); // inside the seconds of analysis
    const first = await killCurrent();
    await new Promise((r) => setTimeout(r, 1200)); // resent, analyzing again on the new process
    await killCurrent(first);
    const res = await call;
    // A large answer arrives undecoded from the pool (the client decodes it off the main thread).
    const stmt = res instanceof RawAnswer ? (await decodeAnswer(res)).resolvedStatement : (res as { resolvedStatement?: unknown }).resolvedStatement;
    expect((stmt as { kind?: string }).kind).toBe('QueryStmt');
  }, 90_000);

  it('a long text lost twice with its process is the culprit and fails alone with BigQuery\'s text', async () => {
    const analyze = await start();
    const call = analyze(cteChain(10_000)).then(
      () => 'answered',
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 700));
    const first = await killCurrent();
    await new Promise((r) => setTimeout(r, 1200));
    await killCurrent(first);
    const err = await call;
    expect(err).toBeInstanceOf(BigQueryError);
    expect((err as BigQueryError).message).toBe(TOO_COMPLEX);
    // The pool keeps serving.
    const after = (await analyze('SELECT 1 AS one')) as { resolvedStatement?: unknown };
    expect(after.resolvedStatement).toBeDefined();
  }, 90_000);
});
