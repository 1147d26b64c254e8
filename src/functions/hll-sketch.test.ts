/**
 * HLL++ sketch algebra (hll-sketch.ts): the documented rules of
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/hll_functions checked as
 * properties — a merge of sketches of disjoint inputs is the sketch of their union, and merging
 * sketches of different precisions gives the lowest precision ("the precision is downgraded to the
 * lowest precision in the merge") — plus the byte round trip, the refusal of foreign bytes, and the
 * agreement of the in-DuckDB INT64 hashing (hll-int64-sql.ts) with the JavaScript one, which
 * reproduces BigQuery's recorded sketch bytes (test/hll-sketches.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { fingerprintInt64 } from './hll-fingerprint.js';
import { estimateCardinality } from './hll-estimate.js';
import { int64SparseValueSql } from './hll-int64-sql.js';
import { rows } from './testkit.js';
import { mergeSketches, parseSketch, serializeSketch, SketchError, sketchFromSparse, sparsePrecisionOf, sparseValueOfHash, VALUE_TYPE } from './hll-sketch.js';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
const init = (xs: number[], p = 15) =>
  sketchFromSparse(xs.map((x) => sparseValueOfHash(fingerprintInt64(BigInt(x)), p, sparsePrecisionOf(p))), p, xs.length, VALUE_TYPE.INT64);
const hex = (s: Parameters<typeof serializeSketch>[0]) => Buffer.from(serializeSketch(s)).toString('hex');

describe('HLL++ sketches', () => {
  it('round-trips through its bytes, sparse and normal', () => {
    for (const s of [init(range(0, 50)), init(range(0, 40000))]) {
      expect(hex(parseSketch(serializeSketch(s)))).toBe(hex(s));
    }
    expect(init(range(0, 50)).sparse).toBeDefined();
    expect(init(range(0, 40000)).registers).toHaveLength(2 ** 15);
  });

  it('a merge of sketches of disjoint inputs is the sketch of the union', () => {
    const parts = range(0, 80).map((k) => init(range(k * 700, (k + 1) * 700)));
    expect(hex(mergeSketches(parts))).toBe(hex(init(range(0, 80 * 700))));
    const small = range(0, 5).map((k) => init(range(k * 30, (k + 1) * 30)));
    expect(hex(mergeSketches(small))).toBe(hex(init(range(0, 150))));
  });

  it('merging precisions 15 and 12 gives the precision-12 sketch of the union', () => {
    expect(hex(mergeSketches([init(range(0, 300)), init(range(300, 600), 12)]))).toBe(hex(init(range(0, 600), 12)));
    expect(hex(mergeSketches([init(range(0, 50000)), init(range(50000, 60000), 12)]))).toBe(hex(init(range(0, 60000), 12)));
  });

  it('estimates stay within the documented 99% interval (±0.86% at precision 15)', () => {
    for (const n of [5000, 30000, 200000]) expect(Math.abs(estimateCardinality(init(range(0, n))) - n) / n).toBeLessThan(0.0086);
  });

  it('refuses bytes that are not an HLL++ state', () => {
    expect(() => parseSketch(Buffer.from('not a sketch'))).toThrow(SketchError);
    expect(() => parseSketch(new Uint8Array())).toThrow(SketchError);
    // BigQuery's recorded sketch with its first sparse varint (3 bytes) replaced by three 0 deltas.
    const bytes = Buffer.from('087010061802200882071a1006180f20143212a3a605c1d102c88419e2af0c8877ebfea101', 'hex');
    expect(parseSketch(bytes).sparse).toHaveLength(6);
    const repeated = Buffer.concat([bytes.subarray(0, 19), Buffer.from('000000'), bytes.subarray(22)]);
    expect(() => parseSketch(repeated)).toThrow(SketchError);
  });
});

describe('the INT64 sparse value computed inside DuckDB', () => {
  it('agrees bit for bit with Fingerprint2011 in JavaScript, extremes included', async () => {
    const xs = [0n, 1n, -1n, 42n, -15n, 9223372036854775807n, -9223372036854775808n, ...range(0, 500).map((i) => BigInt(i * 7919 - 250) * 1234567891n)];
    for (const p of [10, 15, 24]) {
      const sp = sparsePrecisionOf(p);
      const got = await rows(`SELECT ${int64SparseValueSql('x', p, sp)} FROM unnest([${xs.map((x) => `CAST(${x} AS BIGINT)`).join(', ')}]) t(x)`);
      expect(got.map((r) => Number(r[0]))).toEqual(xs.map((x) => sparseValueOfHash(fingerprintInt64(x), p, sp)));
    }
  });
});
