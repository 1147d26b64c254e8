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

  it('holds no rows when built from none', () => {
    const e = encodeRowBlocksSync(fields, [], { useInt64Timestamp: false });
    expect(e.length).toBe(0);
    expect(e.page(0, 10).json()).toBe('[]');
    expect(e.page(0, 10).texts()).toEqual([]);
  });
});
