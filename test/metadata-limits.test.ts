/**
 * BigQuery's limits on resource metadata through @google-cloud/bigquery: labels
 * (https://cloud.google.com/bigquery/docs/labels-intro#requirements: keys and values at most 63
 * characters, lowercase letters, digits, underscores, dashes and international characters; at
 * most 64 labels), descriptions (16,384 characters for tables and datasets, 1,024 for a column,
 * https://cloud.google.com/bigquery/quotas#table_limits). Error texts as BigQuery answers them in
 * public issue threads (src/errors/metadata-limits.ts cites each).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'meta-project' });
  await t.bq.createDataset('meta_ds');
});
afterAll(async () => {
  await t?.emu.close();
});

describe('labels', () => {
  it('accepts lowercase, digits, dashes, underscores and international characters (recorded labels_unicode_values)', async () => {
    const labels = { language: 'français', city: '東京', team: 'café-club', 'cost-center': '1234', empty: '', k_1: 'v_1' };
    const [d] = await t.bq.createDataset('meta_labels', { labels });
    expect((await d.getMetadata())[0].labels).toEqual(labels);
  });

  it('refuses a value longer than 63 characters with BigQuery\'s text', async () => {
    const v = 'x'.repeat(64);
    const e = await errorOf(t.bq.createDataset('meta_long', { labels: { k: v } }));
    expect(e.code).toBe(400);
    expect(e.message).toBe(`Label value "${v}" has invalid characters.`);
    expect((await t.bq.dataset('meta_long').exists())[0]).toBe(false);
  });

  it('refuses upper-case keys and values, keys starting with a digit, and 65 labels', async () => {
    expect((await errorOf(t.bq.createDataset('meta_upper', { labels: { Team: 'x' } }))).message).toBe('Label key "Team" has invalid characters.');
    expect((await errorOf(t.bq.createDataset('meta_upper2', { labels: { team: 'X' } }))).message).toBe('Label value "X" has invalid characters.');
    expect((await errorOf(t.bq.createDataset('meta_digit', { labels: { '1team': 'x' } }))).message).toBe('Label key "1team" has invalid characters.');
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 'v']));
    expect((await errorOf(t.bq.createDataset('meta_many', { labels: many }))).code).toBe(400);
    const max = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, 'v']));
    await t.bq.createDataset('meta_max', { labels: max });
  });

  it('checks tables, patches and job labels too; a hostile 2 MB value is not echoed whole', async () => {
    const table = t.bq.dataset('meta_ds').table('tl');
    expect((await errorOf(table.create({ schema: 'a:integer', labels: { k: 'V' } }))).code).toBe(400);
    await table.create({ schema: 'a:integer', labels: { k: 'v' } });
    const e = await errorOf(table.setMetadata({ labels: { k: 'é'.repeat(2_000_000) } }));
    expect(e.code).toBe(400);
    expect(e.message.length).toBeLessThan(1_000);
    expect((await table.getMetadata())[0].labels).toEqual({ k: 'v' });
    const q = await errorOf(t.bq.createQueryJob({ query: 'SELECT 1', labels: { k: 'x'.repeat(64) } }));
    expect(q.code).toBe(400);
  });
});

describe('descriptions', () => {
  it('a table or dataset description of 16,384 characters is kept; one more is refused', async () => {
    await t.bq.createDataset('meta_desc', { description: 'd'.repeat(16_384) });
    const e = await errorOf(t.bq.createDataset('meta_desc2', { description: 'd'.repeat(16_385) }));
    expect(e.code).toBe(400);
    expect(e.message).toBe('Descriptions can be at most 16384 characters long.');
    const table = t.bq.dataset('meta_ds').table('td');
    expect((await errorOf(table.create({ schema: 'a:integer', description: 'd'.repeat(16_385) }))).message).toBe('Descriptions can be at most 16384 characters long.');
  });

  it('a column description is at most 1,024 characters', async () => {
    const table = t.bq.dataset('meta_ds').table('tc');
    const e = await errorOf(table.create({ schema: { fields: [{ name: 'a', type: 'INTEGER', description: 'c'.repeat(1_025) }] } }));
    expect(e.code).toBe(400);
    expect(e.message).toBe('The description for field a is too long. The maximum length is 1024 characters.');
    await table.create({ schema: { fields: [{ name: 'a', type: 'INTEGER', description: 'c'.repeat(1_024) }] } });
  });
});
