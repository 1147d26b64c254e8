/**
 * Collation (BigQuery "Working with collation"): a collation specification `language_tag[:ci]`
 * (`und:ci`, `en-us-u-kn-true`…) compares strings with the Unicode Collation Algorithm of that
 * locale; `:ci` ignores case (ICU strength secondary), `und` is the root locale, `binary` and ``
 * compare code points. The resolved AST carries the collation of a comparison on the call
 * (`collationList`) and of an ORDER BY item (`collation`).
 *
 * The lowering compares ICU sort keys (DuckDB `icu_sort_key(string, locale)`): equal keys are equal
 * strings under the collation, and keys order like the collation. Examples of the reference:
 * `COLLATE('a', 'und:ci') < COLLATE('Z', 'und:ci')` is TRUE; `COLLATE('Foo', 'und:ci') =
 * COLLATE('foo', 'und:ci')`, `'\u3042' = '\u30A2'` and `'a\u030A' = '\u00C5'` under `und:ci` are
 * TRUE; `ORDER BY x COLLATE 'en-us-u-kn-true'` orders `a1b` before `a12b`; ignorable characters
 * (U+2060) do not count. `LIKE` under a collation matches case-insensitively for `:ci` and
 * rejects the `_` wildcard ("LIKE with collation" supports only `%`).
 */
import { BigQueryError } from '../errors/errors.js';
import type { FnCall } from './registry.js';
import { q, stringLiteral } from './util.js';

/** The ICU locale of a collation specification; undefined for binary (code point) comparison. */
export function icuLocale(spec: string): string | undefined {
  const s = spec.trim();
  if (s === '' || s.toLowerCase() === 'binary') return undefined;
  const m = /^([^:]+)(?::(ci|cs))?$/i.exec(s);
  if (!m) throw BigQueryError.collationNotSupported(spec);
  const tag = m[1]!;
  if (tag.toLowerCase() === 'binary') return undefined;
  if (m[2]?.toLowerCase() !== 'ci') return tag;
  return /-u-/i.test(tag) ? `${tag}-ks-level2` : `${tag}-u-ks-level2`;
}

/** The sort key of a STRING value under an ICU locale. */
export const sortKey = (sql: string, locale: string): string => `icu_sort_key(${sql}, ${q(locale)})`;

/** Functions whose collated form compares sort keys of all their arguments. */
const KEYED = new Set(['$equal', '$not_equal', '$less', '$less_or_equal', '$greater', '$greater_or_equal', '$between', '$in', '$is_distinct_from', '$is_not_distinct_from']);

/**
 * The call a lowering sees for a function applied under a collation: comparison arguments become
 * sort keys; LIKE becomes a case-insensitive match for `:ci`. Other collated functions are
 * rejected (no silently binary answer).
 * @throws BigQueryError notSupported for other functions; invalidQuery for `_` in a collated LIKE
 */
export function collatedCall(c: FnCall, collation: string): FnCall {
  const locale = icuLocale(collation);
  if (locale === undefined) return c;
  const str = (i: number) => c.argTypes[i]?.kind === 'STRING';
  if (KEYED.has(c.name)) return { ...c, args: c.args.map((a, i) => (str(i) ? sortKey(a, locale) : a)) };
  // CASE x WHEN w1 THEN r1 …: the value and the WHEN operands compare as sort keys, the results stay.
  const compared = (i: number) => i === 0 || (i % 2 === 1 && i + 1 < c.args.length);
  if (c.name === '$case_with_value') return { ...c, args: c.args.map((a, i) => (str(i) && compared(i) ? sortKey(a, locale) : a)) };
  // COUNT counts values, COUNT(DISTINCT …) the distinct sort keys (equal under the collation).
  if (c.name === 'count') return { ...c, args: c.args.map((a, i) => (str(i) ? sortKey(a, locale) : a)) };
  if (c.name === '$like' && /(^|-)ks-level2$/.test(locale) && /^und\b/i.test(locale)) {
    const p = stringLiteral(c.args[1]);
    if (p !== undefined && /(^|[^\\])_/.test(p)) throw BigQueryError.collatedLikeUnderscore();
    return { ...c, args: c.args.map((a) => `lower(${a})`) };
  }
  throw BigQueryError.notSupported(`Function ${c.name.replace(/^\$/, 'operator ').toUpperCase()} with collation ${collation}`);
}
