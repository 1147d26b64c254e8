/**
 * REST request bodies are decoded a chunk at a time as they arrive (src/server/rest/request-body.ts):
 * a multi-byte UTF-8 character split between two network chunks must still arrive whole. Rows of
 * two-, three- and four-byte characters are streamed through `@google-cloud/bigquery`'s insertAll
 * in a body of several megabytes (hundreds of chunks, most boundaries inside a character), and
 * read back exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'chunk-project' });
  await t.bq.createDataset('c');
  await t.bq.dataset('c').createTable('t', { schema: { fields: [{ name: 'id', type: 'INTEGER' }, { name: 's', type: 'STRING' }] } });
}, 60_000);
afterAll(async () => {
  await t?.emu.close();
});

describe('a large body of multi-byte characters', () => {
  it('arrives whole through insertAll and reads back exactly', async () => {
    // 'é' (2 bytes), '€' (3), '😀' (4): a 9-byte unit, so chunk boundaries fall inside characters.
    const unit = 'é€😀';
    const rows = Array.from({ length: 2000 }, (_, id) => ({ id, s: `${id}:${unit.repeat(200 + (id % 7))}` }));
    expect(Buffer.byteLength(JSON.stringify(rows))).toBeGreaterThan(3_000_000);
    await t.bq.dataset('c').table('t').insert(rows);
    const [got] = await t.bq.query({ query: 'SELECT id, s FROM c.t ORDER BY id' });
    expect(got).toHaveLength(rows.length);
    for (let i = 0; i < rows.length; i++) expect(got[i]).toEqual(rows[i]);
  });
});
