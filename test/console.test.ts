/**
 * The web console (src/server/console.ts, console/) in a real browser: Debian's headless Chromium
 * driven by playwright-core against an in-process emulator on a free port. It browses to a table
 * (schema, preview pages with nested and repeated values, row access policies), runs a query and
 * pages its results, dry-runs one, sees an analysis error marked at its `[line:column]` in the
 * editor, downloads results as CSV and JSON, cancels a long query, and reads the job history.
 * Screenshots of each step are written to test-output/console/ (gitignored).
 *
 * Expected texts: `Unrecognized name: … at [l:c]` and `Job execution was cancelled: User
 * requested cancellation` are BigQuery's
 * (https://cloud.google.com/bigquery/docs/error-messages); the rows follow from the queries
 * that made them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

const CHROMIUM = process.env.BQEMU_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = path.resolve(import.meta.dirname, '..', 'test-output', 'console');
/** A query of several seconds (3.6 billion pairs), to be cancelled. */
const LONG = 'SELECT SUM(a * b) AS s FROM UNNEST(GENERATE_ARRAY(1, 60000)) AS a, UNNEST(GENERATE_ARRAY(1, 60000)) AS b';

let t: TestEmulator;
let browser: Browser;
let page: Page;
/** Every URL the page requested (the console must work offline: its own origin only). */
const requested: string[] = [];

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

/** Replaces the editor's text (CodeMirror 6 takes typed input through insertText). */
async function setSql(sql: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(sql);
}

/** The cell texts of a grid's rows (Tabulator rows), by field. */
async function gridRows(testId: string, fields: string[]): Promise<Record<string, string>[]> {
  return page.locator(`[data-testid="${testId}"] .tabulator-row`).evaluateAll(
    (rows, fs) =>
      rows.map((r) => Object.fromEntries(fs.map((f) => [f, (r.querySelector(`.tabulator-cell[tabulator-field="${f}"]`)?.textContent ?? '').trim()]))),
    fields,
  );
}

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`the console tests need Chromium at ${CHROMIUM} (Debian: apt-get install -y chromium; or set BQEMU_CHROMIUM to a Chromium binary)`);
  fs.mkdirSync(SHOTS, { recursive: true });
  t = await startTestEmulator({ projectId: 'console-project' });
  await t.bq.createDataset('shop');
  await t.bq.query({
    query:
      "CREATE TABLE shop.orders AS SELECT id, CONCAT('customer ', CAST(id AS STRING)) AS customer, " +
      "[STRUCT(CONCAT('sku-', CAST(id AS STRING)) AS sku, id AS qty)] AS items, " +
      "TIMESTAMP_ADD(TIMESTAMP '2024-01-01 00:00:00 UTC', INTERVAL id HOUR) AS placed FROM UNNEST(GENERATE_ARRAY(1, 60)) AS id",
  });
  // On a table of its own: the policy hides the rows from every other caller, the console included.
  await t.bq.query({ query: 'CREATE TABLE shop.customers (id INT64, region STRING)' });
  await t.bq.query({ query: "CREATE ROW ACCESS POLICY small_ids ON shop.customers GRANT TO ('user:alice@example.com') FILTER USING (id < 10)" });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('request', (r) => requested.push(r.url()));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.emu.close();
});

