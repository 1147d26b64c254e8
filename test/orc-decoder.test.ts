/**
 * The ORC decoder's encodings (src/jobs/orc/), checked on the worked examples of the Apache ORC
 * specification v1 (https://orc.apache.org/specification/ORCv1/, "Run Length Encoding": each
 * example gives a value sequence and its bytes), and the codecs on data compressed by other
 * implementations (node's zlib for raw deflate; the example files for Snappy, LZ4 and ZSTD in
 * test/load-orc.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StreamReader, readBooleans, readByteRle, readIntegers } from '../src/jobs/orc/orc-rle.js';
import { decompressStream, snappyDecode } from '../src/jobs/orc/orc-compression.js';
import { readOrc } from '../src/jobs/load-orc.js';
import { BigQueryError } from '../src/errors/errors.js';
import { turnsDuring } from './helpers/event-loop-turns.js';

const r = (...bytes: number[]) => new StreamReader(Uint8Array.from(bytes));
const ints = (xs: bigint[]) => xs.map(Number);

describe('ORC run-length encodings (specification examples)', () => {
  it('byte RLE: 100 zeros, and two literals', () => {
    expect(Array.from(readByteRle(r(0x61, 0x00), 100))).toEqual(new Array(100).fill(0));
    expect(Array.from(readByteRle(r(0xfe, 0x44, 0x45), 2))).toEqual([0x44, 0x45]);
  });

  it('boolean RLE: bits most significant first', () => {
    // 0xff 0x80 as two literal bytes (control 0xfe): eight true, then true and seven false.
    expect(readBooleans(r(0xfe, 0xff, 0x80), 16)).toEqual([...new Array(9).fill(true), ...new Array(7).fill(false)]);
  });

  it('integer RLE v1: a run (100 sevens) and literals', () => {
    expect(ints(readIntegers(r(0x61, 0x00, 0x07), 100, false, false))).toEqual(new Array(100).fill(7));
    expect(ints(readIntegers(r(0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b), 5, false, false))).toEqual([2, 3, 6, 7, 11]);
  });

  it('integer RLE v2 SHORT_REPEAT: five times 10000', () => {
    expect(ints(readIntegers(r(0x0a, 0x27, 0x10), 5, true, false))).toEqual([10000, 10000, 10000, 10000, 10000]);
  });

  it('integer RLE v2 DIRECT: 23713, 43806, 57005, 48879', () => {
    expect(ints(readIntegers(r(0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef), 4, true, false))).toEqual([23713, 43806, 57005, 48879]);
  });

  it('integer RLE v2 PATCHED_BASE: twenty values with one outlier', () => {
    const bytes = [0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8];
    expect(ints(readIntegers(r(...bytes), 20, true, false))).toEqual([
      2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090, 2100, 2110, 2120, 2130, 2140, 2150, 2160, 2170, 2180, 2190,
    ]);
  });

  it('integer RLE v2 DELTA: the first ten primes', () => {
    expect(ints(readIntegers(r(0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46), 10, true, false))).toEqual([2, 3, 5, 7, 11, 13, 17, 19, 23, 29]);
  });

  it('signed integers are zigzag-decoded', () => {
    // DIRECT, width 8, four values 1, 2, 3, 4 → -1, 1, -2, 2.
    expect(ints(readIntegers(r(0x4e, 0x03, 1, 2, 3, 4), 4, true, true))).toEqual([-1, 1, -2, 2]);
  });
});

describe('ORC compression chunks', () => {
  it('ZLIB chunks are raw deflate; an original chunk is stored as is', () => {
    const text = Buffer.from('hello hello hello hello ORC');
    const deflated = zlib.deflateRawSync(text);
    const header = (len: number, original: boolean) => [(len * 2 + (original ? 1 : 0)) & 0xff, ((len * 2) >> 8) & 0xff, ((len * 2) >> 16) & 0xff];
    const stream = Buffer.concat([Buffer.from(header(deflated.length, false)), deflated, Buffer.from(header(3, true)), Buffer.from('abc')]);
    expect(Buffer.from(decompressStream(stream, 'ZLIB', 262144)).toString()).toBe('hello hello hello hello ORCabc');
  });

  it('Snappy: a literal and a copy (a block built by hand from the format description)', () => {
    // uncompressed length 12, literal "abcd" (tag 3 << 2), copy-1 of length 8 at offset 4.
    const block = Uint8Array.from([12, 0x0c, 0x61, 0x62, 0x63, 0x64, ((8 - 4) << 2) | 1, 4]);
    expect(Buffer.from(snappyDecode(block)).toString()).toBe('abcdabcdabcd');
  });
});

describe('ORC decoding and the event loop', () => {
  it('a 70,000-row single-stripe file is decoded a slice of rows at a time, letting other work run in between', async () => {
    const file = path.resolve('test/data/orc/nulls-at-end-snappy.orc');
    await readOrc([file], {}); // warm the JIT as a running emulator would be
    // Other work: a callback re-queued on every turn of the event loop counts the turns it gets.
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    const {
      value: { rows },
      turns,
    } = await turnsDuring(() => readOrc([file], {}));
    h.disable();
    expect(rows.length).toBe(70000);
    // 70,000 rows in slices of 4,096: at least 17 turns for other work while decoding.
    expect(turns).toBeGreaterThanOrEqual(17);
    // Wall-clock stalls: ~5 ms a slice on an idle machine; the bound leaves room for a loaded CI machine.
    expect(h.max / 1e6).toBeLessThan(250);
  });
});

describe('ORC decoding of damaged files', () => {
  it('files with random bytes overwritten either load or fail with a reading error (reason invalid), promptly', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-orc-fuzz-'));
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const outcomes = { loaded: 0, invalid: 0 };
    for (const name of ['TestOrcFile.test1.orc', 'TestOrcFile.testSnappy.orc', 'TestVectorOrcFile.testLz4.orc', 'TestVectorOrcFile.testZstd.0.12.orc', 'TestOrcFile.testUnionAndTimestamp.orc']) {
      const good = fs.readFileSync(path.resolve('test/data/orc', name));
      for (let k = 0; k < 40; k++) {
        const bad = Buffer.from(good);
        for (let j = 0; j < 1 + Math.floor(rand() * 4); j++) bad[Math.floor(rand() * bad.length)] = Math.floor(rand() * 256);
        const f = path.join(tmp, `${k}-${name}`);
        fs.writeFileSync(f, bad);
        const started = Date.now();
        await readOrc([f], {}).then(
          () => outcomes.loaded++,
          (e: unknown) => {
            expect(e, `${name} #${k}: ${String(e)}`).toBeInstanceOf(BigQueryError);
            expect((e as BigQueryError).reason).toBe('invalid');
            outcomes.invalid++;
          },
        );
        expect(Date.now() - started, `${name} #${k}`).toBeLessThan(5000);
      }
    }
    fs.rmSync(tmp, { recursive: true, force: true });
    expect(outcomes.loaded + outcomes.invalid).toBe(200);
    expect(outcomes.invalid).toBeGreaterThan(0);
  });
});
