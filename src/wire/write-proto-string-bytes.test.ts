/**
 * Proto STRING fields read as bytes by the columnar decoder (src/wire/write-proto-string-bytes.ts):
 * the cells must be those built from Node's own UTF-8 encoding of the values (`stringCellsOf`, the
 * path that reads JS strings), and a request whose string bytes are not valid UTF-8 — on their own,
 * or only valid when two rows' bytes are put back to back — must be left to the row path
 * (`undefined`), never stored. Rows are encoded by protobufjs with a writer type whose field is
 * `string` or, for invalid bytes, `bytes` (the same wire format).
 */
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import type { Column } from '../types/schema.js';
import { columnarProtoDecoder } from './write-proto-columns.js';
import { stringCellsOf } from './write-rows-cells.js';

const COLUMNS = [
  { name: 'k', type: { kind: 'INT64' }, required: false },
  { name: 's', type: { kind: 'STRING' }, required: false },
] as Column[];

/** `message R { optional int64 k = 1; optional <sType> s = 2; }` (proto2). */
function rowType(sType: 'string' | 'bytes'): protobuf.Type {
  const t = new protobuf.Type('R').add(new protobuf.Field('k', 1, 'int64', 'optional')).add(new protobuf.Field('s', 2, sType, 'optional'));
  new protobuf.Root().add(t);
  return t;
}

/** A serialized ProtoRows (field 1 repeated bytes) of `rows`. */
function protoRows(t: protobuf.Type, rows: Record<string, unknown>[]): Uint8Array {
  const w = protobuf.Writer.create();
  for (const r of rows) w.uint32((1 << 3) | 2).bytes(t.encode(t.fromObject(r)).finish());
  return w.finish();
}

const VALUES = ['', 'a', 'a'.repeat(12), 'a'.repeat(13), 'é'.repeat(6), 'a'.repeat(11) + 'é', '✓'.repeat(4), '😀😀😀', null, 'ü'.repeat(40)];

describe('proto STRING fields read as bytes', () => {
  it('gives the cells of the values as Node encodes them, NULL for an unset field', async () => {
    const t = rowType('string');
    const rows = VALUES.map((s, k) => (s === null ? { k } : { k, s }));
    const batch = await columnarProtoDecoder(t, COLUMNS)!.decodeProtoRows!(protoRows(t, rows));
    const s = batch!.columns[1]!;
    expect(s.kind).toBe('STRING');
    const want = stringCellsOf(VALUES);
    const got = (s as { cells: typeof want }).cells;
    expect(Buffer.from(got.bytes)).toEqual(Buffer.from(want.bytes));
    expect([...got.offsets]).toEqual([...want.offsets]);
    expect([...got.valid]).toEqual([...want.valid]);
    expect(Buffer.from(got.inline)).toEqual(Buffer.from(want.inline));
    expect([...got.long]).toEqual([...want.long]);
    expect(s.values).toEqual(VALUES);
  });

  it('leaves invalid UTF-8 to the row path, also when two rows would be valid back to back', async () => {
    const writer = rowType('bytes');
    const decoder = columnarProtoDecoder(rowType('string'), COLUMNS)!;
    const eAcute = Buffer.from('é'); // c3 a9
    const cases = [
      [{ k: 1, s: Buffer.from([0xff]) }],
      [{ k: 1, s: eAcute.subarray(0, 1) }, { k: 2, s: eAcute.subarray(1) }],
      [{ k: 1, s: Buffer.from('ok') }, { k: 2, s: Buffer.from([0x61, 0xc3]) }],
    ];
    for (const rows of cases) expect(await decoder.decodeProtoRows!(protoRows(writer, rows))).toBeUndefined();
    expect((await decoder.decodeProtoRows!(protoRows(writer, [{ k: 1, s: eAcute }])))!.columns[1]!.values).toEqual(['é']);
  });
});
