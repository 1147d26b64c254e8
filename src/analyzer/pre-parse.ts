/**
 * Text rewrites applied to a request's SQL before the analyzer parses it, for GoogleSQL syntax
 * BigQuery accepts but this analyzer build (about 2023) cannot parse: adjacent string
 * and bytes literal chunks (literal-concat.ts) and `BY NAME` set operations (set-by-name.ts).
 * Text without those constructs is returned unchanged; error locations in a rewritten request
 * refer to the rewritten text.
 */
import { concatLiterals } from './literal-concat.js';
import { byNameToCorresponding } from './set-by-name.js';

/** A quote, whitespace and comments, then a quote: adjacent literal chunks may be present (no nested quantifiers to backtrack). */
const MAYBE_CHUNKS = /['"]\s*(?:(?:--[^\n]*\n|#[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*[rRbB]{0,2}['"]/;
const MAYBE_BY_NAME = /\bBY\s+NAME\b/i;

/**
 * `sql` with the pre-parse rewrites applied (the same string when none applies). Cheap tests
 * skip the scans for text that cannot hold either construct (large INSERT … VALUES texts).
 */
export function preParseRewrites(sql: string): string {
  let out = sql;
  if (MAYBE_CHUNKS.test(out)) out = concatLiterals(out) ?? out;
  if (MAYBE_BY_NAME.test(out)) out = byNameToCorresponding(out) ?? out;
  return out;
}
