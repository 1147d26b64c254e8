/**
 * `npm run functions:coverage`: BigQuery's function list first — every name of BigQuery's
 * "Functions (alphabetical)" page plus its conditional expressions (`BIGQUERY_FUNCTIONS`,
 * src/conformance/docs-scope.ts) accounted for as implemented (the analyzer knows it, by name or
 * alias, and the function table lowers it; or a syntax form the lowering handles), added (declared
 * in src/analyzer/catalog-functions.ts for this ~2023 analyzer build, and lowered), or refused by
 * name with the reason (`{unsupported}` entries of src/functions) — then every builtin the analyzer
 * knows under BigQuery's language options (GetBuiltinFunctions) plus the catalog-declared ones,
 * accounted the same way. Exits 1 when a name of either list is unaccounted for.
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
import { BIGQUERY_FUNCTIONS } from '../src/conformance/docs-scope.js';
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

/**
 * Names of BigQuery's list that are syntax rather than calls of a named function, with how the
 * analyzer resolves them: the ZetaSQL functions that must be lowered (`zeta`), or the resolved node
 * or source rewrite that handles them (`form`).
 */
const SYNTAX_FORMS: Record<string, { zeta?: string[]; form?: string }> = {
  CASE: { zeta: ['$case_no_value', '$case_with_value'] },
  EXTRACT: { zeta: ['$extract', '$extract_date', '$extract_time', '$extract_datetime'] },
  CAST: { form: 'a resolved Cast (src/engine/lower/exprs.ts)' },
  SAFE_CAST: { form: 'a resolved Cast returning NULL on error (src/engine/lower/exprs.ts)' },
  ARRAY: { form: 'an ARRAY subquery (src/engine/lower/exprs.ts)' },
  RANGE_SESSIONIZE: { form: 'a source rewrite (src/analyzer/range-sessionize.ts)' },
};

/** How each name of BigQuery's list is accounted for (`bigQueryListAccounting`). */
export interface BigQueryListAccounting {
  /** Known to the analyzer (or a syntax form) and lowered: name → ZetaSQL name or form. */
  implemented: Map<string, string>;
  /** Declared in the catalog (src/analyzer/catalog-functions.ts) and lowered. */
  added: string[];
  /** Refused by name: [name, reason]. */
  refused: [string, string][];
  unaccounted: string[];
}

/**
 * Accounts for every name of BigQuery's function list against the analyzer's builtins: `builtins`
 * maps each builtin name and alias (lower case, no `ZetaSQL:` prefix) to the function's name.
 */
export function bigQueryListAccounting(builtins: ReadonlyMap<string, string>): BigQueryListAccounting {
  const declared = new Set(CATALOG_FUNCTIONS.map((f) => f.namePath.join('.').toLowerCase()));
  const out: BigQueryListAccounting = { implemented: new Map(), added: [], refused: [], unaccounted: [] };
  const lowered = (n: string) => {
    const f = lookupFunction(n);
    return f && !('unsupported' in f);
  };
  for (const name of [...BIGQUERY_FUNCTIONS].sort()) {
    const lower = name.toLowerCase();
    const syntax = SYNTAX_FORMS[name];
    if (syntax) {
      if (syntax.form) out.implemented.set(name, syntax.form);
      else if (syntax.zeta!.every((z) => builtins.has(z) && lowered(z))) out.implemented.set(name, syntax.zeta!.join(', '));
      else out.unaccounted.push(name);
      continue;
    }
    const zeta = declared.has(lower) ? lower : builtins.get(lower) ?? lower;
    const f = lookupFunction(zeta);
    if (f && 'unsupported' in f) out.refused.push([name, f.unsupported]);
    else if (!f || (!declared.has(lower) && !builtins.has(lower))) out.unaccounted.push(name);
    else if (declared.has(lower)) out.added.push(name);
    else out.implemented.set(name, zeta);
  }
  return out;
}

/** The analyzer's builtins under BigQuery's language options: name and alias → name (lower case). */
export async function analyzerBuiltins(analyzer: AnalyzerClient): Promise<Map<string, string>> {
  const res = (await analyzer.call('getBuiltinFunctions', { languageOptions: analyzer.languageOptions })) as {
    function?: { namePath?: string[]; options?: { aliasName?: string } }[];
  };
  const names = new Map<string, string>();
  for (const f of res.function ?? []) {
    const full = (f.namePath ?? []).join('.').replace(/^ZetaSQL:/, '').toLowerCase();
    names.set(full, full);
    if (f.options?.aliasName) names.set(f.options.aliasName.toLowerCase(), full);
  }
  return names;
}

/** The full accounting: BigQuery's list, then the analyzer's builtins (the script's default mode). */
async function accounting(): Promise<void> {
  const analyzer = new AnalyzerClient();
  await analyzer.start();
  try {
    const builtins = await analyzerBuiltins(analyzer);
    const bq = bigQueryListAccounting(builtins);
    console.log(`BigQuery's function list (functions-all + conditional expressions): ${BIGQUERY_FUNCTIONS.size}`);
    console.log(`  implemented        ${bq.implemented.size}`);
    console.log(`  added (catalog)    ${bq.added.length}`);
    console.log(`  refused by name    ${bq.refused.length}`);
    console.log(`  unaccounted        ${bq.unaccounted.length}`);
    console.log(`Implemented share: ${((100 * (bq.implemented.size + bq.added.length)) / Math.max(1, BIGQUERY_FUNCTIONS.size)).toFixed(1)} %`);
    console.log(`\nAdded through the catalog: ${bq.added.join(', ')}`);
    console.log('\nRefused by name:');
    for (const [n, why] of bq.refused) console.log(`  ${n}: ${why}`);
    if (bq.unaccounted.length) console.log(`\nUnaccounted (BigQuery's list): ${bq.unaccounted.join(', ')}`);

    const names = new Set(builtins.values());
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
    console.log(`\nBuiltins known to the analyzer (BigQuery options) + catalog-declared: ${names.size}`);
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
    process.exitCode = unaccounted.length || bq.unaccounted.length ? 1 : 0;
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
