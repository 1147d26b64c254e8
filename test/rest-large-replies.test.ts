/**
 * Answers over STREAMED_REPLY_MIN_CHARS are sent as a stream of UTF-8 chunks (src/server/reply-chunks.ts),
 * so one large answer does not block other clients while it is encoded. The text the clients read
 * must be the same, byte for byte, including characters outside the BMP cut at a chunk edge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { STREAMED_REPLY_MIN_CHARS, utf8Chunks } from '../src/server/reply-chunks.js';
import { LIST_PAGE_MAX_CHARS } from '../src/wire/list-pages.js';

async function concat(r: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const b of r) parts.push(b);
  return Buffer.concat(parts);
}

describe('utf8Chunks', () => {
  it('encodes exactly what Buffer.from does, never splitting a surrogate pair', async () => {
    // A 4-byte character straddles every chunk edge of 7 characters: "a" + 😀 repeated.
    const text = 'é' + 'abcde😀'.repeat(1000) + '€';
    for (const size of [7, 8, 9, 64]) {
      const chunks: Buffer[] = [];
      for await (const b of utf8Chunks(text, size)) chunks.push(b as Buffer);
      expect(Buffer.concat(chunks).equals(Buffer.from(text, 'utf8'))).toBe(true);
      // Each chunk is valid UTF-8 on its own (no U+FFFD after decoding it alone).
      expect(chunks.every((c) => !c.toString('utf8').includes('\uFFFD'))).toBe(true);
      expect(chunks.length).toBeGreaterThan(1);
    }
  });

  it('an empty text is an empty stream', async () => {
    expect((await concat(utf8Chunks(''))).length).toBe(0);
  });
});

describe('large answers through the client', () => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({ projectId: 'large-reply' });
  });
  afterAll(async () => {
    await t.emu.close();
  });

  it('a query result larger than the streaming threshold arrives intact (REPEAT of a string with 😀 and é)', async () => {
    // REPEAT's output is capped at 1 MB (BigQuery's limit), so three columns of 900 KB each.
    const unit = 'é😀abc';
    const times = 100_000;
    expect(3 * unit.length * times).toBeGreaterThan(STREAMED_REPLY_MIN_CHARS);
    const [rows] = await t.bq.query({ query: `SELECT REPEAT('${unit}', ${times}) AS a, REPEAT('${unit}', ${times}) AS b, REPEAT('${unit}', ${times}) AS c, 7 AS n` });
    expect(rows).toHaveLength(1);
    expect(rows[0].n).toBe(7);
    for (const col of ['a', 'b', 'c']) expect(rows[0][col]).toBe(unit.repeat(times));
  });

  it('is sent chunked, as JSON, and a small answer keeps its Content-Length', async () => {
    const post = (query: string) =>
      fetch(`${t.emu.url}/bigquery/v2/projects/large-reply/queries`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, useLegacySql: false }) });
    const big = await post(`SELECT REPEAT('x', 600000) AS s, REPEAT('y', 600000) AS t`);
    expect(big.status).toBe(200);
    expect(big.headers.get('content-type')).toMatch(/^application\/json/);
    expect(big.headers.get('transfer-encoding')).toBe('chunked');
    expect((await big.json()).rows[0].f.map((c: { v: string }) => c.v)).toEqual(['x'.repeat(600000), 'y'.repeat(600000)]);
    const small = await post('SELECT 1');
    expect(small.headers.get('content-length')).not.toBeNull();
    expect((await small.json()).rows[0].f[0].v).toBe('1');
  });
});

describe('list pages stop at LIST_PAGE_MAX_CHARS', () => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({ projectId: 'large-list' });
  });
  afterAll(async () => {
    await t.emu.close();
  });

  it('jobs.list of jobs with 900 KB query texts: a page holds what fits, nextPageToken continues, every job is listed once', async () => {
    const comment = 'x'.repeat(900 * 1024);
    const ids: string[] = [];
    // 14 jobs × 900 KB of query text (under BigQuery's 1,024K-character query limit): over 10 MB.
    for (let i = 0; i < 14; i++) {
      const [job] = await t.bq.createQueryJob({ query: `/* ${comment} */ SELECT ${i} AS n` });
      await job.getQueryResults();
      ids.push(job.id!);
    }
    const [first, next] = await t.bq.getJobs({ autoPaginate: false, maxResults: 1000, projection: 'full' } as never);
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(14);
    expect(first.length * 900 * 1024).toBeLessThanOrEqual(LIST_PAGE_MAX_CHARS + 1024 * 1024);
    expect(next?.pageToken).toBeTruthy();
    // The client follows nextPageToken (with maxResults set it stops at a short page, as against BigQuery).
    const [all] = await t.bq.getJobs({ projection: 'full' } as never);
    const listed = all.map((j) => j.id);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...ids].sort());
  });
});
