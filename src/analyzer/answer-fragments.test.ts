import { describe, expect, it } from 'vitest';
import { FRAGMENT_MAX_CHARS, fromFragments, toFragments } from './answer-fragments.js';
import { jsonReplacer, parseAnswerJson } from './answer-json.js';

/** A left-deep chain like the resolved AST of `1 + 1 + … + 1` (depth n). */
function chain(n: number): unknown {
  let node: unknown = { kind: 'Literal', value: { int64Value: '1' } };
  for (let i = 0; i < n; i++) node = { kind: 'FunctionCall', function: '$add', argumentList: [node, { kind: 'Literal', value: { int64Value: String(i), padding: 'p'.repeat(100) } }] };
  return node;
}

describe('answer fragments', () => {
  const cases: [string, unknown][] = [
    ['a scalar', 42],
    ['null', null],
    ['a small object', { a: 1, b: 'x', c: [1, 2, { d: true }], e: undefined }],
    ['a wide array (100,000-item IN list)', { kind: 'FunctionCall', argumentList: Array.from({ length: 100_000 }, (_, i) => ({ kind: 'Literal', value: { stringValue: `v${i}` } })) }],
    ['a deep chain', chain(1_300)],
    ['a root array wider than a fragment', Array.from({ length: 50_000 }, (_, i) => [i, String(i)])],
    ['bytes and special numbers inside small subtrees', { list: Array.from({ length: 3_000 }, (_, i) => ({ kind: 'Literal', value: { bytesValue: new Uint8Array([i % 256, 1]), d: i % 2 ? -0 : NaN, s: 'é\u0000"' } })) }],
    ['bytes and special numbers', { b: new Uint8Array([1, 2, 255]), n: [NaN, -0, Infinity], big: 'x'.repeat(FRAGMENT_MAX_CHARS * 2) }],
  ];
  for (const [name, value] of cases)
    it(`round-trips ${name}`, async () => {
      const f = toFragments(value);
      const back = await fromFragments(f);
      // The same as the whole value through one JSON text (the path before fragments).
      expect(back).toEqual(parseAnswerJson(JSON.stringify(value, jsonReplacer)));
    });

  it('cuts and restores a chain deeper than JSON.stringify goes (no recursion)', async () => {
    const back = await fromFragments(toFragments(chain(20_000)));
    type Call = { argumentList: [Call, { value: { int64Value: string } }]; kind: string };
    let node = back as Call;
    const seen: string[] = [];
    while (node.kind === 'FunctionCall') {
      seen.push(node.argumentList[1].value.int64Value);
      node = node.argumentList[0];
    }
    expect(seen.length).toBe(20_000);
    expect(seen[0]).toBe('19999');
    expect(seen[19_999]).toBe('0');
    expect(node).toEqual({ kind: 'Literal', value: { int64Value: '1' } });
  });

  it('cuts a deep chain into several fragments', () => {
    expect(toFragments(chain(800)).fragments.length).toBeGreaterThan(1);
  });

  it('keeps every fragment near the size bound', () => {
    const f = toFragments({ argumentList: Array.from({ length: 100_000 }, (_, i) => ({ kind: 'Literal', value: { stringValue: `v${i}` } })) });
    expect(f.fragments.length).toBeGreaterThan(20);
    // A fragment may exceed the bound by its last element only.
    for (const t of f.fragments) expect(t.length).toBeLessThan(FRAGMENT_MAX_CHARS * 1.1);
  });

  it('restores bytes as Buffers and NaN/-0 as numbers', async () => {
    const back = (await fromFragments(toFragments({ b: new Uint8Array([7, 8]), n: [NaN, -0] }))) as { b: Buffer; n: number[] };
    expect(Buffer.isBuffer(back.b) && [...back.b]).toEqual([7, 8]);
    expect(Number.isNaN(back.n[0]) && Object.is(back.n[1], -0)).toBe(true);
  });
});
