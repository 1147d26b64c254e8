import { describe, expect, it } from 'vitest';
import { EncodedRows, encodeRowBlocks, encodeRowBlocksSync, ROWS_PER_BLOCK } from './encoded-rows.js';
import { encodeRowStrings } from './resources.js';
import type { WireField } from './resources.js';

// The reference is the per-row encoder the REST layer used before (encodeRowStrings): every page,
// row text and JSON array of the block form must equal what it gives.
const fields: WireField[] = [
  { name: 'id', type: { kind: 'INT64' } },
  { name: 's', type: { kind: 'STRING' } },
];
const n = ROWS_PER_BLOCK * 2 + 37;
const rows = Array.from({ length: n }, (_, i) => [BigInt(i), i % 5 ? `v,${i}"é` : null]);
const texts = encodeRowStrings(fields, rows, { useInt64Timestamp: false });

describe('EncodedRows', () => {
  it('keeps every row text and answers any page as the JSON array of those texts', async () => {
    for (const e of [encodeRowBlocksSync(fields, rows, { useInt64Timestamp: false }), await encodeRowBlocks(fields, rows, { useInt64Timestamp: false }, 0), EncodedRows.fromRowTexts(texts)]) {
      expect(e.length).toBe(n);
      expect(e.bytes).toBe(texts.reduce((k, t) => k + t.length, 0));
      for (const [a, b] of [[0, n], [0, 1], [5, 5], [ROWS_PER_BLOCK - 1, ROWS_PER_BLOCK + 1], [ROWS_PER_BLOCK, 2 * ROWS_PER_BLOCK], [n - 3, n + 10], [17, 2 * ROWS_PER_BLOCK + 20]]) {
        const p = e.page(a, b);
        const want = texts.slice(a, b);
        expect(p.length).toBe(want.length);
        expect(p.texts()).toEqual(want);
        expect(p.json()).toBe(`[${want.join(',')}]`);
        expect(JSON.parse(p.json())).toHaveLength(want.length);
      }
      for (const i of [0, 1, ROWS_PER_BLOCK - 1, ROWS_PER_BLOCK, n - 1]) expect(e.rowChars(i)).toBe(texts[i].length);
      expect(JSON.parse(JSON.stringify(e))).toEqual(texts);
    }
  });

  it('ends a page where counting its rows one by one would (at least one row; then within the limit)', () => {
    // The reference: the definition, row by row (src/jobs/result-bytes.ts pageEnd's contract).
    const oneByOne = (lengths: number[], start: number, end: number, max: number) => {
      let size = 0;
      for (let i = start; i < end; i++) if ((size += lengths[i]!) > max && i > start) return i;
      return end;
    };
    // Flat rows kept as UTF-8 bytes with their row starts, as DuckDB builds them; a block of one row.
    const flat = Array.from({ length: 3000 }, (_, i) => `{"f":[{"v":"${i}"},{"v":"${'x'.repeat(i % 13)}"}]}`);
    const bytes = new EncodedRows();
    for (const [a, b] of [[0, 1000], [1000, 1001], [1001, 2500], [2500, 3000]] as const) {
      const block = Buffer.from(flat.slice(a, b).join(','));
      let at = 0;
      const starts = new Int32Array(b - a + 1);
      flat.slice(a, b).forEach((t, k) => ((starts[k] = at), (at += Buffer.byteLength(t) + 1)));
      starts[b - a] = at;
      bytes.pushFlatBytes(block, b - a, starts);
    }
    let seed = 7;
    const rand = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % k);
    for (const [e, lengths] of [[bytes, flat.map((t) => Buffer.byteLength(t))], [EncodedRows.fromRowTexts(texts), texts.map((t) => t.length)]] as const) {
      const total = e.length;
      for (let k = 0; k < 400; k++) {
        const start = rand(total);
        const end = start + rand(total - start + 1);
        const max = [0, 1, rand(200), rand(5_000), rand(60_000), 1e9][k % 6]!;
        expect(e.pageEnd(start, end, max), `${start}..${end} within ${max}`).toBe(oneByOne(lengths, start, end, max));
      }
      expect(e.page(0, total).texts()).toEqual(e === bytes ? flat : texts);
    }
  });

  it('holds no rows when built from none', () => {
    const e = encodeRowBlocksSync(fields, [], { useInt64Timestamp: false });
    expect(e.length).toBe(0);
    expect(e.page(0, 10).json()).toBe('[]');
    expect(e.page(0, 10).texts()).toEqual([]);
  });
});
