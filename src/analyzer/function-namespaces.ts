/**
 * Builtin function namespaces and the catalog names they collide with.
 *
 * ZetaSQL registers the builtin functions with a namespace (`NET.HOST`, `KEYS.NEW_KEYSET`,
 * `AEAD.ENCRYPT`, `HLL_COUNT.MERGE`, `D3A_COUNT.…`, `KLL_QUANTILES.…`) as sub-catalogs of the
 * catalog its builtin function options are loaded into. A statement's catalog (src/engine/analyze.ts)
 * nests datasets as sub-catalogs of the same root, so a dataset named like a namespace — a table
 * `net.events` — made the analyzer process abort while loading the catalog (`Check failed:
 * InsertIfNotPresent(m, key, data) duplicate key: net`), and every retry with it: a 10–15 s stall
 * per statement. Such a catalog leaves that namespace's functions out of the builtins
 * ({@link excludedNamespaceFunctions}); a statement that reads dataset `net` cannot call `NET.*`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { zetasqlDir } from './process.js';

/** The namespaces of builtin functions (lower case), with their FunctionSignatureId prefixes. */
const NAMESPACES: Readonly<Record<string, string>> = {
  net: 'FN_NET_',
  keys: 'FN_KEYS_',
  aead: 'FN_AEAD_',
  hll_count: 'FN_HLL_COUNT_',
  d3a_count: 'FN_D3A_COUNT_',
  kll_quantiles: 'FN_KLL_QUANTILES_',
};

let idsByNamespace: Map<string, string[]> | undefined;

/** FunctionSignatureId names per namespace, read once from the package's builtin_function.proto. */
function namespaceIds(): Map<string, string[]> {
  if (idsByNamespace) return idsByNamespace;
  const text = fs.readFileSync(path.join(zetasqlDir(), 'protos', 'zetasql', 'public', 'builtin_function.proto'), 'utf8');
  const names = [...text.matchAll(/^\s*(FN_[A-Z0-9_]+)\s*=\s*\d+\s*;/gm)].map((m) => m[1]!);
  idsByNamespace = new Map(Object.entries(NAMESPACES).map(([ns, prefix]) => [ns, names.filter((n) => n.startsWith(prefix))]));
  return idsByNamespace;
}

/**
 * The builtin FunctionSignatureIds to leave out of a catalog whose root holds sub-catalogs named
 * `catalogNames` (compared case-insensitively): those of every namespace one of them collides with.
 * Empty when none collides (the common case: nothing is read).
 */
export function excludedNamespaceFunctions(catalogNames: readonly string[]): string[] {
  const colliding = catalogNames.map((n) => n.toLowerCase()).filter((n) => n in NAMESPACES);
  if (!colliding.length) return [];
  const ids = namespaceIds();
  return [...new Set(colliding)].flatMap((ns) => ids.get(ns) ?? []);
}
