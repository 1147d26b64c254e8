/**
 * DuckDB string cells (src/wire/write-rows-cells.ts): the one-pass builder from JS strings must
 * give the same bytes, offsets and cells as the builder from UTF-8 bytes, with Node's own UTF-8
 * encoder (`Buffer.from`) as the oracle for the bytes; the cell layout is duckdb.h's
 * `duckdb_string_t` (uint32 length, then ≤ 12 bytes inline, zero-padded; longer values left to
 * the appending side as zeros).
 */
import { describe, expect, it } from 'vitest';
import { INLINE_STRING_BYTES, cellStrings, stringCells, stringCellsOf } from './write-rows-cells.js';

const VALUES = ['', 'a', 'a'.repeat(12), 'a'.repeat(13), 'é'.repeat(6), 'a'.repeat(11) + 'é', '✓'.repeat(4), '😀😀😀', 'x\uD800y', null, 'ü'.repeat(40), 'plain ascii value longer than twelve', undefined];

describe('string cells', () => {
  it('stringCellsOf gives the bytes Buffer.from gives, and the cells stringCells builds from them', () => {
    const values = [...VALUES, ...VALUES.map((v) => (typeof v === 'string' ? v.repeat(3) : v))];
    const got = stringCellsOf(values);
    const present = values.map((v) => (v === null || v === undefined ? Buffer.alloc(0) : Buffer.from(v, 'utf8')));
    const bytes = Buffer.concat(present);
    const offsets = new Int32Array(values.length + 1);
    present.forEach((b, i) => (offsets[i + 1] = offsets[i]! + b.length));
    const valid = Uint8Array.from(values, (v) => (v === null || v === undefined ? 0 : 1));
    const want = stringCells(bytes, offsets, valid);
    expect(Buffer.from(got.bytes)).toEqual(bytes);
    expect([...got.offsets]).toEqual([...offsets]);
    expect([...got.valid]).toEqual([...valid]);
    expect(Buffer.from(got.inline)).toEqual(Buffer.from(want.inline));
    expect([...got.long]).toEqual([...want.long]);
    expect([got.utf8Bytes, got.set]).toEqual([bytes.length, valid.filter((x) => x).length]);
    expect(cellStrings(got)).toEqual(values.map((v, i) => (valid[i] ? present[i]!.toString('utf8') : null)));
  });

  it('lays a short value out as length then bytes, zero-padded, and a long one as zeros', () => {
    const c = stringCellsOf(['héllo', 'a'.repeat(INLINE_STRING_BYTES + 1), null]);
    expect(Buffer.from(c.inline.subarray(0, 16)).toString('hex')).toBe('06000000' + Buffer.from('héllo').toString('hex') + '00'.repeat(6));
    expect(Buffer.from(c.inline.subarray(16, 48)).toString('hex')).toBe('00'.repeat(32));
    expect([...c.long]).toEqual([1]);
  });
});
