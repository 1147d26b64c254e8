/**
 * The per-table write generations (src/engine/duckdb/write-generations.ts): a write of T moves T's
 * generation and not U's; a write naming nothing moves every table's; `writing` is true between
 * a write's start and its end; reads naming no table follow the database-wide clock.
 */
import { describe, expect, it } from 'vitest';
import { WriteGenerations } from '../src/engine/duckdb/write-generations.js';

describe('WriteGenerations', () => {
  it('moves only the written tables, everything on an unnamed write', () => {
    const g = new WriteGenerations();
    const t0 = g.of(['t']);
    const u0 = g.of(['u']);
    g.begin(['T']);
    expect(g.writing(['t'])).toBe(true);
    expect(g.writing(['u'])).toBe(false);
    const mid = g.of(['t']);
    expect(mid).not.toBe(t0);
    g.end(['T']);
    expect(g.writing(['t'])).toBe(false);
    expect(g.of(['t'])).not.toBe(mid);
    expect(g.of(['u'])).toBe(u0);
    expect(g.of(['u', 't'])).toBe(g.of(['t']));
    const clock = g.of();
    g.begin('none');
    g.end('none');
    expect(g.of()).toBe(clock);
    g.begin('all');
    expect(g.writing(['u'])).toBe(true);
    g.end('all');
    expect(g.of(['u'])).not.toBe(u0);
    expect(g.of([])).toBe(g.of());
  });
});
