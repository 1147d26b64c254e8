/**
 * `npm run functions:coverage`: every builtin the analyzer knows under
 * BigQuery's language options (GetBuiltinFunctions), plus the BigQuery-only functions declared in
 * the catalog, each accounted for as implemented (a lowering in src/functions) or "not supported:
 * reason". Exits 1 when any builtin is unaccounted for; prints the implemented share.
 *
 * Operators are ZetaSQL's `$name` functions; internal ones no SQL text can reach (e.g. `$proto…`,
 * `$make_proto`) are listed apart and not counted.
 *
 * `npm run functions:coverage -- --where NAME [NAME…]` prints where each function lives instead
 * (no analyzer needed): the category file and table entry, `rejected: <reason> (…)`, or
 * `not registered`.
 */
import { fileURLToPath } from 'node:url';
import { AnalyzerClient } from '../src/analyzer/client.js';
import { CATALOG_FUNCTIONS } from '../src/analyzer/catalog-functions.js';
import { functionSource, lookupFunction } from '../src/functions/index.js';

/**
 * Where a function lives in the function table, by its GoogleSQL or ZetaSQL name (case-insensitive,
 * `ZetaSQL:` prefix optional): `src/functions/<file>.ts (<TABLE>.<name>)` for an implemented
 * function, `rejected: <reason> (src/functions/<file>.ts, <TABLE>.<name>)` for one the emulator
 * refuses, `not registered` when no category file declares it.
 */
export function whereIs(name: string): string {
  const key = name.trim().replace(/^ZetaSQL:/i, '').toLowerCase();
  const src = functionSource(key);
  if (!src) return 'not registered';
  const at = `${src.page.exportName}.${key}`;
  if (typeof src.entry === 'function') return `${src.page.file} (${at})`;
  return `rejected: ${src.entry.unsupported} (${src.page.file}, ${at})`;
}

/** The full accounting against the analyzer's builtins (the script's default mode). */
async function accounting(): Promise<void> {
  const analyzer = new AnalyzerClient();
  await analyzer.start();
  try {
    const res = (await analyzer.call('getBuiltinFunctions', { languageOptions: analyzer.languageOptions })) as {
      function?: { namePath?: string[]; options?: { aliasName?: string } }[];
    };
    const names = new Set<string>();
    for (const f of res.function ?? []) {
      const full = (f.namePath ?? []).join('.');
      names.add(full.replace(/^ZetaSQL:/, '').toLowerCase());
    }
    for (const f of CATALOG_FUNCTIONS) names.add(f.namePath.join('.').toLowerCase());
    // Functions no GoogleSQL text can call on BigQuery (proto, anonymization, internal helpers).
    const internal = (n: string) => /proto|^\$(make_proto|filter_fields|replace_fields|with_side_effects|error)|anon_|differential_privacy|^\$anon/.test(n);
    const implemented: string[] = [];
    const unsupported: [string, string][] = [];
    const unaccounted: string[] = [];
    const skipped: string[] = [];
    for (const n of [...names].sort()) {
      if (internal(n)) {
        skipped.push(n);
        continue;
      }
      const f = lookupFunction(n);
      if (!f) unaccounted.push(n);
      else if ('unsupported' in f) unsupported.push([n, f.unsupported]);
      else implemented.push(n);
    }
    const counted = implemented.length + unsupported.length + unaccounted.length;
    console.log(`Builtins known to the analyzer (BigQuery options) + catalog-declared: ${names.size}`);
    console.log(`  implemented        ${implemented.length}`);
    console.log(`  not supported      ${unsupported.length}`);
    console.log(`  unaccounted        ${unaccounted.length}`);
    console.log(`  internal (skipped) ${skipped.length}`);
    console.log(`Implemented share: ${((100 * implemented.length) / Math.max(1, counted)).toFixed(1)} %`);
    if (unsupported.length) {
      console.log('\nNot supported:');
      for (const [n, why] of unsupported) console.log(`  ${n}: ${why}`);
    }
    if (unaccounted.length) {
      console.log('\nUnaccounted (no entry in src/functions):');
      console.log('  ' + unaccounted.join(', '));
    }
    process.exitCode = unaccounted.length ? 1 : 0;
  } finally {
    analyzer.stop();
  }
}

const runDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (runDirectly) {
  const at = process.argv.indexOf('--where');
  if (at >= 0) {
    const names = process.argv.slice(at + 1);
    if (!names.length) {
      console.error('usage: npm run functions:coverage -- --where NAME [NAME…]');
      process.exitCode = 2;
    }
    for (const n of names) console.log(`${n}: ${whereIs(n)}`);
  } else {
    await accounting();
  }
}
