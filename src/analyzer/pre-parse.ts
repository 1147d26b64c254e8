/**
 * Text rewrites applied to a request's SQL before the analyzer parses it, for GoogleSQL syntax
 * BigQuery accepts but this analyzer build (about 2023) cannot parse: adjacent string
 * and bytes literal chunks (literal-concat.ts), `BY NAME` set operations (set-by-name.ts) and pipe
 * query syntax (pipe-syntax.ts, applied first, whose error locations are mapped back).
 * Text without those constructs is returned unchanged; error locations in a rewritten request
 * refer to the rewritten text.
 */
import { concatLiterals } from './literal-concat.js';
import { rewritePipeSyntax } from './pipe-syntax.js';
import { byNameToCorresponding } from './set-by-name.js';

/** A quote, whitespace and comments, then a quote: adjacent literal chunks may be present (no nested quantifiers to backtrack). */
const MAYBE_CHUNKS = /['"]\s*(?:(?:--[^\n]*\n|#[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*[rRbB]{0,2}['"]/;
const MAYBE_BY_NAME = /\bBY\s+NAME\b/i;
/**
 * Pipe syntax or a query starting with FROM may be present: a pipe symbol; FROM first in the text
 * (after comments), after `(` or `;`; or a text starting with WITH that has `) FROM` (no nested
 * quantifiers to backtrack; a plain `SELECT …\nFROM t WHERE id IN (…)` does not match).
 */
const LEADING_COMMENTS = String.raw`^\s*(?:(?:--|#)[^\n]*\n\s*|\/\*[^*]*\*+(?:[^/*][^*]*\*+)*\/\s*)*`;
const MAYBE_PIPE = new RegExp(String.raw`\|>|[;(]\s*FROM\b|${LEADING_COMMENTS}FROM\b`, 'i');
const MAYBE_WITH_FROM = new RegExp(`${LEADING_COMMENTS}WITH\\b`, 'i');

/**
 * `sql` with the pre-parse rewrites applied (the same string when none applies). Cheap tests
 * skip the scans for text that cannot hold either construct (large INSERT … VALUES texts).
 */
export function preParseRewrites(sql: string): string {
  return preParseWithLocations(sql).text;
}

/**
 * {@link preParseRewrites}, with the map of error locations: `relocate(message)` turns the
 * `at [line:column]` markers of an error about the rewritten text into the user's text's (pipe
 * syntax; the other rewrites keep locations close).
 */
export function preParseWithLocations(sql: string): { text: string; relocate: (message: string) => string } {
  const pipe = MAYBE_PIPE.test(sql) || (MAYBE_WITH_FROM.test(sql) && /\)\s*FROM\b/i.test(sql)) ? rewritePipeSyntax(sql) : undefined;
  let out = pipe?.text ?? sql;
  if (MAYBE_CHUNKS.test(out)) out = concatLiterals(out) ?? out;
  if (MAYBE_BY_NAME.test(out)) out = byNameToCorresponding(out) ?? out;
  return { text: out, relocate: pipe ? pipe.relocate : (m) => m };
}
