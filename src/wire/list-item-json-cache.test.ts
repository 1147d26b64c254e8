import { describe, expect, it } from 'vitest';
import { jsonArrayYielding, ListItemJsonCache } from './list-pages.js';

describe('ListItemJsonCache', () => {
  it('serialises an immutable item once per key and never keeps a mutable one', async () => {
    const items = [
      { id: 1, done: true },
      { id: 2, done: false },
    ];
    const cache = new ListItemJsonCache<(typeof items)[number]>((x) => x.done);
    let calls = 0;
    const toItem = (x: (typeof items)[number]) => (calls++, { id: x.id });
    const first = await jsonArrayYielding(items, toItem, undefined, cache.forKey('full'));
    expect(first.text).toBe('[{"id":1},{"id":2}]');
    expect(calls).toBe(2);
    await jsonArrayYielding(items, toItem, undefined, cache.forKey('full'));
    expect(calls).toBe(3); // only the mutable item again
    await jsonArrayYielding(items, toItem, undefined, cache.forKey('minimal'));
    expect(calls).toBe(5); // another key is another text
  });

  it('drops the oldest texts past its size bound', () => {
    const cache = new ListItemJsonCache<object>(() => true, 40);
    const view = cache.forKey('k');
    const a = {};
    const b = {};
    const c = {};
    view.set(a, 'x'.repeat(10));
    view.set(b, 'y'.repeat(10));
    view.set(c, 'z'.repeat(10));
    view.set({}, 'w'.repeat(11)); // over a quarter of the bound: not kept
    expect([view.get(a), view.get(b), view.get(c)].map((b) => b && Buffer.from(b).toString())).toEqual(['x'.repeat(10), 'y'.repeat(10), 'z'.repeat(10)]);
    view.set({}, 'v'.repeat(10));
    view.set({}, 'u'.repeat(10));
    expect(view.get(a)).toBeUndefined();
    expect(Buffer.from(view.get(c)!).toString()).toBe('z'.repeat(10));
  });
});
