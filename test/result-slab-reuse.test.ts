/**
 * Large results' row texts built in DuckDB are kept in slabs (src/engine/result-slabs.ts) that a
 * dropped result gives back for the next large result — but only once no reply is sending views of
 * them (src/wire/encoded-rows.ts: parts → sent; the server calls `sent` when the response closes).
 * A page handed out before its result was evicted reads the same bytes after other results were
 * built; once it is sent, the slabs are reused, and every result still reads as its own rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../src/engine/engine.js';
import { JobManager, type JobRecord } from '../src/jobs/jobs.js';
import { joinPieces } from '../src/wire/resources.js';
import { pooledSlabs } from '../src/engine/result-slabs.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

/** 60,000 rows of ~40 bytes of REST text: past the 128 KB read as values, so built in DuckDB and kept in slabs. */
const ROWS = 60_000;
const rowsSql = (tag: string) => `SELECT n, CONCAT('${tag}-', CAST(n AS STRING)) AS s FROM UNNEST(GENERATE_ARRAY(1, ${ROWS})) AS n`;
/** The REST `rows` text of rowsSql(tag), as BigQuery writes it (INT64 and STRING cells are strings). */
const expectedRows = (tag: string) => `[${Array.from({ length: ROWS }, (_v, i) => `{"f":[{"v":"${i + 1}"},{"v":"${tag}-${i + 1}"}]}`).join(',')}]`;

describe('slabs of dropped results (JobManager)', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await Engine.start();
  });
  afterAll(() => engine?.stop());

  async function run(m: JobManager, sql: string): Promise<JobRecord> {
    const j = await m.insert('p', { configuration: { query: { query: sql, useLegacySql: false } } });
    await m.waitFor(j, 30_000);
    return j;
  }

  it('are not reused while a page of them is being sent, and are once it was sent', async () => {
    const m = new JobManager(engine, 'p', { maxJobs: 1 });
    const a = await run(m, rowsSql('a'));
    const page = m.page(a, 0, ROWS).encodedRows!;
    const parts = page.parts();
    expect(parts.some((p) => typeof p !== 'string' && p.buffer instanceof SharedArrayBuffer)).toBe(true);
    // `b` evicts `a` while its page is out; `c` evicts `b`, whose slabs `c` may reuse.
    const pooledBefore = pooledSlabs();
    const b = await run(m, rowsSql('b'));
    expect(a.resultsExpired).toBe(true);
    expect(pooledSlabs()).toBeLessThanOrEqual(pooledBefore);
    const c = await run(m, rowsSql('c'));
    expect(b.resultsExpired).toBe(true);
    expect(joinPieces(parts)).toBe(expectedRows('a'));
    // Sent: `a`'s slabs go to the pool, and the next result is built in them.
    const pooled = pooledSlabs();
    page.sent();
    expect(pooledSlabs()).toBeGreaterThan(pooled);
    const d = await run(m, rowsSql('d'));
    expect(m.page(d, 0, ROWS).encodedRows!.json()).toBe(expectedRows('d'));
    // The old views now show `d`'s bytes: the memory really was reused (what `sent` guards).
    expect(joinPieces(parts)).not.toBe(expectedRows('a'));
    expect(c.resultsExpired).toBe(true);
  });
});

describe('slabs of dropped results (through the client)', () => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({ projectId: 'slab-reuse', resultLimits: { maxJobs: 1 } });
  });
  afterAll(async () => {
    await t.emu.close();
  });

  it('go back to the pool once the reply holding them closed; results built in them read as their own rows', async () => {
    for (const tag of ['p', 'q', 'r', 's']) {
      const [rows] = await t.bq.query({ query: rowsSql(tag), useLegacySql: false });
      expect(rows).toHaveLength(ROWS);
      expect(rows[0]).toEqual({ n: 1, s: `${tag}-1` });
      expect(rows[ROWS - 1]).toEqual({ n: ROWS, s: `${tag}-${ROWS}` });
      expect(rows.every((r: { n: number; s: string }, i: number) => r.n === i + 1 && r.s === `${tag}-${i + 1}`)).toBe(true);
    }
    // Each query evicted the one before it, whose pages had been sent: its slabs were pooled (then
    // reused by the next). `r`'s are in the pool now: at least its whole slabs of 1 MB (a slab is
    // sealed whole once more than half full), 2 of the ~2.3 MB.
    expect(pooledSlabs()).toBeGreaterThanOrEqual(Math.floor(Buffer.byteLength(expectedRows('r')) / (1024 * 1024)));
  });

  it('a client that goes away in the middle of a page releases it: later results read as their own rows', async () => {
    const [job] = await t.bq.createQueryJob({ query: rowsSql('gone'), useLegacySql: false });
    await job.getQueryResults({ maxResults: 1 });
    // Read the first bytes of the whole result as one page, then hang up.
    const abort = new AbortController();
    const res = await fetch(`${t.emu.url}/bigquery/v2/projects/${t.projectId}/queries/${job.id}?maxResults=${ROWS}`, { signal: abort.signal });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString('utf8')).toContain('"rows":[{"f":[{"v":"1"},{"v":"gone-1"}]}');
    abort.abort();
    await reader.closed.catch(() => undefined);
    for (const tag of ['after1', 'after2', 'after3']) {
      const [rows] = await t.bq.query({ query: rowsSql(tag), useLegacySql: false });
      expect(rows.every((r: { n: number; s: string }, i: number) => r.n === i + 1 && r.s === `${tag}-${i + 1}`)).toBe(true);
    }
  });
});
