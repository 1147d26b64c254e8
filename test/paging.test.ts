/**
 * Paging through 10,000 rows: query results (jobs.query + jobs.getQueryResults with maxResults and
 * pageToken / startIndex) and tabledata.list, raw and through @google-cloud/bigquery. Every row
 * must arrive exactly once, in order; the last page carries no pageToken (recorded
 * page_walk_to_end_no_more_token, tabledata_list_walk_two_pages).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Table } from '@google-cloud/bigquery';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';

const N = 10_000;
let t: TestEmulator;
let P: string;
let table: Table;
const D = 'paging_ds';

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'paging-project' });
  P = t.projectId;
  const [ds] = await t.bq.createDataset(D);
  [table] = await ds.createTable('big', { schema: 'n:integer,s:string' });
  // Inserted in n order: tabledata.list answers rows in storage (insertion) order.
  const rows = Array.from({ length: N }, (_, i) => ({ json: { n: i, s: `row-${i}` } }));
  const r = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/datasets/${D}/tables/big/insertAll`, { rows });
  if (r.status !== 200 || r.body.insertErrors) throw new Error(`insertAll failed: ${r.text.slice(0, 500)}`);
});
afterAll(async () => {
  await t?.emu.close();
});

const expected = Array.from({ length: N }, (_, i) => String(i));
const firstCells = (rows: { f: { v: string }[] }[] | undefined) => (rows ?? []).map((r) => r.f[0].v);

describe('query results', () => {
  it('jobs.query + getQueryResults walk 10,000 rows with maxResults and pageToken', async () => {
    const first = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, {
      query: `SELECT n, s FROM \`${D}.big\` ORDER BY n`,
      useLegacySql: false,
      maxResults: 999,
    });
    expect(first.body.totalRows).toBe(String(N));
    const seen = firstCells(first.body.rows);
    expect(seen.length).toBe(999);
    let token: string | undefined = first.body.pageToken;
    const jobId = first.body.jobReference.jobId;
    let pages = 1;
    while (token) {
      const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/queries/${jobId}?maxResults=999&pageToken=${encodeURIComponent(token)}`);
      expect(r.status).toBe(200);
      expect(r.body.totalRows).toBe(String(N));
      seen.push(...firstCells(r.body.rows));
      token = r.body.pageToken;
      pages++;
    }
    expect(pages).toBe(Math.ceil(N / 999));
    expect(seen).toEqual(expected);
  });

  it('a 60,000-row result (encoded for keeping in the background) pages in order, raw and through the client, and as an anonymous table', async () => {
    const M = 60_000;
    const q = 'SELECT n, CONCAT("r", CAST(n AS STRING)) AS s FROM UNNEST(GENERATE_ARRAY(0, 59999)) AS n ORDER BY n';
    const first = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, { query: q, useLegacySql: false, maxResults: 7001 });
    expect(first.body.totalRows).toBe(String(M));
    const seen = firstCells(first.body.rows);
    const jobId = first.body.jobReference.jobId;
    let token: string | undefined = first.body.pageToken;
    while (token) {
      const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/queries/${jobId}?maxResults=7001&pageToken=${encodeURIComponent(token)}`);
      expect(r.body.rows.every((row: { f: { v: string }[] }) => row.f[1].v === `r${row.f[0].v}`)).toBe(true);
      seen.push(...firstCells(r.body.rows));
      token = r.body.pageToken;
    }
    expect(seen).toEqual(Array.from({ length: M }, (_, i) => String(i)));
    const [rows] = await t.bq.query({ query: q, useLegacySql: false });
    expect(rows.length).toBe(M);
    expect(rows[M - 1]).toEqual({ n: M - 1, s: `r${M - 1}` });
    expect(rows.every((r: { n: number }, i: number) => r.n === i)).toBe(true);
    const job = await t.bq.job(jobId).get();
    const dest = (job[0].metadata.configuration.query.destinationTable ?? {}) as { datasetId: string; tableId: string };
    const data = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/${dest.datasetId}/tables/${dest.tableId}/data?startIndex=59990&maxResults=5`);
    expect(firstCells(data.body.rows)).toEqual(['59990', '59991', '59992', '59993', '59994']);
  });

  it('getQueryResults walks by startIndex too', async () => {
    const first = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, {
      query: `SELECT n FROM \`${D}.big\` ORDER BY n DESC`,
      useLegacySql: false,
      maxResults: 0,
    });
    const jobId = first.body.jobReference.jobId;
    const seen: string[] = [];
    for (let start = 0; start < N; start += 3000) {
      const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/queries/${jobId}?maxResults=3000&startIndex=${start}`);
      seen.push(...firstCells(r.body.rows));
    }
    expect(seen).toEqual([...expected].reverse());
  });

  it('a generated 10,000-row result (no table) pages in order', async () => {
    const hundred = `[${Array.from({ length: 100 }, (_, i) => i).join(',')}]`;
    const first = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, {
      query: `SELECT a * 100 + b AS n FROM UNNEST(${hundred}) AS a CROSS JOIN UNNEST(${hundred}) AS b ORDER BY n`,
      useLegacySql: false,
      maxResults: 4096,
    });
    const jobId = first.body.jobReference.jobId;
    const seen = firstCells(first.body.rows);
    let token: string | undefined = first.body.pageToken;
    while (token) {
      const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/queries/${jobId}?maxResults=4096&pageToken=${encodeURIComponent(token)}`);
      seen.push(...firstCells(r.body.rows));
      token = r.body.pageToken;
    }
    expect(seen).toEqual(expected);
  });

  it('through the client: page by page with nextQuery, and all at once', async () => {
    const [job] = await t.bq.createQueryJob({ query: `SELECT n FROM \`${D}.big\` ORDER BY n` });
    const seen: number[] = [];
    let q: Record<string, unknown> | null = { maxResults: 1500, autoPaginate: false };
    while (q) {
      const [rows, next] = (await job.getQueryResults(q)) as unknown as [{ n: number }[], Record<string, unknown> | null];
      seen.push(...rows.map((r) => r.n));
      q = next;
    }
    expect(seen.map(String)).toEqual(expected);
    const [all] = await t.bq.query({ query: `SELECT n FROM \`${D}.big\` ORDER BY n` });
    expect(all.map((r) => String(r.n))).toEqual(expected);
  });
});

describe('tabledata.list', () => {
  it('walks 10,000 rows with maxResults and pageToken', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const q = `?maxResults=777${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;
      const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}/tables/big/data${q}`);
      expect(r.status).toBe(200);
      expect(r.body.totalRows).toBe(String(N));
      seen.push(...firstCells(r.body.rows));
      token = r.body.pageToken;
      pages++;
    } while (token);
    expect(pages).toBe(Math.ceil(N / 777));
    expect(seen).toEqual(expected);
  });

  it('walks by startIndex', async () => {
    const seen: string[] = [];
    for (let start = 0; start < N; start += 4000) {
      const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}/tables/big/data?startIndex=${start}&maxResults=4000`);
      seen.push(...firstCells(r.body.rows));
    }
    expect(seen).toEqual(expected);
  });

  it('through the client: getRows page by page, getRows auto-paginated and createReadStream', async () => {
    const seen: string[] = [];
    let q: Record<string, unknown> | null = { maxResults: 2500, autoPaginate: false };
    let pages = 0;
    while (q) {
      const [rows, next] = (await table.getRows(q)) as unknown as [{ n: number; s: string }[], Record<string, unknown> | null];
      for (const r of rows) {
        expect(r.s).toBe(`row-${r.n}`);
        seen.push(String(r.n));
      }
      q = next;
      pages++;
    }
    expect(pages).toBe(4);
    expect(seen).toEqual(expected);
    const [all] = await table.getRows();
    expect(all.map((r) => String(r.n))).toEqual(expected);
    const streamed: string[] = [];
    await new Promise<void>((resolve, reject) => {
      table
        .createReadStream()
        .on('data', (r: { n: number }) => streamed.push(String(r.n)))
        .on('error', reject)
        .on('end', () => resolve());
    });
    expect(streamed).toEqual(expected);
  });
});
