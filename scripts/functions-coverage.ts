/**
 * `npm run functions:coverage` (issue 5, deliverable 5): every builtin the analyzer knows under
 * BigQuery's language options (GetBuiltinFunctions), plus the BigQuery-only functions declared in
 * the catalog, each accounted for as implemented (a lowering in src/functions) or "not supported:
 * reason". Exits 1 when any builtin is unaccounted for; prints the implemented share.
 *
 * Operators are ZetaSQL's `$name` functions; internal ones no SQL text can reach (e.g. `$proto…`,
 * `$make_proto`) are listed apart and not counted.
 */
import { AnalyzerClient } from '../src/analyzer/client.js';
import { EXTRA_FUNCTIONS } from '../src/analyzer/extra-functions.js';
import { lookupFunction } from '../src/functions/registry.js';
import '../src/functions/index.js';

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
  for (const f of EXTRA_FUNCTIONS) names.add(f.namePath.join('.').toLowerCase());
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
