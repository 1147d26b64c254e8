/**
 * Text rewrites applied to a request's SQL before the analyzer parses it, for GoogleSQL syntax
 * BigQuery accepts but this analyzer build (about 2023) cannot parse (issue 5): adjacent string
 * and bytes literal chunks (literal-concat.ts) and `BY NAME` set operations (set-by-name.ts).
 * Text without those constructs is returned unchanged; error locations in a rewritten request
 * refer to the rewritten text.
 */
import { concatLiterals } from './literal-concat.js';
import { byNameToCorresponding } from './set-by-name.js';

/** `sql` with the pre-parse rewrites applied (the same string when none applies). */
export function preParseRewrites(sql: string): string {
  let out = sql;
  out = concatLiterals(out) ?? out;
  out = byNameToCorresponding(out) ?? out;
  return out;
}
