/**
 * Parse-tree rewrites tried when this analyzer build (about 2023) rejects a statement BigQuery
 * accepts, keyed by the analyzer's error. Each applies at most once per statement; the
 * rewritten text is analyzed again (src/engine/analyze.ts).
 */
import { rewriteGroupByAll } from './group-by-all.js';
import { rewriteJsonSetCreateIfMissing } from './json-set.js';
import { rewriteCorresponding } from './set-by-name.js';

export interface ErrorRewrite {
  /** The analyzer error (BigQuery text) the rewrite answers. */
  error: RegExp;
  /** The statement's text rewritten on its parse tree, or undefined when nothing applies. */
  rewrite: (sql: string, parsed: unknown) => string | undefined;
}

export const ERROR_REWRITES: readonly ErrorRewrite[] = [
  { error: /GROUP BY ALL is not supported/, rewrite: rewriteGroupByAll },
  { error: /^Column propagation mode/, rewrite: rewriteCorresponding },
  // `CORRESPONDING BY (…)` (also `BY NAME ON (…)`) without a mode, which this build parses but does not resolve.
  { error: /^CORRESPONDING BY is not implemented/, rewrite: rewriteCorresponding },
  { error: /^No matching signature for function JSON_SET\b[\s\S]*create_if_missing =>/, rewrite: rewriteJsonSetCreateIfMissing },
];