describe('web console', () => {
  it('serves the page at / with a same-origin content policy, and the REST paths still answer', async () => {
    const res = await fetch(`${t.emu.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toContain('/console/app.js');
    const missing = await fetch(`${t.emu.url}/console/nope.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { errors: { reason: string }[] } }).error.errors[0].reason).toBe('notFound');
    const [datasets] = await t.bq.getDatasets();
    expect(datasets.map((d) => d.id)).toEqual(['shop']);
  });

  it('browses to a table: schema, paged preview with nested values, row access policies', async () => {
    await page.goto(`${t.emu.url}/`);
    await page.getByTestId('dataset-shop').locator('summary').click();
    await page.getByTestId('table-shop.orders').click();
    await expect.poll(() => page.getByTestId('table-title').textContent()).toBe('orders');
    await expect
      .poll(() => page.getByTestId('schema').locator('tbody tr').allTextContents())
      .toEqual(['idINTEGERNULLABLE', 'customerSTRINGNULLABLE', 'itemsRECORDREPEATED', 'items.skuSTRINGNULLABLE', 'items.qtyINTEGERNULLABLE', 'placedTIMESTAMPNULLABLE']);
    await shot('1-schema');
    await page.getByTestId('tab-details').click();
    const details = Object.fromEntries(
      (await page.getByTestId('details').locator('tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td')?.textContent]))) as [string, string][],
    );
    expect(details).toMatchObject({ 'Table ID': 'console-project.shop.orders', Type: 'TABLE', 'Number of rows': '60', 'Data location': 'US' });

    await page.getByTestId('tab-preview').click();
    const seen = new Set<number>();
    let lastIds = '';
    for (const [n, summary] of [[25, 'Rows 1–25 of 60'], [25, 'Rows 26–50 of 60'], [10, 'Rows 51–60 of 60']] as const) {
      await expect.poll(() => page.getByTestId('preview-summary').textContent()).toBe(summary);
      // The grid fills just after the summary changes.
      await expect.poll(async () => (await gridRows('preview-grid', ['id'])).map((r) => r.id).join()).not.toBe(lastIds);
      const rows = await gridRows('preview-grid', ['id', 'customer', 'items', 'placed']);
      lastIds = rows.map((r) => r.id).join();
      expect(rows).toHaveLength(n);
      for (const r of rows) {
        const id = Number(r.id);
        seen.add(id);
        expect(r.customer).toBe(`customer ${id}`);
        expect(r.items).toBe(`[{"sku":"sku-${id}","qty":${id}}]`);
        const placed = new Date(Date.UTC(2024, 0, 1, id)).toISOString().replace('T', ' ').replace('.000Z', ' UTC');
        expect(r.placed).toBe(placed);
      }
      if (summary === 'Rows 1–25 of 60') await shot('2-preview');
      if (n === 25) await page.getByTestId('preview-next').click();
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(await page.getByTestId('preview-next').isDisabled()).toBe(true);

    await page.getByTestId('table-shop.customers').click();
    await expect.poll(() => page.getByTestId('table-title').textContent()).toBe('customers');
    await page.getByTestId('tab-policies').click();
    // The policies load after the click (rowAccessPolicies.list): wait for them, as for every other view.
    await expect.poll(async () => (await page.getByTestId('policies').locator('tbody tr td').allTextContents()).slice(0, 2)).toEqual(['small_ids', 'id < 10']);
    await shot('2b-row-access-policies');
  });

  it('runs a query and pages its results; dry run estimates bytes', async () => {
    await page.getByTestId('nav-query').click();
    await setSql('SELECT id, customer, items, placed\nFROM shop.orders\nWHERE id <= 55\nORDER BY id');
    await page.getByTestId('run').click();
    await expect.poll(() => page.getByTestId('result-summary').textContent(), { timeout: 20_000 }).toMatch(/Rows 1–50 of 55/);
    await expect.poll(async () => (await gridRows('results-grid', ['id'])).length).toBe(50);
    const rows = await gridRows('results-grid', ['id', 'customer']);
    expect(rows[0]).toEqual({ id: '1', customer: 'customer 1' });
    expect(rows).toHaveLength(50);
    await shot('3-results');
    await page.getByTestId('results-next').click();
    await expect.poll(() => page.getByTestId('result-summary').textContent()).toMatch(/Rows 51–55 of 55/);
    await expect.poll(async () => (await gridRows('results-grid', ['id'])).map((r) => r.id)).toEqual(['51', '52', '53', '54', '55']);

    await page.getByTestId('dry-run').click();
    await expect.poll(() => page.getByTestId('estimate').textContent()).toMatch(/^This query will process \d+(\.\d+)? (B|KB|MB) when run\.$/);
  });

  it('marks an analysis error at its [line:column] in the editor', async () => {
    await setSql('SELECT id,\n  nosuchcolumn\nFROM shop.orders');
    await page.getByTestId('run').click();
    await expect.poll(() => page.getByTestId('query-error').textContent(), { timeout: 20_000 }).toContain('Unrecognized name: nosuchcolumn at [2:3]');
    await expect.poll(() => page.locator('.cm-lintRange-error').textContent()).toBe('nosuchcolumn');
    await shot('4-error');
  });

  it('downloads results as CSV and JSON', async () => {
    await setSql("SELECT 1 AS n, 'a,b' AS s, [1, 2] AS arr, CAST(NULL AS STRING) AS z");
    await page.getByTestId('run').click();
    await expect.poll(() => page.getByTestId('result-summary').textContent(), { timeout: 20_000 }).toMatch(/Rows 1–1 of 1/);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-csv').click()]);
    expect(csv.suggestedFilename()).toBe('results.csv');
    expect(fs.readFileSync(await csv.path(), 'utf8')).toBe('n,s,arr,z\r\n1,"a,b","[1,2]",\r\n');
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-json').click()]);
    expect(JSON.parse(fs.readFileSync(await json.path(), 'utf8'))).toEqual([{ n: 1, s: 'a,b', arr: [1, 2], z: null }]);
  });

  it('cancels a long query', async () => {
    await setSql(LONG);
    await page.getByTestId('run').click();
    await expect.poll(() => page.getByTestId('job-status').textContent(), { timeout: 20_000 }).toMatch(/: RUNNING$/);
    await shot('5-running');
    await page.getByTestId('cancel').click();
    await expect.poll(() => page.getByTestId('query-error').textContent(), { timeout: 10_000 }).toContain('Job execution was cancelled: User requested cancellation');
    expect(await page.getByTestId('run').isDisabled()).toBe(false);
  });

  it('lists jobs with their configuration, statistics and error', async () => {
    await page.getByTestId('nav-jobs').click();
    await expect.poll(async () => (await gridRows('jobs-grid', ['jobId'])).length).toBeGreaterThanOrEqual(6);
    const jobs = await gridRows('jobs-grid', ['jobId', 'type', 'state', 'error']);
    const failed = jobs.find((j) => j.error.startsWith('Unrecognized name: nosuchcolumn'));
    expect(failed).toMatchObject({ type: 'QUERY', state: 'FAILED' });
    expect(jobs.find((j) => j.error === 'Job execution was cancelled: User requested cancellation')).toMatchObject({ type: 'QUERY', state: 'FAILED' });
    await page.locator(`[data-testid="jobs-grid"] .tabulator-row`, { hasText: failed!.jobId }).click();
    await expect.poll(() => page.getByTestId('job-error').textContent()).toContain('invalidQuery');
    expect(await page.getByTestId('job-configuration').textContent()).toContain('nosuchcolumn');
    expect(JSON.parse((await page.getByTestId('job-statistics').textContent()) ?? '{}')).toHaveProperty('creationTime');
    await shot('6-jobs');
  });

  it('loaded nothing from outside the emulator (no CDN)', () => {
    const origin = new URL(t.emu.url).origin;
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((u) => !u.startsWith('blob:') && !u.startsWith('data:') && new URL(u).origin !== origin)).toEqual([]);
    expect(requested.filter((u) => u.startsWith(origin) && !u.startsWith(`${origin}/bigquery/v2/`)).map((u) => u.slice(origin.length))).toEqual(['/', '/console/app.css', '/console/app.js']);
  });
});
