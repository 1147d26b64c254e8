/**
 * The function table is explicit: each category file exports one table, index.ts lists them, and
 * a name declared twice fails the table build naming both declarations (no silent shadowing).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FUNCTION_PAGES, lookupFunction, registeredNames } from './index.js';
import { defineUdf } from './builtin-udfs.js';
import { buildFunctionTable, page, type FnTable } from './registry.js';

const here = dirname(fileURLToPath(import.meta.url));

describe('buildFunctionTable', () => {
  const A: FnTable = { f: () => 'a()', g: { unsupported: 'no' } };
  const B: FnTable = { h: () => 'b()', f: () => 'b_f()' };

  it('maps each name to its entry and declaring page', () => {
    const t = buildFunctionTable([page('a.ts', { A }), page('b.ts', { B: { h: B.h } })]);
    expect([...t.keys()].sort()).toEqual(['f', 'g', 'h']);
    expect(t.get('f')?.page).toMatchObject({ file: 'src/functions/a.ts', exportName: 'A' });
    expect(t.get('h')?.entry).toBe(B.h);
  });

  it('rejects a name registered twice, naming both registrations', () => {
    expect(() => buildFunctionTable([page('a.ts', { A }), page('b.ts', { B })])).toThrow(
      'function f is registered twice: src/functions/a.ts (A) and src/functions/b.ts (B)',
    );
  });

  it('rejects the same page listed twice', () => {
    expect(() => buildFunctionTable([page('a.ts', { A }), page('a.ts', { A })])).toThrow(/function f is registered twice/);
  });
});

describe('the function table (index.ts)', () => {
  it('lists each category file with the table that file exports', async () => {
    for (const p of FUNCTION_PAGES) {
      const mod = (await import(join(here, p.file.replace(/^src\/functions\//, '').replace(/\.ts$/, '.js')))) as Record<string, unknown>;
      expect(mod[p.exportName], `${p.file} exports ${p.exportName}`).toBe(p.table);
    }
  });

  it('lists every exported category table of src/functions', () => {
    const exported = readdirSync(here)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .flatMap((f) => [...readFileSync(join(here, f), 'utf8').matchAll(/^export const (\w+): FnTable\b/gm)].map((m) => `src/functions/${f}:${m[1]}`));
    expect(FUNCTION_PAGES.map((p) => `${p.file}:${p.exportName}`).sort()).toEqual(exported.sort());
  });

  it('has no file named with a number or misc/extra', () => {
    const bad = readdirSync(here).filter((f) => /\d\.ts$|(^|-)(misc|extra)[.-]/.test(f));
    expect(bad).toEqual([]);
  });

  it('answers the formerly shadowed names with the entries that won (BigQuery implements them)', () => {
    // json_functions#json_keys, string_functions#edit_distance, aggregate_functions#min_by/#max_by,
    // #sum, #avg: all BigQuery functions, so each must have a lowering, not a rejection.
    for (const n of ['json_keys', 'edit_distance', 'min_by', 'max_by', 'sum', 'avg']) expect(typeof lookupFunction(n), n).toBe('function');
    expect(registeredNames()).toContain('regexp_extract');
    expect(lookupFunction('no_such_function')).toBeUndefined();
  });
});

describe('defineUdf', () => {
  it('rejects a UDF name declared twice', () => {
    // bq_to_base32 is declared by string-encoding.ts (loaded through index.js above).
    expect(() => defineUdf('bq_to_base32', ['BLOB'], 'VARCHAR', () => null)).toThrow('UDF bq_to_base32 is declared twice');
  });
});
